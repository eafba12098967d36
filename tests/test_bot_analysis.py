"""`analyse` in chat: a finished game judged move by move in the search pool, kept in the database (SQLite and
PostgreSQL) so that asking again, or after a restart, answers at once; never a game still being played."""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import replace

import pytest

from bot.core import Core
from bot.core.analyses import progress_key
from bot.store import SqliteStore
from bot.store.postgres import PostgresStore
from bot.replies import Buttons
from bot.terminal import Terminal, chat
from chat import ANA, BEN, Chat, config
from engine import Color
from engine.analysis import Analysis
from postgres import fresh_database

NODES = 3000  # a quick analysis: the tests are about the bot, not the judgements' depth


def first_moves(plies: int):
    """An English game of ``plies`` moves, each the first legal one."""
    from engine import game_type

    record = game_type("english").new_game()
    while len(record.moves) < plies:
        record.play(record.legal_moves()[0])
    return record


async def finished_game(chat: Chat, moves: int = 3) -> int:
    """Ana plays the bot (level 1) for a few moves, then resigns; the game's id."""
    await chat.say(ANA, "new english level 1 time 0.05")
    game = chat.table().id
    for _ in range(moves):
        await chat.play_any(ANA)
        await chat.core.settle()
    await chat.say(ANA, "resign")
    return game


