"""Rebuilding projections from the logs: state, snapshots, indexes and player statistics.

The log is the only source of truth. A rebuild takes one match at a time: it drops everything
derived from that match (its projection hash, its snapshots, its index entries and its entries in
its players' statistics) and projects it again from step 1. Matches are independent, so a rebuild
may be stopped and started again; a worker projecting the same match meanwhile writes the same
result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from projections.projecting.projector import Projected, Projector
from projections.projecting.summary import readable


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild of every match did."""

    matches: int
    events: int
    finished: int


def rebuild_match(projector: Projector, match_id: str) -> Projected | None:
    """Drop the match's derived data and project it from step 1; None when there is no such log."""
    store = projector.store
    if not store.exists(match_id):
        # A registry entry whose create failed: it has no log, and nothing derived from one.
        return None
    first = store.read(match_id, 1, 1)
    players = set(first[0].data.get("players", [])) if first else set()
    old = readable(projector.client.hget(projector.keys.proj(match_id), "summary"))
    if old is not None:
        # Whatever an earlier projection listed goes too, even if the log would not list it now
        # (a summary that cannot be read names nobody: the log's players are erased).
        players |= {p for p in old["players"] if isinstance(p, str)}
    # Not a transaction: the match's keys and the cross-match ones are other slots on a cluster.
    # A rebuild killed half way leaves what `verify` reports and the next rebuild mends; the
    # match is marked dirty first, so the workers project it again meanwhile.
    projector.marks.mark([match_id])
    with projector.client.pipeline(transaction=False) as pipe:
        projector.models.erase(pipe, match_id, store.header(match_id).get("game", ""), sorted(players))
        pipe.execute()
    return projector.project(match_id)


def rebuild_all(projector: Projector, on_match: Callable[[str], None] | None = None) -> Rebuilt:
    """Rebuild every match's projections from its log; ``on_match`` is told of each one done."""
    matches = events = finished = 0
    for match_id in list(projector.store.all_ids()):
        done = rebuild_match(projector, match_id)
        matches += 1
        if done is not None:
            events += done.folded
            summary = readable(projector.client.hget(projector.keys.proj(match_id), "summary"))
            finished += int(bool(summary and summary["finished"]))
        if on_match is not None:
            on_match(match_id)
    return Rebuilt(matches, events, finished)
