"""Bringing projections up to their logs: positions, summaries, snapshots and read models, idempotently.

A run takes any number of matches and costs a handful of round trips whatever their number, each
a script run for each match in its own slot (projections/projecting/*.lua; on one Redis one call runs it for
many matches, projections/projecting/many.lua): ``take`` leases the match (for a worker's
pass) and reads where its projection stands and the events after it; ``project`` writes the new
position, summary and snapshots with a compare-and-set on the checkpoint the fold started from;
``finish`` gives the lease back and reads the log's version once the match is off the dirty set.
A projector holds the positions it wrote, so the next run of a match whose checkpoint nobody else
moved reads and decodes no position. The read models (indexes, player statistics;
projections.readmodels.indexes) are cross-match keys: written after the match's own write, only when
what they say changed (the projection hash notes what they were last written from), and a match
leaves the dirty set only after them. A run repeated, or killed half way and retried, leaves the
same result; of two runs at once only one writes a given checkpoint (the other leaves the match
dirty, or folds again).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

import redis
from cachetools import LRUCache

from events.codec import as_text, dumps
from events.defaults import CALL_MATCHES, POSITIONS_HELD, SNAPSHOT_EVERY, TAIL_READ
from events.envelope import CarriedProjection, StoredEvent
from events.errors import UnknownMatch
from events.marks import Marks
from events.servers import Group, on_servers
from events.store import EventStore
from games.contract import Game, InvalidAction
from games.registry import get_game
from projections.positions import tape
from projections.positions.rewind import Positions
from projections.positions.stored import StoredProjections, snapshot_member
from projections.positions.tape import Position
from projections.projecting.summary import summary_of
from projections.readmodels.feed import FeedPublisher, public_steps
from projections.readmodels.indexes import ReadModels

_SCRIPTS = ("take", "project", "finish")
# The models field while a run writes read models it has not confirmed yet (finish.lua).
_PENDING = "pending:"
log = logging.getLogger("tabletape.projector")


@cache
def _source(name: str) -> str:
    """A projection script: its run of one match (``name``.lua) and the loop over a call's
    matches (many.lua)."""
    folder = files("projections.projecting")
    return "".join(folder.joinpath(part).read_text(encoding="utf-8") for part in (f"{name}.lua", "many.lua"))


@dataclass(frozen=True)
class Lease:
    """A pass's hold on the matches it projects: a token, kept for ``ms`` milliseconds at most."""

    token: str
    ms: int


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
    events: list[StoredEvent]
    # What the read models were last written from (the projection's models field), if noted.
    models: str | None
    snapshots: list[str] = field(default_factory=list)
    written: bool = False
    # Whether the run's end is done: its lease given back, its dirty mark taken off or kept.
    ended: bool = False
    caught_up: bool = False
    summary: dict[str, Any] | None = None
    # The read models this run writes, by their basis ("" when it writes none).
    basis: str = ""

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


