"""What may be recorded now: the shape of every game's answer, and the parts every game shares.

A game's ``legal(state, sees_hidden)`` answers, for the state it is given:

    {"finished": bool, "to_act": [player, ...],
     "actions": [{"type", "fixed": {field: value}, "fields": [field, ...], "choices"?: [...],
                  "note"?: "a sentence"}, ...]}

one entry per action type and acting player. A field is ``{"name": <dotted path into the action>,
"values": [...]}`` when its legal values can be listed, else ``{"name", "schema": <JSON
Schema>}``. It may carry ``"flags": {value: sentence}`` (a value the rules accept but flag, e.g.
a revoke recorded with a dispute), and say ``"optional": true``, ``"multiple": true`` (a list of
values is chosen) and ``"min"`` / ``"max"`` (how many). When fields depend on one another,
``choices`` lists every legal combination (``{field name: value}``); where they are too many to
list, ``sum`` may say that some fields add up to a number (``{"fields": [...], "equals": n}``),
``together`` that some multiple fields share no value and hold at least ``min`` values between
them (``{"fields": [...], "min": n}``), ``within`` that every value of some multiple fields is
one chosen in others (``{"fields": [...], "of": [...]}``), ``stack`` that the values of a
multiple field form one stack (``{"field", "node", "under": [keys], "root"}``: each value names
its ``node`` once and rests, under one of the ``under`` keys, on the ``root`` for exactly one
value and on another value's node for the others), and ``note`` says in words what else binds
them. The action a client sends is ``{"type",
**fixed}`` with each field's value set at its dotted path (``build``).

``sees_hidden``: the caller holds the match's write token and may be answered from facts the
table recorded but does not show (hands). Without it a game answers from public facts only, so
that the answer never tells which cards a hidden hand holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.contract import Action, Event, Message, RuleViolation, State

Field = dict[str, Any]
Entry = dict[str, Any]
Answer = dict[str, Any]

# --- fields and entries ----------------------------------------------------------------------


def listed(name: str, values: Iterable[Any], **extra: Any) -> Field:
    """A field whose legal values are listed, e.g. ``listed("card", ["7H", "KS"])``."""
    return {"name": name, "values": list(values), **extra}


def described(name: str, schema: Mapping[str, Any], **extra: Any) -> Field:
    """A field whose values cannot be listed, described by a JSON Schema."""
    return {"name": name, "schema": dict(schema), **extra}


def entry(
    type_: str,
    fields: Iterable[Field] = (),
    player: str | None = None,
    choices: list[dict[str, Any]] | None = None,
    note: Message | str | None = None,
    **fixed: Any,
) -> Entry:
    """One legal action type for one acting player (``player``, when the action names one)."""
    found: Entry = {"type": type_, "fixed": ({"player": player} if player else {}) | fixed}
    found["fields"] = list(fields)
    if choices is not None:
        found["choices"] = choices
        found["fields"] = [_narrowed(field, choices) for field in found["fields"]]
    if note:
        found["note"] = note
    return found


def answer(state: State, to_act: Iterable[str], actions: Iterable[Entry]) -> Answer:
    """A game's answer: nothing once the match is finished, and no entry that cannot be sent (a
    required field without a value, or no legal combination)."""
    if state.get("finished"):
        return {"finished": True, "to_act": [], "actions": []}
    return {"finished": False, "to_act": list(to_act), "actions": [a for a in actions if _sendable(a)]}


def _sendable(found: Entry) -> bool:
    if found.get("choices") == []:
        return False
    return all(field["values"] or field.get("optional") for field in found["fields"] if "values" in field)


def _narrowed(field: Field, choices: list[dict[str, Any]]) -> Field:
    """A listed field keeps only the values some choice gives it (all, if no choice names it)."""
    name = field["name"]
    if "values" not in field or not any(name in choice for choice in choices):
        return field
    return {**field, "values": [v for v in field["values"] if any(c.get(name) == v for c in choices)]}


# --- building and checking actions -------------------------------------------------------------


def build(found: Entry, chosen: Mapping[str, Any]) -> Action:
    """The action a client sends for an entry, given a value for each field it sets."""
    action: Action = {"type": found["type"], **found["fixed"]}
    for name, value in chosen.items():
        # Only the first dot nests: every dotted field is one object's key ("bids.<player>"), and
        # a player's name may hold dots of its own.
        outer, dot, key = name.partition(".")
        if dot:
            action.setdefault(outer, {})[key] = value
        else:
            action[name] = value
    return action


def accepted(decide: Callable[[State, Action], list[Event]], state: State, action: Action) -> bool:
    """Whether the rules take ``action`` now (used where a value's legality is the rules' own
    verdict on a combination, e.g. a distribution under a character's power)."""
    try:
        decide(state, action)
    except RuleViolation:
        return False
    return True