async def test_analyse_judges_the_last_finished_game_and_the_end_offers_the_button(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    game = await finished_game(chat)
    end = chat.replies[-1]
    assert "wins" in end.text and "`analyse`" in end.text
    assert end.controls is not None and end.controls.buttons is Buttons.ENDED and end.controls.game == game
    first = await chat.say(BEN, "analyse")  # anyone in the channel may ask
    assert f"Analysing game {game}: 7 positions" in first[0].text and not first[0].private
    assert first[0].update == progress_key(game)
    await chat.core.settle()
    answer = chat.replies[-1]
    assert isinstance(answer.analysis, Analysis) and answer.update == progress_key(game)
    assert len(answer.analysis.moves) == 6
    assert "White (Bot level 1)" in answer.text and "Black (ana)" in answer.text and "accuracy" in answer.text
    assert answer.text.startswith(f"Analysis of game {game} (English, 3,000 nodes a position)")
    await chat.core.close()


async def test_a_game_still_being_played_between_people_is_never_analysed(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    await chat.say(ANA, "challenge @ben english casual", mentions=(BEN,))
    await chat.say(BEN, "accept")
    game = chat.table().id
    await chat.play_any(chat.table().seats[chat.table().game.turn].user)
    for who in (ANA, BEN):
        refused = await chat.say(who, f"analyse {game}")
        assert refused[0].private and "still being played" in refused[0].text
        assert "No game has finished" in (await chat.say(who, "analyse"))[0].text
    assert not chat.core.state.analyses
    other = await chat.say(ANA, "analyse 1", channel="elsewhere")  # nor from another channel
    assert "still being played" in other[0].text
    assert "no game 12345" in (await chat.say(ANA, "analyse 12345"))[0].text
    assert "takes a game's number" in (await chat.say(ANA, "analyse next one"))[0].text
    await chat.core.close()


async def test_one_analysis_at_a_time_per_person(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    first = await finished_game(chat)
    second = await finished_game(chat, moves=1)
    await chat.say(ANA, f"analyse {first}")
    refused = await chat.say(ANA, f"analyse {second}")
    assert refused[0].private and "one at a time" in refused[0].text
    here = await chat.say(BEN, f"analyse {first}")  # the channel that asked gets it once
    assert here[0].private and "being analysed already" in here[0].text
    joined = await chat.say(BEN, f"analyse {first}", channel="c2")  # asking elsewhere for one under way joins it
    assert not joined[0].private
    await chat.core.settle()
    answers = [r for r in chat.replies if r.analysis is not None]
    assert len(answers) == 2 and {(r.channel, r.to.user) for r in answers} == {("c1", ANA), ("c2", BEN)}
    await chat.core.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_analysis_is_back_at_once_after_a_restart(pool, tmp_path, backend, request):
    async def store():
        if backend == "sqlite":
            return SqliteStore(str(tmp_path / "bot.sqlite3"))
        return await PostgresStore.connect(url)

    url = await fresh_database(request.getfixturevalue("postgres_server")) if backend == "postgresql" else None
    first = Chat(await store(), pool, config(analysis_nodes=NODES))
    game = await finished_game(first)
    await first.say(ANA, "analyse")
    await first.core.settle()
    analysed = first.replies[-1].analysis
    assert analysed is not None
    await first.core.close()
    await first.store.close()

    second = Chat(await store(), pool, config(analysis_nodes=NODES))
    try:
        await second.core.start()
        answer = await second.say(BEN, f"analyse {game}")  # answered within the call: nothing searched
        assert len(answer) == 1 and answer[0].analysis == analysed
        assert not second.core.state.analyses
        shown = await second.core.analysis(game, "g")
        assert shown.analysis == analysed and shown.done == shown.total == 7
    finally:
        await second.core.close()
        await second.store.close()


async def test_an_analysed_game_in_the_terminal_chat(pool, tmp_path):
    out = io.StringIO()
    terminal = Terminal(tmp_path, out=out)
    core = Core(config(analysis_nodes=NODES), SqliteStore(":memory:"), pool, terminal.send)
    await chat(core, terminal, io.StringIO("new english level 1 time 0.05\n11-15\nresign\nanalyse\n"))
    text = out.getvalue()
    assert "Analysis of game 1" in text and "Black (you):" in text
    graph = tmp_path / "analysis-1.png"
    assert f"[evaluation graph: {graph}]" in text and graph.read_bytes().startswith(b"\x89PNG")
    await core.close()


def test_the_summary_names_the_costliest_moves_with_the_better_line():
    from bot.core.analyses import summary
    from bot.store import FinishedGame, StoredGame
    from engine.analysis import Judged, Player

    blunder = Judged(2, Color.WHITE, "30-26", "24-19", ("24-19", "15x24", "28x19"), 10, -300, 0.62, "blunder", None)
    fine = Judged(3, Color.BLACK, "9-14", "9-14", ("9-14",), 300, 300, 0.0, None, None)
    players = {Color.WHITE: Player(0, 0, 1, 155, 61.5), Color.BLACK: Player(0, 0, 0, 0, 100.0)}
    analysis = Analysis("english", 1000, (0, 0, 10, -300, -300), (blunder, fine), players)
    stored = StoredGame(7, "g", "c1", "english", "", "people", {"white": {"user": ["1", "ana"]},
                        "black": {"user": ["2", "ben"]}}, {}, ["a"] * 4, 0.0)
    text = summary(FinishedGame(stored, "black", "resigned", ""), analysis)
    assert "White (ana): 0 inaccuracies, 0 mistakes, 1 blunder; average loss 1.55" in text
    assert "accuracy 62%" in text and "Black (ben): 0 inaccuracies" in text
    assert "2... 30-26 (blunder, +0.10 → -3.00). Better 24-19: 24-19 15x24 28x19." in text  # Black moves first


async def test_a_move_does_not_wait_for_an_analysis(pool):
    """One search process, busy with an analysis segment of long positions: a move that comes gets the process
    within milliseconds (the position in hand is dropped), and the segment goes on later from where it stopped,
    with the same looks as if it had never stopped."""
    from bot.worker import ANALYSIS_TT_MB, Job, Segment
    from engine import History
    from engine.analysis import look_segment, plies
    from engine.search import Searcher

    record = first_moves(7)
    kind = record.type
    nodes = 1_000_000  # about 0.3 s a position here
    segment = Segment.of(record, range(7, -1, -1), nodes)
    analysing = asyncio.ensure_future(pool.look("eve", segment))
    await asyncio.sleep(0.3)  # the segment is under way
    started = time.monotonic()
    answer = await pool.think("c1", Job("english", kind.write_position(kind.start()), History(), 6, 0.05))
    waited = time.monotonic() - started
    first = await analysing
    assert answer.move and len(first) < 8  # the segment gave way
    assert waited < 0.05 + 0.25, f"the move waited {waited:.2f} s (its budget is 0.05 s)"
    rest = await pool.look("eve", replace(segment, known=len(first)))
    assert first + rest == look_segment(Searcher(kind, tt_mb=ANALYSIS_TT_MB), plies(record), segment.plies, nodes)


async def test_analyses_take_turns_between_the_people_who_asked(pool):
    """Ana queues three segments, then Ben one: Ben's goes next, not after all of Ana's."""
    from bot.worker import Segment

    segment = Segment.of(first_moves(1), (1, 0), 20_000)
    finished: list[str] = []

    async def look(owner: str, name: str) -> None:
        await pool.look(owner, segment)
        finished.append(name)

    jobs = [asyncio.ensure_future(look("ana", f"ana{i}")) for i in range(3)]
    await asyncio.sleep(0)  # Ana's first is under way, her others wait
    jobs.append(asyncio.ensure_future(look("ben", "ben")))
    await asyncio.gather(*jobs)
    assert finished == ["ana0", "ben", "ana1", "ana2"]


async def test_a_search_process_killed_during_an_analysis_leaves_moves_and_the_analysis_working():
    """The process searching an analysis dies (kill -9): the pool replaces it and runs the segment again, and a
    move that must then wait for the analysis still gets its answer (the signal to give way survives)."""
    import os
    import signal

    from bot.pool import SearchPool
    from bot.worker import Job, Segment
    from engine import History, game_type

    kind = game_type("english")
    segment = Segment.of(first_moves(5), range(5, -1, -1), 1_000_000)
    own = SearchPool(workers=1, tt_mb=8)
    await asyncio.to_thread(own.start)
    try:
        analysing = asyncio.ensure_future(own.look("eve", segment))
        await asyncio.sleep(0.5)  # under way in the process
        os.kill(own.pids()[0], signal.SIGKILL)
        for _ in range(200):  # replaced, and the segment running again in the new process
            await asyncio.sleep(0.05)
            if own.ready and own.restarts and own._low_running:
                break
        await asyncio.sleep(0.3)
        job = Job("english", kind.write_position(kind.start()), History(), 6, 0.05)
        started = time.monotonic()
        answer = await asyncio.wait_for(own.think("c1", job), 20)
        assert answer.move and time.monotonic() - started < 0.05 + 0.5  # the new process gave way too
        assert len(await asyncio.wait_for(analysing, 60)) <= 6  # given way, or done
    finally:
        own.close()


def test_a_segment_cut_short_keeps_no_look_of_a_search_it_stopped(monkeypatch):
    """The pool's flag goes up and, as soon as the search is stopped, down again (another process took the move):
    the segment is cut all the same, and what it returns is what an uncut segment gives, up to where it stopped."""
    import multiprocessing
    import threading

    from bot import worker
    from bot.worker import Segment
    from engine.search import Searcher

    segment = Segment.of(first_moves(5), range(5, -1, -1), 600_000)
    monkeypatch.setattr(worker, "_give_way", None)
    whole = worker.look(segment)
    flag = multiprocessing.get_context("spawn").RawValue("b", 0)
    monkeypatch.setattr(worker, "_give_way", flag)
    stop = Searcher.stop

    def stopped_and_lowered(searcher) -> None:  # the move found a process at once: the flag is down again
        stop(searcher)
        flag.value = 0

    monkeypatch.setattr(Searcher, "stop", stopped_and_lowered)
    found: list = []
    thread = threading.Thread(target=lambda: found.extend(worker.look(segment)))
    thread.start()
    time.sleep(0.25)  # in the first position or the second
    flag.value = 1
    thread.join()
    assert len(found) < len(whole) and found == whole[:len(found)]


async def test_a_server_cannot_fill_the_queue_and_asking_twice_is_answered_once(pool, monkeypatch):
    from bot.core import analyses

    monkeypatch.setattr(analyses, "MAX_PER_SERVER", 1)
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    first = await finished_game(chat)
    second = await finished_game(chat, moves=1)
    await chat.say(ANA, f"analyse {first}")
    again = await chat.say(ANA, f"analyse {first}")
    assert again[0].private and "You asked already" in again[0].text
    refused = await chat.say(BEN, f"analyse {second}")
    assert refused[0].private and "this server's games" in refused[0].text
    await chat.core.settle()
    assert len([r for r in chat.replies if r.analysis is not None]) == 1
    await chat.core.close()


async def test_a_stopped_bot_match_offers_no_analysis(pool):
    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    await chat.say(ANA, "watch english 1 1 delay 1 time 0.05")  # level 1 alone plays a whole game in 50 ms
    for _ in range(200):
        if len(chat.table().game.moves) >= 2:
            break
        await asyncio.sleep(0.05)
    await chat.say(ANA, "stop")
    end = chat.replies[-1]
    assert "stopped" in end.text and end.controls is None and "analyse" not in end.text
    await chat.core.close()


async def test_a_failed_analysis_is_said_in_place_of_its_progress_line(pool, monkeypatch):
    """The search processes die on every try: each asker's progress line (which the channel saw) becomes the
    failure, not a private note (which Discord cannot deliver once an interaction is old)."""
    from bot.pool import PoolFailed

    chat = Chat(SqliteStore(":memory:"), pool, config(analysis_nodes=NODES))
    first = await finished_game(chat)
    second = await finished_game(chat, moves=1)
    release = asyncio.Event()

    async def failing(owner, segment):
        await release.wait()
        raise PoolFailed("the search process died 3 times")

    monkeypatch.setattr(pool, "look", failing)
    await chat.say(ANA, f"analyse {first}")
    queued = await chat.say(BEN, f"analyse {second}")
    assert "after 1 other analysis." in queued[0].text
    release.set()
    await chat.core.settle()
    failed = [r for r in chat.replies if "failed on my side" in r.text]
    assert {r.update for r in failed} == {progress_key(first), progress_key(second)}
    assert not any(r.private for r in failed) and not chat.core.state.analyses
    await chat.core.close()
