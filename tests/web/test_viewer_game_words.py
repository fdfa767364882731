"""Each game's own words on its board and in its step list, in 简体中文 and 日本語 (the rule
documents' words), and who each step is credited to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.web.conftest import Recorded, record_seed, viewer_path, wait_for_viewer

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
Frame = dict[str, Any]
LANGUAGES = ["zh", "ja"]


def frames_of(site: str, match: Recorded) -> list[Frame]:
    """Every frame of a recorded match, as the replay gives them."""
    answer = requests.get(f"{site}/v1/matches/{match.id}/replay", params={"limit": 1000}, timeout=30)
    return list(answer.json()["frames"])


def first(frames: list[Frame], wanted: Callable[[Frame], bool]) -> Frame:
    """The first frame ``wanted`` picks."""
    return next(f for f in frames if wanted(f))


def open_in(page: Any, site: str, match: Recorded, step: int, lang: str) -> None:
    """Open a match's viewer at a step in a language."""
    page.goto(f"{site}{viewer_path(match.id, step)}&lang={lang}")
    wait_for_viewer(page)


def shown_phase(page: Any) -> str:
    """The board's phase, as the page says it (the first fact of every board)."""
    return str(page.locator("#board .facts dd").first.inner_text())


# --- Hat Trick ----------------------------------------------------------------------------------

HAT_TRICK_PHASES = {
    "zh": {"reveal": "翻开挑战卡", "build": "堆叠中", "judge": "裁定宣告中"},
    "ja": {"reveal": "チャレンジカードをめくる", "build": "積み上げ中", "judge": "宣言を判定中"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hat_trick_says_each_of_its_phases_in_its_own_words(site: str, page: Any, lang: str) -> None:
    match = record_seed(site, "hat-trick", 1)
    frames = frames_of(site, match)
    shown = {}
    for phase in HAT_TRICK_PHASES[lang]:
        frame = first(frames, lambda f, phase=phase: f["state"]["phase"] == phase and f["step"] > 1)
        open_in(page, site, match, frame["step"], lang)
        # "堆叠中 · ann、bob 行动": the phase, then who is to act.
        shown[phase] = shown_phase(page).split(" · ")[0]
    # Not The Other Hat Trick's "everything is revealed", and no machine name.
    assert shown == HAT_TRICK_PHASES[lang]
