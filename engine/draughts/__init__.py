"""Draughts: the four variants' rules (compiled in ``kernel``), positions, notation, FEN, PDN, game records and
the evaluation with its weights; ``game`` is how the rest of the program sees them (``engine.game.GameType``)."""
