"""GET /v1/games: every game with its actions, setup and options."""

from __future__ import annotations

from typing import Any

from games.registry import all_games, get_game
from service.api import Blueprint
from service.errors import BadRequest
from service.examples import short_example
from service.schemas.games import GameDetail, GameList

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games tabletape records.")


@blp.route("", methods=["GET"])
@blp.response(200, GameList)
def list_games() -> dict[str, Any]:
    """Every game, with the JSON Schemas of its actions, setup and options."""
    return {"games": [game.describe() for game in all_games().values()]}


@blp.route("/<game_id>", methods=["GET"])
@blp.response(200, GameDetail)
def show_game(game_id: str) -> dict[str, Any]:
    """One game, with a short example match that records cleanly."""
    if game_id not in all_games():
        raise BadRequest(404, "unknown_game", f"there is no game {game_id!r}")
    return get_game(game_id).describe() | {"example": short_example(game_id)}
