"""Small helpers shared by the tests."""

import random

from engine import Position, format_move, legal_moves, make, parse_fen, start_position, variant


def moves(variant_name: str, fen: str) -> set[str]:
    """The legal moves of a position, each written with its full path."""
    pos = parse_fen(variant(variant_name), fen)
    return {format_move(pos, m, full=True) for m in legal_moves(pos)}


def random_positions(names: list[str], count: int, seed: int, plies: tuple[int, int] = (0, 60)) -> list[Position]:
    """``count`` positions reached by random moves from the start, cycling through the variants named.

    Each has at least one legal move (games that ended early are skipped).
    """
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = start_position(variant(names[len(out) % len(names)]))
        for _ in range(rng.randint(*plies)):
            moves = legal_moves(pos)
            if not moves:
                break
            pos = make(pos, rng.choice(moves))
        if legal_moves(pos):
            out.append(pos)
    return out


async def seed_ratings(store, guild: str, variant: str, rows: list, speed: str = "correspondence") -> None:
    """Ratings at ``speed`` written straight into a test's database, (user, name, rating) each, one more game each
    (the bot itself changes ratings only as a rated game ends, inside that game's transaction)."""
    from bot.store import SqliteStore

    upsert = ('INSERT INTO ratings (guild, variant, speed, "user", name, rating, rd, volatility, games)'
              ' VALUES ({}, 1) ON CONFLICT (guild, variant, speed, "user") DO UPDATE SET name = excluded.name,'
              " rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,"
              " games = ratings.games + 1")
    values = [(guild, variant, speed, user, name, r.rating, r.rd, r.volatility) for user, name, r in rows]
    if isinstance(store, SqliteStore):
        store.db.executemany(upsert.format(", ".join("?" * 8)), values)
    else:
        async with store.pool.acquire() as db:
            await db.executemany(upsert.format(", ".join(f"${i}" for i in range(1, 9))), values)
