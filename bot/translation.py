"""What the bot says, in the players' languages, through gettext.

Texts are written in English and marked where they are made: ``tr("{name} played {move}.", name=..., move=...)``
(``plural(...)`` for a count). A marked text is a ``Text``: a ``str`` that reads as its English (so the core and
its tests go on using it as a string) and remembers its message and values, so that a front end shows it in a
reader's language with ``render(text, language)``. Values may be texts themselves (a colour's name); player
names, moves and notation are values, never translated.

The catalogs are gettext's ``.po`` files under ``bot/locale/LANG/LC_MESSAGES/bot.po``, made and kept up to date
with Babel (README, "Translations"); they are compiled when first used. A text with no translation, a catalog
that is missing or cannot be read, or a translation whose placeholders do not match its message, falls back to
English: a translation never stops a reply.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from babel.numbers import format_decimal, format_percent

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "bot"
ENGLISH = "en"
LANGUAGES = {"en": "English", "nl": "Nederlands", "fr": "Français", "ru": "Русский", "pt_BR": "Português (Brasil)"}
"""The languages the bot speaks, by gettext's code, with their names in themselves (for a chooser)."""


class Text(str):
    """A marked text: its English as the string, and what it was made from (``render`` reads it again)."""

    message: str
    plural_message: str | None
    number: int | None
    values: dict[str, object]

    def __new__(cls, message: str, values: dict[str, object], plural_message: str | None = None,
                count: int | None = None) -> Text:
        template = plural_message if plural_message is not None and count != 1 else message
        self = super().__new__(cls, template.format(**values))
        self.message, self.plural_message, self.number, self.values = message, plural_message, count, values
        return self

    def __reduce__(self) -> tuple:  # copied and pickled as what it was made from
        return Text, (self.message, self.values, self.plural_message, self.number)


class Joined(Text):
    """Texts (or plain strings) one after another, with ``sep`` between them; each is rendered on its own."""

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, parts: Iterable[str], sep: str = " ", english: str | None = None) -> Joined:  # type: ignore[override]
        """``english``: its English, when that is not its parts joined (a sentence made a capital first)."""
        items = tuple(parts)
        self = str.__new__(cls, sep.join(items) if english is None else english)
        self.message, self.plural_message, self.number, self.values = "", None, None, {}
        self.parts, self.sep = items, sep
        return self

    def __reduce__(self) -> tuple:
        return Joined, (self.parts, self.sep, str(self))


class Number(Text):
    """A number in a text, written as each language writes numbers (Babel's CLDR data: ``300,000`` and ``+0.09`` in
    English, ``300 000`` and ``+0,09`` in French); its English is the string."""

    value: float
    pattern: str

    def __new__(cls, value: float, pattern: str) -> Number:  # type: ignore[override]
        self = str.__new__(cls, _formatted(value, pattern, ENGLISH))
        self.message, self.plural_message, self.number, self.values = "", None, None, {}
        self.value, self.pattern = value, pattern
        return self

    def __reduce__(self) -> tuple:
        return Number, (self.value, self.pattern)


WHOLE = "#,##0"
"""A whole number, its thousands grouped: 300,000."""
SIGNED = "+#,##0.00;-#,##0.00"
"""A score in men, always with its sign and two decimals: +0.35, -3.00."""
TWO_PLACES = "#,##0.00"
"""Two decimals: 1.55."""
DECIMAL = "#,##0.###"
"""As few decimals as the value needs, up to three: 2, 0.05 (seconds, minutes)."""
PERCENT = "%"
"""A share as a percentage, in the language's own way: 50% in English, 50 % in French."""


def number(value: float, pattern: str = WHOLE) -> Number:
    """``value`` written with ``pattern`` (a CLDR number pattern: ``WHOLE``, ``SIGNED``, ``TWO_PLACES``,
    ``DECIMAL``; or ``PERCENT``, for a share from 0 to 1) in each reader's language: the value of a placeholder
    that is a number people read (not a count, a rating or a game's number, which are written as they are)."""
    return Number(value, pattern)


def _formatted(value: float, pattern: str, language: str) -> str:
    locale = language if language in LANGUAGES else ENGLISH
    return format_percent(value, locale=locale) if pattern == PERCENT else format_decimal(value, pattern, locale)


def tr(message: str, **values: object) -> Text:
    """``message`` (English, with ``{name}`` placeholders) filled with ``values``, to be shown in any language."""
    return Text(message, values)


def plural(message: str, plural_message: str, count: int, **values: object) -> Text:
    """The singular or plural ``message`` for ``count`` (also given to the placeholders as ``{count}``), in each
    language's own plural forms (Russian has three)."""
    return Text(message, {"count": count, **values}, plural_message, count)


def join(parts: Iterable[str], sep: str = " ") -> Text:
    """Texts one after another: a text made of texts, each shown in the reader's language."""
    return Joined(parts, sep)


