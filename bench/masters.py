"""How evenly a club's load falls on the masters of a Redis Cluster: `python -m bench.masters`.

A 3-master cluster on this machine (the RQ queue on a standalone Redis of its own, as deployed)
takes MATCHES matches of the five games, recorded action by action over HTTP (the app served in
process) while a club's pages read them as they go: the match list with and without filters,
a player's statistics, a game's leaderboard, replays, states, scoreboards, the next actions, the
live stream, forks of finished matches, and the global feed. A projection thread runs passes as
a worker does. Each master's own count of the commands it ran (INFO commandstats) is read before
and after; the figure is the busiest master's share of all commands (a third would be even),
for the whole load and for its recording alone, with the busiest keys' kinds beside it.

    .venv/bin/python -m bench.masters [--matches 95] [--seed 0]

The figure is a share, not a time, so the machine's other load does not move it; the draw of
matches to slots does (95 matches over 3 masters: about 32 ± 5 each), so it prints the spread of
the matches too.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import redis
from flask.testing import FlaskClient
from redis.crc import key_slot

from events.keys import Keys
from games.registry import all_games
from service.app import create_app
from service.config import Settings
from tests.e2e.faults.stack import RedisServer
from tests.support.redis_cluster import redis_cluster
from workers.drain import drain

MATCHES = 95
# Reads a club's pages make, one round of them every READ_EVERY recorded actions.
READ_EVERY = 8


# Commands that name no key (or whose place is the connection's server, not a key's slot).
KEYLESS = {
    "multi",
    "exec",
    "ping",
    "info",
    "cluster",
    "script",
    "readonly",
    "client",
    "hello",
    "command",
    "select",
}
ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')
LINE = re.compile(r"^[0-9.]+ \[[0-9]+ ([^\]]+)\] (.*)$")


class Monitor:
    """Every command each master ran, as MONITOR shows it, written to a file per master."""

    def __init__(self, folder: Path, ports: list[int]) -> None:
        self.files = {port: folder / f"monitor-{port}.txt" for port in ports}
        self.procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> Monitor:
        for port, path in self.files.items():
            out = path.open("wb")
            self.procs.append(subprocess.Popen(["redis-cli", "-p", str(port), "monitor"], stdout=out))
        time.sleep(0.5)
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)

    def costs(self, prefix: str, usec: dict[str, tuple[int, float]]) -> dict[int, tuple[str, int, float]]:
        """slot -> (the kind of its keys, commands, estimated server µs): each command costs its
        type's mean µs (INFO commandstats); a script its type's mean, shared out among the
        scripts in proportion to the commands each ran inside (1 + its redis.calls)."""
        slots: dict[int, list[Any]] = {}
        scripts: list[tuple[int, int]] = []  # (slot, commands inside)
        for path in self.files.values():
            with path.open(encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    found = LINE.match(line)
                    if not found:
                        continue
                    source, args = found.group(1), ARG.findall(found.group(2))
                    if source == "lua":
                        if scripts:
                            scripts[-1] = (scripts[-1][0], scripts[-1][1] + 1)
                        continue
                    if not args:
                        continue
                    command, key = args[0].lower(), first_key(args)
                    if key is None or command in KEYLESS:
                        continue
                    slot = key_slot(key.encode())
                    entry = slots.setdefault(slot, [kind_of(key, prefix), 0, 0.0])
                    entry[1] += 1
                    if command in ("evalsha", "eval"):
                        scripts.append((slot, 1))
                    else:
                        calls, spent = usec.get(command, (0, 0.0))
                        entry[2] += spent / calls if calls else 0.0
        calls, spent = usec.get("evalsha", (0, 0.0))
        units = sum(n for _, n in scripts) or 1
        for slot, n in scripts:
            slots[slot][2] += spent * n / units
        return {slot: (kind, n, cost) for slot, (kind, n, cost) in slots.items()}


def first_key(args: list[str]) -> str | None:
    """The first key a command names, as a cluster routes it."""
    command = args[0].lower()
    if command in ("evalsha", "eval"):
        return args[3] if len(args) > 3 and args[2] != "0" else None
    if command in ("xread", "xreadgroup"):
        upper = [a.upper() for a in args]
        return args[upper.index("STREAMS") + 1] if "STREAMS" in upper else None
    return args[1] if len(args) > 1 else None


def kind_of(key: str, prefix: str) -> str:
    """What a key is, in the words of docs/operations.md."""
    rest = key[len(prefix) + 1 :] if key.startswith(prefix + ":") else key
    for start, kind in (
        ("{dirty-", "dirty marks, a shard"),
        ("dirty", "dirty set (one key)"),
        ("wake", "dirty set (one key)"),
        ("{matches-", "registry, a shard"),
        ("matches", "registry (one key)"),
        ("{idx-", "index, a shard"),
        ("idx:", "index (one key each)"),
        ("stats:", "player statistics"),
        ("{feed-", "feed partition"),
        ("limits", "rate counters"),
        ("hook", "webhooks"),
        ("health", "health check"),
        ("{", "a match's own keys"),
    ):
        if rest.startswith(start):
            return kind
    return "other"


def usec_by_command(ports: list[int]) -> dict[str, tuple[int, float]]:
    """command -> (calls, µs) over every server so far (INFO commandstats)."""
    found: dict[str, tuple[int, float]] = {}
    for port in ports:
        for name, stat in redis.Redis(port=port).info("commandstats").items():
            calls, spent = found.get(name[len("cmdstat_") :], (0, 0.0))
            found[name[len("cmdstat_") :]] = (calls + int(stat["calls"]), spent + float(stat["usec"]))
    return found


def commands(ports: list[int]) -> dict[int, int]:
    """Each server's count of commands run so far (every command, from INFO commandstats)."""
    found = {}
    for port in ports:
        stats = redis.Redis(port=port).info("commandstats")
        found[port] = sum(int(v["calls"]) for k, v in stats.items() if k not in ("cmdstat_info",))
    return found


