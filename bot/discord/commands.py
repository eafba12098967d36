"""The `/draughts` slash commands: each one is written back as the chat command it stands for.

So `/draughts new variant:russian level:5` reaches the core as
``new russian level 5`` (and `/draughts daily action:here hour:18` as
``daily here hour 18``), and every front end shares one set of commands.
"""

from __future__ import annotations

import re
from typing import Protocol, cast

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, locale_str

from bot.clocks import PRESETS, UNTIMED, Speed
from bot.commands import HELP
from bot.translation import ENGLISH, LANGUAGES, Text, catalog, join, language_of, render, tr
from bot.core import PUZZLE_GAMES
from bot.words import LEVEL_NAMES, game_title
from engine.games import GAMES


def said(text: str) -> locale_str:
    """A marked text as a string Discord shows in each person's language (an option's description, a choice's
    name): ``Translations`` renders it."""
    return locale_str(str(text), text=text)


VARIANTS = [app_commands.Choice(name=said(game_title(game.name)), value=game.name) for game in GAMES.values()]
PUZZLE_VARIANTS = [choice for choice in VARIANTS if choice.value in PUZZLE_GAMES]  # the games that have puzzles
DAILY_ACTIONS = [app_commands.Choice(name=said(name), value=str(name)) for name in (tr("show"), tr("here"), tr("off"))]
LEVELS = [app_commands.Choice(name=said(join([str(n), LEVEL_NAMES[n]], ": ")), value=n) for n in range(1, 7)]
COLOURS = [app_commands.Choice(name=said(c), value=str(c)) for c in (tr("white"), tr("black"), tr("random"))]
COMMANDS = [app_commands.Choice(name=name, value=name) for name in HELP]
CONTROLS = [app_commands.Choice(name=said(control.words()), value=str(control))
            for presets in PRESETS.values() for control in presets] + [
    app_commands.Choice(name=said(UNTIMED.words()), value=str(UNTIMED))]
MATCH_CONTROLS = [choice for choice in CONTROLS if "+" in choice.value]  # (bots play no correspondence)
CLOCK = said(tr("The clock: minutes plus seconds a move, or days a move (default: untimed)"))
SPEEDS = [app_commands.Choice(name=said(speed.words()), value=speed.value) for speed in Speed]
SPEED = said(tr("Which speed (default: every one; the leaderboard's: correspondence)"))
AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 suggestions
DESCRIPTION_LIMIT = 100  # letters in a command's description
NAME = re.compile(r"[-_'\w]{1,32}")
"""What Discord takes as a command's name in any language: one word, lower case, at most 32 letters."""


class Slash(Protocol):
    """What the slash commands call: the Discord client they are registered with."""

    def legal_texts(self, interaction: discord.Interaction) -> list[str]:
        """The moves to suggest where ``interaction`` was made: its game's legal moves, or its puzzle's solver's."""

    async def slash(self, interaction: discord.Interaction, text: str, mentions: tuple[discord.abc.User, ...]) -> None:
        """Run the chat command ``text``, naming ``mentions``."""


def _client(interaction: discord.Interaction) -> Slash:
    return cast(Slash, interaction.client)


group = app_commands.Group(name="draughts", description=tr("Play draughts against the bot or your friends."))


async def run(interaction: discord.Interaction, *words: object, mentions: tuple[discord.abc.User, ...] = ()) -> None:
    """Hand the command to the bot; ``None`` words are left out."""
    text = " ".join(str(w) for w in words if w is not None and w != "")
    await _client(interaction).slash(interaction, text, mentions)


def _rated(rated: bool | None) -> str | None:
    return None if rated is None else ("rated" if rated else "casual")


@group.command(name=tr("new"), description=tr("Start a game against me here (or challenge someone)."))
@app_commands.describe(variant=said(tr("Which draughts (default: English)")),
                       level=said(tr("My strength (default: 3)")),
                       colour=said(tr("Your colour (default: you move first)")), time=said(tr("My seconds a move")),
                       rated=said(tr("Rated against my level's rating (default: casual, hints allowed)")),
                       opponent=said(tr("Play this person instead of me")), clock=CLOCK)
