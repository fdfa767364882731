"""The global feed's costs: `python -m bench.feed`.

The write's only share is the mark its append sets in its own script run (``bench.writes`` shows
the write, before and after); the projection pass publishes. What the feed costs is the pass's
extra work, measured here as a pass that publishes against one that does not over the same kind
of matches in the same run; and what a consumer reads, in events per second, in process and over
HTTP (Flask's test client, no network), against a bare XRANGE of every partition in pages of the
same size with each event's JSON decoded (the least a reader of the streams does).
"""

from __future__ import annotations

import json
import time
from typing import Any, cast

from bench.harness import bench_parts
from events.codec import as_text
from events.keys import FEED_PARTITIONS
from games.registry import all_games
from projections.projecting.projector import Lease, Projector
from service.app import create_app
from service.bootstrap import Services

MATCHES = 40
ROUNDS = 12


def _matches(parts: Services, count: int) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """``count`` matches of every game's example 2, created; with the actions left to record."""
    made = []
    for n in range(count):
        game_id = sorted(all_games())[n % len(all_games())]
        script = all_games()[game_id].example(2)
        created = parts.recorder.create(game_id, script["players"], script["setup"], script["options"])
        made.append((created.match_id, created.token, list(script["actions"])))
    return made


def _pass(
    parts: Services, projector: Projector, matches: list[tuple[str, str, list[dict[str, Any]]]]
) -> float:
    """Record one action in each match (untimed), then time one projection pass over them."""
    for match_id, token, actions in matches:
        if actions:
            parts.recorder.act(match_id, token, actions.pop(0))
    ids = [m for m, _, _ in matches]
    start = time.perf_counter()
    projector.project_many(ids, Lease("bench", 8000))
    return time.perf_counter() - start


def pass_cost(parts: Services) -> float:
    """Seconds per pass that publishes over seconds per pass that does not; prints both."""
    plain = Projector(parts.positions, parts.models, parts.settings.snapshot_every)
    publishing = parts.projector
    with_feed, without = _matches(parts, MATCHES), _matches(parts, MATCHES)
    timed: dict[str, list[float]] = {"feed": [], "plain": []}
    for _ in range(ROUNDS):
        timed["feed"].append(_pass(parts, publishing, with_feed))
        timed["plain"].append(_pass(parts, plain, without))
    feed, bare = (sorted(t)[len(t) // 2] for t in (timed["feed"], timed["plain"]))
    print(
        f"feed: a projection pass over {MATCHES} matches, one new action each: {feed * 1e3:.2f} ms "
        f"publishing vs {bare * 1e3:.2f} ms without (median of {ROUNDS}); ratio {feed / bare:.2f}"
    )
    return feed / bare


def raw_throughput(parts: Services, page: int = 1000) -> float:
    """Events per second a bare XRANGE of every partition reads, each event's JSON decoded."""
    total, start = 0, time.perf_counter()
    for k in range(FEED_PARTITIONS):
        after = "-"
        while entries := cast("list[Any]", parts.client.xrange(parts.keys.feed(k), after, "+", count=page)):
            total += len([json.loads(fields[b"e"]) for _, fields in entries])
            after = "(" + as_text(entries[-1][0])
    return total / (time.perf_counter() - start)


def consumer_throughput(parts: Services) -> tuple[float, float]:
    """Events per second a consumer reads from position 0, in process and over HTTP, against the
    bare XRANGE; prints them."""
    raw = raw_throughput(parts)
    total, start, after = 0, time.perf_counter(), "0"
    while True:
        page = parts.feed.page(after, 1000)
        if not page.events:
            break
        total, after = total + len(page.events), page.position
    in_process = total / (time.perf_counter() - start)
    client = create_app(parts.settings).test_client()
    read, start, after = 0, time.perf_counter(), "0"
    while True:
        body = client.get("/v1/feed", query_string={"after": after, "limit": 1000}).get_json()
        if not body["events"]:
            break
        read, after = read + len(body["events"]), body["position"]
    over_http = read / (time.perf_counter() - start)
    print(
        f"feed: a consumer reads {total} events at {in_process:,.0f} events/s in process "
        f"({in_process / raw:.2f}x a bare XRANGE's {raw:,.0f}), {over_http:,.0f} over HTTP "
        f"({over_http / raw:.2f}x)"
    )
    return in_process, over_http


def main() -> None:
    """Print the feed's figures."""
    with bench_parts() as parts:
        pass_cost(parts)
        # More matches, recorded whole, so the consumer has a feed worth reading.
        for match_id, token, actions in _matches(parts, 100):
            for action in actions:
                parts.recorder.act(match_id, token, action)
            parts.projector.project(match_id)
        consumer_throughput(parts)


if __name__ == "__main__":
    main()
