"""The terminal chat: one local channel, typed lines in, replies out.

Each board is printed as a text diagram and written as a PNG (one file per
game, rewritten after every move, so an image viewer can keep it open).
You are the user "you"; `as NAME` switches who is typing, so two people can
play at one keyboard (``challenge @ana``, then ``as ana``, ``accept``).
``@name`` in a line names another person.
"""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from bot.core import Core
from bot.present import board_png, board_text, graph_png, standings_png
from bot.replies import Message, Reply, User
from bot.tournament.words import room_label
from bot.translation import ENGLISH, render, tr
from bot.user_text import plain

GUILD = "terminal"
CHANNEL = "terminal"
_MENTION = re.compile(r"@(\w{1,32})")
_NAME = re.compile(r"^\w{1,32}$")


class Terminal:
    """Prints replies and writes board images; reads lines as messages."""

    def __init__(self, image_dir: Path, out: TextIO = sys.stdout, language: str = ENGLISH,
                 chosen: Callable[[], str | None] = lambda: None):
        """``language``: what the replies are shown in (``bot.translation``), unless ``chosen`` gives one (the
        `language` command's choice)."""
        self.image_dir = image_dir
        self.out = out
        self._language = language
        self._chosen = chosen
        self.user = User("you", "you")

    @property
    def language(self) -> str:
        return self._chosen() or self._language

    def say(self, text: str) -> str:
        """``text`` in the terminal's language."""
        return render(text, self.language)

    async def send(self, reply: Reply) -> None:
        text = plain(render(reply.text, self.language))
        if (label := room_label(reply.channel)) is not None:  # a tournament game's: its board named
            text = f"[{self.say(label)}] {text}"
        lines = [text if not reply.private else self.say(tr("(to {name}) {text}", text=text,
                                                            name=reply.to.user.name if reply.to else "you"))]
        if reply.board is not None:
            lines.append(board_text(reply.board, self.language))
            path = self.image_dir / f"game-{reply.board.game_id}.png"
            path.write_bytes(await asyncio.to_thread(board_png, reply.board, "wood", self.language))
            lines.append(self.say(tr("[board image: {path}]", path=str(path))))
        if reply.pdn:
            lines.append(reply.pdn.rstrip())
        if reply.analysis is not None:
            path = self.image_dir / f"analysis-{reply.game}.png"
            path.write_bytes(await asyncio.to_thread(graph_png, reply.analysis, self.language))
            lines.append(self.say(tr("[evaluation graph: {path}]", path=str(path))))
        if reply.standings is not None:
            path = self.image_dir / f"standings-{reply.standings.tournament}.png"
            path.write_bytes(await asyncio.to_thread(standings_png, reply.standings, self.language))
            lines.append(self.say(tr("[standings: {path}]", path=str(path))))
        print("\n".join(lines) + "\n", file=self.out, flush=True)

    def message(self, line: str) -> Message | None:
        """The message a typed line makes, or None for a line the terminal answers itself (`as NAME`)."""
        words = line.split()
        if len(words) == 2 and words[0].lower() == "as":
            if not _NAME.match(words[1]):
                print(self.say(tr("A name is one word of letters and digits.")), file=self.out, flush=True)
            else:
                self.user = User(words[1].lower(), words[1])
                print(self.say(tr("You are now {name}.", name=self.user.name)), file=self.out, flush=True)
            return None
        mentions = tuple(User(name.lower(), name) for name in _MENTION.findall(line))
        return Message(GUILD, CHANNEL, self.user, line, mentions, channel_name=CHANNEL, manager=True)


class InputLost(RuntimeError):
    """Standard input can no longer be read; the chat ends with this error."""


def read_lines(queue: asyncio.Queue[str | bytes | InputLost | None], source: TextIO) -> None:
    """Put each line of ``source`` on ``queue``: the text, or its bytes if they cannot be decoded; an InputLost if
    reading fails; None at the end. Reads in a daemon thread, so the event loop never waits on input and Ctrl-C
    never waits on the thread. A console reads bytes and decodes each line itself, so a bad byte spoils one line,
    not the input thread."""
    loop = asyncio.get_running_loop()
    raw = getattr(source, "buffer", None)
    encoding = _encoding(source)

    def put(item: str | bytes | InputLost | None) -> bool:
        """Hand ``item`` to the chat; False once the chat's event loop has closed (the bot is stopping)."""
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:
            return False
        return True

    def read() -> None:
        lines = iter(raw if raw is not None else source)
        while True:
            try:
                line = next(lines, None)
            except Exception as error:  # noqa: BLE001 - whatever stopped the input, the chat must hear of it
                put(InputLost(f"cannot read the input any more ({type(error).__name__}: {error})"))
                return
            if line is None:
                put(None)
                return
            if isinstance(line, bytes):
                try:
                    line = line.decode(encoding)
                except UnicodeDecodeError:  # the bytes go to the chat, which answers that it cannot read them
                    if not put(line):
                        return
                    continue
            if not put(line.rstrip("\r\n")):
                return

    threading.Thread(target=read, name="terminal input", daemon=True).start()


def _encoding(source: TextIO) -> str:
    return getattr(source, "encoding", None) or "utf-8"


async def chat(core: Core, terminal: Terminal, source: TextIO = sys.stdin) -> None:
    """Run the chat until the end of input, then wait for the moves in flight. Raises InputLost if the input
    cannot be read any more.

    Piped input is a script: each line waits for the bot's answer to the one
    before (bot matches go on meanwhile), so ``11-15`` then ``9-14`` plays both.
    Typed at a terminal, lines are answered as a channel answers messages: each
    on its own, so ``help`` is answered while a move waits on a slow database.
    """
    if source is None:  # started with standard input closed
        raise InputLost("cannot read the input: standard input is closed")
    script = not source.isatty()
    queue: asyncio.Queue[str | bytes | InputLost | None] = asyncio.Queue()
    read_lines(queue, source)
    answering: set[asyncio.Task] = set()  # lines typed at a terminal, each answered on its own
    try:
        while (line := await queue.get()) is not None:
            if isinstance(line, InputLost):
                raise line
            if isinstance(line, bytes):
                print(terminal.say(tr("That line is not readable text (it is not in {encoding}), so I did nothing "
                                      "with it. Please type it again.", encoding=_encoding(source))) + "\n",
                      file=terminal.out, flush=True)
                continue
            if not line.strip():
                continue
            msg = terminal.message(line)
            if msg is None:
                continue
            if script:
                await core.handle(msg)
                await core.settle(matches=False)
            else:
                task = asyncio.create_task(core.handle(msg))
                answering.add(task)
                task.add_done_callback(answering.discard)
        await asyncio.gather(*answering)
    finally:  # the chat stops (Ctrl-C, input lost): no answer comes after it
        for task in answering:
            task.cancel()
    await core.settle()
