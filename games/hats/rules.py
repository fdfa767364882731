"""Hats rules: the setup checks and ``decide``, one small function per action."""

from __future__ import annotations

from typing import Any

from games.contract import N_, Action, Event, Message, State, event, fail, require, words
from games.decider import Handler, decide_with, derive
from games.hats.constants import (
    HAND_SIZE,
    PLAYS_EACH,
    REMOVED_WITH_TWO,
    TITLE,
    canon_card,
    canon_type,
    card_type,
    card_value,
    maybe_card,
    table_size,
)
from games.hats.evolve import evolve
from games.hats.turns import extra_turn, main_turn, partner_of, play_end
from games.hats.view import outcome
from games.hats.whereabouts import check_from_deck, check_leaves_hand
from games.players import by_seat
from games.players import find_player as canon_player
from games.words import colour_card_words, colour_words

# --- setup ------------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The MatchCreated event of a Hats table, with the setup in canonical spelling."""
    count = len(players)
    require("start_player" in setup, "start_player_required", "setup must name the start_player")
    start = canon_player(players, setup["start_player"])
    removed = _removed_types(count, setup.get("removed_types"))
    table = _tea_table(count, removed, setup.get("table", []))
    hands = _hands(players, removed, table, setup.get("hands") or {})
    canonical: dict[str, Any] = {"start_player": start, "table": table}
    if removed:
        canonical["removed_types"] = removed
    if hands:
        canonical["hands"] = hands
    return [event("MatchCreated", players=list(players), setup=canonical, options=options)]


def _removed_types(count: int, given: list[str] | None) -> list[str]:
    if count != 2:
        require(
            not given,
            "removed_types_not_used",
            "with {count} players every hat type is played: leave out removed_types",
            count=count,
        )
        return []
    if given is None or len(given) != REMOVED_WITH_TWO:
        fail(
            "removed_types_required",
            "with 2 players two hat types are removed: setup.removed_types must name them",
        )
    removed = [canon_type(kind) for kind in given]
    require(
        removed[0] != removed[1],
        "duplicate_type",
        "{hat_type} is named twice",
        hat_type=colour_words(removed[0]),
    )
    return removed


def _tea_table(count: int, removed: list[str], given: list[str]) -> list[str]:
    spaces = table_size(count)
    require(
        len(given) == spaces,
        "wrong_table_size",
        "with {count} players the tea table starts with {spaces} cards, not {count2}",
        count=count,
        spaces=spaces,
        count2=len(given),
    )
    table = [canon_card(text) for text in given]
    seen: dict[str, Message] = {}
    for space, card in enumerate(table, start=1):
        _check_new_card(card, removed, seen, words("tea-table space {space}", space=space))
    return table


def _hands(
    players: list[str], removed: list[str], table: list[str], given: dict[str, list[str]]
) -> dict[str, list[str]]:
    seen = {card: words("tea-table space {space}", space=space) for space, card in enumerate(table, start=1)}
    hands: dict[str, list[str]] = {}
    for player, cards in by_seat(players, given, N_("{player}'s hand is given twice")):
        require(
            len(cards) == HAND_SIZE,
            "wrong_hand_size",
            "{player} is dealt {HAND_SIZE} cards, not {count}",
            player=player,
            HAND_SIZE=HAND_SIZE,
            count=len(cards),
        )
        hands[player] = [canon_card(text) for text in cards]
        for card in hands[player]:
            _check_new_card(card, removed, seen, words("{player}'s hand", player=player))
    return {player: hands[player] for player in players if player in hands}


def _check_new_card(card: str, removed: list[str], seen: dict[str, Message], where: Message) -> None:
    kind = card_type(card)
    require(
        kind not in removed,
        "card_removed",
        "{card} ({where}) is not in this game: the {kind} hats were removed",
        card=colour_card_words(card),
        where=where,
        kind=colour_words(kind),
    )
    require(
        card not in seen,
        "duplicate_card",
        "{card} is both in {get} and {where}",
        card=colour_card_words(card),
        get=seen.get(card),
        where=where,
    )
    seen[card] = where


# --- decide -----------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes at a Hats table, or RuleViolation."""
    return decide_with(HANDLERS, TITLE, state, action)


def _swap(state: State, action: Action) -> list[Event]:
    player = canon_player(state["players"], action["player"])
    events = main_turn(state, player)
    card = canon_card(action["card"])
    space = _space(state, action["space"])
    check_leaves_hand(state, player, card)
    on = state["table"][space - 1]
    require(
        card_type(card) == card_type(on) or card_value(card) > card_value(on),
        "swap_not_allowed",
        "{card} cannot replace {on} on space {space}: a swap needs the same type as {on} "
        "({card_type}) or a value higher than {card_value}",
        card=colour_card_words(card),
        on=colour_card_words(on),
        space=space,
        card_type=colour_words(card_type(on)),
        card_value=card_value(on),
    )
    events.append(event("HatSwapped", player=player, card=card, space=space, taken=on))
    return events + play_end(state)


