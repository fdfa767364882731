"""The registry of games: every module of this package that defines ``GAME`` is registered."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from games.contract import Game, InvalidAction

_NOT_GAMES = {"contract", "decider", "legal", "players", "registry", "schemas", "validation", "words"}


@cache
def all_games() -> dict[str, Game]:
    """Every registered game by id, in id order."""
    import games

    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(games.__path__):
        if info.name.startswith("_") or info.name in _NOT_GAMES:
            continue
        module = importlib.import_module(f"games.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return dict(sorted(found.items()))


def get_game(game_id: str) -> Game:
    """The game with this id, or InvalidAction naming the games there are."""
    games = all_games()
    if game_id not in games:
        raise InvalidAction(
            "unknown_game",
            "there is no game {game_id!r}; the games are: {known}",
            game_id=game_id,
            known=list(games),
        )
    return games[game_id]
