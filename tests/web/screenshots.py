"""Screenshots of the viewer for the docs: `python -m tests.web.screenshots [FOLDER]`.

Starts `tabletape serve` (its own embedded Redis), records example matches, and photographs the
viewer in Chromium: docs/viewer.png (a Wizard trick on the table), docs/viewer-phone.png, and each
game's board at 1280 and 375 px in docs/viewer/; with FOLDER, the index too.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from tests.support.serving import launch_chromium
from tests.web.conftest import chromium_path, open_viewer, record_seed, viewer_path, wait_for_viewer
from tests.web.conftest import serving as serve_in

DOCS = Path(__file__).resolve().parents[2] / "docs"
# Seeds whose matches show each board at its fullest (hands recorded, stacks declared, ...).
SEEDS = {"wizard": 1, "hobbit": 0, "hats": 0, "other-hat-trick": 0, "hat-trick": 1}


@contextmanager
def serving() -> Iterator[str]:
    """A `tabletape serve` on a free port with its own embedded Redis, in a folder of its own."""
    with tempfile.TemporaryDirectory() as folder, serve_in(Path(folder), "tt-shots") as url:
        yield url


def busiest_step(site: str, match_id: str) -> int:
    """A step with the most cards on the table (a trick in play, stacks judged, a trick pile)."""
    frames = requests.get(f"{site}/v1/matches/{match_id}/replay", params={"limit": 1000}, timeout=30).json()

    def busy(frame: dict[str, Any]) -> tuple[int, int, int]:
        state = frame["state"]
        trick = state.get("trick") or []
        played = trick.get("plays", []) if isinstance(trick, dict) else trick
        shown = len(played) + len(state.get("judgements") or []) + len(state.get("pile") or [])
        hands = state.get("hands") or {}
        in_hand = sum(len(cards) for cards in hands.values() if isinstance(cards, list))
        return shown, in_hand, frame["step"] if shown else 0

    return int(max(frames["frames"], key=busy)["step"])


def shoot(page: Any, site: str, path: str, target: Path) -> None:
    """Open a viewer page and photograph the whole of it."""
    page.goto(f"{site}{path}")
    wait_for_viewer(page)
    page.screenshot(path=str(target), full_page=True)


def main(folder: Path | None) -> None:
    """Take the docs' screenshots: the viewer, the viewer on a phone, and each game's board at
    1280 and 375 px in docs/viewer/ (and the index too, into ``folder``)."""
    from playwright.sync_api import sync_playwright

    boards = DOCS / "viewer"
    boards.mkdir(exist_ok=True)
    with serving() as site, sync_playwright() as playwright:
        browser = launch_chromium(playwright, chromium_path())
        ids = {game: record_seed(site, game, seed).id for game, seed in SEEDS.items()}
        wide = browser.new_page(viewport={"width": 1280, "height": 900})
        shoot(wide, site, viewer_path(ids["wizard"], busiest_step(site, ids["wizard"])), DOCS / "viewer.png")
        phone = browser.new_page(viewport={"width": 375, "height": 812}, is_mobile=True)
        open_viewer(phone, site, ids["hats"], 20)
        phone.screenshot(path=str(DOCS / "viewer-phone.png"))
        for game, match_id in ids.items():
            path = viewer_path(match_id, busiest_step(site, match_id))
            for page, name in ((wide, f"{game}.png"), (phone, f"{game}-phone.png")):
                page.goto(f"{site}{path}")
                wait_for_viewer(page)
                page.locator(".board-panel").screenshot(path=str(boards / name))
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
            wide.goto(f"{site}/")
            wide.wait_for_selector(".match")
            wide.screenshot(path=str(folder / "index.png"), full_page=True)
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
