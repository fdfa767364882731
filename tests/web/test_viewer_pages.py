"""The index page and the viewer's step controls, in a real Chromium against `tabletape serve`."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from tests.web.conftest import (
    open_viewer,
    record,
    record_seed,
    shown_step,
    unique,
    viewer_path,
    wait_for_viewer,
    wizard_rounds,
)

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def listed(site: str, match_id: str, **filters: str) -> None:
    """Wait until the workers have indexed a match under these filters (projection is async)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page = requests.get(f"{site}/v1/matches", params={**filters, "limit": 200}, timeout=5).json()
        if match_id in {m["id"] for m in page["matches"]}:
            return
        time.sleep(0.1)
    raise AssertionError(f"match {match_id} was not indexed under {filters}")


def test_index_lists_a_players_matches_newest_first_each_linking_to_its_viewer(site: str, page: Any) -> None:
    ann = unique("ann")
    older = record(site, "wizard", wizard_rounds([ann, "bob", "cy"], 1))
    newer = record(site, "wizard", wizard_rounds([ann, "dee", "eli"], 2))
    listed(site, older.id, player=ann)
    listed(site, newer.id, player=ann)
    page.goto(f"{site}/?player={ann}")
    page.wait_for_selector(".match")
    hrefs = page.eval_on_selector_all(".match-link", "links => links.map(a => a.getAttribute('href'))")
    assert hrefs == [viewer_path(newer.id), viewer_path(older.id)]
    page.click(f"a[href='{viewer_path(older.id)}']")
    wait_for_viewer(page)
    assert page.url.startswith(f"{site}{viewer_path(older.id)}")
    page.click(f"#match-facts a:text-is('{ann}')")
    page.wait_for_selector(f"#matches[data-query*='player={ann}']")
    assert page.locator(".match").count() == 2


def test_index_filters_by_game_and_by_player(site: str, page: Any, example: Any) -> None:
    cy = unique("cy")
    wizard = record(site, "wizard", wizard_rounds([cy, "bob"], 1))
    hats = example("hats")
    listed(site, wizard.id, player=cy)
    listed(site, hats.id, game="hats")
    page.goto(f"{site}/")
    page.wait_for_selector(".match")
    page.select_option("#filter-game", "hats")
    page.wait_for_selector("#matches[data-query*='game=hats']")
    assert page.locator(f"a[href='{viewer_path(hats.id)}']").count() == 1
    assert "game=hats" in page.url
    games = page.eval_on_selector_all(".match-link strong", "names => names.map(n => n.textContent)")
    assert set(games) == {"Hats"}
    page.select_option("#filter-game", "")
    page.fill("#filter-player", cy)
    page.click("#filters button")
    page.wait_for_selector(f"#matches[data-query*='player={cy}']")
    assert page.locator(".match").count() == 1
    assert page.get_attribute(".match-link", "href") == viewer_path(wizard.id)


def test_a_typed_match_id_opens_its_viewer(site: str, page: Any, example: Any) -> None:
    match = example("hat-trick")
    page.goto(f"{site}/")
    page.fill("#open-id", match.id)
    page.press("#open-id", "Enter")
    wait_for_viewer(page)
    assert page.url == f"{site}{viewer_path(match.id)}?step={match.steps}"


def test_an_unknown_match_says_so(site: str, page: Any, watched: Any) -> None:
    page.goto(f"{site}/matches/no-such-match")
    page.wait_for_selector("#load-status.error")
    assert "There is no match no-such-match" in page.text_content("#load-status")
    # No empty board, step controls or share button for a match that is not there: the way back.
    for hidden in ("#layout", "#first", "#share", "#download-ndjson"):
        assert not page.locator(hidden).is_visible(), hidden
    page.click("#load-status a[href='/']")
    page.wait_for_selector("#matches")
    watched.problems.clear()  # the browser logs the API's 404 itself; it is the answer expected here


def test_a_deep_link_shows_that_step(site: str, page: Any, example: Any) -> None:
    match = example("other-hat-trick")
    open_viewer(page, site, match.id, 5)
    assert shown_step(page) == 5
    assert page.get_attribute("#events li[aria-current]", "data-step") == "5"
    page.reload()
    wait_for_viewer(page)
    assert shown_step(page) == 5


def test_keys_move_one_step_or_to_either_end_and_the_url_follows(site: str, page: Any, example: Any) -> None:
    match = example("other-hat-trick")
    open_viewer(page, site, match.id, 5)
    moves = (("ArrowRight", 6), ("ArrowLeft", 5), ("ArrowLeft", 4), ("End", match.steps), ("Home", 1))
    for key, step in moves:
        page.keyboard.press(key)
        assert shown_step(page) == step
        assert page.url.endswith(f"?step={step}")
    page.go_back()
    page.wait_for_function(f"document.getElementById('step').dataset.step === '{match.steps}'")


