"""The write path against its floor: `python -m bench.writes`.

Recording one Wizard action in process (token, validation, rules, the atomic append, the answer)
against a raw conditional EVALSHA of the same append script with the same payload, measured in
the same run; a process's first write to a match, which reads it before its append, against the
same anchor; and the cost of a correction (undo, redo) against an action's as corrections grow.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from typing import Any
from unittest.mock import patch

from bench.harness import bench_parts
from events.codec import encode
from events.envelope import NewEvent, StoredEvent
from events.one_send import attempt, packed_append
from events.script_args import AppendArgs
from games.registry import get_game
from projections.assembly import assemble
from service.bootstrap import Services, build
from workers.main import GC_THRESHOLDS


def wizard_script(actions: int = 400) -> dict[str, Any]:
    """A three-player Wizard example with at least ``actions`` actions (or the longest)."""
    game = get_game("wizard")
    scripts = [s for s in map(game.example, range(40)) if len(s["players"]) == 3]
    return max(scripts, key=lambda s: len(s["actions"]))


def record_vs_evalsha(parts: Services, actions: int = 300, carry: bool = True) -> float:
    """Seconds per recorded action over seconds per raw conditional EVALSHA; prints both.

    Each action is recorded, then the events it appended are appended again, bare, to a scratch
    log: the anchor carries the very payload the write did (an action that derives three events
    appends three). The two alternate, so whatever else the server and the machine do at the
    time weighs on both alike.

    The match's projection is kept up, as workers that keep up keep it: each write carries the
    projection it leaves and moves it in itself, the common write of a deployment. Each write
    here is alone in its process, so its projection follows the append on the same connection,
    worked out while Redis appends (a busy process carries it in the append's own send:
    ``bench.http``). A write that leaves it behind (a snapshot's step, which the workers write) is
    projected after it, untimed.

    ``carry=False``: the writes carry no projection, as on a cluster; each marks its match for the
    workers, whose projection of it (after each write, untimed) is no longer the write's cost.
    Comparing the two shows what carrying the projection costs the write in process; what it
    saves the deployment shows in `python -m bench.http --marking`.
    """
    script = wizard_script()
    kept = parts.recorder.projector
    if not carry:
        parts.recorder.projector = None
    try:
        return _record_vs_evalsha(parts, script, actions, carry)
    finally:
        parts.recorder.projector = kept


def _record_vs_evalsha(parts: Services, script: dict[str, Any], actions: int, carry: bool) -> float:
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    todo = script["actions"][:actions]
    parts.projector.project(made.match_id)
    parts.recorder.act(made.match_id, made.token, todo[0])
    raw = RawAppend(parts, made.match_id)
    recorded, anchor, moved = [], [], 0
    for action in todo[1:]:
        start = time.perf_counter()
        answer = parts.recorder.act(made.match_id, made.token, action)
        recorded.append(time.perf_counter() - start)
        anchor.append(raw.once(answer.events))
        if parts.stored.checkpoint(made.match_id) == answer.version:
            moved += 1
        else:
            parts.projector.project(made.match_id)
    mean, raw_mean = sum(recorded) / len(recorded), sum(anchor) / len(anchor)
    median, raw_median = sorted(recorded)[len(recorded) // 2], sorted(anchor)[len(anchor) // 2]
    how = "" if carry else ", marking its match for the workers instead of carrying its projection"
    print(
        f"write{how}: record one Wizard action in process {mean * 1e6:.0f} us (median {median * 1e6:.0f}); "
        f"raw conditional EVALSHA of the same payload {raw_mean * 1e6:.0f} us (median "
        f"{raw_median * 1e6:.0f}); ratio {mean / raw_mean:.2f}x, of medians {median / raw_median:.2f}x "
        f"(goal <= 1.2x); {moved} of {len(recorded)} writes moved their projection in"
    )
    return mean / raw_mean


def own_work(parts: Services, carry: bool = True, matches: int = 20, actions: int = 150) -> float:
    """The write's own work, timed with Redis's answer stubbed, over the anchor's median; prints
    where it goes.

    The round trip's noise hides a few microseconds of the recorder's own work, so this times the
    same writes with the send replaced by a stand-in that packs the command as the send does, runs
    the work done while Redis appends (``meanwhile``) and answers as Redis would for a written
    batch. It prints the median of each part: before the send (token, validation, rules, events,
    and, carrying, the fold and the projection carried), the packing, the work done meanwhile
    (hidden by the round trip when shorter than Redis's part of it) and the work after the reply.
    Before plus after, over a raw conditional EVALSHA timed in the same run, is how far above the
    anchor the write is before Redis's own extra work (the marks, the credential, the projection
    moved in): the least its ratio can be.
    """
    script = wizard_script()
    kept, store = parts.recorder.projector, parts.store
    if not carry:
        parts.recorder.projector = None
    made, bids = [], []
    for _ in range(matches):
        match = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        parts.projector.project(match.match_id)
        for action in script["actions"][:3]:
            bids = parts.recorder.act(match.match_id, match.token, action).events
        made.append(match)
    # The anchor: a bid's append, sent as it is, in the same run.
    anchor = RawAppend(parts, made[0].match_id)
    raw = [anchor.once(bids) for _ in range(200)]
    marks: dict[str, float] = {}
    batch: dict[str, int] = {}
    real_append, clock = store.append, time.perf_counter

    def append(match_id: str, events: Sequence[NewEvent], expected: int | None = None, *rest: Any) -> Any:
        batch.update(n=len(events), expected=expected or 0)
        return real_append(match_id, events, expected, *rest)

    def answered(
        keys: list[str],
        argv: list[str],
        meanwhile: Any,
        staged: Any = (),
        carrying_none: Any = None,
        then: Any = None,
    ) -> Any:
        marks["send"] = clock()
        packed_append(store._script.sha, keys, argv, staged)
        marks["packed"] = clock()
        failed = attempt(meanwhile)
        # Carrying, the projection that follows the append is worked out and packed here too.
        follow = then() if then is not None else None
        marks["meanwhile"] = clock()
        first = batch["expected"] + 1
        # Written; carrying, the projection in the append moved in (the recorder goes on carrying).
        return [0, first, first + batch["n"] - 1, 0, 1 if carry and follow is None else 0], failed

    parts_of: dict[str, list[float]] = {"before": [], "packing": [], "meanwhile": [], "after": []}
    try:
        with patch.object(store, "append", append), patch.object(store._send, "run", answered):
            for match in made:
                for action in script["actions"][3 : 3 + actions]:
                    start = clock()
                    parts.recorder.act(match.match_id, match.token, action)
                    end = clock()
                    parts_of["before"].append(marks["send"] - start)
                    parts_of["packing"].append(marks["packed"] - marks["send"])
                    parts_of["meanwhile"].append(marks["meanwhile"] - marks["packed"])
                    parts_of["after"].append(end - marks["meanwhile"])
    finally:
        parts.recorder.projector = kept
    median = {name: sorted(times)[len(times) // 2] for name, times in parts_of.items()}
    raw_median = sorted(raw)[len(raw) // 2]
    outside = median["before"] + median["after"]
    how = "carrying its projection" if carry else "marking its match"
    print(
        f"own work, {how}, Redis's answer stubbed (medians of {len(parts_of['before'])} writes): "
        + ", ".join(f"{name} {t * 1e6:.1f} us" for name, t in median.items())
        + f"; before and after the round trip {outside * 1e6:.1f} us over a raw conditional EVALSHA "
        f"of {raw_median * 1e6:.0f} us: the ratio is at least {1 + outside / raw_median:.2f}x"
    )
    return outside / raw_median


def first_writes(parts: Services, matches: int = 60) -> float:
    """A process's first write to a match over a raw conditional EVALSHA of the same payload; prints
    it with the same process's next write to the match.

    Each match is created, given its first action and projected here; then a second process (parts
    of its own, as after a restart, or another gunicorn worker) records the match's next two
    actions. The first of them finds neither the match nor the token remembered, so it reads them
    (and the position to decide on) before its append; the second is the common write.
    """
    script = wizard_script()
    made = []
    for _ in range(matches):
        match = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        parts.projector.project(match.match_id)
        parts.recorder.act(match.match_id, match.token, script["actions"][0])
        parts.projector.project(match.match_id)
        made.append(match)
    raw = RawAppend(parts, made[0].match_id)
    other = build(parts.settings, notify=lambda match_id: None)
    first, following, anchor = [], [], []
    try:
        for match in made:
            start = time.perf_counter()
            answer = other.recorder.act(match.match_id, match.token, script["actions"][1])
            first.append(time.perf_counter() - start)
            anchor.append(raw.once(answer.events))
            start = time.perf_counter()
            other.recorder.act(match.match_id, match.token, script["actions"][2])
            following.append(time.perf_counter() - start)
    finally:
        other.close()
    median, raw_median, next_median = (sorted(x)[len(x) // 2] for x in (first, anchor, following))
    print(
        f"first write: a process's first write to a match, over {matches} matches, median "
        f"{median * 1e6:.0f} us; its next write {next_median * 1e6:.0f} us; raw conditional EVALSHA "
        f"of the same payload {raw_median * 1e6:.0f} us; ratio of medians {median / raw_median:.2f}x "
        f"(the next write {next_median / raw_median:.2f}x)"
    )
    return median / raw_median


class RawAppend:
    """The append script run bare (EVALSHA, conditional on the version) on a scratch match."""

    def __init__(self, parts: Services, match_id: str) -> None:
        scratch = f"raw-{match_id}"
        store = parts.store
        store.create(scratch, {"game": "wizard"}, [], created_ms=0)
        self.keys = [store.keys.meta(scratch), store.keys.log(scratch), store.keys.idem(scratch)]
        self.sha = store._script.sha
        self.client = store.client
        self.version = 0

    def once(self, events: Sequence[StoredEvent]) -> float:
        """Seconds one conditional append of ``events`` took (encoded beforehand, untimed)."""
        payload: list[str] = []
        for event in events:
            fields = encode(NewEvent(event.type, event.data, event.meta))
            payload += [fields["type"], fields["data"], fields["meta"]]
        # No dirty set, wake flag or rate counter among its keys: the bare append, nothing marked.
        args = AppendArgs("", "", str(self.version), "", "", "", "", "", [], None, None, payload).argv()
        start = time.perf_counter()
        self.client.evalsha(self.sha, 3, *self.keys, *args)
        took = time.perf_counter() - start
        self.version += len(events)
        return took


def correction_cost(parts: Services, lengths: tuple[int, ...] = (20, 80, 160)) -> None:
    """An undo or a redo against an action, after N actions each followed by three undo/redo pairs."""
    script = wizard_script()
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    rec, acted, corrected = parts.recorder, 0.0, 0.0
    report = []
    for n, action in enumerate(script["actions"][: max(lengths)], start=1):
        start = time.perf_counter()
        rec.act(made.match_id, made.token, action)
        acted += time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(3):
            rec.undo(made.match_id, made.token, None, None)
            rec.redo(made.match_id, made.token, None, None)
        corrected += (time.perf_counter() - start) / 6
        if n in lengths:
            report.append((n, corrected / acted))
            acted = corrected = 0.0
    print(
        "correction: an undo or redo against an action, after N actions with 3 undo/redo pairs each: "
        + "; ".join(f"N={n}: {r:.2f}x" for n, r in report)
    )


def projection_with_corrections(parts: Services, lengths: tuple[int, ...] = (40, 160)) -> None:
    """Projecting a never-projected match from step 1, per step, as its corrections grow."""
    script = wizard_script()
    rec, report = parts.recorder, []
    for n in lengths:
        made = rec.create("wizard", script["players"], script["setup"], script["options"])
        for action in script["actions"][:n]:
            rec.act(made.match_id, made.token, action)
            for _ in range(3):
                rec.undo(made.match_id, made.token, None, None)
                rec.redo(made.match_id, made.token, None, None)
        # A worker of its own: nothing remembered from the writes above, and the cycle collector's
        # thresholds a worker runs with (with the default ones, the collector walks whatever this
        # process holds from the benchmarks before, more often the longer the fold).
        projector = assemble(parts.client, parts.keys, parts.settings.snapshot_every).projector
        collecting = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            start = time.perf_counter()
            done = projector.project(made.match_id)
            report.append((n, done.checkpoint, (time.perf_counter() - start) / done.checkpoint))
        finally:
            gc.set_threshold(*collecting)
    (_, s0, t0), (_, s1, t1) = report[0], report[-1]
    print(
        f"projection from step 1 with 3 undo/redo pairs per action: {t0 * 1e6:.0f} us/step over {s0} "
        f"steps, {t1 * 1e6:.0f} us/step over {s1} steps; ratio {t1 / t0:.2f}x (goal: flat)"
    )


def main() -> None:
    """Run the write benchmarks."""
    with bench_parts() as parts:
        record_vs_evalsha(parts)
        record_vs_evalsha(parts, carry=False)
        own_work(parts)
        own_work(parts, carry=False)
        first_writes(parts)
        correction_cost(parts)
        projection_with_corrections(parts)


if __name__ == "__main__":
    main()
