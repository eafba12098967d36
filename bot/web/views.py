"""What the web page is sent: a game's board, its positions move by move, and who is to move, as JSON values; and
a puzzle's start and the answers to its moves.

Plain functions of the core's values (a ``LiveGame``, a finished ``GameRecord``, a ``Puzzle`` and the core's check of
its moves); the page draws everything itself from these, so nothing a person typed is ever sent as markup.

A game's page is sent, over its socket (``bot.web.pages``): ``game``, the game whole, when it connects and when it
asks again after a gap in the versions (``v``) of what it was sent; ``update``, the positions from the first that
changed and the whole status (a takeback, an offer, the end); ``moved``, one move alone (``moved``); ``seat``, the
seat its link holds; and ``notice``, an answer to the page alone.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.core import Progress, Step
from bot.ending import Ending
from bot.evaluation import Evaluation
from bot.replies import User
from bot.tables import Kind, LiveGame
from bot.words import game_title
from bot.translation import rendered
from engine import Color, GameRecord, GameType, MoveError, game_type
from engine.analysis import NAGS
from engine.puzzles.puzzle import Puzzle
from renders.graph import JUDGEMENT_COLOURS, white_chances
from renders.themes import THEMES


def layout(game_type: GameType[Any, Any]) -> dict:
    """The empty board: its size, dark cells, square numbers, edge names and special cells, and which side moves
    first."""
    grid = game_type.grid()
    return {"name": game_type.name, "title": game_title(game_type.name), "size": grid.size,
            "first": str(game_type.first),
            "playable": sorted(grid.playable), "labels": [[*cell, text] for cell, text in grid.labels],
            "files": grid.files, "ranks": list(grid.ranks), "marks": [[*cell, kind] for cell, kind in grid.marks]}


def entry(game: GameRecord[Any, Any], ply: int) -> dict:
    """Position ``ply`` of a game: its pieces, the move that led to it (its path and what it took), whose turn."""
    position = game.positions[ply]
    return {"pieces": [[*cell, kind] for cell, kind in game.type.pieces(position)],
            "move": _move(game, ply) if ply > 0 else None, "turn": str(position.turn)}


def _move(game: GameRecord[Any, Any], ply: int) -> dict:
    """The move that led to position ``ply``: as it is written, its path, and what it took (cell and piece)."""
    t = game.type
    before, played = game.positions[ply - 1], game.moves[ply - 1]
    taken = {cell: kind for cell, kind in t.pieces(before)}
    return {"text": t.write_move(before, played), "path": [list(c) for c in t.path(played)],
            "captured": [[*t.cell(sq), taken.get(t.cell(sq), "")] for sq in played.captures]}


def moved(before: LiveGame, after: LiveGame, said: str, at: float) -> dict:
    """The update for one move, to a page that has seen the game just before it (``before``): the move (the cells of
    what it took, if it took anything), the piece it left on its last cell when that is not the one that set out (a man
    crowned), the chat's words on it, the bot's evaluation when it changed, and when it was played (to the
    millisecond). The page makes the rest itself: the position after it, whose turn it is and who is to move, no
    offer waiting. A player's legal moves go only to their own page (``legal_moves``)."""
    game = after.game
    t, path = game.type, game.type.path(game.moves[-1])
    move = _move(game, len(game.moves))
    if move["captured"]:  # (the page knows which pieces stood there)
        move["captured"] = [cell[:2] for cell in move["captured"]]
    else:
        del move["captured"]
    message: dict = {"type": "moved", "v": after.told, "move": move, "said": said, "at": round(at, 3)}
    if dict(t.pieces(game.positions[-1])).get(path[-1]) != dict(t.pieces(game.positions[-2])).get(path[0]):
        message["piece"] = dict(t.pieces(game.positions[-1])).get(path[-1])
    if after.evaluation != before.evaluation:
        message["evaluation"] = evaluation(after)
    if after.clocks is not None:
        message["clocks"] = clocks(after, after.clocks.since)
    return message


def legal(game_type: GameType[Any, Any], position: Any) -> list[dict]:
    """The legal moves as the page offers them: each one's squares in order and the text that plays it."""
    return [{"path": [list(c) for c in game_type.path(m)], "text": game_type.write_move(position, m, full=True)}
            for m in game_type.legal_moves(position)]


@dataclass(frozen=True)
class Finished:
    """A game that has ended, as its last chat message told it."""

    id: int
    record: GameRecord[Any, Any]
    players: dict[Color, str]
    kind: Kind
    result: str
    """What the chat said at the end: 'Draw (agreed).', 'ana (White) wins: ...'."""
    pdn: str
    """The record the chat gave with it, result included."""
    guild: str
    """The server the game was played on (its analysis is asked for there)."""
    people: dict[Color, User] = field(default_factory=dict)
    """The players who are people, by colour (a seat link of theirs shows the game from their side and asks for
    the analysis as them)."""
    starter: User | None = None
    """Who started the bot match, when it was one (their link shows it without an error)."""
    ending: Ending | None = None
    """How it ended (None: a game an old version ended in words the database's migration did not know)."""


