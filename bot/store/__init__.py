"""Games, moves, ratings and puzzles, kept behind one interface (``Store``) with two back ends: SQLite, the embedded
default (``sqlite``), and PostgreSQL for bot processes on several machines (``postgres``, when ``BOT_DATABASE``
is a ``postgresql://`` URL). ``schema`` holds the one list of migrations both follow."""

from urllib.parse import urlsplit

from bot.store.base import (Attempt, Daily, FinishedGame, MoveConflict, PuzzleTry, SaveFailed, ServedPuzzle, Standing,
                            Store,
                            StoredGame, StoreError)
from bot.store.schema import MIGRATIONS, VERSION
from bot.store.sqlite import SqliteStore

__all__ = ["Attempt", "Daily", "FinishedGame", "MIGRATIONS", "MoveConflict", "PuzzleTry", "SaveFailed", "ServedPuzzle",
           "SqliteStore", "Standing", "Store", "StoreError", "StoredGame", "VERSION", "open_store", "is_postgres",
           "where"]


def is_postgres(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def where(database: str) -> str:
    """The database named for people to read: an SQLite file's path, or "PostgreSQL" with its host and database
    name but never its user or password."""
    if not is_postgres(database):
        return database
    try:
        parts = urlsplit(database)
        host = parts.hostname or "a local socket"
        return f"PostgreSQL ({host}{parts.path})"
    except ValueError:
        return "PostgreSQL"


async def open_store(database: str) -> Store:
    """The store ``database`` names: a ``postgresql://`` URL, or an SQLite file (``:memory:`` keeps nothing)."""
    if is_postgres(database):
        from bot.store.postgres import PostgresStore  # asyncpg is loaded only when it is used

        return await PostgresStore.connect(database)
    return SqliteStore(database)
