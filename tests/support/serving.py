"""A real `tabletape serve` on a free port, and Debian's Chromium, for the browser tests and benches.

The server runs with its own embedded Redis (the caller leaves REDIS_URL out of its environment)
and writes its output to ``serve.log`` in the folder it is given; it is stopped with SIGTERM, as a
service manager stops it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def healthy(url: str) -> bool:
    """Whether the server answers its health check."""
    try:
        return requests.get(f"{url}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def wait_until_healthy(url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 30) -> None:
    """Wait for /healthz to answer 200 (at most ``seconds``); the log is told if the server fails."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tabletape serve exited early:\n{log.read_text()}")
        if healthy(url):
            return
        # A short poll: every e2e and browser test waits here for its server.
        time.sleep(0.05)
    raise RuntimeError(f"tabletape serve did not become healthy:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, as a service manager stops the server; killed if it is not gone within 20 s."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


@contextmanager
def serving(folder: Path, env: dict[str, str], cwd: Path | None = None, seconds: float = 30) -> Iterator[str]:
    """The base URL of a `tabletape serve` on a free port, its data and log in ``folder``."""
    port = free_port()
    log = folder / "serve.log"
    command = [sys.executable, "-m", "service.cli.main", "serve", "--port", str(port)]
    command += ["--data-dir", str(folder / "var")]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process, log, seconds)
        yield url
    finally:
        stop(process)


def chromium_path(headless_shell: bool = True) -> str | None:
    """The Chromium to drive: the one named by CHROMIUM; else, with ``headless_shell``, Debian's
    headless shell (package chromium-headless-shell) when it is installed; else Debian's chromium.
    None if there is none.

    The headless shell is the same release's Blink and V8 without the browser's own windows:
    Playwright's default for headless Chromium. Opening a page in a new context costs the machine
    about a third of the CPU it costs the whole browser, whose toolbar and tab strip are pages of
    their own (docs/testing.md). The benchmarks that time a page ask for the whole browser, the
    one a phone runs (``headless_shell=False``).
    """
    named = os.environ.get("CHROMIUM")
    if named:
        return named
    shell = shutil.which("chromium-headless-shell") if headless_shell else None
    return shell or shutil.which("chromium") or shutil.which("chromium-browser")


def launch_chromium(playwright: Any, path: str) -> Any:
    """A headless Chromium at ``path``, driven by Playwright."""
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
