"""Writes refused while the embedded store's disk is nearly full, before Redis fails on it.

A Redis with ``appendfsync always`` that cannot write its AOF exits (it has promised that what it
acknowledged is on disk); with ``everysec`` it refuses every write and PING with MISCONF. Neither
is how a club should learn its disk is full. `tabletape serve` tells its API where the embedded
store keeps its files (TABLETAPE_DATA_DIR): while the free space there is below
TABLETAPE_DISK_RESERVE_MB, every write is answered 503 ``disk_full`` (Retry-After, a sentence) and
reads go on. With REDIS_URL the API cannot see Redis's disk; Redis's own MISCONF is answered the
same way (service.http.errors).
"""

from __future__ import annotations

import os
from typing import Any

from flask import Request

from events.errors import DiskFull
from games.contract import Message
from service.http.pipeline import Before

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MIB = 1024 * 1024


def check_space(data_dir: str, reserve_mb: int) -> None:
    """Raise DiskFull when ``data_dir``'s file system has less than ``reserve_mb`` MiB free."""
    try:
        stats = os.statvfs(data_dir)
    except OSError:
        return  # a data dir that cannot be looked at says nothing about room: Redis will tell
    free = stats.f_bavail * stats.f_frsize
    if free < reserve_mb * MIB:
        raise DiskFull(
            Message(
                "{free} MiB free in {folder}, below the reserve of {reserve} MiB (TABLETAPE_DISK_RESERVE_MB)",
                free=f"{free / MIB:.1f}",
                folder=data_dir,
                reserve=reserve_mb,
            )
        )


def step(data_dir: str | None, reserve_mb: int) -> Before | None:
    """The request step that refuses writes while the disk is nearly full (None: no data dir known)."""
    if not data_dir or reserve_mb <= 0:
        return None
    folder = data_dir

    def refuse_writes_on_a_full_disk(req: Request, ctx: Any) -> None:
        if req.method in WRITES:
            check_space(folder, reserve_mb)

    return refuse_writes_on_a_full_disk
