"""The words of tournaments: a tournament's title, where it stands, and its standings."""

from __future__ import annotations

from bot.replies import Scheduled, Standings
from bot.tournament.event import Format, Standing, Status, Tournament, room_of
from bot.translation import Text, join, plural, tr
from bot.words import game_name


def title(t: Tournament) -> Text:
    """"Tournament #3: English Swiss, 3+2, 5 rounds, rated"."""
    kind = {Format.ARENA: plural("arena of {count} minute", "arena of {count} minutes", round(t.minutes)),
            Format.SWISS: plural("Swiss of {count} round", "Swiss of {count} rounds", t.rounds),
            Format.ROUND_ROBIN: tr("round robin")}[t.format]
    return tr("Tournament #{number}: {game} {kind}, {control}, {rated}", number=t.id, game=game_name(t.variant),
              kind=kind, control=t.control.words(), rated=tr("rated") if t.rated else tr("unrated"))


def describe(t: Tournament, now: float) -> Text:
    """What a tournament is, when it starts or how far it is, and its standings."""
    if t.status is Status.SCHEDULED:
        when = tr("It starts in {minutes} min; `tournament join` to play.", minutes=max(0, round((t.starts - now) / 60)))
    elif t.format is Format.ARENA:
        when = tr("Under way: {minutes} min left.", minutes=max(0, round((t.ends - now) / 60)))
    else:
        when = tr("Under way: round {round}.", round=t.round)
    return join([join([title(t) + ".", when]), standings_text(t)], "\n")


def standings_text(t: Tournament, top: int = 20) -> Text:
    """The standings, a line a player: place, name, points (and tie-breaks), marks for paused and withdrawn."""
    names = {e.id: e.name for e in t.players}
    standing = {e.id: e.standing for e in t.players}
    lines = []
    sheets = t.sheets() if t.format is Format.ARENA else {}  # (once, not once a line)
    for place, (player, score) in enumerate(t.standings()[:top], 1):
        mark = {Standing.PAUSED: tr(" (paused)"), Standing.OUT: tr(" (withdrawn)")}.get(standing.get(player, Standing.IN), "")
        if t.format is Format.ARENA:
            fire = tr(" (on fire)") if sheets[player].on_fire else ""
            lines.append(tr("{place}. {name}: {points}{fire}{mark}", place=place, name=names.get(player, player),
                            points=f"{score[0]:g}", fire=fire, mark=mark))
        else:
            lines.append(tr("{place}. {name}: {points} (Buchholz {buchholz}, Sonneborn-Berger {berger}){mark}",
                            place=place, name=names.get(player, player), points=f"{score[0]:g}",
                            buchholz=f"{score[1]:g}", berger=f"{score[2]:g}", mark=mark))
    if not lines:
        return tr("Nobody has joined yet.")
    return join([tr("Standings:"), *lines], "\n")


def room_label(channel: str) -> Text | None:
    """"Tournament #1, round 2, board 3" for a tournament game's room; None for any other channel."""
    room = room_of(channel)
    if room is None:
        return None
    tournament, rnd, board = room
    return tr("Tournament #{number}, round {round}, board {board}", number=tournament, round=rnd, board=board)


def standings_table(t: Tournament, when: Text) -> Standings:
    """The standings as a table (``bot.replies.Standings``) titled with ``t``'s name and ``when`` they stand."""
    names = {e.id: e.name for e in t.players}
    rows: list[tuple[str, ...]] = []
    sheets = t.sheets() if t.format is Format.ARENA else {}
    for place, (player, score) in enumerate(t.standings(), 1):
        if t.format is Format.ARENA:
            sheet = sheets[player]
            rows.append((str(place), names.get(player, player), " ".join(f"{s}" for s in sheet.scores[-12:]),
                         f"{score[0]:g}"))
        else:
            rows.append((str(place), names.get(player, player), f"{score[0]:g}", f"{score[1]:g}", f"{score[2]:g}"))
    header = ((tr("#"), tr("Player"), tr("Games"), tr("Points")) if t.format is Format.ARENA else
              (tr("#"), tr("Player"), tr("Points"), tr("Buchholz"), tr("Sonneborn-Berger")))
    return Standings(t.id, join([tr("Tournament #{number}", number=t.id), when], " · "), header, tuple(rows),
                     marked=min(3, len(rows)) if t.status is Status.FINISHED else 0)


def scheduled(t: Tournament, status: str) -> Scheduled:
    """``t`` as a server's scheduled event (``bot.replies.Scheduled``) at ``status``: its expected end an arena's
    length after its start, or two and a half times both clocks' start a round (seven rounds for a round robin)."""
    rounds = t.rounds if t.format is Format.SWISS else 7
    length = t.minutes * 60 if t.format is Format.ARENA else rounds * t.control.start * 2.5
    return Scheduled(t.id, title(t), t.starts, t.starts + max(length, 15 * 60), status)
