"""The store's two back ends, SQLite and a real PostgreSQL server, held to the same behaviour: games, moves,
ratings, analyses, migrations, and exactly one winner when two processes write the same game's move at once."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg
import pytest
import pytest_asyncio

from bot.ending import Ending
from bot.ratings import Change, RatedGame, Rating, Side, update
from bot.store import MIGRATIONS, VERSION, MoveConflict, SaveFailed, SqliteStore, StoreError, is_postgres
from bot.store.postgres import PostgresStore
from engine import Color, Termination
from helpers import seed_ratings
from postgres import fresh_database

AGREED = Ending(None, Termination.AGREED)

BACKENDS = ["sqlite", "postgresql"]
SEATS = {"white": {"level": 3}, "black": {"user": ["1", "ana"]}}
SETTINGS = {"budget": 1.0, "rated": True}
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


@pytest_asyncio.fixture(loop_scope="session", params=BACKENDS)
async def database(request, tmp_path):
    """A new, empty database of each back end: an SQLite file's path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "bot.sqlite3")
    return await fresh_database(request.getfixturevalue("postgres_server"))


@pytest_asyncio.fixture(loop_scope="session")
async def opener(database):
    """Opens the same database again each time it is called, as another bot process would."""
    opened = []
    if not is_postgres(database):
        async def open_one():
            opened.append(SqliteStore(database))
            return opened[-1]
    else:
        async def open_one():
            opened.append(await PostgresStore.connect(database))
            return opened[-1]
    yield open_one
    for store in opened:
        await store.close()


async def test_a_game_is_kept_move_by_move_and_finished_with_its_ratings(opener):
    store = await opener()
    assert await store.version() == VERSION
    game = await store.create_game("g", "c1", "english", START, "bot", SEATS, SETTINGS)
    version = await store.add_move(game, 0, 0, "11-15")
    version = await store.add_move(game, version, 1, "23-19")
    [stored] = await store.active_games()
    assert (stored.id, stored.channel, stored.moves, stored.seats, stored.settings, stored.version) == (
        game, "c1", ["11-15", "23-19"], SEATS, SETTINGS, 2)
    version = await store.remove_moves(game, version, 1, {**SETTINGS, "takebacks_used": 1})
    stored = await store.game(game)
    assert (stored.moves, stored.settings["takebacks_used"], stored.version) == (["11-15"], 1, 3)
    await store.set_board_message(game, "m42")
    assert await store.board_message(game) == "m42"
    await seed_ratings(store, "g", "english", [("1", "ana", Rating(1620, 90, 0.06))])
    level = Rating(1400, 50)
    changes = await store.finish_game(game, version, Ending(Color.BLACK, Termination.NO_MOVES),
                                      "White has no legal move", "[Result \"0-2\"] ...",
                                      RatedGame((Side("1", "ana"), Side(fixed=level)), 0.0))
    assert await store.active_games() == []
    finished = await store.finished_game(game)
    assert (finished.ending, finished.reason, finished.game.moves) == (Ending(Color.BLACK, Termination.NO_MOVES),
                                                                       "White has no legal move", ["11-15"])
    lost = update(Rating(1620, 90, 0.06), [(level, 0.0)])  # worked out from the rating the database held
    assert changes == [Change("1", "ana", Rating(1620, 90, 0.06), lost)]
    assert await store.rating("g", "english", "1") == (lost, 2)
    await seed_ratings(store, "g", "english", [("1", "ana", Rating(1640, 80, 0.06)), ("2", "ben", Rating())])
    board = await store.leaderboard("g", "english")
    assert [(s.user, s.games) for s in board] == [("1", 3), ("2", 1)]
    assert await store.finished_game(999) is None and await store.game(999) is None


async def test_a_write_names_the_version_it_read_and_an_older_one_is_refused(opener):
    store = await opener()
    game = await store.create_game("g", "c1", "english", START, "bot", SEATS, SETTINGS)
    version = await store.add_move(game, 0, 0, "11-15")
    with pytest.raises(MoveConflict):
        await store.add_move(game, 0, 1, "23-19")  # written since version 0
    # a takeback and a new move bring the count of moves back; the version still tells them apart
    stale = version
    version = await store.remove_moves(game, version, 0, SETTINGS)
    version = await store.add_move(game, version, 0, "9-13")
    for write in (store.add_move(game, stale, 1, "23-19"), store.remove_moves(game, stale, 0, SETTINGS),
                  store.finish_game(game, stale, AGREED, "agreed", "")):
        with pytest.raises(MoveConflict):
            await write
    await store.finish_game(game, version, AGREED, "agreed", "")
    with pytest.raises(MoveConflict):  # a finished game takes no more moves, and ends once
        await store.add_move(game, version + 1, 1, "23-19")
    with pytest.raises(MoveConflict):
        await store.finish_game(game, version + 1, Ending(Color.WHITE, Termination.RESIGNED), "again", "")
    assert (await store.game(game)).moves == ["9-13"]


