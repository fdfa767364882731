"""The sentences the games store in English (a dispute's ``message``, a Hat Trick judgement
reason's ``message``, The Hobbit's result ``explanation``), told again from their recorded facts
in the reader's language.

The stored sentence stays as it was recorded, for programs and for the export; the reads add a
``said`` member beside it, the same sentence in the reader's language (English for an English
reader). A fact this module cannot tell (a reason the table typed itself, a dispute code it does
not know) is said as stored. ``say`` turns a Message into the reader's language (the HTTP edge's
``render``); None for an English reader, who reads the sentence as recorded. Only the parts that
hold such a sentence are copied, the rest is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.contract import N_, Message, words
from games.hat_trick.constants import PROP_NAMES
from games.wizard.constants import SUIT_NAMES

Say = Callable[[Message], str] | None

# What each requirement of a Hat Trick stack asks, by its code.
REQUIREMENTS = {
    "colour_visible": N_("the {prop} must be fully visible"),
    "grey_hidden": N_("the {prop} must be hidden in the stack"),
    "others_out": N_("the {prop} is not on the card but is in the stack"),
    "star_holds": N_("the {prop} is starred and must hold another prop"),
    "star_empty": N_("the {prop} is starred and must hold nothing"),
}
# How a match of The Hobbit was decided, by the result's reason.
ENDINGS = {
    "side_wiped_out": N_("{side} wins: {other} has no living character left"),
    "more_survivors": N_("{side} wins: {living} living characters against {against}"),
    "more_damage_dealt": N_(
        "{side} wins: {living} living characters each, and {side} dealt {damage} damage against {received}"
    ),
    "draw": N_("draw: {living} living characters each and {damage} damage dealt each"),
}
SIDES = {"good": N_("good"), "evil": N_("evil")}


def dispute(found: dict[str, Any]) -> Message | str:
    """A dispute in words: a revoke from its facts, anything else as stored."""
    if found.get("code") != "revoke" or not {"player", "card", "round", "trick"} <= found.keys():
        return str(found.get("message") or found.get("code", ""))
    if found.get("suit") in SUIT_NAMES:
        return Message(
            "{player} did not follow {suit} in trick {trick} of round {round}, yet plays {card}: a revoke, "
            "or a recording mistake to correct with undo",
            **{k: found[k] for k in ("player", "card", "round", "trick")},
            suit=words(SUIT_NAMES[found["suit"]]),
        )
    return Message(
        "{player} plays {card} in round {round} but did not follow {colour} in trick {trick}: a revoke",
        **{k: found.get(k) for k in ("player", "card", "round", "trick", "colour")},
    )


def reason(found: dict[str, Any]) -> Message | str:
    """Why a Hat Trick stack failed: its requirement in words, or what the table typed."""
    template = REQUIREMENTS.get(str(found.get("requirement")))
    prop = found.get("prop")
    if template is None or prop not in PROP_NAMES:
        return str(found.get("message") or "")
    return Message(template, prop=words(PROP_NAMES[prop]))


def result(found: dict[str, Any]) -> Message | str:
    """How a match of The Hobbit was decided, from the survivors and the damage dealt."""
    template = ENDINGS.get(str(found.get("reason")))
    survivors, dealt = found.get("survivors") or {}, found.get("damage_dealt") or {}
    if template is None or not survivors:
        return str(found.get("explanation") or "")
    winner = found.get("side") or "good"
    other = "evil" if winner == "good" else "good"
    return Message(
        template,
        side=words(SIDES.get(winner, winner)),
        other=words(SIDES.get(other, other)),
        living=survivors.get(winner),
        against=survivors.get(other),
        damage=dealt.get(winner),
        received=dealt.get(other),
    )


def event(found: dict[str, Any], say: Say) -> dict[str, Any]:
    """An event with ``said`` beside each stored English sentence of its data."""
    data = found.get("data")
    if not isinstance(data, dict):
        return found
    kind = found.get("type")
    if kind == "DisputeRaised":
        inner = data.get("dispute")
        told = (
            {**data, "dispute": _said(inner, dispute, say)}
            if isinstance(inner, dict)
            else _said(data, dispute, say)
        )
        return {**found, "data": told}
    if kind == "DeclarationJudged" and isinstance(data.get("reasons"), list):
        return {**found, "data": {**data, "reasons": _all(data["reasons"], reason, say)}}
    if kind == "MatchFinished" and "explanation" in data:
        return {**found, "data": _said(data, result, say)}
    return found


def frame(found: dict[str, Any], say: Say) -> dict[str, Any]:
    """A replay or live frame: its event and the state after it, each with ``said``."""
    told = found | {"event": event(found["event"], say)} if isinstance(found.get("event"), dict) else found
    return told | ({"state": state(found["state"], say)} if "state" in found else {})


def state(view: Any, say: Say) -> Any:
    """A game's view with ``said`` beside its disputes, judgement reasons and result."""
    if not isinstance(view, dict):
        return view
    told = dict(view)
    if isinstance(view.get("disputes"), list):
        told["disputes"] = _all(view["disputes"], dispute, say)
    if isinstance(view.get("result"), dict) and "explanation" in view["result"]:
        told["result"] = _said(view["result"], result, say)
    if isinstance(view.get("judgements"), list):
        told["judgements"] = [_judgement(j, say) for j in view["judgements"]]
    last = view.get("last_round")
    if isinstance(last, dict) and isinstance(last.get("judgements"), list):
        told["last_round"] = {**last, "judgements": [_judgement(j, say) for j in last["judgements"]]}
    return told


def _judgement(found: Any, say: Say) -> Any:
    if isinstance(found, dict) and isinstance(found.get("reasons"), list):
        return {**found, "reasons": _all(found["reasons"], reason, say)}
    return found


def _all(items: list[Any], tell: Callable[[dict[str, Any]], Message | str], say: Say) -> list[Any]:
    return [_said(item, tell, say) if isinstance(item, dict) else item for item in items]


def _said(found: dict[str, Any], tell: Callable[[dict[str, Any]], Message | str], say: Say) -> dict[str, Any]:
    if say is None:
        stored = found.get("message", found.get("explanation"))
        return {**found, "said": str(stored if stored is not None else "")}
    told = tell(found)
    return {**found, "said": say(told) if isinstance(told, Message) else told}
