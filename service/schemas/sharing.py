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
        validate=validate.OneOf(["ndjson", "bgstats"]),
        metadata={"description": "ndjson: the whole log; bgstats: a finished match as a BG Stats play."},
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


class BgStatsPlayer(Schema):
    """One player of a BG Stats play."""

    name = fields.String()
    sourcePlayerId = fields.String()
    score = fields.String()
    winner = fields.Boolean()
    startPlayer = fields.Boolean()
    seatOrder = fields.Integer()


class BgStatsGame(Schema):
    """The game of a BG Stats play."""

    name = fields.String()
    sourceGameId = fields.String()


class BgStatsPlay(Schema):
    """A finished match as a play that BG Stats imports."""

    sourceName = fields.String()
    sourcePlayId = fields.String()
    playDate = fields.String(metadata={"description": "When the match began (UTC), YYYY-MM-DD HH:MM:SS."})
    durationMin = fields.Integer()
    game = fields.Nested(BgStatsGame)
    players = fields.List(fields.Nested(BgStatsPlayer))
