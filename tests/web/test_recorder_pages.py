"""The new-match page and the recorder's page as a person meets them on a phone (375 px):
a form for every game built from its schemas, the write token kept on the device and handed on
in a link's fragment, and the recorder's own files (service worker, manifest) served."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests

from games.hat_trick.constants import PROPS
from games.registry import all_games
from tests.web.conftest import Watched, record, start, watching, wizard_rounds
from tests.web.recorder_support import create_with_form, no_sideways_scrolling, phone, record_path, settled

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
__all__ = ["phone"]


@pytest.mark.parametrize("game", sorted(all_games()))
def test_the_new_match_form_creates_each_games_example_match_and_opens_its_recorder(
    site: str, phone: Watched, game: str
) -> None:
    example = requests.get(f"{site}/v1/games/{game}", timeout=10).json()["example"]
    page = phone.page
    match_id = create_with_form(page, site, game, example["players"], example["setup"], example["options"])
    made = requests.get(f"{site}/v1/matches/{match_id}", timeout=10).json()
    assert made["game"] == game
    assert made["players"] == example["players"]
    created = requests.get(f"{site}/v1/matches/{match_id}/events", timeout=10).json()["events"][0]["data"]
    assert created["setup"] == example["setup"]
    assert {k: created["options"][k] for k in example["options"]} == example["options"]
    assert page.evaluate(f"localStorage.getItem('tabletape.token.{match_id}')")
    no_sideways_scrolling(page)


def test_players_in_any_script_take_their_seats_in_order_and_the_dealer_is_chosen_from_them(
    site: str, phone: Watched
) -> None:
    page = phone.page
    page.goto(f"{site}/new?game=wizard")
    page.wait_for_selector("input[name='players']")
    page.click("#add-seat")
    names = ["小明", "たろう", "Zoë"]
    for i, name in enumerate(names):
        page.locator("input[name='players']").nth(i).fill(name)
    offered = page.eval_on_selector_all(
        "select[name='setup.first_dealer'] option", "os => os.map(o => o.value)"
    )
    assert offered == ["", *names]
    page.select_option("select[name='setup.first_dealer']", "たろう")
    page.check("input[name='options.canadian_rule']")
    page.click("#create")
    page.wait_for_url("**/record")
    match_id = page.url.split("/")[-2]
    created = requests.get(f"{site}/v1/matches/{match_id}/events", timeout=10).json()["events"][0]["data"]
    assert created["players"] == names
    assert created["setup"] == {"first_dealer": "たろう"}
    assert created["options"]["canadian_rule"] is True
    settled(page)
    assert phone.problems == []


def test_a_problem_from_the_api_is_shown_in_words_and_nothing_is_created(site: str, phone: Watched) -> None:
    page = phone.page
    page.goto(f"{site}/new?game=wizard")
    page.wait_for_selector("input[name='players']")
    page.locator("input[name='players']").nth(0).fill("ann")
    page.click("#create")
    alert = page.locator("[role='alert']#problem")
    alert.wait_for()
    page.wait_for_function("document.getElementById('problem').textContent.length > 0")
    assert "2 to 6 players" in alert.text_content()
    assert page.url.endswith("/new?game=wizard")


def test_a_link_for_another_device_carries_the_token_in_its_fragment_and_leaves_the_address_bar(
    site: str, phone: Watched, browser: Any
) -> None:
    match = start(site, "wizard", wizard_rounds(["ann", "bob", "cy"], 0))
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    assert page.url == f"{site}{record_path(match.id)}"
    assert page.evaluate(f"localStorage.getItem('tabletape.token.{match.id}')") == match.token
    page.click("#hand-over")
    link = page.input_value("#hand-over-link")
    assert link == f"{site}{record_path(match.id)}#token={match.token}"
    other = browser.new_context(viewport={"width": 375, "height": 740})
    try:
        elsewhere = other.new_page()
        sent: list[str] = []
        elsewhere.on("request", lambda r: sent.append(r.url))
        elsewhere.goto(link)
        settled(elsewhere)
        assert elsewhere.evaluate(f"localStorage.getItem('tabletape.token.{match.id}')") == match.token
        assert "#" not in elsewhere.url
        assert not any(match.token in url for url in sent)
        assert elsewhere.is_hidden("#no-token")
    finally:
        other.close()


def test_without_its_token_the_recorder_says_it_cannot_record_and_offers_nothing(
    site: str, phone: Watched
) -> None:
    match = start(site, "wizard", wizard_rounds(["ann", "bob"], 0))
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}")
    settled(page)
    assert page.is_visible("#no-token")
    assert page.locator("[data-value], [data-submit]").count() == 0
    assert page.is_disabled("[data-action='undo']")


def test_the_recorder_of_a_match_that_does_not_exist_says_so_and_nothing_about_tokens(
    site: str, phone: Watched
) -> None:
    page = phone.page
    page.goto(f"{site}{record_path('no-such-match')}")
    page.wait_for_function("document.getElementById('alert').textContent !== ''")
    assert "there is no match 'no-such-match'" in (page.text_content("#alert") or "")
    assert page.is_hidden("#no-token")
    assert page.locator("[data-value], [data-submit]").count() == 0
    phone.problems.clear()  # the browser logs the API's 404 itself; it is the answer expected here


def test_the_viewer_never_shows_the_token_the_recorder_keeps(site: str, phone: Watched) -> None:
    match = start(site, "wizard", wizard_rounds(["ann", "bob"], 0))
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    page.click("#viewer-link")
    page.wait_for_url(f"**/matches/{match.id}")
    page.wait_for_selector("#layout:not([hidden])")
    assert match.token not in page.content()


def test_the_service_worker_and_the_manifest_are_served_for_the_whole_site(site: str) -> None:
    worker = requests.get(f"{site}/sw.js", timeout=5)
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Service-Worker-Allowed"] == "/"
    manifest = requests.get(f"{site}/manifest.webmanifest", timeout=5).json()
    assert manifest["start_url"] == "/new"
    for icon in manifest["icons"]:
        assert requests.get(f"{site}{icon['src']}", timeout=5).status_code == 200
    kept = re.findall(r'^\s+"(/[^"]*)",?$', worker.text, re.MULTILINE)
    assert "/assets/js/recorder/record.js" in kept
    for path in kept:
        assert requests.get(f"{site}{path}", timeout=5).status_code == 200, path
    for path in ("/new", "/matches/abc/record"):
        page = requests.get(f"{site}{path}", timeout=5)
        assert page.status_code == 200
        assert 'rel="manifest"' in page.text


def test_a_long_score_sheet_keeps_its_close_in_sight_and_a_tap_outside_closes_it(
    site: str, phone: Watched
) -> None:
    match = record(site, "wizard", wizard_rounds(["ann", "bob", "cy"], 12))
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    page.click("#sheet-open")
    page.wait_for_selector("#sheet-body .sheet-body")
    sheet = page.locator("#sheet")
    assert sheet.evaluate("d => d.scrollHeight > d.clientHeight"), "twelve rounds do not fit a phone"
    sheet.evaluate("d => { d.scrollTop = d.scrollHeight; }")
    close = page.locator("#sheet-close")
    box, shown = close.bounding_box(), sheet.bounding_box()
    assert box is not None and shown is not None and box["y"] >= shown["y"] and box["y"] < shown["y"] + 80
    close.click()
    assert not sheet.is_visible()
    page.click("#sheet-open")
    page.wait_for_selector("#sheet-body .sheet-body")
    # A tap inside the sheet leaves it open; one on the backdrop around it closes it.
    page.click("#sheet-heading")
    assert sheet.is_visible()
    page.mouse.click(3, 3)
    page.wait_for_function("!document.getElementById('sheet').open")
    assert phone.problems == []


def test_a_hat_trick_card_can_be_sent_only_once_it_is_a_card_that_exists(site: str, phone: Watched) -> None:
    # A card shows at least one prop, a prop is in colour or grey but not both, and a star sits
    # on a prop the card shows: the page holds Send back until the taps make such a card.
    script = {"players": ["ann", "bob"], "setup": {}, "options": {"stars": "contain"}}
    match = start(site, "hat-trick", script)
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    reveal = page.locator("#choices .entry[data-entry='reveal']")
    send = reveal.locator("[data-submit='reveal']")

    def tap(field: str, value: str) -> None:
        reveal.locator(f"[data-field='{field}'][data-value='{value}']").click()

    def enabled(field: str, value: str) -> bool:
        return bool(reveal.locator(f"[data-field='{field}'][data-value='{value}']").is_enabled())

    tap("card", "9")
    assert send.is_disabled(), "a card that shows no prop does not exist"
    assert not enabled("starred", "hat"), "a star on a prop the card does not show"
    tap("colour", "hat")
    assert send.is_enabled()
    assert not enabled("grey", "hat") and enabled("grey", "coin")
    tap("starred", "hat")
    assert not enabled("starred", "rabbit")
    # Taking the hat off the card takes its star off too, and leaves a card with no prop.
    tap("colour", "hat")
    assert reveal.locator("[data-field='starred'][data-value='hat']").get_attribute("aria-pressed") == "false"
    assert send.is_disabled()
    tap("grey", "coin")
    tap("starred", "coin")
    send.click()
    page.wait_for_function("document.getElementById('recorder').dataset.version === '2'")
    events = requests.get(f"{site}/v1/matches/{match.id}/events", timeout=10).json()["events"]
    assert events[-1]["type"] == "CardRevealed"
    assert {k: events[-1]["data"][k] for k in ("card", "colour", "grey", "starred")} == {
        "card": 9,
        "colour": [],
        "grey": ["coin"],
        "starred": ["coin"],
    }
    assert phone.problems == []


def spelled(value: dict[str, str]) -> str:
    """A placement as the page's data-value spells it (the API's JSON, keys in order)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_a_hat_trick_stack_is_built_from_the_table_up_and_the_rules_judge_it(
    site: str, phone: Watched
) -> None:
    # A stack is offered as it can be built: first the props that can stand on the table, then
    # what can rest on or in the props placed, each prop once. Taking a prop off takes what
    # rested on it too. The stack sent is judged by the rules: a pass wins the card.
    match = start(site, "hat-trick", {"players": ["ann", "bob"], "setup": {}, "options": {}})
    match.act(site, {"type": "reveal", "card": 7, "colour": ["hat"], "grey": ["coin"]})
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    ann = page.locator("#choices .entry[data-entry='declare'][data-player='ann']")
    placements = ann.locator("[data-field='stack']")

    def offered() -> list[str]:
        shown = placements.evaluate_all("bs => bs.filter(b => !b.hidden).map(b => b.dataset.value)")
        return sorted(spelled(json.loads(v)) for v in shown)

    def tap(value: dict[str, str]) -> None:
        ann.locator(f"[data-field='stack'][data-value='{spelled(value)}']").click()

    on_table = sorted(spelled({"prop": p, "on": "table"}) for p in PROPS)
    assert offered() == on_table
    tap({"prop": "goblet", "on": "table"})
    shown = [json.loads(v) for v in offered()]
    assert {"prop": "goblet", "on": "table"} in shown
    onto = [v for v in shown if v.get("on") != "table"]
    assert onto and all(v["prop"] != "goblet" and v.get("on", v.get("in")) == "goblet" for v in onto)
    assert not any(v.get("on") == "table" and v["prop"] != "goblet" for v in shown), "one prop on the table"
    tap({"prop": "rabbit", "in": "goblet"})
    tap({"prop": "coin", "on": "rabbit"})
    # The goblet taken off: what rested in it and on that goes with it.
    tap({"prop": "goblet", "on": "table"})
    assert offered() == on_table
    assert ann.locator("[data-field='stack'][aria-pressed='true']").count() == 0
    # The card: the hat in colour, the coin in grey. The hat on the table, the coin in it: a pass.
    tap({"prop": "hat", "on": "table"})
    tap({"prop": "coin", "in": "hat"})
    no_sideways_scrolling(page)
    ann.locator("[data-submit='declare']").click()
    page.wait_for_function("Number(document.getElementById('recorder').dataset.version) > 2")
    events = requests.get(f"{site}/v1/matches/{match.id}/events", timeout=10).json()["events"]
    declared = next(e for e in events if e["type"] == "DeclarationMade")
    assert declared["data"]["player"] == "ann"
    assert sorted(map(spelled, declared["data"]["stack"])) == sorted(
        map(spelled, [{"prop": "hat", "on": "table"}, {"prop": "coin", "in": "hat"}])
    )
    scores = requests.get(f"{site}/v1/matches/{match.id}/scores", timeout=10).json()
    assert scores["totals"]["ann"] == 1, scores
    assert phone.problems == []


