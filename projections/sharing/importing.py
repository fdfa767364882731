"""A match in from an NDJSON export (projections.sharing.export), checked before anything is written.

An import never trusts the file: it replays every action (``meta.action`` on the first event of
each batch) through the game's rules, and every undo and redo through the tape, and refuses
the whole file at the first line whose events are not what the rules derive. A fork
(projections.sharing.fork) is checked the same way.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from events.codec import UnsafeNumber, loads
from events.defaults import CLOCK_SLACK_MS
from events.envelope import NewEvent, StoredEvent
from games.contract import Game, Message, RuleViolation
from games.decider import refuse_finished
from games.registry import all_games
from games.validation import validate_action, validate_match
from projections.positions import tape
from projections.positions.tape import Tape
from projections.sharing.export import FORMAT, ORIGIN_FIELDS

CREATED = "MatchCreated"
# What a file may name for what the server owns: match ids as tabletape makes them, action ids as
# the recorder makes them (or "create"), and dates no later than the import (a clock a little
# ahead is forgiven: such a date is taken as now).
MATCH_ID = re.compile(r"[0-9a-f]{16}")
ACTION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class ImportRefused(Exception):
    """A file (or fork) the rules refuse: the first offending line and why."""

    def __init__(self, line: int, reason: str | Message, /, **values: Any) -> None:
        said = reason if isinstance(reason, Message) else Message(reason, **values)
        # The sentence for a person (translated at the HTTP edge); ``reason`` in English for programs.
        super().__init__(Message("line {line}: {reason}", line=line, reason=said))
        self.line = line
        self.sentence = said
        self.reason = str(said)


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
            value = loads(text)
        except UnsafeNumber as exc:
            raise ImportRefused(number, str(exc)) from exc
        except json.JSONDecodeError as exc:
            raise ImportRefused(number, "not JSON ({error})", error=exc.msg) from exc
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


def check_log(header: dict[str, Any], events: list[tuple[int, StoredEvent]], now_ms: int) -> Checked:
    """Replay a log through the rules; the events to write, or ImportRefused at the first bad line.

    What the server owns is not taken from the file: each event's ``meta`` is written anew (the
    actor from the action, the action as the rules read it, the time checked), and the header's
    date and links are checked (a date after ``now_ms`` is refused).
    """
    game = all_games()[header["game"]]
    batches = _batches(events)
    # Folded from step 1 with nothing stored: every correction jumps to a position this tape kept.
    playing = Tape(game, tape.empty())
    written = _written(game, batches[0], _check_creation(game, batches[0], playing), now_ms)
    for batch in batches[1:]:
        written += _written(game, batch, _check_batch(game, batch, playing), now_ms)
    pos = playing.position
    origin = _origin(header, now_ms)
    return Checked(game, origin, written, bool(game.scores(copy.deepcopy(pos["game"])).get("finished")))


def log_digest(events: Iterable[StoredEvent]) -> str:
    """The digest of a log as an import tells two logs apart: each event's type, data and action
    id, in order (not its time or actor, which an import writes anew)."""
    digest = hashlib.sha256()
    for event in events:
        line = [event.seq, event.type, event.data, event.meta.get("action_id")]
        digest.update(json.dumps(line, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    return digest.hexdigest()


def origin_of(header: dict[str, Any]) -> str:
    """The id of the match a file's log was first recorded as: the match it was imported from
    when it is itself a copy, else its own id ("" for a file that names none)."""
    return str(header.get("imported_from") or header.get("id") or "")


# --- private helpers ----------------------------------------------------------------------------


def _header(number: int, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise ImportRefused(
            number, "the first line must be a header object with format {format!r}", format=FORMAT
        )
    game = value.get("game")
    if not isinstance(game, str) or game not in all_games():
        raise ImportRefused(number, "the header's 'game' must name a game, not {value}", value=_short(game))
    for name in ("id", "forked_from", "imported_from"):
        if value.get(name) is not None and not (
            isinstance(value[name], str) and MATCH_ID.fullmatch(value[name])
        ):
            raise ImportRefused(
                number,
                "the header's {name!r} must be a match id, not {value}",
                name=name,
                value=_short(value[name]),
            )
    if value.get("forked_at") is not None and _whole(value["forked_at"], 1) is None:
        raise ImportRefused(number, "the header's 'forked_at' must be a step number")
    zone, place = value.get("timezone"), value.get("location")
    if zone is not None and not (isinstance(zone, str) and zone in _zones()):
        raise ImportRefused(
            number, "the header's 'timezone' must name an IANA time zone, not {value}", value=_short(zone)
        )
    if place is not None and not (isinstance(place, str) and 1 <= len(place) <= 100):
        raise ImportRefused(number, "the header's 'location' must be a text of 1 to 100 characters")
    created = value.get("created_ms")
    if created is not None and _whole(created, 0) is None:
        raise ImportRefused(
            number,
            "the header's 'created_ms' must be milliseconds since 1970, not {value}",
            value=_short(created),
        )
    return value


def _origin(header: dict[str, Any], now_ms: int) -> dict[str, str]:
    """The header fields a copy keeps; its creation date only if it is not after the import."""
    origin = {k: str(header[k]) for k in ORIGIN_FIELDS if header.get(k) is not None}
    origin.pop("created_at", None)
    created = _whole(header.get("created_ms"), 0)
    if created is None:
        origin.pop("created_ms", None)
        return origin
    if created > now_ms + CLOCK_SLACK_MS:
        raise ImportRefused(1, "the header's 'created_ms' is after the import: a match is not made later")
    created = min(created, now_ms)
    origin["created_ms"] = str(created)
    origin["created_at"] = _iso(created)
    return origin


def _written(game: Game, batch: list[tuple[int, StoredEvent]], action: Any, now_ms: int) -> list[NewEvent]:
    """The batch's events as they are stored: data as the rules derived it, meta written anew."""
    player = action.get("player") if isinstance(action, dict) else None
    base = {"actor": str(player) if player else "table", "action_id": batch[0][1].meta["action_id"]}
    return [
        NewEvent(
            event.type,
            event.data,
            {"ts": _time(number, event, now_ms)}
            | base
            | {"schema": game.event_schemas.get(event.type, 1)}
            | _action(i, action),
        )
        for i, (number, event) in enumerate(batch)
    ]


