"""The phone recorder in Chromium: `python -m bench.recorder`.

Starts `tabletape serve` (its own embedded Redis, a free port) and opens the recorder of a Wizard
match at 375 px in Debian's Chromium (Playwright), then prints:

- its first load in bytes on the wire (every response of a fresh page: HTML, CSS, JS modules and
  the API answers it reads), as served, and what each response would weigh gzipped (what a
  compressing server sends), against the 150 KB goal;
- whether it opens again from the service worker's cache with no network, and how fast;
- how long a phone on a slow mobile network (150 ms a round trip) waits for its first opening until
  the choices are drawn, in round trips: what waits on what (the page, its modules one import
  after another, the API's answers) shows as round trips, whatever the machine's speed;
- the time from a tap on a one-tap choice (a bid, a card) until the page shows it "recorded", and
  offline until it shows it "queued", each against an anchor of the same run: a bare `fetch`
  POST of one write (an undo or a redo) from the same page, the network and server floor.
"""

from __future__ import annotations

import gzip
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from tests.support.serving import chromium_path, launch_chromium
from tests.support.serving import serving as served_at

TAPS = 40
GOAL_BYTES = 150 * 1024
GOAL_TAP_MS = 100.0
PHONE = {"width": 375, "height": 740}

# Click a control and wait until the status line says what became of it; milliseconds.
TIMED_TAP = """async ([selector, state]) => {
  const status = document.getElementById('status');
  const target = document.querySelector(selector);
  const started = performance.now();
  const seen = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (status.dataset.state === state) { watch.disconnect(); resolve(performance.now() - started); }
    });
    watch.observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  status.dataset.state = 'idle';
  target.click();
  const late = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`no '${state}' within 10 s`)), 10000));
  return await Promise.race([seen, late]);
}"""

# One bare write from the page: POST …/undo or …/redo with the token.
TIMED_WRITE = """async ([url, token]) => {
  const started = performance.now();
  const answer = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  await answer.json();
  if (answer.status !== 201) throw new Error(`${url}: ${answer.status}`);
  return performance.now() - started;
}"""


@contextmanager
def serving() -> Iterator[str]:
    """A `tabletape serve` with its own embedded Redis in a temporary folder; its base URL."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(TABLETAPE_PREFIX=f"tt-bench-rec-{uuid.uuid4().hex[:6]}", TABLETAPE_RATE_LIMIT_WRITE="off")
    with tempfile.TemporaryDirectory() as folder, served_at(Path(folder), env) as url:
        yield url


def wizard(site: str, players: list[str], bidding: str = "clockwise") -> tuple[str, str]:
    """A new Wizard match, its first round started: (id, token)."""
    body: dict[str, Any] = {
        "game": "wizard",
        "players": players,
        "setup": {"first_dealer": players[0]},
        "options": {"bidding": bidding},
    }
    made = requests.post(f"{site}/v1/matches", json=body, timeout=10).json()
    requests.post(
        f"{site}/v1/matches/{made['id']}/actions",
        json={"type": "start_round", "trump_card": None if len(players) == 60 else "jester"},
        headers={"Authorization": f"Bearer {made['token']}"},
        timeout=10,
    ).raise_for_status()
    return made["id"], made["token"]


def first_load(browser: Any, site: str, match_id: str, token: str) -> None:
    """Bytes of a fresh page's first load, as served and gzipped; then an offline reopening."""
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    answers: list[Any] = []
    page.on("requestfinished", lambda request: answers.append(request))
    page.goto(f"{site}/matches/{match_id}/record#token={token}")
    page.wait_for_selector("#recorder[data-busy='0']")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")
    wire = zipped = 0
    for request in answers:
        sizes = request.sizes()
        body = request.response().body() if request.response() else b""
        wire += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        zipped += len(gzip.compress(body, 6)) + sizes["responseHeadersSize"]
    print(
        f"recorder first load: {len(answers)} responses, {wire / 1024:.1f} KB on the wire as served "
        f"(compressed as the server compresses it), {zipped / 1024:.1f} KB with every response gzipped; "
        f"goal <= {GOAL_BYTES / 1024:.0f} KB compressed"
    )
    context.set_offline(True)
    started = time.perf_counter()
    page.reload()
    page.wait_for_selector("#recorder[data-busy='0']")
    opened = (time.perf_counter() - started) * 1e3
    offered = page.locator("#choices [data-value]").count()
    print(
        f"recorder reopened with no network from the service worker's cache: {opened:.0f} ms, "
        f"{offered} choices shown"
    )
    context.close()


# A slow mobile network, as Chromium emulates it: every request waits this long for its answer.
ROUND_TRIP_MS = 150
# Bytes a second each way: 1.6 Mbit/s down, 750 kbit/s up.
SLOW_NETWORK = {
    "offline": False,
    "latency": ROUND_TRIP_MS,
    "downloadThroughput": 200_000,
    "uploadThroughput": 93_750,
}
OPENINGS = 3


