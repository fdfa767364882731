"""Bringing projections up to their logs: state, views, snapshots and read models, idempotently.

A run takes any number of matches and costs a handful of round trips whatever their number: it
reads their projected positions, then the events after each checkpoint, folds them, and writes
each match's new position, views and snapshots with one compare-and-set script on its
checkpoint (projections/project.lua), so everything that must be atomic stays in the match's own
slot. The read models (indexes, player statistics; projections.readmodels) are cross-match keys:
they are written after, from the same summary, and a match leaves the dirty set only after
them. A run repeated, or killed half way and retried, leaves the same result; of two runs at
once only one writes a given checkpoint (the other leaves the match dirty, or folds again).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import redis

from events.codec import dumps
from events.envelope import StoredEvent
from events.errors import UnknownMatch
from events.servers import on_servers
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections import tape
from projections.cache import ProjectionCache, snapshot_member
from projections.reader import MatchReader
from projections.readmodels import ReadModels
from projections.summary import summary_of
from projections.tape import Position

DEFAULT_SNAPSHOT_EVERY = 100
# Events read per match and round trip; a longer tail is read on in further round trips.
TAIL = 1000


@cache
def _script_source() -> str:
    return files("projections").joinpath("project.lua").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Projected:
    """What one projection run did for one match."""

    match_id: str
    checkpoint: int
    folded: int
    caught_up: bool


@dataclass
class _Run:
    """One match's part of a run: where its fold started and what it produced."""

    match_id: str
    game: Game
    header: dict[str, str]
    start: int
    pos: Position
    snapshots: list[str]
    written: bool = False
    caught_up: bool = False
    summary: dict[str, Any] | None = None

    @property
    def folded(self) -> int:
        """Steps this run folded."""
        return int(self.pos["version"]) - self.start

    @property
    def current(self) -> bool:
        """Whether the stored projection is now this run's position (written, or nothing new)."""
        return self.written or self.folded == 0

    @property
    def conflict(self) -> bool:
        """Another run wrote the projection first: this one's fold was not stored."""
        return not self.current

    def projected(self) -> Projected:
        """What the run did, as callers see it."""
        checkpoint = int(self.pos["version"]) if self.current else self.start
        return Projected(self.match_id, checkpoint, self.folded if self.written else 0, self.caught_up)


class Projector:
    """Keeps matches' projections equal to what their logs say."""

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
        self._script = self.client.register_script(_script_source())

    def project(self, match_id: str) -> Projected:
        """Fold the events after the checkpoint and write the result; again if another run wrote."""
        while True:
            runs = self._run([match_id])
            if not runs:
                raise UnknownMatch(match_id)
            if not runs[0].conflict:
                return runs[0].projected()

    def project_many(self, match_ids: list[str]) -> list[Projected]:
        """One run over several matches; unknown ones are dropped from the dirty set and skipped."""
        return [run.projected() for run in self._run(match_ids)]

    def _run(self, match_ids: list[str]) -> list[_Run]:
        runs = self._start(match_ids)
        tails = self.store.read_tails({r.match_id: r.start + 1 for r in runs}, TAIL)
        for run in runs:
            self._fold(run, tails[run.match_id])
        self._write(runs)
        self._settle(runs)
        return runs

    def _start(self, match_ids: list[str]) -> list[_Run]:
        runs, unknown = [], []
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.proj(match_id), "env")
            stored = pipe.execute()
        headers = self.store.headers(match_ids)
        for match_id, raw in zip(match_ids, stored, strict=True):
            header = headers.get(match_id)
            if header is None:
                unknown.append(match_id)
                continue
            pos = json.loads(raw) if raw is not None else copy.deepcopy(tape.empty())
            game = get_game(header["game"])
            runs.append(_Run(match_id, game, header, pos["version"], pos, []))
        if unknown:
            # A write refused for want of a match still marked it: nothing will ever project it.
            self.client.srem(self.keys.dirty(), *unknown)
        return runs

    def _fold(self, run: _Run, events: list[StoredEvent]) -> None:
        # Batch ends are kept (a bounded window and a mark every interval), so a correction is a
        # lookup or a short fold, never a fold from step 1.
        playing = self.reader.tape_from(run.game, run.match_id, run.pos, keep=True)
        while events:
            for event in events:
                pos = playing.advance(event)
                if event.seq % self.snapshot_every == 0:
                    run.snapshots.append(snapshot_member(pos))
            if len(events) < TAIL:
                break
            events = self.store.read(run.match_id, events[-1].seq + 1, count=TAIL)
        run.pos = playing.position

    def _write(self, runs: list[_Run]) -> None:
        """Each match's compare-and-set, all in one round trip; then the read models, in another."""
        writes = []
        for run in runs:
            state = run.pos["game"]
            scores = run.game.scores(copy.deepcopy(state))
            run.summary = summary_of(run.match_id, run.header, run.game, state, scores, run.pos["version"])
            if run.folded == 0:
                continue
            args = [run.start, run.pos["version"], dumps(run.pos), dumps(run.game.view(state))]
            args += [dumps(scores), dumps(run.summary)]
            for member in run.snapshots:
                args += [int(member.split("|", 1)[0]), member]
            writes.append((run, [self.keys.proj(run.match_id), self.keys.snap(run.match_id)], args))
        for (run, _, _), reply in zip(writes, self._compare_and_set(writes), strict=True):
            run.written = bool(reply)
        # Cross-match keys, after the per-match writes: a run killed in between leaves the match
        # dirty, and the next run writes them again from the same summary.
        with self.client.pipeline(transaction=False) as pipe:
            for run in runs:
                if run.current and run.summary is not None and run.pos["version"] > 0:
                    self.models.write(pipe, run.match_id, run.summary, float(run.header.get("created_ms", 0)))
            pipe.execute()

    def _compare_and_set(self, writes: list[tuple[_Run, list[str], list[Any]]]) -> list[Any]:
        # Each to its match's server (one round trip on one Redis, one per master on a cluster,
        # whose client pipelines no scripts); a server that forgot the script is given it again.
        groups = [
            (keys[0], [("EVALSHA", self._script.sha, len(keys), *keys, *args)]) for _, keys, args in writes
        ]
        replies = [found[0] for found in on_servers(self.client, groups, [_script_source()])]
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return replies

    def _settle(self, runs: list[_Run]) -> None:
        """Take the matches whose projection reached their log off the dirty set."""
        done = [r for r in runs if r.current]
        if not done:
            return
        # Off first, then the version: a write after the check marks the match again itself,
        # so a mark is never lost, and no transaction spans two slots.
        self.client.srem(self.keys.dirty(), *[r.match_id for r in done])
        with self.client.pipeline(transaction=False) as pipe:
            for run in done:
                pipe.hget(self.keys.meta(run.match_id), "version")
            versions = pipe.execute()
        behind = [r for r, v in zip(done, versions, strict=True) if int(v or 0) != r.pos["version"]]
        if behind:
            self.client.sadd(self.keys.dirty(), *[r.match_id for r in behind])
        for run in done:
            run.caught_up = run not in behind
