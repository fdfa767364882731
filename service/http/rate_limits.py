"""Rate limits (the ``limits`` library), counted in the deployment's Redis under its key prefix.

Creating writes (create, fork, import) share one budget per caller, writes to a match another;
reads are not limited (a proxy in front can). A caller is its API key when it sends one of the
deployment's, else its address (behind a proxy, the address the proxy forwards: see
``TABLETAPE_TRUSTED_PROXIES``). Each budget is a fixed window per rate ("600/minute",
"30/minute;300/hour"): a write over any of them is refused with 429 and a ``Retry-After`` that
says when its window opens again. While Redis cannot count, requests pass: the store's own answer
(503) then speaks for it.

Every request to a limited operation counts once. A creating write is counted before it is
handled (one counter increment, one round trip). On one Redis a write to a match is counted by
its own append, in the script's atomic run, against the counters the library names and with the
library's fixed-window rule (``events.store.RateCounters``): no round trip of its own; one that
is refused before it reaches its append (the rules, its token, its shape) is counted after, by
the library. Once a caller is over, this process refuses it at once until its window opens.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask, Request, Response, g
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import RedisClusterStorage, RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from events.errors import OverLimit
from events.keys import Keys
from events.store import RateCounters
from service.http.errors import http_problem
from service.recording.credentials import Credentials

CREATING = ("matches.create_match", "history.fork", "history.import_match")
WRITING = ("matches.post_action", "matches.undo", "matches.redo", "table.record_queue")
log = logging.getLogger("tabletape.ratelimits")
Budget = tuple[str, list[RateLimitItem]]
# How many callers a process remembers: over their rate, or the names of their counters.
CLOSED = 4096


class RateLimited(TooManyRequests):
    """Over one of the caller's rates; ``Retry-After`` says when its window opens again."""


def rate_counters() -> RateCounters | None:
    """The counters this request's append counts it against, if its budget is counted there."""
    return g.get("rate_counters")


def limit_rates(
    app: Flask,
    client: redis.Redis,
    keys: Keys,
    credentials: Credentials,
    create_rate: str | None,
    write_rate: str | None,
    counted_by_append: bool = False,
) -> tuple[Callable[[Request, Any], None] | None, Callable[[Request, Any, Response], Response] | None]:
    """Limit the creating writes and the writes of each caller: the step that counts (or refuses)
    a request before its view, and the one that counts a write refused before its append, after
    it (``service.http.pipeline`` runs them); none when both limits are off.

    ``counted_by_append``: the store counts a write to a match in its append (one Redis).
    """
    budgets: dict[str, Budget] = {}
    for rate, scope, endpoints in ((create_rate, "create", CREATING), (write_rate, "write", WRITING)):
        if rate:
            budgets |= {endpoint: (scope, parse_many(rate)) for endpoint in endpoints}
    if not budgets:
        return None, None
    storage = _storage(client, keys)
    limiter = FixedWindowRateLimiter(storage)
    # (scope, caller) -> when its refused budget opens again, as this process last learnt it, and
    # the rate it is over.
    closed: dict[tuple[str, str], tuple[float, str]] = {}
    # (scope, caller) -> the counters an append counts its writes against (key, limit, window).
    named: dict[tuple[str, str], list[tuple[str, int, int]]] = {}

    def counters(scope: str, who: str, rates: list[RateLimitItem]) -> RateCounters:
        known = named.get((scope, who))
        if known is None:
            known = [
                (storage.prefixed_key(item.key_for(scope, who)), item.amount, item.get_expiry())
                for item in rates
            ]
            while len(named) >= CLOSED:
                named.pop(next(iter(named), (scope, who)), None)
            named[(scope, who)] = known
        return RateCounters(known)

    def caller(environ: dict[str, Any]) -> str:
        known = credentials.known(environ.get("HTTP_X_API_KEY", "").strip())
        return known or f"addr-{environ.get('REMOTE_ADDR') or 'unknown'}"

    def refuse(scope: str, who: str, over: list[RateLimitItem]) -> RateLimited:
        """The 429 for a caller over ``over``, remembered until the latest of them opens again."""
        reset = max(limiter.get_window_stats(item, scope, who).reset_time for item in over)
        closed[(scope, who)] = (reset, str(over[0]))
        while len(closed) > CLOSED:
            closed.pop(next(iter(closed), (scope, who)), None)
        return RateLimited(description=str(over[0]), retry_after=_seconds_until(reset))

    def hit(scope: str, who: str, rates: list[RateLimitItem]) -> RateLimited | None:
        """Count one request with the library; the refusal when it is over one of the rates."""
        try:
            over = [item for item in rates if not limiter.hit(item, scope, who)]
            return refuse(scope, who, over) if over else None
        except (redis.RedisError, StorageError) as exc:
            log.warning("could not count this request against its rate limit (%s); it passes", exc)
            return None

    def count(req: Request, ctx: Any) -> None:
        budget = budgets.get(req.endpoint or "")
        if budget is None:
            return
        scope, rates = budget
        who = caller(req.environ)
        shut = closed.get((scope, who))
        if shut is not None:
            if shut[0] > time.time():
                raise RateLimited(description=shut[1], retry_after=_seconds_until(shut[0]))
            closed.pop((scope, who), None)
        ctx.rate_budget = (scope, who, rates)
        if counted_by_append and scope == "write":
            ctx.rate_counters = counters(scope, who, rates)
            return
        refused = hit(scope, who, rates)
        if refused is not None:
            raise refused

    def count_unsent(req: Request, ctx: Any, response: Response) -> Response:
        # A write refused before its append reached Redis still counts, as the library counts.
        counters = ctx.get("rate_counters")
        if counters is None or counters.sent:
            return response
        counters.sent = True
        scope, who, rates = ctx.rate_budget
        refused = hit(scope, who, rates)
        return http_problem(refused) if refused is not None else response

    @app.errorhandler(OverLimit)
    def over_limit(error: OverLimit) -> Response:
        scope, who, rates = g.rate_budget
        try:
            return http_problem(refuse(scope, who, [rates[error.which - 1]]))
        except (redis.RedisError, StorageError):
            # The window's end cannot be read: it opens within its length at the latest.
            item = rates[error.which - 1]
            return http_problem(RateLimited(description=str(item), retry_after=item.get_expiry()))

    return count, count_unsent


def _seconds_until(moment: float) -> int:
    return max(math.ceil(moment - time.time()), 1)


def _storage(client: redis.Redis, keys: Keys) -> Storage:
    """The counters' storage: the store's own connections, or limits' cluster storage on a Cluster."""
    if hasattr(client, "get_primaries"):
        # On a Redis Cluster the counters are kept by limits' own cluster storage, on its masters.
        nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_primaries())
        return RedisClusterStorage(f"redis+cluster://{nodes}", key_prefix=keys.rate_limits())
    return RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=keys.rate_limits())
