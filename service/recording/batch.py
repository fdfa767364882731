"""A queue of writes sent at once (an offline recorder back online): each item written exactly as
a single write with its Idempotency-Key and If-Match, in order, until one cannot be.

An item whose key was recorded before answers ``duplicate`` with its first answer and the batch
goes on, so a queue sent twice (the answer lost on the way back) records nothing twice. The first
item the match is no longer at the expected version for (``conflict``: another device recorded
meanwhile) or that is refused (``refused``: the rules, or the request's shape) stops the batch;
the items after it are ``not_tried``, for the table to re-apply or discard. A failure of the store
ends the request as a single write's would: what was recorded before it stays recorded, and the
same batch sent again answers those items as duplicates.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from events.codec import UnsafeNumber
from events.errors import IdempotencyMismatch
from events.extras import RateCounters
from games.contract import RuleViolation
from service.recording.answers import Busy, PreconditionFailed, Recorded
from service.recording.recorder import Recorder

RECORDED, DUPLICATE, NOT_TRIED = "recorded", "duplicate", "not_tried"
CONFLICT, REFUSED = "conflict", "refused"  # the two that stop a batch


@dataclass(frozen=True)
class Outcome:
    """What became of one item: its status, the write's answer, or the error that stopped it."""

    key: str
    status: str
    recorded: Recorded | None = None
    error: Exception | None = None


def record_batch(
    recorder: Recorder,
    match_id: str,
    token: str | None,
    items: Iterable[dict[str, Any]],
    rates: RateCounters | None = None,
) -> list[Outcome]:
    """Write ``items`` in order (``{"key", "expected_version"?, "kind", "action"?}``); one outcome each."""
    outcomes: list[Outcome] = []
    stopped = False
    for item in items:
        key = item["key"]
        if stopped:
            outcomes.append(Outcome(key, NOT_TRIED))
            continue
        try:
            answer = _write(recorder, match_id, token, item, rates)
        except (PreconditionFailed, Busy) as moved:
            outcomes.append(Outcome(key, CONFLICT, error=moved))
            stopped = True
        except (RuleViolation, IdempotencyMismatch, UnsafeNumber) as refusal:
            outcomes.append(Outcome(key, REFUSED, error=refusal))
            stopped = True
        else:
            outcomes.append(Outcome(key, DUPLICATE if answer.duplicate else RECORDED, answer))
    return outcomes


def _write(
    recorder: Recorder, match_id: str, token: str | None, item: dict[str, Any], rates: RateCounters | None
) -> Recorded:
    """One item, as POST …/actions (or …/undo, …/redo) would write it."""
    expected, key = item.get("expected_version"), item["key"]
    if item["kind"] == "action":
        return recorder.act(match_id, token, item["action"], expected, key, rates)
    correct = recorder.undo if item["kind"] == "undo" else recorder.redo
    return correct(match_id, token, expected, key, rates)
