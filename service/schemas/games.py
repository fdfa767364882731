"""marshmallow schemas of GET /v1/games."""

from __future__ import annotations

from marshmallow import Schema, fields


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
