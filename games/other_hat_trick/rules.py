"""The Other Hat Trick's setup and decide: what each recorded action means, or why it is refused."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.contract import N_, Action, Event, Message, event, fail, plural, require, words
from games.decider import Handler, decide_with
from games.other_hat_trick.constants import (
    CHOOSE,
    FAILURES_TO_END,
    FINAL_TRICK,
    MIDDLE,
    MIDDLE_NAME,
    NEXT_STEP,
    PERFORM,
    PROP_COUNTS,
    PROPS,
    REFILL,
    REVEAL,
    SWAP,
    TITLE,
    TRICK_IDS,
    State,
    needs_words,
    place_of,
    place_words,
    prop_words,
    satisfies,
    trick_points,
    trick_title,
)
from games.other_hat_trick.knowledge import Claim, contradiction
from games.other_hat_trick.turns import require_phase
from games.other_hat_trick.view import final_scores
from games.players import by_seat, find_player, name_key, require_turn
from games.words import and_words

# --- setup -----------------------------------------------------------------------------------


def setup(players: list[str], setup: dict[str, Any], options: dict[str, Any]) -> list[Event]:
    """The match's first event, after the checks the schemas cannot make."""
    for name in players:
        require(
            name_key(name) != MIDDLE_NAME,
            "reserved_name",
            "a player may not be called {name!r}: 'middle' names the seventh prop",
            name=name,
        )
    require(
        isinstance(setup.get("first_player"), str),
        "first_player_required",
        "setup.first_player must name the youngest player, who takes the first turn",
    )
    first_player = find_player(players, setup["first_player"])
    first_trick = setup.get("first_trick")
    require(
        first_trick in TRICK_IDS,
        "first_trick_required",
        "setup.first_trick must name the trick turned from the top of the deck: one of {tricks}",
        tricks=TRICK_IDS,
    )
    require(
        first_trick != FINAL_TRICK,
        "other_hat_trick_not_last",
        "The Other Hat Trick lies at the bottom of the deck, so it cannot be the first trick turned",
    )
    canonical = {"first_player": first_player, "first_trick": first_trick}
    return [event("MatchCreated", players=list(players), setup=canonical, options=dict(options))]


# --- decide ----------------------------------------------------------------------------------


def decide(state: State, action: Action) -> list[Event]:
    """The events an action causes, or RuleViolation saying which rule it breaks."""
    return decide_with(HANDLERS, TITLE, state, action)


def _turn_trick(state: State, action: Action) -> list[Event]:
    require_phase(state, (CHOOSE, REFILL), N_("turn a trick"))
    trick = action["trick"]
    turned = state["turned"]
    require(
        len(turned) < len(TRICK_IDS),
        "deck_empty",
        "the trick deck is empty: The Other Hat Trick was its last trick",
    )
    require(
        trick not in turned,
        "trick_already_turned",
        "{trick_title} was already turned ({whereabouts})",
        trick_title=words(trick_title(trick)),
        whereabouts=_whereabouts(state, trick),
    )
    left = len(TRICK_IDS) - 1 - len(turned)
    require(
        trick != FINAL_TRICK or left == 0,
        "other_hat_trick_not_last",
        plural(
            "The Other Hat Trick is the last trick of the deck, and {count} other trick is still above it",
            "The Other Hat Trick is the last trick of the deck, and {count} other tricks are still above it",
            count=left,
        ),
    )
    return [event("TrickTurned", trick=trick, player=state["turn"])]


def _swap(state: State, action: Action) -> list[Event]:
    player = _acting_player(state, action, (CHOOSE, SWAP), N_("swap"))
    require(
        name_key(action["with_player"]) != MIDDLE_NAME,
        "swap_with_middle",
        "the middle prop is never swapped: swap with one of another player's props",
    )
    other = find_player(state["players"], action["with_player"])
    require(
        other != player,
        "swap_with_self",
        "{player} must swap with another player, not with their own props",
        player=player,
    )
    return [
        event(
            "PropsSwapped",
            player=player,
            slot=action["slot"],
            with_player=other,
            with_slot=action["with_slot"],
            trick=state["pile"][-1],
        )
    ]


def _perform(state: State, action: Action) -> list[Event]:
    player = _acting_player(state, action, (PERFORM,), N_("perform"))
    trick, props = state["pile"][-1], list(action["props"])
    require(
        satisfies(trick, props),
        "props_do_not_satisfy",
        "{prop_words} and {prop_words2} do not perform {trick_title}: it needs {needs_words}",
        prop_words=prop_words(props[0]),
        prop_words2=prop_words(props[1]),
        trick_title=words(trick_title(trick)),
        needs_words=needs_words(trick),
    )
    seat = state["players"].index(player)
    _require_fits(state, [(place_of(seat, 0), props[0]), (place_of(seat, 1), props[1])])
    points, gathered = trick_points(trick), [place_of(seat, 0), place_of(seat, 1), MIDDLE]
    events = [
        event("TrickPerformed", player=player, trick=trick, props=props, points=points),
        event("SleightOfHand", player=player, places=gathered),
    ]
    if trick == FINAL_TRICK:
        events.append(event("MatchEnded", reason="performed", player=player))
    return events


