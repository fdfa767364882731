"""Forks: a match's effective history up to a step, as a log for a new match to start from.

A fork is checked by the rules like an import (projections.sharing.importing), so a fork of a match whose
log the rules no longer accept is refused the same way.
"""

from __future__ import annotations

from typing import Any

from events.envelope import StoredEvent
from games.contract import Message, words
from projections.positions import tape
from projections.positions.rewind import Positions
from projections.queries.access import Reader
from projections.queries.disclosure import sight
from projections.sharing.export import export_header

# Events with the line numbers an export of them would have.
Numbered = list[tuple[int, StoredEvent]]


class MidAction(Exception):
    """A fork asked at a step inside one action's batch of events."""


class HiddenFact(Exception):
    """A fork without the write token, at a step whose history holds a fact the table cannot see."""


def fork_log(
    positions: Positions, match_id: str, at: int, everything: Reader | bool = False
) -> tuple[dict[str, Any], list[tuple[int, StoredEvent]]]:
    """The header and the numbered events of the match's effective history up to step ``at``.

    Without ``everything`` (the caller holds no write token) only the public history is copied,
    and a fork that would need a fact open reads hide is refused with HiddenFact.
    """
    store = positions.store
    version = store.version(match_id)
    if not 1 <= at <= version:
        raise MidAction(f"step {at} is not a step of this match (1 to {version})")
    _, pos = positions.at(match_id, at)
    events = store.read(match_id, 1, min(at + 1, version))
    if at < version and events[at].meta.get("action_id") == events[at - 1].meta.get("action_id"):
        raise MidAction(f"step {at} is in the middle of one action's events; fork at the action's last step")
    kept = [e for e in events[:at] if e.type not in tape.CORRECTIONS and tape.is_effective(pos, e.seq)]
    if everything is not True:
        _refuse_hidden(positions, match_id, kept, everything)
    header = export_header(store, match_id) | {"forked_from": match_id, "forked_at": at}
    header.pop("created_at", None)
    header.pop("created_ms", None)
    # Numbered as the lines of an export would be (the header is line 1), for refusals to name.
    renumbered = [(i + 1, StoredEvent(i, e.type, e.data, e.meta)) for i, e in enumerate(kept, start=1)]
    return header, renumbered


def _refuse_hidden(positions: Positions, match_id: str, kept: list[StoredEvent], who: Reader | bool) -> None:
    """Refuse a fork whose history holds an event its reader sees only in part."""
    game, now = positions.head(match_id)
    seen = sight(game, now, who)
    for event in kept:
        if seen.hides(event.as_dict()):
            earlier = (
                words("fork at an earlier step than {step}, or ", step=event.seq) if event.seq > 1 else ""
            )
            raise HiddenFact(
                Message(
                    "step {step} ({type}) holds a fact the table cannot see yet, such as a "
                    "secret bid or a recorded hand, so a fork without the match's write token (or with "
                    "a seat's, or before a seat's own secret is shown) cannot copy it: "
                    "{earlier}send the write token (Authorization: Bearer <token>) to fork everything",
                    step=event.seq,
                    type=event.type,
                    earlier=earlier,
                )
            )
