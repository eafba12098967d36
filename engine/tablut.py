"""Tablut under the Ashton rules (9x9), as the Ashton Tablut competition's referee plays it.

Squares are numbered 0-80: ``(row - 1) * 9 + column``, columns a-i = 0-8,
rows 1-9; ``a1`` is 0 and ``i9`` is 80. White has the king (on the throne,
e5) and 8 soldiers; Black 16 soldiers in four camps. White moves first.

- Every piece moves like a rook over empty squares. No piece stops on or
  passes the throne (the king may leave it, never return).
- Camps (the 16 Black start squares) may not be entered, except by a Black
  piece moving within the camp it stands in; once out it cannot go back.
- The moving side captures an enemy soldier it sandwiches between the moved
  piece and another of its pieces (the king helps White), the throne or a
  camp square. A piece that moves between two enemies is not captured.
- The king is captured by Black on 4 sides on the throne; on the 3 other
  sides next to the throne; elsewhere between the moved piece and a Black
  piece or a camp on the opposite side.
- White wins when the king reaches an edge square that is not a camp; Black
  wins by capturing the king; a side with no legal move loses; a position
  seen before (same side to move, since the last capture) is a draw.

Rules source: the project's rules reference (Ashton rules of the competition
referee, AGalassi/TablutCompetition). Positions are values; ``TablutGame``
keeps the history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import FenError, IllegalMoveError, InvalidMoveError
from engine.variants import Color

SIZE = 9
COLUMNS = "abcdefghi"
THRONE = 40  # e5
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (row step, column step)
NO_KING = -1


def square(name: str) -> int:
    """The square of a name such as 'e5'; ValueError for anything else."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in COLUMNS or name[1] not in "123456789":
        raise ValueError(f"there is no square {name!r} on the 9x9 board (columns a-i, rows 1-9)")
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0])


def square_name(sq: int) -> str:
    return f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}"


def _step(sq: int, dr: int, dc: int) -> int:
    """The square one step away, or -1 off the board."""
    r, c = divmod(sq, SIZE)
    r, c = r + dr, c + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


