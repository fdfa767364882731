"""Browser fixtures: one `tabletape serve` process and one Debian Chromium for the whole session.

The server is started as the e2e tests start it (its own embedded Redis, its own key prefix, a
free port). Chromium is the system's (`apt-get install chromium`): Playwright's own browser
builds cannot be downloaded here, and the system browser is what a reader has anyway.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.recording import play
from tests.support.serving import chromium_path as support_chromium_path
from tests.support.serving import launch_chromium
from tests.support.serving import serving as served_at


def chromium_path() -> str:
    """Debian's Chromium headless shell (else its chromium), or the one named by CHROMIUM."""
    found = support_chromium_path()
    if not found:
        pytest.fail(
            "the browser tests need Chromium: apt-get install -y chromium-headless-shell "
            "(or chromium; or set CHROMIUM)"
        )
    return found


@contextmanager
def serving(folder: Path, prefix: str) -> Iterator[str]:
    """The base URL of a `tabletape serve` with its own embedded Redis, one worker, a free port."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["TABLETAPE_PREFIX"] = f"{prefix}-{uuid.uuid4().hex[:8]}"
    # A session records every game's matches from one address, faster than any table would.
    env["TABLETAPE_RATE_LIMIT_WRITE"] = env["TABLETAPE_RATE_LIMIT_CREATE"] = "off"
    with served_at(folder, env) as url:
        yield url


# The log of the session's `site` serve, once it has started: a browser test that fails says what
# the server logged last (a worker restarted, an error), which the CI log otherwise keeps nowhere.
SITE_LOG: list[Path] = []
LOG_LINES = 40


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of the session's `tabletape serve`."""
    folder = tmp_path_factory.mktemp("web-serve")
    with serving(folder, "tt-web") as url:
        SITE_LOG.append(folder / "serve.log")
        yield url


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failed test that used the session's serve: its report ends with the serve's last lines."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and SITE_LOG and "site" in getattr(item, "fixturenames", ()):
        lines = SITE_LOG[-1].read_text(errors="replace").splitlines()[-LOG_LINES:]
        report.sections.append((f"the site's serve.log, its last {LOG_LINES} lines", "\n".join(lines)))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, chromium_path())
        yield launched
        launched.close()


@dataclass
class Watched:
    """A page, and every JavaScript error and failed request it had."""

    page: Any
    problems: list[str] = field(default_factory=list)


@contextmanager
def watching(browser: Any, timeout_ms: int, **context_options: Any) -> Iterator[Watched]:
    """A page in a fresh browser context whose console errors and uncaught exceptions are collected."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    seen = Watched(page)
    page.on("console", lambda m: seen.problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.problems.append(f"pageerror: {e}"))
    try:
        yield seen
    finally:
        context.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    """A fresh page whose console errors, uncaught exceptions and 4xx/5xx answers are collected."""
    with watching(browser, 10_000, viewport={"width": 1280, "height": 900}) as seen:
        yield seen


@pytest.fixture
def page(watched: Watched) -> Iterator[Any]:
    """A page that must end its test without a JavaScript error."""
    yield watched.page
    assert watched.problems == []


@dataclass
class Recorded:
    """A match recorded over HTTP: its id and write token."""

    id: str
    token: str
    steps: int

    def act(self, site: str, action: dict[str, Any]) -> dict[str, Any]:
        """Record one more action; it must be accepted."""
        answer = requests.post(
            f"{site}/v1/matches/{self.id}/actions",
            json=action,
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        self.steps = answer.json()["version"]
        return dict(answer.json())


def start(site: str, game: str, script: dict[str, Any]) -> Recorded:
    """Create a match with a script's players, setup and options, over HTTP."""
    made = requests.post(
        f"{site}/v1/matches",
        json={"game": game, **{k: script[k] for k in ("players", "setup", "options")}},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    return Recorded(made.json()["id"], made.json()["token"], made.json()["version"])


def record(site: str, game: str, script: dict[str, Any]) -> Recorded:
    """Create a match from a script and record every one of its actions."""
    match = start(site, game, script)
    for action in script["actions"]:
        match.act(site, action)
    return match


def record_seed(site: str, game: str, seed: int) -> Recorded:
    """A game's example ``seed`` recorded over HTTP, the way every test records one."""
    return play(lambda g, script: start(site, g, script), lambda m, a: m.act(site, a), game, seed)


@pytest.fixture
def example(site: str) -> Callable[[str], Recorded]:
    """Record the example match that GET /v1/games/{id} shows."""

    def recorded(game: str) -> Recorded:
        script = requests.get(f"{site}/v1/games/{game}", timeout=10).json()["example"]
        return record(site, game, script)

    return recorded


def wizard_rounds(players: list[str], rounds: int) -> dict[str, Any]:
    """A Wizard script recorded round by round (scores only): short, and with a score each round."""
    actions = []
    for n in range(1, rounds + 1):
        bids = {p: (n + i) % (n + 1) for i, p in enumerate(players)}
        tricks = {p: 0 for p in players}
        tricks[players[n % len(players)]] = n
        actions.append({"type": "record_round", "bids": bids, "tricks": tricks})
    return {"players": players, "setup": {"first_dealer": players[0]}, "options": {}, "actions": actions}


def unique(name: str) -> str:
    """A player name no other test uses."""
    return f"{name}-{uuid.uuid4().hex[:6]}"


def viewer_path(match_id: str, step: int | None = None) -> str:
    """The viewer's path for a match (at a step)."""
    return f"/matches/{match_id}" + (f"?step={step}" if step is not None else "")


def wait_for_viewer(page: Any) -> None:
    """Wait until the viewer has loaded the match and drawn a step."""
    page.wait_for_selector("#layout:not([hidden])")
    page.wait_for_function("document.getElementById('step').dataset.step !== '0'")
    page.wait_for_selector("#viewer[data-loaded]", state="attached")


def open_viewer(page: Any, site: str, match_id: str, step: int | None = None) -> None:
    """Open a match's viewer (at a step) and wait until it has drawn it."""
    page.goto(f"{site}{viewer_path(match_id, step)}")
    wait_for_viewer(page)


def shown_step(page: Any) -> int:
    """The step the viewer shows (its data-step)."""
    return int(page.get_attribute("#step", "data-step"))