def over_a_slow_network(browser: Any, site: str, match_id: str, token: str) -> None:
    """A first opening (empty cache, no service worker yet) on a slow network, in round trips."""
    took = []
    for _ in range(OPENINGS):
        context = browser.new_context(viewport=PHONE, is_mobile=True, service_workers="block")
        page = context.new_page()
        context.new_cdp_session(page).send("Network.emulateNetworkConditions", SLOW_NETWORK)
        started = time.perf_counter()
        page.goto(f"{site}/matches/{match_id}/record#token={token}")
        page.wait_for_selector("#recorder[data-busy='0'] #choices [data-value]")
        took.append((time.perf_counter() - started) * 1e3)
        context.close()
    middle = statistics.median(took)
    print(
        f"recorder first opened on a slow network ({ROUND_TRIP_MS} ms a round trip, 1.6 Mbit/s): "
        f"{middle:.0f} ms until the choices are drawn (median of {OPENINGS}), "
        f"{middle / ROUND_TRIP_MS:.1f} round trips"
    )


def start_round(page: Any) -> None:
    """Start the next round (a compound action: the first trump card offered, then send), untimed."""
    before = page.get_attribute("#recorder", "data-version")
    page.click("[data-entry='start_round'] [data-field='trump_card']:enabled")
    page.click("[data-submit='start_round']")
    page.wait_for_function("v => document.getElementById('recorder').dataset.version !== v", arg=before)


def timed_taps(page: Any, state: str, taps: int) -> list[float]:
    """Milliseconds from a tap on the first one-tap choice to the status ``state``, ``taps`` times."""
    found: list[float] = []
    selector = "#choices .entry:first-child > .values > [data-value]:not(:disabled)"
    while len(found) < taps:
        page.wait_for_selector("#recorder[data-busy='0']")
        if page.locator(selector).count():
            found.append(page.evaluate(TIMED_TAP, [selector, state]))
        elif page.locator("[data-submit='start_round']").count() and state == "recorded":
            start_round(page)
        else:
            break
    return found


def anchor(page: Any, site: str, match_id: str, token: str, writes: int) -> list[float]:
    """Milliseconds of bare POSTs from the page: undo and redo of one recorded action, in turn."""
    base = f"{site}/v1/matches/{match_id}"
    return [
        page.evaluate(TIMED_WRITE, [f"{base}/{'undo' if i % 2 == 0 else 'redo'}", token])
        for i in range(writes)
    ]


def summary(values: list[float]) -> str:
    """p50 and p95 in milliseconds."""
    ordered = sorted(values)
    return f"p50 {statistics.median(ordered):.1f} ms, p95 {ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms"


def taps(browser: Any, site: str) -> None:
    """Tap to "recorded" online and to "queued" offline, against bare writes from the page."""
    players = ["ann", "bob", "cy"]
    match_id, token = wizard(site, players)
    floor_id, floor_token = wizard(site, players)
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.goto(f"{site}/matches/{match_id}/record#token={token}")
    page.wait_for_selector("#recorder[data-busy='0']")
    online = timed_taps(page, "recorded", TAPS)
    floor = anchor(page, site, floor_id, floor_token, TAPS)
    # Offline, bids in any order: six players' bids are all offered by the last answer.
    table = ["ann", "bob", "cy", "dee", "eli", "fay"]
    simultaneous_id, simultaneous_token = wizard(site, table, "simultaneous")
    page.goto(f"{site}/matches/{simultaneous_id}/record#token={simultaneous_token}")
    page.wait_for_selector("#recorder[data-busy='0']")
    context.set_offline(True)
    offline = timed_taps(page, "queued", len(table))
    context.close()
    p50 = statistics.median(online)
    print(
        f"tap to 'recorded' shown ({len(online)} bids and cards): {summary(online)}; "
        f"a bare POST from the page: "
        f"{summary(floor)}; ratio of p50s {p50 / statistics.median(floor):.2f}x; goal < {GOAL_TAP_MS:.0f} ms"
    )
    print(
        f"tap to 'queued' shown offline ({len(offline)} bids): {summary(offline)}; "
        f"goal < {GOAL_TAP_MS:.0f} ms"
    )


def main() -> int:
    """Run the recorder's benchmark in Chromium."""
    from playwright.sync_api import sync_playwright

    # The whole browser, as a phone runs it, not the tests' headless shell.
    chromium = chromium_path(headless_shell=False)
    if not chromium:
        print("bench.recorder: skipped, no Chromium (apt-get install chromium)")
        return 0
    with serving() as site, sync_playwright() as playwright:
        browser = launch_chromium(playwright, chromium)
        match_id, token = wizard(site, ["ann", "bob", "cy"])
        first_load(browser, site, match_id, token)
        over_a_slow_network(browser, site, match_id, token)
        taps(browser, site)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
