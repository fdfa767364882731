"""Token buckets in Redis: a burst a caller may spend at once, refilled at a steady rate.

Each bucket is a hash (tokens, at) under the deployment's prefix (``Keys.bucket``); one script run
(events/buckets.lua) refills a caller's buckets by the time passed and takes a token from each, or
from none, atomically. The clock is the caller's (the API hosts keep theirs in sync), so a test may
drive it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import redis

from events.keys import Keys


@dataclass(frozen=True)
class Bucket:
    """A bucket's shape: ``burst`` tokens at most, ``per_second`` more each second."""

    burst: int
    per_second: float


@cache
def _script_source() -> str:
    return files("events").joinpath("buckets.lua").read_text(encoding="utf-8")


class TokenBuckets:
    """Take tokens from callers' buckets, kept in Redis under the deployment's prefix."""

    def __init__(self, client: redis.Redis, keys: Keys, clock: Callable[[], float] = time.time) -> None:
        self.keys = keys
        self.clock = clock
        self._script = client.register_script(_script_source())

    def take(self, scope: str, caller: str, buckets: Sequence[Bucket]) -> tuple[int, float]:
        """Take one token from each of the caller's buckets: (0, 0.0) when taken, else (i, seconds):
        the i-th bucket (from 1) is empty and holds a token again after that many seconds."""
        names = [self.keys.bucket(scope, caller, n) for n in range(len(buckets))]
        args: list[str] = [repr(self.clock())]
        for bucket in buckets:
            args += [str(bucket.burst), repr(bucket.per_second)]
        which, wait = self._script(keys=names, args=args)
        return int(which), float(wait)
