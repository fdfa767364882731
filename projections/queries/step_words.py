"""One recorded action in words, for the undo and redo of GET …/next: who did what, with which
values, and what it derived ("ann: play a card 3H (then trick won and round scored)").

The sentence is a Message, so the HTTP edge says it in the reader's language from the catalogs.
An action is called as the recorder calls it (the same msgids, one translation); the events an
action derived are named per game, because one event type reads differently in two games (a
Wizard trick is a 圈, a Hobbit trick a 墩). A type missing from the tables is said from its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from games.contract import N_, Message, words
from games.hat_trick.constants import PROP_NAMES as HAT_TRICK_PROPS
from games.other_hat_trick.constants import PROP_WORDS, TRICKS
from games.wizard.constants import SUIT_NAMES
from games.words import COLOUR_WORDS, and_words, colour_card_words

ACTIONS: dict[str, dict[str, str]] = {
    "wizard": {
        "start_round": N_("start the round"),
        "choose_trump": N_("choose trump"),
        "bid": N_("bid"),
        "play": N_("play a card"),
        "record_round": N_("record a whole round"),
    },
    "hobbit": {
        "start_round": N_("start the round"),
        "play": N_("play a card"),
        "distribute": N_("hand out the trick"),
    },
    "hats": {
        "swap": N_("swap a hat onto the tea table"),
        "black_hat": N_("take a black hat"),
        "redraw": N_("redraw"),
        "partner_trade": N_("trade with the partner"),
        "favourite": N_("show the favourite hat"),
    },
    "hat-trick": {
        "reveal": N_("reveal a challenge card"),
        "declare": N_("declare a stack"),
        "judge": N_("judge a declaration"),
        "abandon_round": N_("abandon the round"),
    },
    "other-hat-trick": {
        "turn_trick": N_("turn the next trick"),
        "swap": N_("swap a prop"),
        "perform": N_("perform the trick"),
        "fail": N_("fail the trick"),
        "reveal_all": N_("reveal every prop"),
    },
}

_SHARED_EVENTS = {
    "DisputeRaised": N_("a dispute raised"),
    "MatchFinished": N_("the match over"),
}
EVENTS: dict[str, dict[str, str]] = {
    "wizard": {
        "BidPlaced": N_("bid placed"),
        "BidsRevealed": N_("bids shown"),
        "CardPlayed": N_("card played"),
        "RoundRecorded": N_("round recorded"),
        "RoundScored": N_("round scored"),
        "RoundStarted": N_("round started"),
        "TrickWon": N_("trick won"),
        "TrumpChosen": N_("trump chosen"),
    },
    "hobbit": {
        "CardPlayed": N_("card played"),
        "CardTookEffect": N_("a card's power used"),
        "CardsDistributed": N_("the trick's cards handed out"),
        "DamageChanged": N_("damage changed"),
        "LeaderChosen": N_("leader chosen"),
        "PlayerEliminated": N_("a character eliminated"),
        "RoundEnded": N_("the deal ended"),
        "RoundStarted": N_("a new deal"),
        "TrickWon": N_("trick taken"),
    },
    "hats": {
        "BlackHatMade": N_("black hat made"),
        "CardRedrawn": N_("card redrawn"),
        "FavouriteRevealed": N_("favourite hat shown"),
        "HatSwapped": N_("hat swapped"),
        "PartnerTraded": N_("partner trade"),
        "PlayEnded": N_("play ended"),
        "TurnStarted": N_("next turn"),
    },
    "hat-trick": {
        "CardDiscarded": N_("challenge card discarded"),
        "CardRevealed": N_("challenge card revealed"),
        "CardWon": N_("challenge card won"),
        "DeclarationJudged": N_("declaration judged"),
        "DeclarationMade": N_("declaration made"),
    },
    "other-hat-trick": {
        "MatchEnded": N_("the match ended"),
        "PropsRevealed": N_("props revealed"),
        "PropsSwapped": N_("props swapped"),
        "SleightOfHand": N_("sleight of hand"),
        "TrickFailed": N_("trick failed"),
        "TrickPerformed": N_("trick performed"),
        "TrickTurned": N_("trick turned"),
    },
}

# The fields whose values are too large for a sentence (a hand, a map of bids) by their names.
FIELDS = {
    "hands": N_("hands"),
    "bids": N_("bids"),
    "tricks": N_("tricks"),
    "cards": N_("cards"),
    "stack": N_("stack"),
    "marks": N_("marks"),
    "props": N_("props"),
    "colour": N_("in colour"),
    "grey": N_("in grey"),
    "starred": N_("starred"),
}

# Values that are names of things (a suit, a prop, a verdict) said in words, by game and field.
VALUES: dict[str, dict[str, dict[str, str]]] = {
    "wizard": {"suit": SUIT_NAMES},
    "hobbit": {"mark": {"light": N_("the light mark"), "dark": N_("the dark mark"), "pipe": N_("the pipe")}},
    "hat-trick": {
        "verdict": {"pass": N_("passes"), "fail": N_("fails")},
        **dict.fromkeys(("prop", "colour", "grey", "starred"), HAT_TRICK_PROPS),
    },
    "other-hat-trick": {
        "trick": {trick: title for trick, (title, _points, _needs) in TRICKS.items()},
        "prop": PROP_WORDS,
        "props": PROP_WORDS,
    },
}


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SPECIAL_CARDS = {"wizard": N_("Wizard card"), "jester": N_("Jester card")}


def _wizard_card(card: str) -> Message | str:
    """A Wizard card as the recorder shows it: "3H" is 3♥, "wizard" the Wizard card."""
    if card.lower() in SPECIAL_CARDS:
        return words(SPECIAL_CARDS[card.lower()])
    suit = SUITS.get(card[-1:].upper())
    return f"{card[:-1].upper()}{suit}" if suit else card


def _colour_card(card: str) -> Message | str:
    """A card written colour-value in words: "green-7" is "green 7" in the reader's language."""
    colour, _, value = card.casefold().partition("-")
    if colour not in COLOUR_WORDS or not value:
        return card
    return colour_card_words(card.casefold())