async def test_two_processes_writing_one_game_at_once_exactly_one_wins_each_time(opener):
    first, second = await opener(), await opener()
    game = await first.create_game("g", "c1", "english", START, "bot", SEATS, SETTINGS)
    version = 0
    for ply in range(20):
        if ply % 5 == 4:  # a takeback racing a move
            writes = (first.remove_moves(game, version, ply - 1, SETTINGS), second.add_move(game, version, ply, "x"))
        else:
            writes = (first.add_move(game, version, ply, f"a{ply}"), second.add_move(game, version, ply, f"b{ply}"))
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert sum(isinstance(r, MoveConflict) for r in results) == 1, results
        version = next(r for r in results if isinstance(r, int))
    stored = await first.game(game)
    assert stored.version == 20 and stored == await second.game(game)
    racing_ends = await asyncio.gather(first.finish_game(game, version, Ending(Color.WHITE, Termination.RESIGNED), "a", ""),
                                       second.finish_game(game, version, Ending(Color.BLACK, Termination.RESIGNED), "b", ""),
                                       return_exceptions=True)
    assert sum(isinstance(r, MoveConflict) for r in racing_ends) == 1  # a game ends once


async def test_reopening_migrates_nothing_and_a_newer_schema_is_refused(opener, request):
    store = await opener()
    game = await store.create_game("g", "c1", "english", START, "bot", SEATS, SETTINGS)
    again = await opener()
    assert await again.version() == VERSION and [g.id for g in await again.active_games()] == [game]
    if isinstance(store, SqliteStore):
        store.db.execute(f"PRAGMA user_version = {VERSION + 1}")
    else:
        async with store.pool.acquire() as db:
            await db.execute("UPDATE schema_version SET version = $1", VERSION + 1)
    with pytest.raises(StoreError, match="newer than this bot"):
        await opener()


async def test_an_unreachable_postgresql_is_a_clear_error():
    with pytest.raises(StoreError, match="cannot reach the PostgreSQL database"):
        await PostgresStore.connect("postgresql://nobody@127.0.0.1:1/none")


async def finished(store, channel: str, moves: list[str], result: str = "1-0", guild: str = "g") -> int:
    """A game played in ``channel`` and ended with ``result`` in its PDN, as the core writes it ("*": a bot match
    stopped, which has no result); its id."""
    game = await store.create_game(guild, channel, "english", START, "bot", SEATS, SETTINGS)
    version = 0
    for ply, move in enumerate(moves):
        version = await store.add_move(game, version, ply, move)
    pdn = f'[GameType "21"]\n[Event "Draughts bot game {game}"]\n[Result "{result}"]\n\n{" ".join(moves)} {result}\n'
    ending = Ending(None, Termination.STOPPED) if result == "*" else Ending(Color.WHITE, Termination.RESIGNED)
    await store.finish_game(game, version, ending, "reason", pdn)
    return game


ANALYSIS = {"game": "english", "nodes": 20000, "scores": [0, 12, -3.5],
            "moves": [{"ply": 0, "mover": 0, "line": ["11-15", "23-19"]}], "players": {"0": {"accuracy": 91.5}}}


async def test_an_analysis_is_kept_at_its_effort_and_read_back_after_a_restart(opener):
    store = await opener()
    game = await finished(store, "c1", ["11-15", "23-19"])
    assert await store.analysis(game, 20000) is None
    await store.save_analysis(game, 20000, ANALYSIS)
    assert await store.analysis(game, 20000) == ANALYSIS
    assert await store.analysis(game, 40000) is None  # made at another effort: not an answer
    assert await store.analysis(game + 1, 20000) is None
    await store.close()
    again = await opener()  # a restart, or another process
    assert await again.analysis(game, 20000) == ANALYSIS
    # saving it again, or at another effort, replaces it: one analysis a game
    await again.save_analysis(game, 20000, ANALYSIS)
    deeper = {**ANALYSIS, "nodes": 80000, "scores": [0, 20, -40]}
    await again.save_analysis(game, 80000, deeper)
    assert (await again.analysis(game, 80000), await again.analysis(game, 20000)) == (deeper, None)
    with pytest.raises(SaveFailed):  # no such game
        await again.save_analysis(999, 20000, ANALYSIS)


