"""What a recorder at the table asks and sends: the legal actions now, and a queue of writes."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, current_app, request

from games.contract import Message
from service.api import bearer_token, match_blueprint, services
from service.api.schemas.table import BatchIn, BatchOut, NextOut
from service.http.language import render
from service.http.rate_limits import rate_counters
from service.recording.batch import Outcome, record_batch

blp = match_blueprint("table", __name__, "Record at the table: what is legal now, a queue.")


@blp.route("/<match_id>/next", methods=["GET"])
@blp.response(200, NextOut)
def next_actions(match_id: str) -> Any:
    """Who is to act, every action and value legal now, and what an undo or a redo would change.

    With the match's token the answer may use hidden facts the table recorded (hands); without
    it, only public facts.
    """
    # The answer depends on the token: a cache keeps the table's apart from the public one.
    answer = _in_words(services().queries.choices(match_id, bearer_token()))
    return answer, 200, {"Vary": "Authorization"}


def _in_words(value: Any) -> Any:
    """The answer with every sentence (a note, a flag's reason) in the reader's language."""
    if isinstance(value, Message):
        return render(value)
    if isinstance(value, dict):
        return {k: _in_words(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_in_words(v) for v in value]
    return value


@blp.route("/<match_id>/actions/batch", methods=["POST"])
@blp.arguments(BatchIn())
@blp.response(200, BatchOut)
def record_queue(body: dict[str, Any], match_id: str) -> dict[str, Any]:
    """Record a queue of actions, undos and redos in order (an offline recorder back online).

    Each item is written as a single write with its Idempotency-Key and If-Match; an item whose
    key was recorded before answers duplicate, and the first conflict or refusal stops the batch.
    """
    parts = services()
    outcomes = record_batch(parts.recorder, match_id, bearer_token(), body["items"], rate_counters())
    # The match's version after the batch (another device may have moved it further).
    return {"version": parts.store.version(match_id), "results": [_result(o) for o in outcomes]}


def _result(outcome: Outcome) -> dict[str, Any]:
    """One item's result; a stopping item carries the problem a single write would answer."""
    found: dict[str, Any] = {"key": outcome.key, "status": outcome.status}
    if outcome.recorded is not None:
        found["version"] = outcome.recorded.version
        found["events"] = [e.as_dict() for e in outcome.recorded.events]
    if outcome.error is not None:
        found["problem"] = _problem(outcome.error)
    return found


def _problem(error: Exception) -> dict[str, Any]:
    """The problem+json body the app's error handlers give ``error``, as a value."""
    answer: Response = current_app.handle_user_exception(error)  # type: ignore[assignment]
    body: dict[str, Any] = json.loads(answer.get_data())
    body["instance"] = request.path
    return body