def offer(table: LiveGame) -> dict | None:
    """What waits for an answer in the game (``accept`` or ``decline``): a draw offer or a takeback request, and
    the colour that made it; None when nothing does."""
    for kind, colour in (("draw", table.draw_offer), ("takeback", table.takeback_offer)):
        if colour is not None:
            return {"kind": kind, "by": str(colour)}
    return None


def status(table: LiveGame | Finished, said: str = "", now: float | None = None) -> dict:
    """Who plays, whose turn, the bot's evaluation and time, the legal moves of a person to move, what waits for
    an answer, the clocks (at ``now``), the result."""
    if isinstance(table, Finished):
        game = table.record
        return {"players": {str(c): name for c, name in table.players.items()}, "kind": table.kind.value,
                "ply": len(game.moves), "turn": str(game.turn), "to_move": None, "legal": [], "offer": None,
                "result": table.result, "said": said, "evaluation": None, "seconds": None, "takebacks": None,
                "control": None, "clocks": None, **outcome(table)}
    game = table.game
    seat = table.to_move
    bots = [s for s in table.seats.values() if s.is_bot]
    return {"players": {str(c): s.name for c, s in table.seats.items()}, "kind": table.kind.value,
            "ply": len(game.moves), "turn": str(game.turn), "to_move": seat.name,
            "legal": legal_moves(table), "offer": offer(table),
            "result": None, "said": said, "evaluation": evaluation(table),
            "seconds": table.budget if bots and not table.control.timed else None, "takebacks": table.takebacks_left,
            "control": str(table.control) if table.control.timed else None, "clocks": clocks(table, now)}


def clocks(table: LiveGame, now: float | None = None) -> dict | None:
    """A timed game's clocks as the page is sent them (``now``, by default the time it is sent): each side's
    seconds left; the page counts the side to move's down itself, and takes the server's again with each update."""
    if table.clocks is None:
        return None
    now = time.time() if now is None else now
    return {str(c): round(table.clocks.left(c, table.game.turn, now), 1) for c in Color}


def legal_moves(table: LiveGame) -> list[dict]:
    """The legal moves of the person to move (none when the bot is, or in a bot match)."""
    if table.to_move.is_bot or table.kind is Kind.MATCH:
        return []
    return legal(table.game.type, table.game.position)


def evaluation(table: LiveGame) -> dict | None:
    """The bot's last evaluation for the page, for White (``Evaluation.page``), or None when the core has none (before
    the bot's first move, after a takeback, without a bot)."""
    return Evaluation(table.evaluation).page() if table.evaluation is not None else None


def outcome(finished: Finished) -> dict:
    """How a finished game ended, for the page: its ``headline``, the page's result line beside the players' names
    ("White wins (ben resigned)."; the chat's own sentence for a game whose end is not known as data), the
    ``winner``'s colour ("White", "Black", or None) and whether it was ``drawn``."""
    ending = finished.ending
    if ending is None:
        return {"headline": finished.result, "winner": None, "drawn": False}
    return {"headline": ending.headline(finished.players, finished.record),
            "winner": str(ending.winner) if ending.winner is not None else None, "drawn": ending.drawn}


def written(message: dict, language: str) -> str:
    """A message for a page as JSON, its texts in ``language``, and the chat's words in its status as the page shows
    them: without the backticks that mark a command in chat."""
    shown = rendered(message, language)
    assert isinstance(shown, dict)
    status = shown.get("status")
    if isinstance(status, dict):
        for key in ("said", "result", "headline"):
            if isinstance(status.get(key), str):
                status[key] = status[key].replace("`", "")
    return json.dumps(shown, separators=(",", ":"))


@functools.cache
def themes() -> dict:
    """The board colours of every theme the images have, as CSS colours (worked out once)."""
    def css(rgb: tuple[int, int, int]) -> str:
        return "#%02x%02x%02x" % rgb

    return {name: {key: css(value) for key, value in vars(t).items() if isinstance(value, tuple)} | {
        "ghost_alpha": t.ghost_alpha} for name, t in THEMES.items()}