async def test_two_processes_saving_one_analysis_at_once_both_succeed(opener):
    first, second = await opener(), await opener()
    game = await finished(first, "c1", ["11-15"])
    for _ in range(5):
        await asyncio.gather(first.save_analysis(game, 20000, ANALYSIS), second.save_analysis(game, 20000, ANALYSIS))
    assert await first.analysis(game, 20000) == ANALYSIS == await second.analysis(game, 20000)


async def test_the_last_finished_game_is_the_channels_latest_played_out_one(opener):
    store = await opener()
    assert await store.last_finished("g", "c1") is None
    older = await finished(store, "c1", ["11-15", "23-19"], "1-0")
    assert await store.last_finished("g", "c1") == older
    latest = await finished(store, "c1", ["9-13"], "1-1")  # a draw counts
    await finished(store, "c1", [], "0-2")  # no move: nothing to look at
    await finished(store, "c1", ["11-15"], "*")  # aborted (or a bot match stopped): no result
    await finished(store, "c2", ["11-15"], "0-2")  # another channel
    await finished(store, "h", ["11-15"], "0-2", guild="other")  # another server's channel of the same name
    await finished(store, "h", ["11-15"], "0-2", guild="other")
    playing = await store.create_game("g", "c1", "english", START, "bot", SEATS, SETTINGS)
    await store.add_move(playing, 0, 0, "11-15")  # still being played
    assert await store.last_finished("g", "c1") == latest
    assert await store.last_finished("g", "h") is None
    assert await store.last_finished("g", "c3") is None


RATING = ('INSERT INTO ratings (guild, variant, "user", name, rating, rd, volatility, games)'
          " VALUES ('g', 'english', '1', 'ana', 1700, 80, 0.06, 12)")  # (as the version before ratings per speed)


async def test_a_database_of_an_earlier_version_migrates_forward_and_keeps_its_games(database, opener):
    """Built by the migrations before ratings per speed, with a finished game and a rating in it, then opened by
    this version: every later migration runs over them."""
    previous = next(k for k, m in enumerate(MIGRATIONS) if m.what.startswith("ratings per speed"))
    game = "INSERT INTO games (guild, channel, variant, start_fen, kind, seats, settings, status, pdn, created," \
           " updated) VALUES ('g', 'c1', 'english', 'B:W21-32:B1-12', 'bot', '{}', '{}', 'finished'," \
           " '[Result \"1-0\"]', 0, 1)"
    if not is_postgres(database):
        db = sqlite3.connect(database)
        for migration in MIGRATIONS[:previous]:
            db.executescript(migration.sqlite)
        db.execute(f"PRAGMA user_version = {previous}")
        db.execute(game)
        db.execute("INSERT INTO moves (game, ply, move, at) VALUES (1, 0, '11-15', 0)")
        db.execute(RATING)
        db.commit()
        db.close()
    else:
        db = await asyncpg.connect(database)
        try:
            await db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            for migration in MIGRATIONS[:previous]:
                await db.execute(migration.postgres)
            await db.execute("INSERT INTO schema_version VALUES ($1)", previous)
            await db.execute(game)
            await db.execute("INSERT INTO moves (game, ply, move, at) VALUES (1, 0, '11-15', 0)")
            await db.execute(RATING)
        finally:
            await db.close()
    store = await opener()
    assert await store.version() == VERSION
    assert await store.last_finished("g", "c1") == 1
    assert (await store.finished_game(1)).game.moves == ["11-15"]
    # ratings from before ratings per speed are their holders' correspondence ratings; the other speeds start anew
    assert await store.rating("g", "english", "1", "correspondence") == (Rating(1700, 80, 0.06), 12)
    assert await store.rating("g", "english", "1", "blitz") == (Rating(), 0)
    await store.save_analysis(1, 20000, ANALYSIS)
    assert await store.analysis(1, 20000) == ANALYSIS


async def test_a_servers_chosen_language_is_kept_and_can_be_dropped(opener):
    store = await opener()
    await store.set_language("g1", "ru")
    await store.set_language("g2", "fr")
    await store.set_language("g1", "nl")  # chosen again
    again = await opener()
    assert await again.languages() == {"g1": "nl", "g2": "fr"}
    await again.set_language("g2", None)
    assert await store.languages() == {"g1": "nl"}


