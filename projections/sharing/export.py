"""A match out as NDJSON: its header, then every logged event, in the format ``tabletape/1``.

The export format is one JSON object a line: the match's header first (``{"format", "id",
"game", "created_at", "created_ms", "version", "players", "setup", "options", ...}``), then every
logged event ``{"seq", "type", "data", "meta"}`` in step order. projections.sharing.importing reads it.
An export without the write token is the public history: where it holds a hidden fact back, its
header says ``"partial": true`` and lists the ``hidden_steps``, and it cannot be imported.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from events.store import EventStore

FORMAT = "tabletape/1"
# Header fields a file may carry back in; everything else of a header is the importer's to set.
ORIGIN_FIELDS = (
    "created_at",
    "created_ms",
    "forked_from",
    "forked_at",
    "imported_from",
    "timezone",
    "location",
)


def export_header(
    store: EventStore, match_id: str, disclose: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The first line of an export: who, what and when (never the token's hash); its setup as
    ``disclose`` shows the match's first event (a recorded hand held back)."""
    header = store.header(match_id)
    created = store.read(match_id, 1, 1)
    first = created[0].as_dict() if created else {"data": {}}
    first = (disclose(first) if disclose and created else first)["data"]
    line: dict[str, Any] = {"format": FORMAT, "id": match_id, "game": header["game"]}
    line |= {k: header[k] for k in ORIGIN_FIELDS if k in header}
    line["version"] = store.version(match_id)
    line |= {k: first.get(k) for k in ("players", "setup", "options")}
    return line


def export_lines(
    store: EventStore,
    match_id: str,
    disclose: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Iterator[str]:
    """The match as NDJSON lines (each ending in a newline): the header (read now), then every event.

    ``disclose`` holds back what open reads may not show yet (see projections.queries.disclosure); an
    export that holds something back says so in its header (``partial``, ``hidden_steps``).
    """
    header = export_header(store, match_id, disclose)
    if disclose is None:
        events = (_line(event.as_dict()) for event in store.iter_events(match_id))
        return itertools.chain([_line(header)], events)
    hidden = [e.seq for e in store.iter_events(match_id) if disclose(e.as_dict()) != e.as_dict()]
    if hidden:
        header |= {"partial": True, "hidden_steps": hidden}
    shown = (_line(disclose(event.as_dict())) for event in store.iter_events(match_id))
    return itertools.chain([_line(header)], shown)


def _line(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"
