"""The HTTP shapes of BG Stats exports: its export file, and its createPlay link."""

from __future__ import annotations

from marshmallow import Schema, fields


class BgStatsGame(Schema):
    """A game of BG Stats' file; ``bggId`` is 0 where no BoardGameGeek id is known."""

    id = fields.Integer()
    uuid = fields.String()
    name = fields.String()
    bggId = fields.Integer()
    bggName = fields.String()
    highestWins = fields.Boolean()
    noPoints = fields.Boolean()
    cooperative = fields.Boolean()
    usesTeams = fields.Boolean()


class BgStatsPlayer(Schema):
    """A player of BG Stats' file."""

    id = fields.Integer()
    uuid = fields.String()
    name = fields.String()
    isAnonymous = fields.Boolean()


class BgStatsLocation(Schema):
    """A location of BG Stats' file (the match's ``location``)."""

    id = fields.Integer()
    uuid = fields.String()
    name = fields.String()


class BgStatsScore(Schema):
    """One seat of a play."""

    playerRefId = fields.Integer()
    score = fields.String(metadata={"description": "The total as text; empty for a game without points."})
    winner = fields.Boolean()
    rank = fields.Integer()
    newPlayer = fields.Boolean()
    startPlayer = fields.Boolean()
    seatOrder = fields.Integer()
    role = fields.String(metadata={"description": "The Hobbit: the player's character."})
    team = fields.String(metadata={"description": "Hats: the partnership; The Hobbit: the side."})


class BgStatsPlayOut(Schema):
    """A play of BG Stats' file."""

    uuid = fields.String()
    playDate = fields.String(
        metadata={"description": "Local time of the match's time zone, YYYY-MM-DD HH:MM:SS."}
    )
    entryDate = fields.String()
    durationMin = fields.Integer()
    gameRefId = fields.Integer()
    locationRefId = fields.Integer()
    rounds = fields.Integer()
    usesTeams = fields.Boolean()
    ignored = fields.Boolean()
    manualWinner = fields.Boolean()
    board = fields.String()
    playerScores = fields.List(fields.Nested(BgStatsScore))


class BgStatsFile(Schema):
    """BG Stats' own export file: games, players, locations and plays, joined by refIds."""

    about = fields.String()
    games = fields.List(fields.Nested(BgStatsGame))
    players = fields.List(fields.Nested(BgStatsPlayer))
    locations = fields.List(fields.Nested(BgStatsLocation))
    plays = fields.List(fields.Nested(BgStatsPlayOut))


class BgStatsLink(Schema):
    """BG Stats' createPlay URL: opening it on a device with BG Stats offers the play to save."""

    url = fields.String()
