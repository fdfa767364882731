"""Rate limits (the ``limits`` library), counted in the deployment's Redis under its key prefix.

Creating writes (create, fork, import) share one budget per caller, writes to a match another;
reads are not limited (a proxy in front can). A caller is its API key when it sends one of the
deployment's, else its address (behind a proxy, the address the proxy forwards: see
``TABLETAPE_TRUSTED_PROXIES``). Each budget is a fixed window per rate ("600/minute",
"30/minute;300/hour"): a write over any of them is refused with 429 and a ``Retry-After`` that
says when its window opens again. While Redis cannot count, requests pass: the store's own answer
(503) then speaks for it.

A write costs one counter increment (one round trip); only a refusal reads its window back.
"""

from __future__ import annotations

import logging
import math
import time

import redis
from flask import Flask, request
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import RedisClusterStorage, RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from events.keys import Keys
from service.credentials import Credentials

CREATING = ("matches.create_match", "history.fork", "history.import_match")
WRITING = ("matches.post_action", "matches.undo", "matches.redo")
log = logging.getLogger("tabletape.ratelimits")


class RateLimited(TooManyRequests):
    """Over one of the caller's rates; ``Retry-After`` says when its window opens again."""


def limit_rates(
    app: Flask,
    client: redis.Redis,
    keys: Keys,
    credentials: Credentials,
    create_rate: str | None,
    write_rate: str | None,
) -> FixedWindowRateLimiter | None:
    """Limit the creating writes and the writes of each caller; None when both limits are off."""
    budgets: dict[str, tuple[str, list[RateLimitItem]]] = {}
    for rate, scope, endpoints in ((create_rate, "create", CREATING), (write_rate, "write", WRITING)):
        if rate:
            budgets |= {endpoint: (scope, parse_many(rate)) for endpoint in endpoints}
    if not budgets:
        return None
    limiter = FixedWindowRateLimiter(_storage(client, keys))

    def caller() -> str:
        known = credentials.known(request.headers.get("X-API-Key", "").strip())
        return known or f"addr-{request.remote_addr or 'unknown'}"

    @app.before_request
    def count() -> None:
        budget = budgets.get(request.endpoint or "")
        if budget is None:
            return
        scope, rates = budget
        who = caller()
        try:
            over = [item for item in rates if not limiter.hit(item, scope, who)]
            if over:
                reset = max(limiter.get_window_stats(item, scope, who).reset_time for item in over)
                wait = max(math.ceil(reset - time.time()), 1)
        except (redis.RedisError, StorageError) as exc:
            log.warning("could not count this request against its rate limit (%s); it passes", exc)
            return
        if over:
            raise RateLimited(description=str(over[0]), retry_after=wait)

    return limiter


def _storage(client: redis.Redis, keys: Keys) -> Storage:
    """The counters' storage: the store's own connections, or limits' cluster storage on a Cluster."""
    if hasattr(client, "get_primaries"):
        # On a Redis Cluster the counters are kept by limits' own cluster storage, on its masters.
        nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_primaries())
        return RedisClusterStorage(f"redis+cluster://{nodes}", key_prefix=keys.rate_limits())
    return RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=keys.rate_limits())
