"""Recording on one Redis against a 3-master Redis Cluster on this machine, the cost of
TABLETAPE_WAIT_REPLICAS, and on paper what 10, 100 and 1,000 masters would carry.

    .venv/bin/python -m bench.cluster        (about a minute; starts its own servers on free ports)

Each store gets the same load: WRITERS threads, each recording Wizard matches action by action
through the recorder (rules, append script, dirty mark; the projector run by one more thread), for
SECONDS. The anchor is a raw XADD on the single server, measured in the same run. Besides the
actions per second the client reached, it reads each server's own CPU (INFO cpu, main thread), which
is what a master with a core of its own would be limited by: the paper figures scale that, and say
what they assume. On a shared 2-core machine the Python clients, not Redis, set the pace, so the
3-node figure here says that sharding costs nothing, not how far it carries.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import redis

from games.registry import get_game
from service.bootstrap import Services, build
from service.config import Settings
from tests.e2e.faults.stack import RedisServer
from tests.support.redis_cluster import redis_cluster

WRITERS = 4
SECONDS = 8.0


@dataclass(frozen=True)
class Run:
    """What one store did under the load."""

    name: str
    actions: int
    seconds: float
    server_cpu: dict[int, float]  # port -> CPU seconds of its main thread during the run
    calls: dict[str, float]  # command -> how many times the servers ran it during the run

    @property
    def rate(self) -> float:
        """Recorded actions per second."""
        return self.actions / self.seconds

    def cpu_per_action(self) -> float:
        """Server CPU seconds per recorded action, over every node."""
        return sum(self.server_cpu.values()) / self.actions


def cpu_of(port: int) -> float:
    """The main thread's CPU seconds of the server on ``port``."""
    info = redis.Redis(port=port).info("cpu")
    return float(info["used_cpu_user_main_thread"]) + float(info["used_cpu_sys_main_thread"])


def command_calls(ports: list[int]) -> dict[str, float]:
    """How many times each command has run so far, summed over the servers on ``ports``."""
    found: dict[str, float] = {}
    for port in ports:
        for name, stats in redis.Redis(port=port).info("commandstats").items():
            found[name] = found.get(name, 0.0) + float(stats["calls"])
    return found


def record(settings: Settings, ports: list[int], name: str) -> Run:
    """WRITERS tables recording for SECONDS, one projector thread projecting what they wrote."""
    game = get_game("wizard")
    scripts = [s for s in map(game.example, range(40)) if len(s["actions"]) > 50][:WRITERS]
    done = [0] * WRITERS
    pending: set[str] = set()
    stop = threading.Event()

    def notify(match_id: str) -> None:
        # A worker's queue replaced by a set (the write has marked the match itself).
        pending.add(match_id)

    parts = build(settings, notify=notify)

    def write(i: int) -> None:
        script = scripts[i % len(scripts)]
        while not stop.is_set():
            match = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
            for action in script["actions"]:
                if stop.is_set():
                    return
                parts.recorder.act(match.match_id, match.token, action)
                done[i] += 1

    def project() -> None:
        # As a worker does: one run per match written to since the last pass.
        while not stop.is_set():
            while pending:
                parts.projector.project(pending.pop())
            time.sleep(0.01)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    threads.append(threading.Thread(target=project))
    before, usec = {port: cpu_of(port) for port in ports}, command_calls(ports)
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(SECONDS)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cpu = {port: cpu_of(port) - before[port] for port in ports}
    after = command_calls(ports)
    parts.close()
    return Run(name, sum(done), elapsed, cpu, {c: after[c] - usec.get(c, 0.0) for c in after})


def raw_xadd(port: int, calls: int = 3000) -> float:
    """Seconds per raw XADD of a small entry, one client, one after another: the anchor."""
    client = redis.Redis(port=port)
    stream = f"tt-bench-anchor-{uuid.uuid4().hex[:6]}"
    start = time.perf_counter()
    for _ in range(calls):
        client.xadd(stream, {"type": "CardPlayed", "data": '{"card":"7H"}'})
    spent = (time.perf_counter() - start) / calls
    client.delete(stream)
    return spent


def waits(parts: Services, rounds: int = 6, calls: int = 40) -> tuple[float, float]:
    """Seconds per recorded action without and with WAIT for one replica, in alternating rounds
    (so that the machine's other load falls on both alike): the medians of the rounds."""
    game = get_game("wizard")
    script = next(s for s in map(game.example, range(40)) if len(s["actions"]) >= rounds * calls * 2)
    match = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
    actions = iter(script["actions"])
    spent: dict[int, list[float]] = {0: [], 1: []}
    for _ in range(rounds):
        for replicas in (0, 1):
            parts.store.replicas = replicas
            start = time.perf_counter()
            for _ in range(calls):
                parts.recorder.act(match.match_id, match.token, next(actions))
            spent[replicas].append((time.perf_counter() - start) / calls)
    parts.store.replicas = 0
    return statistics.median(spent[0]), statistics.median(spent[1])


