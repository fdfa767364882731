"""Bids and plays: the turn, the cards that can be in play, following suit, revokes found later,
and the derived events that close a trick, a round and the match."""

from __future__ import annotations

from games.contract import N_, Action, Event, State, event, fail, require
from games.players import find_player, require_turn
from games.wizard.constants import (
    BIDDING,
    PLAYING,
    copies_allowed,
    describe_card,
    read_card,
    round_points,
    suit_name,
    suit_of,
    suit_to_follow,
    trick_winner,
)
from games.wizard.turns import require_phase, sole_leader, to_act

# --- decide: bid -----------------------------------------------------------------------------


def bid(state: State, action: Action) -> list[Event]:
    """A player's bid: in turn (clockwise) or in any order (simultaneous, secret)."""
    require_phase(state, BIDDING, N_("bid"))
    player = find_player(state["players"], action["player"])
    round_no, tricks = state["round"], action["tricks"]
    require(
        0 <= tricks <= round_no,
        "bid_out_of_range",
        "{player} bids {tricks}; in round {round_no} a bid is 0 to {round_no} tricks",
        player=player,
        tricks=tricks,
        round_no=round_no,
    )
    require(
        player not in state["bids"],
        "already_bid",
        "{player} has already bid in round {round_no}",
        player=player,
        round_no=round_no,
    )
    waiting = to_act(state)
    require(
        player in waiting,
        "not_your_turn",
        "it is {bidder}'s turn to bid (clockwise from the dealer's left), not {player}'s",
        bidder=waiting[0],
        player=player,
    )
    bids = {**state["bids"], player: tricks}
    events = [event("BidPlaced", round=round_no, player=player, tricks=tricks)]
    if len(bids) == len(state["players"]):
        in_seats = {p: bids[p] for p in state["players"]}
        check_canadian_rule(state, in_seats)
        if state["options"]["bidding"] == "simultaneous":
            events.append(event("BidsRevealed", round=round_no, bids=in_seats))
    return events


def check_canadian_rule(state: State, bids: dict[str, int]) -> None:
    """Refuse the dealer's bid when the canadian rule forbids it (the bids are complete)."""
    dealer, round_no = state["dealer"], state["round"]
    if not state["options"]["canadian_rule"] or bids[dealer] == 0:
        return
    if sole_leader(state["totals"]) != dealer or sum(bids.values()) != round_no:
        return
    forbidden = round_no - sum(n for p, n in bids.items() if p != dealer)
    fail(
        "canadian_rule",
        "canadian rule: {dealer} deals and leads the scores alone, so the bids may not add up to "
        "{round_no}; {dealer} may bid 0 or anything but {forbidden}",
        dealer=dealer,
        round_no=round_no,
        forbidden=forbidden,
    )


# --- decide: play ----------------------------------------------------------------------------


def play(state: State, action: Action) -> list[Event]:
    """A card played: checked against what can be in play; closes the trick when it is the last."""
    require_phase(state, PLAYING, N_("play a card"))
    player = find_player(state["players"], action["player"])
    next_up = (to_act(state) or ["nobody"])[0]
    require_turn(
        player,
        next_up,
        N_("it is {next_up}'s turn to play in trick {trick_number}, not {player}'s"),
        next_up=next_up,
        trick_number=state["trick_number"],
        player=player,
    )
    card = read_card(action["card"])
    _refuse_card_out_of_play(state, player, card)
    _refuse_against_hand(state, player, card)
    round_no, trick_no = state["round"], state["trick_number"]
    events = [event("CardPlayed", round=round_no, trick=trick_no, player=player, card=card)]
    dispute = _revoke(state, player, card)
    if dispute is not None:
        events.append(event("DisputeRaised", dispute=dispute))
    if len(state["trick"]) + 1 == len(state["players"]):
        events.extend(_trick_end_events(state, player, card))
    return events


def round_end_events(state: State, bids: dict[str, int], tricks: dict[str, int]) -> list[Event]:
    """RoundScored for the round just finished, and MatchFinished after the last round."""
    points = {p: round_points(bids[p], tricks[p]) for p in state["players"]}
    totals = {p: state["totals"][p] + points[p] for p in state["players"]}
    events = [
        event(
            "RoundScored",
            round=state["round"],
            bids=bids,
            tricks=tricks,
            points=points,
            totals=totals,
        )
    ]
    if state["round"] == state["rounds_total"]:
        best = max(totals.values())
        winners = [p for p in state["players"] if totals[p] == best]
        events.append(event("MatchFinished", totals=totals, winners=winners))
    return events


