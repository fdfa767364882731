"""Each player's own phone: the table's recorder hands out a link and a QR code per seat, and a
Wizard round with simultaneous bidding is bid from four phones, each bid its owner's until all
are in; checked in every browser context and on the API with every kind of reader."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from games.registry import get_game
from tests.web.conftest import Watched, start
from tests.web.recorder_support import PHONE, moved_on, phone, record_path, settled

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
__all__ = ["phone"]

PLAYERS = ["ann", "bob", "cy", "dee"]
HANDS = {"ann": ["AS"], "bob": ["KS"], "cy": ["3H"], "dee": ["4C"]}
BIDS = {"bob": 1, "cy": 0, "dee": 0, "ann": 1}


def bids_read(site: str, match_id: str, token: str | None) -> dict[str, Any]:
    """The bids the log shows one reader (None: the public)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    events = requests.get(f"{site}/v1/matches/{match_id}/events", headers=headers, timeout=10).json()[
        "events"
    ]
    return {e["data"]["player"]: e["data"]["tricks"] for e in events if e["type"] == "BidPlaced"}


def seat_phone(browser: Any, site: str, link: str) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(link)
    settled(page)
    page.problems = problems
    return page


def test_four_phones_bid_in_secret_and_the_table_sees_bid_entered_until_all_are_in(
    site: str, phone: Watched, browser: Any
) -> None:
    script = {"players": PLAYERS, "setup": {"first_dealer": "ann"}, "options": {"bidding": "simultaneous"}}
    match = start(site, "wizard", script)
    match.act(site, {"type": "start_round", "trump_card": "7H", "hands": HANDS})
    table = phone.page
    table.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(table)
    links = {}
    for player in PLAYERS:
        # A seat's button spans the phone's width, its words on one line (a tap target, not a column).
        button = table.locator(f"#seats button:has-text('Link for {player}')")
        box = button.bounding_box()
        assert box is not None and box["width"] > PHONE["width"] * 0.8 and box["height"] < 64, box
        button.click()
        row = table.locator(f"[data-seat-of='{player}']")
        row.locator("img.seat-qr").wait_for()
        table.wait_for_function(
            "p => document.querySelector(`[data-seat-of='${p}'] img`).naturalWidth > 0", arg=player
        )
        links[player] = row.locator("input").input_value()
        assert links[player].startswith(f"{site}/matches/{match.id}/seat/{player}#token=")
    svg = requests.post(f"{site}/qr.svg", json={"link": links["ann"]}, timeout=10)
    assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
    assert requests.post(f"{site}/qr.svg", json={"link": ""}, timeout=10).status_code == 400
    tokens = {p: link.split("#token=")[1] for p, link in links.items()}
    phones = {p: seat_phone(browser, site, links[p]) for p in PLAYERS}
    try:
        for player, page in phones.items():
            # The token left the address bar for this phone's storage; the phone offers its own bid only.
            assert "#token" not in page.url
            assert page.evaluate(f"localStorage.getItem('tabletape.seat.{match.id}')") == tokens[player]
            offered = page.eval_on_selector_all(
                "#choices [data-entry]", "es => es.map(e => e.dataset.player)"
            )
            assert offered == [player]
            assert page.is_hidden("#seats") and page.is_hidden("#hand-over")
            hands = page.evaluate(
                f"fetch('/v1/matches/{match.id}/state', {{headers: {{Authorization: "
                f"'Bearer ' + localStorage.getItem('tabletape.seat.{match.id}')}}}}).then(r => r.json())"
            )["state"]["hands"]
            assert hands == {p: HANDS[p] if p == player else [None] for p in PLAYERS}
        # A seat's token acting for another seat is refused.
        other = requests.post(
            f"{site}/v1/matches/{match.id}/actions",
            json={"type": "bid", "player": "cy", "tricks": 1},
            headers={"Authorization": f"Bearer {tokens['bob']}"},
            timeout=10,
        )
        assert other.status_code == 403 and other.json()["code"] == "not_your_seat"
        for player in ["bob", "cy", "dee"]:
            page = phones[player]
            before = page.get_attribute("#recorder", "data-version")
            page.click(f"[data-action='bid'][data-player='{player}'][data-value='{BIDS[player]}']")
            moved_on(page, before)
        entered = {p: BIDS[p] for p in ["bob", "cy", "dee"]}
        # Before the last bid: each seat reads its own bid only; the table and the public none.
        for player in PLAYERS:
            seen = bids_read(site, match.id, tokens[player])
            assert seen == {p: BIDS[p] if p == player else None for p in entered}, player
        assert bids_read(site, match.id, match.token) == dict.fromkeys(entered)
        assert bids_read(site, match.id, None) == dict.fromkeys(entered)
        table.reload()
        settled(table)
        line = table.text_content("#bids-line") or ""
        assert "bob: bid entered" in line and "ann: not yet" in line
        for player, page in phones.items():
            page.reload()
            settled(page)
            text = page.text_content("#recorder") or ""
            assert "bid entered" in text or player == "ann"
            assert not any(f"{p}: {BIDS[p]}" in text for p in entered if p != player)
        before = phones["ann"].get_attribute("#recorder", "data-version")
        phones["ann"].click(f"[data-action='bid'][data-player='ann'][data-value='{BIDS['ann']}']")
        moved_on(phones["ann"], before)
        # All bids in: revealed together, to every reader.
        for token in [*tokens.values(), match.token, None]:
            assert bids_read(site, match.id, token) == BIDS
        events = requests.get(f"{site}/v1/matches/{match.id}/events", timeout=10).json()["events"]
        assert [e["data"]["bids"] for e in events if e["type"] == "BidsRevealed"] == [BIDS]
        assert all(page.problems == [] for page in phones.values())
        assert phone.problems == []
    finally:
        for page in phones.values():
            page.context.close()


