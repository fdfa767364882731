"""Projection lag under load: `python -m bench.lag`.

Two real `tabletape worker` processes keep the projections of 100 Wizard matches while two writer
processes record legal actions into them at a fixed total rate (500, then 1,000 actions/s). The
lag of a write is the time from its acknowledgement until a poller sees its match's projection
checkpoint reach it; p50 and p99 are printed, with the goal (p99 < 250 ms at 500 actions/s).
Then one match alone at 5 actions/s, as one table's scorekeeper records it.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.harness import bench_parts
from games.registry import get_game
from service.bootstrap import Services, build
from service.config import Settings

MATCHES = 100
SECONDS = 8.0
GOAL_P99 = 0.250


def create_matches(parts: Services, count: int) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """``count`` Wizard matches, each with the actions still to record (match id, token, actions)."""
    game = get_game("wizard")
    made = []
    for seed in range(count):
        script = game.example(seed)
        created = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        made.append((created.match_id, created.token, script["actions"]))
    return made


def write(url: str, prefix: str, matches: list[Any], rate: float, seconds: float, out: Any) -> None:
    """Record actions round-robin over ``matches`` at ``rate`` per second; send (id, version, t) back."""
    parts = build(Settings(redis_url=url, prefix=prefix, redis_timeout=30))
    acked = []
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        due = start + n / rate
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        match_id, token, actions = matches[n % len(matches)]
        step = n // len(matches)
        if step < len(actions):
            answer = parts.recorder.act(match_id, token, actions[step])
            acked.append((match_id, answer.version, time.time()))
        n += 1
    out.put(acked)
    parts.close()


def measure(
    parts: Services, url: str, rate: float, count: int = MATCHES, writing: int = 2, seconds: float = SECONDS
) -> tuple[float, float, float]:
    """(p50, p99, achieved rate) of the lag at ``rate`` actions/s over ``count`` fresh matches,
    written by ``writing`` processes for ``seconds``."""
    matches = create_matches(parts, count)
    parts.projector.project_many([m for m, _, _ in matches])
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    shares = [matches[i::writing] for i in range(writing)]
    writers = [
        context.Process(target=write, args=(url, parts.keys.prefix, share, rate / writing, seconds, out))
        for share in shares
    ]
    seen: dict[str, list[tuple[int, float]]] = {m: [] for m, _, _ in matches}
    for writer in writers:
        writer.start()
    ids = [m for m, _, _ in matches]
    deadline = time.time() + seconds + 30
    results: list[Any] = []
    while time.time() < deadline:
        now = time.time()
        with parts.client.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hget(parts.keys.proj(match_id), "checkpoint")
            for match_id, raw in zip(ids, pipe.execute(), strict=True):
                checkpoint = int(raw or 0)
                if not seen[match_id] or seen[match_id][-1][0] != checkpoint:
                    seen[match_id].append((checkpoint, now))
        while not out.empty():
            results.append(out.get())
        if len(results) == len(writers) and all(caught_up(seen, r) for r in results):
            break
        time.sleep(0.005)
    for writer in writers:
        writer.join()
    acked = [a for r in results for a in r]
    # A projection the write carried is in place before its acknowledgement reaches the writer, and
    # a poll that started before the acknowledgement may see it: no lag, not a negative one.
    lags = sorted(max(0.0, first_seen(seen[m], version) - t) for m, version, t in acked)
    return lags[len(lags) // 2], lags[int(len(lags) * 0.99)], len(acked) / seconds


def caught_up(seen: dict[str, list[tuple[int, float]]], acked: list[Any]) -> bool:
    """Whether every acknowledged write is projected."""
    return all(seen[m] and seen[m][-1][0] >= version for m, version, _ in acked)


def first_seen(history: list[tuple[int, float]], version: int) -> float:
    """When the poller first saw the checkpoint at or beyond ``version``."""
    return next(t for checkpoint, t in history if checkpoint >= version)


def workers(url: str, prefix: str, count: int = 2) -> list[subprocess.Popen[bytes]]:
    """``count`` real `tabletape worker` processes on the bench's prefix."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETAPE_")}
    env.update(REDIS_URL=url, TABLETAPE_PREFIX=prefix)
    root = Path(__file__).resolve().parents[1]
    return [
        subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "worker"], env=env, cwd=root, stderr=subprocess.DEVNULL
        )
        for _ in range(count)
    ]


def main(matches: int = MATCHES, seconds: float = SECONDS, rates: tuple[int, ...] = (500, 1000)) -> None:
    """Measure the lag at each of ``rates`` actions/s over ``matches`` matches, ``seconds`` each."""
    with bench_parts() as parts:
        url = parts.settings.redis_url
        running = workers(url, parts.keys.prefix)
        try:
            time.sleep(2)  # the workers connect and sweep
            # A worker's first pass imports the rules and reads every position it has not seen:
            # the first writes wait for it. Shown apart, so that the figures below are the
            # steady state a club sees all evening.
            p50, p99, achieved = measure(parts, url, rates[0], matches, seconds=seconds)
            print(
                f"projection lag while the workers are cold (their first {seconds:g} s, {achieved:.0f} "
                f"actions/s): p50 {p50 * 1e3:.0f} ms, p99 {p99 * 1e3:.0f} ms"
            )
            for rate in rates:
                p50, p99, achieved = measure(parts, url, rate, matches, seconds=seconds)
                print(
                    f"projection lag at {rate} actions/s ({achieved:.0f} achieved) over {matches} matches, "
                    f"2 workers: p50 {p50 * 1e3:.0f} ms, p99 {p99 * 1e3:.0f} ms; "
                    f"p99 / 250 ms goal = {p99 / GOAL_P99:.2f}x"
                )
            # One table alone: a scorekeeper's write should be on the scoreboard at once.
            p50, p99, achieved = measure(parts, url, 5, count=1, writing=1, seconds=seconds)
            print(
                f"projection lag of a single match at 5 actions/s ({achieved:.1f} achieved), 2 workers: "
                f"p50 {p50 * 1e3:.0f} ms, p99 {p99 * 1e3:.0f} ms"
            )
        finally:
            for worker in running:
                worker.terminate()
            for worker in running:
                worker.wait(timeout=20)


if __name__ == "__main__":
    main()
