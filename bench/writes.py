"""The write path against its floor: `python -m bench.writes`.

Recording one Wizard action in process (token, validation, rules, the atomic append, the answer)
against a raw conditional EVALSHA of the same append script with the same payload, measured in
the same run; and the cost of a correction (undo, redo) against an action's as corrections grow.
"""

from __future__ import annotations

import time
from typing import Any

from bench.harness import bench_parts
from events.codec import encode
from games.registry import get_game
from service.bootstrap import Services


def wizard_script(actions: int = 400) -> dict[str, Any]:
    """A three-player Wizard example with at least ``actions`` actions (or the longest)."""
    game = get_game("wizard")
    scripts = [s for s in map(game.example, range(40)) if len(s["players"]) == 3]
    return max(scripts, key=lambda s: len(s["actions"]))


def record_vs_evalsha(parts: Services, actions: int = 300) -> float:
    """Seconds per recorded action over seconds per raw conditional EVALSHA; prints both."""
    script = wizard_script()
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    todo = script["actions"][:actions]
    start = time.perf_counter()
    for action in todo:
        parts.recorder.act(made.match_id, made.token, action)
    recorded = (time.perf_counter() - start) / len(todo)
    raw = raw_conditional_append(parts, made.match_id, len(todo))
    ratio = recorded / raw
    print(
        f"write: record one Wizard action in process {recorded * 1e6:.0f} us; raw conditional "
        f"EVALSHA of the same payload {raw * 1e6:.0f} us; ratio {ratio:.2f}x (goal <= 1.5x)"
    )
    return ratio


def raw_conditional_append(parts: Services, match_id: str, calls: int) -> float:
    """Seconds per EVALSHA of the append script, conditional on the version, on a scratch match."""
    payload = parts.store.read(match_id, 2, 2)[0]
    fields = encode(payload)  # type: ignore[arg-type]
    scratch = f"raw-{match_id}"
    parts.store.create(scratch, {"game": "wizard"}, [], created_ms=0)
    store = parts.store
    keys = [store.keys.meta(scratch), store.keys.log(scratch), store.keys.idem(scratch)]
    sha = store._script.sha
    client = store.client
    client.evalsha(sha, 3, *keys, "append", "0", "", "", fields["type"], fields["data"], fields["meta"])
    start = time.perf_counter()
    for version in range(1, calls + 1):
        args = ["append", str(version), "", "", fields["type"], fields["data"], fields["meta"]]
        client.evalsha(sha, 3, *keys, *args)
    return (time.perf_counter() - start) / calls


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


def main() -> None:
    """Run the write benchmarks."""
    with bench_parts() as parts:
        record_vs_evalsha(parts)
        correction_cost(parts)


if __name__ == "__main__":
    main()
