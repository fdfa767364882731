"""Players and leaderboards: statistics the workers keep over finished matches."""

from __future__ import annotations

from typing import Any

from flask import url_for

from games.registry import all_games
from projections.stats import Statistics
from service.api import Blueprint, services
from service.errors import BadRequest
from service.history_schemas import LeaderboardOut, PlayerOut

blp = Blueprint("players", __name__, url_prefix="/v1", description="Player statistics and leaderboards.")


def statistics() -> Statistics:
    """Reads of the statistics projections."""
    parts = services()
    return Statistics(parts.client, parts.keys)


@blp.route("/players/<name>", methods=["GET"])
@blp.response(200, PlayerOut)
def show_player(name: str) -> dict[str, Any]:
    """A player's finished matches, wins and win rate, overall and by game with the game's figures."""
    found = statistics().player(name)
    if found is None:
        raise BadRequest(404, "unknown_player", f"no match names a player {name!r}")
    return found | {"links": {"matches": url_for("matches.list_matches", player=found["name"])}}


@blp.route("/leaderboards/<game_id>", methods=["GET"])
@blp.response(200, LeaderboardOut)
def leaderboard(game_id: str) -> dict[str, Any]:
    """The game's players over its finished matches: most wins first, then win rate."""
    if game_id not in all_games():
        raise BadRequest(404, "unknown_game", f"there is no game {game_id!r}")
    return {"game": game_id, "players": statistics().leaderboard(game_id)}
