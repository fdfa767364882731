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
    _bind(rng, found, chosen, fixed)
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


def honours(found: Entry, chosen: dict[str, Any]) -> bool:
    """Whether ``chosen`` keeps the bonds an entry states as data (``together``, ``within``), as a
    recorder reads them before it lets Send be tapped."""
    together = found.get("together")
    if together:
        values = [v for name in together["fields"] for v in chosen.get(name, [])]
        if len(values) < together["min"] or len(values) != len(set(map(repr, values))):
            return False
    within = found.get("within")
    if within:
        allowed = {repr(v) for name in within["of"] for v in chosen.get(name, [])}
        if any(repr(v) not in allowed for name in within["fields"] for v in chosen.get(name, [])):
            return False
    bond = found.get("stack")
    if bond and bond["field"] in chosen:
        return stands(bond, chosen[bond["field"]])
    return True


def stands(bond: dict[str, Any], values: list[dict[str, Any]]) -> bool:
    """Whether ``values`` form one stack as a ``stack`` bond says: each names its node once, one
    rests on the root and every other on a node named in the list, with no loop."""
    below = {}
    for value in values:
        node = value[bond["node"]]
        if node in below:
            return False
        below[node] = resting(bond, value)
    if [b for b in below.values() if b == bond["root"]] != [bond["root"]]:
        return False
    for node in below:
        seen = set()
        while node != bond["root"]:
            if node in seen or node not in below:
                return False
            seen.add(node)
            node = below[node]
    return True


def resting(bond: dict[str, Any], value: dict[str, Any]) -> Any:
    """What a value of a ``stack`` bond's field rests on."""
    return next(value[key] for key in bond["under"] if key in value)


def built(rng: Random, bond: dict[str, Any], values: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """A random stack of up to ``most`` of ``values``, built from the root up as a recorder lets
    a person build it: each next value of a node not placed yet, resting on one placed."""
    stack: list[dict[str, Any]] = []
    for _ in range(most):
        placed = {v[bond["node"]] for v in stack}
        fitting = [
            v
            for v in values
            if v[bond["node"]] not in placed
            and (resting(bond, v) in placed if stack else resting(bond, v) == bond["root"])
        ]
        if not fitting:
            break
        stack.append(rng.choice(fitting))
    return stack


def _bind(rng: Random, found: Entry, chosen: dict[str, Any], fixed: dict[str, Any]) -> None:
    """Bring a random pick within the entry's ``together`` and ``within`` bonds (fixed fields kept)."""
    together = found.get("together")
    if together:
        taken: set[str] = set()
        for name in together["fields"]:
            if name in chosen and name not in fixed:
                chosen[name] = [v for v in chosen[name] if repr(v) not in taken]
            taken |= {repr(v) for v in chosen.get(name, [])}
        free = [n for n in together["fields"] if n not in fixed]
        if len(taken) < together["min"] and free:
            name = rng.choice(free)
            field = next(f for f in found["fields"] if f["name"] == name)
            left = [v for v in field["values"] if repr(v) not in taken]
            wanted = min(len(left), together["min"] - len(taken))
            chosen[name] = chosen.get(name, []) + rng.sample(left, wanted)
    within = found.get("within")
    if within:
        allowed = {repr(v) for name in within["of"] for v in chosen.get(name, [])}
        for name in within["fields"]:
            if name in chosen and name not in fixed:
                chosen[name] = [v for v in chosen[name] if repr(v) in allowed]
    bond = found.get("stack")
    if bond and chosen.get(bond["field"]) and bond["field"] not in fixed:
        field = next(f for f in found["fields"] if f["name"] == bond["field"])
        chosen[bond["field"]] = built(rng, bond, field["values"], len(chosen[bond["field"]]))
    for name in [n for n, v in chosen.items() if v == [] and n not in fixed]:
        del chosen[name]


def _value(rng: Random, field: dict[str, Any]) -> Any:
    if not field.get("multiple"):
        return rng.choice(field["values"])
    least = field.get("min", 0)
    most = min(field.get("max", len(field["values"])), len(field["values"]))
    # Mostly few values: a stack of two placements stands more often than one of five.
    return rng.sample(field["values"], min(most, least + int(rng.expovariate(1.0))))
