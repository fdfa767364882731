"""marshmallow schemas of what the API answers: each view's return value is dumped through one."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields

from service.api.openapi_shape import game_view

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"


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

    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    meta = fields.Dict(required=True)


class RecordedSchema(Schema):
    """The answer to a write."""

    id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(StoredEventOut), required=True)
    state = fields.Raw(required=True, metadata=game_view("The game's view after the write."))


class CreatedSchema(RecordedSchema):
    """The answer to POST /v1/matches; the token is shown this once."""

    token = fields.String(
        required=True, metadata={"description": "Write token: send as Authorization: Bearer."}
    )
    recovery_code = fields.String(
        required=True,
        metadata={"description": "Shown once: POST …/token exchanges it for a new write token."},
    )
    game = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    setup = fields.Dict(required=True)
    options = fields.Dict(required=True)
    links = fields.Dict(required=True)


class MatchOut(Schema):
    """A match's header and summary."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    setup = fields.Dict(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True)
    projected_version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    timezone = fields.String(required=True)
    location = fields.String(required=True, allow_none=True)
    status = fields.String(required=True)
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    disputes = fields.List(fields.Dict(), required=True)
    links = fields.Dict(required=True)


class MatchPage(Schema):
    """A page of the match list."""

    matches = fields.List(fields.Dict())
    total = fields.Integer()
    offset = fields.Integer()
    limit = fields.Integer()
    links = fields.Dict()


class EventPage(Schema):
    """A page of the raw log."""

    events = fields.List(fields.Nested(StoredEventOut), required=True)
    version = fields.Integer(required=True)
    links = fields.Dict(required=True)


class StateOut(Schema):
    """The game's view after one step."""

    id = fields.String(required=True)
    version = fields.Integer(required=True)
    state = fields.Raw(required=True, metadata=game_view("The game's view at the step."))
    links = fields.Dict(required=True)


class FrameOut(Schema):
    """One step of a replay: its event and the game's view after it."""

    step = fields.Integer(required=True)
    event = fields.Nested(StoredEventOut, required=True)
    actor = fields.String(required=True, allow_none=True, metadata={"description": "Who sent the action."})
    ts = fields.String(required=True, metadata={"description": "When the server recorded it."})
    effective = fields.Boolean(
        required=True, metadata={"description": "False for an undone step or a correction."}
    )
    state = fields.Raw(required=True, metadata=game_view("The game's view after the step."))


class ReplayPage(Schema):
    """Frames: each step's event with the state after it."""

    id = fields.String(required=True)
    version = fields.Integer(required=True)
    raw = fields.Boolean(required=True)
    frames = fields.List(fields.Nested(FrameOut), required=True)
    links = fields.Dict(required=True)


class ScoresOut(Schema):
    """The projected scoreboard (per game; always finished and winners)."""

    class Meta:
        unknown = INCLUDE

    finished = fields.Boolean(required=True)
    winners = fields.List(fields.String(), required=True)
    totals = fields.Dict()
    version = fields.Integer(required=True, metadata={"description": "The step the projection has reached."})
    log_version = fields.Integer(required=True, metadata={"description": "The match's newest step."})
    projected = fields.Boolean(
        required=True, metadata={"description": "False until a worker has projected the match once."}
    )


class CopiedOut(Schema):
    """A match made by a fork or an import; the token is shown this once."""

    id = fields.String()
    token = fields.String(metadata={"description": "Write token: send as Authorization: Bearer."})
    recovery_code = fields.String(
        metadata={"description": "Shown once: POST …/token exchanges it for a new write token."}
    )
    game = fields.String()
    version = fields.Integer()
    finished = fields.Boolean()
    origin = fields.Dict(metadata={"description": "forked_from and forked_at, or imported_from."})
    existing = fields.Boolean(
        metadata={
            "description": "true: the store already held this log and no copy was made (an "
            "import answered 200); the match's token is not shown again."
        }
    )
    links = fields.Dict()


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
    projection_lag_seconds = fields.Float(
        metadata={"description": "Age of the oldest write no projection has folded yet (0: none lags)."}
    )


class SeatOut(Schema):
    """A seat's token (shown once) and the link that opens the recorder on the seat's phone."""

    player = fields.String(required=True)
    token = fields.String(
        required=True, metadata={"description": "The seat's token, as Authorization: Bearer."}
    )
    link = fields.String(
        required=True, metadata={"description": "The seat's recorder page, the token in its fragment."}
    )


class TableTokenOut(Schema):
    """A new table token and the recovery code that may replace it next, both shown once."""

    token = fields.String(required=True)
    recovery_code = fields.String(required=True)
