"""The database's schema, as one list of versions for both back ends: ``MIGRATIONS[n]`` takes a database from
version n to n + 1, written once for SQLite and once for PostgreSQL (they differ in types only). Opening a
database runs the missing ones; ``python -m bot migrate`` runs them alone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    what: str
    sqlite: str
    postgres: str


_GAMES = """
    CREATE TABLE games (
        id {id},
        guild TEXT NOT NULL,
        channel TEXT NOT NULL,
        variant TEXT NOT NULL,
        start_fen TEXT NOT NULL,
        kind TEXT NOT NULL,
        seats TEXT NOT NULL,          -- JSON: {{"white": seat, "black": seat}}
        settings TEXT NOT NULL,       -- JSON: budget, rated, delay, takebacks used, starter
        status TEXT NOT NULL,         -- 'active' or 'finished'
        winner TEXT,                  -- 'white', 'black' or NULL (draw or aborted)
        reason TEXT,
        pdn TEXT,
        created {real} NOT NULL,
        updated {real} NOT NULL
    );
    CREATE INDEX games_status ON games (status, channel);
    CREATE TABLE moves (
        game {ref} NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (game, ply)
    );
"""
_RATINGS = """
    CREATE TABLE ratings (
        guild TEXT NOT NULL,
        variant TEXT NOT NULL,
        "user" TEXT NOT NULL,
        name TEXT NOT NULL,
        rating {real} NOT NULL,
        rd {real} NOT NULL,
        volatility {real} NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (guild, variant, "user")
    );
"""
_VERSION = "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;"
_ANALYSES = """
    CREATE TABLE analyses (
        game {ref} PRIMARY KEY REFERENCES games (id),
        nodes {big} NOT NULL,         -- the effort: nodes searched a position
        analysis TEXT NOT NULL,       -- JSON: engine.analysis.Analysis.to_json()
        created {real} NOT NULL
    );
    -- the latest finished game of a channel (Store.last_finished): finished games only, so the moves of games
    -- being played, which change their 'updated', never touch it
    CREATE INDEX games_finished ON games (guild, channel, updated, id) WHERE status = 'finished';
"""
_PUZZLES = """
    CREATE TABLE served_puzzles (
        id {id},
        guild TEXT NOT NULL,
        channel TEXT NOT NULL,
        variant TEXT NOT NULL,
        puzzle TEXT NOT NULL,         -- a shipped puzzle's id, or 'practice:GAME:PLY'
        kind TEXT NOT NULL,           -- 'puzzle', 'daily' or 'practice'
        position TEXT NOT NULL,       -- FEN
        solution TEXT NOT NULL,       -- full move texts, space-separated
        ply INTEGER NOT NULL,         -- moves of the solution played so far
        movers TEXT NOT NULL DEFAULT '[]',  -- JSON: [user, name] of each person who played a right move so far
        asker TEXT NOT NULL,
        asker_name TEXT NOT NULL,
        status TEXT NOT NULL,         -- 'on', 'solved', 'failed' or 'shown'
        day TEXT,                     -- the daily puzzle's day, 'YYYY-MM-DD'
        started {real} NOT NULL,
        ended {real}
    );
    -- one puzzle on at a time in a channel
    CREATE UNIQUE INDEX served_puzzles_on ON served_puzzles (guild, channel) WHERE status = 'on';
    -- one daily puzzle a day on a server, whoever posts it
    CREATE UNIQUE INDEX served_puzzles_daily ON served_puzzles (guild, day) WHERE kind = 'daily';
    CREATE TABLE puzzle_attempts (
        served {ref} NOT NULL REFERENCES served_puzzles (id),
        "user" TEXT NOT NULL,
        name TEXT NOT NULL,
        solved BOOLEAN NOT NULL,
        place INTEGER NOT NULL,       -- its order among the puzzle's attempts
        PRIMARY KEY (served, "user")
    );
    CREATE INDEX puzzle_attempts_user ON puzzle_attempts ("user");
    CREATE TABLE puzzle_ratings (
        guild TEXT NOT NULL,
        variant TEXT NOT NULL,
        "user" TEXT NOT NULL,
        name TEXT NOT NULL,
        rating {real} NOT NULL,
        rd {real} NOT NULL,
        volatility {real} NOT NULL,
        puzzles INTEGER NOT NULL,
        PRIMARY KEY (guild, variant, "user")
    );
    CREATE TABLE puzzle_strengths (
        variant TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        rating {real} NOT NULL,
        rd {real} NOT NULL,
        volatility {real} NOT NULL,
        attempts INTEGER NOT NULL,
        PRIMARY KEY (variant, puzzle)
    );
    CREATE TABLE dailies (
        guild TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        hour INTEGER NOT NULL,        -- UTC, 0-23
        variant TEXT NOT NULL,
        last_day TEXT                 -- the latest day it was posted, 'YYYY-MM-DD'
    );
