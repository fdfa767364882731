"""Checking projections against the logs, and rebuilding them: what `tabletape verify` and `rebuild` do.

The log is the only source of truth. ``Verifier.check`` folds a match's log from step 1, ignoring
every stored position, and compares the result with everything the projector keeps for the match:
the checkpoint, the position, the view, the scoreboard, the summary, each snapshot, the index
entries and the players' statistics. ``Verifier.rebuild`` throws the match's projection away and
projects it again from the log.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from events.envelope import StoredEvent
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections import tape
from projections.cache import ProjectionCache
from projections.projector import Projected, Projector
from projections.summary import index_entries, summary_of
from projections.tape import Position


@dataclass(frozen=True)
class Difference:
    """One thing the projection says that the log does not."""

    match_id: str
    what: str
    detail: str

    def __str__(self) -> str:
        return f"{self.match_id}: {self.what}: {self.detail}"


@dataclass(frozen=True)
class Expected:
    """What a match's projection must hold, folded afresh from its log."""

    game: Game
    env: Position
    view: Any
    scores: Any
    summary: dict[str, Any]
    snapshots: dict[int, Position]


class FreshFold:
    """A fold of one log from step 1 that rewinds to earlier steps without any stored position.

    It keeps the position of every step it has folded (as JSON), so an undo's rewind is a lookup.
    """

    def __init__(self, game: Game, events: list[StoredEvent]) -> None:
        self.game = game
        self.events = events
        self.kept: list[str] = [json.dumps(tape.empty())]

    def run(self, wanted: set[int]) -> tuple[Position, dict[int, Position]]:
        """The position after the last step, and the positions at the ``wanted`` steps on the way."""
        env = tape.empty()
        found: dict[int, Position] = {}
        for event in self.events:
            env = tape.step(self.game, env, event, self.rewind)
            self.kept.append(json.dumps(env))
            if event.seq in wanted:
                found[event.seq] = json.loads(self.kept[-1])
        return env, found

    def rewind(self, step: int) -> Position:
        """The position after ``step`` (a step already folded), as a fresh value."""
        env: Position = json.loads(self.kept[step])
        return env


class Verifier:
    """Compares and rebuilds the projections of the matches under one key prefix."""

    def __init__(self, store: EventStore, cache: ProjectionCache, snapshot_every: int) -> None:
        self.store = store
        self.cache = cache
        self.client = cache.client
        self.keys = cache.keys
        self.snapshot_every = snapshot_every

    def count(self) -> int:
        """How many matches there are."""
        return int(self.client.zcard(self.keys.matches()))

    def match_ids(self) -> Iterator[str]:
        """Every match id, in no particular order."""
        for raw, _score in self.client.zscan_iter(self.keys.matches(), count=500):
            yield raw.decode() if isinstance(raw, bytes) else str(raw)

    def expected(self, match_id: str) -> Expected:
        """The projection the log says the match must have."""
        game = get_game(self.store.header(match_id)["game"])
        header = self.store.header(match_id)
        events = list(self.store.iter_events(match_id))
        version = events[-1].seq if events else 0
        stored = set(self._snapshot_steps(match_id))
        wanted = stored | set(range(self.snapshot_every, version + 1, self.snapshot_every))
        env, snapshots = FreshFold(game, events).run(wanted)
        state = env["game"]
        scores = game.scores(copy.deepcopy(state))
        summary = summary_of(match_id, header, game, state, scores, version)
        return Expected(game, env, game.view(state), scores, summary, snapshots)

    def check(self, match_id: str) -> list[Difference]:
        """Every difference between the match's projection and a fresh fold of its log."""
        want = self.expected(match_id)
        found: list[Difference] = []

        def differ(what: str, detail: str) -> None:
            found.append(Difference(match_id, what, detail))

        checkpoint = self.cache.checkpoint(match_id)
        if checkpoint != want.env["version"]:
            differ("checkpoint", f"projected to step {checkpoint}, the log has {want.env['version']}")
        fields = self.client.hmget(self.keys.proj(match_id), ["env", "view", "scores", "summary"])
        for name, raw, value in zip(
            ("env", "view", "scores", "summary"),
            fields,
            (want.env, want.view, want.scores, want.summary),
            strict=True,
        ):
            if raw is None:
                differ(name, "missing")
            elif json.loads(raw) != _plain(value):
                differ(name, "differs from a fresh fold of the log")
        self._check_snapshots(match_id, want, differ)
        self._check_indexes(match_id, want.summary, differ)
        return found

    def _check_snapshots(self, match_id: str, want: Expected, differ: Any) -> None:
        stored = self._snapshots(match_id)
        for step, env in sorted(want.snapshots.items()):
            if step not in stored:
                if step % self.snapshot_every == 0:
                    differ(f"snapshot {step}", "missing")
            elif stored[step] != _plain(env):
                differ(f"snapshot {step}", "differs from a fresh fold of the log")
        for step in sorted(set(stored) - set(want.snapshots)):
            differ(f"snapshot {step}", "beyond the log's last step")

    def _check_indexes(self, match_id: str, summary: dict[str, Any], differ: Any) -> None:
        entries = index_entries(self.keys, summary)
        with self.client.pipeline(transaction=False) as pipe:
            for key, _present in entries:
                pipe.zscore(key, match_id)
            for player in summary["players"]:
                pipe.hget(self.keys.stats(player), match_id)
            answers = pipe.execute()
        for (key, present), score in zip(entries, answers, strict=False):
            if (score is not None) != present:
                differ(f"index {key}", "should list the match" if present else "should not list it")
        for player, raw in zip(summary["players"], answers[len(entries) :], strict=True):
            want = _plain(summary) if summary["finished"] else None
            got = json.loads(raw) if raw is not None else None
            if got != want:
                differ(f"stats of {player}", "differs from the match's summary")

    def rebuild(self, match_id: str, projector: Projector) -> Projected:
        """Throw the match's projection away and project it again from its log."""
        old = self.cache.field(match_id, "summary")
        with self.client.pipeline() as pipe:
            pipe.delete(self.keys.proj(match_id), self.keys.snap(match_id))
            if old is not None:
                for key, _present in index_entries(self.keys, old[1]):
                    pipe.zrem(key, match_id)
                for player in old[1].get("players", []):
                    pipe.hdel(self.keys.stats(player), match_id)
            pipe.execute()
        return projector.project(match_id)

    def _snapshot_steps(self, match_id: str) -> list[int]:
        return sorted(self._snapshots(match_id))

    def _snapshots(self, match_id: str) -> dict[int, Any]:
        found: dict[int, Any] = {}
        for raw in self.client.zrange(self.keys.snap(match_id), 0, -1):
            text = raw.decode() if isinstance(raw, bytes) else str(raw)
            step, _, body = text.partition("|")
            found[int(step)] = json.loads(body)
        return found


def _plain(value: Any) -> Any:
    """The value as it reads back from stored JSON."""
    return json.loads(json.dumps(value))
