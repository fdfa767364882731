"""The global feed's writing side: every match's public events, published once each, in order.

A projection pass publishes the matches it takes before it projects them (workers/drain.py), and
a match leaves the dirty set only once its events are in the feed. On one Redis a write whose
projection moves in with its append publishes its own steps in that run instead, by the same
rule (shared as events/feed_steps.lua), their form worked out by the writer against the position
the batch leaves, as a pass would (``public_steps``; events/append.lua); it leaves the match
unmarked, unless it finds the feed behind the match's log: then a pass publishes.

For each match a pass reads where the feed stands (the partition's ``seen`` hash), the log after
that, and then the match's state now, and hands each partition its matches' events as open
reads show them (projections.queries.disclosure) to one script (feed.lua), which appends only
the step after the match's last one: a pass repeated, or two at once, publish every step exactly
once, in the match's order, at a position assigned once.

A fact hidden when its event is published is published held back (a secret bid as
``"tricks": null, "hidden": true``), as the open reads show it then; the feed is never rewritten,
and the bid's number comes later in the feed with the event that makes it public (Wizard's
``RoundScored`` holds every bid). A pass that runs late publishes what is public by then.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

import redis

from events.codec import as_text, dumps
from events.defaults import TAIL_READ as TAIL
from events.envelope import StoredEvent
from events.keys import Keys
from events.store import EventStore
from games.contract import Game
from games.registry import get_game
from projections.positions.rewind import Positions
from projections.positions.tape import Position
from projections.queries.disclosure import sight


@cache
def _source() -> str:
    # The steps are appended by the function the append script shares (events/feed_steps.lua).
    shared = files("events").joinpath("feed_steps.lua").read_text(encoding="utf-8")
    return shared + files("projections.readmodels").joinpath("feed.lua").read_text(encoding="utf-8")


def public_steps(game: Game, events: Sequence[StoredEvent], now: Position | None) -> list[Any]:
    """Events as the feed publishes them, (step, type, event JSON) for each: as open reads show
    them against ``now``, a state at least as new as every one of them (needed when the game
    hides anything: ``game.public``)."""
    shown = [e.as_dict() for e in events]
    if game.public is not None:
        if now is None:
            raise ValueError(f"{game.id} hides facts: its events are disclosed against a state")
        public = sight(game, now)
        shown = [public.event(e) for e in shown]
    args: list[Any] = []
    for event in shown:
        args += [event["seq"], event["type"], dumps(event)]
    return args


class FeedPublisher:
    """Publishes matches' public events to their feed partitions, idempotently."""

    def __init__(self, positions: Positions, client: redis.Redis, keys: Keys) -> None:
        self.positions = positions
        self.store: EventStore = positions.store
        self.client = client
        self.keys = keys
        self._script = client.register_script(_source())

    def publish(self, match_ids: Sequence[str], at: Mapping[str, Position] | None = None) -> int:
        """Publish what the feed lacks of these matches' logs; the number of events published.

        ``at``: a match's position a projection run has just folded: its steps are published up
        to that position's, disclosed against its state (else up to the log's end, against the
        state read after the events)."""
        published, behind = 0, list(match_ids)
        while behind:
            done, behind = self._publish(behind, at or {})
            published += done
        return published

    def _publish(self, match_ids: Sequence[str], at: Mapping[str, Position]) -> tuple[int, list[str]]:
        """Publish up to TAIL events of each match; the number published and the matches with more."""
        headers = self.store.headers(list(match_ids))
        known = [m for m in match_ids if m in headers]
        if not known:
            return 0, []
        tails = self.store.read_tails(self._after(known), TAIL)
        parts: dict[int, list[Any]] = defaultdict(list)
        more = []
        for match_id in known:
            events, now = tails[match_id], at.get(match_id)
            if now is not None and events and events[-1].seq > now["version"]:
                # Steps after the run's position are the next run's (the match is still dirty).
                events = [e for e in events if e.seq <= now["version"]]
            elif len(events) >= TAIL:
                more.append(match_id)
            if not events:
                continue
            game = get_game(headers[match_id]["game"])
            parts[self.keys.feed_partition(match_id)] += self._args(match_id, game, events, now)
        published = 0
        for partition, args in sorted(parts.items()):
            keys = [self.keys.feed(partition), self.keys.feed_seen(partition)]
            published += int(self._script(keys=keys, args=args))
        return published, more

    def _after(self, match_ids: list[str]) -> dict[str, int]:
        """The step after the last one each match has in the feed."""
        with self.client.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self.keys.feed_seen(self.keys.feed_partition(match_id)), match_id)
            found = pipe.execute()
        return {m: int(as_text(last)) + 1 if last else 1 for m, last in zip(match_ids, found, strict=True)}

    def _args(self, match_id: str, game: Game, events: list[StoredEvent], now: Position | None) -> list[Any]:
        """One match's part of a partition's script call, its events as open reads show them
        against ``now`` (a state at least as new as every one of them)."""
        if game.public is not None and now is None:
            # Read after the events, so the state is at least as new as every one of them.
            _, now = self.positions.head(match_id)
        return [match_id, game.id, len(events), *public_steps(game, events, now)]
