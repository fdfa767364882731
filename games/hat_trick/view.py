"""Hat Trick's view and scores: the round in play as the API shows it, and the cards won."""

from __future__ import annotations

from games.contract import JSON, State
from games.hat_trick.constants import DECK_SIZE

# --- view and scores -------------------------------------------------------------------------


def view(state: State) -> JSON:
    """The card in play, who is still in the round, the declaration queue and the cards won."""
    round_ = state["round"]
    queue = round_["queue"] if round_ else []
    in_round = [p for p in state["players"] if round_ and p not in round_["out"]]
    declared = {entry["player"] for entry in queue}
    return {
        "phase": _phase(state),
        "to_act": [p for p in in_round if p not in declared and not state["finished"]],
        "players": list(state["players"]),
        "options": state["options"],
        "card": round_["card"] if round_ else None,
        "in_round": in_round,
        "out": list(round_["out"]) if round_ else [],
        "queue": queue,
        "awaiting_judgement": queue[0]["player"] if queue else None,
        "judgements": round_["judgements"] if round_ else [],
        "cards_won": state["won"],
        "totals": totals(state),
        "cards_revealed": len(state["revealed"]),
        "cards_left": DECK_SIZE - len(state["revealed"]),
        "discarded": list(state["discarded"]),
        "last_round": state["rounds"][-1] if state["rounds"] else None,
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "disputes": state["disputes"],
    }


def scores(state: State) -> JSON:
    """Cards won per player (1 point each), the winners and every round's outcome."""
    return {
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "totals": totals(state),
        "end": state["end"],
        "cards": state["won"],
        "discarded": list(state["discarded"]),
        "rounds": [
            {"card": r["card"], "outcome": r["outcome"], "winner": r["winner"]} for r in state["rounds"]
        ],
    }


def totals(state: State) -> dict[str, int]:
    """Cards won per player (one point each), in seat order."""
    return {player: len(state["won"].get(player, [])) for player in state["players"]}


# --- private helpers -------------------------------------------------------------------------


def _phase(state: State) -> str:
    if state["finished"]:
        return "finished"
    if state["round"] is None:
        return "reveal"
    return "judge" if state["round"]["queue"] else "build"