def _fail(state: State, action: Action) -> list[Event]:
    player = _acting_player(state, action, (PERFORM,), N_("fail"))
    trick = state["pile"][-1]
    turned = _turned_up(state, player, action)
    slot, prop = (None, None) if turned is None else (turned[0] % 2, turned[1])
    if turned is not None:
        _require_fits(state, [turned])
    failures = state["failures"] + 1 if trick == FINAL_TRICK else 0
    events = [event("TrickFailed", player=player, trick=trick, slot=slot, prop=prop, failures=failures)]
    if failures == FAILURES_TO_END:
        events.append(event("MatchEnded", reason="three_failures", player=None))
    return events


def _reveal_all(state: State, action: Action) -> list[Event]:
    if state["phase"] != REVEAL:
        fail(
            "match_not_ended",
            "everything is revealed only once the match has ended; now {turn} must {step}",
            turn=state["turn"],
            step=words(NEXT_STEP[state["phase"]]),
        )
    revealed = _read_reveal(state, action["props"])
    shown = Counter(p for name in state["players"] for p in revealed[name])
    shown[revealed[MIDDLE_NAME]] += 1
    wrong = [prop for prop in PROPS if shown[prop] != PROP_COUNTS[prop]]
    if wrong:
        fail(
            "reveal_wrong_props",
            "the reveal shows {and_words}, but the game has {and_words2}",
            and_words=and_words([_how_many(shown[p], p) for p in wrong]),
            and_words2=and_words([_how_many(PROP_COUNTS[p], p) for p in wrong]),
        )
    claims = [
        (place_of(seat, slot), revealed[name][slot])
        for seat, name in enumerate(state["players"])
        for slot in (0, 1)
    ]
    _require_fits(state, [*claims, (MIDDLE, revealed[MIDDLE_NAME])])
    board = final_scores(state["players"], state["performed"], state["ended_by"], revealed)
    return [
        event("PropsRevealed", props=revealed),
        event("MatchFinished", reason=state["ended_by"], **board),
    ]


HANDLERS: dict[str, Handler] = {
    "turn_trick": _turn_trick,
    "swap": _swap,
    "perform": _perform,
    "fail": _fail,
    "reveal_all": _reveal_all,
}

# --- private helpers -------------------------------------------------------------------------


def _acting_player(state: State, action: Action, phases: tuple[str, ...], doing: str) -> str:
    player = find_player(state["players"], action["player"])
    require_phase(state, phases, doing)
    turn = state["turn"]
    require_turn(player, turn, N_("it is {turn}'s turn, not {player}'s"), turn=turn, player=player)
    return player


def _turned_up(state: State, player: str, action: Action) -> Claim | None:
    """The place and prop a fail turned face up, or None when both were already face up."""
    seat = state["players"].index(player)
    hidden = [s for s in (0, 1) if state["shown"][place_of(seat, s)] is None]
    slot, prop = action.get("slot"), action.get("prop")
    if not hidden:
        require(
            slot is None and prop is None,
            "nothing_to_turn",
            "both props of {player} are already face up: a fail turns nothing more, so send neither "
            "slot nor prop",
            player=player,
        )
        return None
    if slot is None:
        require(
            len(hidden) == 1,
            "slot_required",
            "say which of {player}'s props was turned face up: slot 0 or slot 1",
            player=player,
        )
        slot = hidden[0]
    place = place_of(seat, slot)
    label = place_words(state["players"], place)
    require(
        slot in hidden,
        "slot_already_face_up",
        "{label} is already face up; a fail turns slot {slot}",
        label=label,
        slot=hidden[0],
    )
    if prop is None:
        fail("prop_required", "say which prop {label} showed", label=label)
    return place, prop


def _require_fits(state: State, claims: list[Claim]) -> None:
    reason = contradiction(state, claims)
    if reason is not None:
        fail("prop_contradiction", reason)


def _read_reveal(state: State, given: dict[str, Any]) -> dict[str, Any]:
    revealed: dict[str, Any] = {MIDDLE_NAME: given[MIDDLE_NAME]}
    players = {name: props for name, props in given.items() if name != MIDDLE_NAME}
    for player, props in by_seat(state["players"], players, N_("{player} is revealed twice")):
        revealed[player] = list(props)
    missing = [p for p in state["players"] if p not in revealed]
    require(
        not missing,
        "missing_player",
        "the reveal must give both props of every player and the middle prop; missing: {missing}",
        missing=missing,
    )
    return {name: revealed[name] for name in [*state["players"], MIDDLE_NAME]}


def _how_many(count: int, prop: str) -> Message:
    return plural(*_COUNTED[prop], count=count)


# How many of a prop, in words (each language's catalog gives its own plural forms).
_COUNTED = {
    "rabbit": ("{count} rabbit", "{count} rabbits"),
    "other-rabbit": ("{count} other rabbit", "{count} other rabbits"),
    "hat": ("{count} hat", "{count} hats"),
    "lettuce": ("{count} lettuce", "{count} lettuces"),
    "carrot": ("{count} carrot", "{count} carrots"),
}


def _whereabouts(state: State, trick: str) -> Message:
    for player, tricks in state["performed"].items():
        if trick in tricks:
            return words("{player} performed it", player=player)
    return words("it is on the trick pile")
