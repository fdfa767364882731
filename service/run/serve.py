"""`tabletape serve`: the API, its RQ workers and (without REDIS_URL) an embedded Redis, as one unit.

It starts everything or nothing: the data dir is claimed first (a second serve on it refuses and
leaves the first untouched), the port is checked before any worker starts, and whatever did start
is stopped again, in reverse order, when a later step fails or the serve is asked to stop.

The API runs under gunicorn exactly as in production (service.run.gunicorn_conf: gevent workers, so
that live spectators and slow clients cost no thread a write needs), as a child process this
command supervises: its workers start from a clean interpreter, not a fork of this one. A child
that dies (the API, a worker) is started again with a back-off and the reason logged
(service.run.supervisor); every child, the embedded Redis included, dies with the serve.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from contextlib import ExitStack
from types import FrameType

import click

from games.contract import Message, words
from service.cli.support import CANNOT_SERVE, NO_STORE, Failed, redacted, spoken
from service.config import SettingRefused, Settings
from service.run.datadir import DataDir
from service.run.embedded_redis import EmbeddedRedis, EmbeddedRedisFailed
from service.run.supervisor import Child, stop_all

WORKER = [sys.executable, "-m", "service.cli.main", "worker"]
# How long a stop waits for the API and the workers before it kills them.
STOP_SECONDS = 4.0

# gunicorn's control socket, in the data dir; a Unix socket's path is at most 107 bytes on Linux
# (103 on macOS).
CONTROL_SOCKET = "gunicorn.ctl"
UNIX_PATH_MAX = 104


def serve(host: str, port: int, data_dir: str, worker_count: int) -> None:
    """Run until Ctrl-C or SIGTERM; raise Failed (nothing left running) if it cannot start."""
    try:
        settings = Settings.from_env()
    except SettingRefused as error:
        raise Failed(CANNOT_SERVE, "cannot serve with these settings: {error}", error=str(error)) from error
    with ExitStack() as running:
        url = os.environ.get("REDIS_URL")
        folder = DataDir(data_dir)
        embedded = None
        env = dict(os.environ)
        if not url:
            embedded = _embedded(running, folder, settings.embedded_appendfsync)
            url = f"unix://{embedded.socket_file}"
            # The API refuses writes before the embedded Redis's disk is full (service.http.disk).
            env["TABLETAPE_DATA_DIR"] = str(folder.path)
        else:
            click.echo(spoken(Message("store: {url} (REDIS_URL)", url=redacted(url))), err=True)
        env["REDIS_URL"] = url
        _check_free(host, port)
        workers = [Child(words("worker {n}", n=n + 1), WORKER, env) for n in range(worker_count)]
        api = Child(words("the API (gunicorn)"), _api_argv(host, port, folder), env)
        children = [api, *workers]
        running.callback(stop_all, children, STOP_SECONDS)
        for child in children:
            child.start()
        address = f"http://{host}:{port}"
        if not os.environ.get("REDIS_URL"):
            folder.publish(url, address)
        click.echo(
            spoken(
                Message(
                    "tabletape listening on {address} ({count} worker(s))",
                    address=address,
                    count=worker_count,
                )
            )
        )
        _serve_until_stopped(children, embedded)
    click.echo(spoken(Message("tabletape stopped")))


def _embedded(running: ExitStack, folder: DataDir, appendfsync: str) -> EmbeddedRedis:
    folder.claim()
    running.callback(folder.release)
    embedded = EmbeddedRedis(folder.path, appendfsync)
    try:
        url = embedded.start()
    except EmbeddedRedisFailed as error:
        raise Failed(NO_STORE, str(error)) from error
    running.callback(embedded.stop)
    started = Message(
        "store: embedded Redis at {url} (data in {folder}, appendfsync {appendfsync})",
        url=url,
        folder=str(folder.path),
        appendfsync=appendfsync,
    )
    click.echo(spoken(started), err=True)
    return embedded


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


def _api_argv(host: str, port: int, folder: DataDir) -> list[str]:
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:service.run.gunicorn_conf"]
    argv += _control_socket(folder)
    # A live feed never ends by itself: a stop waits this long for open streams, not gunicorn's 10 s.
    return [*argv, "--graceful-timeout", "2", "--bind", f"{host}:{port}", "service.app:create_app()"]


def _control_socket(folder: DataDir) -> list[str]:
    """gunicorn's control socket in the data dir, so that two serves on one machine have one each
    (gunicorn's default is one path in the home folder); none where the path is too long for a Unix
    socket."""
    folder.path.mkdir(parents=True, exist_ok=True)
    path = str(folder.path / CONTROL_SOCKET)
    if len(path.encode()) >= UNIX_PATH_MAX:
        return ["--no-control-socket"]
    return ["--control-socket", path]


def _try_bind(host: str, port: int) -> None:
    """Bind the address once, as gunicorn will, so that a taken port is found before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def _serve_until_stopped(children: list[Child], embedded: EmbeddedRedis | None) -> None:
    """Tend the children and the embedded Redis (a dead one is started again) until SIGTERM or SIGINT."""
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping.wait(0.2):
        now = time.monotonic()
        if embedded is not None:
            said = embedded.tend(now)
            if said:
                click.echo(spoken(said), err=True)
        for child in children:
            child.tend(now)
