"""`tabletape serve` as a process of the fault suite: started in a session of its own, so that it can
be killed whole, and every process it ever started found again afterwards (by a marker in their
environment, and its Redis by its working directory), so that a test leaves nothing running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import requests

from service.run.embedded_redis import forget_run_dir
from tests.e2e.faults.stack import ROOT, free_port, wait_for


class Serve:
    """One `tabletape serve` on a data dir of its own (no REDIS_URL: the embedded Redis)."""

    def __init__(self, data_dir: Path, log: Path, workers: int = 1, marker: str = "", **extra: str) -> None:
        self.data_dir = data_dir
        self.log = log
        self.workers = workers
        # The key prefix, and how the processes it starts are found again (a serve that takes
        # over a data dir passes the first one's, to read its matches).
        self.marker = marker or f"tt-serve-{uuid.uuid4().hex[:10]}"
        self.env = {
            k: v for k, v in os.environ.items() if k != "REDIS_URL" and not k.startswith("TABLETAPE_")
        }
        self.env |= {
            "TABLETAPE_PREFIX": self.marker,
            "TABLETAPE_RATE_LIMIT_CREATE": "off",
            "TABLETAPE_RATE_LIMIT_WRITE": "off",
            "PYTHONUNBUFFERED": "1",
            **extra,
        }
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The API's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def spawn(self) -> subprocess.Popen[bytes]:
        """Start the serve (not waiting for it)."""
        self.port = free_port()
        argv = [sys.executable, "-m", "service.cli.main", "serve", "--port", str(self.port)]
        argv += ["--data-dir", str(self.data_dir), "--workers", str(self.workers)]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                argv, env=self.env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True
            )
        return self.proc

    def start(self) -> None:
        """Start the serve and wait until /healthz answers 200."""
        self.spawn()
        wait_for(self._healthy, "tabletape serve answering /healthz", seconds=60, every=0.1)

    def _healthy(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"tabletape serve exited with {self.proc.returncode}:\n{self.output()}")
        try:
            return requests.get(f"{self.url}/healthz", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def output(self) -> str:
        """What the serve and its children wrote."""
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def stop(self, seconds: float = 20.0) -> int | None:
        """SIGTERM the serve (only it: it stops its children); its exit status, or None if it hung."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def kill_group(self) -> None:
        """SIGKILL the serve's whole process group, as a crash of its terminal session would."""
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)

    def redis_servers(self) -> list[psutil.Process]:
        """The redis-server processes working in the data dir."""
        found = []
        for process in psutil.process_iter(["name"]):
            try:
                if "redis-server" in (process.info["name"] or "") and Path(process.cwd()) == self.data_dir:
                    found.append(process)
            except (psutil.Error, OSError):
                continue
        return found

    def leftovers(self) -> list[psutil.Process]:
        """Every process this serve started that still runs: its Redis, API and workers."""
        found = self.redis_servers()
        for process in psutil.process_iter():
            try:
                if self.marker in process.environ().get("TABLETAPE_PREFIX", ""):
                    found.append(process)
            except (psutil.Error, OSError):
                continue
        return found

    def settle_leftovers(self, seconds: float = 10.0) -> list[psutil.Process]:
        """The processes still running once those dying have had ``seconds`` to go."""
        deadline = time.monotonic() + seconds
        while self.leftovers() and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.leftovers()

    def clean_up(self) -> None:
        """Stop the serve and kill whatever it left running."""
        if self.proc is not None and self.proc.poll() is None:
            if self.stop(seconds=15) is None:
                self.kill_group()
        for process in self.leftovers():
            try:
                process.kill()
            except psutil.Error:
                pass
        # The socket folder (in the system's temp dir) of an embedded Redis killed with its serve,
        # which the next serve of the data dir would have removed.
        forget_run_dir(self.data_dir)


@contextmanager
def serving(
    data_dir: Path, log: Path, start: bool = True, workers: int = 1, marker: str = "", **options: str
) -> Iterator[Serve]:
    """A serve (started unless ``start`` is false) that is stopped, with everything it left, at the end."""
    serve = Serve(data_dir, log, workers, marker, **options)
    try:
        if start:
            serve.start()
        yield serve
    finally:
        serve.clean_up()
