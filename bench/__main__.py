"""Run every benchmark and print its figures: `python -m bench` (or `make bench`)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench import durability, http, lag, recorder, sizes, writes
from bench.harness import OTHER_HAT_TRICK, bench_parts, long_other_hat_trick
from games.contract import Game
from games.registry import get_game
from projections.positions import tape
from projections.positions.tape import Position, Tape
from service.bootstrap import Services


def per_call(fn: Callable[[], Any], calls: int) -> float:
    """Seconds per call of ``fn`` over ``calls`` calls."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def rewind_vs_naive(parts: Services, steps: tuple[int, ...] = (1_000, 10_000)) -> None:
    """Rewinding to step N from the nearest snapshot against folding from step 1."""
    game = get_game("other-hat-trick")
    made = parts.recorder.create(*OTHER_HAT_TRICK)
    projector = parts.projector
    target = max(steps)
    timed: list[float] = []
    for i, action in enumerate(long_other_hat_trick(10 * target)):
        start = time.perf_counter()
        answer = parts.recorder.act(made.match_id, made.token, action)
        timed.append(time.perf_counter() - start)
        if answer.version >= target + 10:
            break
        if i % 50 == 0:
            projector.project(made.match_id)
    projector.project(made.match_id)
    early, late = sum(timed[:1000]) / 1000, sum(timed[-1000:]) / 1000
    print(
        f"recording in a long match: {late * 1e3:.2f} ms per action at step {target:,} against "
        f"{early * 1e3:.2f} ms in the first 1,000 steps; ratio {late / early:.2f}x (goal: flat)"
    )
    for n in steps:
        snap = per_call(partial(parts.positions.position, game, made.match_id, n), 20)
        naive = per_call(partial(naive_at, parts, game, made.match_id, n), 3)
        print(
            f"rewind to step {n}: {snap * 1e3:.2f} ms from the nearest snapshot; "
            f"{naive * 1e3:.1f} ms folding from step 1; ratio {naive / snap:.0f}x"
        )
    memory(parts, made.match_id)


def naive_at(parts: Services, game: Game, match_id: str, step: int) -> Position:
    """The anchor of a rewind: the position at ``step`` folded from step 1, nothing stored used."""
    return Tape(game, tape.empty()).fold(parts.store.iter_events(match_id, 1, step))


def memory(parts: Services, match_id: str) -> None:
    """Bytes the log, the snapshots and the projection take in Redis."""
    version = parts.store.version(match_id)
    sizes = {
        name: parts.client.memory_usage(key) or 0
        for name, key in (
            ("log", parts.keys.log(match_id)),
            ("snapshots", parts.keys.snap(match_id)),
            ("projection", parts.keys.proj(match_id)),
        )
    }
    as_json = sum(
        len(e.type)
        + len(json.dumps(e.data, separators=(",", ":")))
        + len(json.dumps(e.meta, separators=(",", ":")))
        for e in parts.store.iter_events(match_id)
    )
    print(
        f"memory for {version} steps: log {sizes['log'] / version:.0f} B/step, "
        f"{sizes['log'] / as_json:.2f}x the events' JSON (goal <= 2x); snapshots "
        f"{sizes['snapshots'] / sizes['log']:.2f}x the log (goal <= 0.5x); projection {sizes['projection']} B"
    )


def main() -> int:
    """Run every benchmark: each prints its figures as ratios against an anchor of the same run."""
    with bench_parts() as parts:
        writes.record_vs_evalsha(parts)
        writes.own_work(parts)
        writes.own_work(parts, carry=False)
        writes.correction_cost(parts)
        writes.projection_with_corrections(parts)
        rewind_vs_naive(parts)
    durability.durability()
    sizes.main()
    lag.main()
    if "--no-http" not in sys.argv:
        http.main()
    if "--no-browser" not in sys.argv:
        recorder.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
