"""Sharing a match: the link of the step shown, the embed for an iframe, and the downloads."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.web.conftest import open_viewer, record, shown_step, viewer_path, wait_for_viewer, wizard_rounds

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def test_share_copies_the_link_of_the_step_shown(site: str, browser: Any, example: Any) -> None:
    match = example("hats")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    try:
        page = context.new_page()
        open_viewer(page, site, match.id, 3)
        page.click("#share")
        page.wait_for_selector("#share-status:has-text('Link copied')")
        assert page.evaluate("navigator.clipboard.readText()") == f"{site}{viewer_path(match.id, 3)}"
    finally:
        context.close()


def test_an_embed_shows_board_controls_and_chart_and_keeps_its_step_in_the_fragment(
    site: str, page: Any, example: Any
) -> None:
    match = example("other-hat-trick")
    page.set_viewport_size({"width": 320, "height": 600})
    page.goto(f"{site}/embed/{match.id}#step=4")
    wait_for_viewer(page)
    assert shown_step(page) == 4
    assert page.locator("#board .places").count() == 1 and page.locator("#chart svg").count() == 1
    assert page.locator("header.site, #events, #match-facts").count() == 0
    entries = page.evaluate("history.length")
    page.click("#next")
    assert shown_step(page) == 5 and page.url.endswith("#step=5")
    assert page.evaluate("history.length") == entries  # moves never add to the host page's history
    assert page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")
    assert page.get_attribute("#full", "href") == viewer_path(match.id, 5)


def test_a_finished_match_offers_every_download_and_an_unfinished_one_its_log(site: str, page: Any) -> None:
    script = wizard_rounds(["ann", "bob"], 2)
    playing = record(site, "wizard", {**script, "actions": script["actions"][:1]})
    open_viewer(page, site, playing.id)
    assert page.is_visible("#download-ndjson") and not page.is_visible("#download-bgstats")
    done = record(site, "wizard", wizard_rounds(["ann", "bob", "cy"], 20))
    open_viewer(page, site, done.id)
    for link in ("#download-ndjson", "#download-bgstats", "#open-bgstats"):
        assert page.is_visible(link), link
        answer = requests.get(f"{site}{page.get_attribute(link, 'href')}", timeout=10)
        assert answer.status_code == 200, link
    with page.expect_download() as got:
        page.click("#download-ndjson")
    assert got.value.suggested_filename == f"{done.id}.ndjson"
