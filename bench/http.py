"""HTTP recording under gunicorn against a minimal Flask + one EVALSHA app: `python -m bench.http`.

Both run under the same gunicorn (2 gthread workers x 4 threads; tabletape with one projection
worker) and the same load: wrk (Debian's package) with 8 threads of one connection each, every
connection sending the legal action sequences of its own 24 of 192 Wizard matches, in order.
Both servers stay up and take turns, a few seconds each, for several rounds (each round on 192
matches of its own), so that a machine whose speed drifts during the run slows both alike; the
rates are each app's requests over its own seconds under load.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import requests

from bench.harness import bench_parts
from bench.lag import workers
from games.registry import get_game
from service.bootstrap import Services

ROOT = Path(__file__).resolve().parents[1]
MATCHES, CONNECTIONS, SECONDS, ROUNDS = 192, 8, 4, 3
# tabletape whose writes mark their match instead of carrying its projection (``--marking``).
MARKING = "tabletape, marking"
# A pass of the projection worker ends this long after the last write (events.defaults.PASS_IDLE).
IDLE_AFTER = 0.5

# Each connection sends its matches' actions in turn, and moves a match on to its next action
# only when the last one was recorded (201): a request wrk generated but never sent is sent again.
WRK_SCRIPT = """
local data = dofile(os.getenv("TT_BENCH_DATA"))
local counter = 0
function setup(thread) thread:set("tid", counter); counter = counter + 1 end
function init(args)
  mine, next_step, turn, last = {}, {}, 0, nil
  for i, m in ipairs(data) do
    if (i - 1) % CONNECTIONS == tid then table.insert(mine, m); next_step[#mine] = 1 end
  end
end
function request()
  turn = turn % #mine + 1
  last = turn
  local m = mine[turn]
  local body = m.actions[math.min(next_step[turn], #m.actions)]
  return wrk.format("POST", m.path,
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. m.token}, body)
end
function response(status, headers, body)
  if status == 201 then
    next_step[last] = next_step[last] + 1
  elseif refused < 3 then
    refused = refused + 1
    io.stderr:write("answered ", status, ": ", body:sub(1, 300), string.char(10))
  end
end
refused = 0
"""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def matches_file(parts: Services, folder: Path, name: str = "matches", matches: int = MATCHES) -> Path:
    """Create ``matches`` matches; write them, their tokens and their actions as a Lua table for wrk."""
    game = get_game("wizard")
    # The longest examples, so that no match runs out of actions within the run.
    scripts = sorted(map(game.example, range(40)), key=lambda s: len(s["actions"]))[-4:]
    rows = []
    for i in range(matches):
        script = scripts[i % len(scripts)]
        made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
        actions = ", ".join(f"[==[{json.dumps(a)}]==]" for a in script["actions"])
        path = f"/v1/matches/{made.match_id}/actions"
        rows.append(f'{{path = "{path}", token = "{made.token}", actions = {{{actions}}}}}')
    target = folder / f"{name}.lua"
    target.write_text("return {\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    return target


def serve(app: str, env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """gunicorn with the benchmark's settings; returns once it answers."""
    argv = [sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gthread"]
    argv += ["--threads", "4", "--bind", f"127.0.0.1:{port}", "--no-control-socket", app]
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except requests.RequestException:
            time.sleep(0.1)
    # Not left running for the caller, which never got it to stop.
    proc.terminate()
    proc.wait(timeout=30)
    raise RuntimeError(f"{app} did not start")


def cpu_seconds(procs: dict[str, list[psutil.Process]]) -> dict[str, float]:
    """CPU seconds (user + system) each named group of processes has used so far."""
    used = {}
    for name, group in procs.items():
        total = 0.0
        for proc in group:
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
        used[name] = total
    return used


def server_processes(
    server: subprocess.Popen[bytes], workers: list[subprocess.Popen[bytes]]
) -> dict[str, list[psutil.Process]]:
    """The processes whose CPU a run is charged with: gunicorn's, the projection workers', Redis's."""
    master = psutil.Process(server.pid)
    found = {"gunicorn": [master, *master.children(recursive=True)]}
    found["projection worker"] = [psutil.Process(w.pid) for w in workers]
    found["redis-server"] = [p for p in psutil.process_iter(["name"]) if p.info["name"] == "redis-server"]
    return found


def load(port: int, data: Path, folder: Path, seconds: float = SECONDS) -> tuple[float, int]:
    """(requests/s, non-2xx answers) of wrk against the server on ``port`` for ``seconds``."""
    lua = folder / "load.lua"
    lua.write_text(WRK_SCRIPT.replace("CONNECTIONS", str(CONNECTIONS)))
    argv = ["wrk", "-t", str(CONNECTIONS), "-c", str(CONNECTIONS), "-d", f"{seconds:g}s", "-s", str(lua)]
    done = subprocess.run(
        [*argv, f"http://127.0.0.1:{port}"],
        env={**os.environ, "TT_BENCH_DATA": str(data)},
        capture_output=True,
        text=True,
        check=True,
    )
    if done.stderr.strip():
        print(f"http: some answers were not 2xx, for example:\n{done.stderr.strip()[:1500]}")
    out = done.stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rate, int(bad.group(1)) if bad else 0


def in_process(parts: Services, matches: int = 3) -> float:
    """Both apps served in process, one WSGI call per request, turn about; prints and returns the
    ratio of their rates. No server, no load generator and no projection worker share the cores,
    so it shows the application's own cost alone. The matches' projections are kept up between
    requests, untimed, as workers that keep up keep them: each write carries the projection it
    leaves and moves it in (each alone in the process, so its projection follows its append on
    the same connection; under gunicorn most have company, and carry it in the append's send)."""
    from werkzeug.test import EnvironBuilder

    from bench import anchor
    from service.app import create_app

    settings = dataclasses.replace(parts.settings, write_rate="10000000/minute")
    ours = create_app(settings)
    saved = {k: os.environ.get(k) for k in ("REDIS_URL", "TABLETAPE_PREFIX")}
    os.environ.update(REDIS_URL=parts.settings.redis_url, TABLETAPE_PREFIX=parts.keys.prefix)
    try:
        floor = anchor.create_app()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> Callable[[bytes], object]:
        statuses.append(status)
        return lambda data: None

    spent = {"tabletape": 0.0, "anchor": 0.0}
    game = get_game("wizard")
    script = max((game.example(seed) for seed in range(40)), key=lambda s: len(s["actions"]))
    try:
        for _ in range(matches):
            made = parts.recorder.create("wizard", script["players"], script["setup"], script["options"])
            for action in script["actions"]:
                if parts.stored.checkpoint(made.match_id) != parts.store.version(made.match_id):
                    parts.projector.project(made.match_id)  # a creation, or a snapshot's step
                for name, app in (("tabletape", ours), ("anchor", floor)):
                    environ = EnvironBuilder(
                        path=f"/v1/matches/{made.match_id}/actions",
                        method="POST",
                        json=action,
                        headers=[("Authorization", f"Bearer {made.token}")],
                    ).get_environ()
                    started = time.perf_counter()
                    answer = app.wsgi_app(environ, start_response)
                    b"".join(answer)
                    getattr(answer, "close", lambda: None)()  # as a server closes it
                    spent[name] += time.perf_counter() - started
                    if not statuses[-1].startswith("201"):
                        raise RuntimeError(f"{name} answered {statuses[-1]}")
    finally:
        ours.extensions["tabletape"].close()
    count = matches * len(script["actions"])
    ratio = spent["anchor"] / spent["tabletape"]
    print(
        f"http: served in process (a WSGI call per request, turn about), tabletape "
        f"{spent['tabletape'] / count * 1e6:.0f} us a request, minimal Flask + one EVALSHA "
        f"{spent['anchor'] / count * 1e6:.0f} us; ratio of rates {ratio:.2f}x"
    )
    return ratio


def main(
    argv: list[str] | None = None, matches: int = MATCHES, rounds: int = ROUNDS, seconds: float = SECONDS
) -> None:
    """Print tabletape's HTTP recording rate against the anchor's: in process, then under gunicorn
    (``--marking``: also tabletape with writes that mark their match instead of carrying its
    projection, bench/marking.py, taking turns with the other two), ``rounds`` turns of
    ``seconds`` each, every round on ``matches`` matches of its own."""
    marking = "--marking" in (sys.argv[1:] if argv is None else argv)
    with bench_parts() as parts:
        in_process(parts)
    if shutil.which("wrk") is None:
        print("http: under gunicorn skipped, wrk is not installed (apt-get install wrk)")
        return
    with bench_parts() as parts, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # Each round's matches: the anchor appends to scratch logs beside tabletape's matches, and
        # the marking tabletape, which records them as tabletape does, takes matches of its own.
        files = []
        for r in range(rounds):
            shared = matches_file(parts, folder, f"round{r}", matches)
            files.append({"anchor": shared, "tabletape": shared})
            if marking:
                files[-1][MARKING] = matches_file(parts, folder, f"round{r}-marking", matches)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETAPE_")}
        env.update(REDIS_URL=parts.settings.redis_url, TABLETAPE_PREFIX=parts.keys.prefix)
        # One address sends every table's writes here: the limit stays on (its check is part of
        # every write's cost) but high enough that no write of the run is refused.
        env.update(TABLETAPE_RATE_LIMIT_WRITE="10000000/minute")
        apps = {"anchor": "bench.anchor:create_app()", "tabletape": "service.app:create_app()"}
        if marking:
            apps[MARKING] = "bench.marking:create_app()"
        running = workers(parts.settings.redis_url, parts.keys.prefix, 1)
        servers: dict[str, tuple[int, subprocess.Popen[bytes]]] = {}
        try:
            for name, app in apps.items():
                port = free_port()
                servers[name] = (port, serve(app, env, port))
            # The creations are projected before any load: that work belongs to neither app's turn.
            settled_by = time.monotonic() + 60
            while parts.store.marks.count() and time.monotonic() < settled_by:
                time.sleep(0.1)
            procs = {
                name: server_processes(server, running if name != "anchor" else [])
                for name, (_, server) in servers.items()
            }
            answered = dict.fromkeys(apps, 0.0)
            took = dict.fromkeys(apps, 0.0)
            refused = dict.fromkeys(apps, 0)
            spent: dict[str, dict[str, float]] = {name: {} for name in apps}
            for data in files:
                for name, (port, _) in servers.items():
                    before = cpu_seconds(procs[name])
                    started = time.perf_counter()
                    rate, bad = load(port, data[name], folder, seconds)
                    loaded = time.perf_counter() - started
                    for group, used in cpu_seconds(procs[name]).items():
                        spent[name][group] = spent[name].get(group, 0.0) + used - before[group]
                    answered[name] += rate * loaded
                    took[name] += loaded
                    refused[name] += bad
                    if name != "anchor":
                        time.sleep(IDLE_AFTER)  # the projection worker finishes before the anchor's turn
        finally:
            for _, server in servers.values():
                server.terminate()
                server.wait(timeout=30)
            for worker in running:
                worker.terminate()
                worker.wait(timeout=30)
        for name in apps:
            print(
                f"http: {name} CPU per request: "
                + ", ".join(f"{k} {v / answered[name] * 1e6:.0f} us" for k, v in spent[name].items() if v > 0)
            )
        cpu = {name: sum(spent[name].values()) / answered[name] for name in apps}
        print(
            f"http: CPU per request, all parts together: tabletape {cpu['tabletape'] * 1e6:.0f} us, "
            f"minimal Flask + one EVALSHA {cpu['anchor'] * 1e6:.0f} us; "
            f"ratio {cpu['anchor'] / cpu['tabletape']:.2f}x "
            "(steadier than the rates when others load the machine)"
        )
        ours, anchor = (answered[name] / took[name] for name in ("tabletape", "anchor"))
        print(
            f"http: tabletape under gunicorn {ours:.0f} requests/s ({refused['tabletape']} not 2xx); minimal "
            f"Flask + one EVALSHA {anchor:.0f} requests/s ({rounds} rounds of {seconds:g} s each, taking "
            f"turns); ratio {ours / anchor:.2f}x (goal >= 0.8x)"
        )
        if marking:
            rate = answered[MARKING] / took[MARKING]
            print(
                f"http: {MARKING} under gunicorn {rate:.0f} requests/s ({refused[MARKING]} not 2xx): "
                f"ratio {rate / anchor:.2f}x; of CPU all parts together {cpu['anchor'] / cpu[MARKING]:.2f}x"
            )


if __name__ == "__main__":
    main()
