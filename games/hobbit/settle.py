"""A won trick's distribution and everything it sets off: effects, eliminations, the next leader,
the round's end and the result.

Each derived fact is an event. They are worked out on a private copy of the state, folding each
event as it is decided, so every later fact is judged on the state the earlier ones left.
"""

from __future__ import annotations

import copy
from typing import Any

from games.contract import Action, Event, State, event, fail, require
from games.hobbit.evolve import evolve
from games.hobbit.powers import check_distribution
from games.hobbit.table import (
    DISCARD,
    EFFECTS,
    FULL_HEALTH,
    REASONS,
    SIDES,
    canonical_card,
    cards_left,
    clockwise_from,
    living,
    other_side,
    side_of,
)
from games.players import match_player as resolve_player

# ---------------------------------------------------------------------------------------------
# distribute
# ---------------------------------------------------------------------------------------------


def distribute(state: State, action: Action) -> list[Event]:
    """Hand out the won trick's cards, then derive what follows from them."""
    if state["phase"] == "playing":
        trick = state["trick"]
        turn = trick["order"][len(trick["plays"])]
        fail("trick_not_won", f"trick {trick['number']} is not complete: {turn} plays next")
    require(state["phase"] == "distributing", "no_round", "no trick is waiting to be distributed")
    trick = state["trick"]
    cards = _read(state, action["cards"])
    check_distribution(state, trick["winner"], cards)
    scratch = copy.deepcopy(state)
    events: list[Event] = []

    def emit(new: Event) -> None:
        events.append(new)
        evolve(scratch, new)

    emit(
        event(
            "CardsDistributed",
            round=state["round"],
            trick=trick["number"],
            player=trick["winner"],
            cards=cards,
        )
    )
    _take_effect(scratch, cards, emit)
    _follow_up(scratch, emit)
    return events


def _read(state: State, given: dict[str, Any]) -> dict[str, str]:
    trick = state["trick"]
    in_trick = [play["card"] for play in trick["plays"]]
    chosen: dict[str, str] = {}
    for text, to in given.items():
        card = canonical_card(text)
        require(card is not None, "unknown_card", f"'{text}' is not a card")
        require(
            card in in_trick,
            "card_not_in_trick",
            f"{card} is not in trick {trick['number']} ({', '.join(in_trick)})",
        )
        require(card not in chosen, "duplicate_card", f"{card} is handed out twice")
        chosen[str(card)] = _receiver(state, to)
    missing = [card for card in in_trick if card not in chosen]
    require(
        not missing,
        "card_missing",
        f"the distribution misses {', '.join(missing)}: give each card of trick "
        f'{trick["number"]} to a player or "{DISCARD}"',
    )
    return {card: chosen[card] for card in in_trick}


def _receiver(state: State, to: Any) -> str:
    if isinstance(to, str) and to.strip().casefold() == DISCARD:
        return DISCARD
    player = resolve_player(state["players"], to)
    if player is None:
        fail("unknown_player", f"'{to}' is not a player of this match nor \"{DISCARD}\"")
    require(
        state["alive"][player],
        "receiver_eliminated",
        f"{player} is eliminated and receives no cards",
    )
    return player


def _take_effect(state: State, cards: dict[str, str], emit: Any) -> None:
    harm: dict[str, int] = {}
    heal: dict[str, int] = {}
    for card, player in cards.items():
        if player == DISCARD:
            continue
        mark = state["marks"][card]
        effect = EFFECTS[(mark, side_of(state, player))]
        emit(event("CardTookEffect", card=card, player=player, mark=mark, effect=effect))
        harm[player] = harm.get(player, 0) + (effect == "damage")
        heal[player] = heal.get(player, 0) + (effect == "heal")
    for player in state["players"]:
        if player not in harm:
            continue
        before = state["damage"][player]
        after = min(FULL_HEALTH, max(0, before + harm[player] - heal[player]))
        if after != before:
            emit(
                event(
                    "DamageChanged",
                    player=player,
                    before=before,
                    after=after,
                    health=FULL_HEALTH - after,
                    harm=harm[player],
                    heal=heal[player],
                )
            )


def _follow_up(state: State, emit: Any) -> None:
    if state["options"]["elimination"] == "immediate":
        _eliminate(state, emit, "trick")
    if _wiped_out(state):
        emit(event("MatchFinished", **_result(state)))
        return
    if any(cards_left(state, p) for p in living(state)):
        winner = state["trick"]["winner"]
        leader = next(p for p in clockwise_from(state, winner) if state["alive"][p] and cards_left(state, p))
        emit(
            event(
                "LeaderChosen",
                round=state["round"],
                trick=state["trick"]["number"] + 1,
                player=leader,
                winner=winner,
                skipped=leader != winner,
            )
        )
        return
    if state["options"]["elimination"] == "end_of_round":
        _eliminate(state, emit, "round_end")
    emit(event("RoundEnded", round=state["round"], survivors=living(state)))
    if _wiped_out(state) or state["round"] >= state["options"]["rounds"]:
        emit(event("MatchFinished", **_result(state)))


def _eliminate(state: State, emit: Any, when: str) -> None:
    for player in living(state):
        if state["damage"][player] >= FULL_HEALTH:
            emit(
                event(
                    "PlayerEliminated",
                    player=player,
                    character=state["characters"][player],
                    side=side_of(state, player),
                    round=state["round"],
                    trick=state["trick"]["number"],
                    at=when,
                    discarded=cards_left(state, player),
                )
            )


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _wiped_out(state: State) -> bool:
    alive = {side_of(state, p) for p in living(state)}
    return len(alive) < len(SIDES)


def _result(state: State) -> dict[str, Any]:
    survivors = {side: 0 for side in SIDES}
    for player in living(state):
        survivors[side_of(state, player)] += 1
    dealt = dict(state["damage_dealt"])
    side, reason = _verdict(survivors, dealt)
    winners = [p for p in state["players"] if side is not None and side_of(state, p) == side]
    return {
        "side": side,
        "winners": winners,
        "reason": reason,
        "explanation": _explain(side, reason, survivors, dealt),
        "rule": REASONS[reason],
        "survivors": survivors,
        "damage_dealt": dealt,
        "round": state["round"],
    }


def _verdict(survivors: dict[str, int], dealt: dict[str, int]) -> tuple[str | None, str]:
    good, evil = survivors["good"], survivors["evil"]
    if (good == 0) != (evil == 0):
        return ("good" if evil == 0 else "evil"), "side_wiped_out"
    if good != evil:
        return ("good" if good > evil else "evil"), "more_survivors"
    if dealt["good"] != dealt["evil"]:
        return ("good" if dealt["good"] > dealt["evil"] else "evil"), "more_damage_dealt"
    return None, "draw"


def _explain(side: str | None, reason: str, survivors: dict[str, int], dealt: dict[str, int]) -> str:
    if side is None:
        return f"draw: {survivors['good']} living characters each and {dealt['good']} damage dealt each"
    other = other_side(side)
    if reason == "side_wiped_out":
        return f"{side} wins: {other} has no living character left"
    if reason == "more_survivors":
        return f"{side} wins: {survivors[side]} living characters against {survivors[other]}"
    return (
        f"{side} wins: {survivors[side]} living characters each, and {side} dealt "
        f"{dealt[side]} damage against {dealt[other]}"
    )