def language_of(code: str | None) -> str:
    """The language the bot speaks that best fits ``code``: a Discord locale (``pt-BR``, ``nl``), a POSIX locale
    (``ru_RU.UTF-8``) or an Accept-Language item (``fr-CA``); English when none fits."""
    if not code:
        return ENGLISH
    code = re.split(r"[.@;]", code.strip(), maxsplit=1)[0].replace("-", "_")
    language, _, region = code.partition("_")
    exact = f"{language.lower()}_{region.upper()}" if region else language.lower()
    if exact in LANGUAGES:
        return exact
    return next((known for known in LANGUAGES if known.split("_")[0] == language.lower()), ENGLISH)


def language_of_locale(environ: Mapping[str, str]) -> str:
    """The language of the POSIX locale in ``environ``, as gettext reads it: ``LC_ALL``, ``LC_MESSAGES`` or
    ``LANG`` (the first set), and before it the preference list ``LANGUAGE`` (``nl:fr``); English for the C locale
    or none."""
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "")
    if locale.split(".")[0] in ("", "C", "POSIX"):
        return ENGLISH
    return _first_spoken([*environ.get("LANGUAGE", "").split(":"), locale])


def accepted(header: str) -> str:
    """The language to answer an HTTP ``Accept-Language`` header in (by its q-values; English when none fits)."""
    ranked = []
    for place, item in enumerate(header.split(",")):
        code, *parameters = (part.strip() for part in item.split(";"))
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        if code and code != "*" and q > 0:
            ranked.append((-q, place, code))
    return _first_spoken(code for _, _, code in sorted(ranked))


def _first_spoken(codes: Iterable[str]) -> str:
    """The language of the first of ``codes`` (in order of preference) that the bot speaks; English when none."""
    for code in codes:
        if code and (language_of(code) != ENGLISH or code.lower().startswith("en")):
            return language_of(code)
    return ENGLISH


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (no translation for English, or when its file is missing or broken)."""
    if language == ENGLISH or language not in LANGUAGES:
        return gettext.NullTranslations()
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with path.open("rb") as stream:
            messages = read_po(stream, locale=language, abort_invalid=True)
        compiled = io.BytesIO()
        write_mo(compiled, messages)
        compiled.seek(0)
        return gettext.GNUTranslations(compiled)
    except Exception as error:  # a catalog that cannot be read: English, and the operator is told once
        log.warning("the %s catalog (%s) cannot be read, so English is used: %s", language, path, error)
        return gettext.NullTranslations()


def render(text: str, language: str) -> str:
    """``text`` in ``language``: a ``Text`` translated (its values too), a plain string as it is."""
    if not isinstance(text, Text) or language == ENGLISH:
        return str(text)
    if isinstance(text, Number):
        return _formatted(text.value, text.pattern, language)
    if isinstance(text, Joined):
        return text.sep.join(render(part, language) for part in text.parts)
    found = catalog(language)
    if text.plural_message is not None:
        assert text.number is not None
        template = found.ngettext(text.message, text.plural_message, text.number)
    else:
        template = found.gettext(text.message)
    values = {name: render(value, language) if isinstance(value, str) else value for name, value in text.values.items()}
    try:
        return template.format(**values)
    except Exception:  # a translation whose placeholders do not fit ({name.x}, {count[0]}, {missing}): English
        log.warning("the %s translation of %r does not fit its values", language, text.message)
        return str(text)


def rendered(value: object, language: str) -> object:
    """``value`` (a JSON value: dicts, lists, strings) with every ``Text`` in it shown in ``language``."""
    if isinstance(value, str):
        return render(value, language)
    if isinstance(value, dict):
        return {key: rendered(item, language) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [rendered(item, language) for item in value]
    return value


def text_json(text: str) -> object:
    """``text`` as JSON that keeps what it was made from (``text_from_json`` reads it back): a ``Text`` sent to
    another process (the web tier's pages) is still shown in each reader's language there. What goes without
    saying is left out (a message's values when it has none, its plural when it has none, a joined text's English
    when it is its parts joined): it travels with every event of a game."""
    if isinstance(text, Number):
        return {"decimal": text.value, "pattern": text.pattern}
    if isinstance(text, Joined):  # (its English too, when a sentence's is not its parts joined)
        data: dict[str, object] = {"parts": [text_json(part) for part in text.parts], "sep": text.sep}
        if str(text) != text.sep.join(str(part) for part in text.parts):
            data["english"] = str(text)
        return data
    if isinstance(text, Text):
        data = {"message": text.message}
        if text.values:
            data["values"] = {name: text_json(value) if isinstance(value, str) else value
                              if isinstance(value, (int, float)) else str(value) for name, value in text.values.items()}
        if text.plural_message is not None:
            data["plural"], data["number"] = text.plural_message, text.number
        return data
    return str(text)


def text_from_json(data: object) -> str:
    """The text ``text_json`` wrote."""
    if isinstance(data, dict) and "decimal" in data:
        return Number(float(data["decimal"]), str(data["pattern"]))
    if isinstance(data, dict) and "parts" in data:
        english = data.get("english")
        return Joined((text_from_json(part) for part in data["parts"]), str(data["sep"]),
                      english if isinstance(english, str) else None)
    if isinstance(data, dict):
        values = {name: text_from_json(value) if isinstance(value, (str, dict)) else value
                  for name, value in data.get("values", {}).items()}
        return Text(str(data["message"]), values, data.get("plural"), data.get("number"))
    return str(data)
