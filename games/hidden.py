"""Holding facts back from readers without the write token: what the games' ``public`` hooks share.

A held-back card is ``null`` (a hand keeps its length, so a reader still sees "9 cards"); an event
that holds something back says ``"hidden": true`` in its data. See docs/hidden-information.md.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

DEAL = "deal"  # the key ``announced`` gives once the whole deal is public: the match is over


def masked(value: Any) -> Any:
    """A card, a hand or hands by player with every card replaced by null."""
    if isinstance(value, list):
        return [None] * len(value)
    if isinstance(value, dict):
        return {k: masked(v) for k, v in value.items()}
    return None


def _holds(value: Any) -> bool:
    """Whether a value names any card at all (an empty hand or a null card hides nothing)."""
    if isinstance(value, dict):
        return any(_holds(v) for v in value.values())
    if isinstance(value, list):
        return any(v is not None for v in value)
    return value is not None


def hold_back(
    event: dict[str, Any], fields: Iterable[str], action_fields: Iterable[str] = ()
) -> dict[str, Any]:
    """The event with ``fields`` of its data (and ``action_fields`` of the action it logs) held
    back, marked ``"hidden": true``; the event itself when none of them names a card."""
    data = event.get("data") or {}
    action = (event.get("meta") or {}).get("action")
    action = action if isinstance(action, dict) else {}
    in_data = [f for f in fields if _holds(data.get(f))]
    in_action = [f for f in action_fields if _holds(action.get(f))]
    if not in_data and not in_action:
        return event
    hidden = copy.deepcopy(event)
    for name in in_data:
        hidden["data"][name] = masked(data[name])
    for name in in_action:
        hidden["meta"]["action"][name] = masked(action[name])
    hidden["data"]["hidden"] = True
    return hidden
