"""The new-match form of every game in 简体中文 and 日本語 on a phone: its labels, its choices
and its hints (the games' published descriptions) keep no English word, and a form the rules
refuse says why in the page's language, naming the field in its words."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

from games.registry import all_games
from tests.web.recorder_support import fill, no_sideways_scrolling, phone
from tests.web.test_viewer_languages import KEPT

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

__all__ = ["phone"]

PLAYERS = ["ann", "bob", "cy"]
# Any Latin word is English here: the form has no card id, and the players are taken out.
LATIN = re.compile(r"[A-Za-z]{2,}")


def latin_left(text: str, typed: list[str]) -> list[str]:
    """The Latin words ``text`` shows once what was typed and the kept words are taken out."""
    for kept in sorted(typed, key=len, reverse=True):
        text = text.replace(kept, " ")
    return LATIN.findall(KEPT.sub(" ", text))


def open_form(page: Any, site: str, game: str, lang: str) -> None:
    """/new for ``game`` under ``?lang=`` with three players typed in."""
    page.goto(f"{site}/new?game={game}&lang={lang}")
    page.wait_for_function("document.getElementById('new-status').textContent === ''")
    page.wait_for_selector("#seats input[name='players']")
    while page.locator("input[name='players']").count() < len(PLAYERS):
        page.click("#add-seat")
    for i, name in enumerate(PLAYERS):
        page.locator("input[name='players']").nth(i).fill(name)
    page.wait_for_function("document.querySelectorAll('#setup .hint, #options .hint').length > 0")


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_games_new_match_form_under_lang_keeps_no_english_word(
    site: str, phone: Any, game: str, lang: str
) -> None:
    page = phone.page
    open_form(page, site, game, lang)
    text = page.inner_text("#new-match")
    # The choices of every select (a character, a bidding order, a first trick) count too.
    text += " ".join(page.locator("#new-match select option").all_inner_texts())
    left = latin_left(text, PLAYERS)
    assert left == [], f"/new?game={game}&lang={lang} still shows {sorted(set(left))}: {text}"
    no_sideways_scrolling(page)
    assert phone.problems == []


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_refused_form_says_why_in_the_pages_language(site: str, phone: Any, lang: str) -> None:
    page = phone.page
    open_form(page, site, "hats", lang)
    fill(page, "setup.start_player", "ann")
    # Three players start with six cards on the tea table: five are refused by the rules.
    fill(page, "setup.table", ["red-4", "blue-1", "green-2", "pink-3", "orange-5"])
    page.click("#create")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    said = page.text_content("#problem") or ""
    assert latin_left(said, PLAYERS) == [], said
    assert {"zh": "茶桌", "ja": "ティーテーブル"}[lang] in said and "6" in said, said
    assert page.url.endswith(f"/new?game=hats&lang={lang}") or "/new" in page.url
    # The refusal itself is the one failed request the console reports.
    assert [p for p in phone.problems if "status of 4" not in p] == []


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_hats_cards_and_hat_types_are_chosen_in_words_and_created_as_the_api_spells_them(
    site: str, phone: Any, lang: str
) -> None:
    # A table at a Hats evening sets out the tea table by the cards' words (红 4, 赤 4), never
    # by typing "red-4"; two players also choose the two hat types taken out.
    page = phone.page
    page.goto(f"{site}/new?game=hats&lang={lang}")
    page.wait_for_selector("#seats input[name='players']")
    for i, name in enumerate(["ann", "bob"]):
        page.locator("input[name='players']").nth(i).fill(name)
    spots = page.locator("select[name='setup.table']")
    assert spots.count() == 6
    shown = spots.first.locator("option").all_text_contents()
    assert len(shown) == 1 + 42 and latin_left(" ".join(shown), []) == [], shown
    red = {"zh": "红", "ja": "赤"}[lang]
    for i, card in enumerate(("4", "1", "2", "3", "5")):
        spots.nth(i).select_option(label=f"{red} {card}")
    types = page.locator("select[name='setup.removed_types']")
    assert types.count() == 2
    types.nth(0).select_option(label={"zh": "粉", "ja": "ピンク"}[lang])
    types.nth(1).select_option(label={"zh": "紫", "ja": "紫"}[lang])
    page.select_option("select[name='setup.start_player']", "ann")
    no_sideways_scrolling(page)
    page.click("#create")
    page.wait_for_url("**/record")
    match_id = page.url.split("/")[-2]
    created = requests.get(f"{site}/v1/matches/{match_id}/events", timeout=10).json()["events"][0]["data"]
    assert created["setup"]["table"] == ["red-4", "red-1", "red-2", "red-3", "red-5"]
    assert created["setup"]["removed_types"] == ["pink", "purple"]
    assert phone.problems == []


# The fields each game's setup cannot start without, as GET /v1/games/{id} marks them required.
REQUIRED = {
    "wizard": ["first_dealer"],
    "hobbit": ["characters"],
    "hats": ["start_player", "table"],
    "other-hat-trick": ["first_player", "first_trick"],
}
ASKED = {
    "en": "Fill in before creating the match:",
    "zh": "创建对局前请填写：",
    "ja": "試合を作成する前に入力してください：",
}


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
@pytest.mark.parametrize("game", sorted(REQUIRED))
def test_a_form_left_without_a_field_the_game_needs_names_it_by_its_label_and_sends_nothing(
    site: str, phone: Any, game: str, lang: str
) -> None:
    page = phone.page
    assert requests.get(f"{site}/v1/games/{game}", timeout=10).json()["setup"]["required"] == REQUIRED[game]
    open_form(page, site, game, lang)
    listed = requests.get(f"{site}/v1/matches", timeout=10).json()["total"]
    page.click("#create")
    page.wait_for_function("document.getElementById('problem').textContent !== ''")
    said = page.text_content("#problem") or ""
    assert said.startswith(ASKED[lang]), said
    for name in REQUIRED[game]:
        path = f"setup.{name}"
        one = f"label[for='{path.replace('.', '-')}']"
        several = f"[data-keyed='{path}'], [data-items='{path}']"
        label = page.locator(f"{one}, :is({several}) > legend").first
        assert (label.text_content() or "") in said, said
        # The API's own spelling of the field ("first_dealer") is for programs, not for the table.
        if "_" in name or lang != "en":
            assert name not in said
    path = f"setup.{REQUIRED[game][0]}"
    first = page.locator(f"[name='{path}'], [data-keyed='{path}'] [name]").first
    assert first.get_attribute("aria-invalid") == "true"
    assert first.evaluate("c => c === document.activeElement")
    # Nothing was sent: no refusal in the console, no match made, the form still open.
    assert phone.problems == []
    assert requests.get(f"{site}/v1/matches", timeout=10).json()["total"] == listed
    assert "/new" in page.url
    no_sideways_scrolling(page)
