"""Player statistics and leaderboards, computed from the match summaries the projector keeps.

The projector writes each finished match's summary into every one of its players' statistics hash,
keyed by match, and removes it again when an undo makes the match unfinished: so a projection run
repeated, or every match rebuilt from its log, leaves the same statistics. Reads aggregate those
summaries; ``aggregate`` and ``leaderboard`` are pure, so a test can recompute them from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import redis

from events.codec import as_text
from events.indexes import Indexes, in_every
from events.keys import Keys
from games.players import name_key
from projections.positions.stored import project_again
from projections.projecting.summary import FINISHED, IN_PROGRESS, once_per_origin, readable

Summary = dict[str, Any]


# --- pure aggregation ---------------------------------------------------------------------------


def aggregate(name: str, summaries: Iterable[Summary]) -> dict[str, Any]:
    """One player's figures over their finished matches: matches, wins, win rate, by game.

    A player is one person whatever the case of the name (``ann`` and ``ANN`` are one), shown
    under the spelling of their earliest match."""
    by_game: dict[str, list[Summary]] = {}
    mine = sorted(
        (s for s in once_per_origin(summaries) if s.get("finished") and _seat(name, s) is not None),
        key=lambda s: s.get("created_ms", 0),
    )
    for summary in mine:
        by_game.setdefault(summary["game"], []).append(summary)
    games = {game: _record(name, found) for game, found in sorted(by_game.items())}
    matches = sum(g["matches"] for g in games.values())
    wins = sum(g["wins"] for g in games.values())
    return {
        "name": _seat(name, mine[0]) if mine else name,
        "matches": matches,
        "wins": wins,
        "win_rate": _rate(wins, matches),
        "by_game": games,
    }


def leaderboard(game_id: str, summaries: Iterable[Summary]) -> list[dict[str, Any]]:
    """Every player of the game's finished matches, most wins first, then win rate, then name."""
    found = sorted(
        (s for s in once_per_origin(summaries) if s.get("finished") and s.get("game") == game_id),
        key=lambda s: s.get("created_ms", 0),
    )
    names: dict[str, str] = {}  # one row per person, under the spelling first used
    for summary in found:
        for player in summary["players"]:
            names.setdefault(name_key(player), player)
    rows = [
        {"name": n} | _record(n, [s for s in found if _seat(n, s) is not None])
        for n in sorted(names.values())
    ]
    rows.sort(key=lambda r: (-r["wins"], -r["win_rate"], r["name"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


# --- reads from the projections -----------------------------------------------------------------


class Statistics:
    """Reads of the per-player statistics hashes and the match indexes."""

    def __init__(self, client: redis.Redis, keys: Keys, credited_only: bool = False) -> None:
        self.client = client
        self.keys = keys
        self.indexes = Indexes(client, keys)
        # A deployment with credentials counts only the matches one created: an anonymous
        # import cannot move a player's figures or a leaderboard.
        self.credited_only = credited_only

    def player(self, name: str) -> dict[str, Any] | None:
        """A player's statistics, or None when no match names them."""
        raw = self.client.hgetall(self.keys.stats(name_key(name)))
        counted = self._counted([as_text(m) for m in raw])
        summaries = self._readable({as_text(m): value for m, value in raw.items() if as_text(m) in counted})
        playing = in_every(
            [self.indexes.entry("player", name_key(name)), self.indexes.entry("status", IN_PROGRESS)]
        )
        in_progress = self._counted([m for m, _ in playing])
        if not counted and not in_progress:
            return None
        return aggregate(name, summaries) | {"in_progress": len(in_progress)}

    def leaderboard(self, game_id: str) -> list[dict[str, Any]]:
        """The game's leaderboard over its finished matches."""
        found = in_every([self.indexes.entry("game", game_id), self.indexes.entry("status", FINISHED)])
        ids = sorted(self._counted([m for m, _ in found]))
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hget(self.keys.proj(match_id), "summary")
            summaries = pipe.execute()
        stored = {m: raw for m, raw in zip(ids, summaries, strict=True) if raw is not None}
        return leaderboard(game_id, self._readable(stored))

    def _readable(self, stored: dict[str, Any]) -> list[Summary]:
        """The summaries of ``stored`` (match id -> JSON) that read as summaries; the matches of
        the others are projected again from their logs (and count once that is done)."""
        found = {match_id: readable(raw) for match_id, raw in stored.items()}
        project_again(self.client, self.keys, [m for m, summary in found.items() if summary is None])
        return [summary for summary in found.values() if summary is not None]

    def _counted(self, match_ids: list[str]) -> set[str]:
        """The matches statistics count: all, or those a deployment credential created."""
        if not self.credited_only or not match_ids:
            return set(match_ids)
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hexists(self.keys.meta(match_id), "credential")
            made = pipe.execute()
        return {m for m, credited in zip(match_ids, made, strict=True) if credited}


# --- private helpers ----------------------------------------------------------------------------


def _seat(name: str, summary: Summary) -> str | None:
    """How the match spells the player ``name`` means (names are told apart by their key)."""
    key = name_key(name)
    return next((p for p in summary.get("players", []) if name_key(p) == key), None)


def _record(name: str, summaries: list[Summary]) -> dict[str, Any]:
    figures: dict[str, list[float]] = {}
    points: list[float] = []
    wins = 0
    for summary in summaries:
        seat = _seat(name, summary) or name
        wins += seat in summary.get("winners", [])
        for figure, value in (summary.get("figures") or {}).get(seat, {}).items():
            figures.setdefault(figure, []).append(float(value))
        totals = summary.get("totals")
        if isinstance(totals, dict) and isinstance(totals.get(seat), (int, float)):
            points.append(float(totals[seat]))
    record: dict[str, Any] = {
        "matches": len(summaries),
        "wins": wins,
        "win_rate": _rate(wins, len(summaries)),
        "figures": {f: round(sum(v) / len(v), 4) for f, v in sorted(figures.items())},
    }
    if points:
        record["average_points"] = round(sum(points) / len(points), 2)
    return record


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