# Commands on the cross-match keys in this load: the dirty set (SADD, SREM), the registry and the
# indexes (ZADD, ZREM), the statistics (HDEL; their HSETs are counted with the projections').
DIRTY = ("cmdstat_sadd", "cmdstat_srem")
CROSS = (*DIRTY, "cmdstat_zadd", "cmdstat_zrem", "cmdstat_hdel")


def calls_per_action(run: Run, names: tuple[str, ...]) -> float:
    """How many calls of ``names`` one recorded action cost."""
    return sum(run.calls.get(name, 0.0) for name in names) / run.actions


def paper(run: Run) -> None:
    """What 10, 100 and 1,000 masters would carry, from the server CPU measured per action."""
    per_action_cpu = run.cpu_per_action()
    per_call = sum(run.server_cpu.values()) / sum(run.calls.values())
    dirty, cross = calls_per_action(run, DIRTY), calls_per_action(run, CROSS)
    per_master = 0.7 / per_action_cpu
    hot_limit = 0.7 / (dirty * per_call)
    print(
        "on paper (assumptions: a master has one core of its own and is kept under 70 % busy; "
        "matches spread evenly over the slots, every master serving as many; API and worker "
        "processes added as needed, outside Redis; replicas double the nodes and carry no load "
        "of their own; a master's work per action as measured here):"
    )
    print(f"  one master: about {per_master:,.0f} recorded actions/s")
    for masters in (10, 100, 1000):
        sharded = per_master * masters
        carried = min(sharded, hot_limit)
        print(
            f"  {masters:>5} masters: {carried:,.0f} actions/s"
            + (" (held back by the cross-match keys' masters)" if carried < sharded else "")
            + f"; at 1 action per 10 s per table, {carried * 10:,.0f} tables recording at once"
        )
    print(
        f"  the cross-match keys (dirty set, registry, indexes, statistics) cost {cross:.1f} commands "
        f"per action, each key on one master whatever the size; the dirty set alone ({dirty:.2f} per "
        f"action: a SADD per write, a SREM per projection) at {per_call * 1e6:.0f} µs of server CPU a "
        f"command caps a cluster at about {hot_limit:,.0f} actions/s, the index of matches in "
        "progress (a ZADD per projection) next: beyond that they must be split by slot (a dirty set "
        "and an index per group of slots, which the sweep and the lists read from every group)"
    )
    print(
        "  (with appendfsync always a master also waits for its disk: Redis fsyncs once per turn "
        "of its event loop for every write in it, so tables share fsyncs, but a disk slower than "
        "this machine's lowers the per-master figure; the API's own CPU, measured by bench "
        "__main__'s record figure, is added by adding API processes)"
    )


def main() -> None:
    """Run every store under the same load and print the figures."""
    folder = Path(tempfile.mkdtemp(prefix="tt-bench-cluster-"))
    single = RedisServer(folder / "single")
    single.start()
    try:
        anchor = raw_xadd(single.port)
        settings = Settings(redis_url=single.url, prefix=f"tt-bench-{uuid.uuid4().hex[:8]}", redis_timeout=60)
        one = record(settings, [single.port], "1 node")
        with redis_cluster(folder / "cluster", masters=3, replicas=1) as cluster:
            settings = Settings(
                redis_url=cluster.url, redis_cluster=True, rq_redis_url=single.url, prefix=settings.prefix
            )
            three = record(settings, cluster.masters(), "3-master cluster (a replica each)")
            parts = build(settings, notify=lambda match_id: None)
            plain, waited = waits(parts)
            parts.close()
    finally:
        single.stop()
    print(f"anchor: a raw XADD on one node takes {anchor * 1e3:.3f} ms")
    for run in (one, three):
        print(
            f"{run.name}: {run.rate:,.0f} recorded actions/s with {WRITERS} writers "
            f"({1 / run.rate / anchor:.1f} raw XADDs of time each); server CPU "
            f"{run.cpu_per_action() * 1e6:.0f} µs per action, by node "
            + ", ".join(f"{cpu / run.actions * 1e6:.0f}" for cpu in run.server_cpu.values())
        )
    print(f"3-master cluster against 1 node: {three.rate / one.rate:.2f}x the actions per second")
    print(
        f"TABLETAPE_WAIT_REPLICAS=1: {waited * 1e3:.2f} ms per recorded action against "
        f"{plain * 1e3:.2f} ms without ({waited / plain:.2f}x; {(waited - plain) * 1e3:.2f} ms for the WAIT)"
    )
    paper(three)


if __name__ == "__main__":
    main()
