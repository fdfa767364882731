"""Rate limits: they stop a flood, not a club whose tables share one address (a venue's NAT).

Creating writes (create, fork, import) spend tokens of their caller's token bucket
(``events.buckets``): a burst at once (``TABLETAPE_RATE_LIMIT_CREATE_BURST``, 200 by default: a
tournament's round starts its matches together), then a steady refill
(``TABLETAPE_RATE_LIMIT_CREATE``, "300/hour"). The caller is its API key when it sends one of the
deployment's, else its address (behind a proxy, the address the proxy forwards: see
``TABLETAPE_TRUSTED_PROXIES``).

Writes to a match (an action, undo, redo, and every other POST to a match, a batch of actions
included: one request, however many actions it carries) count against the credential they
already need, the match's write token (by its SHA-256, never the token), not the address: each
table has a budget of its own (``TABLETAPE_RATE_LIMIT_WRITE``, fixed windows, "600/minute" by
default), so a phone that syncs hundreds of queued actions of its match is never held back by the
other tables of its venue. A write without a token counts against its address. Reads are not
limited (a proxy in front can).

A request over a limit is refused with 429, a ``Retry-After`` that says when it may pass, and the
setting that raises the limit. While Redis cannot count, requests pass: the store's own answer
(503) then speaks for it.

Every request to a limited operation counts once. A creating write takes its token before it is
handled (one round trip). On one Redis an action, undo or redo is counted by its own append, in
the script's atomic run, against the counters the library names and with its fixed-window rule
(``events.store.RateCounters``): no round trip of its own; one that is refused before it reaches
its append (the rules, its token, its shape) is counted after, by the library. Once a caller is
over, this process refuses it at once until its window opens.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import redis
from cachetools import LRUCache
from flask import Flask, Request, Response, g
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import RedisClusterStorage, RedisStorage
from limits.strategies import FixedWindowRateLimiter

from events.buckets import Bucket, TokenBuckets
from events.defaults import CALLERS_KEPT
from events.errors import OverLimit
from events.extras import RateCounters
from events.keys import Keys
from service.http.errors import RATE_REFUSAL, RateLimited, http_problem
from service.recording.credentials import Credentials

CREATING = ("matches.create_match", "history.fork", "history.import_match")
# The writes whose append counts them (they hand ``rate_counters()`` to the recorder).
COUNTED_BY_APPEND = ("matches.post_action", "matches.undo", "matches.redo")
CREATE_SETTINGS = "TABLETAPE_RATE_LIMIT_CREATE_BURST"
WRITE_SETTING = "TABLETAPE_RATE_LIMIT_WRITE"
log = logging.getLogger("tabletape.ratelimits")


def rate_counters() -> RateCounters | None:
    """The counters this request's append counts it against, if its budget is counted there."""
    return g.get("rate_counters")


def create_buckets(rate: str | None, burst: int) -> list[Bucket]:
    """The token buckets of a creating caller: ``burst`` at once, refilled at each of ``rate``."""
    if not rate:
        return []
    return [Bucket(max(burst, 1), item.amount / item.get_expiry()) for item in parse_many(rate)]


def is_write(req: Request) -> bool:
    """Whether a request writes to a match (any POST to one but a fork, which creates)."""
    return req.method == "POST" and bool(req.view_args and "match_id" in req.view_args)


# The caller each Authorization header a write came with counts as (``write_caller``): a table
# sends its token with every write, and its digest is worked out once, not per request.
_CALLERS: dict[str, str] = {}


def write_caller(environ: dict[str, Any]) -> str:
    """Who a write to a match is counted as: its write token (by digest), else its address."""
    authorization = environ.get("HTTP_AUTHORIZATION", "")
    who = _CALLERS.get(authorization)
    if who is not None:
        return who
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        if len(_CALLERS) >= CALLERS_KEPT:
            _CALLERS.clear()
        who = _CALLERS[authorization] = "tok-" + hashlib.sha256(token.strip().encode()).hexdigest()[:32]
        return who
    return f"addr-{environ.get('REMOTE_ADDR') or 'unknown'}"


# Whom a write to a match counts as and the counters its append counts it against (both None while
# writes are not limited); None when the request must take every step of the pipeline.
Budget = Callable[[dict[str, Any]], tuple[str | None, RateCounters | None] | None]


def unlimited(environ: dict[str, Any]) -> tuple[str | None, RateCounters | None]:
    """The budget of a write while writes to a match are not limited: nothing to count."""
    return None, None


class RateSteps(NamedTuple):
    """The rate limits' steps: ``before`` the view (counting), ``after`` it (counting a write refused
    before its append; both None when no limit is on), and ``budget``, which the lean write route
    asks instead of ``before``."""

    before: Callable[[Request, Any], None] | None
    after: Callable[[Request, Any, Response], Response] | None
    budget: Budget


