"""What may be recorded now (GET /v1/matches/{id}/next): who is to act, every legal action with
its values (the game's ``legal``), and what an undo or a redo would take back or put back, in
words (``step_words``: said in the reader's language at the HTTP edge).

Hidden facts: with the match's write token the game may answer from the hands the table recorded;
without it only from public facts (``Game.legal``'s ``sees_hidden``), and the undo and redo
sentences are built from the events as open reads show them (``disclosure``), so neither tells
a hidden hand or a hidden bid; without the token a sentence names the action and what it derived
but not its values (a black hat's card, a redraw's cards), which only the table may see.
"""

from __future__ import annotations

from typing import Any

from games.contract import Game, State
from games.players import name_key
from projections.positions import tape
from projections.positions.rewind import Positions
from projections.positions.tape import Position
from projections.queries.access import SEAT, Reader
from projections.queries.disclosure import sight
from projections.queries.step_words import action_sentence


def next_answer(reader: Positions, match_id: str, who: Reader) -> dict[str, Any]:
    """The answer of GET …/next at the match's newest step for one reader: a seat is offered
    only its own player's actions, from public facts (its hand shows in its state)."""
    game, pos = reader.head(match_id)
    state = pos["game"]
    legal = game.legal(state, who.table) if game.legal is not None else _unknown(state)
    if who.kind == SEAT:
        legal = _seat_only(legal, str(who.seat))
    return {
        "version": pos["version"],
        **legal,
        "undo": _correction(reader, game, match_id, pos, tape.undo_event(pos), who),
        "redo": _correction(reader, game, match_id, pos, tape.redo_event(pos), who),
    }


def _seat_only(legal: dict[str, Any], seat: str) -> dict[str, Any]:
    """The entries of one seat's player (and whether that player is to act)."""
    mine = name_key(seat)
    return legal | {
        "to_act": [p for p in legal["to_act"] if name_key(str(p)) == mine],
        "actions": [a for a in legal["actions"] if name_key(str(a["fixed"].get("player", ""))) == mine],
    }


def _unknown(state: State) -> dict[str, Any]:
    """A game that cannot list its legal actions: only whether it is finished."""
    return {"finished": bool(state.get("finished")), "to_act": [], "actions": []}


def _correction(
    reader: Positions,
    game: Game,
    match_id: str,
    pos: Position,
    data: dict[str, Any] | None,
    who: Reader,
) -> dict[str, Any]:
    """Whether a correction is possible for this reader (a seat: of its own action only), and
    what it would take back (or put back) in words, as the reader may see the events."""
    if data is None:
        return {"possible": False, "sentence": None}
    events = reader.store.read(match_id, int(data["first"]), int(data["last"]))
    seen = sight(game, pos, who)
    shown = [seen.event(e.as_dict()) for e in events]
    player = (events[0].meta.get("action") or {}).get("player")
    own = who.kind == SEAT and player is not None and name_key(str(player)) == name_key(str(who.seat))
    with_values = who.table or own
    return {"possible": who.kind != SEAT or own, "sentence": action_sentence(game.id, shown, with_values)}
