"""The buttons and the move menu under Discord messages.

Their state lives in the ``custom_id`` (the action, the game, the ply; under a
puzzle's board, the served puzzle's number and the ply), and
they are registered as dynamic items, so they keep working after a restart:
discord.py matches the id against the templates here and calls back into the
client (a ``Presses``), which hands the press to the core as the command it
stands for. Their labels are in the language of the channel they are shown in (``language``); a press reads only
the id, so it works whatever the language.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from bot.translation import ENGLISH, plural, render, tr

PREFIX = "draughts"
MENU_SIZE = 25  # Discord's limit on a select menu's options
ACTIONS = {  # action -> (label, style, the command it sends)
    "accept": (tr("Accept"), discord.ButtonStyle.success, "accept"),
    "decline": (tr("Decline"), discord.ButtonStyle.secondary, "decline"),
    "resign": (tr("Resign"), discord.ButtonStyle.danger, "resign"),
    "draw": (tr("Offer draw"), discord.ButtonStyle.secondary, "draw"),
    "takeback": (tr("Takeback"), discord.ButtonStyle.secondary, "takeback"),
}


class Presses(Protocol):
    """What the buttons and the menu call back: the Discord client they belong to."""

    async def pressed(self, interaction: discord.Interaction, game: int, ply: int | None, text: str) -> None:
        """A button or a move chosen: the command ``text`` in game ``game`` (at ``ply``, if it matters)."""

    async def turn_page(self, interaction: discord.Interaction, game: int, ply: int, page: int) -> None:
        """Show page ``page`` of the move menu of game ``game`` at ``ply``."""

    async def seat_link(self, interaction: discord.Interaction, game: int) -> None:
        """Tell the person who pressed, privately, their seat link to game ``game`` on the web page."""

    async def analyse(self, interaction: discord.Interaction, game: int) -> None:
        """Ask for the analysis of finished game ``game``, as whoever pressed (anyone may)."""

    async def rematch(self, interaction: discord.Interaction, game: int) -> None:
        """Ask for a rematch of finished game ``game``, as whoever pressed."""

    async def answer_puzzle(self, interaction: discord.Interaction, served: int, ply: int, text: str) -> None:
        """A move chosen from a puzzle's menu, or its Solution button (``text`` 'solution'): puzzle ``served``, whose
        board was shown at ``ply``."""

    async def turn_puzzle_page(self, interaction: discord.Interaction, served: int, ply: int, page: int) -> None:
        """Show page ``page`` of the move menu of puzzle ``served`` at ``ply``."""


def _client(interaction: discord.Interaction) -> Presses:
    return cast(Presses, interaction.client)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"{PREFIX}:(?P<action>{'|'.join(ACTIONS)}):(?P<game>\d+)"):
    """A button that sends a command (resign, draw, takeback, accept, decline) for one game."""

    def __init__(self, action: str, game: int, disabled: bool = False, language: str = ENGLISH) -> None:
        label, style, _ = ACTIONS[action]
        super().__init__(discord.ui.Button(label=render(label, language), style=style, disabled=disabled,
                                           custom_id=f"{PREFIX}:{action}:{game}"))
        self.action = action
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,  # type: ignore[override]
                             match: Any) -> ActionButton:
        if match["action"] not in ACTIONS:
            raise ValueError(f"no action {match['action']!r}")
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _client(interaction).pressed(interaction, self.game, None, ACTIONS[self.action][2])


class SeatButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{PREFIX}:seat:(?P<game>\d+)"):
    """Gives a player of the game, privately, their seat link: the web page where they can move by clicking."""

    def __init__(self, game: int, disabled: bool = False, language: str = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=render(tr("Play in browser"), language),
                                           style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"{PREFIX}:seat:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,  # type: ignore[override]
                             match: Any) -> SeatButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _client(interaction).seat_link(interaction, self.game)


class AnalyseButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{PREFIX}:analyse:(?P<game>\d+)"):
    """Under the message that ends a game: asks for its analysis. Anyone may press it, not only the players."""

    def __init__(self, game: int, language: str = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=render(tr("Analyse"), language), style=discord.ButtonStyle.primary,
                                           custom_id=f"{PREFIX}:analyse:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,  # type: ignore[override]
                             match: Any) -> AnalyseButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _client(interaction).analyse(interaction, self.game)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{PREFIX}:rematch:(?P<game>\d+)"):
    """Under the message that ends a game: the game again, colours swapped (the core lets only its players)."""

    def __init__(self, game: int, language: str = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=render(tr("Rematch"), language), style=discord.ButtonStyle.secondary,
                                           custom_id=f"{PREFIX}:rematch:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,  # type: ignore[override]
                             match: Any) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _client(interaction).rematch(interaction, self.game)


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select],
               template=rf"{PREFIX}:move:(?P<game>\d+):(?P<ply>\d+):(?P<page>\d+)"):
    """The legal moves of one position as a menu; more than 25 come in pages, the last option turning the page."""

    def __init__(self, game: int, ply: int, moves: list[str], page: int = 0, disabled: bool = False,
                 language: str = ENGLISH) -> None:
        page = min(page, len(pages_of(moves)) - 1)
        super().__init__(paged_menu(f"{PREFIX}:move:{game}:{ply}:{page}", moves, page,
                                    plural("Choose a move ({count} legal)", "Choose a move ({count} legal)",
                                           len(moves)), disabled, language))
        self.game, self.ply, self.page = game, ply, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,  # type: ignore[override]
                             match: Any) -> MoveMenu:
        menu = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(menu, item)
        menu.game, menu.ply, menu.page = int(match["game"]), int(match["ply"]), int(match["page"])
        return menu

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        choice = self.item.values[0] if self.item.values else ""
        if choice.startswith("page:"):
            await _client(interaction).turn_page(interaction, self.game, self.ply, int(choice.split(":")[1]))
        else:
            await _client(interaction).pressed(interaction, self.game, self.ply, choice)


class PuzzleMenu(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"{PREFIX}:puzzle:(?P<served>\d+):(?P<ply>\d+):(?P<page>\d+)"):
    """The solver's legal moves under a puzzle's board, paged as a game's menu is. Its id names the served puzzle
    (not a game: a game's menu and a puzzle's never mix) and the moves played when the board was shown."""

    def __init__(self, served: int, ply: int, moves: list[str], page: int = 0, language: str = ENGLISH) -> None:
        page = min(page, len(pages_of(moves)) - 1)
        super().__init__(paged_menu(f"{PREFIX}:puzzle:{served}:{ply}:{page}", moves, page,
                                    plural("Your answer ({count} legal move)", "Your answer ({count} legal moves)",
                                           len(moves)), language=language))
        self.served, self.ply, self.page = served, ply, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,  # type: ignore[override]
                             match: Any) -> PuzzleMenu:
        menu = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(menu, item)
        menu.served, menu.ply, menu.page = int(match["served"]), int(match["ply"]), int(match["page"])
        return menu

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        choice = self.item.values[0] if self.item.values else ""
        if choice.startswith("page:"):
            await _client(interaction).turn_puzzle_page(interaction, self.served, self.ply, int(choice.split(":")[1]))
        else:
            await _client(interaction).answer_puzzle(interaction, self.served, self.ply, choice)


class SolutionButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"{PREFIX}:solution:(?P<served>\d+):(?P<ply>\d+)"):
    """Under a puzzle's board: ends the puzzle with its answer (`solution`). Anyone in the channel may press it."""

    def __init__(self, served: int, ply: int, language: str = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=render(tr("Solution"), language), style=discord.ButtonStyle.secondary,
                                           custom_id=f"{PREFIX}:solution:{served}:{ply}"))
        self.served, self.ply = served, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,  # type: ignore[override]
                             match: Any) -> SolutionButton:
        return cls(int(match["served"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _client(interaction).answer_puzzle(interaction, self.served, self.ply, "solution")


def paged_menu(custom_id: str, moves: list[str], page: int, placeholder: str, disabled: bool = False,
               language: str = ENGLISH) -> discord.ui.Select:
    """A menu of page ``page`` of ``moves``; with more than one page, its last option turns to the next. Its words
    (``placeholder`` and the page's) in ``language``."""
    pages = pages_of(moves)
    options = [discord.SelectOption(label=m, value=m) for m in pages[page]]
    if len(pages) > 1:
        following = (page + 1) % len(pages)
        more = tr("More moves (page {page} of {pages})", page=following + 1, pages=len(pages))
        options.append(discord.SelectOption(label=render(more, language), value=f"page:{following}"))
        placeholder = tr("{menu}, page {page} of {pages}", menu=placeholder, page=page + 1, pages=len(pages))
    return discord.ui.Select(custom_id=custom_id, options=options, disabled=disabled,
                             placeholder=render(placeholder, language))


def pages_of(moves: list[str]) -> list[list[str]]:
    """The moves in menu pages: all on one if they fit, else 24 a page and a page-turning option."""
    if len(moves) <= MENU_SIZE:
        return [moves]
    size = MENU_SIZE - 1
    return [moves[i:i + size] for i in range(0, len(moves), size)]


def game_view(game: int, ply: int, moves: list[str], page: int = 0, disabled: bool = False,
              watch: str | None = None, language: str = ENGLISH) -> discord.ui.View:
    """Resign, draw and takeback buttons, and the move menu when someone has moves to choose from; with the web
    page's ``watch`` link, also Play in browser (a player's seat link) and Watch live."""
    view = discord.ui.View(timeout=None)
    if moves:
        view.add_item(MoveMenu(game, ply, moves, page, disabled, language))
    for action in ("resign", "draw", "takeback"):
        view.add_item(ActionButton(action, game, disabled, language))
    if watch:
        view.add_item(SeatButton(game, disabled, language))
        view.add_item(watch_button(watch, language))
    return view


def puzzle_view(served: int, ply: int, moves: list[str], page: int = 0, language: str = ENGLISH) -> discord.ui.View:
    """The solver's move menu and the Solution button, under a puzzle's latest board."""
    view = discord.ui.View(timeout=None)
    if moves:
        view.add_item(PuzzleMenu(served, ply, moves, page, language))
    view.add_item(SolutionButton(served, ply, language))
    return view


def link_view(url: str, label: str, language: str = ENGLISH) -> discord.ui.View:
    """Only a link to the web page, ``label`` on it: Watch live (under a bot match's boards), a player's page."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=render(label, language), style=discord.ButtonStyle.link, url=url))
    return view


def watch_button(url: str, language: str = ENGLISH) -> discord.ui.Button:
    return discord.ui.Button(label=render(tr("Watch live"), language), style=discord.ButtonStyle.link, url=url)


def analyse_view(game: int, language: str = ENGLISH, rematch: bool = False) -> discord.ui.View:
    """The Analyse button, under the message that ends a game, and Rematch when a person played it."""
    view = discord.ui.View(timeout=None)
    view.add_item(AnalyseButton(game, language))
    if rematch:
        view.add_item(RematchButton(game, language))
    return view


def answer_view(game: int, language: str = ENGLISH) -> discord.ui.View:
    """Accept and Decline, under a challenge (game 0) or an offer in a game."""
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline"):
        view.add_item(ActionButton(action, game, language=language))
    return view
