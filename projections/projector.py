"""Bringing a match's projection up to its log: state, views, snapshots and indexes, idempotently.

One run reads the events after the projection's checkpoint, folds them, and writes the new
position, the view, the scoreboard, a snapshot every ``snapshot_every`` steps and the match's
read models (projections.readmodels) in one transaction guarded by the checkpoint. A run repeated,
or killed half way and retried, leaves the same result; two runs at once cannot both write (the
loser folds again).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import redis

from events.store import EventStore
from games.contract import Game
from projections import tape
from projections.cache import ProjectionCache, dumps, snapshot_member
from projections.reader import MatchReader
from projections.readmodels import ReadModels
from projections.summary import summary_of
from projections.tape import Position

DEFAULT_SNAPSHOT_EVERY = 100


@dataclass(frozen=True)
class Projected:
    """What one projection run did."""

    match_id: str
    checkpoint: int
    folded: int
    caught_up: bool


class Projector:
    """Keeps one match's projection equal to what its log says."""

    def __init__(
        self,
        reader: MatchReader,
        models: ReadModels,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
    ) -> None:
        self.reader = reader
        self.models = models
        self.store: EventStore = reader.store
        self.cache: ProjectionCache = reader.cache
        self.client: redis.Redis = reader.cache.client
        self.keys = reader.cache.keys
        self.snapshot_every = snapshot_every

    def project(self, match_id: str) -> Projected:
        """Fold the events after the checkpoint and write the result; retry if another run wrote."""
        while True:
            try:
                return self._project_once(match_id)
            except redis.WatchError:
                continue

    def _project_once(self, match_id: str) -> Projected:
        game = self.reader.game_of(match_id)
        header = self.store.header(match_id)
        with self.client.pipeline(transaction=True) as pipe:
            pipe.watch(self.keys.proj(match_id))
            start = self.cache.position(match_id) or tape.empty()
            folded_from = start["version"]
            # Rewinds are rare here: the reader finds them from the snapshots, so nothing is kept.
            playing = tape.Tape(game, start, lambda n: self.reader.position(game, match_id, n), keep=False)
            snapshots: list[str] = []
            for event in self.store.iter_events(match_id, folded_from + 1):
                pos = playing.advance(event)
                if event.seq % self.snapshot_every == 0:
                    snapshots.append(snapshot_member(pos))
            pos = playing.position
            pipe.multi()
            summary = self._write(pipe, game, match_id, header, pos, snapshots)
            pipe.execute()
        self._write_models(match_id, float(header.get("created_ms", 0)), summary)
        caught_up = self._clear_dirty(match_id, pos["version"])
        return Projected(match_id, pos["version"], pos["version"] - folded_from, caught_up)

    def _write(
        self,
        pipe: Any,
        game: Game,
        match_id: str,
        header: dict[str, str],
        pos: Position,
        snapshots: list[str],
    ) -> dict[str, Any]:
        state = pos["game"]
        scores = game.scores(copy.deepcopy(state))
        summary = summary_of(match_id, header, game, state, scores, pos["version"])
        pipe.hset(
            self.keys.proj(match_id),
            mapping={
                "checkpoint": pos["version"],
                "env": dumps(pos),
                "view": dumps(game.view(state)),
                "scores": dumps(scores),
                "summary": dumps(summary),
            },
        )
        for member in snapshots:
            pipe.zadd(self.keys.snap(match_id), {member: int(member.split("|", 1)[0])})
        return summary

    def _write_models(self, match_id: str, created_ms: float, summary: dict[str, Any]) -> None:
        """Write the read models of the match's newest summary, after its own transaction.

        They are cross-match keys (other slots on a cluster), so no transaction joins them to the
        projection: a run that a newer one overtook meanwhile finds the newer summary stored and
        writes that one's, so the read models never end on an older summary than the projection.
        """
        while True:
            with self.client.pipeline(transaction=False) as pipe:
                self.models.write(pipe, match_id, summary, created_ms)
                pipe.execute()
            stored = self.cache.field(match_id, "summary")
            if stored is None or stored[1].get("version") == summary["version"]:
                return
            summary = stored[1]

    def _clear_dirty(self, match_id: str, checkpoint: int) -> bool:
        """Take the match off the dirty set if no step was appended since ``checkpoint``."""
        # The dirty set is in another slot than the match, so no transaction can join them:
        # off first, then the version read again. A write that came before the removal is seen
        # here (and the match goes back on); one that comes after marks it dirty again itself.
        if int(self.client.hget(self.keys.meta(match_id), "version") or 0) != checkpoint:
            return False
        self.client.srem(self.keys.dirty(), match_id)
        if int(self.client.hget(self.keys.meta(match_id), "version") or 0) != checkpoint:
            self.client.sadd(self.keys.dirty(), match_id)
            return False
        return True
