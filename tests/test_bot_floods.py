"""What one person (or many) asking the same thing again and again sees in the channel: an analysis posted once a
channel for a while, however many ask and however fast; a draw offered or a takeback asked again only some moves
later; names and numbers read the same from every front end."""

from __future__ import annotations

import asyncio

from bot.core import Core
from bot.core.analyses import SHOWN_FOR
from bot.store import SqliteStore
from bot.replies import Message, User
from bot.translation import render
from chat import ANA, BEN, EVE, Chat, config
from test_bot_analysis import finished_game
from engine import Color

NODES = 3000  # a quick analysis: these tests are about what the channel sees


def posted(chat: Chat, channel: str = "c1") -> list:
    """The analyses the channel sees (a summary with its graph, not a private answer)."""
    return [r for r in chat.replies if r.analysis is not None and not r.private and r.channel == channel]


async def at_once(chat: Chat, who: list[User], text: str, channel: str = "c1") -> None:
    """Everyone in ``who`` sends ``text`` at the same moment (as discord.py runs each message as its own task)."""
    await asyncio.gather(*(chat.core.handle(Message("g", channel, user, text, channel_name=channel)) for user in who))


async def test_a_kept_analysis_is_posted_once_a_channel_however_many_ask(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    game = await finished_game(chat)
    await chat.say(ANA, "analyse")
    await chat.core.settle()
    assert len(posted(chat)) == 1
    start = len(chat.replies)
    for _ in range(20):  # the same person, then others, asking again and again
        await chat.say(ANA, f"analyse {game}")
    await at_once(chat, [User(str(n), f"p{n}") for n in range(100, 120)], f"analyse {game}")
    later = chat.replies[start:]
    assert len(posted(chat)) == 1 and all(r.private for r in later) and len(later) == 40
    assert "I posted the analysis of game" in later[0].text and "scroll up" in later[0].text
    elsewhere = await chat.say(BEN, f"analyse {game}", channel="c2")  # another channel has not seen it
    assert len(posted(chat, "c2")) == 1 and not elsewhere[0].private
    chat.clock.now += SHOWN_FOR  # a while later, the channel may see it again
    await chat.say(EVE, f"analyse {game}")
    assert len(posted(chat)) == 2
    await chat.core.close()


async def test_asks_at_the_same_moment_start_one_analysis_and_post_it_once(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    game = await finished_game(chat)
    start = len(chat.replies)
    await at_once(chat, [ANA] * 50, f"analyse {game}")
    asked = chat.replies[start:]
    public = [r for r in asked if not r.private]
    assert len(public) == 1 and public[0].text.startswith(f"Analysing game {game}")
    assert sum("You asked already" in r.text for r in asked if r.private) == 49
    await at_once(chat, [BEN, EVE], f"analyse {game}")  # others in the channel are told it is coming
    assert all(r.private and "being analysed already" in r.text for r in chat.replies[-2:])
    await chat.core.settle()
    assert len(posted(chat)) == 1
    await chat.core.close()


async def test_after_a_declined_draw_the_offer_waits_ten_moves(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(takebacks=3))
    await chat.say(ANA, "new english level 6 time 0.05")
    await chat.play_any(ANA)
    await chat.core.settle()
    first = await chat.say(ANA, "draw")
    assert not first[0].private and "I decline the draw" in first[0].text
    start = len(chat.replies)
    for _ in range(18):
        await chat.say(ANA, "draw")
    again = chat.replies[start:]
    assert all(r.private for r in again) and len(again) == 18
    assert "You offered a draw at move 2; you may offer another from move 12." in again[0].text
    assert sum("I decline the draw" in r.text for r in chat.replies) == 1
    for _ in range(9):  # nine more moves each: not yet; ten: again
        await chat.play_any(ANA)
        await chat.core.settle()
    assert (await chat.say(ANA, "draw"))[0].private
    await chat.play_any(ANA)
    await chat.core.settle()
    assert not (await chat.say(ANA, "draw"))[0].private
    await chat.core.close()


async def test_offers_between_people_are_not_repeated_without_end(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "challenge @ben english casual white", mentions=(BEN,))
    await chat.say(BEN, "accept")
    for who in (BEN, ANA):  # (Black, Ben, moves first)
        await chat.play_any(who)
    start = len(chat.replies)
    await chat.say(ANA, "draw")
    await chat.say(ANA, "decline")  # withdrawn, then offered again at once: refused
    again = await chat.say(ANA, "draw")
    assert again[0].private and "you may offer another" in again[0].text
    await chat.say(ANA, "takeback")
    repeated = await chat.say(ANA, "takeback")
    assert repeated[0].private and "asked for a takeback already" in repeated[0].text
    await chat.say(BEN, "decline")
    asked_again = await chat.say(ANA, "takeback")
    assert asked_again[0].private and "ask again from move" in asked_again[0].text
    public = [r.text for r in chat.replies[start:] if not r.private]
    assert sum("offers a draw" in t for t in public) == 1 and sum("asks to take back" in t for t in public) == 1
    await chat.play_any(BEN)
    await chat.play_any(ANA)
    assert not (await chat.say(ANA, "takeback"))[0].private  # once each side has moved
    await chat.core.close()


async def test_a_takeback_forgets_the_bots_evaluation_of_the_later_position(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "new english level 3 time 0.05")
    await chat.play_any(ANA)
    await chat.core.settle()
    assert chat.table().evaluation is not None
    await chat.say(ANA, "takeback")
    assert chat.table().evaluation is None and (await chat.core.live_game(chat.table().id)).evaluation is None
    declined = await chat.say(ANA, "draw")
    assert declined[0].text == "I decline the draw: I would rather play on."
    await chat.core.close()


async def test_names_are_cleaned_where_they_enter_the_core_whatever_the_front_end(pool):
    store = SqliteStore(":memory:")
    replies = []

    async def send(reply):
        replies.append(reply)

    core = Core(config(), store, pool, send)
    hostile = User("9", "\u202eana\u2066@everyone\u200f" + "x" * 60)
    ben = User("2", "\u202dben\u2069")
    await core.handle(Message("g", "c1", hostile, "challenge @ben english casual white", (ben,),
                              channel_name="c\u202e1"))
    await core.handle(Message("g", "c1", ben, "accept", channel_name="c1"))
    said = "\n".join(r.text for r in replies)
    assert "ana" in said and "ben" in said
    assert not any(c in said for c in "\u202e\u2066\u200f\u202d\u2069") and "@everyone" not in said
    pdn = core.pdn("c1")
    assert not any(c in pdn for c in "\u202e\u2066\u200f\u202d\u2069") and '[Site "c1"]' in pdn
    kept = core.live("c1").seats[Color.WHITE].user
    assert kept.id == "9" and kept.name.startswith("ana@") and len(kept.name) <= 32 + 1  # (+ a joiner after @)
    await core.close()


async def test_numbers_are_read_one_way_in_every_command(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    for digits in ("\u0663", "\uff13", "\U0001d7cf"):  # Arabic-Indic three, fullwidth three, mathematical bold one
        for command in (f"analyse {digits}", f"new english level {digits}", f"daily here hour {digits}"):
            refused = await chat.say(ANA, command, manager=True)
            assert refused[0].private, command
            assert not chat.on(), command
            if command.startswith("analyse"):  # not read as game 3, or 1
                assert "takes a game's number" in refused[0].text
    assert not (await chat.say(ANA, "daily here hour 3", manager=True))[0].private
    await chat.core.close()


async def test_numbers_are_written_as_each_language_writes_them(pool):
    from bot.evaluation import Evaluation

    said = Evaluation.of(9, Color.BLACK).words()
    assert said == "evaluation -0.09 for White" and render(said, "fr").startswith("évaluation -0,09")
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    await finished_game(chat)
    await chat.say(ANA, "analyse")
    await chat.core.settle()
    text = posted(chat)[0].text
    assert "3,000 nodes a position" in text
    assert "3\u00a0000" in render(text, "ru") and "3.000" in render(text, "nl") and "3,000" not in render(text, "fr")
    await chat.core.close()


async def test_an_ask_made_as_the_analysis_ends_joins_it_rather_than_starting_another(pool, monkeypatch):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    game = await finished_game(chat)
    await chat.say(ANA, "analyse")
    gate, looked = asyncio.Event(), []
    kept = chat.store.analysis

    async def slow(game_id, nodes):  # the database's answer (nothing kept yet) arrives after the analysis ended
        found = await kept(game_id, nodes)
        looked.append(found)
        await gate.wait()
        return found
    monkeypatch.setattr(chat.store, "analysis", slow)
    saved = chat.store.save_analysis
    saves = []

    async def counted(*args):
        saves.append(args[0])
        return await saved(*args)
    monkeypatch.setattr(chat.store, "save_analysis", counted)
    asking = asyncio.ensure_future(chat.say(BEN, f"analyse {game}", channel="c2"))
    await asyncio.sleep(0.05)
    await chat.core.settle()
    gate.set()
    await asking
    await chat.core.settle()
    started = [r for r in chat.replies if r.text.startswith(f"Analysing game {game}:") and not r.private]
    assert len(started) == 2 and len(posted(chat)) == 1 and len(posted(chat, "c2")) == 1  # two posts ...
    assert saves == [game]  # ... of one analysis
    await chat.core.close()


async def test_the_chat_gives_the_bots_evaluation_for_white_as_the_page_does(pool):
    from bot.web import views

    chat = Chat(SqliteStore(":memory:"), pool)
    await chat.say(ANA, "new english level 6 white time 0.05")  # the bot plays Black, and moves first
    await chat.core.settle()
    said = next(r.text for r in reversed(chat.replies) if r.text.startswith("I played"))
    score = float(said.split("(evaluation ")[1].split(" for White)")[0])
    white = chat.table().evaluation
    assert white is not None and score == white / 100 == views.evaluation(chat.core.live("c1"))["score"]
    await chat.play_any(ANA)
    await chat.core.settle()
    hint = await chat.say(ANA, "hint")
    assert hint[0].private and " for White)" in hint[0].text
    await chat.core.close()


async def test_the_seconds_a_move_are_written_as_the_readers_language_writes_them(pool):
    chat = Chat(SqliteStore(":memory:"), pool)
    opened = (await chat.say(ANA, "new english level 1 time 0.5"))[0].text
    assert "I take 0.5 s a move" in opened and "0,5 s" in render(opened, "fr") and "0,5 с" in render(opened, "ru")
    await chat.core.close()
