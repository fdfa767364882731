"""marshmallow schemas of the read side: the raw log, rewinds, replays, the scoreboard."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from service.schemas.common import StoredEventOut


class StateQuery(Schema):
    """GET /v1/matches/{id}/state."""

    at = fields.Integer(validate=validate.Range(min=1), metadata={"description": "A step number."})


class RangeQuery(Schema):
    """Step ranges of the events and replay reads."""

    from_ = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1))
    to = fields.Integer(validate=validate.Range(min=1))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class ReplayQuery(RangeQuery):
    """GET /v1/matches/{id}/replay."""

    raw = fields.Boolean(
        load_default=False,
        metadata={"description": "Show every logged step, undone ones and corrections included."},
    )


class EventPage(Schema):
    """A page of the raw log."""

    events = fields.List(fields.Nested(StoredEventOut))
    version = fields.Integer()
    links = fields.Dict()


class StateOut(Schema):
    """The game's view after one step."""

    id = fields.String()
    version = fields.Integer()
    state = fields.Raw()
    links = fields.Dict()


class ReplayPage(Schema):
    """Frames: each step's event with the state after it."""

    id = fields.String()
    version = fields.Integer()
    raw = fields.Boolean()
    frames = fields.List(fields.Dict())
    links = fields.Dict()


class ScoresOut(Schema):
    """The projected scoreboard (per game; always finished and winners)."""

    class Meta:
        unknown = INCLUDE

    finished = fields.Boolean()
    winners = fields.List(fields.String())
    totals = fields.Dict()
    version = fields.Integer(metadata={"description": "The step the projection has reached."})
    log_version = fields.Integer(metadata={"description": "The match's newest step."})
    projected = fields.Boolean(metadata={"description": "False until a worker has projected the match once."})
