"""`tabletape serve`: the API, its RQ workers and (without REDIS_URL) an embedded Redis, as one unit.

It starts everything or nothing: the data dir is claimed first (a second serve on it refuses and
leaves the first untouched), the port is bound before any worker starts, and whatever did start
is stopped again, in reverse order, when a later step fails or the serve is asked to stop.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from contextlib import ExitStack
from types import FrameType
from typing import Any

import click

from service.cli_support import CANNOT_SERVE, Failed, redacted
from service.config import Settings
from service.datadir import DataDir


def serve(host: str, port: int, data_dir: str, worker_count: int) -> None:
    """Run until Ctrl-C or SIGTERM; raise Failed (nothing left running) if it cannot start."""
    with ExitStack() as running:
        url = os.environ.get("REDIS_URL")
        folder = DataDir(data_dir)
        if not url:
            url = _embedded(running, folder)
        else:
            click.echo(f"store: {redacted(url)} (REDIS_URL)", err=True)
        env = dict(os.environ, REDIS_URL=url)
        server = _bind(host, port, Settings.from_env(env))
        running.callback(server.server_close)
        running.callback(_stop_workers, _start_workers(env, worker_count))
        address = f"http://{host}:{server.port}"
        if not os.environ.get("REDIS_URL"):
            folder.publish(url, address)
        click.echo(f"tabletape listening on {address} ({worker_count} worker(s))")
        _serve_until_stopped(server)
    click.echo("tabletape stopped")


def _embedded(running: ExitStack, folder: DataDir) -> str:
    from service.embedded import EmbeddedRedis

    folder.claim()
    running.callback(folder.release)
    embedded = EmbeddedRedis(folder.path)
    url = embedded.start()
    running.callback(embedded.stop)
    click.echo(f"store: embedded Redis at {url} (data in {folder.path})", err=True)
    return url


def _bind(host: str, port: int, settings: Settings) -> Any:
    from werkzeug.serving import make_server

    from service.app import create_app

    taken = Failed(
        CANNOT_SERVE, f"cannot listen on {host}:{port}: another program uses it; choose another with --port"
    )
    try:
        _try_bind(host, port)
        return make_server(host, port, create_app(settings), threaded=True)
    except OSError as error:
        raise taken from error
    except SystemExit as error:
        # werkzeug answers a taken port with its own message and sys.exit(1); ours says the same.
        raise taken from error


def _try_bind(host: str, port: int) -> None:
    """Bind the address once, as werkzeug will, so that a taken port is found before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def _start_workers(env: dict[str, str], count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env) for _ in range(count)]


def _stop_workers(workers: list[subprocess.Popen[bytes]]) -> None:
    for proc in workers:
        proc.send_signal(signal.SIGTERM)
    for proc in workers:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _serve_until_stopped(server: Any) -> None:
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()
