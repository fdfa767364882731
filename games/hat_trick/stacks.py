"""Hat Trick stacks: whether a declared stack makes physical sense, and how it meets a card.

Rules' source: the spec's "Stacks" section (shared/games/hat-trick.md), written from
000_541fe7a985f596f8.txt. A stack is one placement per prop used: ``{"prop": "rabbit", "in":
"tube"}`` (inside the tube or covered by it, wholly or partly) or ``{"prop": "goblet", "on":
"table"}`` (resting on top of). A prop is hidden when the chain from it down to the table passes
through an ``in``; a prop holds the props that are ``in`` it.
"""

from __future__ import annotations

from typing import Any

from games.contract import Message, require, words
from games.hat_trick.constants import CONTAINERS, PROPS, SIZE, TABLE, prop_name
from games.words import and_words

# --- constants -------------------------------------------------------------------------------

Placement = dict[str, str]
Links = dict[str, tuple[str, str]]  # prop -> ("in" | "on", the prop or table under it)
Reason = dict[str, Any]


# --- physical sense --------------------------------------------------------------------------


def check_stack(stack: list[Placement]) -> None:
    """Refuse, naming the offending prop, a stack that cannot stand on a table."""
    placed: set[str] = set()
    for placement in stack:
        prop = placement["prop"]
        require(
            prop not in placed,
            "prop_placed_twice",
            "the {prop} is placed twice: give exactly one placement per prop used",
            prop=prop_name(prop),
        )
        placed.add(prop)
        _check_fit(placement)
    links = _links(stack)
    for prop, (relation, under) in links.items():
        require(
            under == TABLE or under in links,
            "support_not_in_stack",
            "the {prop} is {relation_word} the {under}, but the {under} has no placement in the stack",
            prop=prop_name(prop),
            relation_word=_relation_word(relation),
            under=prop_name(under),
        )
    _check_one_on_table(links)
    _check_no_cycle(links)


def canonical_stack(stack: list[Placement]) -> list[Placement]:
    """The same stack written bottom up (the prop on the table first), one canonical key each."""
    links = _links(stack)
    order = sorted(links, key=lambda prop: (len(_chain(links, prop)), SIZE[prop]))
    return [{"prop": prop, links[prop][0]: links[prop][1]} for prop in order]


def hidden_props(stack: list[Placement]) -> list[str]:
    """The props of a physically sound stack that are hidden, in canonical order."""
    links = _links(stack)
    return [prop for prop in PROPS if prop in links and _hiding_link(links, prop) is not None]


def held_props(stack: list[Placement], holder: str) -> list[str]:
    """The props that are directly ``in`` the holder, in canonical order."""
    links = _links(stack)
    return [prop for prop in PROPS if links.get(prop) == ("in", holder)]


# --- judging ---------------------------------------------------------------------------------


def judge_stack(card: dict[str, Any], stack: list[Placement], stars: str) -> list[Reason]:
    """Every requirement of the card the (physically sound) stack fails; empty when it passes."""
    links = _links(stack)
    reasons: list[Reason] = []
    for prop in card["colour"]:
        if prop not in links:
            reasons.append(_reason("colour_visible", prop, "must be fully visible but is not in the stack"))
        elif _hiding_link(links, prop) is not None:
            reasons.append(
                _reason("colour_visible", prop, f"must be fully visible but {_where(links, prop)}")
            )
    for prop in card["grey"]:
        if prop not in links:
            reasons.append(_reason("grey_hidden", prop, "must be hidden but is not in the stack"))
        elif _hiding_link(links, prop) is None:
            reasons.append(_reason("grey_hidden", prop, f"must be hidden but {_place(links, prop)}"))
    on_card = set(card["colour"]) | set(card["grey"])
    for prop in PROPS:
        if prop in links and prop not in on_card:
            reasons.append(_reason("others_out", prop, "is not on the card but is in the stack"))
    reasons.extend(_star_reasons(card["starred"], stack, stars))
    return reasons


