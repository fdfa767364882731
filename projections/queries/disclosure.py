"""What a reader may see of a match: everything with its write token, else the public history.

The games say what their table cannot see yet (``Game.public``, ``public_view``, ``announced``);
this module applies it, judged against the match now and against what the table was shown and an
undo took back since (``shown``, kept by the tape). Every read path (the log, replays, states, live
frames, exports, forks) sees a match through one ``Sight``. See docs/hidden-information.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.contract import JSON, Game, State


@dataclass(frozen=True)
class Sight:
    """How one reader sees one match: the match now, and whether the reader may see everything."""

    game: Game
    now: State
    shown: tuple[str, ...] = ()
    everything: bool = False
    undone: tuple[tuple[int, int], ...] = ()

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        """One logged event as this reader may see it."""
        if self.everything or self.game.public is None:
            return event
        seq = event.get("seq")
        effective = (
            not any(first <= seq <= last for first, last in self.undone) if isinstance(seq, int) else True
        )
        return self.game.public(self.now, self.shown, event, effective)

    def view(self, view: JSON) -> JSON:
        """The game's view at any step as this reader may see it."""
        if self.everything or self.game.public_view is None:
            return view
        return self.game.public_view(self.now, self.shown, view)

    def hides(self, event: dict[str, Any]) -> bool:
        """Whether this reader sees less of the event than was logged."""
        return self.event(event) != event


def sight(game: Game, pos: dict[str, Any], everything: bool = False) -> Sight:
    """The sight of a match from its position now (``{"game": state, "shown": [...]}``)."""
    undone = tuple((int(first), int(last)) for first, last in pos.get("undone") or ())
    return Sight(game, pos["game"], tuple(pos.get("shown") or ()), everything, undone)
