"""Every figure the viewer shows is the API's own: the board, the chart's legend and the score sheet
agree with GET /scores at the last step and with the view (GET /replay) at earlier steps."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.web.conftest import open_viewer, record, record_seed, wizard_rounds

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# The board's column of each player's points, and the view's figure it must show.
POINTS_COLUMN = {"wizard": "Total", "hats": "Points", "other-hat-trick": "Points", "hat-trick": "Points"}


def view_points(game: str, state: dict[str, Any]) -> dict[str, int]:
    """Each player's points as the view gives them at a step."""
    if game == "hats":
        return {p: row["total"] for p, row in state["points"].items()}
    return dict(state["totals"])


def board_points(page: Any, game: str, players: list[str]) -> dict[str, int]:
    """Each player's points as the board's table shows them (rows in seat order)."""
    table = page.locator("#board table.grid").first
    column = table.locator("thead th").all_text_contents().index(POINTS_COLUMN[game])
    rows = table.locator("tbody tr")
    return {p: int(rows.nth(i).locator("th, td").nth(column).text_content()) for i, p in enumerate(players)}


def legend(page: Any) -> dict[str, int]:
    """The chart legend's values: {name: value}."""
    items = page.eval_on_selector_all("#chart .legend li", "lis => lis.map(li => li.textContent)")
    return {name: int(value) for name, value in (item.rsplit(": ", 1) for item in items)}


def sheet_totals(page: Any, game: str, players: list[str]) -> dict[str, int]:
    """The score sheet's totals: its Total row (Wizard) or the Total column of its first table."""
    table = page.locator("#sheet table.grid").first
    if game == "wizard":
        cells = table.locator("tbody tr").last.locator("td")
        return {p: int(cells.nth(i).text_content()) for i, p in enumerate(players)}
    heads = table.locator("thead th").all_text_contents()
    column = heads.index("Total")
    rows = table.locator("tbody tr")
    found = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("th, td")
        found[cells.nth(0).text_content().replace("🍪", "").strip()] = int(cells.nth(column).text_content())
    return found


def caught_up(site: str, match_id: str) -> dict[str, Any]:
    """The scoreboard once the workers have projected the match's last step."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        scores = requests.get(f"{site}/v1/matches/{match_id}/scores", timeout=10).json()
        if scores["version"] == scores["log_version"]:
            return dict(scores)
        time.sleep(0.1)
    raise AssertionError(f"the scoreboard of {match_id} never reached its last step")


def go(page: Any, step: int) -> None:
    """Show a step by its link in the step list."""
    page.evaluate(f"document.querySelector('#events a[data-step=\"{step}\"]').click()")
    page.wait_for_function(f"document.getElementById('step').dataset.step === '{step}'")


@pytest.mark.parametrize("game", sorted(POINTS_COLUMN))
def test_the_board_chart_and_sheet_show_the_apis_own_points(site: str, page: Any, game: str) -> None:
    match = record_seed(site, game, 0)
    base = f"{site}/v1/matches/{match.id}"
    scores = caught_up(site, match.id)
    frames = requests.get(f"{base}/replay", params={"limit": 1000}, timeout=30).json()["frames"]
    players = frames[-1]["state"]["players"]
    open_viewer(page, site, match.id)
    page.wait_for_selector("#sheet table.grid")
    assert board_points(page, game, players) == scores["totals"]
    assert legend(page) == scores["totals"]
    assert sheet_totals(page, game, players) == scores["totals"]
    for frame in (frames[len(frames) // 3], frames[len(frames) // 2], frames[-2]):
        go(page, frame["step"])
        expected = view_points(game, frame["state"])
        assert board_points(page, game, players) == expected, frame["step"]
        assert legend(page) == expected, frame["step"]


def test_the_hobbit_shows_the_scoreboards_damage_and_result(site: str, page: Any) -> None:
    match = record_seed(site, "hobbit", 0)
    scores = caught_up(site, match.id)
    open_viewer(page, site, match.id)
    dealt = scores["damage_dealt"]
    assert f"good {dealt['good']}, evil {dealt['evil']}" in page.text_content("#board .facts")
    assert scores["explanation"] in page.text_content("#sheet")
    assert page.locator("#sheet table.grid tbody tr").count() >= 1


def test_hats_shows_the_final_breakdown_of_every_category(site: str, page: Any) -> None:
    match = record_seed(site, "hats", 0)
    scores = caught_up(site, match.id)
    open_viewer(page, site, match.id)
    rows = page.locator("#sheet table.grid").first.locator("tbody tr")
    for i, (player, row) in enumerate(scores["categories"].items()):
        cells = rows.nth(i).locator("td").all_text_contents()
        categories = ("collection", "black_hats", "favourite", "cookie", "total")
        assert cells == [str(row[k]) for k in categories], player


def test_a_wizard_match_recorded_round_by_round_shows_its_sheet_and_no_trick(site: str, page: Any) -> None:
    script = wizard_rounds(["ann", "bob", "cy"], 4)
    match = record(site, "wizard", script)
    scores = caught_up(site, match.id)
    open_viewer(page, site, match.id)
    page.wait_for_selector("#sheet table.grid")
    assert page.locator("#sheet table.grid tbody tr").count() == len(scores["rounds"]) + 1
    assert page.locator("#board h3", has_text="Trick").count() == 0
    assert "on the table" not in page.text_content("#board")
    # The round's score is the rules' work, not the sender's.
    scored = page.locator("#events li", has_text="Round 1 scored")
    assert scored.locator(".actor").text_content() == "the table"


def test_every_game_with_points_is_checked() -> None:
    assert set(POINTS_COLUMN) | {"hobbit"} == set(all_games())
