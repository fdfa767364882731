"""What an append sends along with its batch: rate counters, the credential it relies on, the
projection it carries and the work to do while it is on its way (``EventStore.append``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from events.envelope import CarriedProjection


@dataclass
class RateCounters:
    """Fixed-window rate counters an append counts itself against, in its own atomic run.

    ``counters`` are (key, limit, window seconds). The append adds one to each (a new one expires
    after its window) and, when one passes its limit, appends nothing (OverLimit names which).
    They are counted once: ``sent`` tells whether an append has carried them to Redis. Only a
    store on one Redis takes them (``EventStore.counts``): on a cluster they are other slots.
    """

    counters: list[tuple[str, int, int]]
    sent: bool = False


@dataclass(frozen=True)
class Credential:
    """The credential a write relies on, checked in the append's own run (events/append.lua):
    ``field`` of the match's credentials must hold ``digest`` (while it has none, the header's
    ``fallback`` field, when given); else CredentialChanged and nothing appended."""

    field: str
    digest: str
    fallback: str = ""


@dataclass
class AppendExtras:
    """What the common write sends along with its batch (``EventStore.append``), each optional.

    ``meanwhile`` is work that only a written batch needs (the writer's answer): on one Redis it
    runs while the script is on its way and the server appends, elsewhere after the reply. What
    it raises is raised once the batch is known to be written; a refused batch's refusal is raised
    instead. ``rates`` not yet ``sent`` are counted by this append first (``RateCounters``).
    ``carried``: the match's projection at the batch's last step, for a conditional append (see
    ``EventStore.append``). ``credential``: the writer's credential, still current or the
    append is refused (``Credential``).
    """

    meanwhile: Callable[[], object] | None = None
    rates: RateCounters | None = None
    carried: CarriedProjection | None = None
    credential: Credential | None = None
    # The projection that follows the append on its connection (``EventStore.append``),
    # worked out after ``meanwhile``; None for none after all.
    follow: Callable[[], CarriedProjection | None] | None = None


# The credential of an append that relies on none (an operator's, a test's).
UNCHECKED = Credential("", "")