def limit_rates(
    app: Flask,
    client: redis.Redis,
    keys: Keys,
    credentials: Credentials,
    create: list[Bucket],
    write_rate: str | None,
    counted_by_append: bool = False,
    clock: Callable[[], float] = time.time,
) -> RateSteps:
    """Limit the creating writes of each caller (token buckets, ``create``) and the writes of each
    match token (``write_rate``): the step that counts (or refuses) a request before its view, and
    the one that counts a write refused before its append, after it (``service.http.pipeline``
    runs them); none when both limits are off.

    ``counted_by_append``: the store counts a write to a match in its append (one Redis).
    """
    writes = parse_many(write_rate) if write_rate else []
    if not create and not writes:
        return RateSteps(None, None, unlimited)
    storage = _storage(client, keys)
    limiter = FixedWindowRateLimiter(storage)
    buckets = TokenBuckets(client, keys, clock)
    burst = max((b.burst for b in create), default=0)
    # (scope, caller) -> when this process may let it try again, the limit and the setting.
    closed: LRUCache[tuple[str, str], tuple[float, str, str]] = LRUCache(maxsize=CALLERS_KEPT)
    # caller -> the counters an append counts its writes against (key, limit, window).
    named: LRUCache[str, list[tuple[str, int, int]]] = LRUCache(maxsize=CALLERS_KEPT)

    def counters(who: str) -> RateCounters:
        known = named.get(who)
        if known is None:
            known = [
                (storage.prefixed_key(item.key_for("write", who)), item.amount, item.get_expiry())
                for item in writes
            ]
            named[who] = known
        return RateCounters(known)

    def shut(scope: str, who: str, reset: float, limit: str, setting: str) -> RateLimited:
        """The 429 for a caller over ``limit``, remembered until ``reset``."""
        closed[(scope, who)] = (reset, limit, setting)
        return RateLimited(limit, _seconds_until(reset, clock), setting)

    def refuse_write(who: str, over: list[RateLimitItem]) -> RateLimited:
        reset = max(limiter.get_window_stats(item, "write", who).reset_time for item in over)
        return shut("write", who, reset, str(over[0]), WRITE_SETTING)

    def hit_write(who: str) -> RateLimited | None:
        """Count one write with the library; the refusal when it is over one of the rates."""
        try:
            over = [item for item in writes if not limiter.hit(item, "write", who)]
            return refuse_write(who, over) if over else None
        except (redis.RedisError, StorageError) as exc:
            log.warning("could not count this request against its rate limit (%s); it passes", exc)
            return None

    def take_create(who: str) -> RateLimited | None:
        """Take a token of the caller's creation buckets; the refusal when one is empty."""
        try:
            which, wait = buckets.take("create", who, create)
        except redis.RedisError as exc:
            log.warning("could not count this request against its rate limit (%s); it passes", exc)
            return None
        if not which:
            return None
        rate = create[which - 1]
        limit = f"a burst of {burst} creations, then {_per(rate.per_second)}"
        return shut("create", who, clock() + wait, limit, CREATE_SETTINGS)

    def count(req: Request, ctx: Any) -> None:
        endpoint = req.endpoint or ""
        if endpoint in CREATING:
            if not create:
                return
            scope, who = "create", credentials.known(req.environ.get("HTTP_X_API_KEY", "").strip())
            who = who or f"addr-{req.environ.get('REMOTE_ADDR') or 'unknown'}"
        elif writes and is_write(req):
            scope, who = "write", write_caller(req.environ)
        else:
            return
        known = closed.get((scope, who))
        if known is not None:
            if known[0] > clock():
                raise RateLimited(known[1], _seconds_until(known[0], clock), known[2])
            closed.pop((scope, who), None)
        if scope == "create":
            refused = take_create(who)
        elif counted_by_append and endpoint in COUNTED_BY_APPEND:
            ctx.rate_who = who
            ctx.rate_counters = counters(who)
            return
        else:
            refused = hit_write(who)
        if refused is not None:
            raise refused

    def budget(environ: dict[str, Any]) -> tuple[str | None, RateCounters | None] | None:
        if not writes:
            return None, None
        if not counted_by_append:
            return None  # counted by the library before the view: the whole pipeline's step
        who = write_caller(environ)
        known = closed.get(("write", who))
        if known is not None and known[0] > clock():
            return None  # over its limit now: refused by ``count``
        return who, counters(who)

    def count_unsent(req: Request, ctx: Any, response: Response) -> Response:
        # A write refused before its append reached Redis still counts, as the library counts.
        counters = ctx.get("rate_counters")
        if counters is None or counters.sent:
            return response
        counters.sent = True
        refused = hit_write(ctx.rate_who)
        return http_problem(refused) if refused is not None else response

    def over_limit(error: OverLimit) -> RateLimited:
        """The refusal of a write its append found over one of the caller's rates (mapped to its
        answer in service.http.errors)."""
        item = writes[error.which - 1]
        try:
            return refuse_write(g.rate_who, [item])
        except (redis.RedisError, StorageError):
            # The window's end cannot be read: it opens within its length at the latest.
            return RateLimited(str(item), item.get_expiry(), WRITE_SETTING)

    app.extensions[RATE_REFUSAL] = over_limit

    return RateSteps(count, count_unsent, budget)


def _per(per_second: float) -> str:
    """A refill rate in words: "300 per hour"."""
    for seconds, unit in ((1, "second"), (60, "minute"), (3600, "hour"), (86400, "day")):
        if per_second * seconds >= 1:
            return f"{per_second * seconds:g} per {unit}"
    return f"{per_second * 86400:g} per day"


def _seconds_until(moment: float, clock: Callable[[], float] = time.time) -> int:
    return max(math.ceil(moment - clock()), 1)


def _storage(client: redis.Redis, keys: Keys) -> RedisStorage:
    """The counters' storage: the store's own connections, or limits' cluster storage on a Cluster."""
    if hasattr(client, "get_primaries"):
        # On a Redis Cluster the counters are kept by limits' own cluster storage, on its masters.
        nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_primaries())
        return RedisClusterStorage(f"redis+cluster://{nodes}", key_prefix=keys.rate_limits())
    return RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=keys.rate_limits())
