"""Each catalog says a draughts term one way: the words its glossary gives (``bot/locale/LANG/glossary.toml``) wherever
the term's English (``bot/locale/glossary.toml``) is in a text, and nowhere a word its glossary refuses (README,
"Languages")."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.translation import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "bot" / "locale"
TRANSLATED = [code for code in LANGUAGES if code != "en"]

CODE = re.compile(r"`[^`]*`")
"""A command as typed, which stays English."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@cache
def english_terms() -> dict[str, dict]:
    with (LOCALE / "glossary.toml").open("rb") as file:
        return tomllib.load(file)


@cache
def glossary(language: str) -> dict[str, dict]:
    with (LOCALE / language / "glossary.toml").open("rb") as file:
        return tomllib.load(file)


def phrase(text: str, whole: bool = True) -> str:
    """A regular expression for ``text`` as words: not inside a longer word nor a {placeholder}'s name, any run of
    spaces between its words; with ``whole`` False, the start of a word (a stem, for the words a glossary refuses)."""
    words = r"\s+".join(re.escape(word) for word in text.split())
    return r"(?<![\w{])" + words + (r"(?![\w}])" if whole else "")


def english_forms(word: str) -> set[str]:
    """An English word or phrase and its plurals: blunder(s), match(es), inaccuracy/inaccuracies, analysis/analyses."""
    forms = {word, word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    if word.endswith("is"):
        forms.add(word[:-2] + "es")
    return forms


@cache
def english_pattern(key: str) -> re.Pattern[str]:
    forms = sorted({form for word in english_terms()[key]["english"] for form in english_forms(word)}, key=len,
                   reverse=True)
    return re.compile("|".join(phrase(form) for form in forms), re.IGNORECASE)


def has_term(key: str, msgid: str, extra_except: list[str]) -> bool:
    """Whether the English text ``msgid`` has the term ``key`` (outside its exceptions and `code`)."""
    term = english_terms()[key]
    if "msgids" in term:
        names = [name.lower() for name in term["msgids"]]
        return msgid.lower() in names or any(f"({name})" in msgid.lower() for name in names)
    if msgid in term.get("skip", []):
        return False
    text = CODE.sub(" ", msgid)
    for words in [*term.get("except", []), *extra_except]:
        text = pattern(words).sub(" ", text)
    return english_pattern(key).search(text) is not None


@cache
def pattern(words: str, whole: bool = True) -> re.Pattern[str]:
    return re.compile(phrase(words, whole), re.IGNORECASE)


def uses(translation: str, words: list[str], whole: bool = True) -> str | None:
    """The first of ``words`` that ``translation`` uses, outside its {placeholders} and `code`; or None."""
    text = PLACEHOLDER.sub(" ", CODE.sub(" ", translation))
    for word in words:
        found = pattern(word, whole).search(text)
        if found:
            return found.group(0)
    return None


def entries(language: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The catalog's texts: each one's English (singular and plural) and its translations (every plural form)."""
    with (LOCALE / language / "LC_MESSAGES" / "bot.po").open("rb") as file:
        catalog = read_po(file, locale=language)
    found = []
    for message in catalog:
        if message.id:
            english = message.id if isinstance(message.id, tuple) else (message.id,)
            translations = message.string if isinstance(message.string, tuple) else (message.string,)
            found.append((tuple(str(text) for text in english), tuple(str(text or "") for text in translations)))
    return found


def test_every_language_has_a_glossary_of_the_same_terms_with_their_sources():
    terms = english_terms()
    assert len(terms) >= 40
    for key, term in terms.items():
        assert ("english" in term) != ("msgids" in term), key
    for language in TRANSLATED:
        words = glossary(language)
        assert words.keys() == terms.keys(), (language, words.keys() ^ terms.keys())
        for key, entry in words.items():
            assert entry["words"] and entry["source"], (language, key)
            assert set(entry) <= {"words", "avoid", "source", "except"}, (language, key)
            # a word the glossary gives is not one it refuses
            for word in entry["words"]:
                assert uses(word, entry.get("avoid", []), whole=False) is None, (language, key, word)


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_term_is_found_in_some_english_text(language):
    """Not vacuous: every term of the glossary is in at least one of the catalog's English texts."""
    words = glossary(language)
    texts = [text for english, _ in entries(language) for text in english]
    missing = [key for key in english_terms() if not any(has_term(key, text, words[key].get("except", []))
                                                        for text in texts)]
    assert not missing, f"{language}: no English text has {missing}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_uses_its_glossarys_word_wherever_the_english_has_the_term(language):
    words = glossary(language)
    wrong = []
    for english, translations in entries(language):
        for key, entry in words.items():
            if not any(has_term(key, text, entry.get("except", [])) for text in english):
                continue
            for translation in translations:
                if translation and uses(translation, entry["words"]) is None:
                    wrong.append(f"{key} ({' / '.join(entry['words'][:3])}): {english[0]!r} -> {translation!r}")
    assert not wrong, f"{language}: {len(wrong)} translations without their glossary's word:\n" + "\n".join(wrong)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_uses_a_word_its_glossary_refuses(language):
    words = glossary(language)
    wrong = []
    for english, translations in entries(language):
        for key, entry in words.items():
            for translation in translations:
                refused = uses(translation or "", entry.get("avoid", []), whole=False)
                if refused:
                    wrong.append(f"{key}: {refused!r} in {translation!r} (for {english[0]!r})")
    assert not wrong, f"{language}: {len(wrong)} refused words:\n" + "\n".join(wrong)


def test_a_term_is_found_whole_in_its_plurals_outside_placeholders_commands_and_its_other_senses():
    assert has_term("blunder", "{count} blunders", []) and has_term("inaccuracy", "No inaccuracies.", [])
    assert has_term("analysis", "{count} analyses are waiting", []) and has_term("match", "bot matches", [])
    assert has_term("line", "The whole line: {line}.", [])
    assert not has_term("line", "Solved: {line}.", []) and not has_term("analysis", "Type `analysis`.", [])
    assert not has_term("king", "the king escaped to {square}", []) and has_term("king", "a lone king", [])
    assert not has_term("move", "{colour} to move", []) and has_term("move", "Play a move", [])
    assert has_term("beginner", "from 1 (beginner) to 6 (master)", []) and not has_term("casual", "casual", [])
    assert uses("{count} зевка", ["зевок", "зевка"]) == "зевка" and uses("{line}", ["line"]) is None
    assert uses("Nieuwe partij, voor de rating.", ["voor de"], whole=False) == "voor de"
