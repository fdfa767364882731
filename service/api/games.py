"""GET /v1/games: every game with its actions, setup and options."""

from __future__ import annotations

from typing import Any

from service.api import Blueprint, services
from service.api.examples import short_example
from service.api.schemas.answers import GameDetail, GameList
from service.http.language import render

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games tabletape records.")


@blp.route("", methods=["GET"])
@blp.response(200, GameList)
def list_games() -> dict[str, Any]:
    """Every game, with the JSON Schemas of its actions, setup and options."""
    return {"games": [_translated(game) for game in services().queries.games()]}


@blp.route("/<game_id>", methods=["GET"])
@blp.response(200, GameDetail)
def show_game(game_id: str) -> dict[str, Any]:
    """One game, with a short example match that records cleanly."""
    return _translated(services().queries.game(game_id)) | {"example": short_example(game_id)}


def _translated(game: dict[str, Any]) -> dict[str, Any]:
    """A game's description with its title and every schema ``description`` in the reader's
    language; the schemas' structure, names and values stay as they are."""
    return _described(game) | {"title": render(game["title"])}


def _described(value: Any) -> Any:
    if isinstance(value, dict):
        described = {
            k: render(v) if k == "description" and isinstance(v, str) else _described(v)
            for k, v in value.items()
        }
        if _keyed_by_player(value):
            described["x-keyed-by"] = "player"
        return described
    if isinstance(value, list):
        return [_described(v) for v in value]
    return value


def _keyed_by_player(schema: dict[str, Any]) -> bool:
    """A map whose keys are the players' names ({player: bid}), as its English description says:
    marked so, a form builds one control per player whatever language the description is read in."""
    description = schema.get("description")
    return (
        schema.get("type") == "object"
        and bool(schema.get("additionalProperties"))
        and isinstance(description, str)
        and "player" in description.lower()
    )
