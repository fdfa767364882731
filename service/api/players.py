"""Players and leaderboards: statistics the workers keep over finished matches."""

from __future__ import annotations

from typing import Any

from flask import url_for

from service.api import Blueprint, services
from service.api.schemas.answers import LeaderboardOut, PlayerOut

blp = Blueprint("players", __name__, url_prefix="/v1", description="Player statistics and leaderboards.")


@blp.route("/players/<name>", methods=["GET"])
@blp.response(200, PlayerOut)
def show_player(name: str) -> dict[str, Any]:
    """A player's finished matches, wins and win rate, overall and by game with the game's figures."""
    found = services().queries.player(name)
    return found | {"links": {"matches": url_for("matches.list_matches", player=found["name"])}}


@blp.route("/leaderboards/<game_id>", methods=["GET"])
@blp.response(200, LeaderboardOut)
def leaderboard(game_id: str) -> dict[str, Any]:
    """The game's players over its finished matches: most wins first, then win rate."""
    return {"game": game_id, "players": services().queries.leaderboard(game_id)}
