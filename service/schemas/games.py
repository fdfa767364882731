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


class GameList(Schema):
    """Every registered game."""

    games = fields.List(fields.Nested(GameOut))
