"""Draughts: the four variants' rules (compiled in ``kernel``), positions, notation, FEN, PDN, game records and
the evaluation with its weights; ``kind`` is how the rest of the engine sees them (``engine.game.GameType``)."""