# --- private helpers -------------------------------------------------------------------------


def _refuse_card_out_of_play(state: State, player: str, card: str) -> None:
    """Refuse a card that is played, turned or held elsewhere this round.

    Every play passes these checks, so a refusal's sentence is built only once it is refused."""
    if copies_allowed(card) > 1:
        _refuse_extra_copy(state, player, card)
        return
    round_no, hands = state["round"], state["hands"]
    for earlier in state["played"]:
        if earlier["card"] == card:
            fail(
                "card_already_played",
                "{card} was already played by {player} in trick {trick} of round {round_no}",
                card=card,
                player=earlier["player"],
                trick=earlier["trick"],
                round_no=round_no,
            )
    if card == state["trump_card"]:
        fail(
            "card_turned_for_trump",
            "{card} is the turned trump card; it is out of play in round {round_no}",
            card=card,
            round_no=round_no,
        )
    for holder, hand in hands.items():
        if holder != player and card in hand:
            fail(
                "card_in_another_hand",
                "{card} was dealt to {holder} in round {round_no}, so {player} cannot play it",
                card=card,
                holder=holder,
                round_no=round_no,
                player=player,
            )


def _refuse_extra_copy(state: State, player: str, card: str) -> None:
    """Refuse a Wizard or Jester when all of its copies are accounted for elsewhere."""
    seen = sum(1 for p in state["played"] if p["card"] == card)
    seen += (state["trump_card"] == card) + sum(
        hand.count(card) for holder, hand in state["hands"].items() if holder != player
    )
    if seen >= copies_allowed(card):
        fail(
            "no_copy_left",
            "all {copies_allowed} copies of {describe_card} are already played, turned or dealt to "
            "others in round {round}; {player} cannot play another",
            copies_allowed=copies_allowed(card),
            describe_card=describe_card(card),
            round=state["round"],
            player=player,
        )


def _refuse_against_hand(state: State, player: str, card: str) -> None:
    hand = state["hands"].get(player)
    if hand is None:
        return  # hands not recorded: a revoke can only be found later (see _revoke)
    if card not in hand:
        fail(
            "card_not_in_hand",
            "{describe_card} is not in {player}'s hand; they hold {hand}",
            describe_card=describe_card(card),
            player=player,
            hand=", ".join(hand),
        )
    led = suit_to_follow([t["card"] for t in state["trick"]])
    if led is None or suit_of(card) in (None, led):
        return
    holding = [c for c in hand if suit_of(c) == led]
    if holding:
        fail(
            "must_follow_suit",
            "{player} must follow {suit_name} with {holding}; only a card of {suit_name}, a Wizard or "
            "a Jester may be played",
            player=player,
            suit_name=suit_name(led),
            holding=", ".join(holding),
        )


def _revoke(state: State, player: str, card: str) -> dict[str, object] | None:
    """The dispute this play reveals: the player showed void in its suit earlier this round and
    no dispute has named that failure yet."""
    suit, round_no = suit_of(card), state["round"]
    shown_void = state["voids"].get(player, {}).get(suit) if suit else None
    if suit is None or shown_void is None:
        return None  # evolve forgets a void once its revoke is disputed, so each revoke is one
    return {
        "code": "revoke",
        "message": f"{player} did not follow {suit_name(suit)} in trick {shown_void} of round "
        f"{round_no}, yet plays {card} in trick {state['trick_number']}: a revoke, or a "
        "recording mistake to correct with undo",
        "round": round_no,
        "trick": shown_void,
        "player": player,
        "suit": suit,
        "card": card,
    }


def _trick_end_events(state: State, player: str, card: str) -> list[Event]:
    cards = [*state["trick"], {"player": player, "card": card}]
    winner = cards[trick_winner([c["card"] for c in cards], state["trump"])]["player"]
    events = [
        event(
            "TrickWon",
            round=state["round"],
            trick=state["trick_number"],
            player=winner,
            cards=cards,
        )
    ]
    if state["trick_number"] == state["round"]:
        tricks = {p: state["tricks"][p] + (p == winner) for p in state["players"]}
        bids = {p: state["bids"][p] for p in state["players"]}
        events.extend(round_end_events(state, bids, tricks))
    return events
