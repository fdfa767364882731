"""Finished matches in BG Stats' own shapes: its export file, and its createPlay link.

The file is what BG Stats itself exports and imports (its "backup" JSON): ``games``,
``players``, ``locations`` and ``plays``, each with an integer ``id`` and a ``uuid``; a play
names its game and location by ``gameRefId`` / ``locationRefId`` and each seat by
``playerScores[].playerRefId``, with ``score`` (text), ``winner``, ``rank``, ``startPlayer``,
``seatOrder``, ``role`` and ``team``. The link is ``https://app.bgstatsapp.com/createPlay.html
?data=<JSON>`` with one play whose game and players are inline. docs/history.md names the public
descriptions these shapes were checked against.

Every uuid is derived from what it names (a match, a player's name, a game, a place), so exporting
the same matches again gives the same uuids and BG Stats updates its plays instead of doubling them.
Times are local to the match's time zone (BG Stats shows the time as written).
"""

from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

from games.contract import Game
from games.players import left_of, name_key
from projections.positions import tape
from projections.positions.rewind import Positions

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE = "tabletape"
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:tabletape:bgstats")
# BoardGameGeek ids, only where a public source confirms them (docs/history.md says which); an
# operator adds the others (TABLETAPE_BGG_IDS), else the game exports bggId 0 and BG Stats matches
# it by name.
BGG_IDS: dict[str, int] = {"wizard": 1465}
WHEN = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class Seat:
    """One player's line of a play."""

    name: str
    seat: int
    score: str
    winner: bool
    rank: int
    start: bool
    role: str
    team: str


@dataclass(frozen=True)
class Play:
    """A finished match, as BG Stats records a play."""

    match_id: str
    game: Game
    begun: datetime
    minutes: int
    location: str
    rounds: int
    no_points: bool
    teams: bool
    seats: list[Seat]
    bgg_id: int | None = None


def finished_play(positions: Positions, match_id: str, bgg_ids: dict[str, int] | None = None) -> Play | None:
    """The facts of a finished match that a play holds; None while it is unfinished. ``bgg_ids``:
    BoardGameGeek ids configured beside tabletape's own."""
    game, pos = positions.head(match_id)
    board = game.scores(copy.deepcopy(pos["game"]))
    if not board.get("finished"):
        return None
    header = positions.store.header(match_id)
    events = [e for e in positions.store.iter_events(match_id) if tape.is_effective(pos, e.seq)]
    zone = ZoneInfo(header.get("timezone") or "UTC")
    begun, ended = _moment(events[0].meta.get("ts"), zone), _moment(events[-1].meta.get("ts"), zone)
    players = list(pos["game"].get("players", []))
    setup = events[0].data.get("setup") or {} if events[0].type == "MatchCreated" else {}
    seats = _seats(players, board, _starter(players, events) or _first_dealers_left(players, setup))
    return Play(
        match_id=match_id,
        game=game,
        begun=begun,
        minutes=max(1, round((ended - begun).total_seconds() / 60)),
        location=header.get("location") or "",
        rounds=len(board.get("rounds") or []),
        no_points="totals" not in board,
        teams=any(seat.team for seat in seats),
        seats=seats,
        bgg_id=(BGG_IDS | (bgg_ids or {})).get(game.id),
    )


def export_file(plays: list[Play]) -> dict[str, Any]:
    """BG Stats' export file holding these plays, their games, players and locations."""
    games = _numbered({p.game.id: p for p in plays}, lambda key, p: _game(p))
    names = {name_key(s.name): s.name for p in plays for s in p.seats}
    players = _numbered(names, lambda key, name: _player(key, name))
    places = _numbered({p.location: p.location for p in plays if p.location}, lambda k, n: _place(n))
    ids = {"game": _ids(games), "player": _ids(players), "place": _ids(places)}
    return {
        "about": f"exported by {SOURCE}: {len(plays)} plays",
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(places.values()),
        "plays": [_file_play(p, ids) for p in plays],
    }


def create_play_link(play: Play) -> str:
    """BG Stats' createPlay URL that opens the play, ready to save, in the app."""
    data: dict[str, Any] = {
        "sourceName": SOURCE,
        "sourcePlayId": play.match_id,
        "playDate": play.begun.strftime(WHEN),
        "durationMin": play.minutes,
        "game": _link_game(play),
        "players": [_link_seat(s) for s in play.seats],
    }
    if play.location:
        data["location"] = play.location
    return CREATE_PLAY + quote(json.dumps(data, separators=(",", ":"), ensure_ascii=False), safe="")


# --- private helpers ----------------------------------------------------------------------------


