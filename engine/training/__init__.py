"""Training the draughts evaluation: ``selfplay`` plays the games, ``fit`` fits the weights to them, and
``pipeline`` runs both in resumable rounds for ``python -m engine train``."""
