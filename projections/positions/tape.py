"""The tape of a match: its log folded, with undo and redo, into positions.

The position at log step N is what the match looked like right after step N was recorded:

    {"version": N, "game": <the game's state>, "top": [action_id, first, last] | None,
     "redo": [[action_id, first, last], ...], "undone": [[first, last], ...], "shown"?: [key, ...]}

``top`` is the last effective action (the batch of steps one request appended); ``redo`` the
actions that an undo took back and a redo may re-apply; ``undone`` every step range that is not
part of the effective history.

Undo and redo never re-run rules. Whenever action A is effective, the actions below it are the
ones that were effective when A was first recorded, so undoing A restores the position at step
``first(A) - 1`` and redoing A restores the position at step ``last(A)``. Those two facts make
every correction a jump to an earlier position (see ``step``'s ``rewind`` argument); ``Tape`` folds while
remembering the positions such a jump may land on.

``shown`` (present once needed) lists the facts the table was shown that an undo took back since
(``Game.announced``'s keys): a table that heard a bid cannot unhear it, so what it was shown stays
public whatever the undos (projections.queries.disclosure).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from events.defaults import TAPE_EVERY, TAPE_WINDOW
from events.envelope import StoredEvent
from games.contract import Game

Position = dict[str, Any]
# Gives the position at an earlier step, as a fresh value the caller owns.
Rewind = Callable[[int], Position]

UNDONE = "ActionUndone"
REDONE = "ActionRedone"
CORRECTIONS = (UNDONE, REDONE)
# The batch that created the match cannot be undone: it is the match.
CREATION = "create"


def dump(pos: Position) -> bytes:
    """A position frozen as JSON bytes (orjson: copies are made on every write, so they are fast).

    A state's keys are strings; one that is not (an integer, say) is written as a string, as
    ``json`` writes it, by orjson's slower path for such keys."""
    try:
        return orjson.dumps(pos)
    except orjson.JSONEncodeError:
        return orjson.dumps(pos, option=orjson.OPT_NON_STR_KEYS)


def thaw(frozen: bytes | str) -> Position:
    """A fresh position from ``dump``'s bytes (or any JSON text)."""
    found: Position = orjson.loads(frozen)
    return found


def empty() -> Position:
    """The position before step 1."""
    return {"version": 0, "game": {}, "top": None, "redo": [], "undone": []}


def step(game: Game, pos: Position, event: StoredEvent, rewind: Rewind) -> Position:
    """The position after ``event``; owns ``pos`` and may change it in place."""
    if event.type == UNDONE:
        return _undo(game, pos, event, rewind)
    if event.type == REDONE:
        return _redo(pos, event, rewind)
    pos["game"] = game.evolve(pos["game"], {"type": event.type, "data": event.data})
    action_id = event.meta.get("action_id", "")
    top = pos["top"]
    if action_id == CREATION:
        pos["top"] = None
    elif top is not None and top[0] == action_id and top[2] == event.seq - 1:
        top[2] = event.seq
    else:
        pos["top"] = [action_id, event.seq, event.seq]
        pos["redo"] = []
    pos["version"] = event.seq
    return pos


def fold(game: Game, pos: Position, events: Iterable[StoredEvent], rewind: Rewind) -> Position:
    """Fold events onto a position it owns."""
    for event in events:
        pos = step(game, pos, event, rewind)
    return pos