def _seats(players: list[str], board: dict[str, Any], starter: str | None) -> list[Seat]:
    totals = board.get("totals") or {}
    winners = set(board.get("winners") or [])
    team_of = _teams(players, board)
    roles = {n: str(c.get("character", "")).title() for n, c in (board.get("characters") or {}).items()}
    group = {n: team_of.get(n, n) for n in players}
    group_score = {g: sum(totals.get(n, 0) for n in players if group[n] == g) for g in group.values()}
    return [
        Seat(
            name=name,
            seat=seat,
            score=str(totals[name]) if name in totals else "",
            winner=name in winners,
            rank=_rank(name in winners, group_score[group[name]], group_score, bool(totals)),
            start=name == starter,
            role=roles.get(name, ""),
            team=team_of.get(name, ""),
        )
        for seat, name in enumerate(players, start=1)
    ]


def _teams(players: list[str], board: dict[str, Any]) -> dict[str, str]:
    """Each player's team: Hats partners, or a Hobbit character's side."""
    found: dict[str, str] = {}
    for number, team in enumerate(board.get("teams") or [], start=1):
        members = team.get("players", []) if isinstance(team, dict) else team
        found |= {name: str(number) for name in members}
    for name, character in (board.get("characters") or {}).items():
        if character.get("side"):
            found[name] = str(character["side"]).title()
    return found


def _rank(winner: bool, score: float, scores: dict[str, float], has_points: bool) -> int:
    if winner:
        return 1
    if not has_points:
        return 2
    # Competition ranking of the groups (players, or teams); a loser never shares first place.
    return max(2, 1 + sum(1 for other in scores.values() if other > score))


def _starter(players: list[str], events: list[Any]) -> str | None:
    # Tables may name players in any case ("HAL" for "hal"); the seat's spelling is the name.
    seats = {name_key(name): name for name in players}
    actors = (seats.get(name_key(str(e.meta.get("actor", "")))) for e in events)
    return next((name for name in actors if name is not None), None)


def _first_dealers_left(players: list[str], setup: dict[str, Any]) -> str | None:
    # A match recorded by its scores alone names nobody: the first dealer's left leads.
    dealer = {name.casefold(): name for name in players}.get(str(setup.get("first_dealer", "")).casefold())
    return left_of(players, dealer) if dealer else None


def _numbered(items: dict[str, Any], make: Any) -> dict[str, dict[str, Any]]:
    return {key: {"id": i} | make(key, value) for i, (key, value) in enumerate(items.items(), start=1)}


def _ids(table: dict[str, dict[str, Any]]) -> dict[str, int]:
    return {key: int(row["id"]) for key, row in table.items()}


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def _game(play: Play) -> dict[str, Any]:
    row: dict[str, Any] = {
        "uuid": _uuid("game", play.game.id),
        "name": play.game.title,
        "highestWins": not play.no_points,
        "noPoints": play.no_points,
        "cooperative": False,
        "usesTeams": play.teams,
        "bggId": play.bgg_id or 0,
    }
    if play.bgg_id:
        row["bggName"] = play.game.title
    return row


def _player(key: str, name: str) -> dict[str, Any]:
    return {"uuid": _uuid("player", key), "name": name, "isAnonymous": False}


def _place(name: str) -> dict[str, Any]:
    return {"uuid": _uuid("location", name), "name": name}


def _file_play(play: Play, ids: dict[str, dict[str, int]]) -> dict[str, Any]:
    when = play.begun.strftime(WHEN)
    row: dict[str, Any] = {
        "uuid": _uuid("play", play.match_id),
        "playDate": when,
        "entryDate": when,
        "durationMin": play.minutes,
        "gameRefId": ids["game"][play.game.id],
        "rounds": play.rounds,
        "usesTeams": play.teams,
        "ignored": False,
        "manualWinner": False,
        "board": f"{SOURCE} match {play.match_id}",
        "playerScores": [_file_seat(s, ids["player"]) for s in play.seats],
    }
    if play.location:
        row["locationRefId"] = ids["place"][play.location]
    return row


def _file_seat(seat: Seat, players: dict[str, int]) -> dict[str, Any]:
    return {
        "playerRefId": players[name_key(seat.name)],
        "score": seat.score,
        "winner": seat.winner,
        "rank": seat.rank,
        "newPlayer": False,
        "startPlayer": seat.start,
        "seatOrder": seat.seat,
        "role": seat.role,
        "team": seat.team,
    }


def _link_game(play: Play) -> dict[str, Any]:
    game: dict[str, Any] = {
        "name": play.game.title,
        "sourceGameId": play.game.id,
        "highestWins": not play.no_points,
        "noPoints": play.no_points,
    }
    if play.bgg_id:
        game["bggId"] = play.bgg_id
    return game


def _link_seat(seat: Seat) -> dict[str, Any]:
    return {
        "name": seat.name,
        "sourcePlayerId": name_key(seat.name),
        "score": seat.score,
        "winner": seat.winner,
        "rank": seat.rank,
        "startPlayer": seat.start,
        "seatOrder": seat.seat,
        "role": seat.role,
        "team": seat.team,
    }


def _moment(text: Any, zone: ZoneInfo) -> datetime:
    try:
        moment = datetime.fromisoformat(str(text))
    except ValueError:
        moment = datetime.fromtimestamp(0, UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone)
