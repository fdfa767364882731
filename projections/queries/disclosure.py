"""What a reader may see of a match: the public history, a seat's own facts, the table's, or all.

The games say what their table cannot see yet (``Game.public``, ``public_view``, ``announced``);
this module applies it, judged against the match now and against what the table was shown and an
undo took back since (``shown``, kept by the tape). Every read path (the log, replays, states, live
frames, exports, forks) sees a match through one ``Sight``. See docs/hidden-information.md.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from games.contract import JSON, Game, State
from projections.queries.access import EVERYONE, OPERATOR, SEAT, TABLE, THE_TABLE, Reader


@dataclass(frozen=True)
class Sight:
    """How one reader sees one match: the match now, and who reads it (``access.Reader``)."""

    game: Game
    now: State
    shown: tuple[str, ...] = ()
    reader: Reader = EVERYONE
    undone: tuple[tuple[int, int], ...] = ()

    @property
    def everything(self) -> bool:
        """Whether this reader may see every fact recorded (the table sees a seat's secret only
        once the game shows it: ``event`` decides that event by event)."""
        return self.reader.table

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        """One logged event as this reader may see it."""
        if self.reader.kind == OPERATOR or self.game.public is None:
            return event
        if self.reader.kind == TABLE and not sealed(event):
            # The table sees everything it recorded itself; only a seat's secret is judged.
            return event
        seq = event.get("seq")
        effective = (
            not any(first <= seq <= last for first, last in self.undone) if isinstance(seq, int) else True
        )
        public = self.game.public(self.now, self.shown, event, effective)
        if public is event or public == event:
            return event
        if self.reader.kind == TABLE:
            # A secret a seat recorded itself stays its own until the game shows it to the table.
            return public
        if self.reader.kind == SEAT and self.reader.seat is not None:
            return _own(self.reader.seat, event, public)
        return public

    def view(self, view: JSON) -> JSON:
        """The game's view at any step as this reader may see it."""
        if self.everything or self.game.public_view is None:
            return view
        public = self.game.public_view(self.now, self.shown, view)
        if self.reader.kind == SEAT and self.reader.seat is not None:
            return _own_hand(self.reader.seat, view, public)
        return public

    def hides(self, event: dict[str, Any]) -> bool:
        """Whether this reader sees less of the event than was logged."""
        return self.event(event) != event


def sealed(event: dict[str, Any]) -> bool:
    """Whether a seat recorded this event itself (``meta.by``: ``seat``)."""
    return (event.get("meta") or {}).get("by") == SEAT


def _own(seat: str, event: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat sees of an event the public sees less of: all of its own action, and its own
    hand where the event records every player's hands."""
    action = (event.get("meta") or {}).get("action")
    if isinstance(action, dict) and action.get("player") == seat:
        return event
    mine = copy.deepcopy(public)
    for whole, part in (
        (event.get("data"), mine.get("data")),
        (action, (mine.get("meta") or {}).get("action")),
    ):
        whole, part = whole or {}, part or {}
        _own_hand(seat, whole, part, into=True)
        # Hands dealt in a match's setup (Hats) are in its first event's setup.
        if isinstance(whole.get("setup"), dict) and isinstance(part.get("setup"), dict):
            _own_hand(seat, whole["setup"], part["setup"], into=True)
    return mine


def _own_hand(seat: str, whole: JSON, public: JSON, into: bool = False) -> JSON:
    """``public`` with ``hands[seat]`` as ``whole`` has it (in place when ``into``)."""
    hands, shown = whole.get("hands"), public.get("hands")
    if not (isinstance(hands, dict) and isinstance(shown, dict) and seat in hands):
        return public
    mine = public if into else dict(public)
    mine["hands"] = shown | {seat: hands[seat]}
    return mine


def sight(game: Game, pos: dict[str, Any], reader: Reader | bool = EVERYONE) -> Sight:
    """The sight of a match from its position now (``{"game": state, "shown": [...]}``) for a
    reader (``True``: the table; ``False``: the public)."""
    if isinstance(reader, bool):
        reader = THE_TABLE if reader else EVERYONE
    undone = tuple((int(first), int(last)) for first, last in pos.get("undone") or ())
    return Sight(game, pos["game"], tuple(pos.get("shown") or ()), reader, undone)
