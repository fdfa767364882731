"""`tabletape serve`: the API, its RQ workers and (without REDIS_URL) an embedded Redis, as one unit.

It starts everything or nothing: the data dir is claimed first (a second serve on it refuses and
leaves the first untouched), the port is checked before any worker starts, and whatever did start
is stopped again, in reverse order, when a later step fails or the serve is asked to stop.

The API runs under gunicorn exactly as in production (service.run.gunicorn_conf: gevent workers, so
that live spectators and slow clients cost no thread a write needs), as a child process this
command supervises: its workers start from a clean interpreter, not a fork of this one.
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

import click

from service.cli.support import CANNOT_SERVE, Failed, redacted
from service.run.datadir import DataDir


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
        _check_free(host, port)
        running.callback(_stop_workers, _start_workers(env, worker_count))
        api = _start_api(host, port, env)
        running.callback(_stop_api, api)
        address = f"http://{host}:{port}"
        if not os.environ.get("REDIS_URL"):
            folder.publish(url, address)
        click.echo(f"tabletape listening on {address} ({worker_count} worker(s))")
        _serve_until_stopped(api)
    click.echo("tabletape stopped")


def _embedded(running: ExitStack, folder: DataDir) -> str:
    from service.run.embedded_redis import EmbeddedRedis

    folder.claim()
    running.callback(folder.release)
    embedded = EmbeddedRedis(folder.path)
    url = embedded.start()
    running.callback(embedded.stop)
    click.echo(f"store: embedded Redis at {url} (data in {folder.path})", err=True)
    return url


def _check_free(host: str, port: int) -> None:
    try:
        _try_bind(host, port)
    except OSError as error:
        raise Failed(
            CANNOT_SERVE,
            "cannot listen on {host}:{port}: another program uses it; choose another with --port",
            host=host,
            port=port,
        ) from error


def _start_api(host: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:service.run.gunicorn_conf"]
    return subprocess.Popen([*argv, "--bind", f"{host}:{port}", "service.app:create_app()"], env=env)


def _stop_api(api: subprocess.Popen[bytes]) -> None:
    """SIGTERM gunicorn (a graceful stop) and wait; SIGKILL it if it takes over 15 s."""
    if api.poll() is None:
        api.send_signal(signal.SIGTERM)
    try:
        api.wait(timeout=15)
    except subprocess.TimeoutExpired:
        api.kill()
        api.wait()


def _try_bind(host: str, port: int) -> None:
    """Bind the address once, as werkzeug will, so that a taken port is found before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def _start_workers(env: dict[str, str], count: int) -> list[subprocess.Popen[bytes]]:
    return [
        subprocess.Popen([sys.executable, "-m", "service.cli.main", "worker"], env=env) for _ in range(count)
    ]


def _stop_workers(workers: list[subprocess.Popen[bytes]]) -> None:
    for proc in workers:
        proc.send_signal(signal.SIGTERM)
    for proc in workers:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _serve_until_stopped(api: subprocess.Popen[bytes]) -> None:
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping.wait(0.2):
        if api.poll() is not None:
            raise Failed(
                CANNOT_SERVE,
                "the API (gunicorn) stopped by itself, exit status {returncode}",
                returncode=api.returncode,
            )
