"""The `/tournament` slash commands, written back as the chat's `tournament` command (as ``bot.discord.commands``
does for `/draughts`): `/tournament swiss variant:english clock:3+2 rounds:5 starts_in:10` reaches the core as
``tournament swiss english 3+2 5 rounds in 10 minutes``. A group of its own: `/draughts` has Discord's 25
subcommands already."""

from __future__ import annotations

import discord
from discord import app_commands

from discord.app_commands import locale_str

from bot.discord.commands import LEVELS, MATCH_CONTROLS, VARIANTS, _rated, run, said, short
from bot.translation import Text, tr

tournament = app_commands.Group(name="tournament", description=tr("Tournaments in this channel: arenas, Swiss "
                                                                  "events, round robins."))
CLOCK = said(tr("The clock (default 3+2)"))
WHEN = said(tr("Minutes from now to its start (default 5)"))
RATED = said(tr("Rated (default) or casual"))


@tournament.command(name=tr("arena"), description=tr("Administrators: an arena here, players paired as soon as "
                                                            "they are free."))
@app_commands.describe(variant=said(tr("Which draughts")), clock=CLOCK, minutes=said(tr("How long it lasts "
                                                                                      "(default 60)")),
                       starts_in=WHEN, rated=RATED)
@app_commands.choices(variant=VARIANTS, clock=MATCH_CONTROLS)
async def arena(interaction: discord.Interaction, variant: str | None = None, clock: str | None = None,
                minutes: app_commands.Range[int, 5, 720] | None = None,
                starts_in: app_commands.Range[int, 0, 10080] | None = None, rated: bool | None = None) -> None:
    await run(interaction, "tournament", "arena", variant, clock, minutes and f"{minutes} minutes", *_start(starts_in),
              _rated(rated))


@tournament.command(name=tr("swiss"), description=tr("Administrators: a Swiss event here, everyone paired each "
                                                           "round against someone on the same score."))
@app_commands.describe(variant=said(tr("Which draughts")), clock=CLOCK, rounds=said(tr("How many rounds "
                                                                                     "(default 5)")),
                       starts_in=WHEN, rated=RATED)
@app_commands.choices(variant=VARIANTS, clock=MATCH_CONTROLS)
async def swiss(interaction: discord.Interaction, variant: str | None = None, clock: str | None = None,
                rounds: app_commands.Range[int, 1, 15] | None = None,
                starts_in: app_commands.Range[int, 0, 10080] | None = None, rated: bool | None = None) -> None:
    await run(interaction, "tournament", "swiss", variant, clock, rounds and f"{rounds} rounds", *_start(starts_in),
              _rated(rated))


@tournament.command(name=tr("roundrobin"), description=tr("Administrators: a round robin here, everyone "
                                                                "against everyone (at most 12)."))
@app_commands.describe(variant=said(tr("Which draughts")), clock=CLOCK, starts_in=WHEN, rated=RATED)
@app_commands.choices(variant=VARIANTS, clock=MATCH_CONTROLS)
async def roundrobin(interaction: discord.Interaction, variant: str | None = None, clock: str | None = None,
                     starts_in: app_commands.Range[int, 0, 10080] | None = None, rated: bool | None = None) -> None:
    await run(interaction, "tournament", "roundrobin", variant, clock, *_start(starts_in), _rated(rated))


@tournament.command(name=tr("bot"), description=tr("Administrators: the bot joins the tournament here at a "
                                                         "level."))
@app_commands.describe(level=said(tr("The bot's level")))
@app_commands.choices(level=LEVELS)
async def bot(interaction: discord.Interaction, level: int) -> None:
    await run(interaction, "tournament", "bot", level)


def _simple(name: str, description: Text) -> None:
    """A `/tournament` command without options: `tournament NAME` (berserk: the chat's own `berserk`)."""
    async def callback(interaction: discord.Interaction) -> None:
        await run(interaction, *(("berserk",) if name == "berserk" else ("tournament", name)))
    tournament.add_command(app_commands.Command(name=name, description=locale_str(short(description),
                                                                                   source=description.message),
                                                callback=callback))


for _name, _what in ((tr("standings"), tr("The tournament here: what it is, and its standings.")),
                     (tr("join"), tr("Join the tournament here (or come back after a pause).")),
                     (tr("pause"), tr("Not be paired until you join again.")),
                     (tr("withdraw"), tr("Leave the tournament; your games played still count.")),
                     (tr("berserk"), tr("In an arena's game, before your first move: half your clock for one more "
                                        "point.")),
                     (tr("start"), tr("Administrators: start the tournament here now.")),
                     (tr("cancel"), tr("Administrators: cancel the tournament here."))):
    _simple(str(_name), _what)


def _start(minutes: int | None) -> tuple[str, ...]:
    return ("in", str(minutes), "minutes") if minutes is not None else ()
