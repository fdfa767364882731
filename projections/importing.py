"""A match in from an NDJSON export (projections.export), checked by the rules before anything is written.

An import never trusts the file: it replays every action (``meta.action`` on the first event of
each batch) through the game's rules, and every undo and redo through the tape, and refuses
the whole file at the first line whose events are not what the rules derive. A fork
(projections.fork) is checked the same way.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from events.envelope import NewEvent, StoredEvent
from games.contract import Game, RuleViolation
from games.registry import all_games
from games.validation import validate_action, validate_match
from projections import tape
from projections.export import FORMAT, ORIGIN_FIELDS
from projections.tape import Tape

CREATED = "MatchCreated"


class ImportRefused(Exception):
    """A file (or fork) the rules refuse: the first offending line and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Checked:
    """A log the rules accepted: the game, the header fields to keep, and the events to write."""

    game: Game
    origin: dict[str, str]
    events: list[NewEvent]
    finished: bool


# --- import and fork ----------------------------------------------------------------------------


def parse_lines(lines: Iterable[str]) -> tuple[dict[str, Any], list[tuple[int, StoredEvent]]]:
    """The header and the numbered events of an NDJSON text; ImportRefused at the first bad line."""
    header: dict[str, Any] | None = None
    events: list[tuple[int, StoredEvent]] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportRefused(number, f"not JSON ({exc.msg})") from exc
        if header is None:
            header = _header(number, value)
        else:
            events.append((number, _event(number, value, len(events) + 1)))
    if header is None:
        raise ImportRefused(1, "the file is empty; its first line must be the match's header")
    if not events:
        raise ImportRefused(2, "the file has no events after its header")
    _refuse_partial(header, events)
    return header, events


def check_log(header: dict[str, Any], events: list[tuple[int, StoredEvent]]) -> Checked:
    """Replay a log through the rules; the events to write, or ImportRefused at the first bad line."""
    game = all_games()[header["game"]]
    batches = _batches(events)
    # Folded from step 1 with nothing stored: every correction jumps to a position this tape kept.
    playing = Tape(game, tape.empty())
    _check_creation(game, batches[0], playing)
    for batch in batches[1:]:
        _check_batch(game, batch, playing)
    pos = playing.position
    origin = {k: str(header[k]) for k in ORIGIN_FIELDS if header.get(k) is not None}
    written = [NewEvent(e.type, e.data, _meta(game, e)) for _, e in events]
    return Checked(game, origin, written, bool(game.scores(copy.deepcopy(pos["game"])).get("finished")))


# --- private helpers ----------------------------------------------------------------------------


def _header(number: int, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise ImportRefused(number, f"the first line must be a header object with format {FORMAT!r}")
    if value.get("game") not in all_games():
        raise ImportRefused(number, f"there is no game {value.get('game')!r}")
    return value


def _refuse_partial(header: dict[str, Any], events: list[tuple[int, StoredEvent]]) -> None:
    """Refuse a public export that holds facts back: the rules cannot replay what it hides."""
    steps = header.get("hidden_steps")
    listed: list[Any] = steps if isinstance(steps, list) else []
    for number, event in events:
        if event.data.get("hidden") is True or event.seq in listed:
            raise ImportRefused(
                number,
                f"this export is partial: step {event.seq} ({event.type}) holds back a fact the "
                "table could not see yet, such as a secret bid, so the match cannot be rebuilt "
                "from it; export it with the match's write token (Authorization: Bearer <token>) "
                "for a full export, and import that",
            )
    if header.get("partial"):
        raise ImportRefused(
            1, "this export says it is partial; import a full export (made with the write token)"
        )


def _event(number: int, value: Any, expected_seq: int) -> StoredEvent:
    if not isinstance(value, dict):
        raise ImportRefused(number, "an event must be a JSON object")
    kinds = {"seq": int, "type": str, "data": dict, "meta": dict}
    for name, kind in kinds.items():
        if not isinstance(value.get(name), kind) or isinstance(value.get(name), bool):
            raise ImportRefused(number, f"the event's {name!r} must be a {kind.__name__}")
    if value["seq"] != expected_seq:
        raise ImportRefused(number, f"step {value['seq']} where step {expected_seq} was due")
    return StoredEvent(value["seq"], value["type"], value["data"], value["meta"])


def _batches(events: list[tuple[int, StoredEvent]]) -> list[list[tuple[int, StoredEvent]]]:
    batches: list[list[tuple[int, StoredEvent]]] = []
    for numbered in events:
        action_id = numbered[1].meta.get("action_id")
        if batches and batches[-1][0][1].meta.get("action_id") == action_id:
            batches[-1].append(numbered)
        else:
            batches.append([numbered])
    return batches


def _check_creation(game: Game, batch: list[tuple[int, StoredEvent]], playing: Tape) -> None:
    number, first = batch[0]
    if first.type != CREATED or first.meta.get("action_id") != tape.CREATION:
        raise ImportRefused(number, f"the first event must be {CREATED} of the 'create' batch")
    data = first.data
    try:
        names, setup, options = validate_match(
            game, data.get("players"), data.get("setup"), data.get("options")
        )
        derived = game.setup(names, setup, options)
    except RuleViolation as refusal:
        raise ImportRefused(number, refusal.message) from refusal
    _compare(derived, batch)
    playing.fold(e for _, e in batch)


def _check_batch(game: Game, batch: list[tuple[int, StoredEvent]], playing: Tape) -> None:
    number, first = batch[0]
    pos = playing.position
    action_id = first.meta.get("action_id")
    if not isinstance(action_id, str) or not action_id or action_id == tape.CREATION:
        raise ImportRefused(number, "each action's events need an action_id of their own")
    if first.type in tape.CORRECTIONS:
        make = tape.undo_event if first.type == tape.UNDONE else tape.redo_event
        if len(batch) != 1 or make(pos) != first.data:
            raise ImportRefused(number, f"this {first.type} is not what the history allows here")
        playing.advance(first)
        return
    action = first.meta.get("action")
    try:
        if pos["game"].get("finished"):
            raise RuleViolation("match_finished", "the match is over; undo to change its end")
        derived = game.decide(pos["game"], validate_action(game, action))
    except RuleViolation as refusal:
        raise ImportRefused(number, f"the rules refuse the action {action!r}: {refusal.message}") from refusal
    _compare(derived, batch)
    playing.fold(e for _, e in batch)


def _compare(derived: list[dict[str, Any]], batch: list[tuple[int, StoredEvent]]) -> None:
    for i, (number, event) in enumerate(batch):
        if i >= len(derived):
            raise ImportRefused(number, f"the rules derive no {event.type} here")
        want = derived[i]
        if (want["type"], want["data"]) != (event.type, event.data):
            raise ImportRefused(number, f"the rules derive {want['type']} {json.dumps(want['data'])}")
    if len(derived) > len(batch):
        number = batch[-1][0]
        raise ImportRefused(number, f"the action also derives {derived[len(batch)]['type']}")


def _meta(game: Game, event: StoredEvent) -> dict[str, Any]:
    # The events equal what today's rules derive, so they are stored at today's schema.
    return dict(event.meta) | {"schema": game.event_schemas.get(event.type, 1)}