def _star_reasons(starred: list[str], stack: list[Placement], stars: str) -> list[Reason]:
    reasons: list[Reason] = []
    for prop in starred:
        held = held_props(stack, prop)
        if stars == "contain" and not held:
            reasons.append(
                _reason("star_holds", prop, "is starred and must hold another prop but holds nothing")
            )
        elif stars == "empty" and held:
            reasons.append(
                _reason("star_empty", prop, f"is starred and must hold nothing but holds {_and(held)}")
            )
    return reasons


# --- private helpers -------------------------------------------------------------------------


def _links(stack: list[Placement]) -> Links:
    links: Links = {}
    for placement in stack:
        relation = "in" if "in" in placement else "on"
        links.setdefault(placement["prop"], (relation, placement[relation]))
    return links


def _check_fit(placement: Placement) -> None:
    if "in" not in placement:
        return
    prop, holder = placement["prop"], placement["in"]
    require(
        holder in CONTAINERS,
        "not_a_container",
        "the {prop} cannot be in the {holder}: only the tube, the goblet and the hat hold props",
        prop=prop_name(prop),
        holder=prop_name(holder),
    )
    require(
        SIZE[prop] < SIZE[holder],
        "prop_too_large",
        "the {prop} does not fit in the {holder}: a prop only fits in a larger container (smallest "
        "first: {PROPS})",
        prop=prop_name(prop),
        holder=prop_name(holder),
        PROPS=[prop_name(p) for p in PROPS],
    )


def _check_one_on_table(links: Links) -> None:
    grounded = [prop for prop in PROPS if prop in links and links[prop][1] == TABLE]
    require(
        bool(grounded),
        "nothing_on_table",
        'no prop stands on the table: exactly one must, e.g. {"prop": "hat", "on": "table"}',
    )
    require(
        len(grounded) == 1,
        "several_props_on_table",
        "{props} stand on the table: the props used must form one single stack with exactly one prop "
        "on the table",
        props=_and(grounded),
    )


def _check_no_cycle(links: Links) -> None:
    for prop in links:
        seen: list[str] = []
        current = prop
        while current != TABLE and current not in seen:
            seen.append(current)
            current = links[current][1]
        loop = seen[seen.index(current) :] if current != TABLE else []
        require(
            not loop,
            "stack_cycle",
            words(
                "{props} rest on each other in a loop: every prop must lead down to the table",
                props=_and(loop),
            )
            if len(loop) > 1
            else words("the {prop} cannot rest on itself", prop=prop_name(current)),
        )


def _chain(links: Links, prop: str) -> list[str]:
    """The props from this one down to the one on the table (the stack is sound)."""
    chain = [prop]
    while links[chain[-1]][1] != TABLE:
        chain.append(links[chain[-1]][1])
    return chain


def _hiding_link(links: Links, prop: str) -> str | None:
    """The first prop on the way down that is ``in`` another, or None when the prop is visible."""
    return next((link for link in _chain(links, prop) if links[link][0] == "in"), None)


def _where(links: Links, prop: str) -> str:
    """Why a prop is hidden: its place and its props below, down to the first ``in``."""
    parts = []
    for link in _chain(links, prop):
        parts.append(_place(links, link))
        if links[link][0] == "in":
            break
    return ", which ".join(parts)


def _place(links: Links, prop: str) -> str:
    relation, under = links[prop]
    if relation == "in":
        return f"is in the {under}"
    return "stands on the table" if under == TABLE else f"stands on top of the {under}"


def _relation_word(relation: str) -> Message:
    return words("in") if relation == "in" else words("on top of")


def _reason(requirement: str, prop: str, says: str) -> Reason:
    return {"requirement": requirement, "prop": prop, "message": f"the {prop} {says}"}


def _and(props: list[str]) -> Message:
    return and_words([words("the {prop}", prop=prop_name(prop)) for prop in props])
