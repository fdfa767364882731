"""The read models derived from each match's summary: the indexes and the player statistics.

A match is listed in the index of its game, of each of its players and of its status (by
creation time), and, once finished, its summary is in each player's statistics hash, keyed by
match. This module is the one place that writes, erases and checks them, so the projector, a
rebuild and `tabletape verify` cannot disagree on what a summary implies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

import redis

from events.codec import dumps
from events.keys import Keys
from games.players import name_key
from projections.projecting.summary import STATUSES, readable

Summary = dict[str, Any]


class ReadModels:
    """Writes, erasures and checks of the indexes and statistics under one key prefix."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys

    def entries(self, summary: Summary) -> list[tuple[str, bool]]:
        """Each index key the match belongs in (True) or must be absent from (False)."""
        keys = self.keys
        found = [(keys.index("game", summary["game"]), True)]
        found += [(keys.index("player", name_key(name)), True) for name in summary["players"]]
        found += [(keys.index("status", s), s == summary["status"]) for s in STATUSES]
        return found

    def basis(self, summary: Summary, created_ms: float) -> str:
        """What ``write`` writes from, in short: two summaries with one basis write the same entries.

        The indexes take the game, the players and the status; the statistics the whole summary,
        once the match is finished. So a match in progress keeps its basis from step to step.
        """
        said = summary if summary["finished"] else {k: summary[k] for k in ("game", "players", "status")}
        return hashlib.blake2b(dumps([created_ms, said]).encode(), digest_size=12).hexdigest()

    def write(self, pipe: Any, match_id: str, summary: Summary, created_ms: float) -> None:
        """Queue on ``pipe`` what the summary says of the match's indexes and statistics."""
        for key, present in self.entries(summary):
            if present:
                pipe.zadd(key, {match_id: created_ms})
            else:
                pipe.zrem(key, match_id)
        for player in summary["players"]:
            if summary["finished"]:
                pipe.hset(self.keys.stats(name_key(player)), match_id, dumps(summary))
            else:
                pipe.hdel(self.keys.stats(name_key(player)), match_id)

    def erase(self, pipe: Any, match_id: str, game_id: str, players: Iterable[str]) -> None:
        """Queue on ``pipe`` the removal of everything derived from the match: projection included."""
        # One key per command: a cluster's pipeline sends each to the node that holds it.
        pipe.delete(self.keys.proj(match_id))
        pipe.delete(self.keys.carried(match_id))
        pipe.delete(self.keys.snap(match_id))
        pipe.zrem(self.keys.index("game", game_id), match_id)
        for status in STATUSES:
            pipe.zrem(self.keys.index("status", status), match_id)
        for player in players:
            pipe.zrem(self.keys.index("player", name_key(player)), match_id)
            pipe.hdel(self.keys.stats(name_key(player)), match_id)

    def differences(self, match_id: str, summary: Summary) -> list[tuple[str, str]]:
        """(what, why) of each index entry or statistic that disagrees with the summary."""
        entries = self.entries(summary)
        with self.client.pipeline(transaction=False) as pipe:
            for key, _present in entries:
                pipe.zscore(key, match_id)
            for player in summary["players"]:
                pipe.hget(self.keys.stats(name_key(player)), match_id)
            answers = pipe.execute()
        found = []
        for (key, present), score in zip(entries, answers, strict=False):
            if (score is not None) != present:
                found.append((f"index {key}", "should list the match" if present else "should not list it"))
        want = _plain(summary) if summary["finished"] else None
        for player, raw in zip(summary["players"], answers[len(entries) :], strict=True):
            if (readable(raw) if raw is not None else None) != want:
                found.append((f"stats of {player}", "differs from the match's summary"))
        return found


def _plain(value: Any) -> Any:
    """The value as it reads back from stored JSON."""
    return json.loads(dumps(value))
