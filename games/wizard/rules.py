"""Wizard's setup and decide: what each recorded action means, or why the rules refuse it.

Round-level actions (start_round, choose_trump, record_round) live here; bids and plays, and the
scoring they lead to, in ``games.wizard.play``.
"""

from __future__ import annotations

from typing import Any

from games.contract import Action, Event, State, event, fail, require
from games.decider import Handler, decide_with
from games.players import find_player
from games.wizard.constants import (
    CHOOSE_TRUMP,
    START_ROUND,
    TITLE,
    copies_allowed,
    describe_card,
    parse_suit,
    read_card,
    suit_of,
    too_many_copies,
)
from games.wizard.play import bid, check_canadian_rule, play, round_end_events
from games.wizard.turns import require_phase

_NO_TRUMP_WORDS = {"none", "no trump", "no_trump", "notrump", "no-trump", "nt", "-"}

# --- setup -----------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The match's first event, after the checks the schemas cannot make."""
    require(
        isinstance(setup.get("first_dealer"), str),
        "first_dealer_required",
        "setup.first_dealer must name the player who deals the first round",
    )
    first_dealer = find_player(players, setup["first_dealer"])
    require(
        not (options["canadian_rule"] and options["bidding"] != "clockwise"),
        "options_conflict",
        f"the canadian rule binds the dealer, who bids last; with {options['bidding']} bidding "
        "nobody bids last, so canadian_rule needs bidding 'clockwise'",
    )
    return [
        event(
            "MatchCreated",
            players=list(players),
            setup={"first_dealer": first_dealer},
            options=options,
        )
    ]


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes, or a RuleViolation saying which rule refuses it."""
    return decide_with(HANDLERS, TITLE, state, action)


def _start_round(state: State, action: Action) -> list[Event]:
    require_phase(state, START_ROUND, "start a round")
    round_no, last = state["round"], state["rounds_total"]
    given = action.get("trump_card")
    if round_no == last:
        require(
            given is None,
            "no_trump_card_in_last_round",
            f"round {round_no} is the last round: every card is dealt and nothing is turned, "
            f"so trump_card must be null, not {given!r}",
        )
    else:
        require(
            given is not None,
            "trump_card_required",
            f"round {round_no} needs the turned trump card (a card, 'wizard' or 'jester'); "
            f"trump_card is null only in the last round, round {last}",
        )
    trump_card = read_card(given) if given is not None else None
    hands = _read_hands(state, action.get("hands") or {}, trump_card)
    return [
        event(
            "RoundStarted",
            round=round_no,
            dealer=state["dealer"],
            trump_card=trump_card,
            trump=suit_of(trump_card) if trump_card else None,
            hands=hands,
        )
    ]


def _choose_trump(state: State, action: Action) -> list[Event]:
    require_phase(state, CHOOSE_TRUMP, "choose trump (only after a turned Wizard)")
    dealer = state["dealer"]
    if "player" in action:
        chooser = find_player(state["players"], action["player"])
        require(
            chooser == dealer,
            "not_your_turn",
            f"after a turned Wizard the dealer, {dealer}, chooses trump, not {chooser}",
        )
    suit = parse_suit(action["suit"])
    if suit is None:
        if action["suit"].strip().lower() in _NO_TRUMP_WORDS:
            fail(
                "no_trump_not_allowed",
                f"after a turned Wizard {dealer} must choose one of the four suits "
                "(S, H, D, C); no trump is not allowed",
            )
        fail("unknown_suit", f"{action['suit']!r} is not a suit; choose S, H, D or C")
    return [event("TrumpChosen", round=state["round"], dealer=dealer, suit=suit)]


def _record_round(state: State, action: Action) -> list[Event]:
    require_phase(state, START_ROUND, "record a whole round (record_round replaces start_round)")
    round_no = state["round"]
    bids = _per_player(state, action["bids"], "bid", "bid_out_of_range")
    tricks = _per_player(state, action["tricks"], "tricks", "tricks_out_of_range")
    require(
        sum(tricks.values()) == round_no,
        "tricks_do_not_add_up",
        f"round {round_no} has {round_no} tricks, but the tricks recorded add up to {sum(tricks.values())}",
    )
    check_canadian_rule(state, bids)
    recorded = event("RoundRecorded", round=round_no, dealer=state["dealer"], bids=bids, tricks=tricks)
    return [recorded, *round_end_events(state, bids, tricks)]


HANDLERS: dict[str, Handler] = {
    "start_round": _start_round,
    "choose_trump": _choose_trump,
    "bid": bid,
    "play": play,
    "record_round": _record_round,
}


# --- private helpers -------------------------------------------------------------------------


def _read_hands(state: State, given: dict[str, list[str]], trump_card: str | None) -> dict[str, list[str]]:
    """Recorded hands by player (seat order), canonical, after the checks a deal must pass."""
    round_no, hands = state["round"], {}
    for name, cards in given.items():
        player = find_player(state["players"], name)
        require(player not in hands, "duplicate_player", f"{player}'s hand is given twice")
        hands[player] = [read_card(card) for card in cards]
        require(
            len(hands[player]) == round_no,
            "wrong_hand_size",
            f"{player}'s hand has {len(hands[player])} cards; round {round_no} deals {round_no} "
            "to each player",
        )
    dealt = [card for hand in hands.values() for card in hand]
    _refuse_extra_copies(hands, dealt, None)
    if trump_card is not None:
        _refuse_extra_copies(hands, dealt + [trump_card], trump_card)
    return {p: hands[p] for p in state["players"] if p in hands}


def _refuse_extra_copies(hands: dict[str, list[str]], cards: list[str], turned: str | None) -> None:
    card = too_many_copies(cards)
    if card is None:
        return
    holders = ", ".join(p for p, hand in hands.items() if card in hand)
    if copies_allowed(card) > 1:
        fail(
            "too_many_copies",
            f"the deck has {copies_allowed(card)} of {describe_card(card)}, "
            f"but more are dealt{' and turned' if turned == card else ''} (held by {holders})",
        )
    if turned == card:
        fail("card_in_two_places", f"{card} is the turned trump card, yet it is in {holders}'s hand")
    fail("duplicate_card", f"{card} is dealt twice (held by {holders}); the deck has one {card}")


def _per_player(state: State, given: dict[str, int], what: str, code: str) -> dict[str, int]:
    """One number per player (seat order) in 0..round, from a {player: n} object."""
    round_no, found = state["round"], {}
    for name, value in given.items():
        player = find_player(state["players"], name)
        require(player not in found, "duplicate_player", f"{player}'s {what} is given twice")
        require(
            0 <= value <= round_no,
            code,
            f"{player}'s {what} of {value} is impossible in round {round_no}: it is 0 to {round_no}",
        )
        found[player] = value
    missing = [p for p in state["players"] if p not in found]
    require(
        not missing,
        "missing_player",
        f"record_round needs a {what} for every player; missing: {', '.join(missing)}",
    )
    return {p: found[p] for p in state["players"]}
