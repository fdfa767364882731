"""The recorder's screenshot for the README: `python -m tests.web.recorder_screenshots`.

Starts `tabletape serve` (its own embedded Redis), creates a Wizard match through the new-match
page, records its first round's start and the bids by taps, and photographs the phone recorder
at 375 px: docs/recorder-phone.png.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.support.serving import launch_chromium
from tests.web.conftest import chromium_path, serving
from tests.web.recorder_support import PHONE, create_with_form, moved_on, settled

DOCS = Path(__file__).resolve().parents[2] / "docs"


def main() -> None:
    """Take docs/recorder-phone.png."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, serving(Path(folder), "tt-shots") as site:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, chromium_path())
            page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
            players = ["ann", "bob", "cy", "dee"]
            create_with_form(page, site, "wizard", players, {"first_dealer": "ann"}, {"canadian_rule": True})
            for selector in ("[data-field='trump_card'][data-value='QH']", "[data-submit='start_round']"):
                before = page.get_attribute("#recorder", "data-version")
                page.click(selector)
            moved_on(page, before)
            for bid in ("1", "0", "1", "0"):
                before = page.get_attribute("#recorder", "data-version")
                page.click(f"[data-action='bid'][data-value='{bid}']")
                moved_on(page, before)
            settled(page)
            page.screenshot(path=str(DOCS / "recorder-phone.png"))
            browser.close()


if __name__ == "__main__":
    main()
