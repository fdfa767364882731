"""marshmallow schemas of what the API answers: each view's return value is dumped through one."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields

from service.api.openapi_shape import game_view

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"
_KINDS: dict[str, type[fields.Field]] = {
    "str": fields.String,
    "int": fields.Integer,
    "float": fields.Float,
    "bool": fields.Boolean,
    "dict": fields.Dict,
}


def plain(
    name: str,
    doc: str,
    members: str,
    *,
    base: type[Schema] = Schema,
    required: bool = False,
    **more: fields.Field,
) -> type[Schema]:
    """A schema of members an answer may leave out (every answer has them, if ``required``),
    named ``name`` in the OpenAPI document: ``members`` lists the plain ones, each ``name`` (a
    string) or ``name:kind`` (int, float, bool, dict); ``more`` gives the others."""
    declared: dict[str, Any] = {}
    for member in members.split():
        field_name, _, kind = member.partition(":")
        declared[field_name] = _KINDS[kind or "str"](required=required)
    return type(name, (base,), {"__doc__": doc, "__module__": __name__, **declared, **more})


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


StoredEventOut = plain(
    "StoredEventOut", "One logged event.", "seq:int type data:dict meta:dict", required=True
)


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


MatchPage = plain(
    "MatchPage",
    "A page of the match list.",
    "total:int offset:int limit:int links:dict",
    matches=fields.List(fields.Dict()),
)


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


BgStatsGame = plain(
    "BgStatsGame",
    "A game of BG Stats' file; ``bggId`` is 0 where no BoardGameGeek id is known.",
    "id:int uuid name bggId:int bggName highestWins:bool noPoints:bool cooperative:bool usesTeams:bool",
)
BgStatsPlayer = plain("BgStatsPlayer", "A player of BG Stats' file.", "id:int uuid name isAnonymous:bool")
BgStatsLocation = plain(
    "BgStatsLocation", "A location of BG Stats' file (the match's ``location``).", "id:int uuid name"
)
BgStatsScore = plain(
    "BgStatsScore",
    "One seat of a play.",
    "playerRefId:int winner:bool rank:int newPlayer:bool startPlayer:bool seatOrder:int",
    score=fields.String(metadata={"description": "The total as text; empty for a game without points."}),
    role=fields.String(metadata={"description": "The Hobbit: the player's character."}),
    team=fields.String(metadata={"description": "Hats: the partnership; The Hobbit: the side."}),
)
BgStatsPlayOut = plain(
    "BgStatsPlayOut",
    "A play of BG Stats' file.",
    "uuid entryDate durationMin:int gameRefId:int locationRefId:int rounds:int usesTeams:bool "
    "ignored:bool manualWinner:bool board",
    playDate=fields.String(
        metadata={"description": "Local time of the match's time zone, YYYY-MM-DD HH:MM:SS."}
    ),
    playerScores=fields.List(fields.Nested(BgStatsScore)),
)
BgStatsFile = plain(
    "BgStatsFile",
    "BG Stats' own export file: games, players, locations and plays, joined by refIds.",
    "about",
    games=fields.List(fields.Nested(BgStatsGame)),
    players=fields.List(fields.Nested(BgStatsPlayer)),
    locations=fields.List(fields.Nested(BgStatsLocation)),
    plays=fields.List(fields.Nested(BgStatsPlayOut)),
)
BgStatsLink = plain(
    "BgStatsLink",
    "BG Stats' createPlay URL: opening it on a device with BG Stats offers the play to save.",
    "url",
)
GameRecord = plain(
    "GameRecord",
    "A player's record in one game.",
    "matches:int wins:int win_rate:float average_points:float",
    figures=fields.Dict(metadata={"description": "The game's figures, averaged over the matches."}),
)
PlayerOut = plain(
    "PlayerOut",
    "A player's statistics over their finished matches.",
    "name matches:int wins:int win_rate:float in_progress:int links:dict",
    by_game=fields.Dict(keys=fields.String(), values=fields.Nested(GameRecord)),
)
LeaderRow = plain("LeaderRow", "One line of a leaderboard.", "rank:int name", base=GameRecord)
LeaderboardOut = plain(
    "LeaderboardOut",
    "A game's players, most wins first.",
    "game",
    players=fields.List(fields.Nested(LeaderRow)),
)
GameOut = plain(
    "GameOut",
    "A game: its actions, setup and options as JSON Schemas.",
    "id title players:dict source actions:dict setup:dict options:dict",
)


class GameExample(Schema):
    """A short match to record: create it with these, then post the actions in order."""

    players = fields.List(fields.String(), metadata={"description": "Names in seat order."})
    setup = fields.Dict()
    options = fields.Dict()
    actions = fields.List(fields.Dict(), metadata={"description": "POST each to /v1/matches/{id}/actions."})
    finished = fields.Boolean(metadata={"description": "Whether the last action finishes the match."})


GameDetail = plain(
    "GameDetail", "One game, with an example match.", "", base=GameOut, example=fields.Nested(GameExample)
)
GameList = plain("GameList", "Every registered game.", "", games=fields.List(fields.Nested(GameOut)))


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
