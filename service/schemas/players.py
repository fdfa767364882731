"""marshmallow schemas of player statistics and leaderboards."""

from __future__ import annotations

from marshmallow import Schema, fields


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
