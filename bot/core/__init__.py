"""The bot's core: games keyed by channel, the commands, the bot's moves, clocks and ratings.

No chat service here: a front end turns what people type into ``Message``s,
awaits ``Core.handle`` and shows the ``Reply``s the core sends to its
``send`` callback. Replies about a game go out under the game's lock, so they
arrive in the order the moves were played; each carries the controls it may
have. What happens to a game is also told as typed events (``bot.events``) to
those that follow the games (``Core.follow``: the web pages, the web tier),
which never read replies back. Searches run in the ``SearchPool``.

A move is stored before it is played and announced; if the database
refuses it or does not answer (PostgreSQL calls give up after a few
seconds), nothing changes and the player is told. A bot move the database
cannot take is kept and written again after growing pauses, without a new
search. ``Core.finished`` reads the database: it raises ``SaveFailed`` when
it cannot.

The duties, each a module of functions of the part of the shared ``State``
that it declares it uses (its ``Needs``, a ``Protocol``; the type check holds
it to that): ``lobby``
(tables opened and closed), ``play`` (the moves and commands of a game),
``bot_moves`` (the bot's moves and the search pool), ``results`` (the end of a
game, ratings, PDN), ``clock`` (reminders, abandonment, expiry) and ``restore``
(start-up); ``core`` has the entry point and the questions front ends ask.
"""

from bot.core.analyses import Progress, still_on
from bot.core.core import LOOK_BUSY, Core
from bot.core.practice import PRACTISED
from bot.core.puzzles import DRAUGHTS as PUZZLE_GAMES, Step
from bot.core.results import refusal
from bot.core.state import Follower, Refusal, Send
from bot.store import SaveFailed

# What front ends may use: they import this package, never its modules (tests/test_layout.py).
__all__ = ["Core", "Follower", "LOOK_BUSY", "PRACTISED", "PUZZLE_GAMES", "Progress", "Refusal", "SaveFailed", "Send",
           "Step", "refusal", "still_on"]
