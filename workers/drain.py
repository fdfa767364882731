"""A projection pass: every dirty match a worker can take, projected together.

Writers mark a match dirty and raise the wake flag in the round trip of their append; the writer
that raised the flag enqueues one pass. A pass lowers the flag before it reads the dirty set, so
a write it does not see raises the flag again and enqueues the next pass: no mark is left without
a pass to find it. Each worker leases the matches it takes (a key in the match's own slot, that
expires), so two workers at once project different matches instead of folding the same ones.
"""

from __future__ import annotations

import time
import uuid

import redis

from events.codec import as_text
from events.keys import Keys
from projections.projector import Projector

BATCH = 200
LEASE_MS = 30_000


def drain(projector: Projector, keys: Keys, budget: float = 5.0) -> int:
    """Project dirty matches, batch after batch, until none is left or ``budget`` seconds passed."""
    client = projector.client
    deadline = time.monotonic() + budget
    projected = 0
    while time.monotonic() < deadline:
        client.delete(keys.wake())
        ids = sorted({as_text(raw) for raw in client.srandmember(keys.dirty(), BATCH)})
        taken = lease(client, keys, ids)
        if not taken:
            break
        try:
            projector.project_many(taken)
        finally:
            release(client, keys, taken)
        projected += len(taken)
    return projected


def lease(client: redis.Redis, keys: Keys, match_ids: list[str]) -> list[str]:
    """The matches among ``match_ids`` no other worker is projecting, now leased to this one."""
    if not match_ids:
        return []
    token = uuid.uuid4().hex
    with client.pipeline(transaction=False) as pipe:
        for match_id in match_ids:
            pipe.set(keys.lease(match_id), token, nx=True, px=LEASE_MS)
        granted = pipe.execute()
    return [m for m, ok in zip(match_ids, granted, strict=True) if ok]


def release(client: redis.Redis, keys: Keys, match_ids: list[str]) -> None:
    """Give the leases back (an expired one may be another worker's by now: harmless, see lease)."""
    if match_ids:
        client.delete(*[keys.lease(m) for m in match_ids])
