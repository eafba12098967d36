"""The core's one entry point: ``Core.handle`` reads a message, hands it to the duty that answers it, and turns
every refusal into a private reply. Also the questions a front end asks about a channel's game."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot import commands
from bot.clocks import Speed
from bot.commands import CommandError
from bot.config import Config
from bot.core import (analyses, clock, daily, history, languages, lobby, play, practice, puzzles, rematch, results,
                      tournament_runs, tournaments, training)
from bot.core.analyses import Progress
from bot.core.replay import replayed_record
from bot.core.restore import restore
from bot.core.state import Follower, Refusal, Send, State, capital, controls
from bot.pool import PoolBusy, PoolFailed, SearchPool
from bot.worker import Segment
from bot.ratings import Change, Rating
from bot.store import FinishedGame, PuzzleTry, SaveFailed, Store, StoredGame
from bot.replies import Controls, Message, NO_GAME, Reply, User
from bot.tables import Kind, LiveGame, Table
from bot.tournament.event import Tournament
from bot.translation import Text, tr
from bot.user_text import CHANNEL_NAME_LIMIT, name
from engine.puzzles.puzzle import Puzzle
from engine import GameRecord, MoveError, game_type
from engine.analysis import Look

log = logging.getLogger(__name__)

LOOK_WAIT = 20.0  # seconds an analysis board's look may wait for its turn and search
LOOK_BUSY = tr("The engine is busy with games right now; the board still works. Try the evaluation again in a "
               "moment.")
TICK_SECONDS = 5.0  # how often run_clock checks reminders, abandonment and challenge expiry
SAVE_FAILED = tr("I could not save that, so nothing changed. Please try again in a moment.")
OUT_OF_DATE = tr("That board is out of date: the game has moved on. Use the menu under the latest board.")


async def _unconnected(reply: Reply) -> None:
    raise RuntimeError("the core has no front end to send its replies to: Core.connect gives it one")


async def _help(s: State, msg: Message, words: list[str]) -> None:
    await s.private(msg, commands.help_text(words[0] if words else None))


Command = Callable[[State, Message, list[str]], Awaitable[None]]
COMMANDS: dict[str, Command] = {
    "new": lobby.new, "challenge": lobby.challenge, "accept": lobby.accept, "decline": lobby.decline,
    "watch": lobby.watch, "stop": lobby.stop, "games": lobby.listing, "rematch": rematch.rematch,
    "resign": play.resign, "draw": play.draw, "takeback": play.takeback, "hint": play.hint,
    "moves": play.moves, "board": play.board, "pdn": play.pdn,
    "analyse": analyses.command, "analyze": analyses.command,
    "puzzle": puzzles.command, "solution": puzzles.solution, "daily": daily.command,
    "practice": practice.command,
    "rating": results.rating, "leaderboard": results.leaderboard, "language": languages.command, "help": _help,
    "tournament": tournaments.command, "berserk": tournaments.berserk,
}
GAME_COMMANDS = {"resign", "draw", "takeback", "hint", "moves", "board", "pdn", "accept", "decline", "berserk"}
"""Commands a player in a tournament may type in its channel for their game (``tournament_runs.routed``)."""
OPENERS = {"new", "challenge", "watch", "rematch", "puzzle", "practice", "daily"}
"""Commands that start something in a channel: not where a tournament is held (its channel and its games' rooms)."""


def cleaned(msg: Message) -> Message:
    """``msg`` with every name in it made safe to keep and repeat (``user_text.name``): names enter the core here,
    whatever front end they come from, and reach replies and stored records only from here."""
    return replace(msg, user=User(msg.user.id, name(msg.user.name)),
                   mentions=tuple(User(u.id, name(u.name)) for u in msg.mentions),
                   channel_name=name(msg.channel_name, CHANNEL_NAME_LIMIT) if msg.channel_name else "")


class Core:
    """All the games of one bot process."""

    def __init__(self, config: Config, store: Store, pool: SearchPool, send: Send | None = None,
                 clock: Callable[[], float] = time.time):
        """``send``: where replies go (``connect`` gives it later, to a front end made after the core)."""
        self.state = State(config, store, pool, send or _unconnected, clock)
        self._owns: Callable[[str], bool] = lambda guild: False
        self._started = asyncio.Event()

    def connect(self, send: Send) -> None:
        """Send the core's replies to ``send`` from now on."""
        self.state.send = send

    def follow(self, follower: Follower) -> None:
        """Tell ``follower`` every event of every game from now on (``bot.events``), in order, as it happens."""
        self.state.followers.append(follower)

    # life cycle

    async def start(self, owns: Callable[[str], bool] = lambda guild: True) -> list[Table]:
        """Bring back every unfinished game from the database, of the servers ``owns`` says this process
        serves (a shard's); the bot moves where it is to move."""
        tables = await restore(self.state, owns)
        await puzzles.restore(self.state, owns)
        await daily.load(self.state, owns)
        await languages.load(self.state, owns)
        await tournament_runs.load(self.state, owns)
        self._owns = owns
        self._started.set()
        return tables

    async def started(self) -> None:
        """Wait until ``start`` has brought back this process's games."""
        await self._started.wait()

    def owns(self, guild: str) -> bool:
        """Whether this process plays the games of ``guild`` (as ``start`` was told; none before it)."""
        return self._owns(guild)

    async def settle(self, matches: bool = True) -> None:
        """Wait until no bot move, no analysis (and, with ``matches``, no bot match) is in progress."""
        while tasks := [t.task for t in self.state.tables.values()
                        if t.task and not t.task.done() and (matches or t.kind is not Kind.MATCH)] + [
                            a.task for a in self.state.analyses.values() if a.task and not a.task.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        tasks = [task for t in self.state.tables.values() for task in (t.task, t.flag) if task]
        tasks += [a.task for a in self.state.analyses.values() if a.task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def run_clock(self) -> None:
        """Call ``tick`` every few seconds, for ever (a front end runs this as a task)."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick()
            except Exception:
                log.exception("the clock tick failed")

    async def tick(self) -> None:
        """Remind idle players, end abandoned games, drop expired challenges; run every few seconds."""
        await clock.tick(self.state)
        await tournament_runs.tick(self.state)

    # messages

    async def handle(self, msg: Message) -> None:
        """Answer one message: a command or a move. Every refusal is a reply; nothing is left half done."""
        s = self.state
        msg = cleaned(msg)
        try:
            if len(msg.text) > s.config.input_limit:
                raise Refusal(tr("That message is {length} characters long; I read at most {limit}.",
                                 length=len(msg.text), limit=s.config.input_limit))
            name, words = commands.split(msg.text)
            if not name:
                raise Refusal(tr("Type a move or a command (`help` lists them)."))
            if name in OPENERS and tournament_runs.held(s, msg):
                raise Refusal(tr("This channel holds a tournament: start other games in another channel."))
            if name not in COMMANDS or name in GAME_COMMANDS:
                msg = tournament_runs.routed(s, msg)
            if name in COMMANDS:
                await COMMANDS[name](s, msg, words)
            elif msg.channel in s.puzzles and msg.channel not in s.tables:
                await (practice.answer if s.puzzles[msg.channel].served.kind == "practice" else puzzles.answer)(s, msg)
            else:
                await play.move(s, msg)
        except (Refusal, CommandError) as error:
            said = error.args[0] if error.args else ""
            await s.private(msg, said if isinstance(said, Text) else capital(str(error)))
        except MoveError as error:
            await s.private(msg, results.refusal(error))
        except PoolBusy:
            await s.private(msg, tr("I am thinking in many games at once right now. Try again in a minute."))
        except SaveFailed as error:  # the database is down or refused: one line, not a traceback, per message
            log.warning("database error on %r: %s", msg.text[:80], error)
            await s.private(msg, SAVE_FAILED)
        except Exception:
            log.exception("unexpected error on %r", msg.text[:80])
            await s.private(msg, tr("Something went wrong on my side; it is logged. Type `board` to see the game."))

    # questions a front end asks

    def rooms_under(self, channel: str) -> list[str]:
        """The rooms of the tournament games on under ``channel`` (``bot.tournament.event``)."""
        return [c for c, t in self.state.tables.items() if t.tournament and c.startswith(channel + "~")]

    def reads_as_move(self, channel: str, user: User, text: str) -> bool:
        """Whether ``text`` is a move (legal or not) by a player of the game in ``channel``. A front end that sees
        every message hands the core these and leaves other chatter alone."""
        table = self.state.tables.get(channel) or self.state.tables.get(
            tournament_runs.room_for(self.state, channel, user) or "")
        if table is None:
            return puzzles.reads_as_answer(self.state, channel, text)
        return table.colour_of(user) is not None and table.game.type.is_move_text(text)

    def may_press(self, channel: str, user: User, game: int, ply: int | None) -> str | None:
        """Why ``user`` cannot use a control of game ``game`` shown at ``ply`` (None: any ply) now, or None."""
        if game == NO_GAME:
            return None
        table = self.state.tables.get(channel)
        if table is None or table.id != game:
            return tr("That game is over.")
        if table.colour_of(user) is None:
            return tr("You are not in this game.")
        if ply is not None and len(table.game.moves) != ply:
            return OUT_OF_DATE
        return None

    def may_answer(self, channel: str, served: int, ply: int) -> str | None:
        """Why a control of puzzle ``served`` shown at ``ply`` cannot be used now, or None (anyone may)."""
        solving = self.state.puzzles.get(channel)
        if solving is None or solving.served.id != served:
            return tr("That puzzle is over.")
        if len(solving.record.moves) != ply:
            return tr("That board is out of date: the puzzle has moved on. Use the menu under the latest board.")
        return None

    def puzzle(self, variant: str, puzzle: str) -> Puzzle | None:
        """A shipped puzzle by its id, for a page that shows it (None if there is none)."""
        return puzzles.puzzle_set(variant).get(puzzle) if variant in puzzles.DRAUGHTS else None

    def daily_puzzle(self, variant: str) -> Puzzle:
        """Today's daily puzzle of ``variant`` (UTC), the same as the servers' daily posts."""
        return daily.puzzle_of_the_day(variant, daily.day_of(self.state.clock())[0])

    def try_puzzle(self, puzzle: Puzzle, moves: list[str]) -> puzzles.Step:
        """The solver's moves so far checked as the chat checks them; a ``MoveError`` for one that is not legal."""
        return puzzles.attempt(puzzle, moves)

    def puzzle_variants(self) -> dict[str, int]:
        """The games that have puzzles, and how many each has (for a page that lists them)."""
        return {variant: len(puzzles.puzzle_set(variant)) for variant in puzzles.DRAUGHTS
                if puzzles.puzzle_set(variant)}

    def puzzle_themes(self, variant: str) -> dict[str, int]:
        """The themes of ``variant``'s puzzles, and how many each has (for the page's choice of theme)."""
        return training.themes(variant)

    async def next_puzzle(self, guild: str, user: str, variant: str, theme: str | None = None) -> Puzzle | None:
        """The page's next puzzle for ``user``: of ``variant`` (and ``theme``), near their puzzle rating, not had
        before; None if there is none of that theme. ``SaveFailed`` if the database cannot say."""
        return await training.next_puzzle(self.state.store, guild, user, variant, theme, random.Random())

    async def puzzle_result(self, guild: str, person: User, puzzle: Puzzle, solved: bool,
                            rated: bool = True) -> Change | None:
        """A person's result on a puzzle of the page: kept if it is their first on it, and rated unless ``rated`` is
        False (a streak's); their rating's change, else None. ``SaveFailed`` if the database cannot keep it."""
        return await training.first_result(self.state.store, guild, person, puzzle, solved, rated)

    async def practise(self, owner: str, variant: str, position: str, played: str, best: str) -> tuple[bool, Text]:
        """A practice move on the page: whether ``played`` counts in ``position`` (the engine's move ``best``, or one
        the analysis would not mark, searched for ``owner``), and the words that say so, as in chat. ``MoveError``
        for a move that is not legal there; ``Refusal`` when the pool is too busy to judge it."""
        kind = game_type(variant)
        here = kind.read_position(position)
        return await practice.verdict(self.state, owner, kind, here, kind.parse_move(here, played),
                                      kind.parse_move(here, best))

    async def look_at(self, owner: str, record: GameRecord) -> Look:
        """The engine's look at ``record``'s last position (an analysis board's), in the pool's analysis lane as
        ``owner``, at the analysis's effort. ``Refusal`` when the pool is too busy with games to look within
        ``LOOK_WAIT`` seconds."""
        segment = Segment.of(record, (len(record.moves),), self.state.config.analysis_nodes)
        try:
            async with asyncio.timeout(LOOK_WAIT):
                while True:  # a look that gave way to a move is searched again when its turn comes
                    found = await self.state.pool.look(owner, segment)
                    if found:
                        return found[0]
        except (TimeoutError, PoolBusy, PoolFailed):  # (failed: a search process died on every try)
            raise Refusal(LOOK_BUSY) from None

    async def puzzle_ratings(self, guild: str, user: str) -> dict[str, tuple[Rating, int]]:
        """``user``'s puzzle rating on server ``guild`` in each game they tried puzzles of, and how many it counts."""
        return await results.puzzle_ratings_of(self.state, guild, user)

    async def puzzle_history(self, guild: str, user: str, limit: int = 30) -> list[PuzzleTry]:
        """The puzzles ``user`` tried on server ``guild``, the latest first."""
        return await self.state.store.puzzle_history(guild, user, limit)

    async def streak_puzzle(self, variant: str, rung: int, seed: int) -> Puzzle | None:
        """Rung ``rung`` of a puzzle streak (``training.streak_puzzle``)."""
        return await training.streak_puzzle(self.state.store, variant, rung, seed)

    def controls(self, channel: str) -> Controls | None:
        """The controls of the latest board of the game (or else the puzzle) in ``channel``; None without either,
        or in a bot match."""
        table = self.state.tables.get(channel)
        if table is None:
            solving = self.state.puzzles.get(channel)
            return puzzles.controls(solving) if solving is not None else None
        return controls(table)

    def legal_texts(self, channel: str) -> list[str]:
        """The legal moves in the game in ``channel`` (or else of the puzzle's solver) as players type them; none
        without either."""
        table = self.state.tables.get(channel)
        if table is None:
            solving = self.state.puzzles.get(channel)
            return list(solving.record.type.legal_texts(solving.record.position)) if solving is not None else []
        return list(table.game.type.legal_texts(table.game.position))

    def live(self, channel: str) -> LiveGame | None:
        """The game on in ``channel``, as a copy for a front end that shows a game whole (the web page), or None."""
        table = self.state.tables.get(channel)
        return self.state.view(table) if table is not None else None

    async def live_game(self, game: int) -> LiveGame | None:
        """The game on with the id ``game``, as a copy, or None. (Awaited: in the web tier, the game may be
        another process's.)"""
        table = self.state.tables.by_id(game)
        return self.state.view(table) if table is not None else None

    async def live_games(self, guild: str | None = None) -> list[LiveGame]:
        """Every game on (of ``guild``, if given), as copies."""
        return [self.state.view(t) for t in self.state.tables.values() if guild is None or t.guild == guild]

    async def open(self, msg: Message) -> int | None:
        """Handle ``msg`` (a command that starts a game in a channel of its own), then the id of the game on in
        its channel, if one is."""
        await self.handle(msg)
        return self.game_in(msg.channel)

    async def analysis(self, game: int, guild: str) -> Progress:
        """How far the analysis of a finished game of ``guild`` is (with the analysis once done); ``Refusal``
        for a game that is not finished or not of that server, ``SaveFailed`` when the database cannot say."""
        return await analyses.progress(self.state, game, guild)

    async def ask_analysis(self, game: int, guild: str, asker: User) -> Progress:
        """Start the analysis of a finished game for ``asker`` (a front end without a chat message: the web page);
        refused as `analyse` is in chat."""
        return await analyses.ask(self.state, game, guild, asker)

    async def finished(self, game: int) -> FinishedGame | None:
        """A finished game from the database (for its replay), or None."""
        return await self.state.store.finished_game(game)

    async def player_games(self, guild: str, user: str, limit: int = 20) -> list[history.Played]:
        """The games ``user`` played on server ``guild`` to a result, the latest to end first."""
        return await history.played(self.state.store, guild, user, limit)

    async def player_ratings(self, guild: str, user: str) -> list[tuple[str, Speed, Rating, int]]:
        """``user``'s ratings on server ``guild``: (variant, speed, rating, rated games) for each they played."""
        return await results.ratings_of(self.state, guild, user, list(Speed))

    async def tournament(self, tournament: int) -> Tournament | None:
        """A tournament as the database has it, with its players and pairings (``SaveFailed`` if it cannot say)."""
        return await self.state.store.tournament(tournament)

    async def player_tournaments(self, guild: str, user: str, limit: int = 10) -> list[Tournament]:
        """The latest tournaments ``user`` played in on server ``guild``."""
        found = [await self.state.store.tournament(t) for t in
                 await self.state.store.tournaments_of(guild, user, limit)]
        return [t for t in found if t is not None]

    def record(self, game: StoredGame) -> GameRecord[Any, Any] | None:
        """A stored game's record, its moves played again (None if they no longer read as moves)."""
        return replayed_record(game)

    def pdn(self, channel: str) -> str | None:
        """The record of the game on in ``channel`` so far, with its tags; None without one."""
        table = self.state.tables.get(channel)
        return results.pdn_text(table) if table is not None else None

    def game_pdn(self, game: LiveGame) -> str:
        """The record of a game on so far (as a front end last saw it), with its tags."""
        return results.pdn_text(game)

    def language(self, guild: str) -> str | None:
        """The language the administrators of ``guild`` chose for its channels (``language``), or None: the chat
        service's setting for it."""
        return self.state.languages.get(guild)

    def now(self) -> float:
        """The time as the core reads it (Unix time; a test's own clock in tests): the games' clocks run on it."""
        return self.state.clock()

    def game_in(self, channel: str) -> int | None:
        """The id of the game on in ``channel``, or None."""
        table = self.state.tables.get(channel)
        return table.id if table is not None else None

    def has_game_or_challenge(self, channel: str) -> bool:
        """Whether ``channel`` has a game on or a challenge waiting (a thread opened for a command keeps it)."""
        return channel in self.state.tables or channel in self.state.challenges
