"""marshmallow schemas of live follow, fork, export and import."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"


class LiveQuery(Schema):
    """GET /v1/matches/{id}/live."""

    last_event_id = fields.Integer(
        validate=validate.Range(min=0),
        metadata={"description": "Resume after this step (the Last-Event-ID header does the same)."},
    )


class ForkIn(Schema):
    """POST /v1/matches/{id}/fork."""

    at = fields.Integer(
        required=True,
        validate=validate.Range(min=1),
        metadata={"description": "The step to fork at: the last step of an action (or a correction)."},
    )


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


class CopiedOut(Schema):
    """A match made by a fork or an import; the token is shown this once."""

    id = fields.String()
    token = fields.String(metadata={"description": "Write token: send as Authorization: Bearer."})
    game = fields.String()
    version = fields.Integer()
    finished = fields.Boolean()
    origin = fields.Dict(metadata={"description": "forked_from and forked_at, or imported_from."})
    links = fields.Dict()
