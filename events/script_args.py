"""The argument layout of events/append.lua, declared once for both sides.

The script is loaded with a preamble written here (``preamble``): one Lua table per operation
that names the place of each fixed argument, so the script reads ``ARGV[APPEND.counters]``, never
a number of its own, and ``EventStore`` builds the arguments with ``create_args`` and
``AppendArgs`` in the same order. After the fixed arguments come the variable ones: for a create
its header pairs (field, value), then its credentials' pairs (field, digest), then the events;
for an append one pair (limit, window seconds) per rate counter, the carry flag ("1" when it
carries its projection, else "0"), and when it is "1" the carried projection's fields (its
basis, checkpoint, frozen position and summary, the last three "" when they are staged in a hash
instead), then the feed's part: the game's id ("" when the append publishes nothing to the
feed), the number of steps n it publishes, and n triples (step, type, event JSON) as the feed
holds them; then the events (type, data, meta for each, in order). An append's fixed arguments
name the credential it relies on, which the script checks is still current before anything
else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any, NamedTuple

CREATE = ("op", "match", "wake_seconds", "pairs", "credentials")
APPEND = (
    "op",
    "match",
    "wake_seconds",
    "expected",
    "key",
    "fingerprint",
    "credential",
    "fallback",
    "digest",
    "counters",
)
CARRY = ("op", "match", "wake_seconds", "version", "last", "meta")


def preamble() -> str:
    """The Lua tables that name the fixed arguments' places (1-based, as Lua counts)."""
    lines = []
    for name, layout in (("CREATE", CREATE), ("APPEND", APPEND), ("CARRY", CARRY)):
        fields = ", ".join(f"{arg} = {place}" for place, arg in enumerate(layout, start=1))
        lines.append(f"local {name} = {{{fields}}}\n")
    return "".join(lines)


def create_args(
    match_id: str,
    wake_seconds: str,
    header: Mapping[str, str],
    events: Sequence[str],
    credentials: Mapping[str, str] | None = None,
) -> list[str]:
    """A create's arguments: the fixed ones, its header pairs, its credentials' pairs, then its
    events' fields."""
    credentials = credentials or {}
    fixed = {
        "op": "create",
        "match": match_id,
        "wake_seconds": wake_seconds,
        "pairs": str(len(header)),
        "credentials": str(len(credentials)),
    }
    args = [fixed[arg] for arg in CREATE]
    for pairs in (header, credentials):
        for name, value in pairs.items():
            args += [name, str(value)]
    return args + list(events)


class AppendArgs(NamedTuple):
    """An append's arguments, by the names of its layout; ``argv`` lays them out as the script
    reads them."""

    match: str
    wake_seconds: str
    # The version the append is conditional on ("" for none).
    expected: str
    # The idempotency key ("" for none) and the request's fingerprint.
    key: str
    fingerprint: str
    # The credential the write relies on, checked in the same run: the field of the match's
    # credentials hash that must hold ``digest`` ("" for no check), and the header field read
    # in its place while the credentials have no such field ("" for none).
    credential: str
    fallback: str
    digest: str
    # (limit, window seconds) of each rate counter the append counts itself against.
    limits: Sequence[tuple[int, int]]
    # The projection it carries, the four fields of the projection hash: the read models' basis
    # (models), the checkpoint, the position frozen (env) and the summary, or the basis and three
    # "" when the rest is staged in a hash (``CarriedProjection.arguments``); None for none.
    projection: Sequence[Any] | None
    # The steps it publishes to the global feed with the carried projection: the game's id,
    # then (step, type, event JSON) for each; None to publish nothing (``CarriedProjection.feed``).
    feed: Sequence[Any] | None
    # The events' fields: type, data, meta for each.
    events: Sequence[str]
    # Whether its projection follows it on the same connection (``carry_args``), which marks
    # the match when it cannot move in: the append itself then marks nothing.
    follows: bool = False

    def argv(self) -> list[Any]:
        """The script's ARGV."""
        args: list[Any] = ["append", *_named(self), str(len(self.limits))]
        for limit, window in self.limits:
            args += [str(limit), str(window)]
        if self.projection is None:
            args.append("2" if self.follows else "0")
        else:
            args += _carried(self.projection, self.feed)
        return args + list(self.events)

    def carrying_none(self) -> AppendArgs:
        """The same append, carrying no projection (and publishing nothing)."""
        return self._replace(projection=None, feed=None, follows=False)


def carry_args(
    match: str,
    wake_seconds: str,
    version: int,
    last: int,
    meta: str,
    projection: Sequence[Any] | None,
    feed: Sequence[Any] | None,
) -> list[Any]:
    """The arguments of the projection that follows an append (op "carry"): the version the
    append followed, its last step and its last event's meta, then the projection's fields and
    the feed's part as an append that carries them lays them out (for ``projection`` None, the
    carry flag 0: the match is marked instead)."""
    carried = ["0"] if projection is None else _carried(projection, feed)
    return ["carry", match, wake_seconds, str(version), str(last), meta, *carried]


def _carried(projection: Sequence[Any], feed: Sequence[Any] | None) -> list[Any]:
    """The carry flag 1, the projection's four fields, then the feed's part."""
    if feed is None:
        return ["1", *projection, "", "0"]
    game, *steps = feed
    return ["1", *projection, game, str(len(steps) // 3), *steps]


# The fields between the operation and the number of counters, in APPEND's order (an append
# writes one per write, so its arguments are gathered by one getter, not looked up one by one).
assert APPEND[0] == "op" and APPEND[-1] == "counters"
_named = attrgetter(*APPEND[1:-1])