def _black_hat(state: State, action: Action) -> list[Event]:
    player = canon_player(state["players"], action["player"])
    events = main_turn(state, player)
    card = maybe_card(action.get("card"))
    if card is not None:
        check_leaves_hand(state, player, card)
    events.append(event("BlackHatMade", player=player, card=card))
    return events + play_end(state)


def _redraw(state: State, action: Action) -> list[Event]:
    player = canon_player(state["players"], action["player"])
    events = extra_turn(state, player, "redraw")
    discarded = maybe_card(action.get("discarded"))
    drawn = maybe_card(action.get("drawn"))
    if discarded is not None:
        check_leaves_hand(state, player, discarded)
    if state["deck"] == 0 and state["pile"]["size"] == 0:
        return events + [_drawn_back(state, player, discarded, drawn)]
    if drawn is not None:
        _check_draw(state, player, discarded, drawn)
    redrawn = event("CardRedrawn", player=player, discarded=discarded, drawn=drawn, returned=False)
    return events + [redrawn]


def _partner_trade(state: State, action: Action) -> list[Event]:
    player = canon_player(state["players"], action["player"])
    partner = partner_of(state, player)
    if partner is None:
        off = words(" (this match was created with partners off)") if len(state["players"]) == 4 else ""
        fail("no_partners", "partner trades are only played by 4 players sitting as partners{off}", off=off)
    events = extra_turn(state, player, "partner trade")
    given = maybe_card(action.get("given"))
    received = maybe_card(action.get("received"))
    require(
        given is None or given != received,
        "same_card",
        "a partner trade swaps two different cards, but {given} is named as given and received",
        given=given,
    )
    if given is not None:
        check_leaves_hand(state, player, given)
    if received is not None:
        check_leaves_hand(state, partner, received)
    traded = event("PartnerTraded", player=player, partner=partner, given=given, received=received)
    return events + [traded]


def _favourite(state: State, action: Action) -> list[Event]:
    player = canon_player(state["players"], action["player"])
    made = sum(state["plays"].values())
    total = PLAYS_EACH * len(state["players"])
    require(
        state["phase"] != "play",
        "favourite_too_early",
        "favourite hats are revealed once every player has played {PLAYS_EACH} cards; {made} of "
        "{total} plays are made",
        PLAYS_EACH=PLAYS_EACH,
        made=made,
        total=total,
    )
    shown = state["favourites"][player]
    require(
        shown is None,
        "favourite_already_revealed",
        "{player} has already revealed {shown} as favourite hat",
        player=player,
        shown=shown,
    )
    card = canon_card(action["card"])
    check_leaves_hand(state, player, card)
    return derive(state, [event("FavouriteRevealed", player=player, card=card)], evolve, _match_end)


HANDLERS: dict[str, Handler] = {
    "swap": _swap,
    "black_hat": _black_hat,
    "redraw": _redraw,
    "partner_trade": _partner_trade,
    "favourite": _favourite,
}


# --- private helpers --------------------------------------------------------------------------


def _match_end(state: State) -> list[Event]:
    """MatchFinished once the last favourite hat is revealed."""
    if state["finished"] or any(state["favourites"][p] is None for p in state["players"]):
        return []
    return [event("MatchFinished", **outcome(state))]


def _space(state: State, space: int) -> int:
    spaces = len(state["table"])
    require(
        1 <= space <= spaces,
        "space_out_of_range",
        "space {space} is not on the tea table: with {count} players the spaces are 1 to {spaces}",
        space=space,
        count=len(state["players"]),
        spaces=spaces,
    )
    return space


def _drawn_back(state: State, player: str, discarded: str | None, drawn: str | None) -> Event:
    """With the draw pile and the discard pile empty, the discarded card is drawn back."""
    if discarded is not None and drawn is not None and discarded != drawn:
        fail(
            "deck_empty",
            "the draw pile is empty, so {player} shuffles the discarded {discarded} and draws it "
            "straight back, not {drawn}",
            player=player,
            discarded=discarded,
            drawn=drawn,
        )
    if discarded is None and drawn is not None:
        check_leaves_hand(state, player, drawn)
    card = discarded or drawn
    return event("CardRedrawn", player=player, discarded=card, drawn=card, returned=True)


def _check_draw(state: State, player: str, discarded: str | None, drawn: str) -> None:
    reshuffled = state["deck"] == 0
    if drawn == discarded and not reshuffled:
        fail(
            "card_discarded",
            "{player} cannot draw {drawn} back: it was just discarded, and the draw pile still holds "
            "{deck} cards",
            player=player,
            drawn=drawn,
            deck=state["deck"],
        )
    # After a reshuffle an unnamed discard may be the very card drawn back.
    unnamed_back = reshuffled and discarded is None and drawn in state["hands"][player]["known"]
    if drawn != discarded and not unnamed_back:
        check_from_deck(state, player, drawn, reshuffled=reshuffled)
