"""Wizard's setup and decide: what each recorded action means, or why the rules refuse it.

Round-level actions (start_round, choose_trump, record_round) live here; bids and plays, and the
scoring they lead to, in ``games.wizard.play``.
"""

from __future__ import annotations

from typing import Any

from games.contract import N_, Action, Event, State, event, fail, require, words
from games.decider import Handler, decide_with
from games.players import by_seat, find_player, require_everyone, require_turn
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
        "the canadian rule binds the dealer, who bids last; with {bidding} bidding nobody bids last, "
        "so canadian_rule needs bidding 'clockwise'",
        bidding=options["bidding"],
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
    require_phase(state, START_ROUND, N_("start a round"))
    round_no, last = state["round"], state["rounds_total"]
    given = action.get("trump_card")
    if round_no == last:
        require(
            given is None,
            "no_trump_card_in_last_round",
            "round {round_no} is the last round: every card is dealt and nothing is turned, so "
            "trump_card must be null, not {given!r}",
            round_no=round_no,
            given=given,
        )
    else:
        require(
            given is not None,
            "trump_card_required",
            "round {round_no} needs the turned trump card (a card, 'wizard' or 'jester'); trump_card "
            "is null only in the last round, round {last}",
            round_no=round_no,
            last=last,
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
    require_phase(state, CHOOSE_TRUMP, N_("choose trump (only after a turned Wizard)"))
    dealer = state["dealer"]
    if "player" in action:
        chooser = find_player(state["players"], action["player"])
        require_turn(
            chooser,
            dealer,
            N_("after a turned Wizard the dealer, {dealer}, chooses trump, not {chooser}"),
            dealer=dealer,
            chooser=chooser,
        )
    suit = parse_suit(action["suit"])
    if suit is None:
        if action["suit"].strip().lower() in _NO_TRUMP_WORDS:
            fail(
                "no_trump_not_allowed",
                "after a turned Wizard {dealer} must choose one of the four suits (S, H, D, C); no "
                "trump is not allowed",
                dealer=dealer,
            )
        fail("unknown_suit", "{suit!r} is not a suit; choose S, H, D or C", suit=action["suit"])
    return [event("TrumpChosen", round=state["round"], dealer=dealer, suit=suit)]


def _record_round(state: State, action: Action) -> list[Event]:
    require_phase(state, START_ROUND, N_("record a whole round (record_round replaces start_round)"))
    round_no = state["round"]
    bids = _per_player(state, action["bids"], "bid", "bid_out_of_range")
    tricks = _per_player(state, action["tricks"], "tricks", "tricks_out_of_range")
    require(
        sum(tricks.values()) == round_no,
        "tricks_do_not_add_up",
        "round {round_no} has {round_no} tricks, but the tricks recorded add up to {sum}",
        round_no=round_no,
        sum=sum(tricks.values()),
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
    for player, cards in by_seat(state["players"], given, N_("{player}'s hand is given twice")):
        hands[player] = [read_card(card) for card in cards]
        require(
            len(hands[player]) == round_no,
            "wrong_hand_size",
            "{player}'s hand has {count} cards; round {round_no} deals {round_no} to each player",
            player=player,
            count=len(hands[player]),
            round_no=round_no,
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
            "the deck has {copies_allowed} of {describe_card}, but more are dealt{turned} (held by "
            "{holders})",
            copies_allowed=copies_allowed(card),
            describe_card=describe_card(card),
            turned=words(" and turned") if turned == card else "",
            holders=holders,
        )
    if turned == card:
        fail(
            "card_in_two_places",
            "{card} is the turned trump card, yet it is in {holders}'s hand",
            card=card,
            holders=holders,
        )
    fail(
        "duplicate_card",
        "{card} is dealt twice (held by {holders}); the deck has one {card}",
        card=card,
        holders=holders,
    )


def _per_player(state: State, given: dict[str, int], what: str, code: str) -> dict[str, int]:
    """One number per player (seat order) in 0..round, from a {player: n} object."""
    round_no, found = state["round"], {}
    for player, value in by_seat(state["players"], given, N_("{player}'s {what} is given twice"), what=what):
        require(
            0 <= value <= round_no,
            code,
            "{player}'s {what} of {value} is impossible in round {round_no}: it is 0 to {round_no}",
            player=player,
            what=what,
            value=value,
            round_no=round_no,
        )
        found[player] = value
    needed = N_("record_round needs a {what} for every player; missing: {missing}")
    require_everyone(state["players"], found, needed, what=what)
    return {p: found[p] for p in state["players"]}
