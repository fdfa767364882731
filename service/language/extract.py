"""A pybabel extraction method for what the games publish (babel.cfg names it): every game's
title and every ``description`` in its JSON Schemas, read from the registry itself, so the catalogs
follow the games without a list kept here.

GET /v1/games translates them per Accept-Language (service.api.games); the schema's structure and
every machine-read field stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from babel.messages.extract import extract_python

from games.registry import all_games


def game_texts(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[Any, ...]]:
    """Babel's extractor protocol: (line, funcname, message, comments) for each game's texts, and
    the messages the registry's own code marks (its refusal of an unknown game)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    for game in all_games().values():
        yield 1, "N_", game.title, [f"the name of the game {game.id}"]
        for text in descriptions(game.describe()):
            yield 1, "N_", text, [f"a description in the schemas of {game.id}"]


def descriptions(value: Any) -> Iterator[str]:
    """Every ``description`` string in a JSON Schema (or a game's description), in order."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "description" and isinstance(inner, str):
                yield inner
            else:
                yield from descriptions(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from descriptions(inner)