def _slot(slot: int) -> Message:
    """The Other Hat Trick's slot 0 or 1 as the table counts it: slot 1 or slot 2."""
    return Message("slot {n}", n=slot + 1)


def _space(space: int) -> Message:
    return Message("space {n}", n=space)


# Values said in words by a function of their own, by game and field (cards, slots, spaces).
FORMS: dict[str, dict[str, Callable[[Any], Message | str]]] = {
    "wizard": dict.fromkeys(("card", "trump_card"), _wizard_card),
    "hobbit": {"card": _colour_card},
    "hats": {
        **dict.fromkeys(("card", "discarded", "drawn", "given", "received"), _colour_card),
        "space": _space,
    },
    "other-hat-trick": dict.fromkeys(("slot", "with_slot"), _slot),
}


def action_sentence(game_id: str, events: list[dict[str, Any]], with_values: bool = True) -> Message:
    """One recorded action (its events, the action's first) in words, values left out unless
    ``with_values`` (a hidden card the reader may not see)."""
    if not events:
        return words("nothing")
    action = events[0].get("meta", {}).get("action") or {"type": events[0]["type"]}
    fields = {k: v for k, v in action.items() if k not in ("type", "player") and v is not None}
    named, forms = VALUES.get(game_id, {}), FORMS.get(game_id, {})
    plain = [_named(k, v, named.get(k, {}), forms.get(k)) for k, v in fields.items()] if with_values else []
    larger = [_said(FIELDS, k) for k, v in fields.items() if not _plain(v, {})] if with_values else []
    doing = _said(ACTIONS.get(game_id, {}), str(action.get("type", "action")))
    who = action.get("player")
    said = (
        Message("{player}: {doing}", player=who, doing=doing)
        if who
        else Message("the table: {doing}", doing=doing)
    )
    plain = [p for p in plain if p]
    if plain:
        said = Message("{title} {values}", title=said, values=plain)
    if larger:
        said = Message("{said} with {fields}", said=said, fields=and_words(larger))
    derived = list(
        dict.fromkeys(_said(EVENTS.get(game_id, {}) | _SHARED_EVENTS, e["type"]) for e in events[1:])
    )
    if derived:
        said = Message("{said} (then {derived})", said=said, derived=and_words(derived))
    return said


def _said(table: dict[str, str], name: str) -> Message | str:
    """A machine name in words: from its table (translated), else spelled out in English."""
    if name in table:
        return words(table[name])
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).replace("_", " ").lower()


def _named(
    field: str, value: Any, names: dict[str, str], form: Callable[[Any], Message | str] | None = None
) -> Message | str:
    """A field's plain value in words; a list after its field's name ("in grey coin+tube")."""
    if form is not None and isinstance(value, (str, int)) and not isinstance(value, bool):
        try:
            return form(value)
        except (TypeError, ValueError, AttributeError):
            return str(value)
    said = _plain(value, names)
    if said and isinstance(value, list) and field in FIELDS:
        return Message("{field} {values}", field=words(FIELDS[field]), values=said)
    return said


def _plain(value: Any, names: dict[str, str]) -> Message | str:
    """A plain value (or a list of them) as words, a named one from ``names``; empty for
    anything larger (said by its field's name)."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return words(names[value]) if isinstance(value, str) and value in names else str(value)
    if isinstance(value, list) and value and all(isinstance(v, (str, int)) for v in value):
        return (
            Message("{first}+{rest}", first=_plain(value[0], names), rest=_plain(value[1:], names))
            if len(value) > 1
            else _plain(value[0], names)
        )
    return ""
