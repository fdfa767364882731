"""Upcasters: old-shaped events read back in their current shape.

An event's ``meta["schema"]`` (absent: 1) says which shape its ``data`` has. An upcaster registered
for ``(game, type, from_schema)`` turns data of that schema into data one schema newer; reading
applies them one after another until none is left, so the log itself is never rewritten.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from events.envelope import StoredEvent

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Upcasters:
    """The upcasters of every game, by (game, event type, schema they upgrade from)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[str, str, int], Upcaster] = {}

    def register(self, game: str, type: str, from_schema: int, fn: Upcaster) -> None:
        """Use ``fn`` to turn ``type`` events of ``game`` from ``from_schema`` to the next."""
        key = (game, type, from_schema)
        if key in self._by_key:
            raise ValueError(
                f"an upcaster of {game} {type} events from schema {from_schema} is already there"
            )
        self._by_key[key] = fn

    def register_game(self, game: str, upcasters: Mapping[tuple[str, int], Upcaster]) -> None:
        """Register a game's upcasters given as ``{(event type, from schema): fn}``."""
        for (type_, from_schema), fn in upcasters.items():
            self.register(game, type_, from_schema, fn)

    def upcast(self, game: str, event: StoredEvent) -> StoredEvent:
        """The event in its newest known shape; unchanged when no upcaster applies."""
        schema = int(event.meta.get("schema", 1))
        fn = self._by_key.get((game, event.type, schema))
        if fn is None:
            return event
        # The upcasters may change what they are given; the caller's event stays as it was.
        data = copy.deepcopy(event.data)
        while fn is not None:
            data = fn(data)
            schema += 1
            fn = self._by_key.get((game, event.type, schema))
        return replace(event, data=data, meta={**event.meta, "schema": schema})

    def __len__(self) -> int:
        return len(self._by_key)
