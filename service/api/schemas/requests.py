"""marshmallow schemas of what a request may carry: bodies and query strings, checked at the boundary."""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, pre_load, validate

MAX_PLAYERS_PER_REQUEST = 16
NAME = validate.Length(min=1, max=64)
# The largest step or offset a query may name: beyond it no log or list reaches, and Redis takes
# only 64-bit numbers (an offset past it would be a store error, not an empty page).
MAX_NUMBER = 2**53 - 1
STEP = validate.Range(min=1, max=MAX_NUMBER)


def validate_zone(name: str) -> None:
    """Refuse a time zone that the IANA database does not know."""
    if name not in _zones():
        raise ValidationError(
            f"{name!r} is not an IANA time zone; use a name like 'Europe/Berlin', 'America/New_York' or 'UTC'"
        )


@functools.cache
def _zones() -> frozenset[str]:
    # The names zoneinfo can load; read once, on the first match that names a zone.
    return frozenset(zoneinfo.available_timezones()) | {"UTC"}


class CreateMatch(Schema):
    """POST /v1/matches."""

    game = fields.String(required=True, validate=NAME, metadata={"example": "wizard"})
    players = fields.List(
        fields.String(validate=NAME),
        required=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS_PER_REQUEST),
        metadata={"description": "Names in seat order (clockwise).", "example": ["ann", "bob", "cy"]},
    )
    setup = fields.Dict(
        load_default=dict, metadata={"description": "Facts of the starting position (per game)."}
    )
    options = fields.Dict(
        load_default=dict, metadata={"description": "Rule variants, fixed for the match (per game)."}
    )
    timezone = fields.String(
        load_default="UTC",
        validate=validate_zone,
        metadata={
            "description": "The IANA time zone of the table (e.g. Europe/Berlin): BG Stats exports use "
            "its local time.",
            "example": "Europe/Berlin",
        },
    )
    location = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "Where the match is played, as BG Stats names a location."},
    )


def common_action(data: Any) -> dict[str, Any] | None:
    """The common body of an action, an object whose ``type`` is a name of 1 to 64 characters,
    as ``Action`` loads it (``type`` first); None for any other body."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or not 1 <= len(kind) <= 64:
        return None
    return {"type": kind, **{k: v for k, v in data.items() if k != "type"}}


class Action(Schema):
    """POST /v1/matches/{id}/actions: the action's type and its fields (see GET /v1/games)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=NAME, metadata={"example": "bid"})

    def load(self, data: Any, *, many: Any = None, partial: Any = None, unknown: Any = None) -> Any:
        """The action as marshmallow loads it. The common body, an object whose ``type`` is a
        name, loads to itself (every field included, ``type`` first) without marshmallow's
        machinery, which costs more than the rest of the request's checks; anything else goes
        through it, for its messages. (tests/service/test_action_body.py holds the two equal.)"""
        if many is None and partial is None and unknown is None:
            common = common_action(data)
            if common is not None:
                return common
        return super().load(data, many=many, partial=partial, unknown=unknown)

    @pre_load
    def one_action(self, data: Any, **kwargs: Any) -> Any:
        """Refuse a list of actions with a message that says why: one action per request."""
        if isinstance(data, list):
            raise ValidationError(
                f"send one action per request, as a JSON object; this body is a list of {len(data)}"
            )
        return data


class MatchesQuery(Schema):
    """GET /v1/matches."""

    game = fields.String(validate=NAME)
    player = fields.String(validate=NAME)
    status = fields.String(validate=validate.OneOf(["in_progress", "finished"]))
    since = fields.DateTime(metadata={"description": "Created at or after (ISO 8601)."})
    until = fields.DateTime(metadata={"description": "Created at or before (ISO 8601)."})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_NUMBER))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class StateQuery(Schema):
    """GET /v1/matches/{id}/state."""

    at = fields.Integer(validate=STEP, metadata={"description": "A step number."})


class RangeQuery(Schema):
    """Step ranges of the events and replay reads."""

    from_ = fields.Integer(data_key="from", load_default=1, validate=STEP)
    to = fields.Integer(validate=STEP)
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class ReplayQuery(RangeQuery):
    """GET /v1/matches/{id}/replay."""

    raw = fields.Boolean(
        load_default=False,
        metadata={"description": "Show every logged step, undone ones and corrections included."},
    )


class LiveQuery(Schema):
    """GET /v1/matches/{id}/live."""

    last_event_id = fields.Integer(
        validate=validate.Range(min=0, max=MAX_NUMBER),
        metadata={"description": "Resume after this step (the Last-Event-ID header does the same)."},
    )


class ForkIn(Schema):
    """POST /v1/matches/{id}/fork."""

    at = fields.Integer(
        required=True,
        validate=STEP,
        metadata={"description": "The step to fork at: the last step of an action (or a correction)."},
    )


class ImportQuery(Schema):
    """POST /v1/matches/import."""

    COPY = (
        "true: make a copy even when the store already holds this log (the match it was exported "
        "from, or an earlier import of it)."
    )
    copy = fields.Boolean(load_default=False, metadata={"description": COPY})


class ExportQuery(Schema):
    """GET /v1/matches/{id}/export."""

    format = fields.String(
        load_default="ndjson",
        validate=validate.OneOf(["ndjson", "bgstats", "bgstats-link"]),
        metadata={
            "description": "ndjson: the whole log; bgstats: a finished match as BG Stats' export "
            "file; bgstats-link: BG Stats' createPlay URL for it."
        },
    )


class RecoverIn(Schema):
    """The recovery code a match's creation answered with."""

    recovery_code = fields.String(required=True, validate=validate.Length(min=1, max=200))
