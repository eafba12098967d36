"""The bot's core: games keyed by channel, the commands, the bot's moves, clocks and ratings.

No chat service here: a front end turns what people type into ``Message``s,
awaits ``Core.handle`` and shows the ``Reply``s the core sends to its
``send`` callback. Replies about a game go out under the game's lock, so they
arrive in the order the moves were played. Searches run in the ``SearchPool``.

A move is stored before it is announced; if the database refuses it, the
move is taken back and the player told.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable

from bot import commands
from bot.commands import CommandError, Options
from bot.config import Config
from bot.pool import PoolBusy, PoolFailed, SearchPool
from bot.ratings import LEVEL_RATINGS, Rating, update
from bot.store import Store
from bot.tables import Board, Challenge, Message, Reply, Seat, Table, User
from bot.user_text import inert, quoted
from bot.worker import Job
from engine import NAMES, Color, MoveError, game_type
from engine.search import WIN_BOUND

log = logging.getLogger(__name__)

DEFAULT_VARIANT = "english"
DEFAULT_LEVEL = 3
HINT_TIME = 0.3  # seconds a hint searches
MIN_MOVE_TIME = 0.05
MATCH_PLY_LIMIT = 300  # a bot match this long is a draw
DRAW_ACCEPT_SCORE = -30  # the bot takes a draw when it thinks it is this much worse (hundredths of a man)
TICK_SECONDS = 5.0  # how often run_clock checks reminders, abandonment and challenge expiry
SAVE_FAILED = "I could not save that, so nothing changed. Please try again in a moment."


class Refusal(Exception):
    """A command that cannot be done now; the message tells the person why."""


Send = Callable[[Reply], Awaitable[None]]


class Core:
    """All the games of one bot process."""

    def __init__(self, config: Config, store: Store, pool: SearchPool, send: Send,
                 clock: Callable[[], float] = time.time):
        self.config = config
        self.store = store
        self.pool = pool
        self.send = send
        self.clock = clock
        self.tables: dict[str, Table] = {}  # by channel
        self.challenges: dict[str, Challenge] = {}  # by channel
        self._commands: dict[str, Callable[[Message, list[str]], Awaitable[None]]] = {
            "new": self._new, "challenge": self._challenge, "accept": self._accept, "decline": self._decline,
            "resign": self._resign, "draw": self._draw, "takeback": self._takeback, "hint": self._hint,
            "moves": self._moves, "board": self._board, "pdn": self._pdn, "games": self._games,
            "rating": self._rating, "leaderboard": self._leaderboard, "watch": self._watch, "stop": self._stop,
            "help": self._help,
        }

    # life cycle

    async def start(self, owns: Callable[[str], bool] = lambda guild: True) -> list[Table]:
        """Bring back every unfinished game from the database, of the servers ``owns`` says this process
        serves (a shard's); the bot moves where it is to move."""
        restored = []
        for stored in self.store.active_games():
            if not owns(stored.guild):
                continue
            game = game_type(stored.variant).new_game(stored.start_fen)
            try:
                for text in stored.moves:
                    game.play_text(text)
            except MoveError:
                log.exception("game %d cannot be replayed; left as it is in the database", stored.id)
                continue
            s = stored.settings
            seats = {Color.WHITE: Seat.from_json(stored.seats["white"]),
                     Color.BLACK: Seat.from_json(stored.seats["black"])}
            table = Table(stored.id, stored.guild, stored.channel, s.get("channel_name", stored.channel),
                          stored.kind, game, seats, s["budget"], s["rated"], s.get("delay", 0.0),
                          User(*s["starter"]) if s.get("starter") else None, s.get("takebacks_used", 0),
                          last_activity=self.clock())
            self.tables[stored.channel] = table
            restored.append(table)
            if game.result() is not None:
                async with table.lock:
                    await self._finish_by_rules(table)
            else:
                self._kick(table)
        return restored

    async def settle(self, matches: bool = True) -> None:
        """Wait until no bot move (and, with ``matches``, no bot match) is in progress."""
        while tasks := [t.task for t in self.tables.values()
                        if t.task and not t.task.done() and (matches or t.kind != "match")]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        for table in self.tables.values():
            if table.task:
                table.task.cancel()
        await asyncio.gather(*(t.task for t in self.tables.values() if t.task), return_exceptions=True)

    # messages

    async def handle(self, msg: Message) -> None:
        """Answer one message: a command or a move. Every refusal is a reply; nothing is left half done."""
        try:
            if len(msg.text) > self.config.input_limit:
                raise Refusal(f"That message is {len(msg.text)} characters long; I read at most "
                              f"{self.config.input_limit}.")
            name, words = commands.split(msg.text)
            if not name:
                raise Refusal("Type a move or a command (`help` lists them).")
            if name in self._commands:
                await self._commands[name](msg, words)
            else:
                await self._move(msg)
        except (Refusal, CommandError) as error:
            await self._private(msg, _capital(str(error)))
        except MoveError as error:
            text = f"{_capital(inert(str(error)))}."  # the engine's words quote the move as typed
            if error.legal:
                text += f" Legal moves: {', '.join(error.legal)}."
            await self._private(msg, text)
        except PoolBusy:
            await self._private(msg, "I am thinking in many games at once right now. Try again in a minute.")
        except sqlite3.Error:
            log.exception("database error on %r", msg.text[:80])
            await self._private(msg, SAVE_FAILED)
        except Exception:
            log.exception("unexpected error on %r", msg.text[:80])
            await self._private(msg, "Something went wrong on my side; it is logged. Type `board` to see the game.")

    def reads_as_move(self, channel: str, user: User, text: str) -> bool:
        """Whether ``text`` is a move (legal or not) by a player of the game in ``channel``. A front end that sees
        every message hands the core these and leaves other chatter alone."""
        table = self.tables.get(channel)
        return (table is not None and table.colour_of(user) is not None
                and table.game.type.is_move_text(text))

    async def _private(self, msg: Message, text: str) -> None:
        await self.send(Reply(msg.channel, text, private=True, to=msg))

    async def _say(self, channel: str, text: str, to: Message | None = None, **more) -> None:
        await self.send(Reply(channel, text, to=to, **more))

    # starting games

    async def _new(self, msg: Message, words: list[str]) -> None:
        options = commands.parse_options("new", words)
        if options.mentioned:
            await self._challenge(msg, words)
            return
        self._check_free(msg)
        v = options.variant or DEFAULT_VARIANT
        lvl = options.levels[0] if options.levels else DEFAULT_LEVEL
        budget = self._budget(options.time)
        colour = _colour(options.colour or "first", game_type(v).first)
        seats = {colour: Seat(user=msg.user), colour.opponent: Seat(level=lvl)}
        table = await self._open_table(msg, "bot", v, seats, budget, bool(options.rated))
        rated = "rated" if table.rated else "casual (hints allowed)"
        await self._say(msg.channel, f"New game, {rated}. {table.title()}. "
                        f"I take {budget:g} s a move. {self._whose_turn(table)}", to=msg, board=self._view(table))
        self._kick(table)

    async def _challenge(self, msg: Message, words: list[str]) -> None:
        options = commands.parse_options("challenge", words)
        if options.levels or options.time is not None:
            raise Refusal("A challenge is between people; to play me, use `new` with a level.")
        self._check_free(msg)
        opponent = msg.mentions[0] if msg.mentions else None
        if opponent is not None and opponent.id == msg.user.id:
            raise Refusal("You cannot challenge yourself; `new` plays me.")
        if msg.channel in self.challenges and not self._expired(self.challenges[msg.channel]):
            raise Refusal("A challenge is already waiting for an answer here.")
        v = options.variant or DEFAULT_VARIANT
        rated = True if options.rated is None else options.rated
        self.challenges[msg.channel] = Challenge(msg.user, opponent, v, options.colour or "random", rated,
                                                 self.clock(), msg)
        who = opponent.name if opponent else "Anyone"
        minutes = self.config.challenge_expiry / 60
        await self._say(msg.channel, f"{msg.user.name} challenges {who.lower() if not opponent else who} to a "
                        f"{'rated' if rated else 'casual'} game of {v}. {who}: `accept` or `decline` "
                        f"(open for {minutes:g} minutes).", to=msg, mentions=(opponent,) if opponent else (),
                        asks=True)

    def _check_free(self, msg: Message, user: User | None = None) -> None:
        """Refuse a new game where one is on, or for someone at their limit."""
        if msg.channel in self.tables:
            table = self.tables[msg.channel]
            raise Refusal(f"A game is on in this channel ({table.title()}). Finish it, or start yours in "
                          "another channel or thread.")
        user = user or msg.user
        mine = sum(1 for t in self.tables.values() if t.colour_of(user) is not None)
        mine += sum(1 for c in self.challenges.values() if c.challenger.id == user.id and not self._expired(c))
        if mine >= self.config.games_per_user:
            raise Refusal(f"{user.name} already has {mine} games or challenges open; the limit is "
                          f"{self.config.games_per_user}. Finish or resign one first.")

    def _budget(self, asked: float | None) -> float:
        if asked is None:
            return self.config.move_time
        if not MIN_MOVE_TIME <= asked <= self.config.max_move_time:
            raise Refusal(f"The time per move must be between {MIN_MOVE_TIME:g} and "
                          f"{self.config.max_move_time:g} seconds.")
        return asked

    async def _open_table(self, msg: Message, kind: str, variant_name: str, seats: dict[Color, Seat],
                          budget: float, rated: bool, delay: float = 0.0) -> Table:
        game = game_type(variant_name).new_game()
        table = Table(0, msg.guild, msg.channel, msg.channel_name or msg.channel, kind, game, seats, budget,
                      rated, delay, msg.user, last_activity=self.clock())
        table.id = self.store.create_game(msg.guild, msg.channel, variant_name, game.type.write_position(game.start), kind,
                                          {"white": seats[Color.WHITE].to_json(),
                                           "black": seats[Color.BLACK].to_json()}, table.settings())
        self.tables[msg.channel] = table
        return table

    def _expired(self, challenge: Challenge) -> bool:
        return self.clock() - challenge.created > self.config.challenge_expiry

    async def _accept(self, msg: Message, words: list[str]) -> None:
        table = self.tables.get(msg.channel)
        if table is not None:
            async with table.lock:
                colour = self._player(table, msg)
                if table.draw_offer == colour.opponent:
                    await self._finish(table, None, "agreed", to=msg)
                    return
                if table.takeback_offer == colour.opponent:
                    await self._take_back(table, colour.opponent, msg)
                    return
            raise Refusal("Nothing is waiting for your answer in this game.")
        challenge = self.challenges.get(msg.channel)
        if challenge is None or self._expired(challenge):
            raise Refusal("There is no challenge to accept here.")
        if challenge.challenger.id == msg.user.id:
            raise Refusal("That is your own challenge; someone else has to accept it.")
        if challenge.challenged is not None and challenge.challenged.id != msg.user.id:
            raise Refusal(f"That challenge is for {challenge.challenged.name}.")
        self._check_free(msg, challenge.challenger)
        self._check_free(msg)
        del self.challenges[msg.channel]
        mine = _colour(challenge.colour, Color.WHITE)  # the colour is always white, black or random
        seats = {mine: Seat(user=challenge.challenger), mine.opponent: Seat(user=msg.user)}
        table = await self._open_table(challenge.origin, "people", challenge.variant, seats, 0.0, challenge.rated)
        await self._say(msg.channel, f"{msg.user.name} accepts. New {'rated' if table.rated else 'casual'} game: "
                        f"{table.title()}. {self._whose_turn(table)}", to=msg, board=self._view(table),
                        mentions=(challenge.challenger,))

    async def _decline(self, msg: Message, words: list[str]) -> None:
        table = self.tables.get(msg.channel)
        if table is not None:
            async with table.lock:
                colour = self._player(table, msg)
                if table.draw_offer is not None or table.takeback_offer is not None:
                    what = "draw offer" if table.draw_offer is not None else "takeback request"
                    mine = colour in (table.draw_offer, table.takeback_offer)
                    table.draw_offer = table.takeback_offer = None
                    await self._say(msg.channel, f"{msg.user.name} {'withdraws' if mine else 'declines'} the {what}.",
                                    to=msg)
                    return
            raise Refusal("Nothing is waiting for your answer in this game.")
        challenge = self.challenges.get(msg.channel)
        if challenge is None or self._expired(challenge):
            raise Refusal("There is no challenge to decline here.")
        own = challenge.challenger.id == msg.user.id
        if not own and challenge.challenged is not None and challenge.challenged.id != msg.user.id:
            raise Refusal(f"That challenge is for {challenge.challenged.name}.")
        if not own and challenge.challenged is None:
            raise Refusal("That challenge is open to anyone; there is nothing to decline, just leave it.")
        del self.challenges[msg.channel]
        await self._say(msg.channel, f"{msg.user.name} {'withdraws' if own else 'declines'} the challenge.", to=msg)

    async def _watch(self, msg: Message, words: list[str]) -> None:
        options = commands.parse_options("watch", words)
        self._check_free(msg)
        matches = sum(1 for t in self.tables.values() if t.guild == msg.guild and t.kind == "match")
        if matches >= self.config.matches_per_server:
            raise Refusal(f"{matches} bot matches are running on this server already; the limit is "
                          f"{self.config.matches_per_server}. `stop` one, or wait for one to end.")
        levels = options.levels + [6] * (2 - len(options.levels))
        delay = 2.0 if options.delay is None else options.delay
        if not 0 <= delay <= 60:
            raise Refusal("The delay between moves must be between 0 and 60 seconds.")
        first = game_type(options.variant or DEFAULT_VARIANT).first
        seats = {first: Seat(level=levels[0]), first.opponent: Seat(level=levels[1])}
        table = await self._open_table(msg, "match", options.variant or DEFAULT_VARIANT, seats,
                                       self._budget(options.time), False, delay)
        await self._say(msg.channel, f"Bot match: {table.title()}, {table.budget:g} s a move, {delay:g} s between "
                        f"moves. {msg.user.name} can `stop` it.", to=msg, board=self._view(table))
        self._kick(table)

    async def _stop(self, msg: Message, words: list[str]) -> None:
        table = self.tables.get(msg.channel)
        if table is None or table.kind != "match":
            raise Refusal("No bot match is running here.")
        if table.starter is not None and table.starter.id != msg.user.id:
            raise Refusal(f"Only {table.starter.name}, who started this match, can stop it.")
        async with table.lock:
            await self._finish(table, None, "stopped", to=msg)

    # playing

    def _player(self, table: Table, msg: Message) -> Color:
        colour = table.colour_of(msg.user)
        if colour is None:
            raise Refusal("You are not playing in this game.")
        return colour

    async def _move(self, msg: Message) -> None:
        if not any(c.isdigit() for c in msg.text):
            raise Refusal(f"I don't know {quoted(msg.text)}. Type a move like 11-15, or `help` for the commands.")
        table = self.tables.get(msg.channel)
        if table is None:
            raise Refusal("No game is on here. `new` starts one against me; `help` lists the commands.")
        async with table.lock:
            colour = self._player(table, msg)
            if table.game.turn != colour:
                waiting = "I am thinking" if table.to_move.is_bot else f"it is {table.to_move.name}'s move"
                raise Refusal(f"Not your turn: {waiting}.")
            if table.kind == "bot" and not self.pool.has_room():
                raise PoolBusy()
            move = table.game.type.parse_move(table.game.position, msg.text)
            before = table.game.position
            table.game.play(move)
            try:
                self.store.add_move(table.id, len(table.game.moves) - 1, table.game.type.write_move(before, move, full=True))
            except sqlite3.Error:
                table.game.undo()
                raise
            table.draw_offer = table.takeback_offer = None
            table.last_activity, table.reminded = self.clock(), False
            text = f"{msg.user.name} played {table.game.type.write_move(before, move)}."
            if table.game.result() is None:
                text += f" {self._whose_turn(table)}"
            await self._say(msg.channel, text, to=msg, board=self._view(table))
            if not await self._finish_by_rules(table):
                self._kick(table)

    def _kick(self, table: Table) -> None:
        """Start the bot's move (or the bot match) if a bot is to move and none is under way."""
        if table.to_move.is_bot and (table.task is None or table.task.done()) and self.tables.get(table.channel) is table:
            table.task = asyncio.create_task(self._bot_moves(table), name=f"bot moves in game {table.id}")

    async def _bot_moves(self, table: Table) -> None:
        """Play the bot's moves while a bot is to move: one in a game against a person, all in a match."""
        try:
            await self._play_bot_moves(table)
        except asyncio.CancelledError:
            raise
        except Exception:  # the game stays as stored; tick() starts the bot again
            log.exception("the bot's move in game %d failed", table.id)

    async def _play_bot_moves(self, table: Table) -> None:
        while self.tables.get(table.channel) is table and table.to_move.is_bot:
            game = table.game
            seat = table.to_move
            assert seat.level is not None
            ply = len(game.moves)
            job = Job(game.type.name, game.type.write_position(game.position), game.history(), seat.level,
                      table.budget)
            try:
                answer_text, score = await self._think(table, job)
            except PoolBusy:
                await asyncio.sleep(1.0)
                continue
            async with table.lock:
                if self.tables.get(table.channel) is not table or len(game.moves) != ply:
                    continue  # the game ended or changed while the bot was thinking
                before = game.position
                move = game.type.parse_move(before, answer_text)
                game.play(move)
                try:
                    self.store.add_move(table.id, ply, answer_text)
                except sqlite3.Error:
                    game.undo()
                    log.exception("could not store the bot's move in game %d", table.id)
                    await self._say(table.channel, "I could not save my move; I will try again in a moment.")
                    return  # tick() starts the bot again
                table.bot_score = score
                table.last_activity, table.reminded = self.clock(), False
                await self._announce_bot_move(table, seat, before, move, score)
                if await self._finish_by_rules(table):
                    return
                if table.kind == "match" and len(game.moves) >= MATCH_PLY_LIMIT:
                    await self._finish(table, None, f"{MATCH_PLY_LIMIT // 2} moves each played")
                    return
            if table.kind == "match" and table.delay:
                await asyncio.sleep(table.delay)

    async def _think(self, table: Table, job: Job) -> tuple[str, int]:
        """The bot's move as full path text, and its score; searched in the pool, else in process."""
        try:
            answer = await self.pool.think(table.channel, job)
            return answer.move, answer.score
        except PoolFailed:
            log.exception("the search processes failed on game %d; falling back to a shallow search", table.id)
            position = table.game.position
            move = table.game.type.fallback_move(position, random.Random())
            return table.game.type.write_move(position, move, full=True), 0

    async def _announce_bot_move(self, table: Table, seat: Seat, before, move, score: int) -> None:
        mover = seat.name if table.kind == "match" else "I"
        text = f"{mover} played {table.game.type.write_move(before, move)} ({_score_words(score)})."
        if table.game.result() is None:
            text += f" {self._whose_turn(table)}"
        to_move = table.to_move.user
        await self._say(table.channel, text, board=self._view(table, before, move),
                        mentions=(to_move,) if to_move else ())

    def _whose_turn(self, table: Table) -> str:
        seat = table.to_move
        if seat.is_bot:
            return f"{table.game.turn} ({seat.name}) to move." if table.kind == "match" else "My move."
        return f"{seat.name}, your move ({table.game.turn})."

    def _view(self, table: Table, before=None, move=None) -> Board:
        game = table.game
        if move is None and game.moves:
            move, before = game.moves[-1], game.positions[-2]
        number = len(game.moves) // 2 + 1
        caption = f"{game.type.name.capitalize()} · move {number} · {game.turn} to move"
        return Board(table.id, game.position, move, before, table.flipped, caption, game.type.name)

    async def _resign(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        async with table.lock:
            colour = self._player(table, msg)
            await self._finish(table, colour.opponent, f"{msg.user.name} resigned", to=msg)

    async def _draw(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        async with table.lock:
            colour = self._player(table, msg)
            if table.draw_offer == colour.opponent:
                await self._finish(table, None, "agreed", to=msg)
            elif table.kind == "bot":
                score = table.bot_score or 0
                if score <= DRAW_ACCEPT_SCORE or (abs(score) <= 10 and len(table.game.moves) >= 40):
                    await self._finish(table, None, "agreed", to=msg)
                else:
                    await self._say(msg.channel, f"I decline the draw: I would rather play on ({_score_words(score)}).",
                                    to=msg)
            elif table.draw_offer == colour:
                raise Refusal("You have offered a draw already; it stands until the next move.")
            else:
                table.draw_offer = colour
                opponent = table.seats[colour.opponent]
                await self._say(msg.channel, f"{msg.user.name} offers a draw. {opponent.name}: `accept` or `decline`.",
                                to=msg, mentions=(opponent.user,) if opponent.user else (), asks=True)

    async def _takeback(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        async with table.lock:
            colour = self._player(table, msg)
            if not any(table.game.positions[i].turn == colour for i in range(len(table.game.moves))):
                raise Refusal("You have no move to take back.")
            if table.kind == "bot":
                if table.game.turn != colour:
                    raise Refusal("Wait for my move, then take back.")
                if table.takebacks_used >= self.config.takebacks:
                    raise Refusal(f"You have used all {self.config.takebacks} takebacks of this game.")
                table.takebacks_used += 1
                await self._take_back(table, colour, msg)
            elif table.takeback_offer == colour.opponent:
                await self._take_back(table, colour.opponent, msg)
            else:
                table.takeback_offer = colour
                opponent = table.seats[colour.opponent]
                await self._say(msg.channel, f"{msg.user.name} asks to take back their last move. {opponent.name}: "
                                "`accept` or `decline`.", to=msg, mentions=(opponent.user,) if opponent.user else (),
                                asks=True)

    async def _take_back(self, table: Table, colour: Color, msg: Message) -> None:
        """Undo moves until it is ``colour``'s turn again, with their last move gone (under the lock)."""
        game = table.game
        plies = 1 if game.turn != colour else 2
        from_ply = len(game.moves) - plies
        try:
            self.store.remove_moves(table.id, from_ply)
            self.store.save_settings(table.id, table.settings())
        except sqlite3.Error:
            if table.kind == "bot":
                table.takebacks_used -= 1
            raise
        for _ in range(plies):
            game.undo()
        table.draw_offer = table.takeback_offer = None
        table.last_activity, table.reminded = self.clock(), False
        left = (f" ({self.config.takebacks - table.takebacks_used} takebacks left)" if table.kind == "bot" else "")
        await self._say(table.channel, f"Taken back{left}. {self._whose_turn(table)}", to=msg, board=self._view(table))

    async def _hint(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        colour = self._player(table, msg)
        if table.rated:
            raise Refusal("No hints in rated games.")
        if table.game.turn != colour:
            raise Refusal("A hint is for your own move; wait for your turn.")
        game = table.game
        job = Job(game.type.name, game.type.write_position(game.position), game.history(), 6, HINT_TIME)
        text, score = await self._think(table, job)
        suggestion = game.type.write_move(game.position, game.type.parse_move(game.position, text))
        await self._private(msg, f"Try {suggestion} ({_score_words(score)}).")

    # looking

    def _table(self, msg: Message) -> Table:
        table = self.tables.get(msg.channel)
        if table is None:
            raise Refusal("No game is on here. `new` starts one.")
        return table

    async def _moves(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        texts = table.game.type.legal_texts(table.game.position)
        await self._private(msg, f"Legal moves for {table.game.turn}: {', '.join(texts)}.")

    async def _board(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        await self._say(msg.channel, f"{table.title()}. {self._whose_turn(table)}", to=msg, board=self._view(table))

    async def _pdn(self, msg: Message, words: list[str]) -> None:
        table = self._table(msg)
        await self._say(msg.channel, "The game so far:", to=msg, pdn=self._pdn_text(table), game=table.id)

    def _pdn_text(self, table: Table, result: str | None = None) -> str:
        date = time.strftime("%Y.%m.%d", time.gmtime())
        tags = {"Event": f"Draughts bot game {table.id}", "Site": table.channel_name, "Date": date,
                "White": table.seats[Color.WHITE].name, "Black": table.seats[Color.BLACK].name}
        if result:
            tags["Result"] = result
        return table.game.type.record_text(table.game, tags)

    async def _games(self, msg: Message, words: list[str]) -> None:
        here = [t for t in self.tables.values() if t.guild == msg.guild]
        if not here:
            await self._say(msg.channel, "No games are being played on this server.", to=msg)
            return
        lines = [f"#{t.channel_name}: {t.title()}, move {len(t.game.moves) // 2 + 1}" for t in here]
        await self._say(msg.channel, "Games on this server:\n" + "\n".join(lines), to=msg)

    async def _rating(self, msg: Message, words: list[str]) -> None:
        user = msg.mentions[0] if msg.mentions else msg.user
        lines = []
        for name in NAMES:
            r, played = self.store.rating(msg.guild, name, user.id)
            if played:
                lines.append(f"{name}: {r} ({played} games)")
        text = (f"{user.name}'s ratings here: " + "; ".join(lines)) if lines else f"{user.name} has no rated games here yet."
        await self._say(msg.channel, text + ".", to=msg)

    async def _leaderboard(self, msg: Message, words: list[str]) -> None:
        options = commands.parse_options("leaderboard", words) if words else Options()
        v = options.variant or DEFAULT_VARIANT
        rows = self.store.leaderboard(msg.guild, v)
        if not rows:
            await self._say(msg.channel, f"No rated {v} games on this server yet.", to=msg)
            return
        lines = [f"{i}. {row.name}: {row.rating} ({row.games} games)" for i, row in enumerate(rows, 1)]
        await self._say(msg.channel, f"Best {v} players here:\n" + "\n".join(lines), to=msg)

    async def _help(self, msg: Message, words: list[str]) -> None:
        await self._private(msg, commands.help_text(words[0] if words else None))

    # ending games

    async def _finish_by_rules(self, table: Table) -> bool:
        """End the game if the rules say it is over (under the lock); True if it ended."""
        result = table.game.result()
        if result is None:
            return False
        await self._finish(table, result.winner, result.reason)
        return True

    async def _finish(self, table: Table, winner: Color | None, reason: str, to: Message | None = None,
                      aborted: bool = False) -> None:
        """Record the result, update ratings, and announce it (under the lock)."""
        finished = not aborted and reason != "stopped"
        result = table.game.type.score_text(winner) if finished else "*"
        pdn = self._pdn_text(table, result)
        winner_name = None if winner is None else winner.name.lower()
        changes, rating_words = self._rate(table, winner) if table.rated and finished else ([], "")
        self.store.finish_game(table.id, winner_name, reason, pdn, changes)
        del self.tables[table.channel]
        if table.task and table.task is not asyncio.current_task():
            table.task.cancel()
        if aborted:
            text = f"Game aborted: {reason}. It does not count."
        elif reason == "stopped":
            text = "Bot match stopped."
        elif winner is None:
            text = f"Draw ({reason})."
        else:
            text = f"{table.seats[winner].name} ({winner}) wins: {reason}."
        if rating_words:
            text += " " + rating_words
        await self._say(table.channel, text, to=to, pdn=pdn, mentions=tuple(table.players()), replay=table.game,
                        game=table.id)

    def _rate(self, table: Table, winner: Color | None) -> tuple[list[tuple[str, str, Rating]], str]:
        """The players' new ratings after a rated game, (user id, name, rating) each, and words announcing them."""
        v = table.game.type.name
        now: dict[Color, tuple[Rating, User | None]] = {}
        for colour, seat in table.seats.items():
            if seat.user is not None:
                now[colour] = (self.store.rating(table.guild, v, seat.user.id)[0], seat.user)
            else:
                assert seat.level is not None
                now[colour] = (LEVEL_RATINGS[seat.level], None)
        changes, words = [], []
        for colour, (rating, user) in now.items():
            if user is None:
                continue
            score = 0.5 if winner is None else float(winner == colour)
            new = update(rating, [(now[colour.opponent][0], score)])
            changes.append((user.id, user.name, new))
            words.append(f"{user.name} {new.rating:.0f} ({new.rating - rating.rating:+.0f})")
        return changes, "Ratings: " + ", ".join(words) + "."

    # clocks

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
        now = self.clock()
        for channel, challenge in list(self.challenges.items()):
            if self._expired(challenge):
                del self.challenges[channel]
                await self._say(channel, f"{challenge.challenger.name}'s challenge expired unanswered.",
                                mentions=(challenge.challenger,))
        for table in list(self.tables.values()):
            if table.game.result() is not None:  # its end could not be saved before
                async with table.lock:
                    if self.tables.get(table.channel) is table:
                        await self._finish_by_rules(table)
                continue
            seat = table.to_move
            if seat.user is None:
                self._kick(table)  # restarts a bot move that could not be saved, say
                continue
            idle = now - table.last_activity
            async with table.lock:
                if self.tables.get(table.channel) is not table or table.to_move != seat:
                    continue
                if idle >= self.config.abandon_after:
                    colour = table.game.turn
                    moved = any(p.turn == colour for p in table.game.positions[:-1])
                    if moved:
                        await self._finish(table, colour.opponent, f"{seat.name} abandoned the game")
                    else:
                        await self._finish(table, None, f"{seat.name} never made a first move", aborted=True)
                elif idle >= self.config.remind_after and not table.reminded:
                    table.reminded = True
                    left = (self.config.abandon_after - idle) / 60
                    await self._say(table.channel, f"{seat.name}, it is your move in {table.title()}. "
                                    f"The game is given up in {left:.0f} minutes without one.", mentions=(seat.user,))


def _colour(word: str, otherwise: Color) -> Color:
    """The colour a player asked for: 'white', 'black', 'random', or ``otherwise``."""
    if word == "random":
        return random.choice(list(Color))
    return {"white": Color.WHITE, "black": Color.BLACK}.get(word, otherwise)


def _score_words(score: int) -> str:
    """A score from the mover's side, as a player reads it."""
    if score > WIN_BOUND:
        return "evaluation: a forced win"
    if score < -WIN_BOUND:
        return "evaluation: a forced loss"
    return f"evaluation {score / 100:+.2f}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
