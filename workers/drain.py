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

from events.codec import as_text
from events.keys import Keys
from projections.projector import Lease, Projector

BATCH = 200
# Long enough for one batch of a pass; short, because a pass cut off with Redis (a crash, a
# restart from AOF) leaves its leases behind, and those matches wait for them to expire. An
# expired lease costs nothing but a fold done twice: the projection's compare-and-set decides.
LEASE_MS = 8_000


def drain(projector: Projector, keys: Keys, budget: float = 5.0) -> int:
    """Project dirty matches, batch after batch, until none is left or ``budget`` seconds passed."""
    deadline = time.monotonic() + budget
    lease = Lease(uuid.uuid4().hex, LEASE_MS)
    projected = 0
    while time.monotonic() < deadline:
        ids = dirty_batch(projector, keys)
        # The projector leases them in the round trip that reads them, and gives them back after.
        done = projector.project_many(ids, lease) if ids else []
        if not done:
            break
        projected += len(done)
    return projected


def dirty_batch(projector: Projector, keys: Keys) -> list[str]:
    """Lower the wake flag, then read up to BATCH dirty matches (in that order, always)."""
    client = projector.client
    if hasattr(client, "get_node_from_key"):
        # On a cluster the two keys are on two servers: one round trip after the other.
        client.delete(keys.wake())
        found = client.srandmember(keys.dirty(), BATCH)
    else:
        with client.pipeline(transaction=False) as pipe:
            pipe.delete(keys.wake())
            pipe.srandmember(keys.dirty(), BATCH)
            _, found = pipe.execute()
    return sorted({as_text(raw) for raw in found})
