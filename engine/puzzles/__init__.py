"""Puzzles: positions where the side to move has one winning continuation, found in the engine's own games and
proved by a deeper search (``mine``, ``prove``), kept in set files (``puzzle``)."""
