"""Wizard's view (what the API shows of a match) and scores (the scoreboard)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import JSON, State
from games.hidden import DEAL, hold_back, masked
from games.wizard.constants import CHOOSE_TRUMP, FINISHED, SCORED, START_ROUND
from games.wizard.turns import to_act

# --- view and scores -------------------------------------------------------------------------


def view(state: State) -> dict[str, Any]:
    """The table as the API shows it: round, trump, turn, bids (those the table sees), tricks and
    cards (the recorded hands too: what a reader without the write token sees is ``public_view``'s)."""
    return {
        "players": state["players"],
        "phase": state["phase"],
        "to_act": to_act(state),
        "round": state["round"],
        "rounds_total": state["rounds_total"],
        "dealer": state["dealer"],
        "trump": trump_words(state),
        "trump_card": state["trump_card"],
        "bidding": state["options"]["bidding"],
        "bids": _visible_bids(state),
        "have_bid": [p for p in state["players"] if p in state["bids"]],
        "tricks": state["tricks"],
        "trick_number": state["trick_number"],
        "trick": state["trick"],
        "played": state["played"],
        "hands": state["hands"],
        "totals": state["totals"],
        "disputes": state["disputes"],
        "finished": state["finished"],
        "winners": state["winners"],
    }


def scores(state: State) -> dict[str, Any]:
    """The scoreboard: totals, winners once finished, and every scored round."""
    return {
        "finished": state["finished"],
        "winners": state["winners"],
        "totals": state["totals"],
        "rounds": state["history"],
    }


def figures(state: State) -> dict[str, dict[str, float]]:
    """Each player's bid accuracy: the share of scored rounds whose bid they met exactly."""
    rounds = state["history"]
    met = {p: sum(1 for r in rounds if r["bids"].get(p) == r["tricks"].get(p)) for p in state["players"]}
    return {p: {"bid_accuracy": met[p] / len(rounds) if rounds else 0.0} for p in state["players"]}


def announced(state: State) -> list[str]:
    """What the table has been shown: the bids of every scored round and of this one once open,
    and the whole deal once the match is over."""
    rounds = range(1, state["round"] + (1 if _bids_open(state) else 0))
    return [f"bids:{r}" for r in rounds] + ([DEAL] if state["finished"] else [])


def public(now: State, shown: Sequence[str], event: dict[str, Any], effective: bool = True) -> dict[str, Any]:
    """A logged event as a reader without the write token sees it: a bid the table has not been
    shown keeps its number back (an undone bid: unless the table saw it before the undo), and
    recorded hands stay hidden until the match is over."""
    kind, data = event.get("type"), event.get("data") or {}
    if kind == "BidPlaced" and not _bid_public(now, shown, data.get("round"), effective):
        return hold_back(event, ["tricks"], ["tricks"])
    if _deal_public(now, shown):
        return event
    return hold_back(event, ["hands"] if kind == "RoundStarted" else [], ["hands"])


def public_view(now: State, shown: Sequence[str], view: JSON) -> JSON:
    """The view at any step as a reader without the write token sees it: recorded hands as null
    cards until the match is over (its bids are those the table saw at that step, for everyone)."""
    if _deal_public(now, shown):
        return view
    return dict(view) | {"hands": masked(view["hands"])}


# --- private helpers -------------------------------------------------------------------------


def _visible_bids(state: State) -> dict[str, int]:
    """Bids as the table sees them: hidden until revealed (simultaneous) or scored (secret)."""
    if _bids_open(state):
        return {p: state["bids"][p] for p in state["players"] if p in state["bids"]}
    return {}


def _bids_open(state: State) -> bool:
    """Whether the table sees this round's bids: revealed (simultaneous) or scored (secret)."""
    return bool(state["bids_revealed"]) or state["phase"] in (SCORED, FINISHED)


def _bid_public(now: State, shown: Sequence[str], round_no: Any, effective: bool) -> bool:
    """Whether one logged bid is public: an undone one only if the table saw its round's bids
    before the undo took them back (or the match is over), else as its round's bids are."""
    if not effective and isinstance(round_no, int):
        return bool(now["finished"]) or f"bids:{round_no}" in shown
    return _bids_public(now, shown, round_no)


def _bids_public(now: State, shown: Sequence[str], round_no: Any) -> bool:
    """Whether round ``round_no``'s bids are public: an earlier round than now's was scored; now's
    once open; a later one (left behind by undos, and maybe redone) only if the table saw it."""
    if not isinstance(round_no, int):
        return True
    if round_no < now["round"] or now["finished"] or f"bids:{round_no}" in shown:
        return True
    return round_no == now["round"] and _bids_open(now)


def _deal_public(now: State, shown: Sequence[str]) -> bool:
    return bool(now["finished"]) or DEAL in shown


def trump_words(state: State) -> str | None:
    """The trump as the view shows it: a suit letter, "none", "dealer_chooses" or None."""
    if state["phase"] == CHOOSE_TRUMP:
        return "dealer_chooses"
    if state["phase"] in (START_ROUND, SCORED, FINISHED):
        return None
    return state["trump"] or "none"
