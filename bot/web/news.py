"""What a game's pages are told after a reply of the core about it: the game as it is now, or how it ended, with
what the chat said. Made where the game is played (``news_of``); shown by every process that has pages open on
the game (``Pages.apply``), so it travels between processes as JSON."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from bot.ending import Ending
from bot.translation import text_from_json, text_json
from bot.replies import Reply
from bot.tables import LiveGame, record_from_json, record_json
from engine import GameRecord


@dataclass(frozen=True)
class Ended:
    """A game that has just ended: its whole record, the PDN the chat gave with it, and how it ended."""

    record: GameRecord[Any, Any]
    pdn: str
    ending: Ending | None = None


@dataclass(frozen=True)
class GameNews:
    game: int
    said: str
    """What the chat said (the page shows it)."""
    about_game: bool = False
    """Whether the reply was about the game itself (a board, its controls), not other talk in its channel."""
    live: LiveGame | None = None
    """The game as it is now, while it is on."""
    ended: Ended | None = None
    at: float = 0.0
    """When it was made (Unix time), where the game is played: pages time their updates from it."""

    def to_json(self) -> dict:
        return {"game": self.game, "said": str(self.said), "said_text": text_json(self.said),
                "about_game": self.about_game, "at": self.at,
                "live": self.live.to_json() if self.live is not None else None,
                "ended": {**record_json(self.ended.record), "pdn": self.ended.pdn,
                          "ending": self.ended.ending.to_json() if self.ended.ending else None} if self.ended else None}

    @classmethod
    def from_json(cls, data: dict, known: GameRecord[Any, Any] | None = None) -> GameNews:
        """The news ``to_json`` wrote (``known``: the game's record as last seen, which saves replaying it)."""
        live = LiveGame.from_json(data["live"], known) if data["live"] is not None else None
        end = data["ended"]  # (an older process's has no ending)
        ending = Ending.from_json(end["ending"]) if end is not None and end.get("ending") else None
        ended = Ended(record_from_json(end, known), end["pdn"], ending) if end is not None else None
        said = text_from_json(data["said_text"]) if "said_text" in data else str(data["said"])  # (an older process's)
        return cls(int(data["game"]), said, bool(data["about_game"]), live, ended, float(data.get("at", 0.0)))


class Games(Protocol):
    def live(self, channel: str) -> LiveGame | None: ...


def news_of(core: Games, reply: Reply) -> GameNews | None:
    """What ``reply`` tells the pages of its game; None when it is about no game on (or is for one person)."""
    if reply.replay is not None and reply.game is not None:
        return GameNews(reply.game, reply.text, True, ended=Ended(reply.replay, reply.pdn or "", reply.ending),
                        at=time.time())
    if reply.private:
        return None
    live = core.live(reply.channel)
    if live is None:
        return None
    about_game = reply.board is not None or (reply.controls is not None and reply.controls.game == live.id)
    return GameNews(live.id, reply.text, about_game, live, at=time.time())
