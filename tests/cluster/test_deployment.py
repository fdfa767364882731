"""tabletape past one machine, as an operator runs it: gunicorn and `tabletape worker` on a 3-master
Redis Cluster, the job queue on a standalone Redis, configured by the environment alone.

Every game is recorded while a spectator follows it live, projected by the workers, rewound,
forked, exported and imported; the match list, player statistics and leaderboards read across the
masters, `tabletape verify` finds every projection equal to its log, and every master holds matches;
a consumer reads the global feed one partition at a time, as docs/integrations.md tells it to.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from events.keys import FEED_PARTITIONS_CLUSTER
from games.registry import all_games
from tests.cluster.conftest import Deployment
from tests.e2e.faults import driver
from tests.e2e.test_live import listen, sse
from tests.service.conftest import OTHER, SHORT

pytestmark = pytest.mark.e2e


class Spectator:
    """A live feed read on a thread of its own until the match ends (with the write token: the
    states a rewind of the finished match shows, recorded hands included)."""

    def __init__(self, url: str, match_id: str, token: str | None = None) -> None:
        self.stream = listen(url, match_id, token=token)
        self.frames: dict[int, Any] = {}
        self.ended: dict[str, Any] | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for kind, data, _ in sse(self.stream):
            if kind == "frame":
                self.frames[data["step"]] = data["state"]
            elif kind == "end":
                self.ended = data
                return

    def join(self) -> None:
        """Wait for the end message (at most 60 s), then close the stream."""
        self.thread.join(timeout=60)
        self.stream.close()


def get(url: str, path: str, token: str | None = None, **params: Any) -> Any:
    """GET a JSON read that must answer 200 (as the holder of ``token``, when given)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.get(f"{url}{path}", params=params, headers=headers, timeout=20)
    assert answer.status_code == 200, (path, answer.text)
    return answer.json()