def share(before: dict[int, int], after: dict[int, int]) -> tuple[float, list[int]]:
    """The busiest server's share of the commands run between the two counts, and each count."""
    ran = [after[p] - before[p] for p in before]
    return max(ran) / max(sum(ran), 1), ran


def kind(path: str) -> str:
    """What a page asked for: ``list``, ``match``, ``replay``, ``players``, ``leaderboards``..."""
    parts = path.split("?")[0].strip("/").split("/")[1:]
    if parts[0] == "matches":
        return "list" if len(parts) == 1 else "match" if len(parts) == 2 else parts[2]
    return parts[0]


class Club:
    """A club's tables and its readers, over one app."""

    def __init__(self, client: FlaskClient, seed: int) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.tables: list[dict[str, Any]] = []
        self.finished: list[str] = []
        self.players: list[str] = []
        self.reads = Counter[str]()

    def create(self, count: int) -> None:
        games = list(all_games().values())
        for i in range(count):
            game = games[i % len(games)]
            script = game.example(i // len(games))
            made = self.client.post(
                "/v1/matches",
                json={k: script[k] for k in ("players", "setup", "options")} | {"game": game.id},
            )
            assert made.status_code == 201, made.json
            body: dict[str, Any] = made.get_json()
            self.tables.append({"id": body["id"], "token": body["token"], "actions": iter(script["actions"])})
            self.players += script["players"]
            self.reads["create"] += 1

    def act(self, table: dict[str, Any]) -> bool:
        action = next(table["actions"], None)
        if action is None:
            self.finished.append(table["id"])
            return False
        answer = self.client.post(
            f"/v1/matches/{table['id']}/actions",
            json=action,
            headers={"Authorization": f"Bearer {table['token']}"},
        )
        assert answer.status_code == 201, answer.json
        return True

    def read(self) -> None:
        """One round of the pages' reads."""
        rng, get = self.rng, self.client.get
        some = rng.choice(self.tables)["id"]
        game = rng.choice(list(all_games()))
        player = rng.choice(self.players)
        paths = [
            "/v1/matches?limit=20",
            rng.choice(
                [
                    f"/v1/matches?game={game}&limit=20",
                    "/v1/matches?status=in_progress&limit=20",
                    "/v1/matches?status=finished&limit=20&offset=20",
                    f"/v1/matches?player={player}&limit=20",
                    f"/v1/matches?game={game}&status=finished&limit=20",
                ]
            ),
            f"/v1/matches/{some}",
            f"/v1/matches/{some}/{rng.choice(['replay', 'state', 'scores', 'next', 'events'])}",
        ]
        if rng.random() < 0.3:
            paths += [f"/v1/players/{player}", f"/v1/leaderboards/{game}"]
        if rng.random() < 0.2:
            paths.append("/v1/feed?limit=100")
        for path in paths:
            answer = get(path)
            # A player's statistics are the workers' to project: until a match naming the player is
            # projected, the page answers 404 unknown_player, as it would to a club's reader.
            unknown = path.startswith("/v1/players/") and (answer.json or {}).get("code") == "unknown_player"
            assert answer.status_code == 200 or unknown, (path, answer.json)
            self.reads[kind(path)] += 1
        if rng.random() < 0.1:
            self.follow(some)
        if self.finished and rng.random() < 0.05:
            source = rng.choice(self.finished)
            version = self.client.get(f"/v1/matches/{source}").get_json()["version"]
            forked = self.client.post(f"/v1/matches/{source}/fork", json={"at": version})
            assert forked.status_code == 201, forked.json
            self.reads["fork"] += 1

    def follow(self, match_id: str) -> None:
        """Open the live stream, read its first frame, and leave, as a spectator who glances."""
        answer = self.client.get(f"/v1/matches/{match_id}/live", headers={"Last-Event-ID": "0"})
        try:
            for chunk in answer.response:
                if b"data: " in (chunk if isinstance(chunk, bytes) else chunk.encode()):
                    break
        finally:
            answer.close()
        self.reads["live"] += 1


def run(settings: Settings, ports: list[int], matches: int, seed: int, folder: Path) -> None:
    """The whole load, and the figures."""
    app = create_app(settings)
    parts = app.extensions["tabletape"]
    stop = threading.Event()

    def project() -> None:
        while not stop.is_set():
            drain(parts.projector, parts.keys, budget=1.0)
            time.sleep(0.02)

    club = Club(app.test_client(), seed)
    worker = threading.Thread(target=project, daemon=True)
    worker.start()
    try:
        with Monitor(folder, ports) as monitor:
            before = usec_by_command(ports)
            measure(club, ports, matches)
            after = usec_by_command(ports)
        spent = {
            c: (n - before.get(c, (0, 0.0))[0], u - before.get(c, (0, 0.0))[1]) for c, (n, u) in after.items()
        }
        hot_keys(monitor.costs(settings.prefix, spent))
    finally:
        time.sleep(1.0)
        stop.set()
        worker.join()
        parts.close()


def measure(club: Club, ports: list[int], matches: int) -> None:
    """Record every table to its end with the pages reading meanwhile; print the shares."""
    start = commands(ports)
    club.create(matches)
    recording_only = 0.0
    written = 0
    open_tables = list(club.tables)
    while open_tables:
        table = club.rng.choice(open_tables)
        if not club.act(table):
            open_tables.remove(table)
            continue
        written += 1
        if written % READ_EVERY == 0:
            club.read()
        if written == 2000:
            # A stretch of recording alone, measured on its own.
            quiet = commands(ports)
            for _ in range(1500):
                if not open_tables:
                    break
                table = club.rng.choice(open_tables)
                if club.act(table):
                    written += 1
                else:
                    open_tables.remove(table)
            recording_only, _ = share(quiet, commands(ports))
    busiest, ran = share(start, commands(ports))
    where = Counter(key_slot(f"{{{t['id']}}}".encode()) // 5462 for t in club.tables)
    print(f"{matches} matches, {written} actions recorded, reads: {dict(sorted(club.reads.items()))}")
    print(f"matches per master (by slot range): {sorted(where.values(), reverse=True)}")
    print(f"commands per master: {ran} ({sum(ran):,} in all)")
    print(f"busiest master's share of every command: {busiest:.1%} (even: {1 / len(ports):.1%}; goal <= 40%)")
    print(f"busiest master's share while recording alone: {recording_only:.1%}")


def hot_keys(slots: dict[int, tuple[str, int, float]]) -> None:
    """Each kind of key: its slots, its share of the commands and of the servers' time, and its
    busiest slot's share of the time, which no number of masters can split: a kind whose busiest
    slot takes a share s holds a cluster of n masters back once s > 1/n. With 95 matches a slot's
    load still depends on which matches hash to it; over many matches it tends to the kind's share
    divided by its slots, the last column."""
    total_n = sum(n for _, n, _ in slots.values()) or 1
    total_cost = sum(c for _, _, c in slots.values()) or 1.0
    kinds: dict[str, list[tuple[int, float]]] = {}
    for kind, n, cost in slots.values():
        kinds.setdefault(kind, []).append((n, cost))
    print("by kind of key (server time estimated from each command type's mean, INFO commandstats):")
    print("  kind | slots | commands | server time | busiest slot's time | masters it allows: here, spread")
    for kind, found in sorted(kinds.items(), key=lambda pair: -sum(c for _, c in pair[1])):
        spent = sum(c for _, c in found) / total_cost
        hottest = max(c for _, c in found) / total_cost
        if kind == "a match's own keys":
            allows = "(grows with the matches)"
        else:
            allows = f"{1 / hottest:,.0f}, {len(found) / spent:,.0f}" if spent else "-"
        print(
            f"  {kind} | {len(found)} | {sum(n for n, _ in found) / total_n:.1%} | {spent:.1%} | "
            f"{hottest:.2%} | {allows}"
        )


def main(argv: list[str] | None = None) -> None:
    """Start the servers, run the load, stop them, and remove their files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tt-bench-masters-"))
    try:
        queue = RedisServer(folder / "queue")
        queue.start()
        try:
            with redis_cluster(folder / "cluster", masters=3) as cluster:
                prefix = Keys(f"tt-bench-{uuid.uuid4().hex[:8]}").prefix
                settings = Settings(
                    redis_url=cluster.url,
                    redis_cluster=True,
                    rq_redis_url=queue.url,
                    prefix=prefix,
                    redis_timeout=60,
                )
                run(settings, cluster.masters(), args.matches, args.seed, folder)
        finally:
            queue.stop()
    finally:
        # The servers' files and the MONITOR logs (about 50 MB a master for 95 matches).
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
