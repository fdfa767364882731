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
from events.indexes import Index, Indexes
from events.keys import Keys
from games.players import name_key
from projections.projecting.summary import STATUSES, readable

Summary = dict[str, Any]


class ReadModels:
    """Writes, erasures and checks of the indexes and statistics under one key prefix."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self.client = client
        self.keys = keys
        self.indexes = Indexes(client, keys)

    def entries(self, summary: Summary) -> list[tuple[Index, bool]]:
        """Each index the match belongs in (True) or must be absent from (False)."""
        entry = self.indexes.entry
        found = [(entry("game", summary["game"]), True)]
        found += [(entry("player", name_key(name)), True) for name in summary["players"]]
        found += [(entry("status", s), s == summary["status"]) for s in STATUSES]
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
        for index, present in self.entries(summary):
            if present:
                index.add({match_id: created_ms}, pipe)
            else:
                index.remove([match_id], pipe)
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
        self.indexes.entry("game", game_id).remove([match_id], pipe)
        for status in STATUSES:
            self.indexes.entry("status", status).remove([match_id], pipe)
        for player in players:
            self.indexes.entry("player", name_key(player)).remove([match_id], pipe)
            pipe.hdel(self.keys.stats(name_key(player)), match_id)

    def differences(self, match_id: str, summary: Summary) -> list[tuple[str, str]]:
        """(what, why) of each index entry or statistic that disagrees with the summary."""
        entries = self.entries(summary)
        with self.client.pipeline(transaction=False) as pipe:
            for index, _present in entries:
                pipe.zscore(index.key(match_id), match_id)
            for player in summary["players"]:
                pipe.hget(self.keys.stats(name_key(player)), match_id)
            answers = pipe.execute()
        found = []
        for (index, present), score in zip(entries, answers, strict=False):
            if (score is not None) != present:
                found.append(
                    (
                        f"index {index.key(match_id)}",
                        "should list the match" if present else "should not list it",
                    )
                )
        want = _plain(summary) if summary["finished"] else None
        for player, raw in zip(summary["players"], answers[len(entries) :], strict=True):
            if (readable(raw) if raw is not None else None) != want:
                found.append((f"stats of {player}", "differs from the match's summary"))
        return found


def _plain(value: Any) -> Any:
    """The value as it reads back from stored JSON."""
    return json.loads(dumps(value))
