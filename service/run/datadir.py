"""The data dir of `tabletape serve`: one serve at a time, and how other commands find its store.

A serve that starts an embedded Redis holds an exclusive lock on ``<data dir>/serve.lock`` for its
whole life and writes ``<data dir>/serve.json`` (its pid, the embedded Redis's URL, where it
listens). Any other command started with the same data dir (and no REDIS_URL) reads that file,
but trusts it only while the lock is held, so a serve killed with -9 leaves nothing misleading.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

LOCK = "serve.lock"
INFO = "serve.json"


class DataDirInUse(Exception):
    """Another serve holds the data dir."""


class NoServeRunning(Exception):
    """No serve holds the data dir, so there is no embedded store to use."""


@dataclass(frozen=True)
class Running:
    """What a running serve recorded about itself."""

    pid: int
    redis_url: str
    http_url: str | None
    started_at: str

    def describe(self) -> str:
        """The serve in words, for messages."""
        where = f" listening on {self.http_url}" if self.http_url else ""
        return f"tabletape serve (pid {self.pid}{where}, started {self.started_at})"


class DataDir:
    """One data dir: its lock, and the record of the serve that holds it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).resolve()
        self._lock: IO[str] | None = None

    def claim(self) -> None:
        """Take the data dir for this process, or raise DataDirInUse naming the serve that has it."""
        self.path.mkdir(parents=True, exist_ok=True)
        handle = (self.path / LOCK).open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            running = self._read()
            who = running.describe() if running else "another tabletape serve"
            raise DataDirInUse(
                f"{who} is already using the data dir {self.path}; stop it first, "
                "or give this one another --data-dir"
            ) from None
        self._lock = handle

    def publish(self, redis_url: str, http_url: str | None) -> None:
        """Record how to reach this serve's store (written whole, then renamed into place)."""
        record = {
            "pid": os.getpid(),
            "redis_url": redis_url,
            "http_url": http_url,
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        partial = self.path / f".{INFO}.{os.getpid()}"
        partial.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        os.chmod(partial, 0o600)
        partial.replace(self.path / INFO)

    def release(self) -> None:
        """Forget the record and let the data dir go."""
        if self._lock is None:
            return
        (self.path / INFO).unlink(missing_ok=True)
        fcntl.flock(self._lock, fcntl.LOCK_UN)
        self._lock.close()
        self._lock = None

    def running(self) -> Running | None:
        """The serve that holds this data dir now, if any."""
        lock = self.path / LOCK
        if not lock.exists():
            return None
        with lock.open("a+", encoding="utf-8") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return self._read()
            # Nobody holds the lock: whatever serve.json says is left over from a serve that died.
            fcntl.flock(handle, fcntl.LOCK_UN)
            return None

    def _read(self) -> Running | None:
        try:
            raw: Any = json.loads((self.path / INFO).read_text(encoding="utf-8"))
            pid, url, started = int(raw["pid"]), str(raw["redis_url"]), str(raw["started_at"])
            return Running(pid, url, raw.get("http_url"), started)
        except (OSError, ValueError, KeyError, TypeError):
            return None


def embedded_store(data_dir: str | os.PathLike[str]) -> Running:
    """The running serve whose embedded store lives in ``data_dir``, or NoServeRunning."""
    folder = DataDir(data_dir)
    running = folder.running()
    if running is None:
        raise NoServeRunning(
            f"no tabletape serve is running with the data dir {folder.path}, and REDIS_URL is not set: "
            "start one (`make serve`), pass the --data-dir it uses, or set REDIS_URL"
        )
    return running