@app_commands.choices(variant=VARIANTS, level=LEVELS, colour=COLOURS, clock=CONTROLS)  # type: ignore[misc]
async def new(interaction: discord.Interaction, variant: str | None = None, level: int | None = None,
              colour: str | None = None, time: app_commands.Range[float, 0.05, 60.0] | None = None,
              rated: bool | None = None, opponent: discord.User | None = None, clock: str | None = None) -> None:
    if opponent is not None:
        await run(interaction, "challenge", opponent.mention, variant, colour, clock, _rated(rated),
                  mentions=(opponent,))
    else:
        await run(interaction, "new", variant, level and f"level {level}", colour, clock, time and f"time {time:g}",
                  _rated(rated))


@group.command(name=tr("move"), description=tr("Play a move: 11-15, 11x18x25, c3-d4 (e3-e6 in Tablut)."))
@app_commands.describe(move=said(tr("Your move; start typing to see the legal ones")))
async def move(interaction: discord.Interaction, move: str) -> None:
    await run(interaction, move)


@move.autocomplete("move")
async def move_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    legal = _client(interaction).legal_texts(interaction)
    texts = [t for t in legal if t.lower().startswith(typed)]
    return [app_commands.Choice(name=t, value=t) for t in texts[:AUTOCOMPLETE_LIMIT]]


@group.command(name=tr("challenge"), description=tr("Challenge someone (or anyone) to a game here."))
@app_commands.describe(opponent=said(tr("Who you challenge (default: anyone)")), variant=said(tr("Which draughts")),
                       colour=said(tr("Your colour")), rated=said(tr("Rated (default) or casual")), clock=CLOCK)
@app_commands.choices(variant=VARIANTS, colour=COLOURS, clock=CONTROLS)
async def challenge(interaction: discord.Interaction, opponent: discord.User | None = None,
                    variant: str | None = None, colour: str | None = None, rated: bool | None = None,
                    clock: str | None = None) -> None:
    await run(interaction, "challenge", opponent and opponent.mention, variant, colour, clock, _rated(rated),
              mentions=(opponent,) if opponent else ())


@group.command(name=tr("watch"), description=tr("Start a match between two bots here, to watch move by move."))
@app_commands.describe(variant=said(tr("Which draughts")), first=said(tr("The first bot's level")),
                       second=said(tr("The second bot's level")), delay=said(tr("Seconds between moves (default 2)")),
                       time=said(tr("Seconds each bot thinks a move")), clock=CLOCK)
@app_commands.choices(variant=VARIANTS, first=LEVELS, second=LEVELS, clock=MATCH_CONTROLS)  # type: ignore[misc]
async def watch(interaction: discord.Interaction, variant: str | None = None, first: int | None = None,
                second: int | None = None, delay: app_commands.Range[float, 0.0, 60.0] | None = None,
                time: app_commands.Range[float, 0.05, 60.0] | None = None, clock: str | None = None) -> None:
    levels = [n for n in (first, second) if n is not None]
    await run(interaction, "watch", variant, *levels, clock, delay is not None and f"delay {delay:g}" or None,
              time and f"time {time:g}")


@group.command(name=tr("rating"), description=tr("Ratings on this server, one per variant."))
@app_commands.describe(user=said(tr("Whose ratings (default: yours)")), speed=SPEED)
@app_commands.choices(speed=SPEEDS)
async def rating(interaction: discord.Interaction, user: discord.User | None = None, speed: str | None = None) -> None:
    await run(interaction, "rating", user and user.mention, speed, mentions=(user,) if user else ())