def test_a_step_recorded_on_another_device_brings_its_choices_without_a_reload(
    site: str, phone: Watched
) -> None:
    # The table's phone waits on "start the round"; a seat's phone (here the API) records it: the
    # bids appear on the table's phone by themselves, and it says why its choices changed.
    match = start(
        site, "wizard", {"players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, "options": {}}
    )
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    assert page.locator("[data-entry='bid']").count() == 0
    match.act(site, {"type": "start_round", "trump_card": "7H"})
    page.wait_for_function(f"document.getElementById('recorder').dataset.version === '{match.steps}'")
    settled(page)
    assert page.locator("[data-entry='bid']").count() == 1
    assert page.locator("[data-entry='start_round']").count() == 0
    assert str(match.steps) in page.text_content("#status")
    undo = page.text_content("[data-action='undo']") or ""
    assert "Undo" in undo and "7" in undo, undo
    assert phone.problems == []


def test_a_long_undo_sentence_on_a_320_px_phone_leaves_the_last_choice_above_the_bar(
    site: str, browser: Any
) -> None:
    # The trick's last card wins it and scores the round: "Undo: cy: play a card 3♥ (then trick
    # won and round scored)" is long. The bar stays short enough that the page's last choice can be
    # scrolled clear of it, and the whole sentence is still the button's title.
    match = start(
        site, "wizard", {"players": ["ann", "bob", "cy"], "setup": {"first_dealer": "ann"}, "options": {}}
    )
    hands = {"ann": ["5C"], "bob": ["AS"], "cy": ["3H"]}
    match.act(site, {"type": "start_round", "trump_card": "7H", "hands": hands})
    for player in ("bob", "cy", "ann"):
        match.act(site, {"type": "bid", "player": player, "tricks": 0})
    for player in ("bob", "cy"):
        match.act(site, {"type": "play", "player": player, "card": hands[player][0]})
    match.act(site, {"type": "play", "player": "ann", "card": "5C"})
    with watching(
        browser, 15_000, viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True
    ) as seen:
        page = seen.page
        page.goto(f"{site}{record_path(match.id)}#token={match.token}")
        settled(page)
        undo = page.locator("[data-action='undo']")
        said = undo.text_content() or ""
        assert "then" in said and undo.get_attribute("title") == said, said
        bar = page.eval_on_selector(".action-bar", "b => b.getBoundingClientRect().height")
        free = page.eval_on_selector("#recorder", "r => parseFloat(getComputedStyle(r).paddingBottom)")
        assert bar <= free, (bar, free)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        last = page.eval_on_selector_all(
            "#recorder > *:not(.action-bar):not(dialog):not([hidden])",
            "es => Math.max(...es.map(e => e.getBoundingClientRect().bottom))",
        )
        top = page.eval_on_selector(".action-bar", "b => b.getBoundingClientRect().top")
        assert last <= top + 1, (last, top)
        no_sideways_scrolling(page)
        assert seen.problems == []