@dataclass(eq=False)
class Tape:
    """A fold from a position that remembers the positions a correction may jump back to.

    Every correction lands on the end of a batch (an undo on the step before its action, a redo
    on its action's last step), so the tape keeps, as JSON, the position at the end of the batches
    it folds. Without a ``fallback`` it keeps every one, so any jump is a lookup (a fold from step
    1 with nothing stored: verify, import). With one, it keeps the last ``window`` batch ends and
    one batch end every ``every`` steps, so memory stays bounded however long the fold, and a jump
    to any other step goes to ``fallback``, which may start from ``nearest(step)`` and fold at most
    ``every`` steps from there. With ``keep`` off, when the caller knows no correction follows,
    nothing is kept.
    """

    game: Game
    position: Position
    fallback: Rewind | None = None
    keep: bool = True
    window: int = TAPE_WINDOW
    every: int = TAPE_EVERY
    _recent: OrderedDict[int, bytes] = field(default_factory=OrderedDict, init=False, repr=False)
    _marks: dict[int, bytes] = field(default_factory=dict, init=False, repr=False)
    _action: Any = field(default=None, init=False, repr=False)

    def advance(self, event: StoredEvent) -> Position:
        """The position after ``event``, folded onto the tape's own."""
        action = event.meta.get("action_id")
        if self.keep and (action != self._action or not self._recent):
            # A new batch begins, so the position now is the end of one (or the tape's start).
            self._keep(self.position)
        self._action = action
        self.position = step(self.game, self.position, event, self.rewind)
        return self.position

    def fold(self, events: Iterable[StoredEvent]) -> Position:
        """The position after every one of ``events``."""
        for event in events:
            self.advance(event)
        return self.position

    def kept(self) -> list[tuple[int, bytes]]:
        """The recent batch ends this tape keeps, oldest first, as (step, position JSON)."""
        return list(self._recent.items())

    def nearest(self, seq: int) -> Position | None:
        """The latest position this tape keeps at or before step ``seq`` (a fresh value), if any."""
        steps = [s for s in self._recent if s <= seq] + [s for s in self._marks if s <= seq]
        if not steps:
            return None
        best = max(steps)
        return thaw(self._recent.get(best) or self._marks[best])

    def rewind(self, seq: int) -> Position:
        """The position right after step ``seq``, as a fresh value the caller owns."""
        kept = self._recent.get(seq) or self._marks.get(seq)
        if seq in self._recent:
            # Used again, so kept longer: a table that undoes and redoes one action keeps both ends.
            self._recent.move_to_end(seq)
        if kept is not None:
            return thaw(kept)
        if self.fallback is None:
            raise LookupError(f"the tape holds no position at step {seq} and has nowhere to look")
        return self.fallback(seq)

    def _keep(self, pos: Position) -> None:
        version = pos["version"]
        text = dump(pos)
        self._recent[version] = text
        if self.fallback is None:
            return
        if version // self.every > max(self._marks, default=-self.every) // self.every:
            self._marks[version] = text
        while len(self._recent) > self.window:
            self._recent.popitem(last=False)


def is_effective(pos: Position, seq: int) -> bool:
    """Whether step ``seq`` belongs to the effective history as the position knows it."""
    return not any(first <= seq <= last for first, last in pos["undone"])


def undo_event(pos: Position) -> dict[str, Any] | None:
    """The data of the event that undoes the last effective action, or None when there is none."""
    top = pos["top"]
    if top is None:
        return None
    action_id, first, last = top
    return {"action_id": action_id, "first": first, "last": last, "restores": first - 1}


def redo_event(pos: Position) -> dict[str, Any] | None:
    """The data of the event that re-applies the last undone action, or None when there is none."""
    if not pos["redo"]:
        return None
    action_id, first, last = pos["redo"][-1]
    return {"action_id": action_id, "first": first, "last": last, "restores": last}


def _undo(game: Game, pos: Position, event: StoredEvent, rewind: Rewind) -> Position:
    data = event.data
    restored = rewind(int(data["restores"]))
    restored["redo"] = pos["redo"] + [[data["action_id"], data["first"], data["last"]]]
    restored["undone"] = pos["undone"] + [[data["first"], data["last"]]]
    restored["version"] = event.seq
    shown = _taken_back(game, pos, restored)
    if shown:
        restored["shown"] = shown
    return restored


def _taken_back(game: Game, before: Position, after: Position) -> list[str]:
    """What the table was shown before an undo and is not shown after it, with what earlier
    undos took back."""
    kept = list(before.get("shown") or [])
    if game.announced is None:
        return kept
    still = set(game.announced(after["game"]))
    return kept + [k for k in game.announced(before["game"]) if k not in still and k not in kept]


def _redo(pos: Position, event: StoredEvent, rewind: Rewind) -> Position:
    data = event.data
    span = [data["first"], data["last"]]
    restored = rewind(int(data["restores"]))
    restored["redo"] = pos["redo"][:-1]
    restored["undone"] = [r for r in pos["undone"] if r != span]
    restored["version"] = event.seq
    if pos.get("shown"):
        restored["shown"] = list(pos["shown"])
    return restored