ENDED_IN_WORDS = [  # how the versions before wrote a finished game's end: its winner and its English reason
    ("black", "ana resigned", Termination.RESIGNED),
    ("white", "agreed resigned", Termination.RESIGNED),  # a name is never read, only the words after it
    ("white", "ben abandoned the game", Termination.ABANDONED),
    (None, "ana never made a first move", Termination.NEVER_MOVED),  # an abort: no winner ...
    (None, "agreed", Termination.AGREED),  # ... as a draw has none: today they differ only by their PDN
    (None, "stopped", Termination.STOPPED),
    (None, "100 moves each played", Termination.MOVE_LIMIT),
    ("black", "White has no legal move", Termination.NO_MOVES),
    (None, "the same position came up three times", Termination.REPETITION),
    (None, "the same position came up again", Termination.REPETITION),
    (None, "25 moves each with only kings moving and nothing taken", Termination.QUIET_MOVES),
    (None, "16 moves each in this ending against a lone king", Termination.LONE_KING),
    ("black", "the king is captured", Termination.KING_CAPTURED),
    ("white", "the king escaped to a4", Termination.KING_ESCAPED),
    (None, "an end an older version named otherwise", None),
]


async def test_the_migration_keeps_every_finished_games_end_as_data(database, monkeypatch):
    """A database of the version before, with one finished game of each termination (as the chat wrote them, in
    English), is opened by this version: each game's end is read once into its termination and winner."""
    import bot.store.postgres
    import bot.store.sqlite

    before = next(i for i, m in enumerate(MIGRATIONS) if "termination" in m.what)  # (the version before it)
    for module in (bot.store.sqlite, bot.store.postgres):
        monkeypatch.setattr(module, "VERSION", before)
    old = SqliteStore(database) if not is_postgres(database) else await PostgresStore.connect(database)
    games = []
    for winner, reason, _ in ENDED_IN_WORDS:
        game = await old.create_game("g", "c1", "english", START, "people", SEATS, SETTINGS)
        move = "INSERT INTO moves (game, ply, move, at) VALUES ({0}, 0, '11-15', 0)"  # (as that version wrote it)
        if isinstance(old, SqliteStore):
            old.db.execute(move.format("?"), (game,))
        else:
            async with old.pool.acquire() as db:
                await db.execute(move.format("$1"), game)
        result = "*" if reason in ("stopped", "ana never made a first move") else "1-1" if winner is None else "2-0"
        row = ("finished", winner, reason, f'[Result "{result}"]\n\n11-15 {result}', game)
        if isinstance(old, SqliteStore):
            old.db.execute("UPDATE games SET status = ?, winner = ?, reason = ?, pdn = ? WHERE id = ?", row)
        else:
            async with old.pool.acquire() as db:
                await db.execute("UPDATE games SET status = $1, winner = $2, reason = $3, pdn = $4 WHERE id = $5", *row)
        games.append(game)
    await old.close()
    monkeypatch.undo()

    store = SqliteStore(database) if not is_postgres(database) else await PostgresStore.connect(database)
    try:
        for game, (winner, reason, termination) in zip(games, ENDED_IN_WORDS):
            finished = await store.finished_game(game)
            expected = None if termination is None else Ending(None if winner is None else Color[winner.upper()],
                                                                termination)
            assert finished is not None and finished.ending == expected and finished.reason == reason, reason
        # the channel's last finished game with a result: not the stopped match, nor the abort
        assert await store.last_finished("g", "c1") == games[-1]
    finally:
        await store.close()


async def test_a_players_games_are_those_they_played_to_a_result_on_the_server_latest_first(opener):
    store = await opener()
    assert await store.player_games("g", "1") == []
    first = await finished(store, "c1", ["11-15"])  # ana ("1") plays Black in every game of ``finished``
    await finished(store, "c2", ["11-15"], "*")  # stopped: no result
    second = await finished(store, "c3", ["9-13"], "1-1")
    await finished(store, "c1", ["11-15"], guild="other")  # another server
    other = await store.create_game("g", "c4", "english", START, "people",
                                    {"white": {"user": ["2", "ben"]}, "black": {"user": ["3", "eve"]}}, SETTINGS)
    await store.finish_game(other, 0, Ending(Color.WHITE, Termination.RESIGNED), "reason", "")
    assert await store.player_games("g", "1") == [second, first]
    assert await store.player_games("g", "1", limit=1) == [second]
    assert await store.player_games("g", "2") == [other] and await store.player_games("g", "9") == []
