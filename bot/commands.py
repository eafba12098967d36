"""The chat commands: their words, help texts, and how their options are read.

The same words on every front end. Options come in any order:
``new international level 5 black time 2``, ``challenge @ana russian blitz``, ``challenge @ana 2 days``,
``watch brazilian 3 6 delay 1``, ``new english 5+3``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.clocks import TimeControl, read_control, read_days
from bot.tables import ColourChoice
from bot.translation import Text, join, tr
from bot.user_text import quoted
from engine.games import GAMES


class CommandError(ValueError):
    """A command the bot cannot read; the message says what it expected."""


_GAME_WORDS = ", ".join(f"{g.name} ({g.aliases[0]})" if g.aliases else g.name for g in GAMES.values())

# name -> (usage, what it does)
HELP: dict[str, tuple[str, Text]] = {
    "new": ("new [variant] [level 1-6] [white|black|random] [3+2|blitz|2 days|untimed] [time SECONDS] [rated|casual] "
            "[@user]",
               tr("Start a game against me here (or challenge @user). Variants: {variants}. Defaults: english, "
                  "level 3, you move first, casual.", variants=_GAME_WORDS)),
    "challenge": ("challenge [@user] [variant] [white|black|random] [3+2|blitz|2 days|untimed] [rated|casual]",
               tr("Challenge someone (or anyone, without @user) to a game here; rated by default. The challenge "
                  "expires after 5 minutes.")),
    "accept": ("accept",
               tr("Accept a challenge, a draw offer or a takeback request.")),
    "decline": ("decline",
               tr("Decline a challenge, a draw offer or a takeback request (or withdraw your own).")),
    "move": ("11-15, 11x18x25, c3-d4, e3-e6",
               tr("Type a move on its own to play it (e3-e6 in Tablut).")),
    "resign": ("resign",
               tr("Give up the game.")),
    "draw": ("draw",
               tr("Offer a draw, or accept the one offered to you.")),
    "takeback": ("takeback",
               tr("Ask to take your last move back (against me: a few per game).")),
    "hint": ("hint",
               tr("A quick suggestion from the engine (not in rated games).")),
    "moves": ("moves",
               tr("The legal moves.")),
    "board": ("board",
               tr("Show the board.")),
    "pdn": ("pdn",
               tr("The game so far in PDN, to save or study.")),
    "analyse": ("analyse [game number]",
               tr("Every move of this channel's last finished game (or the one numbered) judged by the engine: "
                  "inaccuracies, mistakes and blunders, each side's accuracy, the costliest moves with the better "
                  "line, and a graph. Also `analyze`. Only finished games: never one still being played.")),
    "puzzle": ("puzzle [variant]",
               tr("A puzzle here, near your puzzle rating: the side to move has one way to win. Anyone may answer "
                  "with moves; I play the other side's replies. A wrong move ends it with the answer. A channel "
                  "with a game on keeps its moves for the game: ask when it is over, or elsewhere; a game started "
                  "here ends the puzzle.")),
    "solution": ("solution",
               tr("End the puzzle here and show its answer (nobody's puzzle rating changes).")),
    "practice": ("practice",
               tr("A position from your own analysed games (`analyse`) where you made a mistake or a blunder: find "
                  "the better move. The engine's move counts, and so does any move within an inaccuracy of it. Not "
                  "rated.")),
    "daily": ("daily [here [hour 0-23] [variant] | off]",
               tr("Where and when this server's daily puzzle is posted, and who solved today's. The server's "
                  "administrators (Manage Server) choose it: `daily here hour 18 international` posts one here "
                  "every day at 18:00 UTC; `daily off` stops it. The same puzzle everywhere that day.")),
    "games": ("games [@user]",
               tr("The games being played on this server; with @user, their last finished games here.")),
    "rating": ("rating [@user] [bullet|blitz|rapid|classical|correspondence]",
               tr("Ratings on this server, one per variant and speed, and puzzle ratings.")),
    "leaderboard": ("leaderboard [puzzles] [variant] [bullet|blitz|rapid|classical|correspondence]",
               tr("The best rated players on this server at a speed (default: correspondence, where untimed "
                  "games count; with `puzzles`: the best puzzle solvers).")),
    "rematch": ("rematch [game]",
               tr("Play the last game that ended here again (or game NUMBER), colours swapped, with the same clock: "
                  "against me at once, or as a challenge to your opponent.")),
    "watch": ("watch [variant] [level] [level] [1+1|bullet|...] [delay SECONDS] [time SECONDS]",
               tr("Start a match between two bots here, to watch move by move.")),
    "stop": ("stop",
               tr("End the bot match you started here.")),
    "language": ("language [en|nl|fr|ru|pt_BR|default]",
                 tr("The language I speak to this server's channels (its administrators choose it; `language default` "
                    "follows the server's Discord setting). What I say to one person follows their own Discord "
                    "language.")),
    "tournament": ("tournament [arena|swiss|roundrobin [variant] [3+2|blitz|...] [5 rounds|60 minutes] "
                   "[at 18:00|in 10 minutes] [rated|casual] | join | pause | withdraw | bot LEVEL | start | cancel]",
                   tr("Tournaments in this channel. Administrators make one (`tournament swiss english 3+2 5 rounds "
                      "at 18:00`, times in UTC), add the bot (`tournament bot 4`), start it early or cancel it. "
                      "Anyone joins, pauses or withdraws. Games are played by typing moves here; alone, "
                      "`tournament` shows the standings. An arena pairs players as soon as they are free: a win is 2 "
                      "points, a draw 1, doubled after two wins in a row.")),
    "berserk": ("berserk",
                tr("In an arena's game, before your first move: half your clock and no increment, for one more "
                   "point if you win (in 14 plies or more).")),
    "help": ("help [command]",
               tr("This list, or more about one command.")),
}

ALIASES = {word: game.name for game in GAMES.values() for word in (game.name, *game.aliases)}
"""Every word that names a game, and the game it names."""
COLOURS = {choice.value: choice for choice in ColourChoice}
_NUMBER = re.compile(r"^([0-9]+(?:\.[0-9]+)?)s?$")
_MENTION = re.compile(r"^(<@!?[0-9]+>|@\S+)$")
_WHOLE = re.compile(r"[0-9]{1,12}")


def whole_number(word: str) -> int | None:
    """``word`` read as a whole number, or None. Numbers are read one way in every command: ASCII digits only (``٣``,
    ``３`` and ``𝟏`` are digits to Python but not numbers here), at most twelve of them."""
    return int(word) if _WHOLE.fullmatch(word) else None


@dataclass
class Options:
    """What a ``new``, ``challenge`` or ``watch`` command asked for; None where it said nothing."""

    variant: str | None = None
    levels: list[int] = field(default_factory=list)
    colour: ColourChoice | None = None
    time: float | None = None
    control: TimeControl | None = None
    delay: float | None = None
    rated: bool | None = None
    mentioned: bool = False


def split(text: str) -> tuple[str, list[str]]:
    """The command word (lower case, a leading / or ! dropped) and the rest of the words."""
    words = text.split()
    if not words:
        return "", []
    return words[0].lower().lstrip("/!"), words[1:]


def help_text(command: str | None = None) -> str:
    if command:
        name = command.lower().lstrip("/!")
        if name not in HELP:
            raise CommandError(f"there is no command {quoted(name, 20)}; `help` lists them")
        usage, what = HELP[name]
        return join([f"`{usage}`:", what])
    return join([tr("Commands:"), *(join([f"`{usage}`:", what]) for usage, what in HELP.values())], "\n")


def parse_options(command: str, words: list[str]) -> Options:
    """Read the options of ``command``; raises CommandError naming the word it could not place."""
    options = Options()
    i = 0
    while i < len(words):
        word = words[i].lower()
        following = words[i + 1] if i + 1 < len(words) else None
        if word in ALIASES:
            options.variant = ALIASES[word]
        elif word in COLOURS and command != "watch":
            options.colour = COLOURS[word]
        elif word in ("rated", "casual") and command != "watch":
            options.rated = word == "rated"
        elif _MENTION.match(word) and command != "watch":
            options.mentioned = True
        elif following is not None and following.lower() in ("day", "days"):
            options.control = _control(read_days, word, following)
            i += 1
        elif (control := _control(read_control, word)) is not None:
            options.control = control
        elif word in ("level", "time", "delay") and following is not None:
            _number_option(options, word, following)
            i += 1
        elif re.fullmatch(r"l?[1-6]", word):
            options.levels.append(int(word.lstrip("l")))
        elif _NUMBER.match(word) and word.endswith("s"):
            _number_option(options, "time", word)
        else:
            raise CommandError(f"I don't understand {quoted(words[i], 20)} in `{command}`. Usage: `{HELP[command][0]}`")
        i += 1
    if len(options.levels) > (2 if command == "watch" else 1):
        raise CommandError(f"too many levels in `{command}`. Usage: `{HELP[command][0]}`")
    return options


def _control(read: Callable[..., TimeControl | None], *words: str) -> TimeControl | None:
    """A time control read from ``words`` by ``read`` (``bot.clocks``), its refusal a ``CommandError``."""
    try:
        return read(*words)
    except ValueError as error:
        raise CommandError(error.args[0]) from None


def _number_option(options: Options, name: str, text: str) -> None:
    match = _NUMBER.match(text.lower())
    if not match:
        raise CommandError(f"`{name}` takes a number, not {quoted(text, 20)}")
    value = float(match.group(1))
    if name == "level":
        if value not in range(1, 7):
            raise CommandError("levels go from 1 (beginner) to 6 (master)")
        options.levels.append(int(value))
    elif name == "time":
        options.time = value
    else:
        options.delay = value