def analysis(progress: Progress, record: GameRecord[Any, Any]) -> dict:
    """A finished game's analysis as its page shows it: ``status`` ('none': not asked for; 'running', with
    ``done`` of ``total`` positions searched; 'done'), and once done ``analysis`` (each position's White winning
    chances for the graph, each move judged) and ``players`` (each side's figures). ``colours``: each judgement's
    colour, as the chat's graph draws it.

    A move's ``ply`` is its number in the page's list (1 for the first move: the position after it); its
    ``before`` and ``after`` are the best and the played move's scores for White, as every evaluation on the page
    (``for_white``); ``path`` is the better move's cells (for the arrow on the board), given for judged moves."""
    found = progress.analysis
    status = "done" if found is not None else "running" if progress.running else "none"
    shown: dict[str, Any] = {"status": status, "done": progress.done, "total": progress.total, "analysis": None,
                             "players": None, "colours": JUDGEMENT_COLOURS}
    if found is None:
        return shown
    kind = record.type
    moves = []
    for m in found.moves:
        path = None
        if m.judgement is not None and m.best and m.ply < len(record.moves):
            try:
                path = [list(cell) for cell in kind.path(kind.parse_move(record.positions[m.ply], m.best))]
            except MoveError:
                path = None  # a record that does not read back as the analysis saw it: no arrow rather than a wrong one
        moves.append({"ply": m.ply + 1, "mover": str(m.mover), "played": m.played, "best": m.best,
                      "line": list(m.line), "before": for_white(m.before, m.mover),
                      "after": for_white(m.after, m.mover),
                      "loss": round(m.loss, 4), "judgement": m.judgement, "mark": NAGS.get(m.judgement or ""),
                      "path": path, "database": m.database})
    shown["analysis"] = {"game": found.game, "nodes": found.nodes, "moves": moves,
                         "chances": [round(white_chances(s, kind.chances_scale), 4) for s in found.scores]}
    shown["players"] = {str(c): asdict(p) for c, p in found.players.items()}
    return shown


def for_white(score: int, mover: Color) -> float | str:
    """An analysis's score for ``mover`` as the page shows it, for White: men (a number the page writes in its
    language), or the side a forced result wins for ("a win for White", in the page's words)."""
    found = Evaluation.of(score, mover)
    return found.score() if found.winner is not None else found.white / 100


def puzzle(found: Puzzle, path: str, daily: bool) -> dict:
    """A puzzle's page as it starts: the board and its first position, the solver's colour and legal moves, the
    theme, and ``path``, the puzzle's own page (a daily page's puzzle keeps it after midnight). Nothing of the
    solution: the page is sent that once the puzzle is over."""
    kind = game_type(found.variant)
    record = kind.new_game(found.position)
    return {"id": found.id, "variant": found.variant, "path": path, "daily": daily, "board": layout(kind),
            "themes": themes(), "theme": found.theme, "solver": str(record.turn), "entry": entry(record, 0),
            "legal": legal(kind, record.position)}


def puzzle_line(found: Puzzle) -> GameRecord[Any, Any]:
    """The puzzle's whole solution, played out."""
    record = game_type(found.variant).new_game(found.position)
    for text in found.solution:
        record.play_text(text)
    return record


def puzzle_step(found: Puzzle, moves: list[str], step: Step) -> dict:
    """The answer to the solver's ``moves``, as the core checked them (``step``): after a right move, the positions
    after it and after the defender's reply, and the legal moves then; after a wrong one, the position it leads to
    (``entry``), which the page shows and takes back (nothing of the answer: the solver may try again); once it is
    over ('solved', or 'shown' when the page asked for the solution), the whole ``line`` and ``solution``, its
    positions from the start."""
    record = puzzle_line(found)
    ply = 2 * len(moves)  # the solver's moves and the defender's replies
    if step.verdict == "right":
        return {"verdict": step.verdict, "reply": step.reply, "entries": [entry(record, ply - 1), entry(record, ply)],
                "legal": legal(record.type, record.positions[ply])}
    if step.verdict == "wrong" and step.wrong is not None:
        kind, before = record.type, record.positions[2 * step.wrong]
        tried = kind.new_game(kind.write_position(before))
        tried.play_text(moves[step.wrong])
        return {"verdict": step.verdict, "entry": entry(tried, 1)}
    return {"verdict": step.verdict, "line": step.line,
            "solution": [entry(record, ply) for ply in range(len(record.moves) + 1)]}


def board_record(variant: str, start: str, moves: list[str]) -> GameRecord[Any, Any]:
    """An analysis board's game: ``start`` (a FEN; "" for the game's usual start) and the ``moves`` from there, as
    typed or written. ``ValueError`` for a start that is not a position of the game, ``MoveError`` for a move that
    is not legal where it is played."""
    record = game_type(variant).new_game(start.strip() or None)
    for text in moves:
        record.play_text(text)
    return record


def setup_fen(variant: str, pieces: list, turn: str) -> str:
    """A draughts position set up by hand as its FEN: ``pieces`` as [row, column, kind] ('w', 'W', 'b', 'B': men
    and kings), ``turn`` 'White' or 'Black'. ``ValueError`` for a cell that is not a dark square, a man where none
    may stand, or a game that is not draughts."""
    kind = game_type(variant)
    numbers = {tuple(cell): text for cell, text in kind.grid("numbers").labels}
    if not numbers or turn not in ("White", "Black") or not isinstance(pieces, list) or len(pieces) > len(numbers):
        raise ValueError("not a draughts board, or not White or Black to move")
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for row, col, piece in pieces:
        square = numbers.get((row, col))
        if square is None or piece not in ("w", "W", "b", "B"):
            raise ValueError(f"no piece can stand on row {int(row) + 1}, column {int(col) + 1}")
        sides[piece.upper()].append(("K" if piece.isupper() else "") + square)
    return f"{turn[0]}:W{','.join(sides['W'])}:B{','.join(sides['B'])}"
