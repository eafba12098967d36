"""Playing a game: moves typed, resigning, draws, takebacks, hints, and looking at the game."""

from __future__ import annotations

from typing import Protocol


from bot.core import flags, puzzles
from bot.core.bot_moves import kick, think
from bot.core.results import finish, finish_by_rules, pdn_text
from bot.core.state import MOVED_ELSEWHERE, Plays, Refusal, player, written
from bot.clocks import Clocks
from bot.ending import Ending
from bot.evaluation import Evaluation
from bot.events import Moved, Offered, Started, TakenBack
from bot.pool import PoolBusy
from bot.core.replay import reload
from bot.store import MoveConflict, SaveFailed
from bot.replies import Message
from bot.tables import Kind, Table
from bot.words import colour_name
from bot.translation import join, plural, tr
from bot.user_text import quoted
from bot.worker import Job
from engine import Color, Termination

HINT_TIME = 0.3  # seconds a hint searches
DRAW_ACCEPT_SCORE = -30  # the bot takes a draw when it thinks it is this much worse (hundredths of a man)
OFFER_AGAIN = {"draw": 20, "takeback": 2}
"""Plies after a player's draw offer (or takeback request) before they may make another: as lidraughts, a draw
offer again only ten moves later; a takeback request again once each side has moved. Without it, one person (or
a page) could fill the channel with offers and the bot's answers."""


class Needs(Plays, puzzles.Needs, Protocol):
    """What playing a game uses of the core's state: what playing takes, and the puzzles' (`moves` and `board`
    show a channel's puzzle when no game is on)."""

    def table(self, msg: Message) -> Table: ...


async def move(s: Needs, msg: Message) -> None:
    """A message that is no command: a move in the channel's game."""
    if not any(c in "0123456789" for c in msg.text):
        raise Refusal(tr("I don't know {text}. Type a move like 11-15, or `help` for the commands.",
                         text=quoted(msg.text)))
    table = s.tables.get(msg.channel)
    if table is None:
        raise Refusal(tr("No game is on here. `new` starts one against me; `help` lists the commands."))
    async with table.lock:
        colour = player(table, msg)
        if table.game.turn != colour:
            if not table.to_move.is_bot:
                waiting = tr("it is {name}'s move", name=table.to_move.name)
            elif table.saving:
                waiting = tr("my move is found, but the database is not taking it yet")
            else:
                waiting = tr("I am thinking")
            raise Refusal(tr("Not your turn: {waiting}.", waiting=waiting))
        if table.kind is Kind.BOT and table.clocks is None and not s.pool.has_room():
            raise PoolBusy()  # (against a clock the move is taken: the bot's answer waits on the bot's own time)
        before = table.game.position
        played = table.game.type.parse_move(before, msg.text)
        now = s.clock()  # (the move's time: the database's, after, is charged to nobody)
        if await flags.flag(s, table):
            return  # too late: the time ran out before the move came
        clocks = table.clocks_moved(now)
        ply, full = len(table.game.moves), table.game.type.write_move(before, played, full=True)
        reloaded = False  # (the database had it already: the game is reloaded with it)
        try:  # stored before it is played, so nobody sees a move that is not kept
            table.version = await s.store.add_move(table.id, table.version, ply, full,
                                                   clocks.to_json() if clocks else None)
        except MoveConflict:
            unsure, table.unsure = table.unsure, None
            await reload(s, table)
            if not (unsure == (ply, full) and s.tables.is_on(table) and written(table, ply, full)):
                if s.tables.is_on(table):
                    kick(s, table)  # the bot may be to move in the game as it now is
                raise Refusal(MOVED_ELSEWHERE) from None
            # the same move, typed again after the database's answer to it was lost: it was kept the first time
            reloaded = True
        except SaveFailed:
            table.unsure = (ply, full)
            raise
        else:
            table.game.play(played)
            table.clocks = clocks
            table.clocks_after.append(clocks)
        table.unsure = None
        table.draw_offer = table.takeback_offer = None
        took, table.last_activity, table.reminded = now - table.last_activity, now, False
        text = table.move_said()
        if reloaded:  # (the game whole again, with the move's words)
            s.tell(table, Started, text)
        else:
            s.tell(table, Moved, text, move=full, mover=colour, seconds=took, evaluation=table.evaluation, late=False,
                   clocks=table.clocks)
        await s.show(table, text, to=msg, told=True)
        if not await finish_by_rules(s, table):
            flags.watch(s, table)
            kick(s, table)


