"""How fast a long match opens in the viewer: `python -m bench.viewer [--source DIR]`.

Serves tabletape (`tabletape serve`, its own embedded Redis) from this tree or from DIR (another
checkout, to measure a change before and after), records a whole 3-player Wizard match with its
cards (the longest example, about 950 steps), and opens its viewer in Debian's Chromium with an
empty cache, several times. It prints the bytes transferred before the board was usable (the page,
its files and every API answer that had arrived by then) and the time to usable: the moment the
board shows a step, measured in the page from the navigation's start. The anchor is the same page
of a two-step match, in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from games.registry import get_game
from tests.support.serving import chromium_path, launch_chromium
from tests.support.serving import serving as served_at

RUNS = 5
# Set in the page: when the board first shows a step (any version of the viewer has #step).
USABLE = """
new MutationObserver((_, watcher) => {
  const step = document.getElementById("step");
  const layout = document.getElementById("layout");
  if (step && layout && !layout.hidden && step.dataset.step !== "0" && !window.__usable) {
    window.__usable = performance.now();
    watcher.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""
# Bytes of every response that ended by then: the page, its files and the API's answers.
BYTES = """() => {
  const until = window.__usable;
  const all = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  return all.filter((e) => e.responseEnd <= until).reduce((sum, e) => sum + e.transferSize, 0);
}"""


@contextmanager
def serving(source: Path) -> Iterator[str]:
    """`tabletape serve` of the tree at ``source`` on a free port, with its own embedded Redis."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {"TABLETAPE_PREFIX": f"tt-bench-viewer-{uuid.uuid4().hex[:8]}", "PYTHONPATH": str(source)}
    env["TABLETAPE_RATE_LIMIT_WRITE"] = env["TABLETAPE_RATE_LIMIT_CREATE"] = "off"
    with tempfile.TemporaryDirectory() as folder, served_at(Path(folder), env, cwd=source, seconds=60) as url:
        yield url


def record(site: str, script: dict[str, Any], upto: int | None = None) -> tuple[str, int]:
    """Record a Wizard script over HTTP; (match id, steps)."""
    body = {"game": "wizard", **{k: script[k] for k in ("players", "setup", "options")}}
    made = requests.post(f"{site}/v1/matches", json=body, timeout=10).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    version = made["version"]
    with requests.Session() as session:
        for action in script["actions"][:upto]:
            answer = session.post(
                f"{site}/v1/matches/{made['id']}/actions", json=action, headers=auth, timeout=10
            )
            answer.raise_for_status()
            version = answer.json()["version"]
    return made["id"], version


def caught_up(site: str, match_id: str) -> None:
    """Wait until the workers have projected the match's last step (its scoreboard is final)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        board = requests.get(f"{site}/v1/matches/{match_id}/scores", timeout=10).json()
        if board["version"] == board["log_version"]:
            return
        time.sleep(0.2)


def open_once(browser: Any, url: str) -> tuple[float, int]:
    """Open a viewer page in a fresh context (empty cache); (seconds to usable, bytes by then)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script(USABLE)
        page.goto(url)
        page.wait_for_function("window.__usable", timeout=60_000)
        figures = page.evaluate("window.__usable") / 1000, int(page.evaluate(BYTES))
        # What the page still reads after it is usable must not slow the next open down.
        page.wait_for_load_state("networkidle")
        return figures
    finally:
        context.close()


def measure(browser: Any, url: str) -> tuple[float, int]:
    """Median seconds to usable and median bytes over RUNS opens (one warm-up first)."""
    open_once(browser, url)
    runs = [open_once(browser, url) for _ in range(RUNS)]
    return statistics.median(r[0] for r in runs), int(statistics.median(r[1] for r in runs))


def main(source: Path) -> None:
    """Record the long match and the anchor, then print the figures."""
    from playwright.sync_api import sync_playwright

    # The whole browser, as a phone runs it, not the tests' headless shell.
    chromium = chromium_path(headless_shell=False)
    if not chromium:
        print("bench.viewer: skipped, no Chromium (apt-get install chromium)")
        return
    script = get_game("wizard").example(8)
    with serving(source) as site, sync_playwright() as playwright:
        long_id, steps = record(site, script)
        short_id, short_steps = record(site, script, upto=1)
        caught_up(site, long_id)
        browser = launch_chromium(playwright, chromium)
        anchor_s, anchor_b = measure(browser, f"{site}/matches/{short_id}")
        long_s, long_b = measure(browser, f"{site}/matches/{long_id}")
        browser.close()
    print(f"viewer of {source}:")
    print(
        f"  a {steps}-step Wizard match: usable after {long_s * 1000:.0f} ms, {long_b / 1024:.0f} KiB "
        f"transferred by then (goal: <= 500 ms, <= 200 KB)"
    )
    print(
        f"  anchor, a {short_steps}-step match: {anchor_s * 1000:.0f} ms, {anchor_b / 1024:.0f} KiB; "
        f"ratio {long_s / anchor_s:.2f}x in time, {long_b / anchor_b:.1f}x in bytes"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[1])
    main(parser.parse_args().source.resolve())
