"""A finished match as a BG Stats play (the app's import-a-play JSON)."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from projections import tape
from projections.reader import MatchReader


def bgstats_play(reader: MatchReader, match_id: str) -> dict[str, Any] | None:
    """A finished match as a BG Stats play (its import-a-play JSON); None while unfinished."""
    game, pos = reader.head(match_id)
    board = game.scores(copy.deepcopy(pos["game"]))
    if not board.get("finished"):
        return None
    events = [e for e in reader.store.iter_events(match_id) if tape.is_effective(pos, e.seq)]
    begun, ended = _moment(events[0].meta.get("ts")), _moment(events[-1].meta.get("ts"))
    players = list(pos["game"].get("players", []))
    # Tables may name players in any case ("HAL" for "hal"); the seat's spelling is the name.
    seats = {name.casefold(): name for name in players}
    actors = (seats.get(str(e.meta.get("actor", "")).strip().casefold()) for e in events)
    starter = next((name for name in actors if name is not None), None)
    totals = board.get("totals") or {}
    return {
        "sourceName": "tabletape",
        "sourcePlayId": match_id,
        "playDate": begun.strftime("%Y-%m-%d %H:%M:%S") if begun else None,
        "durationMin": max(1, round((ended - begun).total_seconds() / 60)) if begun and ended else 0,
        "game": {"name": game.title, "sourceGameId": game.id},
        "players": [
            {
                "name": name,
                "sourcePlayerId": name,
                "score": str(totals[name]) if name in totals else "",
                "winner": name in board.get("winners", []),
                "startPlayer": name == starter,
                "seatOrder": seat,
            }
            for seat, name in enumerate(players, start=1)
        ],
    }


def _moment(text: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return None
