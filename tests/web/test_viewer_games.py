"""Every game's viewer, and live steps, in a real Chromium against `tabletape serve`."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.web.conftest import (
    Recorded,
    open_viewer,
    record,
    record_seed,
    shown_step,
    unique,
    wizard_rounds,
)

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# What each game's board must show, by the CSS class of a part drawn from its view.
BOARD_PARTS = {
    "wizard": ["table.grid", ".trick, .muted"],
    "hobbit": ["table.grid", ".health"],
    "hats": [".tea-table .space", "table.grid"],
    "other-hat-trick": [".places .place", "table.grid"],
    "hat-trick": [".challenge, .muted", "table.grid"],
}


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_games_viewer_draws_its_board_at_every_step_without_an_error(
    site: str, page: Any, example: Any, game: str
) -> None:
    match = example(game)
    open_viewer(page, site, match.id, 1)
    seen = {shown_step(page)}
    while not page.is_disabled("#next"):
        page.keyboard.press("ArrowRight")
        seen.add(shown_step(page))
        assert page.text_content("#step-sentence").strip()
    assert seen == set(range(1, match.steps + 1))
    for selector in BOARD_PARTS[game]:
        assert page.locator(f"#board {selector}").count() > 0, selector
    assert page.locator("#chart svg[aria-label]").count() == 1
    assert page.locator("#events li").count() == match.steps


@pytest.mark.parametrize("game, seed", [("wizard", 3), ("hat-trick", 2), ("hobbit", 0)])
def test_longer_matches_step_through_from_end_to_start(site: str, page: Any, game: str, seed: int) -> None:
    match = record_seed(site, game, seed)
    open_viewer(page, site, match.id)
    for _ in range(40):
        page.keyboard.press("ArrowLeft")
    assert shown_step(page) == match.steps - 40
    page.keyboard.press("Home")
    assert shown_step(page) == 1


def in_progress(site: str) -> Recorded:
    """A Wizard match whose first round has started, bids still to come."""
    players = [unique("ann"), unique("bob")]
    script = {"players": players, "setup": {"first_dealer": players[0]}, "options": {}, "actions": []}
    match = record(site, "wizard", script)
    match.act(site, {"type": "start_round", "trump_card": "7H"})
    return match


def test_a_step_recorded_while_the_viewer_is_open_appears_without_a_reload(site: str, page: Any) -> None:
    match = in_progress(site)
    open_viewer(page, site, match.id)
    page.wait_for_selector("#live.on")
    page.evaluate("window.sameDocument = true")
    bob = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["players"][1]
    match.act(site, {"type": "bid", "player": bob, "tricks": 1})
    page.wait_for_function(f"document.getElementById('step').dataset.step === '{match.steps}'", timeout=5000)
    assert page.url.endswith(f"?step={match.steps}")
    assert f"{bob} bids 1" in page.text_content("#events")
    assert page.evaluate("window.sameDocument") is True


def test_a_viewer_looking_at_an_earlier_step_stays_there_while_steps_arrive(site: str, page: Any) -> None:
    match = in_progress(site)
    open_viewer(page, site, match.id, 1)
    page.wait_for_selector("#live.on")
    bob = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["players"][1]
    match.act(site, {"type": "bid", "player": bob, "tricks": 0})
    page.wait_for_selector(f"#events li[data-step='{match.steps}']", timeout=5000)
    assert shown_step(page) == 1
    page.keyboard.press("End")
    assert shown_step(page) == match.steps


def test_an_undo_recorded_live_marks_the_step_undone(site: str, page: Any) -> None:
    match = in_progress(site)
    bob = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["players"][1]
    match.act(site, {"type": "bid", "player": bob, "tricks": 1})
    open_viewer(page, site, match.id)
    page.wait_for_selector("#live.on")
    bid_step = match.steps
    headers = {"Authorization": f"Bearer {match.token}"}
    assert requests.post(f"{site}/v1/matches/{match.id}/undo", headers=headers, timeout=5).status_code == 201
    page.wait_for_selector(f"#events li.undone[data-step='{bid_step}']", timeout=5000)
    assert shown_step(page) == bid_step - 1


class Proxy:
    """A TCP relay between the browser and the server whose connections a test can cut."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.removeprefix("http://").split(":")
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.sent = bytearray()  # everything the browser sent, to read its requests' headers
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self.open += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_browser: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if from_browser:
                    self.sent += chunk
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def cut(self) -> None:
        """Drop every open connection, as a network failure would."""
        for end in self.open:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.open = []

    def close(self) -> None:
        """Stop relaying."""
        self.cut()
        self.listener.close()


def test_a_dropped_live_connection_resumes_with_the_steps_missed(site: str, page: Any, watched: Any) -> None:
    match = in_progress(site)
    players = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["players"]
    proxy = Proxy(site)
    try:
        open_viewer(page, proxy.url, match.id)
        page.wait_for_selector("#live.on")
        match.act(site, {"type": "bid", "player": players[1], "tricks": 1})
        page.wait_for_function(f"document.getElementById('step').dataset.step === '{match.steps}'")
        proxy.cut()
        page.wait_for_selector("#live.off")
        match.act(site, {"type": "bid", "player": players[0], "tricks": 0})
        match.act(site, {"type": "play", "player": players[1], "card": "2S"})
        page.wait_for_function(f"document.getElementById('step').dataset.step === '{match.steps}'")
        steps = page.eval_on_selector_all("#events li", "items => items.map(li => Number(li.dataset.step))")
        assert steps == list(range(1, match.steps + 1))
        assert f"Last-Event-ID: {match.steps - 2}".lower().encode() in bytes(proxy.sent).lower()
    finally:
        proxy.close()
    # The cut itself is logged by the browser as failed loads; anything else is still an error.
    watched.problems[:] = [p for p in watched.problems if "net::ERR_" not in p]


def test_the_last_step_recorded_live_finishes_the_match_on_the_page(site: str, page: Any) -> None:
    players = [unique("ann"), unique("bob")]
    script = wizard_rounds(players, 30)
    last = script["actions"].pop()
    match = record(site, "wizard", script)
    open_viewer(page, site, match.id)
    page.wait_for_selector("#live.on")
    assert "in progress" in page.text_content("#match-facts")
    match.act(site, last)
    page.wait_for_selector("#live.done")
    winners = requests.get(f"{site}/v1/matches/{match.id}", timeout=5).json()["winners"]
    page.wait_for_function("document.getElementById('match-facts').textContent.includes('Winners')")
    facts = page.text_content("#match-facts")
    assert "finished" in facts and all(w in facts for w in winners)
    assert shown_step(page) == match.steps