def test_a_seat_whose_player_decides_what_the_table_records_is_told_so(site: str, browser: Any) -> None:
    # The Hobbit: ann won the trick and decides where its cards go; the distribution is the
    # table's to record. Her phone says so instead of "ann to act" over an empty page.
    match = start(
        site,
        "hobbit",
        {
            "players": ["ann", "bob"],
            "setup": {"characters": {"ann": "gandalf", "bob": "smaug"}},
            "options": {},
        },
    )
    match.act(site, {"type": "start_round", "leader": "ann"})
    match.act(site, {"type": "play", "player": "ann", "card": "red-1", "mark": "pipe"})
    match.act(site, {"type": "play", "player": "bob", "card": "yellow-2", "mark": "light"})
    headers = {"Authorization": f"Bearer {match.token}"}
    link = requests.post(f"{site}/v1/matches/{match.id}/seats/ann", headers=headers, timeout=10).json()[
        "link"
    ]
    page = seat_phone(browser, site, f"{site}{link}")
    try:
        assert page.locator("#choices .entry").count() == 0
        assert "ann decides now, and the table's phone records it." in page.text_content("#choices")
        assert page.problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("game", "options", "bids_said"),
    [("wizard", {"bidding": "secret"}, True), ("wizard", {}, False), ("hats", {}, False)],
    ids=["wizard-secret-bids", "wizard-bids-in-turn", "hats"],
)
def test_the_seats_panel_speaks_of_a_secret_bid_only_where_the_bids_are_hidden(
    site: str, phone: Watched, game: str, options: dict[str, Any], bids_said: bool
) -> None:
    script = get_game(game).example(0)
    if game == "wizard":
        script = {"players": PLAYERS, "setup": {"first_dealer": "ann"}, "options": options}
    match = start(site, game, script)
    page = phone.page
    page.goto(f"{site}{record_path(match.id)}#token={match.token}")
    settled(page)
    said = page.locator("#seats p.muted:visible").all_text_contents()
    assert len(said) == 1 and "record their own actions" in said[0], said
    assert ("secret bid" in said[0]) is bids_said, said
    assert phone.problems == []
