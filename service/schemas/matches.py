"""marshmallow schemas of the write side and the match list: create, act, show, list."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, pre_load, validate

from service.schemas.common import MAX_PLAYERS_PER_REQUEST, NAME, StoredEventOut


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


class MatchesQuery(Schema):
    """GET /v1/matches."""

    game = fields.String(validate=NAME)
    player = fields.String(validate=NAME)
    status = fields.String(validate=validate.OneOf(["in_progress", "finished"]))
    since = fields.DateTime(metadata={"description": "Created at or after (ISO 8601)."})
    until = fields.DateTime(metadata={"description": "Created at or before (ISO 8601)."})
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


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