def _time(number: int, event: StoredEvent, now_ms: int) -> str:
    """When the event was recorded, as the recorder writes it; refused if not a time or later than now."""
    ts = event.meta.get("ts")
    moment = _moment(ts)
    if moment is None:
        raise ImportRefused(
            number, "the event's 'meta.ts' must be an ISO 8601 time, not {value}", value=_short(ts)
        )
    if moment > now_ms + CLOCK_SLACK_MS:
        raise ImportRefused(number, "the event's 'meta.ts' is after the import")
    return _iso(min(moment, now_ms))


def _refuse_partial(header: dict[str, Any], events: list[tuple[int, StoredEvent]]) -> None:
    """Refuse a public export that holds facts back: the rules cannot replay what it hides."""
    steps = header.get("hidden_steps")
    listed: list[Any] = steps if isinstance(steps, list) else []
    for number, event in events:
        if event.data.get("hidden") is True or event.seq in listed:
            raise ImportRefused(
                number,
                "this export is partial: step {step} ({type}) holds back a fact the "
                "table could not see yet, such as a secret bid, so the match cannot be rebuilt "
                "from it; export it with the match's write token (Authorization: Bearer <token>) "
                "for a full export, and import that",
                step=event.seq,
                type=event.type,
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
            raise ImportRefused(
                number, "the event's {name!r} must be a {kind}", name=name, kind=kind.__name__
            )
    if value["seq"] != expected_seq:
        raise ImportRefused(
            number, "step {step} where step {due} was due", step=value["seq"], due=expected_seq
        )
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


def _check_creation(game: Game, batch: list[tuple[int, StoredEvent]], playing: Tape) -> dict[str, Any]:
    number, first = batch[0]
    if first.type != CREATED or first.meta.get("action_id") != tape.CREATION:
        raise ImportRefused(number, "the first event must be {type} of the 'create' batch", type=CREATED)
    data = first.data
    try:
        names, setup, options = validate_match(
            game, data.get("players"), data.get("setup"), data.get("options")
        )
        derived = game.setup(names, setup, options)
    except RuleViolation as refusal:
        raise ImportRefused(number, refusal.sentence) from refusal
    _compare(derived, batch)
    playing.fold(e for _, e in batch)
    return {"game": game.id, "players": names, "setup": setup, "options": options}


def _check_batch(game: Game, batch: list[tuple[int, StoredEvent]], playing: Tape) -> dict[str, Any]:
    """Check one action's (or correction's) events; the action as the rules read it."""
    number, first = batch[0]
    pos = playing.position
    action_id = first.meta.get("action_id")
    if not isinstance(action_id, str) or not ACTION_ID.fullmatch(action_id) or action_id == tape.CREATION:
        raise ImportRefused(
            number, "each action's events need an action_id of their own (1 to 64 letters, digits, - or _)"
        )
    if first.type in tape.CORRECTIONS:
        make = tape.undo_event if first.type == tape.UNDONE else tape.redo_event
        if len(batch) != 1 or make(pos) != first.data:
            raise ImportRefused(number, "this {type} is not what the history allows here", type=first.type)
        playing.advance(first)
        return {"type": "undo" if first.type == tape.UNDONE else "redo"}
    action = first.meta.get("action")
    try:
        refuse_finished(pos["game"])
        checked = validate_action(game, action)
        derived = game.decide(pos["game"], checked)
    except RuleViolation as refusal:
        raise ImportRefused(
            number,
            "the rules refuse the action {action}: {refusal}",
            action=_short(action),
            refusal=refusal.sentence,
        ) from refusal
    _compare(derived, batch)
    playing.fold(e for _, e in batch)
    return dict(checked)


def _compare(derived: list[dict[str, Any]], batch: list[tuple[int, StoredEvent]]) -> None:
    for i, (number, event) in enumerate(batch):
        if i >= len(derived):
            raise ImportRefused(number, "the rules derive no {type} here", type=event.type)
        want = derived[i]
        if (want["type"], want["data"]) != (event.type, event.data):
            raise ImportRefused(
                number, "the rules derive {type} {data}", type=want["type"], data=json.dumps(want["data"])
            )
    if len(derived) > len(batch):
        number = batch[-1][0]
        raise ImportRefused(number, "the action also derives {type}", type=derived[len(batch)]["type"])


def _action(index: int, action: Any) -> dict[str, Any]:
    # As the recorder stores it: the request on the first event of its batch only.
    return {"action": action} if index == 0 else {}


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) | {"UTC"}


def _whole(value: Any, least: int) -> int | None:
    """A whole number of at least ``least`` (as JSON or, as exports write header fields, as digits)."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,15}", value):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    return None


def _moment(value: Any) -> int | None:
    """Milliseconds since 1970 of an ISO 8601 time (UTC when it names no zone), or None."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - EPOCH) // _MS


def _iso(ms: int) -> str:
    return (EPOCH + ms * _MS).isoformat(timespec="milliseconds")


def _short(value: Any) -> str:
    """A value from the file as a refusal may quote it: a few dozen characters at most."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
