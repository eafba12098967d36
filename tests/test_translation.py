"""The bot's languages: every marked text translated in every catalog with the same placeholders and the language's
plural forms, the right language chosen from a locale, and English whenever a translation is missing or broken."""

from __future__ import annotations

import io
import json
import logging
import re
import string
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural
from PIL import Image
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot import translation
from bot.translation import LANGUAGES, Text, accepted, join, language_of, plural, render, tr
from chat import ANA, BEN, Chat
from engine import Color, game_type

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"tr": None, "plural": (1, 2), "phrase": None, "counted": (1, 2)}



def source_messages() -> set[str | tuple[str, str]]:
    """Every text marked in the bot's source, the engine's words and the web page's texts, as pybabel extracts
    them with babel.cfg (README, "Languages")."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS,
                                                comment_tags=()):
        found.add(message if isinstance(message, str) else tuple(message[:2]))
    return found


def placeholders(text: str) -> set[str]:
    """The fields ``text.format`` fills, whole (``{name.x}`` is not ``{name}``)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_catalog_translates_every_marked_text_with_its_placeholders_and_plural_forms(language):
    path = ROOT / "bot" / "locale" / language / "LC_MESSAGES" / "bot.po"
    catalog = read_po(path.open("rb"), locale=language)
    marked = source_messages()
    assert len(marked) > 40
    assert catalog.num_plurals == get_plural(language).num_plurals == (3 if language in ("ru", "fr", "pt_BR") else 2)
    for message in marked:
        entry = catalog.get(message if isinstance(message, str) else message[0])
        assert entry is not None, f"{language} has no entry for {message!r}"
        assert "fuzzy" not in entry.flags, f"{language}: {message!r} is fuzzy"
        if isinstance(message, tuple):
            assert isinstance(entry.string, tuple) and len(entry.string) == catalog.num_plurals
            assert all(entry.string), f"{language}: a plural form of {message!r} is empty"
            wanted = placeholders(message[0]) | placeholders(message[1])
            for form in entry.string:
                assert placeholders(form) <= wanted, f"{language}: {form!r}"
        else:
            assert entry.string, f"{language}: {message!r} is not translated"
            assert placeholders(entry.string) == placeholders(message), f"{language}: {entry.string!r}"
    # every entry still marked in the source: none is left over from a text since changed
    kept = {m.id for m in catalog if m.id}
    assert kept == marked, kept ^ marked


def test_the_template_is_what_the_source_marks():
    template = read_po((ROOT / "bot" / "locale" / "bot.pot").open("rb"))
    assert {m.id for m in template if m.id} == source_messages()


def test_a_marked_text_reads_as_english_and_renders_in_each_language():
    text = join([tr("{name} played {move}.", name="ana", move="11-15"), tr("My move.")])
    assert text == "ana played 11-15. My move." and isinstance(text, str)
    assert render(text, "ru") == "ana: ход 11-15. Мой ход."
    assert render(text, "nl") == "ana speelde 11-15. Ik ben aan zet."
    assert render(text, "en") == str(text) and render("plain", "fr") == "plain"
    # names and moves are values: never translated, even when they are words of the language
    assert render(tr("{name} played {move}.", name="White", move="11-15"), "fr") == "White a joué 11-15."


def test_russian_has_three_plural_forms_and_english_two():
    def left(n: int, language: str) -> str:
        return render(plural("Taken back ({count} takeback left).", "Taken back ({count} takebacks left).", n),
                      language)

    assert [left(n, "en") for n in (1, 2)] == ["Taken back (1 takeback left).", "Taken back (2 takebacks left)."]
    assert [left(n, "ru") for n in (1, 3, 5, 21)] == [
        "Ход возвращён (остался 1 возврат).", "Ход возвращён (осталось 3 возврата).",
        "Ход возвращён (осталось 5 возвратов).", "Ход возвращён (остался 21 возврат)."]


