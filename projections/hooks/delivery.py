"""Webhook deliveries: feed events turned into signed POSTs, sent by RQ jobs, retried, logged.

``dispatch`` (after a projection pass, and on every tick of the workers' sweep) reads the feed
after each hook's position and enqueues a delivery job per event a hook wants; ``deliver`` (that
job) POSTs it. Every delivery carries an id that stays the same through retries and a repeated
dispatch, so a receiver drops duplicates by it: delivery is at least once. A failure (not a 2xx,
a time-out, a refused connection) is retried after BACKOFF[attempt] seconds (the worker's sweep
enqueues what is due, ``promote_due``), up to len(BACKOFF) retries; PAUSE_AFTER failed attempts
in a row pause the hook, which says so.

The signature: ``X-Tabletape-Signature: sha256=<hex>``, the HMAC-SHA256 with the hook's secret of
``<X-Tabletape-Timestamp>.<body>`` (docs/integrations.md shows a receiver's check).
"""

from __future__ import annotations

import hashlib
import hmac
import time
import uuid
from typing import Any

import redis
import requests
from rq import Queue

from events.codec import as_text, dumps, loads
from events.defaults import HOOK_BACKOFF, HOOK_DISPATCH_PAGE, HOOK_PAUSE_AFTER, HOOK_TIMEOUT_SECONDS
from events.keys import Keys
from projections.hooks.registry import Hooks, NoSuchHook, kind_of, refusal
from projections.queries.feed import FeedReader

DELIVER = "workers.jobs.deliver_hook"
BACKOFF = HOOK_BACKOFF
PAUSE_AFTER = HOOK_PAUSE_AFTER


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The signature header's value for a body sent at ``timestamp`` (unix seconds, as text)."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def delivery_id(hook_id: str, event: dict[str, Any]) -> str:
    """The id of one event's delivery to one hook, the same however often it is sent."""
    return hashlib.sha256(f"{hook_id}|{event['match_id']}|{event['seq']}".encode()).hexdigest()[:32]


def dispatch(hooks: Hooks, feed: FeedReader, queue: Queue, prefix: str) -> int:
    """Enqueue a delivery for each new feed event each active hook wants; how many were enqueued."""
    keys, client = hooks.keys, hooks.client
    if not client.hlen(keys.hooks()) or not client.set(keys.hooks_dispatching(), 1, nx=True, ex=30):
        return 0
    enqueued = 0
    try:
        for hook in hooks.all():
            if hook["paused"]:
                continue
            after = as_text(client.get(keys.hook_position(hook["id"])) or b"0")
            while True:
                page = feed.page(after, HOOK_DISPATCH_PAGE)
                for event in page.events:
                    if kind_of(event) & set(hook["events"]):
                        _enqueue(queue, prefix, hook["id"], event, 0)
                        enqueued += 1
                client.set(keys.hook_position(hook["id"]), page.position)
                if page.position == after:
                    break
                after = page.position
    finally:
        client.delete(keys.hooks_dispatching())
    return enqueued


def _enqueue(queue: Queue, prefix: str, hook_id: str, event: dict[str, Any], attempt: int) -> None:
    body = {"delivery_id": delivery_id(hook_id, event), "hook_id": hook_id, "event": event}
    _job(queue, Keys(prefix), (prefix, hook_id, dumps(body), attempt))


def _job(queue: Queue, keys: Keys, args: tuple[Any, ...]) -> None:
    """Enqueue one delivery job (its id carries the prefix, as every job of tabletape's does)."""
    queue.enqueue(DELIVER, args=args, job_id=keys.job_id(uuid.uuid4().hex), result_ttl=0, failure_ttl=3600)


def deliver(hooks: Hooks, hook_id: str, body: str, attempt: int) -> dict[str, Any]:
    """POST one delivery; log it; on failure plan its retry or pause the hook. The log entry."""
    try:
        hook = hooks.get(hook_id)
    except NoSuchHook:
        return {"skipped": "the hook was deleted"}
    sent = loads(body)
    entry: dict[str, Any] = {
        "delivery_id": sent["delivery_id"],
        "attempt": attempt + 1,
        "at": int(time.time()),
        "match_id": sent["event"]["match_id"],
        "seq": sent["event"]["seq"],
        "type": sent["event"]["type"],
    }
    if hook["paused"]:
        entry.update(ok=False, error="not sent: the hook is paused")
        hooks.note(hook_id, entry)
        return entry
    entry.update(_post(hook, body.encode()))
    hooks.note(hook_id, entry)
    if entry["ok"]:
        hooks.client.delete(hooks.keys.hook_failures(hook_id))
        return entry
    failures = int(hooks.client.incr(hooks.keys.hook_failures(hook_id)))
    if failures >= PAUSE_AFTER:
        hooks.pause(hook_id, f"paused after {failures} failed attempts in a row; the last: {entry['error']}")
    elif attempt < len(BACKOFF):
        retry = dumps({"hook_id": hook_id, "body": body, "attempt": attempt + 1})
        hooks.client.zadd(hooks.keys.hooks_due(), {retry: time.time() + BACKOFF[attempt]})
    return entry


def _post(hook: dict[str, Any], body: bytes) -> dict[str, Any]:
    """Send the body to the hook's URL, if its address is allowed now; what came of it."""
    why = refusal(hook["url"], hook["allow"])
    if why is not None:
        return {"ok": False, "error": f"not sent: {why}"}
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "tabletape-webhooks",
        "X-Tabletape-Delivery": loads(body)["delivery_id"],
        "X-Tabletape-Timestamp": timestamp,
        "X-Tabletape-Signature": signature(hook["secret"], timestamp, body),
    }
    try:
        answer = requests.post(
            hook["url"], data=body, headers=headers, timeout=HOOK_TIMEOUT_SECONDS, allow_redirects=False
        )
    except requests.RequestException as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    ok = 200 <= answer.status_code < 300
    return {
        "ok": ok,
        "status": answer.status_code,
        **({} if ok else {"error": f"answered {answer.status_code}"}),
    }


def promote_due(client: redis.Redis, keys: Keys, queue: Queue) -> int:
    """Enqueue the retries whose time has come (each by the one sweep that takes it); how many."""
    due: list[bytes] = client.zrangebyscore(keys.hooks_due(), "-inf", time.time(), start=0, num=500)  # type: ignore[assignment]
    promoted = 0
    for raw in due:
        if client.zrem(keys.hooks_due(), raw):
            retry = loads(as_text(raw))
            _job(queue, keys, (keys.prefix, retry["hook_id"], retry["body"], retry["attempt"]))
            promoted += 1
    return promoted