async def resign(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.table(msg)
    async with table.lock:
        colour = player(table, msg)
        await finish(s, table, Ending(colour.opponent, Termination.RESIGNED), to=msg)


def _may_offer(table: Table, colour: Color, what: str) -> None:
    """Refused if ``colour``'s last offer of ``what`` was too few plies ago (``OFFER_AGAIN``); the caller notes the
    offer in ``table.offered`` once it is made (not if making it fails)."""
    ply, last = len(table.game.moves), table.offered.get((what, colour))
    if last is not None and ply < last + OFFER_AGAIN[what]:
        again = (last + OFFER_AGAIN[what]) // 2 + 1
        raise Refusal(tr("You offered a draw at move {move}; you may offer another from move {again}.",
                         move=last // 2 + 1, again=again) if what == "draw" else
                      tr("You asked for a takeback at move {move}; you may ask again from move {again}.",
                         move=last // 2 + 1, again=again))


async def draw(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.table(msg)
    async with table.lock:
        colour = player(table, msg)
        if await flags.flag(s, table):
            return  # (a time that ran out is not undone by an offer or its answer)
        if table.draw_offer == colour.opponent:
            await finish(s, table, Ending(None, Termination.AGREED), to=msg)
            return
        if table.draw_offer == colour:
            raise Refusal(tr("You have offered a draw already; it stands until the next move."))
        _may_offer(table, colour, "draw")
        if table.kind is Kind.BOT:
            kept = table.evaluation  # (None: not judged since the game began or a move was taken back)
            score = None if kept is None else Evaluation(kept).for_side(colour.opponent)  # the bot's side
            if score is not None and (score <= DRAW_ACCEPT_SCORE or (abs(score) <= 10 and len(table.game.moves) >= 40)):
                await finish(s, table, Ending(None, Termination.AGREED), to=msg)
            elif kept is None:
                await s.say(msg.channel, tr("I decline the draw: I would rather play on."), to=msg)
            else:
                await s.say(msg.channel, tr("I decline the draw: I would rather play on ({evaluation}).",
                                            evaluation=Evaluation(kept).words()), to=msg)
        else:
            table.draw_offer = colour
            opponent = table.seats[colour.opponent]
            text = tr("{name} offers a draw. {opponent}: `accept` or `decline`.", name=msg.user.name,
                      opponent=opponent.name)
            s.tell(table, Offered, text, what="draw", by=colour)
            await s.ask(msg.channel, text, msg, (opponent.user,) if opponent.user else (), told=True)
        table.offered["draw", colour] = len(table.game.moves)


async def takeback(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.table(msg)
    async with table.lock:
        colour = player(table, msg)
        if await flags.flag(s, table):
            return  # (nor by a takeback, which would bring back earlier clocks)
        if table.tournament:
            raise Refusal(tr("No takebacks in a tournament's games."))
        if not table.has_moved(colour):
            raise Refusal(tr("You have no move to take back."))
        if table.kind is Kind.BOT:
            if table.game.turn != colour:
                raise Refusal(tr("Wait for my move, then take back."))
            if table.takebacks_used >= s.config.takebacks:
                raise Refusal(plural("You have used your {count} takeback of this game.",
                                     "You have used all {count} takebacks of this game.", s.config.takebacks))
            table.takebacks_used += 1
            await take_back(s, table, colour, msg)
        elif table.takeback_offer == colour.opponent:
            await take_back(s, table, colour.opponent, msg)
        elif table.takeback_offer == colour:
            raise Refusal(tr("You have asked for a takeback already; it stands until the next move."))
        else:
            _may_offer(table, colour, "takeback")
            table.takeback_offer, table.offered["takeback", colour] = colour, len(table.game.moves)
            opponent = table.seats[colour.opponent]
            text = tr("{name} asks to take back their last move. {opponent}: `accept` or `decline`.",
                      name=msg.user.name, opponent=opponent.name)
            s.tell(table, Offered, text, what="takeback", by=colour)
            await s.ask(msg.channel, text, msg, (opponent.user,) if opponent.user else (), told=True)


async def take_back(s: Needs, table: Table, colour: Color, msg: Message) -> None:
    """Undo moves until it is ``colour``'s turn again, with their last move gone (under the lock)."""
    game = table.game
    plies = 1 if game.turn != colour else 2
    from_ply = len(game.moves) - plies
    try:
        table.version = await s.store.remove_moves(table.id, table.version, from_ply, table.settings())
    except MoveConflict:
        if table.kind is Kind.BOT:
            table.takebacks_used -= 1
        await reload(s, table)
        raise Refusal(MOVED_ELSEWHERE) from None
    except SaveFailed:
        if table.kind is Kind.BOT:
            table.takebacks_used -= 1
        raise
    for _ in range(plies):
        game.undo()
    table.draw_offer = table.takeback_offer = table.evaluation = None  # (the bot's evaluation was of a later position)
    now = s.clock()
    table.last_activity, table.reminded = now, False
    if table.clocks is not None:  # the clocks go back with the moves, as they were after the move now last
        del table.clocks_after[from_ply:]
        earlier = table.clocks_after[-1] if table.clocks_after else None
        table.clocks = (earlier or Clocks.started(table.control, now)).resumed(now)
    left = s.config.takebacks - table.takebacks_used
    done = (plural("Taken back ({count} takeback left).", "Taken back ({count} takebacks left).", left)
            if table.kind is Kind.BOT else tr("Taken back."))
    text = join([done, table.whose_turn()])
    s.tell(table, TakenBack, text, plies=plies, takebacks_left=max(0, left) if table.kind is Kind.BOT else None,
           clocks=table.clocks)
    await s.show(table, text, to=msg, told=True)
    flags.watch(s, table)


async def hint(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.table(msg)
    colour = player(table, msg)
    if table.rated or table.tournament:
        raise Refusal(tr("No hints in rated games, nor in a tournament's."))
    if table.game.turn != colour:
        raise Refusal(tr("A hint is for your own move; wait for your turn."))
    game = table.game
    job = Job(game.type.name, game.type.write_position(game.position), game.history(), 6, HINT_TIME)
    text, score = await think(s, table, job)
    suggestion = game.type.write_move(game.position, game.type.parse_move(game.position, text))
    await s.private(msg, tr("Try {move} ({evaluation}).", move=suggestion,
                            evaluation=Evaluation.of(score, colour).words()))


async def moves(s: Needs, msg: Message, words: list[str]) -> None:
    if msg.channel not in s.tables and msg.channel in s.puzzles:
        await puzzles.moves(s, msg)
        return
    table = s.table(msg)
    texts = table.game.type.legal_texts(table.game.position)
    await s.private(msg, tr("Legal moves for {colour}: {moves}.", colour=colour_name(table.game.turn),
                            moves=", ".join(texts)))


async def board(s: Needs, msg: Message, words: list[str]) -> None:
    if msg.channel not in s.tables and msg.channel in s.puzzles:
        await puzzles.board(s, msg)
        return
    table = s.table(msg)
    await s.show(table, join([tr("{title}.", title=table.title()), table.whose_turn()]), to=msg)


async def pdn(s: Needs, msg: Message, words: list[str]) -> None:
    table = s.table(msg)
    await s.say(msg.channel, tr("The game so far:"), to=msg, pdn=pdn_text(table), game=table.id)