"""
_KEYS = """
    CREATE TABLE shared_keys (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL           -- hex; the first process to ask sets it, for every process of the bot
    );
"""
_PAGES = """
    -- each game on as its owner last published it, with its events (bot.events), for a web process that finds a
    -- gap in them; every web process is told of each publication, and its events, by NOTIFY draughts_news
    CREATE TABLE page_news (
        game BIGINT PRIMARY KEY,
        guild TEXT NOT NULL,
        seq BIGINT NOT NULL,          -- counts up with each news of the game, whichever process owns it
        live BOOLEAN NOT NULL,        -- false once the game has ended
        news TEXT NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    -- the chat processes that answer pages' moves (their heartbeats), and the server name their page games have
    CREATE TABLE page_owners (
        process TEXT PRIMARY KEY,
        guild TEXT NOT NULL,
        beat DOUBLE PRECISION NOT NULL
    );
"""
_LANGUAGES = """
    CREATE TABLE guild_languages (
        guild TEXT PRIMARY KEY,
        language TEXT NOT NULL        -- a gettext code the bot speaks (bot.translation.LANGUAGES)
    );
"""
_TERMINATIONS = """
    ALTER TABLE games ADD COLUMN termination TEXT;  -- engine.Termination's value; NULL while a game is on
    UPDATE games SET termination = CASE
        WHEN reason LIKE '% resigned' THEN 'resigned'
        WHEN reason LIKE '% abandoned the game' THEN 'abandoned'
        WHEN reason LIKE '% never made a first move' THEN 'never_moved'
        WHEN reason = 'agreed' THEN 'agreed'
        WHEN reason = 'stopped' THEN 'stopped'
        WHEN reason LIKE '% each played' THEN 'move_limit'
        WHEN reason LIKE '% has no legal move' THEN 'no_moves'
        WHEN reason LIKE 'the same position came up %' THEN 'repetition'
        WHEN reason LIKE '% with only kings moving and nothing taken' THEN 'quiet_moves'
        WHEN reason LIKE '% in this ending against a lone king' THEN 'lone_king'
        WHEN reason = 'the king is captured' THEN 'king_captured'
        WHEN reason LIKE 'the king escaped to %' THEN 'king_escaped'
    END
    WHERE status = 'finished';
"""
"""A finished game's end as data: its termination, read once from the English reason the versions before wrote
(the bot's own, then the rules'; a name is never read, only the words after it). A reason it does not know stays
NULL, and that game's page shows the reason as it was written."""
_CLOCKS = """
    -- JSON: bot.clocks.Clocks just after the move, in a timed game
    ALTER TABLE moves ADD COLUMN clocks TEXT;
"""
_SPEEDS = """
    CREATE TABLE ratings_per_speed (
        guild TEXT NOT NULL,
        variant TEXT NOT NULL,
        speed TEXT NOT NULL,          -- bot.clocks.Speed's value
        "user" TEXT NOT NULL,
        name TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (guild, variant, speed, "user")
    );
    INSERT INTO ratings_per_speed (guild, variant, speed, "user", name, rating, rd, volatility, games)
        SELECT guild, variant, 'correspondence', "user", name, rating, rd, volatility, games FROM ratings;
    DROP TABLE ratings;
    ALTER TABLE ratings_per_speed RENAME TO ratings;
"""
_TOURNAMENTS = """
    CREATE TABLE tournaments (
        id {id},
        guild TEXT NOT NULL,
        channel TEXT NOT NULL,        -- where it is announced; its games are played in rooms under it
        format TEXT NOT NULL,         -- bot.tournament.event.Format's value: 'arena', 'swiss', 'round_robin'
        variant TEXT NOT NULL,
        settings TEXT NOT NULL,       -- JSON: control, rated, rounds (Swiss), minutes (arena), creator, name
        starts {real} NOT NULL,       -- when it starts (Unix seconds)
        status TEXT NOT NULL,         -- 'scheduled', 'running', 'finished' or 'cancelled'
        round INTEGER NOT NULL,       -- the round being played (0 before the first); an arena's waves
        created {real} NOT NULL,
        version INTEGER NOT NULL      -- a counter of its writes, for compare-and-set
    );
    CREATE INDEX tournaments_live ON tournaments (status, starts);
    CREATE TABLE tournament_players (
        tournament {ref} NOT NULL REFERENCES tournaments (id),
        "user" TEXT NOT NULL,         -- a person's id, or 'bot:LEVEL'
        name TEXT NOT NULL,
        joined {real} NOT NULL,
        standing TEXT NOT NULL,       -- 'in', 'paused' or 'out' (withdrawn)
        rating {real} NOT NULL,       -- at the tournament's speed when they joined: the seeding
        back INTEGER NOT NULL,        -- the round (an arena: the wave) when they last joined or came back
        PRIMARY KEY (tournament, "user")
    );
    CREATE INDEX tournament_players_user ON tournament_players ("user");
    CREATE TABLE tournament_pairings (
        tournament {ref} NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        white TEXT NOT NULL,
        black TEXT,                   -- NULL: a bye
        room TEXT NOT NULL,           -- the channel its game is played in
        game {ref} REFERENCES games (id),  -- its game, once started (set once: the result is read from it)
        PRIMARY KEY (tournament, round, board)
    );
"""
_PUZZLE_HISTORY = """
    -- the person's puzzle rating just after a rated attempt (NULL: not rated), for their history
    ALTER TABLE puzzle_attempts ADD COLUMN rating {real};
    CREATE INDEX puzzle_attempts_history ON puzzle_attempts ("user", served);
    -- a person's puzzle tried alone on the web page (bot.core.training.PAGE_CHANNEL) is kept once: their first try
    CREATE UNIQUE INDEX served_puzzles_page ON served_puzzles (guild, asker, variant, puzzle)
        WHERE channel = 'web-puzzles';
"""
_SQLITE = {"id": "INTEGER PRIMARY KEY", "real": "REAL", "ref": "INTEGER", "big": "INTEGER"}
_POSTGRES = {"id": "BIGSERIAL PRIMARY KEY", "real": "DOUBLE PRECISION", "ref": "BIGINT", "big": "BIGINT"}

MIGRATIONS = (
    Migration("games and their moves", _GAMES.format(**_SQLITE), _GAMES.format(**_POSTGRES)),
    Migration("ratings per server and variant", _RATINGS.format(**_SQLITE), _RATINGS.format(**_POSTGRES)),
    Migration("the chat service's id of each game's latest board message (the one that carries the controls)",
              "ALTER TABLE games ADD COLUMN board_message TEXT;", "ALTER TABLE games ADD COLUMN board_message TEXT;"),
    Migration("a counter of each game's writes, for compare-and-set: a write names the version it read",
              _VERSION, _VERSION),
    Migration("each game's analysis at one effort, so asking again, or after a restart, answers at once; an index"
              " of each channel's finished games", _ANALYSES.format(**_SQLITE), _ANALYSES.format(**_POSTGRES)),
    Migration("puzzles: those served in each channel (one on at a time) and who tried them, people's puzzle ratings"
              " per server and variant, each puzzle's own rating, and each server's daily puzzle",
              _PUZZLES.format(**_SQLITE), _PUZZLES.format(**_POSTGRES)),
    Migration("keys every process of the bot shares (the seat links' key), made once by the first to ask",
              _KEYS, _KEYS),
    Migration("the web tier: each game's latest news for its pages, and the processes that answer the pages' moves"
              " (PostgreSQL only: with SQLite one process serves the page itself)", "", _PAGES),
    Migration("the language each server's administrators chose for the bot", _LANGUAGES, _LANGUAGES),
    Migration("how each finished game ended, as data: its termination beside its winner", _TERMINATIONS,
              _TERMINATIONS),
    Migration("each move of a timed game with both clocks just after it", _CLOCKS, _CLOCKS),
    Migration("ratings per speed (bullet, blitz, rapid, classical, correspondence): every rating from before, all of"
              " untimed games, becomes its holder's correspondence rating", _SPEEDS, _SPEEDS),
    Migration("tournaments (arenas, Swiss events, round robins): their settings, players and pairings, each"
              " pairing with its game", _TOURNAMENTS.format(**_SQLITE),
              _TOURNAMENTS.format(**_POSTGRES)),
    Migration("each rated puzzle attempt with the person's puzzle rating after it, for their history; a person's"
              " puzzle tried alone on the web page kept once",
              _PUZZLE_HISTORY.format(**_SQLITE), _PUZZLE_HISTORY.format(**_POSTGRES)),
)
VERSION = len(MIGRATIONS)
