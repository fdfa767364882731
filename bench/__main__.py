"""Run every benchmark and print its figures: `python -m bench` (or `make bench`)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from bench.harness import OTHER_HAT_TRICK, bench_parts, long_other_hat_trick
from games.registry import get_game
from service.bootstrap import Services


def per_call(fn: Callable[[], Any], calls: int) -> float:
    """Seconds per call of ``fn`` over ``calls`` calls."""
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def record_vs_xadd(parts: Services, actions: int = 400) -> None:
    """Recording one action (validate + fold tail + decide + atomic append) against a raw XADD."""
    game = get_game("wizard")
    script = next(s for s in map(game.example, range(100)) if len(s["players"]) == 3)
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    projector = parts.projector
    spent = 0.0
    todo = script["actions"][:actions]
    for action in todo:
        start = time.perf_counter()
        parts.recorder.act(made.match_id, made.token, action)
        spent += time.perf_counter() - start
        projector.project(made.match_id)  # a worker keeping up, outside the timed write
    recorded = spent / len(todo)
    payload = parts.store.read(made.match_id, 2, 2)[0]
    stream = f"{parts.keys.prefix}:raw-xadd"
    raw = per_call(
        lambda: parts.client.xadd(
            stream, {"type": payload.type, "data": str(payload.data), "meta": str(payload.meta)}
        ),
        2000,
    )
    print(
        f"record one action: {recorded * 1e3:.3f} ms; raw XADD: {raw * 1e3:.3f} ms; "
        f"ratio {recorded / raw:.1f}x"
    )


def rewind_vs_naive(parts: Services, steps: tuple[int, ...] = (1_000, 10_000)) -> None:
    """Rewinding to step N from the nearest snapshot against folding from step 1."""
    game = get_game("other-hat-trick")
    made = parts.recorder.create(*OTHER_HAT_TRICK)
    projector = parts.projector
    target = max(steps)
    for i, action in enumerate(long_other_hat_trick(10 * target)):
        answer = parts.recorder.act(made.match_id, made.token, action)
        if answer.version >= target + 10:
            break
        if i % 50 == 0:
            projector.project(made.match_id)
    projector.project(made.match_id)
    for n in steps:
        snap = per_call(lambda n=n: parts.reader.position(game, made.match_id, n), 20)
        naive = per_call(lambda n=n: parts.reader.naive_at(game, made.match_id, n), 3)
        print(
            f"rewind to step {n}: {snap * 1e3:.2f} ms from the nearest snapshot; "
            f"{naive * 1e3:.1f} ms folding from step 1; ratio {naive / snap:.0f}x"
        )
    memory(parts, made.match_id)


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
    print(
        f"memory for {version} steps: log {sizes['log'] / version:.0f} B/step; snapshots "
        f"{sizes['snapshots'] / sizes['log']:.2f}x the log; projection {sizes['projection']} B"
    )


def main() -> int:
    """Run the benchmarks."""
    with bench_parts() as parts:
        record_vs_xadd(parts)
        rewind_vs_naive(parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
