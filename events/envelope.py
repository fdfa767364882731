"""The event envelope: what the store is given to write, and what it hands back.

A game's event value is ``{"type", "data"}``; the envelope adds ``meta`` (``ts`` as ISO-8601 UTC,
``actor``, ``action_id``, ``schema`` and, on a batch's first event, the ``action`` that caused it)
and, once stored, the event's step number ``seq`` (1, 2, 3 … per match, with no gaps).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: it gets its ``seq`` from the store."""

    type: str
    data: dict[str, Any]
    meta: dict[str, Any]


@dataclass(frozen=True)
class StoredEvent:
    """An event read back from a match's log, numbered by its step ``seq``."""

    seq: int
    type: str
    data: dict[str, Any]
    meta: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """The event as a plain JSON-serialisable value: ``{"seq", "type", "data", "meta"}``."""
        return {"seq": self.seq, "type": self.type, "data": self.data, "meta": self.meta}


@dataclass(frozen=True)
class CarriedProjection:
    """The projection a write carries with its append: what a projection run would store for the
    position the batch leaves (the fields of projections/projecting/project.lua)."""

    # The basis of the read models the summary implies (the projection hash's ``models``).
    basis: str
    # The position, frozen (``tape.dump``); stored in the projection hash's field ``env``.
    frozen: bytes
    # The match's summary, written out.
    summary: str
    # The batch's steps as the global feed publishes them, for the append to publish in its own
    # run: the game's id, then (step, type, event JSON) for each (the feed's form, worked out
    # against the position the batch leaves); None to leave them to a projection pass.
    feed: Sequence[Any] | None = None

    def fields(self, checkpoint: int) -> list[Any]:
        """The projection hash's fields at ``checkpoint``, as HSET takes them (staged)."""
        return ["checkpoint", checkpoint, "env", self.frozen, "summary", self.summary, "models", self.basis]

    def arguments(self, checkpoint: int | None) -> list[Any]:
        """The projection as the append script's arguments take it
        (``events.script_args.AppendArgs.projection``): models, checkpoint, env, summary; for
        ``checkpoint`` None the basis alone, the rest staged in a hash (``fields``)."""
        if checkpoint is None:
            return [self.basis, "", "", ""]
        return [self.basis, checkpoint, self.frozen, self.summary]


@dataclass(frozen=True)
class AppendResult:
    """The steps ``first..last`` an append wrote (or, for a duplicate, the first request wrote).

    ``last`` is also the match's version right after that write. A batch without events writes
    nothing: then ``first == last + 1``.
    """

    first: int
    last: int
    duplicate: bool = False
    # The write raised the wake flag: no projection pass was queued, so the writer enqueues one.
    woke: bool = field(default=False, compare=False)
    # The projection the write carried moved in: it is the match's stored projection now.
    moved_in: bool = field(default=False, compare=False)

    @property
    def version(self) -> int:
        """The match's version right after the write."""
        return self.last
