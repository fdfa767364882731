"""What `appendfsync always` costs a write on the embedded store: `python -m bench.durability`.

Two embedded Redis servers as `tabletape serve` runs them (service.run.embedded_redis), their data
dirs side by side on the same disk (under the current folder, not /tmp, which may be memory), one
with ``appendfsync always`` (the default: Redis answers once the AOF is fsynced) and one with
``everysec`` (the anchor). The same Wizard match is recorded on both, the two taking turns action by
action so that whatever else the machine does weighs on both alike; the figure is the cost of a
recorded action on ``always`` as a ratio of the same on ``everysec``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.writes import wizard_script
from service.bootstrap import Services, build
from service.config import Settings
from service.run.embedded_redis import EmbeddedRedis


def durability(actions: int = 200, where: Path | None = None) -> float:
    """Mean seconds per recorded action with ``always`` over the same with ``everysec``; prints both."""
    folder = Path(tempfile.mkdtemp(prefix="bench-durability-", dir=where or Path.cwd()))
    servers = {how: EmbeddedRedis(folder / how, how) for how in ("always", "everysec")}
    try:
        parts = {how: _parts(server.start()) for how, server in servers.items()}
        timed = _record_in_turns(parts, actions)
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    always, everysec = (sum(timed[how]) / len(timed[how]) for how in ("always", "everysec"))
    medians = {how: sorted(t)[len(t) // 2] for how, t in timed.items()}
    print(
        f"durability: a Wizard action recorded on the embedded store with appendfsync always "
        f"{always * 1e6:.0f} us (median {medians['always'] * 1e6:.0f}) against everysec "
        f"{everysec * 1e6:.0f} us (median {medians['everysec'] * 1e6:.0f}); ratio {always / everysec:.2f}x "
        f"(of medians {medians['always'] / medians['everysec']:.2f}x), {len(timed['always'])} actions each"
    )
    return always / everysec


def _parts(url: str) -> Services:
    settings = Settings(redis_url=url, prefix=f"tt-bench-{uuid.uuid4().hex[:8]}", redis_timeout=60)
    return build(settings, notify=lambda match_id: None)


def _record_in_turns(parts: dict[str, Services], actions: int) -> dict[str, list[float]]:
    script = wizard_script()
    todo = script["actions"][:actions]
    made = {
        how: p.recorder.create("wizard", script["players"], script["setup"], script["options"])
        for how, p in parts.items()
    }
    timed: dict[str, list[float]] = {how: [] for how in parts}
    for action in todo:
        for how, p in parts.items():
            start = time.perf_counter()
            answer = p.recorder.act(made[how].match_id, made[how].token, action)
            timed[how].append(time.perf_counter() - start)
            if p.stored.checkpoint(made[how].match_id) != answer.version:
                p.projector.project(made[how].match_id)  # as the workers would, untimed
    for p in parts.values():
        p.close()
    return timed


if __name__ == "__main__":
    durability(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