_CAMPS = (("a4", "a5", "a6", "b5"), ("i4", "i5", "i6", "h5"), ("d1", "e1", "f1", "e2"), ("d9", "e9", "f9", "e8"))
CAMP = tuple(next((i for i, camp in enumerate(_CAMPS) if square_name(sq) in camp), -1) for sq in range(81))
"""The camp (0-3) each square belongs to, or -1."""
ESCAPES = frozenset(sq for sq in range(81) if (sq // SIZE in (0, 8) or sq % SIZE in (0, 8)) and CAMP[sq] < 0)
NEAR_THRONE = frozenset(_step(THRONE, dr, dc) for dr, dc in DIRECTIONS)


@dataclass(frozen=True)
class TablutPosition:
    """A position: White's soldiers and Black's as bit masks over the 81 squares, the king's square, the turn."""

    white: int
    black: int
    king: int
    """The king's square; ``NO_KING`` once captured."""
    turn: Color

    def piece_at(self, sq: int) -> str | None:
        """'W' (white soldier), 'K', 'B' or None."""
        if sq == self.king:
            return "K"
        if self.white >> sq & 1:
            return "W"
        if self.black >> sq & 1:
            return "B"
        return None

    @property
    def occupied(self) -> int:
        return self.white | self.black | (1 << self.king if self.king >= 0 else 0)

    def __str__(self) -> str:
        return to_string(self)


@dataclass(frozen=True)
class TablutMove:
    """A move from ``start`` to ``end``; ``captures`` the squares it takes (the king's included)."""

    start: int
    end: int
    captures: tuple[int, ...] = ()

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def __str__(self) -> str:
        return f"{square_name(self.start)}-{square_name(self.end)}"


def start_position() -> TablutPosition:
    return from_string("3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 W")


def _may_enter(target: int, from_camp: int) -> bool:
    """Whether a piece that started in ``from_camp`` (-1: outside any) may stop on or pass ``target``."""
    return target != THRONE and (CAMP[target] < 0 or CAMP[target] == from_camp)


def legal_moves(position: TablutPosition) -> list[TablutMove]:
    """Every legal move of the side to move, in square order."""
    if position.king == NO_KING or position.king in ESCAPES:
        return []
    occupied = position.occupied
    if position.turn == Color.WHITE:
        pieces = position.white | 1 << position.king
    else:
        pieces = position.black
    moves = []
    for start in range(81):
        if not pieces >> start & 1:
            continue
        from_camp = CAMP[start]
        for dr, dc in DIRECTIONS:
            end = _step(start, dr, dc)
            while end >= 0 and not occupied >> end & 1 and _may_enter(end, from_camp):
                moves.append(TablutMove(start, end, _captures(position, start, end)))
                end = _step(end, dr, dc)
    return moves


def _moved(position: TablutPosition, start: int, end: int) -> TablutPosition:
    bit, to = 1 << start, 1 << end
    if start == position.king:
        return TablutPosition(position.white, position.black, end, position.turn)
    if position.white & bit:
        return TablutPosition(position.white ^ bit | to, position.black, position.king, position.turn)
    return TablutPosition(position.white, position.black ^ bit | to, position.king, position.turn)


def _captures(position: TablutPosition, start: int, end: int) -> tuple[int, ...]:
    """The squares whose pieces the move from ``start`` to ``end`` captures."""
    after = _moved(position, start, end)
    taken = []
    white_moved = position.turn == Color.WHITE
    for dr, dc in DIRECTIONS:
        near = _step(end, dr, dc)
        if near < 0:
            continue
        far = _step(near, dr, dc)
        if white_moved:
            if after.black >> near & 1 and far >= 0 and _hostile_to_black(after, far):
                taken.append(near)
        elif after.white >> near & 1:
            if far >= 0 and _hostile_to_white(after, far):
                taken.append(near)
        elif near == after.king and _king_taken(after, near, far):
            taken.append(near)
    return tuple(sorted(taken))


def _hostile_to_black(p: TablutPosition, sq: int) -> bool:
    return bool(p.white >> sq & 1) or sq == p.king or sq == THRONE or CAMP[sq] >= 0


def _hostile_to_white(p: TablutPosition, sq: int) -> bool:
    return bool(p.black >> sq & 1) or (sq == THRONE and p.king != THRONE) or CAMP[sq] >= 0


def _king_taken(p: TablutPosition, king: int, far: int) -> bool:
    """Whether Black, having just moved next to the king, has captured it (``far``: the square beyond it)."""
    if king == THRONE or king in NEAR_THRONE:
        around = [_step(king, dr, dc) for dr, dc in DIRECTIONS]
        return all(sq == THRONE or p.black >> sq & 1 for sq in around)
    return far >= 0 and (bool(p.black >> far & 1) or CAMP[far] >= 0)


def make(position: TablutPosition, move: TablutMove) -> TablutPosition:
    """The position after a legal move (its captures lifted), with the other side to move."""
    after = _moved(position, move.start, move.end)
    white, black, king = after.white, after.black, after.king
    for sq in move.captures:
        if sq == king:
            king = NO_KING
        else:
            white &= ~(1 << sq)
            black &= ~(1 << sq)
    return TablutPosition(white, black, king, position.turn.opponent)


# --- notation -------------------------------------------------------------------

_MOVE_TEXT = re.compile(r"(?<![a-z0-9])([a-i][1-9])\s*[-x:]?\s*([a-i][1-9])(?![a-z0-9])", re.IGNORECASE)


def format_move(move: TablutMove) -> str:
    return str(move)


def parse_move(position: TablutPosition, text: str) -> TablutMove:
    """The legal move ``text`` names (``e3-e6``, ``e3e6``, ``E3 E6``, inside other text)."""
    legal = legal_moves(position)
    texts = tuple(str(m) for m in legal)
    fen = to_string(position)
    match = _MOVE_TEXT.search(text)
    if not match:
        raise InvalidMoveError(f"I could not read a move in {text[:40]!r}: write it like e3-e6", text, fen, texts)
    start, end = square(match.group(1)), square(match.group(2))
    for move in legal:
        if (move.start, move.end) == (start, end):
            return move
    raise IllegalMoveError(_why_illegal(position, start, end), text, fen, texts)


def _why_illegal(position: TablutPosition, start: int, end: int) -> str:
    written = f"{square_name(start)}-{square_name(end)}"
    piece = position.piece_at(start)
    own = "KW" if position.turn == Color.WHITE else "B"
    if not legal_moves(position):
        return "the game is over"
    if piece is None or piece not in own:
        return f"{written}: there is no {position.turn} piece on {square_name(start)}"
    (r1, c1), (r2, c2) = divmod(start, SIZE), divmod(end, SIZE)
    if start == end or (r1 != r2 and c1 != c2):
        return f"{written}: pieces move in a straight line along a row or a column"
    dr, dc = (r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1)
    sq = start
    while sq != end:
        sq = _step(sq, dr, dc)
        if position.occupied >> sq & 1:
            return f"{written}: {square_name(sq)} is in the way" if sq != end else f"{written}: {square_name(sq)} is taken"
        if sq == THRONE:
            return f"{written}: no piece may stop on or cross the throne (e5)"
        if CAMP[sq] >= 0:
            return f"{written}: {square_name(sq)} is a camp; only Black pieces still in that camp may move in it"
    return f"{written} is not a legal move here"


# --- position strings -------------------------------------------------------------

def to_string(position: TablutPosition) -> str:
    """Rows 9 down to 1, '/' between them, a digit for a run of empty squares; then W or B to move."""
    rows = []
    for row in range(SIZE - 1, -1, -1):
        text, empty = "", 0
        for col in range(SIZE):
            piece = position.piece_at(row * SIZE + col)
            if piece is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + (" W" if position.turn == Color.WHITE else " B")


def from_string(text: str) -> TablutPosition:
    """Read a position string (see ``to_string``); FenError says what is wrong."""
    parts = text.split()
    if len(parts) != 2 or parts[1].upper() not in ("W", "B"):
        raise FenError("a Tablut position is 9 rows separated by '/', then W or B for the side to move", text)
    rows = parts[0].split("/")
    if len(rows) != SIZE:
        raise FenError(f"a Tablut position has 9 rows, not {len(rows)}", text)
    white = black = 0
    kings = []
    for i, row_text in enumerate(rows):
        row, col = SIZE - 1 - i, 0
        for ch in row_text.upper():
            if ch.isdigit():
                col += int(ch)
                continue
            if ch not in "WBK" or col >= SIZE:
                raise FenError(f"row {row + 1} ({row_text!r}) does not describe 9 squares of W, B, K or digits",
                               text)
            sq = row * SIZE + col
            if ch == "K":
                kings.append(sq)
            elif ch == "W":
                white |= 1 << sq
            else:
                black |= 1 << sq
            col += 1
        if col != SIZE:
            raise FenError(f"row {row + 1} ({row_text!r}) has {col} squares, not 9", text)
    if len(kings) > 1:
        raise FenError("there is more than one king", text)
    if (white | black) >> THRONE & 1:
        raise FenError("only the king may stand on the throne (e5)", text)
    turn = Color.WHITE if parts[1].upper() == "W" else Color.BLACK
    return TablutPosition(white, black, kings[0] if kings else NO_KING, turn)


# --- a game ------------------------------------------------------------------

@dataclass(frozen=True)
class TablutResult:
    winner: Color | None
    reason: str

    def __str__(self) -> str:
        return f"Draw: {self.reason}" if self.winner is None else f"{self.winner} wins: {self.reason}"


class TablutGame:
    """A Tablut game record: positions since the start, the moves, and the result."""

    def __init__(self, start: str | None = None):
        self.start = from_string(start) if start else start_position()
        self.positions = [self.start]
        self.moves: list[TablutMove] = []
        self._since_capture = [0]  # plies since the last capture, up to each position
        self._legal: list[TablutMove] | None = None  # the current position's moves, once generated

    @property
    def position(self) -> TablutPosition:
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        return self.position.turn

    def _moves_here(self) -> list[TablutMove]:
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return self._legal

    def legal_moves(self) -> list[TablutMove]:
        return [] if self.result() else self._moves_here()

    def play(self, move: TablutMove) -> TablutPosition:
        self._refuse_if_over(str(move))
        legal = self._moves_here()
        if move not in legal:
            raise IllegalMoveError(_why_illegal(self.position, move.start, move.end), str(move),
                                   to_string(self.position), tuple(str(m) for m in legal))
        after = make(self.position, move)
        self.positions.append(after)
        self.moves.append(move)
        self._since_capture.append(0 if move.captures else self._since_capture[-1] + 1)
        self._legal = None
        return after

    def play_text(self, text: str) -> TablutMove:
        self._refuse_if_over(text)
        move = parse_move(self.position, text)
        self.play(move)
        return move

    def _refuse_if_over(self, text: str) -> None:
        over = self.result()
        if over is not None:
            raise IllegalMoveError(f"the game is over ({over})", text, to_string(self.position))

    def undo(self) -> TablutMove:
        if not self.moves:
            raise IllegalMoveError("there is no move to take back", "", to_string(self.position))
        self.positions.pop()
        self._since_capture.pop()
        self._legal = None
        return self.moves.pop()

    def result(self) -> TablutResult | None:
        p = self.position
        if p.king == NO_KING:
            return TablutResult(Color.BLACK, "the king is captured")
        if p.king in ESCAPES:
            return TablutResult(Color.WHITE, f"the king escaped to {square_name(p.king)}")
        back = self._since_capture[-1]
        if any(self.positions[-1 - i] == p for i in range(2, back + 1, 2)):
            return TablutResult(None, "the same position came up again")
        if not self._moves_here():
            return TablutResult(p.turn.opponent, f"{p.turn} has no legal move")
        return None
