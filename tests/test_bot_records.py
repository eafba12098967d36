"""Every PDN the bot writes (the chat's `pdn`, the end of a game, the stored record, the page's download) reads
back with the tags it was given, whatever the players are called."""

from __future__ import annotations

from bot.replies import User
from bot.user_text import neutral
from engine.records import read_tags
from test_web import site  # noqa: F401 (the fixture: a chat whose page serves the PDN)

# Display names as Discord hands them over, cleaned as the Discord front end cleans them: each tries to end its
# tag and write tags of its own (a result ahead of the real one).
MALLORY = User("66", neutral('x"] [Result "1-0"] [Evil "'))
TRUDY = User("67", neutral('\\"] [Result "0-1"] [White "me\\'))


async def test_hostile_names_read_back_from_every_pdn_the_bot_writes(site):
    chat, client = site
    assert '"' in MALLORY.name and "\\" in TRUDY.name  # the cleaning of names leaves quotes and backslashes
    await chat.say(MALLORY, "challenge @trudy english white casual", mentions=(TRUDY,))
    await chat.say(TRUDY, "accept")
    game_id = chat.table().id
    await chat.play_any(TRUDY)  # Black moves first in English
    await chat.play_any(MALLORY)
    players = {"White": MALLORY.name, "Black": TRUDY.name}

    def check(pdn: str, result: str) -> None:
        tags = read_tags(pdn)
        assert {name: tags.get(name) for name in ("White", "Black", "Result")} == players | {"Result": result}
        assert set(tags) == {"GameType", "Event", "Site", "Date", "White", "Black", "Result"}, pdn

    check((await chat.say(TRUDY, "pdn"))[0].pdn, "*")
    check(await (await client.get(chat.pages.game_path(game_id) + ".pdn")).text(), "*")
    await chat.say(TRUDY, "resign")
    assert not chat.on()
    check(chat.replies[-1].pdn, "1-0")  # the end of the game, as the chat posts it (and Discord's file)
    check((await chat.store.finished_game(game_id)).pdn, "1-0")
    check(await (await client.get(chat.pages.game_path(game_id) + ".pdn")).text(), "1-0")
