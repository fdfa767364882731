"""The read side's answers, one function per read, with what open reads hide held back here.

Every open read of logged events (the log, its NDJSON stream, replays, exports) goes through
projections.queries.disclosure inside these functions, so a new read cannot forget it. Outcomes that
find nothing are errors of their own (``NotFound`` and its kinds), which the service maps to
HTTP answers in one place.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from events.store import EventStore
from games.contract import Game
from games.registry import all_games
from projections.positions.rewind import Positions, frozen
from projections.queries.access import holds_token
from projections.queries.choices import next_answer
from projections.queries.disclosure import Sight, sight
from projections.readmodels.listing import MatchList
from projections.readmodels.stats import Statistics
from projections.sharing import bgstats, export


class NotFound(Exception):
    """A read of something there is not."""


class NoSuchStep(NotFound):
    """A rewind beyond the match's last step."""


class UnknownGame(NotFound):
    """No registered game has this id."""


class UnknownPlayer(NotFound):
    """No match names this player."""


class NotFinished(Exception):
    """A read that only a finished match has."""


@dataclass(frozen=True)
class LogPage:
    """Steps ``first..last`` of a match's log as open reads show them (empty when last < first)."""

    store: EventStore
    match_id: str
    first: int
    last: int
    version: int
    sight: Sight

    def events(self) -> list[dict[str, Any]]:
        """The page's events, each as a plain value."""
        found = self.store.read(self.match_id, self.first, self.last) if self.first <= self.last else []
        return [self.sight.event(e.as_dict()) for e in found]

    def lines(self) -> Iterator[str]:
        """The page's events as NDJSON lines, read a batch at a time."""
        for event in self.store.iter_events(self.match_id, self.first, self.last):
            yield json.dumps(self.sight.event(event.as_dict()), separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class Rewound:
    """The game's view right after step ``at`` of a match whose log has ``version`` steps."""

    at: int
    version: int
    state: Any


@dataclass(frozen=True)
class Frames:
    """Replay frames of steps ``first..last`` of a match whose log has ``version`` steps."""

    first: int
    last: int
    version: int
    frames: list[dict[str, Any]]
    finished: bool = False


class Queries:
    """Every read the API answers, over the positions and the projections."""

    def __init__(
        self,
        positions: Positions,
        matches: MatchList,
        statistics: Statistics,
        bgg_ids: dict[str, int] | None = None,
    ) -> None:
        self.positions = positions
        self.store = positions.store
        self.stored = positions.stored
        self.matches = matches
        self.statistics = statistics
        self.bgg_ids = bgg_ids or {}

    def everything(self, match_id: str, token: str | None) -> bool:
        """Whether ``token`` is the match's write token (None: no token); Forbidden for another's."""
        return holds_token(self.store.header(match_id), token, "read everything of")

    def describe(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        """A match's players, setup (as the token lets one see it), options, version and status."""
        return self.positions.describe(match_id, self.everything(match_id, token))

    def log(self, match_id: str, first: int, to: int | None, limit: int, token: str | None = None) -> LogPage:
        """Steps ``first..to`` of the log, at most ``limit`` of them, as the token lets one see."""
        everything = self.everything(match_id, token)
        version = self.store.version(match_id)
        last = min(to or version, version, first + limit - 1)
        game, now = self.positions.head(match_id)
        return LogPage(self.store, match_id, first, last, version, sight(game, now, everything))

    def state(self, match_id: str, at: int | None, token: str | None = None) -> Rewound:
        """The view right after step ``at`` (None: now) as the token lets one see it; NoSuchStep
        beyond the last step."""
        everything = self.everything(match_id, token)
        version = self.store.version(match_id)
        at = version if at is None else at
        if at > version:
            raise NoSuchStep(f"step {at} is beyond the match's last step {version}")
        game = self.positions.game_of(match_id)
        if everything or game.public_view is None:
            # Nothing to hold back: the match now is not needed.
            pos = self.positions.position(game, match_id, at)
            return Rewound(at, version, frozen(game.view(pos["game"])))
        now = self.positions.current(game, match_id, version)
        pos = now if at == now["version"] else self.positions.position(game, match_id, at)
        return Rewound(at, version, sight(game, now).view(frozen(game.view(pos["game"]))))

    def replay(
        self, match_id: str, first: int, to: int | None, limit: int, raw: bool, token: str | None = None
    ) -> Frames:
        """The frames of steps ``first..to``, at most ``limit`` steps, computed in one pass."""
        everything = self.everything(match_id, token)
        version = self.store.version(match_id)
        last = min(to or version, version, first + limit - 1)
        frames = list(self.positions.frames(match_id, first, last, raw, everything)) if first <= last else []
        # The head was just read for the frames' disclosure: it is remembered in this process.
        finished = bool(self.positions.head(match_id)[1]["game"].get("finished"))
        return Frames(first, last, version, frames, finished)

    def scoreboard(self, match_id: str) -> dict[str, Any]:
        """The scoreboard of the projected position, with how far it has reached; folded here
        before any projection."""
        version = self.store.version(match_id)
        game = self.positions.game_of(match_id)
        projected = self.stored.projected(match_id)
        if projected is None:
            # Not projected yet (a worker has not run since the match was created): fold it here.
            pos = self.positions.current(game, match_id, version)
            board = frozen(game.scores(pos["game"])) | {"version": version, "projected": False}
        else:
            # The position is read fresh, so the game's scores may be given it as they are.
            at, pos = projected
            board = dict(game.scores(pos["game"])) | {"version": at, "projected": True}
        return dict(board | {"log_version": version})

    def choices(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        """Who is to act and what may be recorded now, with the undo and redo in words; from
        hidden facts too for the holder of the write token (Forbidden for another's)."""
        return next_answer(self.positions, match_id, token)

    def export(self, match_id: str, token: str | None = None) -> Iterator[str]:
        """The match's export (header read now, then every event): everything for the holder of
        its write token, else as open reads may show it; Forbidden for another match's token."""
        if holds_token(self.store.header(match_id), token, "export everything of"):
            return export.export_lines(self.store, match_id)
        game, now = self.positions.head(match_id)
        return export.export_lines(self.store, match_id, sight(game, now).event)

    def play(self, match_id: str) -> dict[str, Any]:
        """A finished match as BG Stats' export file with its one play; NotFinished before its end."""
        return bgstats.export_file([self._finished(match_id)])

    def play_link(self, match_id: str) -> str:
        """BG Stats' createPlay URL for a finished match; NotFinished before its end."""
        return bgstats.create_play_link(self._finished(match_id))

    def _finished(self, match_id: str) -> bgstats.Play:
        play = bgstats.finished_play(self.positions, match_id, self.bgg_ids)
        if play is None:
            raise NotFinished("only a finished match exports as a BG Stats play")
        return play

    def match_page(
        self, filters: dict[str, str], since_ms: int | None, until_ms: int | None, offset: int, limit: int
    ) -> tuple[list[dict[str, Any]], int]:
        """Summaries of the matches the filters select, newest first, and how many there are."""
        ids, total = self.matches.ids(filters, since_ms, until_ms, offset, limit)
        return self.matches.summaries(ids), total

    def player(self, name: str) -> dict[str, Any]:
        """A player's statistics; UnknownPlayer when no match names them."""
        found = self.statistics.player(name)
        if found is None:
            raise UnknownPlayer(f"no match names a player {name!r}")
        return found

    def leaderboard(self, game_id: str) -> list[dict[str, Any]]:
        """The game's leaderboard; UnknownGame for a game there is not."""
        return self.statistics.leaderboard(_known(game_id).id)

    def games(self) -> list[dict[str, Any]]:
        """Every registered game's description."""
        return [game.describe() for game in all_games().values()]

    def game(self, game_id: str) -> dict[str, Any]:
        """A game's description; UnknownGame for a game there is not."""
        return _known(game_id).describe()


def _known(game_id: str) -> Game:
    if game_id not in all_games():
        raise UnknownGame(f"there is no game {game_id!r}")
    return all_games()[game_id]