@pytest.mark.parametrize("code, language", [
    ("pt-BR", "pt_BR"), ("pt_BR.UTF-8", "pt_BR"), ("pt-PT", "pt_BR"), ("ru_RU.UTF-8", "ru"), ("ru", "ru"),
    ("fr-CA", "fr"), ("nl-BE", "nl"), ("en-GB", "en"), ("de", "en"), ("C", "en"), ("", "en"), (None, "en")])
def test_the_language_that_fits_a_locale(code, language):
    assert language_of(code) == language


def test_the_accept_language_header_is_read_by_its_weights():
    assert accepted("de-DE,de;q=0.9,nl;q=0.8,en;q=0.5") == "nl"
    assert accepted("en-US,en;q=0.9,ru;q=0.8") == "en"
    assert accepted("fr;q=0.2, ru;q=0.7") == "ru"
    assert accepted("") == accepted("*") == accepted("xx;q=abc") == "en"
    assert accepted("ru; q=0.1, fr") == "fr" and accepted("fr;Q=0.1, ru;q=0.5") == "ru"  # as RFC 9110 allows
    assert accepted("nl ; q=0, pt-BR;q=0.2") == "pt_BR"  # q=0: not wanted


def test_a_missing_or_broken_translation_falls_back_to_english(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.WARNING)
    broken = tmp_path / "locale"
    (broken / "ru" / "LC_MESSAGES").mkdir(parents=True)
    (broken / "ru" / "LC_MESSAGES" / "bot.po").write_text('a line pasted by mistake\nmsgid "My move."\nmsgstr "Мой ход."\n')
    (broken / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (broken / "fr" / "LC_MESSAGES" / "bot.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "{name} played {move}."\nmsgstr "{nom} a joué {move}."\n'  # a placeholder renamed by mistake
        'msgid "{name} resigned"\nmsgstr "{name.nope} abandonne"\n')  # one that reads an attribute
    monkeypatch.setattr(translation, "LOCALE_DIR", broken)
    translation.catalog.cache_clear()
    try:
        assert render(tr("My move."), "ru") == "My move."
        assert render(tr("{name} played {move}.", name="ana", move="11-15"), "fr") == "ana played 11-15."
        assert render(tr("{name} resigned", name="ana"), "fr") == "ana resigned"
        assert render(tr("My move."), "nl") == "My move."  # no catalog at all
        assert any("ru catalog" in r.getMessage() for r in caplog.records)
        assert any("does not fit" in r.getMessage() for r in caplog.records)
    finally:
        translation.catalog.cache_clear()


async def test_a_game_in_the_core_reads_in_russian_once_rendered(pool):
    chat = Chat(__import__("bot.store", fromlist=["SqliteStore"]).SqliteStore(":memory:"), pool)
    try:
        await chat.say(ANA, "new english level 1 time 0.05 black")
        played = await chat.say(ANA, "11-15")
        assert isinstance(played[0].text, Text) and render(played[0].text, "ru").startswith("ana: ход 11-15.")
        refused = await chat.say(ANA, "hello")
        assert refused[0].private and isinstance(refused[0].text, Text)
        assert render(refused[0].text, "pt_BR").startswith("Não conheço")
    finally:
        await chat.core.close()


def _glyph(f, ch: str) -> tuple:
    return f.getbbox(ch), bytes(f.getmask(ch))


def test_a_russian_board_is_captioned_in_glyphs_not_boxes():
    from bot.core.state import board as board_of
    from bot.present import board_png
    from bot.replies import User
    from bot.tables import Kind, Seat, Table
    from bot.translation import render
    from renders.drawing import font, font_for

    table = Table(1, "g", "c", "c", Kind.BOT, game_type("russian").new_game(),
                  {Color.WHITE: Seat(User("1", "ana")), Color.BLACK: Seat(level=1)}, 1.0, rated=False)
    shown = board_of(table)
    caption, status = render(shown.caption, "ru"), render(shown.status, "ru")
    assert caption == "Русские шашки · ход 1 · Ход: Белые" and status == "Ход: Белые"
    for text in (caption, status):
        f = font_for(text, 20)
        box = _glyph(f, "\ue000")  # a private-use character: no font draws it, so it is the missing glyph's box
        assert all(_glyph(f, ch) != box for ch in set(text) - set(" ·:")), text
    assert _glyph(font(20), "Ж") == _glyph(font(20), "\ue000")  # the built-in font has only boxes for it
    english, russian = (Image.open(io.BytesIO(board_png(shown, language=language))) for language in ("en", "ru"))
    assert english.size == russian.size and english.tobytes() != russian.tobytes()


def test_the_rules_reasons_for_an_end_are_said_in_each_language():
    from bot.ending import Ending
    from bot.words import engine_words
    from engine import Termination
    from engine.errors import counted, phrase

    ended = game_type("english").new_game("B:W18:B")  # Black to move, with nothing left to move
    result = ended.result()
    assert result is not None and result.reason == "Black has no legal move"  # the engine's English, as before
    assert render(engine_words(result.words), "ru") == "у стороны «Чёрные» нет ходов"
    kings = counted("{count} move each with only kings moving and nothing taken",
                    "{count} moves each with only kings moving and nothing taken", 25)
    assert str(kings) == "25 moves each with only kings moving and nothing taken"
    assert render(engine_words(kings), "nl") == "25 zetten elk met alleen dammen die zetten en niets geslagen"
    escaped = phrase("the king escaped to {square}", square="a4")
    assert render(engine_words(escaped), "pt_BR") == "o rei escapou para a4"
    # as the database keeps them, as data: the rules' reason read from the game itself, the chat's own by its words
    players = {Color.WHITE: "ana", Color.BLACK: "ben"}
    by_rules = Ending(Color.WHITE, Termination.NO_MOVES).reason(players, ended)
    assert render(by_rules, "ru") == "у стороны «Чёрные» нет ходов" and by_rules == "Black has no legal move"
    resigned = Ending(Color.BLACK, Termination.RESIGNED).reason(players, ended)
    assert render(resigned, "fr") == render(tr("{name} resigned", name="ana"), "fr")


def test_accented_captions_are_drawn_with_glyphs_and_english_ones_as_before():
    from renders.drawing import font, font_for

    assert font_for("English · move 1 · Black to move", 20) is font(20)  # English images unchanged
    for caption in ("Dames brésiliennes", "As Pretas não têm lance", "Ход: Белые"):
        f = font_for(caption, 20)
        assert all(_glyph(f, ch) != _glyph(f, "\ue000") for ch in set(caption) - set(" ·:")), caption
    assert _glyph(font(20), "é") == _glyph(font(20), "\ue000")  # the built-in font has no accented letters


def test_a_marked_text_survives_a_copy_and_a_pickle():
    import copy
    import pickle

    text = join([tr("{name} played {move}.", name="ana", move="11-15"), plural("{count} takeback left.",
                                                                             "{count} takebacks left.", 2)])
    for again in (copy.copy(text), copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert again == text and render(again, "ru") == render(text, "ru")


def test_the_engines_words_for_a_refused_move_keep_their_english_and_are_said_in_each_language():
    from bot.core.results import refusal
    from engine import IllegalMoveError, InvalidMoveError

    english = game_type("english")

    def refused(kind, text: str, record=None):
        with pytest.raises(kind) as error:
            record.play_text(text) if record is not None else english.parse_move(english.start(), text)
        return error.value

    error = refused(IllegalMoveError, "22-18")
    assert error.words.template == "the piece on {square} is not yours: {colour} is to move"
    assert str(error) == "the piece on 22 is not yours: Black is to move"  # the engine's English, as before
    assert refusal(error).startswith("The piece on 22 is not yours: Black is to move. Legal moves: 9-13, 9-14")
    assert render(refusal(error), "fr").startswith(
        "La pièce sur 22 n'est pas à vous : c'est aux Noirs de jouer. Coups légaux : 9-13, 9-14")
    # words inside the words (a choice of moves), and what the person typed, in the reader's language around them
    assert render(refusal(refused(IllegalMoveError, "10-19")), "ru").startswith(
        "Шашка на поле 10 не может сыграть 10-19; она может сыграть 10-14 или 10-15. Возможные ходы")
    assert render(refusal(refused(InvalidMoveError, "99-98")), "nl").startswith(
        "Er is geen veld 99: de velden zijn genummerd van 1 tot en met 32. Geldige zetten: ")
    # the game's result, and the rules' reason in it
    over = refused(IllegalMoveError, "28-32", english.new_game("B:W32:B28"))
    assert str(over) == "the game is over (White wins: Black has no legal move)"
    assert render(refusal(over), "pt_BR") == "A partida acabou (As Brancas vencem: as Pretas não têm lance válido)."
    tablut = refused(IllegalMoveError, "a1-a2", game_type("tablut").new_game())
    assert render(refusal(tablut), "fr").startswith("a1-a2 : il n'y a pas de pièce blanche sur a1.")


async def test_a_puzzle_posted_answered_and_refused_reads_in_each_language(pool, monkeypatch):
    from bot.core import puzzles
    from bot.store import SqliteStore

    puzzle = max(puzzles.puzzle_set("english").values(), key=lambda p: (p.solver_moves, p.id))
    monkeypatch.setattr(puzzles, "pick", lambda *args: puzzle)
    gt = game_type("english")
    here = gt.read_position(puzzle.position)
    right = gt.parse_move(here, puzzle.solution[0])
    wrong = next(gt.write_move(here, m) for m in gt.legal_moves(here) if m != right)
    solver = {"W": ("Белые", "Wit"), "B": ("Чёрные", "Zwart")}[puzzle.position[0]]
    chat = Chat(SqliteStore(":memory:"), pool)
    try:
        [posted] = await chat.say(ANA, "puzzle")
        assert render(posted.text, "ru").startswith(
            f"Задача {puzzle.id} (Английские шашки / чекерс (8x8), рейтинг ")
        assert f"{solver[0]} начинают и выигрывают" in render(posted.text, "ru")
        assert render(posted.board.caption, "nl") == f"Engels dammen · puzzel {puzzle.id} · {solver[1]} speelt en wint"
        [typo] = await chat.say(BEN, "99-98")
        assert typo.private and render(typo.text, "fr").startswith("Il n'y a pas de case 99 : les cases sont numérotées")
        [failed] = await chat.say(BEN, wrong)
        assert failed.text.startswith(f"{wrong} is not it. The answer was ")  # the English as before
        shown = render(failed.text, "ru")
        assert shown.startswith(f"{wrong} — не то. Ответ был {gt.write_move(here, right)}; весь вариант: ")
        assert "Рейтинг ben в задачах: 1500 → " in shown
    finally:
        await chat.core.close()


def test_every_game_has_its_title_translated():
    from bot.words import GAME_TITLES
    from engine.games import GAMES

    assert {name: str(GAME_TITLES[name]) for name in GAMES} == {name: game.title for name, game in GAMES.items()}
    assert render(GAME_TITLES["russian"], "pt_BR") == "Russas (8x8)"


def test_the_terminals_language_comes_from_the_posix_locale_as_gettext_reads_it():
    assert translation.language_of_locale({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert translation.language_of_locale({"LANG": "pt_BR.UTF-8"}) == "pt_BR"
    assert translation.language_of_locale({"LC_ALL": "fr_FR.UTF-8", "LANG": "ru_RU.UTF-8"}) == "fr"  # LC_ALL first
    assert translation.language_of_locale({"LC_MESSAGES": "nl_BE.UTF-8", "LANG": "en_GB.UTF-8"}) == "nl"
    assert translation.language_of_locale({"LANGUAGE": "de:nl", "LANG": "de_DE.UTF-8"}) == "nl"  # its list, in order
    for environ in ({}, {"LANG": "C.UTF-8", "LANGUAGE": "ru"}, {"LANG": "POSIX"}, {"LANG": "ja_JP.UTF-8"}):
        assert translation.language_of_locale(environ) == "en", environ


def test_a_text_sent_as_json_to_another_process_is_still_shown_in_each_readers_language():
    said = join([tr("{name} ({colour}) wins: {reason}.", name="ana", colour=tr("White"), reason=tr("resigned")),
                 plural("{count} game", "{count} games", 3)])
    capitalised = translation.Joined([tr("agreed"), "."], "", english="Agreed.")
    for text in (said, capitalised, "plain words"):
        back = translation.text_from_json(json.loads(json.dumps(translation.text_json(text))))
        assert back == text and all(render(back, code) == render(text, code) for code in LANGUAGES)
    assert render(said, "ru") != str(said)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_catalog_compiles_without_a_warning(language, caplog):
    import gettext
    import warnings

    from babel.messages.mofile import write_mo

    path = ROOT / "bot" / "locale" / language / "LC_MESSAGES" / "bot.po"
    catalog = read_po(path.open("rb"), locale=language, abort_invalid=True)
    assert [(m.id, errors) for m, errors in catalog.check()] == []  # Babel's checks (placeholders, plural forms)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_mo(io.BytesIO(), catalog)
    translation.catalog.cache_clear()
    with caplog.at_level(logging.WARNING, logger="bot.translation"):
        assert isinstance(translation.catalog(language), gettext.GNUTranslations)
    assert not caplog.records


def test_a_game_ended_as_the_database_keeps_it_reads_in_each_language():
    from bot.ending import Ending
    from engine import Termination

    players = {Color.WHITE: "ana", Color.BLACK: "ben"}
    record = game_type("english").new_game()
    won = Ending(Color.BLACK, Termination.RESIGNED).said(players, record)
    assert won == "ben (Black) wins: ana resigned."
    assert render(won, "ru") == "Победа: ben (Чёрные), ana сдался(-ась)." != won
    drawn = Ending(None, Termination.AGREED).said(players, record)
    assert drawn == "Draw (agreed)." and render(drawn, "fr") == "Nulle (d'un commun accord)." != str(drawn)


def test_the_analysis_graph_and_the_replay_speak_the_readers_language(monkeypatch):
    import renders.graph
    from bot import present
    from bot.words import colour_name
    from renders.drawing import font_for
    from test_graph import game

    analysis = game([0, 40, -300, -250], {2: "blunder", 1: "inaccuracy"}, name="russian")
    asked: list[str] = []

    def recorded(text: str, size: int):
        asked.append(text)
        return font_for(text, size)

    monkeypatch.setattr(renders.graph, "font_for", recorded)
    english, russian = present.graph_png(analysis), present.graph_png(analysis, "ru")
    assert english != russian
    words = asked[-1]  # the caption and the legend, drawn in a font that has their glyphs
    for said in (tr("{game} · White's winning chances", game=tr("Russian")), tr("inaccuracy"), tr("blunder")):
        assert render(said, "ru") in words and str(said) not in words
    f = font_for(words, 20)
    assert all(_glyph(f, ch) != _glyph(f, "\ue000") for ch in set(words) - set(" ·:'"))

    record = game_type("russian").new_game()
    record.play_text(record.type.write_move(record.position, record.legal_moves()[0]))
    assert present.replay_gif(record, "ru").startswith(b"GIF8")
    shown: dict = {}
    monkeypatch.setattr(present, "render_gif", lambda game, options, statuses=None: shown.update(
        caption=options.caption, statuses=statuses) or b"GIF")
    present.replay_gif(record, "ru")
    assert shown["caption"] == render(tr("Russian"), "ru")
    assert shown["statuses"] == [render(tr("{colour} to move", colour=colour_name(c)), "ru")
                                 for c in (Color.WHITE, Color.BLACK)]
    present.replay_gif(record)
    assert shown["statuses"] is None  # English: the game's own words, as before
