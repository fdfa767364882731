"""Choosing among what GET …/next (a game's ``legal``) offers, at random, as a person at the table might."""

from __future__ import annotations

from random import Random
from typing import Any

from games.legal import Entry


def pick(rng: Random, found: Entry, fixed: dict[str, Any] | None = None) -> dict[str, Any]:
    """Values for an entry's fields, at random among those offered (``fixed`` ones kept)."""
    fixed = fixed or {}
    if "choices" in found:
        fitting = [c for c in found["choices"] if all(c.get(k) == v for k, v in fixed.items())]
        return dict(rng.choice(fitting)) if fitting else dict(fixed)
    chosen: dict[str, Any] = {}
    for field in found["fields"]:
        name = field["name"]
        if name in fixed:
            chosen[name] = fixed[name]
        elif "values" in field and field["values"] and (not field.get("optional") or rng.random() < 0.5):
            chosen[name] = _value(rng, field)
    total = found.get("sum")
    if total:
        free = [name for name in total["fields"] if name not in fixed]
        for name in free:
            chosen[name] = 0
        # What the fixed fields leave, shared out at random among the free ones.
        for _ in range(total["equals"] - sum(chosen[n] for n in total["fields"])):
            if free:
                chosen[rng.choice(free)] += 1
    return chosen


def _value(rng: Random, field: dict[str, Any]) -> Any:
    if not field.get("multiple"):
        return rng.choice(field["values"])
    least = field.get("min", 0)
    most = min(field.get("max", len(field["values"])), len(field["values"]))
    # Mostly few values: a stack of two placements stands more often than one of five.
    return rng.sample(field["values"], min(most, least + int(rng.expovariate(1.0))))