def projected(url: str, match_id: str, version: int, seconds: float = 60) -> dict[str, Any]:
    """The workers' scoreboard once it has reached ``version``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        board = get(url, f"/v1/matches/{match_id}/scores")
        if board["projected"] and board["version"] == version:
            return board
        time.sleep(0.1)
    raise AssertionError(f"the projection of {match_id} never reached step {version}")


def record_followed(url: str, game_id: str, seed: int) -> tuple[driver.Match, Spectator, list[int]]:
    """Create a match, have a spectator follow it, and send its whole example; the version after
    each action too."""
    script = all_games()[game_id].example(seed)
    match = driver.create(url, game_id, script)
    spectator = Spectator(url, match.id, match.token)
    answers = driver.play(match, script["actions"])
    spectator.join()
    return match, spectator, [answer["version"] for answer in answers]


def copy_of(url: str, path: str, **request: Any) -> dict[str, Any]:
    """POST a fork or an import that must make a new match."""
    answer = requests.post(f"{url}{path}", timeout=30, **request)
    assert answer.status_code == 201, (path, answer.text)
    return dict(answer.json())


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_is_recorded_followed_projected_rewound_forked_exported_and_imported(
    deployed: Deployment, game_id: str
) -> None:
    url = deployed.url
    match, spectator, versions = record_followed(url, game_id, SHORT[game_id])
    first = get(url, f"/v1/matches/{match.id}")["version"] - len(spectator.frames)
    assert sorted(spectator.frames) == list(range(first + 1, match.version + 1))
    assert spectator.ended is not None and spectator.ended["finished"] is True
    board = projected(url, match.id, match.version)
    assert board["finished"] is True and board["winners"]

    middle = versions[len(versions) // 2]  # the end of an action: where a fork may cut
    rewound = get(url, f"/v1/matches/{match.id}/state", at=middle)["state"]
    assert rewound == spectator.frames[middle]
    fork = copy_of(url, f"/v1/matches/{match.id}/fork", json={"at": middle})
    # The fork goes on from there: its recorded hands are its table's again until it is over.
    assert get(url, f"/v1/matches/{fork['id']}/state", fork["token"])["state"] == rewound
    projected(url, fork["id"], fork["version"])

    exported = requests.get(f"{url}/v1/matches/{match.id}/export", params={"format": "ndjson"}, timeout=30)
    assert exported.status_code == 200
    # A copy asked for: the store holds the match the export came from.
    made = copy_of(
        url,
        "/v1/matches/import?copy=true",
        data=exported.content,
        headers={"Content-Type": "application/x-ndjson"},
    )
    final = get(url, f"/v1/matches/{match.id}/state")["state"]
    assert made["version"] == match.version and made["finished"] is True
    assert get(url, f"/v1/matches/{made['id']}/state")["state"] == final == spectator.ended["state"]
    projected(url, made["id"], made["version"])

    # The indexes are written by the same pass just after the scores: listed a moment later.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = get(url, "/v1/matches", game=game_id, status="finished", limit=100)["matches"]
        if {match.id, made["id"]} <= {m["id"] for m in listed}:
            break
        time.sleep(0.05)
    assert {match.id, made["id"]} <= {m["id"] for m in listed}, deployed.logs()[-4000:]
    leaders = get(url, f"/v1/leaderboards/{game_id}")["players"]
    players = all_games()[game_id].example(SHORT[game_id])["players"]
    assert {p.lower() for p in players} <= {row["name"].lower() for row in leaders}


def test_matches_spread_over_every_master_and_verify_finds_every_projection_equal_to_its_log(
    deployed: Deployment,
) -> None:
    for game_id in sorted(all_games()):
        match = driver.create(deployed.url, game_id, all_games()[game_id].example(OTHER[game_id]))
        driver.play(match, all_games()[game_id].example(OTHER[game_id])["actions"])
        projected(deployed.url, match.id, match.version)
    # Match ids are random: the module's 20 matches leave a master without one about once in a
    # thousand runs, so more are created until each master holds one (60 leave one empty about
    # once in 10^10 runs; keys that were not spread by their match would still leave two empty).
    for _ in range(40):
        if all(count > 0 for count in deployed.matches_per_master().values()):
            break
        more = driver.create(deployed.url, "wizard", all_games()["wizard"].example(OTHER["wizard"]))
        projected(deployed.url, more.id, more.version)
    matches = deployed.matches_per_master()
    assert len(matches) == 3 and all(count > 0 for count in matches.values()), matches
    assert all(count > 0 for count in deployed.keys_per_master().values())
    verified = subprocess.run(
        [sys.executable, "-m", "service.cli.main", "verify"],
        env=deployed.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "0 with differences" in verified.stdout
    total = len(list(deployed.parts().store.all_ids()))
    assert f"verified {total} matches" in verified.stdout and total >= 20


def read_partition(url: str, partition: int) -> tuple[list[dict[str, Any]], str]:
    """Every event of one feed partition from its start, page by page, and the position after them."""
    events: list[dict[str, Any]] = []
    after = "0"
    while True:
        page = get(url, "/v1/feed", partition=partition, after=after, limit=50)
        if not page["events"]:
            return events, after
        events, after = events + page["events"], page["position"]


def test_a_consumer_reads_every_feed_partition_on_its_own_and_misses_no_step(deployed: Deployment) -> None:
    made = []
    for game_id in sorted(all_games()):
        match = driver.create(deployed.url, game_id, all_games()[game_id].example(SHORT[game_id]))
        driver.play(match, all_games()[game_id].example(SHORT[game_id])["actions"])
        projected(deployed.url, match.id, match.version)
        made.append(match)
    # One reader per partition, each keeping its own number (a league site's parallel consumer).
    with ThreadPoolExecutor(8) as readers:
        read = list(readers.map(lambda k: read_partition(deployed.url, k), range(FEED_PARTITIONS_CLUSTER)))
    steps: dict[str, list[int]] = defaultdict(list)
    for partition, (events, _) in enumerate(read):
        assert all(e["partition"] == partition for e in events)
        assert [e["position"] for e in events] == sorted({e["position"] for e in events})
        for event in events:
            steps[event["match_id"]].append(event["seq"])
    assert {m.id: steps[m.id] for m in made} == {m.id: list(range(1, m.version + 1)) for m in made}
    # The merged position is the partitions' numbers joined, in partition order: nothing after it.
    merged = ".".join(position for _, position in read)
    assert get(deployed.url, "/v1/feed", after=merged)["events"] == []
    # No one key takes every write: the partitions are spread evenly over the masters.
    held = deployed.feed_partitions_per_master()
    assert sum(held.values()) == FEED_PARTITIONS_CLUSTER, held
    assert max(held.values()) - min(held.values()) <= 1, held
