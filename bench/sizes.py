"""A position's size as a match grows: `python -m bench.sizes`.

Every game's position (its state and the correction stack) at step 1,000 against step 100,000,
folded by the rules alone. The Other Hat Trick goes on by itself (players who keep failing the
trick on the pile); a game that ends reaches 100,000 steps with undo/redo pairs after its example,
as a table that corrects often would.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

from bench.harness import OTHER_HAT_TRICK, long_other_hat_trick
from events.envelope import StoredEvent
from games.contract import Game
from games.registry import all_games
from games.validation import validate_action, validate_match
from projections.positions import tape
from projections.positions.tape import Position, Tape

SMALL, LARGE = 1_000, 100_000


def steps(game: Game, script: dict[str, Any], actions: Iterator[dict[str, Any]]) -> Iterator[Any]:
    """The match's events as the recorder would number them, then undo/redo pairs forever."""
    names, setup, options = validate_match(game, script["players"], script["setup"], script["options"])
    state: dict[str, Any] = {}
    seq = 0
    for data in game.setup(names, setup, options):
        state = game.evolve(state, data)
        seq += 1
        yield StoredEvent(seq, data["type"], data["data"], {"action_id": tape.CREATION})
    for action in actions:
        action_id = uuid.uuid4().hex
        for data in game.decide(state, validate_action(game, action)):
            state = game.evolve(state, data)
            seq += 1
            yield StoredEvent(seq, data["type"], data["data"], {"action_id": action_id})
    yield from corrections(seq)


def corrections(seq: int) -> Iterator[Any]:
    """Undo, redo, undo, redo … of the last action, numbered on from ``seq`` (data filled in by fold)."""
    while True:
        for kind in (tape.UNDONE, tape.REDONE):
            seq += 1
            yield StoredEvent(seq, kind, {}, {"action_id": uuid.uuid4().hex})


def sizes(
    game: Game, events: Iterator[StoredEvent], small: int = SMALL, large: int = LARGE
) -> dict[int, int]:
    """The position's JSON size at steps ``small`` and ``large``."""

    def nowhere(seq: int) -> Position:
        raise LookupError(seq)

    playing = Tape(game, tape.empty(), nowhere)
    found = {}
    for event in events:
        if event.type in tape.CORRECTIONS:
            make = tape.undo_event if event.type == tape.UNDONE else tape.redo_event
            event = StoredEvent(event.seq, event.type, make(playing.position) or {}, event.meta)
        pos = playing.advance(event)
        if event.seq in (small, large):
            found[event.seq] = len(json.dumps(pos))
        if event.seq >= large:
            return found
    return found


def main(small: int = SMALL, large: int = LARGE) -> None:
    """Print every game's ratio of its position at step ``large`` to the same at ``small``."""
    ratios = []
    for game in all_games().values():
        if game.id == OTHER_HAT_TRICK[0]:
            fields = ("game", "players", "setup", "options")
            script: dict[str, Any] = dict(zip(fields, OTHER_HAT_TRICK, strict=True))
            actions: Iterator[dict[str, Any]] = long_other_hat_trick(large)
        else:
            script = max(map(game.example, range(4)), key=lambda s: len(s["actions"]))
            actions = iter(script["actions"])
        found = sizes(game, steps(game, script, actions), small, large)
        ratios.append(f"{game.id} {found[large] / found[small]:.2f}x")
    print(f"state: position at step {large:,} against step {small:,} (goal <= 2x): " + "; ".join(ratios))


if __name__ == "__main__":
    main()
