"""Matches in and out: NDJSON export, import checked by the rules, and forks (BG Stats: bgstats.py).

The export format (``tabletape/1``) is one JSON object a line: the match's header first
(``{"format", "id", "game", "created_at", "created_ms", "version", "players", "setup",
"options", ...}``), then every logged event ``{"seq", "type", "data", "meta"}`` in step order.

An import never trusts the file: it replays every action (``meta.action`` on the first event of
each batch) through the game's rules, and every undo and redo through the history, and refuses
the whole file at the first line whose events are not what the rules derive. A fork is an import
of the effective history up to a step, so it is checked the same way.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from events.envelope import NewEvent, StoredEvent
from events.store import EventStore
from games.contract import Game, RuleViolation
from games.registry import all_games
from games.validation import validate_action, validate_match
from projections import history
from projections.history import Envelope
from projections.reader import MatchReader

FORMAT = "tabletape/1"
CREATED = "MatchCreated"
# Header fields a file may carry back in; everything else of a header is the importer's to set.
ORIGIN_FIELDS = (
    "created_at",
    "created_ms",
    "forked_from",
    "forked_at",
    "imported_from",
    "timezone",
    "location",
)


class ImportRefused(Exception):
    """A file (or fork) the rules refuse: the first offending line and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class MidAction(Exception):
    """A fork asked at a step inside one action's batch of events."""


@dataclass(frozen=True)
class Checked:
    """A log the rules accepted: the game, the header fields to keep, and the events to write."""

    game: Game
    origin: dict[str, str]
    events: list[NewEvent]
    finished: bool


# --- export -------------------------------------------------------------------------------------


def export_header(store: EventStore, match_id: str) -> dict[str, Any]:
    """The first line of an export: who, what and when (never the token's hash)."""
    header = store.header(match_id)
    created = store.read(match_id, 1, 1)
    first = created[0].data if created else {}
    line: dict[str, Any] = {"format": FORMAT, "id": match_id, "game": header["game"]}
    line |= {k: header[k] for k in ORIGIN_FIELDS if k in header}
    line["version"] = store.version(match_id)
    line |= {k: first.get(k) for k in ("players", "setup", "options")}
    return line


def export_lines(
    store: EventStore,
    match_id: str,
    disclose: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Iterator[str]:
    """The match as NDJSON lines (each ending in a newline): the header (read now), then every event.

    ``disclose`` holds back what open reads may not show yet (see projections.disclosure).
    """
    first = _line(export_header(store, match_id))
    show = disclose or (lambda event: event)
    events = (_line(show(event.as_dict())) for event in store.iter_events(match_id))
    return itertools.chain([first], events)


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
    return header, events


def check_log(header: dict[str, Any], events: list[tuple[int, StoredEvent]]) -> Checked:
    """Replay a log through the rules; the events to write, or ImportRefused at the first bad line."""
    game = all_games()[header["game"]]
    batches = _batches(events)
    env, kept = _check_creation(game, batches[0])
    seen: list[str] = [json.dumps(history.empty()), *kept]
    env = json.loads(seen[-1])

    def rewind(n: int) -> Envelope:
        return dict(json.loads(seen[n]))

    for batch in batches[1:]:
        env = _check_batch(game, env, batch, rewind)
        for _, event in batch:
            seen.append(_placeholder(seen, event.seq, env, batch))
    origin = {k: str(header[k]) for k in ORIGIN_FIELDS if header.get(k) is not None}
    written = [NewEvent(e.type, e.data, _meta(game, e)) for _, e in events]
    return Checked(game, origin, written, bool(game.scores(copy.deepcopy(env["game"])).get("finished")))


def fork_lines(reader: MatchReader, match_id: str, at: int) -> list[str]:
    """The effective history of a match up to step ``at``, as an importable NDJSON text."""
    store = reader.store
    version = store.version(match_id)
    if not 1 <= at <= version:
        raise MidAction(f"step {at} is not a step of this match (1 to {version})")
    _, env = reader.at(match_id, at)
    events = store.read(match_id, 1, min(at + 1, version))
    if at < version and events[at].meta.get("action_id") == events[at - 1].meta.get("action_id"):
        raise MidAction(f"step {at} is in the middle of one action's events; fork at the action's last step")
    kept = [e for e in events[:at] if e.type not in history.CORRECTIONS and history.is_effective(env, e.seq)]
    header = export_header(store, match_id) | {"forked_from": match_id, "forked_at": at}
    header.pop("created_at", None)
    header.pop("created_ms", None)
    renumbered = [StoredEvent(i, e.type, e.data, e.meta) for i, e in enumerate(kept, start=1)]
    return [_line(header)] + [_line(e.as_dict()) for e in renumbered]


# --- private helpers ----------------------------------------------------------------------------


def _line(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


def _header(number: int, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise ImportRefused(number, f"the first line must be a header object with format {FORMAT!r}")
    if value.get("game") not in all_games():
        raise ImportRefused(number, f"there is no game {value.get('game')!r}")
    return value


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


def _check_creation(game: Game, batch: list[tuple[int, StoredEvent]]) -> tuple[Envelope, list[str]]:
    number, first = batch[0]
    if first.type != CREATED or first.meta.get("action_id") != history.CREATION:
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
    env, kept = history.empty(), []
    for _, event in batch:
        env = history.step(game, env, event, lambda n: history.empty())
        kept.append(json.dumps(env))
    return env, kept


def _check_batch(
    game: Game, env: Envelope, batch: list[tuple[int, StoredEvent]], rewind: history.Rewind
) -> Envelope:
    number, first = batch[0]
    action_id = first.meta.get("action_id")
    if not isinstance(action_id, str) or not action_id or action_id == history.CREATION:
        raise ImportRefused(number, "each action's events need an action_id of their own")
    if first.type in history.CORRECTIONS:
        make = history.undo_event if first.type == history.UNDONE else history.redo_event
        if len(batch) != 1 or make(env) != first.data:
            raise ImportRefused(number, f"this {first.type} is not what the history allows here")
        return history.step(game, env, first, rewind)
    action = first.meta.get("action")
    try:
        if env["game"].get("finished"):
            raise RuleViolation("match_finished", "the match is over; undo to change its end")
        derived = game.decide(env["game"], validate_action(game, action))
    except RuleViolation as refusal:
        raise ImportRefused(number, f"the rules refuse the action {action!r}: {refusal.message}") from refusal
    _compare(derived, batch)
    return history.fold(game, env, [e for _, e in batch], rewind)


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


def _placeholder(seen: list[str], seq: int, env: Envelope, batch: list[tuple[int, StoredEvent]]) -> str:
    # Every rewind target is the end of a batch (or the step before one), so only batch ends
    # need the true envelope; steps inside a batch are never rewound to.
    return json.dumps(env) if seq == batch[-1][1].seq else seen[-1]


def _meta(game: Game, event: StoredEvent) -> dict[str, Any]:
    # The events equal what today's rules derive, so they are stored at today's schema.
    return dict(event.meta) | {"schema": game.event_schemas.get(event.type, 1)}
