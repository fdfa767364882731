"""marshmallow schemas of the history routes: live follow, fork, export, import, players, leaderboards."""

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


class GameRecord(Schema):
    """A player's record in one game."""

    matches = fields.Integer()
    wins = fields.Integer()
    win_rate = fields.Float()
    figures = fields.Dict(metadata={"description": "The game's figures, averaged over the matches."})
    average_points = fields.Float()


class PlayerOut(Schema):
    """A player's statistics over their finished matches."""

    name = fields.String()
    matches = fields.Integer()
    wins = fields.Integer()
    win_rate = fields.Float()
    in_progress = fields.Integer()
    by_game = fields.Dict(keys=fields.String(), values=fields.Nested(GameRecord))
    links = fields.Dict()


class LeaderRow(GameRecord):
    """One line of a leaderboard."""

    rank = fields.Integer()
    name = fields.String()


class LeaderboardOut(Schema):
    """A game's players, most wins first."""

    game = fields.String()
    players = fields.List(fields.Nested(LeaderRow))
