"""The web page's words in its reader's language: which language a request wants, the pages' HTML with their texts
translated, and the texts the page's scripts show.

A page's language is the one its reader chose with the page's chooser (a cookie), else the best fit of the
browser's ``Accept-Language``, else English. The HTML pages are templates under ``templates/`` whose texts are
written ``{{ English text }}`` (``extract_html`` gives them to pybabel); ``{{ @lang }}``, ``{{ @languages }}``
and ``{{ @texts }}`` stand for the language's code, the chooser's options and the scripts' texts, and
``{{ @part _NAME.html }}`` for a part the pages share. The scripts
mark their texts with ``tr("...")`` (pybabel reads them with its JavaScript extractor) and find them translated
in the page (``static/words.js``).
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from aiohttp import web

from bot.clocks import UNTIMED, WEB_CONTROLS
from bot.translation import ENGLISH, LANGUAGES, accepted, catalog, render
from bot.words import game_title
from engine.games import GAMES

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")
COOKIE = "draughts_language"
"""The language the reader chose on the page (the chooser sets it, for a year)."""
_MARK = re.compile(r"\{\{\s*(.+?)\s*\}\}", re.S)


def language(request: web.Request) -> str:
    """The language to answer ``request`` in: the reader's choice, else their browser's, else English."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return accepted(request.headers.get("Accept-Language", ""))


def tag(language: str) -> str:
    """``language`` as HTML and HTTP write it (``pt-BR``)."""
    return language.replace("_", "-")


def _message(marked: str) -> str:
    """A template's text as the catalog has it: its lines run together."""
    return " ".join(marked.split())


@functools.cache
def page(name: str, language: str) -> str:
    """The template ``name`` with its texts in ``language`` (English for a text the catalog lacks)."""
    found = catalog(language)

    def fill(mark: re.Match[str]) -> str:
        key = _message(mark[1])
        if key.startswith("@part "):  # a part the pages share (templates/_NAME.html), filled the same way
            return _MARK.sub(fill, (TEMPLATES / key.removeprefix("@part ")).read_text(encoding="utf-8").rstrip("\n"))
        if key == "@lang":
            return tag(language)
        if key == "@languages":
            return "".join(f'<option value="{code}"{" selected" if code == language else ""}>{html.escape(name)}'
                           f"</option>" for code, name in LANGUAGES.items())
        if key == "@controls":  # the clocks a game on the page may have: untimed, or a preset of a speed
            return "".join(f'<option value="{control}">{html.escape(render(control.words(), language))}</option>'
                           for control in (UNTIMED, *WEB_CONTROLS))
        if key == "@games":  # every game, for the analysis board's choice
            return "".join(f'<option value="{name}">{html.escape(render(game_title(name), language))}</option>'
                           for name in GAMES)
        if key == "@texts":  # JSON inside <script type="application/json">: "<" written so that it cannot end it
            return json.dumps(script_texts(language), ensure_ascii=False).replace("<", "\\u003c")
        return html.escape(found.gettext(key))

    return _MARK.sub(fill, (TEMPLATES / name).read_text(encoding="utf-8"))


@functools.cache
def script_texts(language: str) -> dict[str, str]:
    """The scripts' texts translated into ``language``, by their English (none for English)."""
    if language == ENGLISH:
        return {}
    found = catalog(language)
    return {message: found.gettext(message) for message in _script_messages()
            if found.gettext(message) != message}


@functools.cache
def _script_messages() -> tuple[str, ...]:
    """Every text the page's scripts mark with ``tr``."""
    from babel.messages.extract import extract

    messages: list[str] = []
    for path in sorted(STATIC.glob("*.js")):
        with path.open("rb") as stream:
            for _, message, _, _ in extract("javascript", stream, keywords={"tr": None},
                                            options={"parse_template_string": True}):  # (as babel.cfg)
                if isinstance(message, str):
                    messages.append(message)
    return tuple(dict.fromkeys(messages))


def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: object) -> Iterator[tuple[int, str, str, list[str]]]:
    """pybabel's extractor for the templates (babel.cfg): each ``{{ text }}`` that is not an ``@`` name."""
    source = fileobj.read().decode("utf-8")
    for mark in _MARK.finditer(source):
        key = _message(mark[1])
        if not key.startswith("@"):
            yield source.count("\n", 0, mark.start()) + 1, "", key, []