def test_buttons_and_slider_move_through_the_steps(site: str, page: Any, example: Any) -> None:
    match = example("hats")
    open_viewer(page, site, match.id)
    assert shown_step(page) == match.steps
    assert page.is_disabled("#next") and page.is_disabled("#last")
    page.click("#prev")
    assert shown_step(page) == match.steps - 1
    page.click("#first")
    assert shown_step(page) == 1 and page.is_disabled("#prev")
    page.fill("#slider", "3")
    assert shown_step(page) == 4
    page.click("#events a[data-step='7']")
    assert shown_step(page) == 7 and page.url.endswith("?step=7")


def test_the_chart_is_an_svg_whose_label_names_the_scores_at_the_step(site: str, page: Any) -> None:
    match = record(site, "wizard", wizard_rounds(["ann", "bob", "cy"], 3))
    deadline = time.monotonic() + 10
    # The scoreboard is a projection: it reaches the last write once a worker has run.
    while (scores := requests.get(f"{site}/v1/matches/{match.id}/scores", timeout=5).json())["version"] < (
        scores["log_version"]
    ):
        assert time.monotonic() < deadline, scores
        time.sleep(0.02)
    open_viewer(page, site, match.id)
    label = page.get_attribute("#chart svg", "aria-label")
    for player, total in scores["totals"].items():
        assert f"{player} {total}" in label
    assert "round 3" in label
    page.keyboard.press("Home")
    assert page.get_attribute("#chart svg", "aria-label") == "Total points: ann 0, bob 0, cy 0 after round 0"


def test_player_names_are_shown_as_text_never_as_markup(site: str, page: Any) -> None:
    name = '<img src=x onerror="window.pwned=1">'
    match = record(site, "wizard", wizard_rounds([name, "bob"], 1))
    open_viewer(page, site, match.id)
    assert page.locator("#viewer img").count() == 0
    assert name in page.text_content("#match-facts")
    assert page.evaluate("window.pwned") is None


def test_undone_steps_are_marked_and_the_raw_log_lists_the_corrections(site: str, page: Any) -> None:
    match = record(site, "wizard", wizard_rounds(["ann", "bob"], 2))
    headers = {"Authorization": f"Bearer {match.token}"}
    assert requests.post(f"{site}/v1/matches/{match.id}/undo", headers=headers, timeout=5).status_code == 201
    open_viewer(page, site, match.id)
    undone = page.eval_on_selector_all("#events li.undone", "items => items.map(li => li.dataset.step)")
    assert undone and all(int(step) > 3 for step in undone)
    assert page.locator("#events li.correction").count() == 0
    page.check("#raw")
    assert page.locator("#events li.correction").count() == 1
    assert page.url.endswith("raw=1")


@pytest.mark.parametrize("width", [375, 640])  # a phone; a 1280-pixel screen at 200 % zoom
def test_on_a_narrow_screen_the_page_fits_without_sideways_scrolling(
    site: str, browser: Any, example: Any, width: int
) -> None:
    match = example("wizard")
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    open_viewer(phone, site, match.id)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


def test_the_controls_are_reachable_by_keyboard_and_show_focus(site: str, page: Any, example: Any) -> None:
    match = example("hobbit")
    open_viewer(page, site, match.id, 2)
    page.focus("#slider")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "next"
    page.keyboard.press("Enter")
    assert shown_step(page) == 3
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


def test_a_round_or_trick_is_one_choice_away(site: str, page: Any) -> None:
    match = record_seed(site, "wizard", 3)
    frames = requests.get(f"{site}/v1/matches/{match.id}/replay", params={"limit": 1000}, timeout=30).json()
    third = next(
        f
        for f in frames["frames"]
        if f["event"]["type"] == "RoundStarted" and f["event"]["data"]["round"] == 3
    )
    open_viewer(page, site, match.id, 1)
    page.select_option("#jump", label=f"Round 3 starts (step {third['step']})")
    assert shown_step(page) == third["step"]
    assert page.url.endswith(f"?step={third['step']}")
    assert "Round3of" in page.text_content("#board .facts").replace(" ", "")
    page.click("#next")
    page.click("#next")
    assert shown_step(page) == third["step"] + 2
    assert page.locator("#jump option:checked").text_content().startswith("Round 3 starts")


def test_the_header_says_where_and_in_which_time_zone_and_one_step_is_one_step(site: str, page: Any) -> None:
    body = {"game": "wizard", "players": [unique("ann"), "bob"], "setup": {"first_dealer": "bob"}}
    body |= {"location": "The Crooked Billet", "timezone": "Europe/Berlin"}
    made = requests.post(f"{site}/v1/matches", json=body, timeout=10).json()
    open_viewer(page, site, made["id"])
    facts = page.text_content("#match-facts")
    assert "LocationThe Crooked Billet" in facts and "Time zoneEurope/Berlin" in facts
    listed(site, made["id"], player=body["players"][0])
    page.goto(f"{site}/?player={body['players'][0]}")
    page.wait_for_selector(".match")
    assert " · 1 step" in page.text_content(".match") and "1 steps" not in page.text_content(".match")
