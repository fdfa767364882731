"""Figures of sharing a match: `python -m bench.sharing`.

Export and checked import of the longest Wizard example, a fork, a player's statistics read, and
the live hub's fan-out (connections held, and the time from an append to the last watcher).
"""

from __future__ import annotations

import time
from typing import Any

import redis

from bench.harness import bench_parts
from games.registry import get_game
from projections.live.hub import LiveHub
from projections.sharing.export import export_lines
from projections.sharing.fork import fork_log
from projections.sharing.importing import check_log, parse_lines
from service.bootstrap import Services


def longest_wizard(parts: Services) -> tuple[str, str, int]:
    """Record the longest of the first 12 Wizard examples; (match id, token, actions)."""
    game = get_game("wizard")
    script = max(map(game.example, range(12)), key=lambda s: len(s["actions"]))
    made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    projector = parts.projector
    for action in script["actions"]:
        parts.recorder.act(made.match_id, made.token, action)
    projector.project(made.match_id)
    return made.match_id, made.token, len(script["actions"])


def export_import_fork(parts: Services, match_id: str) -> None:
    """Export size and time, checked import time, fork time."""
    start = time.perf_counter()
    text = "".join(export_lines(parts.store, match_id))
    exported = time.perf_counter() - start
    start = time.perf_counter()
    checked = check_log(*parse_lines(text.splitlines()), now_ms=int(time.time() * 1000))
    imported = time.perf_counter() - start
    version = parts.store.version(match_id)
    start = time.perf_counter()
    check_log(*fork_log(parts.positions, match_id, version), now_ms=int(time.time() * 1000))
    forked = time.perf_counter() - start
    print(
        f"export: {len(checked.events)} events, {len(text.encode()) / 1024:.0f} KiB NDJSON "
        f"in {exported * 1000:.0f} ms"
    )
    print(
        f"import check (every action through the rules): {imported * 1000:.0f} ms "
        f"= {imported / len(checked.events) * 1e6:.0f} us/event"
    )
    print(f"fork at the last step (effective history, checked): {forked * 1000:.0f} ms")


def statistics(parts: Services, match_id: str) -> None:
    """A player's statistics read over one finished match (the read cost per match)."""
    name = parts.store.read(match_id, 1, 1)[0].data["players"][0]
    stats = parts.statistics
    calls = 200
    start = time.perf_counter()
    for _ in range(calls):
        stats.player(name)
    print(f"GET player statistics (1 finished match): {(time.perf_counter() - start) / calls * 1e6:.0f} us")


def fan_out(parts: Services, watchers: int = 200, appends: int = 20) -> None:
    """Watchers of one match through one hub: connections opened, append-to-last-watcher time."""
    opened: list[Any] = []

    def connect(group: str) -> redis.Redis:
        pool = parts.client.connection_pool
        opened.append(
            redis.Redis(
                connection_pool=redis.ConnectionPool(
                    connection_class=pool.connection_class, **pool.connection_kwargs
                )
            )
        )
        return opened[-1]

    made = parts.recorder.create(
        "hats", *[get_game("hats").example(0)[k] for k in ("players", "setup", "options")]
    )
    hub = LiveHub(connect, parts.store, parts.keys)
    start_version = parts.store.version(made.match_id)
    watches = [hub.watch(made.match_id, "hats", start_version) for _ in range(watchers)]
    actions = get_game("hats").example(0)["actions"][:appends]
    lags = []
    for action in actions:
        sent = time.perf_counter()
        parts.recorder.act(made.match_id, made.token, action)
        target = parts.store.version(made.match_id)
        for watch in watches:
            while watch.last < target:
                watch.next_events(timeout=5)
        lags.append(time.perf_counter() - sent)
    hub.close()
    lags.sort()
    print(
        f"live: {watchers} watchers of one match on {len(opened)} hub connection(s); append to "
        f"last watcher delivered: median {lags[len(lags) // 2] * 1000:.1f} ms, "
        f"max {lags[-1] * 1000:.1f} ms over {len(lags)} appends"
    )


def main() -> None:
    """Run every sharing benchmark."""
    with bench_parts() as parts:
        match_id, _, actions = longest_wizard(parts)
        print(f"longest Wizard example: {actions} actions")
        export_import_fork(parts, match_id)
        statistics(parts, match_id)
        fan_out(parts)


if __name__ == "__main__":
    main()
