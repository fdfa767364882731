"""Every game's board fits a phone's width: nothing scrolls sideways at 320 or 375 px."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.registry import all_games
from tests.web.conftest import wait_for_viewer

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

# What sticks out: the page wider than the screen, or anything in the board wider than the board.
OVERFLOW = """() => {
  const page = document.scrollingElement;
  const board = document.getElementById("board");
  const box = board.getBoundingClientRect();
  const out = [...board.querySelectorAll("*")]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
    })
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${el.textContent.slice(0, 40)})`);
  const wider = (el) => el.scrollWidth - el.clientWidth;
  return {page: wider(page), board: wider(board), out: out.slice(0, 5)};
}"""


def steps_to_check(last: int) -> list[int]:
    """The first step, the last, and a few between."""
    return sorted({1, last // 4 or 1, last // 2 or 1, (3 * last) // 4 or 1, last})


@pytest.mark.parametrize("width", [320, 375])
@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_board_fits_a_phone_at_several_steps(
    site: str, browser: Any, example: Any, game: str, width: int
) -> None:
    match = example(game)
    context = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{site}/matches/{match.id}?step=1")
        wait_for_viewer(page)
        for step in steps_to_check(match.steps):
            page.evaluate(f"document.querySelector('#events a[data-step=\"{step}\"]').click()")
            page.wait_for_function(f"document.getElementById('step').dataset.step === '{step}'")
            found = page.evaluate(OVERFLOW)
            assert found == {"page": 0, "board": 0, "out": []}, f"{game} at {width} px, step {step}: {found}"
    finally:
        context.close()


def test_the_page_of_an_address_that_leads_nowhere_fits_a_phone_and_leads_back(
    site: str, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    try:
        answer = page.goto(f"{site}/matches/abc/nowhere")
        assert answer is not None and answer.status == 404
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
        page.click("main a[href='/new']")
        try:
            page.wait_for_url("**/new")
        except PlaywrightTimeout:
            # Where it went instead (an error page, say, if the server dropped the connection).
            pytest.fail(f"the link did not lead to /new within the timeout: the page is at {page.url}")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "ja"])
@pytest.mark.parametrize("width", [320, 375, 1024])
def test_the_match_lists_labels_stay_beside_their_fields(
    site: str, browser: Any, width: int, lang: str
) -> None:
    # A label alone at the end of one line with its field on the next reads as the wrong field's.
    page = browser.new_page(viewport={"width": width, "height": 700}, is_mobile=width < 600)
    try:
        page.goto(f"{site}/?lang={lang}")
        page.wait_for_selector("#filter-game option:nth-child(2)", state="attached")
        apart = page.evaluate(
            """() => [...document.querySelectorAll("form.row label[for]")].map((label) => {
                const field = document.getElementById(label.htmlFor);
                const a = label.getBoundingClientRect(), b = field.getBoundingClientRect();
                const middle = a.top + a.height / 2;
                const beside = middle > b.top && middle < b.bottom && a.right <= b.left;
                return {label: label.textContent, beside};
            }).filter((found) => !found.beside).map((found) => found.label)"""
        )
        assert apart == []
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    finally:
        page.close()