@group.command(name=tr("history"), description=tr("Someone's last finished games on this server."))
@app_commands.describe(user=said(tr("Whose games (default: yours)")))
async def history(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    person = user or interaction.user
    await run(interaction, "games", person.mention, mentions=(person,))


@group.command(name=tr("leaderboard"),
               description=tr("The best rated players on this server (or puzzle solvers)."))
@app_commands.describe(variant=said(tr("Which draughts (default: English)")),
                       puzzles=said(tr("The best puzzle solvers instead")), speed=SPEED)
@app_commands.choices(variant=VARIANTS, speed=SPEEDS)
async def leaderboard(interaction: discord.Interaction, variant: str | None = None, puzzles: bool = False,
                      speed: str | None = None) -> None:
    await run(interaction, "leaderboard", "puzzles" if puzzles else None, variant, None if puzzles else speed)


@group.command(name=tr("analyse"), description=tr("Every move of a finished game judged, with a graph (default: the "
                                                  "last game that ended here)."))
@app_commands.describe(game=said(tr("The game's number (default: this channel's last finished game)")))
async def analyse(interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
    await run(interaction, "analyse", game)


@group.command(name=tr("puzzle"), description=tr("A puzzle here, near your puzzle rating: one way to win. Anyone may "
                                                 "answer."))
@app_commands.describe(variant=said(tr("Which draughts (default: English)")))
@app_commands.choices(variant=PUZZLE_VARIANTS)
async def puzzle(interaction: discord.Interaction, variant: str | None = None) -> None:
    await run(interaction, "puzzle", variant)


@group.command(name=tr("daily"),
               description=tr("This server's daily puzzle: where and when (Manage Server to change it)."))
@app_commands.describe(action=said(tr("show it (default), post it here every day, or stop it (here and off: Manage "
                                     "Server)")),
                       hour=said(tr("With here: the hour of the post, in UTC (default 0)")),
                       variant=said(tr("With here: which draughts (default: English)")))
@app_commands.choices(action=DAILY_ACTIONS, variant=PUZZLE_VARIANTS)
async def daily(interaction: discord.Interaction, action: str | None = None,
                hour: app_commands.Range[int, 0, 23] | None = None, variant: str | None = None) -> None:
    if action is None:  # an hour or a variant alone means here
        action = "here" if hour is not None or variant is not None else "show"
    if action == "here":
        await run(interaction, "daily", "here", f"hour {hour}" if hour is not None else None, variant)
    else:  # show and off take no hour or variant: those are left out
        await run(interaction, "daily", "off" if action == "off" else None)


LANGUAGE_CHOICES = [app_commands.Choice(name=locale_str(name, untranslated=True), value=code)
                    for code, name in LANGUAGES.items()] + [app_commands.Choice(name="Discord", value="default")]
"""Each language by its own name, in every language (so "English" is not read as the game's name)."""


@group.command(name=tr("language"), description=tr("The language I speak to this server's channels."))
@app_commands.describe(language=said(tr("Administrators: the one to speak (Discord: the server's Discord setting)")))
@app_commands.choices(language=LANGUAGE_CHOICES)
async def language(interaction: discord.Interaction, language: str | None = None) -> None:
    await run(interaction, "language", language)


@group.command(name=tr("help"), description=tr("The commands, or more about one."))
@app_commands.describe(command=said(tr("One command to explain")))
async def help_(interaction: discord.Interaction, command: str | None = None) -> None:
    await run(interaction, "help", command)


@help_.autocomplete("command")
async def help_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The commands whose names start with what was typed (more than Discord's 25 choices, so suggested)."""
    typed = current.strip().lower()
    return [choice for choice in COMMANDS if choice.value.startswith(typed)][:AUTOCOMPLETE_LIMIT]


def short(text: str) -> str:
    """``text`` cut to Discord's 100 letters for a description."""
    return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"


def _simple(name: str) -> None:
    """A command without options: the word alone, described as `help` does (in at most Discord's 100 letters)."""
    async def callback(interaction: discord.Interaction) -> None:
        await run(interaction, name)
    what = HELP[name][1]
    group.add_command(app_commands.Command(name=name, description=locale_str(short(what), source=what.message),
                                           callback=callback))


SIMPLE = (tr("accept"), tr("decline"), tr("resign"), tr("draw"), tr("takeback"), tr("hint"), tr("moves"), tr("board"),
          tr("pdn"), tr("games"), tr("stop"), tr("solution"), tr("practice"))
"""The commands without options (their names marked, so that each language names them)."""
for _name in SIMPLE:
    _simple(_name)


class Translations(app_commands.Translator):
    """The commands' names and descriptions in Discord's languages, from the bot's catalogs
    (``bot.translation``): Discord shows each person the ones of their language."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(locale.value)
        if language == ENGLISH or string.extras.get("untranslated"):
            return None
        text = string.extras.get("text")
        if isinstance(text, Text):  # an option's description, a choice's name (``said``)
            shown = render(text, language)
            return short(shown) if shown != str(text) else None
        source = string.extras.get("source", string.message)
        translated = catalog(language).gettext(source)
        if translated == source:
            return None
        if context.location in (TranslationContextLocation.command_name, TranslationContextLocation.group_name,
                                TranslationContextLocation.parameter_name):
            # Discord refuses the whole tree for one name it does not take
            return translated if NAME.fullmatch(translated) and translated == translated.lower() else None
        return short(translated)
