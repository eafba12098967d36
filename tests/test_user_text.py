"""What people typed comes back without a single control, format or direction character, whichever one it was."""

from __future__ import annotations

import sys
import unicodedata

from bot.store import SqliteStore
from bot.user_text import JOINER, inert, neutral, quoted
from chat import ANA, Chat

# Controls, format characters (every invisible and direction mark), lone surrogates, line and paragraph separators.
UNSAFE = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
UNSAFE_SET = frozenset(UNSAFE)


def unsafe_in(text: str) -> list[str]:
    """The unsafe characters of ``text``, apart from the joiner ``neutral`` puts after '@' and '<' itself."""
    return [f"U+{ord(c):04X}" for i, c in enumerate(text)
            if c in UNSAFE_SET and not (c == JOINER and i and text[i - 1] in "@<")]

def test_no_control_or_format_character_survives_the_cleaning():
    assert "\u061c" in UNSAFE_SET and "\u202e" in UNSAFE_SET and "\U000e0001" in UNSAFE_SET
    for c in UNSAFE:
        for clean in (neutral, inert, quoted):
            assert unsafe_in(clean(f"a{c}b @c{c}")) == [], (f"U+{ord(c):04X}", clean.__name__)
    assert neutral("".join(UNSAFE) + "ana", 200) == "ana"


def test_mentions_are_still_defused_after_the_cleaning():
    assert neutral("\u061c@every\u2060one <@\u200e1>") == f"@{JOINER}everyone <{JOINER}@{JOINER}1>"


async def test_an_arabic_letter_mark_in_a_move_is_not_echoed(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "new english level 1")
    [reply] = await chat.say(ANA, "\u061c4d-3c\u200e")
    assert reply.private and "'4d-3c'" in reply.text and unsafe_in(reply.text) == [], ascii(reply.text)
    await chat.core.close()
