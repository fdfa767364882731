"""The recorder in 简体中文 and 日本語: the new-match form, the recorder and its status lines speak
the page's language, with no English interface word left once a Wizard match is created through
the form and a bid is recorded by a tap."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.recorder_support import create_with_form, moved_on, phone, tap_first
from tests.web.test_viewer_languages import english_left

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

__all__ = ["phone"]

PLAYERS = ["ann", "bob", "cy"]
HTML_LANG = {"zh": "zh-Hans", "ja": "ja"}


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_recorder_under_lang_records_a_bid_with_no_english_interface_word(
    site: str, phone: Any, lang: str
) -> None:
    page = phone.page
    page.goto(f"{site}/new?game=wizard&lang={lang}")
    page.wait_for_function("document.getElementById('new-status').textContent === ''")
    assert page.get_attribute("html", "lang") == HTML_LANG[lang]
    assert english_left(page, []) == [], f"/new under ?lang={lang}"

    match_id = create_with_form(page, site, "wizard", PLAYERS, {"first_dealer": "ann"}, {})
    assert page.get_attribute("html", "lang") == HTML_LANG[lang]
    assert english_left(page, [*PLAYERS, match_id]) == [], "the recorder before the first action"

    version = page.get_attribute("#recorder", "data-version")
    assert tap_first(page, prefer=("start_round",)) == "start_round"
    moved_on(page, version)
    version = page.get_attribute("#recorder", "data-version")
    assert tap_first(page, prefer=("bid",)) == "bid"
    moved_on(page, version)

    status = page.text_content("#status") or ""
    assert status and english_left(page, [*PLAYERS, match_id]) == [], page.inner_text("body")
    assert phone.problems == []