@dataclass(eq=False)
class Projector:
    """Keeps matches' projections equal to what their logs say."""

    positions: Positions
    models: ReadModels
    snapshot_every: int = SNAPSHOT_EVERY
    # The global feed, published before a run's write: a match leaves the dirty set only after
    # its events are in the feed (projections.readmodels.feed). A write whose projection moves in
    # publishes its own steps in its append, and is not marked unless the feed was behind
    # (``carried``, events/append.lua).
    publisher: FeedPublisher | None = None

    def __post_init__(self) -> None:
        self.store: EventStore = self.positions.store
        self.stored: StoredProjections = self.positions.stored
        self.client: redis.Redis = self.stored.client
        self.keys = self.stored.keys
        self._sha = {name: self.client.register_script(_source(name)).sha for name in _SCRIPTS}
        # A position at a step never changes, so one held here is as good as the stored one
        # while the stored checkpoint is its step (take.lua then sends no position).
        self._held: LRUCache[str, Position] = LRUCache(maxsize=POSITIONS_HELD)
        # The read models' basis of matches in progress, by what it is worked out from.
        self._bases: dict[tuple[Any, ...], str] = {}
        self._lock = threading.Lock()
        # A cluster keeps the dirty marks in other slots than any match's keys, in shards.
        self._cluster = hasattr(self.client, "get_node_from_key")
        self.marks = Marks(self.client, self.keys)

    def project(self, match_id: str) -> Projected:
        """Fold the events after the checkpoint and write the result; again if another run wrote."""
        self.positions.game_of(match_id)  # UnknownMatch, or the refusal of a game there is no rules for
        while True:
            runs = self._run([match_id], None)
            if not runs:
                raise UnknownMatch(match_id)
            if not runs[0].conflict:
                return runs[0].projected()

    def project_many(self, match_ids: Sequence[str], lease: Lease | None = None) -> list[Projected]:
        """One run over several matches: with a ``lease``, over those no other run holds.

        Unknown matches, and matches of a game this process has no rules for, are dropped from
        the dirty set and skipped (the full sweep marks a match that is behind again).
        """
        return [run.projected() for run in self._run(match_ids, lease)]

    def _run(self, match_ids: Sequence[str], lease: Lease | None) -> list[_Run]:
        runs = self._take(match_ids, lease)
        token = uuid.uuid4().hex
        try:
            for run in runs:
                self._fold(run)
            if self.publisher is not None and runs:
                self.publisher.publish([r.match_id for r in runs], {r.match_id: r.pos for r in runs})
            self._write(runs, lease, token)
            self._finish(runs, lease, token)
        except BaseException:
            self._release(runs, lease)
            raise
        return runs

    def _take(self, match_ids: Sequence[str], lease: Lease | None) -> list[_Run]:
        headers = self.store.headers(match_ids)
        wanted, dropped = [], []
        for match_id in match_ids:
            game = self._game(match_id, headers.get(match_id))
            if game is None:
                dropped.append(match_id)
            else:
                wanted.append((match_id, game))
        if dropped:
            # A write refused for want of a match still marked it: nothing will ever project it.
            self.marks.unmark(dropped)
        token, ms = (lease.token, lease.ms) if lease is not None else ("", 0)
        with self._lock:
            # Claimed by this run alone (a position is folded in place), given back if not taken.
            held = {m: self._held.pop(m, None) for m, _ in wanted}
        calls = []
        for match_id, _ in wanted:
            known = held[match_id]
            keys = [self.keys.lease(match_id), self.keys.proj(match_id), self.keys.log(match_id)]
            step = "" if known is None else known["version"]
            calls.append((keys, [token, ms, step, TAIL_READ]))
        runs = []
        for (match_id, game), reply in zip(wanted, self._scripts("take", calls), strict=True):
            known = held[match_id]
            if reply is None:
                self._hold(match_id, known)  # another pass holds the match
                continue
            checkpoint, models, frozen, entries = reply
            header = headers[match_id]
            if frozen is not None:
                pos = tape.thaw(frozen)
            elif known is not None and known["version"] == int(checkpoint):
                pos = known
            else:
                pos = tape.empty()  # never projected, or its projection was dropped (rebuild)
            events = self.store.events_of(header["game"], entries)
            if pos["version"] != int(checkpoint):
                # A position not at its checkpoint (a damaged projection): fold from its own step.
                events = self.store.read(match_id, pos["version"] + 1, count=TAIL_READ)
            models_at = as_text(models) if models is not None else None
            runs.append(_Run(match_id, game, header, pos["version"], pos, events, models_at))
        return runs

    def _game(self, match_id: str, header: dict[str, str] | None) -> Game | None:
        if header is None:
            return None
        try:
            return get_game(header.get("game", ""))
        except InvalidAction as refused:
            log.warning("projector: match %s cannot be projected here: %s", match_id, refused)
            return None

    def _fold(self, run: _Run) -> None:
        # Batch ends are kept (a bounded window and a mark every interval), so a correction is a
        # lookup or a short fold, never a fold from step 1.
        # Only a correction jumps, and then to a batch end of this fold or to a stored position:
        # a fold without one keeps none (a long tail, read on in parts, keeps them all).
        events = run.events
        keep = len(events) >= TAIL_READ or any(event.type in tape.CORRECTIONS for event in events)
        playing = self.positions.tape_from(run.game, run.match_id, run.pos, keep=keep)
        while events:
            for event in events:
                pos = playing.advance(event)
                if event.seq % self.snapshot_every == 0:
                    run.snapshots.append(snapshot_member(pos))
            if len(events) < TAIL_READ:
                break
            events = self.store.read(run.match_id, events[-1].seq + 1, count=TAIL_READ)
        run.pos = playing.position

    def _write(self, runs: list[_Run], lease: Lease | None, token: str) -> None:
        """Each match's compare-and-set, all in one round trip; then the read models that changed."""
        writes, calls = [], []
        for run in runs:
            if run.folded == 0:
                # Nothing new: the stored summary is this position's, and its read models are
                # written unless the projection notes they were.
                if run.pos["version"] > 0 and not _confirmed(run.models):
                    run.basis = self._summarise(run, run.game.scores(run.pos["game"]))
                continue
            # The position frozen as Positions freezes it (states are JSON by the games'
            # contract, so orjson needs no second look for what json would refuse).
            basis, frozen, summary, run.summary = self._fields(
                run.match_id, run.header, run.game, run.pos, tape.dump(run.pos)
            )
            run.basis = basis
            args = [run.start, run.pos["version"], frozen, summary, run.basis, token]
            args += [lease.token if lease else "", run.match_id]
            for member in run.snapshots:
                args += [int(member.split("|", 1)[0]), member]
            writes.append(run)
            keys = [self.keys.proj(run.match_id), self.keys.snap(run.match_id)]
            calls.append(([*keys, self.keys.lease(run.match_id), self.keys.meta(run.match_id)], args))
        for run, (code, version) in zip(writes, self._scripts("project", calls, dirty=True), strict=True):
            run.written = code > 0
            # A conflict gave its lease back; so did a write whose read models were current,
            # which on one Redis also left the dirty set in the same script if caught up.
            run.ended = code == 0 or (code == 1 and not self._cluster)
            run.caught_up = code == 1 and int(version) == run.pos["version"]
            if code != 2:
                run.basis = ""  # not written, or its read models already say what it says
        for run in runs:
            if run.current:
                self._hold(run.match_id, run.pos)
        # Cross-match keys, after the per-match writes: a run killed in between leaves the match
        # dirty and its models field unconfirmed, so the next run writes them again.
        changed = [run for run in runs if run.current and run.basis]
        if changed:
            with self.client.pipeline(transaction=False) as pipe:
                for run in changed:
                    assert run.summary is not None
                    self.models.write(pipe, run.match_id, run.summary, float(run.header.get("created_ms", 0)))
                pipe.execute()

    def _hold(self, match_id: str, pos: Position | None) -> None:
        """Keep ``pos`` as the match's stored position, for the next run (unless one came meanwhile)."""
        if pos is None:
            return
        with self._lock:
            self._held.setdefault(match_id, pos)

    def _summarise(self, run: _Run, scores: Any) -> str:
        """Set the run's summary; return the basis of the read models it implies."""
        run.summary, basis = self._summary(run.match_id, run.header, run.game, run.pos, scores)
        return basis

    def _summary(
        self, match_id: str, header: dict[str, str], game: Game, pos: Position, scores: Any
    ) -> tuple[dict[str, Any], str]:
        """The match's summary at ``pos`` and the basis of the read models it implies."""
        summary = summary_of(match_id, header, game, pos["game"], scores, pos["version"])
        created = float(header.get("created_ms", 0))
        if summary["finished"]:
            return summary, self.models.basis(summary, created)
        # A match in progress keeps its basis from step to step (ReadModels.basis), and every
        # write carries one: it is worked out once per match and status.
        said = (created, summary["game"], tuple(summary["players"]), summary["status"])
        basis = self._bases.get(said)
        if basis is None:
            if len(self._bases) >= POSITIONS_HELD:
                self._bases.clear()
            basis = self._bases[said] = self.models.basis(summary, created)
        return summary, basis

    def _fields(
        self, match_id: str, header: dict[str, str], game: Game, pos: Position, frozen: bytes
    ) -> tuple[str, bytes, str, dict[str, Any]]:
        """The projection of ``pos`` as project.lua stores it: the read models' basis, ``frozen``
        (the position frozen, the hash's field env) and the summary written out; and the summary
        itself.

        Neither the view nor the scoreboard is kept: reads compute them from the position (a
        state read with disclosure applied then), so they cannot disagree with it."""
        # scores only reads the state.
        summary, basis = self._summary(match_id, header, game, pos, game.scores(pos["game"]))
        return basis, frozen, dumps(summary), summary

    def snapshot_among(self, start: int, last: int) -> bool:
        """Whether a snapshot's step is among the steps after ``start`` up to ``last`` (a run
        writes such a step's projection, with its snapshot)."""
        return last // self.snapshot_every > start // self.snapshot_every

    def carried(
        self,
        match_id: str,
        header: dict[str, str],
        game: Game,
        start: int,
        pos: Position,
        frozen: bytes,
        events: Sequence[StoredEvent],
    ) -> CarriedProjection | None:
        """The projection a write of the steps after ``start`` up to ``pos`` carries
        (``EventStore.append``): what a run that folded them would write; none when one of them
        is a snapshot's step (a run writes it, with its snapshot).

        ``frozen`` is ``pos`` frozen (``tape.dump``); ``events`` are the write's steps, which it
        publishes to the global feed as a pass would (disclosed against ``pos``, the position a
        pass folds them to), so that no pass is needed for them (events/append.lua).
        """
        if self.snapshot_among(start, pos["version"]):
            return None
        basis, _, summary, _ = self._fields(match_id, header, game, pos, frozen)
        feed = None if self.publisher is None else [game.id, *public_steps(game, events, pos)]
        return CarriedProjection(basis, frozen, summary, feed)

    def _finish(self, runs: list[_Run], lease: Lease | None, token: str) -> None:
        """End the runs the compare-and-set did not end: off the dirty set if caught up, leases back."""
        ending = [r for r in runs if not r.ended]
        if not ending:
            return
        if self._cluster:
            # Off first, then the version (finish.lua): a write after the check marks the match
            # again itself, so a mark is never lost, and no transaction spans two slots.
            self.marks.unmark([r.match_id for r in ending])
        replies = self._scripts("finish", [self._finishing(r, lease, token) for r in ending], dirty=True)
        behind = []
        for run, (version, confirmed) in zip(ending, replies, strict=True):
            run.caught_up = int(version) == run.pos["version"] and bool(confirmed)
            if not run.caught_up:
                behind.append(run.match_id)
        if behind and self._cluster:
            self.marks.mark(behind)

    def _finishing(self, run: _Run, lease: Lease | None, token: str) -> tuple[list[str], list[Any]]:
        keys = [self.keys.lease(run.match_id), self.keys.proj(run.match_id), self.keys.meta(run.match_id)]
        args = [lease.token if lease else "", run.pos["version"], run.basis, token, 0 if run.written else 1]
        return keys, [*args, run.match_id]

    def _release(self, runs: list[_Run], lease: Lease | None) -> None:
        """Give the leases of a run that failed back, if Redis still answers (else they expire)."""
        if lease is None or not runs:
            return
        calls = [(self._finishing(r, lease, "")[0], [lease.token, "", "", "", 1, r.match_id]) for r in runs]
        try:
            self._scripts("finish", calls)
        except redis.RedisError:
            pass

    def _scripts(self, name: str, calls: list[tuple[list[str], list[Any]]], dirty: bool = False) -> list[Any]:
        """One script's reply per call (a match's keys and arguments), in order.

        On one Redis the matches go in calls of up to CALL_MATCHES each (projections/projecting/many.lua),
        all in one round trip; on a cluster each match's call goes to its server, one round trip
        per server. ``dirty``: the script may take the match off the dirty set itself, given the dirty
        set after the match's keys; only on one Redis, where that key may join a match's.
        """
        if not calls:
            return []
        sha, per = self._sha[name], len(calls[0][0])
        size = 1 if self._cluster else CALL_MATCHES
        shared = self.marks.dirty_keys() if dirty and not self._cluster else []
        groups = []
        for at in range(0, len(calls), size):
            part = calls[at : at + size]
            keys = [key for match_keys, _ in part for key in match_keys] + shared
            argv: list[Any] = [per]
            for _, args in part:
                argv += [len(args), *args]
            groups.append((keys[0], [("EVALSHA", sha, len(keys), *keys, *argv)]))
        return [reply for found in self._send(groups) for reply in found[0]]

    def _send(self, groups: Sequence[Group]) -> list[list[Any]]:
        if not groups:
            return []
        answered = on_servers(self.client, groups, [_source(n) for n in _SCRIPTS])
        for reply in (reply for found in answered for reply in found):
            if isinstance(reply, Exception):
                raise reply
        return answered


def _confirmed(models: str | None) -> bool:
    """Whether the projection's models field says its read models were written and confirmed."""
    return models is not None and not models.startswith(_PENDING)
