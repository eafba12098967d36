"""A small Discord on loopback, for driving an unmodified discord.py client in tests.

It speaks enough of Discord's REST API (v10) and gateway for a bot:
login, application info, gateway discovery, command sync; messages created,
edited and deleted, with multipart attachments; interaction callbacks and
follow-ups; threads and direct messages. The gateway sends HELLO, answers
heartbeats, IDENTIFY (READY with ``resume_gateway_url``, then GUILD_CREATE) and
RESUME (the events missed, then RESUMED), and can drop the socket to force a
reconnect. An edited message keeps what it showed before (``_versions``); an
interaction's token can be made to expire (``Interaction.expired``), as
Discord's do after 15 minutes. Tests act as people: they type messages, run
slash commands, press buttons and pick from menus, and read what the bot
posted.

Discord's behaviour copied on purpose: JSON responses carry a Content-Type of
exactly ``application/json`` (discord.py checks); a 429 carries ``Via`` and a
``retry_after`` body; message content is empty for a bot without the Message
Content intent unless the message mentions it; a channel's permission
overwrites are enforced on the bot's posts (403, code 50013); an interaction
is acknowledged once (400, code 40060 after).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

API = "/api/v10"
GUILD = 81_064_551_432_323_072  # a snowflake: (GUILD >> 22) % 2 == 0, so shard 0 of 2
OTHER_GUILD = GUILD + (1 << 22)  # a second server, on shard 1 of 2 (with ``DiscordEmulator(two_servers=True)``)
APP = 900_000_000_000_000_001
MESSAGE_CONTENT = 1 << 15  # the intent
EPHEMERAL = 1 << 6
LOADING = 1 << 7
# Permission bits
VIEW, SEND, EMBED, ATTACH, HISTORY = 1 << 10, 1 << 11, 1 << 14, 1 << 15, 1 << 16
APP_COMMANDS, THREADS, MANAGE_THREADS, SEND_IN_THREADS = 1 << 31, 1 << 35, 1 << 34, 1 << 38
EVERYONE = VIEW | SEND | EMBED | ATTACH | HISTORY | APP_COMMANDS | THREADS | MANAGE_THREADS | SEND_IN_THREADS
MANAGE_GUILD = 1 << 5  # Manage Server: only the server's owner (Ana) has it, as she has every permission
OPTION_TYPES = {3: str, 4: int, 5: bool, 6: "user", 10: float}


def user(id: int, name: str, bot: bool = False) -> dict:
    return {"id": str(id), "username": name, "discriminator": "0", "global_name": name.capitalize(),
            "avatar": None, "bot": bot, "public_flags": 0}


BOT = user(APP, "draughts", bot=True)
ANA = user(100_000_000_000_000_001, "ana")
BEN = user(100_000_000_000_000_002, "ben")
EVE = user(100_000_000_000_000_003, "eve")


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


def json_response(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status)


@dataclass
class Session:
    """A gateway session: the events sent in it, kept for a RESUME."""

    id: str
    shard: list[int]
    intents: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    events: list[dict] = field(default_factory=list)


@dataclass
class Interaction:
    """An interaction the emulator sent, and what the bot answered."""

    id: int
    token: str
    channel: int
    kind: int
    created: float
    answered: float | None = None
    """When the first callback came."""
    callbacks: list[dict] = field(default_factory=list)
    original: dict | None = None
    """The response message (or the deferral's "thinking" message)."""
    choices: list[dict] | None = None
    """An autocomplete's answer."""
    message: int | None = None
    """The message whose button or menu was used."""
    expired: bool = False
    """Its token no longer works (Discord's last 15 minutes): a follow-up or an edit by the token is refused."""


class DiscordEmulator:
    """Discord for one bot, one server with a few channels (or two servers, on shards 0 and 1 of 2, the second
    with a channel "games-b"), and three people: ANA, BEN and EVE."""

    def __init__(self, two_servers: bool = False) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app = web.Application(client_max_size=32 * 1024 * 1024)
        self.app.router.add_get("/gateway", self._gateway)
        self.app.router.add_route("*", API + "/{path:.*}", self._rest)
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.channels: dict[int, dict] = {}
        self.deny: dict[int, int] = {}  # channel -> permission bits denied to the bot
        self.messages: dict[int, dict] = {}
        self.posts: list[dict] = []
        """Every message the bot created, in order (ephemeral ones too)."""
        self.files: dict[int, bytes] = {}  # attachment id -> bytes
        self.interactions: dict[int, Interaction] = {}
        self.sessions: dict[str, Session] = {}
        self.commands: list[dict] = []
        self.events: list[dict] = []
        """The servers' scheduled events the bot made."""
        self.requests: list[tuple[str, str]] = []
        self.identifies = self.resumes = self.limited = self.hung_up = 0
        self.guild_locale = "en-US"
        """The servers' preferred language (Server Settings, Community, Overview), set before the bot connects."""
        self.locales: dict[str, str] = {}
        """Each person's Discord language, by user id, sent with their interactions (default en-US)."""
        self._limits: list[tuple[str, re.Pattern, float]] = []
        self._hang_ups: list[tuple[str, re.Pattern]] = []
        self.people = {int(u["id"]): u for u in (BOT, ANA, BEN, EVE)}
        self.token = "emulated-token"
        """The bot token it accepts."""
        for name, denied in (("games", 0), ("more-games", 0), ("no-files", ATTACH), ("read-only", SEND)):
            self.add_channel(name, denied)
        self.guilds = [GUILD]
        if two_servers:
            self.guilds.append(OTHER_GUILD)
            self.add_channel("games-b", guild=OTHER_GUILD)

    # set-up

    async def start(self) -> None:
        self.runner = web.AppRunner(self.app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None:
                await session.ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> int:
        return next(self._ids)

    def add_channel(self, name: str, denied: int = 0, guild: int = GUILD) -> int:
        id = self.snowflake()
        self.channels[id] = {"id": str(id), "type": 0, "guild_id": str(guild), "name": name, "position": len(self.channels),
                             "permission_overwrites": ([{"id": str(guild), "type": 0, "allow": "0", "deny": str(denied)}]
                                                       if denied else []),
                             "nsfw": False, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
                             "parent_id": None}
        self.deny[id] = denied
        return id

    def guild_of(self, channel: int) -> int:
        """The server a channel (or thread) is in."""
        return int(self.channels[channel].get("guild_id") or GUILD) if channel in self.channels else GUILD

    @staticmethod
    def on_shard(guild: int, session: Session) -> bool:
        return (guild >> 22) % session.shard[1] == session.shard[0]

    def channel(self, name: str) -> int:
        return next(int(c["id"]) for c in self.channels.values() if c["name"] == name)

    def permissions(self, channel: int) -> int:
        parent = self.channels[channel].get("parent_id") if channel in self.channels else None
        return EVERYONE & ~self.deny.get(int(parent) if parent else channel, 0)

    @staticmethod
    def member_permissions(person: dict) -> int:
        """A person's permissions, as an interaction carries them: the server's owner (Ana) has all of them, as
        Discord counts an owner's (discord.py does the same for her typed messages); everyone else @everyone's."""
        return (1 << 53) - 1 if person["id"] == ANA["id"] else EVERYONE

    def rate_limit(self, method: str, path: str, retry_after: float = 0.3) -> None:
        """Answer the next request matching ``method`` and the regular expression ``path`` with a 429."""
        self._limits.append((method, re.compile(path), retry_after))

    def hang_up(self, method: str, path: str) -> None:
        """Close the connection of the next request matching ``method`` and ``path`` without an answer, as a
        server or a proxy does with a kept-alive connection it has dropped (the client's "Server disconnected")."""
        self._hang_ups.append((method, re.compile(path)))

    # the gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        session: Session | None = None
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                break
            data = json.loads(frame.data)
            op, d = data["op"], data.get("d")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                self.identifies += 1
                session = Session(f"session-{self.snowflake()}", d.get("shard", [0, 1]), d.get("intents", 0), ws)
                self.sessions[session.id] = session
                await self._send(session, "READY", {
                    "v": 10, "user": BOT, "session_id": session.id, "resume_gateway_url": self.gateway_url,
                    "shard": session.shard,
                    "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds if self.on_shard(g, session)],
                    "application": {"id": str(APP), "flags": 0}, "private_channels": [], "relationships": []})
                for guild in self.guilds:
                    if self.on_shard(guild, session):
                        await self._send(session, "GUILD_CREATE", self._guild(guild))
            elif op == 6:
                old = self.sessions.get(d["session_id"])
                if old is None:
                    await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                    continue
                self.resumes += 1
                session, session.ws = old, ws
                for event in session.events:
                    if event["s"] > (d.get("seq") or 0):
                        await ws.send_str(json.dumps(event))
                await self._send(session, "RESUMED", {})
        if session is not None and session.ws is ws:
            session.ws = None
        return ws

    async def _send(self, session: Session, event: str, data: dict) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        if session.ws is not None and not session.ws.closed:
            await session.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: dict) -> None:
        """Send an event in the sessions of the shard its server is on; kept for a RESUME if a socket is down."""
        guild = int(data.get("guild_id") or GUILD)
        for session in self.sessions.values():
            if self.on_shard(guild, session):
                await self._send(session, event, data)

    def live(self, guild: int = GUILD) -> Session:
        """The newest session serving ``guild``."""
        return max((s for s in self.sessions.values() if self.on_shard(guild, s)), key=lambda s: s.seq)

    async def drop(self) -> None:
        """Close the bot's socket as Discord does when it wants a reconnect (close code 4000)."""
        session = self.live()
        ws, session.ws = session.ws, None
        if ws is not None:
            await ws.close(code=4000, message=b"reconnect")

    def _guild(self, guild: int = GUILD) -> dict:
        return {"id": str(guild), "name": "Draughts club" if guild == GUILD else "Second club", "owner_id": ANA["id"], "icon": None, "splash": None,
                "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0,
                "roles": [{"id": str(guild), "name": "@everyone", "permissions": str(EVERYONE), "position": 0,
                           "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
                "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "system_channel_id": None,
                "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "description": None,
                "banner": None, "premium_tier": 0, "preferred_locale": self.guild_locale, "public_updates_channel_id": None,
                "nsfw_level": 0, "premium_progress_bar_enabled": False, "joined_at": now(), "large": False,
                "unavailable": False, "member_count": len(self.people), "voice_states": [], "presences": [],
                "members": [self._member(u) for u in self.people.values()],
                "channels": [c for c in self.channels.values() if c["type"] == 0 and c["guild_id"] == str(guild)],
                "threads": [],
                "stage_instances": [], "guild_scheduled_events": []}

    @staticmethod
    def _member(person: dict, with_user: bool = True) -> dict:
        member = {"roles": [], "joined_at": now(), "deaf": False, "mute": False, "flags": 0, "nick": None}
        if with_user:
            member["user"] = person
        return member

    # people

    async def say(self, person: dict, channel: int, content: str) -> dict:
        """``person`` types ``content`` in ``channel``."""
        mentioned = [self.people[int(i)] for i in re.findall(r"<@!?(\d+)>", content) if int(i) in self.people]
        message = {"id": str(self.snowflake()), "channel_id": str(channel), "author": person, "content": content,
                   "timestamp": now(), "edited_timestamp": None, "tts": False, "mention_everyone": False,
                   "mentions": [{**m, "member": self._member(m, False)} for m in mentioned], "mention_roles": [],
                   "attachments": [], "embeds": [], "pinned": False, "type": 0, "flags": 0, "components": []}
        if self.channels.get(channel, {}).get("type", 0) != 1:
            message["guild_id"], message["member"] = str(self.guild_of(channel)), self._member(person, False)
        session = self.live(self.guild_of(channel))
        if not session.intents & MESSAGE_CONTENT and BOT not in mentioned and channel in self.channels \
                and self.channels[channel]["type"] != 1:
            message = {**message, "content": ""}
        await self.dispatch("MESSAGE_CREATE", message)
        return message

    async def slash(self, person: dict, channel: int, sub: str, group: str = "draughts", **options: Any) -> Interaction:
        """``person`` runs ``/draughts sub option:value ...`` (or another ``group``'s) in ``channel``."""
        command = next(c for c in self.commands if c["name"] == group)
        spec = next(o for o in command["options"] if o["name"] == sub)
        types = {o["name"]: o["type"] for o in spec.get("options", [])}
        given, resolved = [], {"users": {}, "members": {}}
        for name, value in options.items():
            if types[name] == 6:
                resolved["users"][value["id"]] = value
                resolved["members"][value["id"]] = self._member(value, False)
                value = value["id"]
            given.append({"name": name, "type": types[name], "value": value})
        data = {"id": command["id"], "name": group, "type": 1, "guild_id": str(self.guild_of(channel)),
                "options": [{"name": sub, "type": 1, "options": given}], "resolved": resolved}
        return await self._interact(2, person, channel, data)

    async def autocomplete(self, person: dict, channel: int, typed: str) -> Interaction:
        command = next(c for c in self.commands if c["name"] == "draughts")
        data = {"id": command["id"], "name": "draughts", "type": 1, "guild_id": str(self.guild_of(channel)),
                "options": [{"name": "move", "type": 1,
                             "options": [{"name": "move", "type": 3, "value": typed, "focused": True}]}]}
        return await self._interact(4, person, channel, data)

    async def press(self, person: dict, message: dict, label: str) -> Interaction:
        """``person`` presses the button labelled ``label`` under ``message``."""
        button = next(c for c in components(message) if c.get("label") == label)
        return await self._interact(3, person, int(message["channel_id"]),
                                    {"custom_id": button["custom_id"], "component_type": 2}, message)

    async def choose(self, person: dict, message: dict, value: str) -> Interaction:
        """``person`` picks ``value`` from the menu under ``message``."""
        menu = next(c for c in components(message) if c["type"] == 3)
        return await self._interact(3, person, int(message["channel_id"]),
                                    {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}, message)

    async def _interact(self, kind: int, person: dict, channel: int, data: dict, message: dict | None = None) -> Interaction:
        id = self.snowflake()
        record = Interaction(id, f"token-{id}", channel, kind, time.monotonic(),
                             message=int(message["id"]) if message else None)
        self.interactions[id] = record
        payload = {"id": str(id), "application_id": str(APP), "type": kind, "data": data, "token": record.token,
                   "version": 1, "channel_id": str(channel), "channel": self.channels[channel],
                   "locale": self.locales.get(person["id"], "en-US"), "guild_locale": self.guild_locale, "guild_id": str(self.guild_of(channel)),
                   "app_permissions": str(self.permissions(channel)),
                   "member": {**self._member(person), "permissions": str(self.member_permissions(person))},
                   "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [],
                   "authorizing_integration_owners": {"0": str(self.guild_of(channel))}, "context": 0}
        if message is not None:
            payload["message"] = {k: v for k, v in message.items() if not k.startswith("_")}
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    # what the bot posted

    def posted(self, channel: int | None = None, since: int = 0) -> list[dict]:
        return [m for m in self.posts[since:] if channel is None or int(m["channel_id"]) == channel]

    async def wait_for(self, test, since: int = 0, timeout: float = 30.0, what: str = "a message") -> dict:
        """The first message the bot posted at or after index ``since`` that passes ``test``; waits for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.posts[since:]:
                if test(m):
                    return m
            await asyncio.sleep(0.02)
        seen = "\n".join(text_of(m)[:160] for m in self.posts[since:])
        raise AssertionError(f"no {what} within {timeout} s; the bot posted:\n{seen}")

    async def answer(self, interaction: Interaction, timeout: float = 30.0) -> dict:
        """The message that answered ``interaction``: its response, or its first follow-up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.posts:
                if m.get("_interaction") == interaction.id and not m["flags"] & LOADING and not m.get("_deleted"):
                    return m
            await asyncio.sleep(0.02)
        raise AssertionError(f"interaction {interaction.id} got no answer; callbacks {interaction.callbacks}")

    # REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        self.requests.append((request.method, path))
        if not path.startswith(("/interactions/", "/webhooks/")) and request.headers.get("Authorization") != f"Bot {self.token}":
            return error(401, 0, "401: Unauthorized")
        for i, (method, pattern) in enumerate(self._hang_ups):
            if method == request.method and pattern.fullmatch(path):
                del self._hang_ups[i]
                self.hung_up += 1
                assert request.transport is not None
                request.transport.close()
                return web.Response(status=500)  # never sent: the connection is gone
        for i, (method, pattern, retry_after) in enumerate(self._limits):
            if method == request.method and pattern.fullmatch(path):
                del self._limits[i]
                self.limited += 1
                return json_response({"message": "You are being rate limited.", "retry_after": retry_after,
                                      "global": False}, 429,
                                     {"Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))),
                                      "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                                      "X-RateLimit-Reset-After": str(retry_after), "X-RateLimit-Bucket": "emulated",
                                      "X-RateLimit-Scope": "user"})
        for method, pattern, handler in self._routes():
            match = re.fullmatch(pattern, path)
            if method == request.method and match:
                return await handler(request, *match.groups())
        return error(404, 0, f"the emulator has no {request.method} {path}")

    def _routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("GET", r"/users/@me", self._me),
            ("GET", r"/users/(\d+)", self._user),
            ("GET", r"/oauth2/applications/@me", self._application),
            ("GET", r"/gateway/bot", self._gateway_bot),
            ("GET", r"/gateway", self._gateway_plain),
            ("PUT", r"/applications/\d+/commands", self._sync),
            ("POST", r"/channels/(\d+)/messages", self._create),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self._edit),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", self._delete),
            ("POST", r"/channels/(\d+)/threads", self._thread),
            ("POST", r"/guilds/(\d+)/scheduled-events", self._scheduled_event),
            ("PATCH", r"/guilds/(\d+)/scheduled-events/(\d+)", self._edit_scheduled_event),
            ("PUT", r"/channels/(\d+)/thread-members/(@me|\d+)", self._no_content),
            ("DELETE", r"/channels/(\d+)", self._delete_channel),
            ("POST", r"/users/@me/channels", self._direct),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._callback),
            ("POST", r"/webhooks/\d+/([^/]+)", self._follow_up),
            ("GET", r"/webhooks/\d+/([^/]+)/messages/@original", self._original),
            ("PATCH", r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)", self._edit_by_token),
            ("DELETE", r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)", self._delete_by_token),
        ]

    async def _me(self, request: web.Request) -> web.Response:
        return json_response(BOT)

    async def _user(self, request: web.Request, user: str) -> web.Response:
        person = self.people.get(int(user))
        return json_response(person) if person is not None else error(404, 10013, "Unknown User")

    async def _application(self, request: web.Request) -> web.Response:
        return json_response({"id": str(APP), "name": "Draughts", "icon": None, "description": "", "bot_public": True,
                              "bot_require_code_grant": False, "owner": ANA, "verify_key": "0" * 64, "flags": 0,
                              "team": None, "summary": "", "rpc_origins": []})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})

    async def _gateway_plain(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _sync(self, request: web.Request) -> web.Response:
        commands = await request.json()
        for command in commands:  # Discord's limits: 25 options (subcommands) a command, 25 choices an option
            for option in [command, *command.get("options", [])]:
                if len(option.get("options", [])) > 25 or len(option.get("choices", [])) > 25:
                    return error(400, 50035, f"Invalid Form Body: {option['name']} has more than 25 options "
                                             "or choices")
                for choice_holder in option.get("options", []):
                    if len(choice_holder.get("choices", [])) > 25:
                        return error(400, 50035, f"Invalid Form Body: {choice_holder['name']} has more than 25 "
                                                 "choices")
        self.commands = []
        for command in commands:
            self.commands.append({**command, "id": str(self.snowflake()), "application_id": str(APP), "version": "1"})
        return json_response(self.commands)

    async def _body(self, request: web.Request) -> tuple[dict, list[tuple[str, bytes, str]]]:
        """A request's JSON payload and its files: (filename, bytes, content type) each."""
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = json.loads(str(form["payload_json"]))
            files = [(f.filename, f.file.read(), f.content_type) for key, f in form.items()
                     if key.startswith("files[")]  # type: ignore[union-attr]
            return payload, files
        return (await request.json() if request.can_read_body else {}), []

    def _message(self, channel: int, payload: dict, files: list, interaction: int | None = None,
                 flags: int = 0) -> dict:
        attachments = []
        for filename, data, content_type in files:
            id = self.snowflake()
            self.files[id] = data
            attachments.append({"id": str(id), "filename": filename, "size": len(data), "content_type": content_type,
                                "url": f"http://127.0.0.1:{self.port}/attachments/{id}/{filename}",
                                "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{id}/{filename}"})
        message = {"id": str(self.snowflake()), "channel_id": str(channel), "author": BOT,
                   "content": payload.get("content") or "", "timestamp": now(), "edited_timestamp": None,
                   "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
                   "attachments": attachments, "embeds": payload.get("embeds") or [], "pinned": False,
                   "type": 0 if interaction is None else 20, "flags": flags | (payload.get("flags") or 0),
                   "components": payload.get("components") or [],
                   "_files": {filename: data for filename, data, _ in files}, "_interaction": interaction,
                   "_mentions": payload.get("allowed_mentions")}
        if self.channels.get(channel, {}).get("type", 0) != 1:
            message["guild_id"] = str(self.guild_of(channel))
        if "message_reference" in payload:
            message["message_reference"] = payload["message_reference"]
            message["type"] = 19
        self.messages[int(message["id"])] = message
        self.posts.append(message)
        return message

    @staticmethod
    def public(message: dict) -> dict:
        return {k: v for k, v in message.items() if not k.startswith("_")}

    async def _create(self, request: web.Request, channel: str) -> web.Response:
        payload, files = await self._body(request)
        id = int(channel)
        if id not in self.channels:
            return error(404, 10003, "Unknown Channel")
        allowed = self.permissions(id) if self.channels[id]["type"] != 1 else SEND | ATTACH | EMBED
        if not allowed & SEND or (files and not allowed & ATTACH):
            return error(403, 50013, "Missing Permissions")
        return json_response(self.public(self._message(id, payload, files)))

    def _apply_edit(self, message: dict, payload: dict, files: list) -> dict:
        message.setdefault("_versions", []).append(  # what people saw before, oldest first
            {"content": message["content"], "embeds": message["embeds"], "_files": dict(message["_files"])})
        for key in ("content", "embeds", "components"):
            if key in payload:
                message[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "attachments" in payload:
            keep = {str(a["id"]) for a in payload["attachments"]}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in keep]
        if files:
            new = self._message(int(message["channel_id"]), {}, files)
            self.posts.remove(new)
            message["attachments"] += new["attachments"]
            message["_files"] = {**message["_files"], **new["_files"]}
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = now()
        message.setdefault("_edits", 0)
        message["_edits"] += 1
        return message

    async def _edit(self, request: web.Request, channel: str, message_id: str) -> web.Response:
        payload, files = await self._body(request)
        message = self.messages.get(int(message_id))
        if message is None or message.get("_deleted") or message["flags"] & EPHEMERAL:
            return error(404, 10008, "Unknown Message")
        return json_response(self.public(self._apply_edit(message, payload, files)))

    async def _delete(self, request: web.Request, channel: str, message_id: str) -> web.Response:
        message = self.messages.get(int(message_id))
        if message is None or message.get("_deleted"):
            return error(404, 10008, "Unknown Message")
        message["_deleted"] = True
        return web.Response(status=204)

    async def _no_content(self, request: web.Request, *args: str) -> web.Response:
        return web.Response(status=204)

    async def _thread(self, request: web.Request, parent: str) -> web.Response:
        payload = await request.json()
        if not self.permissions(int(parent)) & THREADS:  # Create Public Threads
            return error(403, 50013, "Missing Permissions")
        id = self.snowflake()
        thread = {"id": str(id), "type": 11, "guild_id": str(self.guild_of(int(parent))), "parent_id": parent,
                  "name": payload["name"],
                  "owner_id": BOT["id"], "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
                  "last_message_id": None, "flags": 0,
                  "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": now(),
                                      "locked": False}}
        self.channels[id] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return json_response(thread, 201)

    async def _scheduled_event(self, request: web.Request, guild: str) -> web.Response:
        payload = await request.json()
        if not payload.get("name") or not payload.get("scheduled_start_time"):
            return error(400, 50035, "Invalid Form Body")
        if payload.get("entity_type") == 3 and not (payload.get("entity_metadata") or {}).get("location"):
            return error(400, 50035, "Invalid Form Body: an external event needs a location")
        event = {"id": str(self.snowflake()), "guild_id": guild, "channel_id": None, "creator_id": BOT["id"],
                 "creator": BOT, "name": payload["name"], "description": payload.get("description"),
                 "scheduled_start_time": payload["scheduled_start_time"],
                 "scheduled_end_time": payload.get("scheduled_end_time"), "privacy_level": payload["privacy_level"],
                 "status": 1, "entity_type": payload["entity_type"], "entity_id": None,
                 "entity_metadata": payload.get("entity_metadata"), "user_count": 0, "image": None}
        self.events.append(event)
        await self.dispatch("GUILD_SCHEDULED_EVENT_CREATE", event)
        return json_response(event)

    async def _edit_scheduled_event(self, request: web.Request, guild: str, id: str) -> web.Response:
        """A scheduled event's status changed as Discord allows it: scheduled (1) to active (2) or canceled (4),
        active to completed (3)."""
        payload = await request.json()
        event = next((e for e in self.events if e["id"] == id and e["guild_id"] == guild), None)
        if event is None:
            return error(404, 10070, "Unknown Guild Scheduled Event")
        status = payload.get("status", event["status"])
        if status != event["status"] and (event["status"], status) not in ((1, 2), (1, 4), (2, 3)):
            return error(400, 180000, "Cannot update event status")
        event.update({k: v for k, v in payload.items() if k in ("status", "name", "description")})
        await self.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return json_response(event)

    async def _delete_channel(self, request: web.Request, channel: str) -> web.Response:
        thread = self.channels.pop(int(channel), None)
        if thread is None:
            return error(404, 10003, "Unknown Channel")
        await self.dispatch("THREAD_DELETE", {"id": thread["id"], "guild_id": thread["guild_id"],
                                              "parent_id": thread.get("parent_id"), "type": thread["type"]})
        return json_response(thread)

    async def _direct(self, request: web.Request) -> web.Response:
        recipient = self.people[int((await request.json())["recipient_id"])]
        existing = [c for c in self.channels.values() if c["type"] == 1 and c["recipients"][0]["id"] == recipient["id"]]
        if existing:
            return json_response(existing[0])
        id = self.snowflake()
        self.channels[id] = {"id": str(id), "type": 1, "recipients": [recipient], "last_message_id": None}
        return json_response(self.channels[id])

    def _by_token(self, token: str) -> Interaction | None:
        return next((i for i in self.interactions.values() if i.token == token), None)

    @staticmethod
    def _expired() -> web.Response:
        return error(401, 50027, "Invalid Webhook Token")

    async def _callback(self, request: web.Request, id: str, token: str) -> web.Response:
        interaction = self.interactions.get(int(id))
        if interaction is None or interaction.token != token:
            return error(404, 10062, "Unknown interaction")
        if interaction.answered is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        payload, files = await self._body(request)
        interaction.answered = time.monotonic()
        interaction.callbacks.append(payload)
        kind, data = payload["type"], payload.get("data") or {}
        message = None
        if kind in (4, 5):  # a message, or "thinking..." to be filled in later
            flags = LOADING if kind == 5 else 0
            message = self._message(interaction.channel, data, files, interaction.id, flags)
            interaction.original = message
        elif kind == 7:  # update the message the component is on
            assert interaction.message is not None
            message = self._apply_edit(self.messages[interaction.message], data, files)
        elif kind == 8:
            interaction.choices = data.get("choices", [])
        result: dict = {"interaction": {"id": id, "type": interaction.kind,
                                        "response_message_id": message["id"] if message else None,
                                        "response_message_loading": kind == 5,
                                        "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL)}}
        if message is not None:
            result["resource"] = {"type": kind, "message": self.public(message)}
        return json_response(result)

    async def _follow_up(self, request: web.Request, token: str) -> web.Response:
        interaction = self._by_token(token)
        if interaction is None or interaction.answered is None:
            return error(404, 10015, "Unknown Webhook")
        if interaction.expired:
            return self._expired()
        payload, files = await self._body(request)
        return json_response(self.public(self._message(interaction.channel, payload, files, interaction.id)))

    async def _original(self, request: web.Request, token: str) -> web.Response:
        interaction = self._by_token(token)
        if interaction is None or interaction.original is None:
            return error(404, 10008, "Unknown Message")
        return json_response(self.public(interaction.original))

    async def _edit_by_token(self, request: web.Request, token: str, which: str) -> web.Response:
        interaction = self._by_token(token)
        if interaction is not None and interaction.expired:
            return self._expired()
        message = (interaction.original if which == "@original" else self.messages.get(int(which))) if interaction else None
        if message is None or message.get("_deleted"):
            return error(404, 10008, "Unknown Message")
        payload, files = await self._body(request)
        return json_response(self.public(self._apply_edit(message, payload, files)))

    async def _delete_by_token(self, request: web.Request, token: str, which: str) -> web.Response:
        interaction = self._by_token(token)
        message = (interaction.original if which == "@original" else self.messages.get(int(which))) if interaction else None
        if message is None or message.get("_deleted"):
            return error(404, 10008, "Unknown Message")
        message["_deleted"] = True
        return web.Response(status=204)


def components(message: dict) -> list[dict]:
    """The buttons and menus of a message, rows flattened."""
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def text_of(message: dict) -> str:
    """A message's words: its content and its embeds' descriptions."""
    parts = [message.get("content") or ""] + [e.get("description") or "" for e in message.get("embeds", [])]
    return "\n".join(p for p in parts if p)
