"""Tournaments in the database, the part both back ends share: the tables' columns, the statements (written with
``?`` for SQLite; ``numbered`` makes PostgreSQL's ``$n`` of them) and the rows read back as ``bot.tournament``'s
objects. A pairing's result is read from its game, never kept twice."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.clocks import TimeControl
from bot.store.base import NO_RESULT
from bot.tournament.event import Entrant, Format, Pairing, Standing, Status, Tournament
from engine import Color, Termination, game_type

TOURNAMENT_COLUMNS = "id, guild, channel, format, variant, settings, starts, status, round, version"
INSERT_TOURNAMENT = ("INSERT INTO tournaments (guild, channel, format, variant, settings, starts, status, round,"
                     " created, version) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 0) RETURNING id")
SELECT_TOURNAMENT = f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?"
LIVE_TOURNAMENTS = "SELECT id FROM tournaments WHERE status IN ('scheduled', 'running') ORDER BY starts, id"
GUILD_TOURNAMENTS = "SELECT id FROM tournaments WHERE guild = ? ORDER BY starts DESC, id DESC LIMIT ?"
SELECT_ENTRANTS = ('SELECT "user", name, joined, standing, rating, back FROM tournament_players WHERE tournament = ?'
                   " ORDER BY joined, \"user\"")
PUT_ENTRANT = ('INSERT INTO tournament_players (tournament, "user", name, joined, standing, rating, back)'
               ' VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament, "user") DO UPDATE SET name = excluded.name,'
               " standing = excluded.standing, back = excluded.back")
STEP = "UPDATE tournaments SET version = version + 1 WHERE id = ?"
LINK = ("UPDATE tournament_pairings SET game = ? WHERE tournament = ? AND round = ? AND board = ? AND game IS NULL")
ADVANCE = ("UPDATE tournaments SET status = ?, round = ?, starts = ?, version = version + 1"
           " WHERE id = ? AND version = ?")
INSERT_PAIRING = ("INSERT INTO tournament_pairings (tournament, round, board, white, black, room)"
                  " VALUES (?, ?, ?, ?, ?, ?)")
SELECT_PAIRINGS = (
    "SELECT p.round, p.board, p.white, p.black, g.id, g.status, g.winner, g.termination, g.settings,"
    " (SELECT count(*) FROM moves m WHERE m.game = g.id)"
    " FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game"
    " WHERE p.tournament = ? ORDER BY p.round, p.board")
PLAYER_TOURNAMENTS = ('SELECT t.id FROM tournaments t JOIN tournament_players p ON p.tournament = t.id'
                      ' WHERE t.guild = ? AND p."user" = ? ORDER BY t.starts DESC, t.id DESC LIMIT ?')


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` marks as PostgreSQL's ``$1``, ``$2``, ..."""
    parts = sql.split("?")
    return "".join(part + (f"${k}" if k < len(parts) else "") for k, part in enumerate(parts, 1))


def tournament_values(t: Tournament, now: float) -> tuple:
    """``INSERT_TOURNAMENT``'s parameters."""
    settings = {"control": t.control.to_json(), "rated": t.rated, "rounds": t.rounds, "minutes": t.minutes,
                "creator": t.creator, "name": t.name}
    return (t.guild, t.channel, t.format.value, t.variant, json.dumps(settings), t.starts, t.status.value, now)


def entrant_values(tournament: int, e: Entrant) -> tuple:
    return (tournament, e.id, e.name, e.joined, e.standing.value, e.rating, e.back)


def pairing_values(t: Tournament, p: Pairing) -> tuple:
    return (t.id, p.round, p.board, p.white, p.black, t.room(p))


def read_tournament(row: Sequence[Any], entrants: Sequence[Sequence[Any]], pairings: Sequence[Sequence[Any]]
                    ) -> Tournament:
    tid, guild, channel, form, variant, settings, starts, status, rnd, version = row
    s = json.loads(settings)
    return Tournament(tid, guild, channel, Format(form), variant, TimeControl.from_json(s.get("control")),
                      bool(s.get("rated")), float(starts), int(s.get("rounds", 0)), float(s.get("minutes", 0)),
                      Status(status), int(rnd), s.get("creator", ""), s.get("name", ""), int(version),
                      tuple(Entrant(u, n, float(j), Standing(st), float(r), int(b)) for u, n, j, st, r, b in entrants),
                      tuple(_pairing(p, game_type(variant).first) for p in pairings))


def _pairing(row: Sequence[Any], first: Color) -> Pairing:
    """A pairing and its game's result. A game aborted because a player never moved is lost by that player (the
    first to move if it has no move, else the other), as lidraughts scores a tournament's games."""
    rnd, board, white, black, game, status, winner, termination, settings, plies = row
    ended, plies = status == "finished", int(plies or 0)
    result, absent = None, None
    if ended and termination == Termination.NEVER_MOVED.value:
        absent = white if (first if plies == 0 else first.opponent) is Color.WHITE else black
        result = 0.0 if absent == white else 1.0
    elif ended and termination not in NO_RESULT:
        result = 0.5 if winner is None else 1.0 if winner == "white" else 0.0
    berserk = frozenset(json.loads(settings).get("berserk", ())) if settings else frozenset()
    return Pairing(int(rnd), int(board), white, black, result, plies, berserk, ended, game, absent)
