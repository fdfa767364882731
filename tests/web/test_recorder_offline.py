"""The recorder at a table with bad Wi-Fi: actions tapped offline wait in the browser, survive a
reload, and go out in order once the network is back, each recorded once; a match that moved on
meanwhile is explained and re-applied by the table, never dropped silently."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Watched, start
from tests.web.recorder_support import api_log, phone, record_path, settled, tap_first

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
__all__ = ["phone"]


def simultaneous_wizard(site: str) -> Any:
    """A Wizard match whose bids come in any order: several are legal at once."""
    script = {
        "players": ["ann", "bob", "cy"],
        "setup": {"first_dealer": "ann"},
        "options": {"bidding": "simultaneous"},
    }
    return start(site, "wizard", script)


def dealt_wizard(site: str) -> Any:
    """A simultaneous-bidding Wizard match with its first round dealt (trump: seven of hearts)."""
    match = simultaneous_wizard(site)
    match.act(site, {"type": "start_round", "trump_card": "7H"})
    return match


def open_controlled(page: Any, site: str, match: Any) -> None:
    """Open the recorder with its token and wait until the service worker keeps the page."""
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")


def bid(page: Any, player: str) -> None:
    """Tap a player's first legal bid."""
    page.locator(f"[data-action='bid'][data-player='{player}'][data-field='tricks']").first.click()


def queued(page: Any) -> int:
    """The count of waiting actions the page shows."""
    return int(page.text_content("[data-queue]"))


def wait_for_queue(page: Any, count: int) -> None:
    """Wait until the page shows this many waiting actions."""
    page.wait_for_function(f"document.querySelector('[data-queue]').textContent === '{count}'")


def one_bid_queued_offline(page: Any, site: str, player: str) -> Any:
    """A dealt match opened on the phone, taken offline, with one player's bid waiting in the queue."""
    match = dealt_wizard(site)
    open_controlled(page, site, match)
    page.context.set_offline(True)
    bid(page, player)
    wait_for_queue(page, 1)
    return match


def bidders(site: str, match_id: str) -> list[str]:
    """The players whose bids the match's log holds, in order."""
    return [e["data"]["player"] for e in api_log(site, match_id) if e["type"] == "BidPlaced"]


def test_bids_tapped_offline_survive_a_reload_and_are_recorded_once_in_order_online(
    site: str, phone: Watched
) -> None:
    page, context = phone.page, phone.page.context
    match = simultaneous_wizard(site)
    open_controlled(page, site, match)
    tap_first(page, ("start_round",))
    page.wait_for_selector("#status[data-state='recorded']")
    settled(page)
    context.set_offline(True)
    bid(page, "ann")
    wait_for_queue(page, 1)
    assert "Offline" in page.text_content("#offline")
    assert page.locator("[data-action='bid'][data-player='ann']").count() == 0
    bid(page, "bob")
    wait_for_queue(page, 2)
    page.reload()
    settled(page)
    assert queued(page) == 2
    bid(page, "cy")
    wait_for_queue(page, 3)
    assert page.get_attribute("#status", "data-state") == "queued"
    context.set_offline(False)
    wait_for_queue(page, 0)
    page.wait_for_selector("#status[data-state='recorded']")
    assert "All 3 waiting actions are recorded" in page.text_content("#status")
    assert bidders(site, match.id) == ["ann", "bob", "cy"]
    assert phone.problems == []


def test_a_match_moved_on_by_another_device_is_explained_and_the_table_re_applies_its_queue(
    site: str, phone: Watched
) -> None:
    page, context = phone.page, phone.page.context
    match = one_bid_queued_offline(page, site, "ann")
    match.act(site, {"type": "bid", "player": "cy", "tricks": 1})
    context.set_offline(False)
    page.wait_for_selector("#conflict:not([hidden])")
    assert "Another device recorded" in page.text_content("#conflict")
    assert queued(page) == 1
    page.click("[data-resolve='reapply']")
    wait_for_queue(page, 0)
    settled(page)
    assert bidders(site, match.id) == ["cy", "ann"]
    assert phone.problems == []


def test_a_tap_on_a_step_another_device_passed_stops_sending_and_discarding_it_leaves_nothing_waiting(
    site: str, phone: Watched
) -> None:
    page = phone.page
    match = dealt_wizard(site)
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)

    def another_device_first(route: Any) -> None:
        # cy's bid, recorded on another phone just before ann's tap reaches the server.
        match.act(site, {"type": "bid", "player": "cy", "tricks": 1})
        route.continue_()

    page.route("**/actions/batch", another_device_first, times=1)
    bid(page, "ann")
    page.wait_for_selector("#conflict:not([hidden])")
    settled(page)
    assert page.get_attribute("#status", "data-state") == "queued"
    assert "Sending" not in page.text_content("#status")
    assert "1 waiting" in page.text_content("#status")
    page.click("[data-resolve='discard']")
    wait_for_queue(page, 0)
    settled(page)
    assert page.is_hidden("#conflict")
    assert page.get_attribute("#status", "data-state") == "idle"
    assert "Sending" not in page.text_content("#status")
    assert bidders(site, match.id) == ["cy"]
    assert phone.problems == []


def test_an_action_tapped_offline_is_taken_back_by_undo_before_it_is_ever_sent(
    site: str, phone: Watched
) -> None:
    page, context = phone.page, phone.page.context
    match = one_bid_queued_offline(page, site, "bob")
    assert "not sent yet" in page.text_content("[data-action='undo']")
    page.click("[data-action='undo']")
    wait_for_queue(page, 0)
    context.set_offline(False)
    settled(page)
    assert not bidders(site, match.id)


def test_a_server_without_the_batch_endpoint_gets_the_queue_one_write_at_a_time(
    site: str, phone: Watched
) -> None:
    page, context = phone.page, phone.page.context
    match = dealt_wizard(site)
    page.route(
        "**/actions/batch",
        lambda route: route.fulfill(status=404, json={"status": 404, "title": "Not Found"}),
    )
    open_controlled(page, site, match)
    context.set_offline(True)
    for player in ("cy", "ann"):
        bid(page, player)
    wait_for_queue(page, 2)
    context.set_offline(False)
    wait_for_queue(page, 0)
    page.wait_for_selector("#status[data-state='recorded']")
    assert bidders(site, match.id) == ["cy", "ann"]
    assert [p for p in phone.problems if "404" not in p] == []
