"""Tablut under the Ashton rules: the rules (compiled in ``kernel``), positions and notation (``rules``), the game
record, the search's view of the game, a baseline player and the competition client; ``game`` is how the rest
of the program sees it (``engine.game.GameType``)."""
