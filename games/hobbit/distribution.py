"""A won trick's distribution and everything it sets off: effects, eliminations, the next leader,
the round's end and the result.

Each derived fact is an event. They are worked out on a private copy of the state, folding each
event as it is decided, so every later fact is judged on the state the earlier ones left.
"""

from __future__ import annotations

from typing import Any

from games.contract import Action, Event, State, event, fail, require
from games.decider import derive
from games.hobbit.constants import (
    DISCARD,
    EFFECTS,
    FULL_HEALTH,
    REASONS,
    SIDES,
    canonical_card,
    cards_left,
    health,
    living,
    other_side,
    side_of,
)
from games.hobbit.evolve import evolve
from games.hobbit.powers import check_distribution
from games.players import match_player as resolve_player
from games.players import name_key, seats_from
from games.words import colour_card_words

# --- distribute ----------------------------------------------------------------------------------


def distribute(state: State, action: Action) -> list[Event]:
    """Hand out the won trick's cards, then derive what follows from them."""
    if state["phase"] == "playing":
        trick = state["trick"]
        turn = trick["order"][len(trick["plays"])]
        fail(
            "trick_not_won",
            "trick {number} is not complete: {turn} plays next",
            number=trick["number"],
            turn=turn,
        )
    require(state["phase"] == "distributing", "wrong_phase", "no trick is waiting to be distributed")
    trick = state["trick"]
    cards = _read(state, action["cards"])
    check_distribution(state, trick["winner"], cards)
    distributed = event(
        "CardsDistributed",
        round=state["round"],
        trick=trick["number"],
        player=trick["winner"],
        cards=cards,
    )
    return derive(state, [distributed, *_effects(state, cards)], evolve, _derived)


def _read(state: State, given: dict[str, Any]) -> dict[str, str]:
    trick = state["trick"]
    in_trick = [play["card"] for play in trick["plays"]]
    chosen: dict[str, str] = {}
    for text, to in given.items():
        card = canonical_card(text)
        require(card is not None, "unknown_card", "'{text}' is not a card", text=text)
        require(
            card in in_trick,
            "card_not_in_trick",
            "{card} is not in trick {number} ({in_trick})",
            card=colour_card_words(card),
            number=trick["number"],
            in_trick=[colour_card_words(c) for c in in_trick],
        )
        require(
            card not in chosen, "duplicate_card", "{card} is handed out twice", card=colour_card_words(card)
        )
        chosen[str(card)] = _receiver(state, to)
    missing = [card for card in in_trick if card not in chosen]
    require(
        not missing,
        "card_missing",
        'the distribution misses {missing}: give each card of trick {number} to a player or "{DISCARD}"',
        missing=", ".join(missing),
        number=trick["number"],
        DISCARD=DISCARD,
    )
    return {card: chosen[card] for card in in_trick}


def _receiver(state: State, to: Any) -> str:
    if isinstance(to, str) and name_key(to) == DISCARD:
        return DISCARD
    player = resolve_player(state["players"], to)
    if player is None:
        fail(
            "unknown_player", "'{to}' is not a player of this match nor \"{DISCARD}\"", to=to, DISCARD=DISCARD
        )
    require(
        state["alive"][player],
        "receiver_eliminated",
        "{player} is eliminated and receives no cards",
        player=player,
    )
    return player


def _effects(state: State, cards: dict[str, str]) -> list[Event]:
    """What each card given does to its receiver, and the damage each receiver ends with."""
    events: list[Event] = []
    harm: dict[str, int] = {}
    heal: dict[str, int] = {}
    for card, player in cards.items():
        if player == DISCARD:
            continue
        mark = state["marks"][card]
        effect = EFFECTS[(mark, side_of(state, player))]
        events.append(event("CardTookEffect", card=card, player=player, mark=mark, effect=effect))
        harm[player] = harm.get(player, 0) + (effect == "damage")
        heal[player] = heal.get(player, 0) + (effect == "heal")
    # Immediate elimination takes a character out at 2, so its damage never passes 2; at the
    # round's end the true damage counts, so it is kept uncapped until then.
    cap = FULL_HEALTH if state["options"]["elimination"] == "immediate" else None
    for player in (p for p in state["players"] if p in harm):
        before = state["damage"][player]
        after = max(0, before + harm[player] - heal[player])
        after = after if cap is None else min(cap, after)
        if after != before:
            changed = {"before": before, "after": after, "health": health(after)}
            events.append(
                event("DamageChanged", player=player, **changed, harm=harm[player], heal=heal[player])
            )
    return events


def _derived(state: State) -> list[Event]:
    """What follows by itself once a trick's cards took effect: eliminations, the next leader,
    the round's end, the result; nothing once the next trick or round waits for the table."""
    immediate = state["options"]["elimination"] == "immediate"
    if state["phase"] == "round_start":
        over = _wiped_out(state) or state["round"] >= state["options"]["rounds"]
        return [event("MatchFinished", **_result(state))] if over and not state["finished"] else []
    if state["phase"] != "resolving":
        return []
    cards_out = not any(cards_left(state, p) for p in living(state))
    if immediate or cards_out:
        doomed = _eliminations(state, "trick" if immediate else "round_end")
        if doomed:
            return doomed
    if immediate and _wiped_out(state):
        return [event("MatchFinished", **_result(state))]
    if not cards_out:
        return [_next_leader(state)]
    return [event("RoundEnded", round=state["round"], survivors=living(state))]


def _next_leader(state: State) -> Event:
    winner = state["trick"]["winner"]
    leader = next(
        p for p in seats_from(state["players"], winner) if state["alive"][p] and cards_left(state, p)
    )
    return event(
        "LeaderChosen",
        round=state["round"],
        trick=state["trick"]["number"] + 1,
        player=leader,
        winner=winner,
        skipped=leader != winner,
    )


def _eliminations(state: State, when: str) -> list[Event]:
    return [
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
        for player in living(state)
        if state["damage"][player] >= FULL_HEALTH
    ]


# --- private helpers -----------------------------------------------------------------------------


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
