"""marshmallow schemas: the HTTP boundary's shapes, and nothing else."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, pre_load, validate

MAX_PLAYERS_PER_REQUEST = 16
NAME = validate.Length(min=1, max=64)


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


class Action(Schema):
    """POST /v1/matches/{id}/actions: the action's type and its fields (see GET /v1/games)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=NAME, metadata={"example": "bid"})

    @pre_load
    def one_action(self, data: Any, **kwargs: Any) -> Any:
        """Refuse a list of actions with a message that says why: one action per request."""
        if isinstance(data, list):
            raise ValidationError(
                f"send one action per request, as a JSON object; this body is a list of {len(data)}"
            )
        return data


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


class MatchesQuery(Schema):
    """GET /v1/matches."""

    game = fields.String(validate=NAME)
    player = fields.String(validate=NAME)
    status = fields.String(validate=validate.OneOf(["in_progress", "finished"]))
    since = fields.DateTime(metadata={"description": "Created at or after (ISO 8601)."})
    until = fields.DateTime(metadata={"description": "Created at or before (ISO 8601)."})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class Problem(Schema):
    """RFC 9457 problem details (some problems carry more members, e.g. ``errors``, ``actual``)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String()
    instance = fields.String()


class StoredEventOut(Schema):
    """One logged event."""

    seq = fields.Integer()
    type = fields.String()
    data = fields.Dict()
    meta = fields.Dict()


class Recorded(Schema):
    """The answer to a write."""

    id = fields.String()
    version = fields.Integer()
    events = fields.List(fields.Nested(StoredEventOut))
    state = fields.Raw(metadata={"description": "The game's view after the write."})


class Created(Recorded):
    """The answer to POST /v1/matches; the token is shown this once."""

    token = fields.String(metadata={"description": "Write token: send as Authorization: Bearer."})
    game = fields.String()
    players = fields.List(fields.String())
    setup = fields.Dict()
    options = fields.Dict()
    links = fields.Dict()


class MatchOut(Schema):
    """A match's header and summary."""

    id = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    setup = fields.Dict()
    options = fields.Dict()
    version = fields.Integer()
    projected_version = fields.Integer()
    created_at = fields.String()
    status = fields.String()
    finished = fields.Boolean()
    winners = fields.List(fields.String())
    disputes = fields.List(fields.Dict())
    links = fields.Dict()


class MatchPage(Schema):
    """A page of the match list."""

    matches = fields.List(fields.Dict())
    total = fields.Integer()
    offset = fields.Integer()
    limit = fields.Integer()
    links = fields.Dict()


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


class GameOut(Schema):
    """A game: its actions, setup and options as JSON Schemas."""

    id = fields.String()
    title = fields.String()
    players = fields.Dict()
    source = fields.String()
    actions = fields.Dict()
    setup = fields.Dict()
    options = fields.Dict()


class GameExample(Schema):
    """A short match to record: create it with these, then post the actions in order."""

    players = fields.List(fields.String(), metadata={"description": "Names in seat order."})
    setup = fields.Dict()
    options = fields.Dict()
    actions = fields.List(fields.Dict(), metadata={"description": "POST each to /v1/matches/{id}/actions."})
    finished = fields.Boolean(metadata={"description": "Whether the last action finishes the match."})


class GameDetail(GameOut):
    """One game, with an example match."""

    example = fields.Nested(GameExample)


class GameList(Schema):
    """Every registered game."""

    games = fields.List(fields.Nested(GameOut))


class Health(Schema):
    """Liveness and the store's state."""

    status = fields.String()
    redis = fields.String()
