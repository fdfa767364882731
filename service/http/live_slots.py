"""How many live feeds (Server-Sent Events) one API process holds: in all, and per caller address.

A live feed holds its connection for as long as the match goes on, and a process holds at most
``worker_connections`` (2,000) connections: spectators without a bound would take every one and
leave a scorekeeper's write waiting in the listen backlog. Feeds are capped below that, in all
(TABLETAPE_LIVE_STREAMS) and per caller address (TABLETAPE_LIVE_STREAMS_PER_CLIENT), so writes
always keep a share; a feed beyond a cap is answered 503 ``too_many_streams`` with Retry-After,
which a browser's EventSource cannot retry by itself but the viewer does.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

from games.contract import Message

# Seconds a refused spectator is told to wait before opening the feed again.
RETRY_SECONDS = 10


class TooManyStreams(Exception):
    """A live feed beyond the process's cap, in all or for one caller address."""

    def __init__(self, detail: Message) -> None:
        super().__init__(detail)


class LiveSlots:
    """The live feeds this process holds, by caller address, under two caps."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = total
        self.per_client = per_client
        self.open = 0
        self.by_client: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> Callable[[], None]:
        """Hold a slot for ``client``'s feed (TooManyStreams when none is free); return its release."""
        with self._lock:
            if self.by_client[client] >= self.per_client:
                raise TooManyStreams(
                    Message(
                        "this address already follows {count} live feeds, the most one address may "
                        "(TABLETAPE_LIVE_STREAMS_PER_CLIENT={limit}); close one, or try again after "
                        "Retry-After seconds",
                        count=self.by_client[client],
                        limit=self.per_client,
                    )
                )
            if self.open >= self.total:
                raise TooManyStreams(
                    Message(
                        "the server follows {count} live feeds, the most it holds beside the writes "
                        "(TABLETAPE_LIVE_STREAMS={limit}); try again after Retry-After seconds",
                        count=self.open,
                        limit=self.total,
                    )
                )
            self.open += 1
            self.by_client[client] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self.open -= 1
                self.by_client[client] -= 1
                if self.by_client[client] <= 0:
                    del self.by_client[client]

        return release
