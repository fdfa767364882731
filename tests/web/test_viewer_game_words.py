"""Each game's own words on its board and in its step list, in 简体中文 and 日本語 (the rule
documents' words), and who each step is credited to."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import requests

from tests.web.conftest import Recorded, open_viewer, record_seed, viewer_path, wait_for_viewer

pytestmark = [pytest.mark.browser, pytest.mark.e2e]
Frame = dict[str, Any]
LANGUAGES = ["zh", "ja"]

# Hat Trick's props as the page's language calls them (the glossaries' words).
PROPS = {
    "zh": {"coin": "金币", "rabbit": "兔子", "tube": "圆筒", "goblet": "高脚杯", "hat": "魔术帽"},
    "ja": {"coin": "金貨", "rabbit": "ウサギ", "tube": "筒", "goblet": "ゴブレット", "hat": "帽子"},
}
PROP_IDS = re.compile(r"\b(?:coin|rabbit|tube|goblet|hat|table)\b")


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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hat_trick_stack_is_drawn_with_its_props_in_words(site: str, page: Any, lang: str) -> None:
    match = record_seed(site, "hat-trick", 1)

    def declared(frame: Frame) -> bool:
        """A declaration waits with a stack of three props or more, one of them in another."""
        stacks = [d.get("stack") or [] for d in frame["state"]["queue"]]
        return bool(stacks) and len(stacks[0]) >= 3 and any("in" in place for place in stacks[0])

    frame = first(frames_of(site, match), declared)
    stack = frame["state"]["queue"][0]["stack"]
    open_in(page, site, match, frame["step"], lang)
    drawn = page.locator("#board .drawn-stack").first
    # Each box's own name (what is in it and on it is drawn inside the box, after its name).
    names = drawn.locator(".prop-box").evaluate_all("boxes => boxes.map((b) => b.firstChild.textContent)")
    assert sorted(names) == sorted(PROPS[lang][place["prop"]] for place in stack)
    assert not PROP_IDS.search(drawn.inner_text()), drawn.inner_text()


# --- The Hobbit ---------------------------------------------------------------------------------

HOBBIT_DISCARD = {"zh": ("弃掉", "弃牌"), "ja": ("を捨てる", "捨てる")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hobbit_card_handed_out_to_no_one_is_said_to_be_discarded(site: str, page: Any, lang: str) -> None:
    match = record_seed(site, "hobbit", 4)

    def discarding(frame: Frame) -> bool:
        event = frame["event"]
        return event["type"] == "CardsDistributed" and "discard" in event["data"]["cards"].values()

    frame = first(frames_of(site, match), discarding)
    discarded = list(frame["event"]["data"]["cards"].values()).count("discard")
    open_in(page, site, match, frame["step"], lang)
    in_sentence, on_board = HOBBIT_DISCARD[lang]
    # The step's sentence, above the board and in the step list.
    for said in (
        page.inner_text("#step-sentence"),
        page.inner_text(f"#events li[data-step='{frame['step']}'] .said"),
    ):
        assert said.count(in_sentence) == discarded and "discard" not in said, said
    # The trick's distribution on the board: each card and where it went.
    lines = page.locator("#board ul.plain li").all_inner_texts()
    assert sum(line.endswith(f"→ {on_board}") for line in lines) == discarded, lines
    assert not any("discard" in line for line in lines), lines


# --- Hats ---------------------------------------------------------------------------------------


def test_a_hats_swap_is_credited_to_its_player_and_the_turn_it_starts_to_the_table(
    site: str, page: Any
) -> None:
    match = record_seed(site, "hats", 0)
    frames = frames_of(site, match)

    def starts_a_turn(pair: tuple[Frame, Frame]) -> bool:
        """A swap whose action started the player's turn first (TurnStarted, then HatSwapped)."""
        before, swap = pair
        one = before["event"]["meta"]["action_id"] == swap["event"]["meta"]["action_id"]
        return one and (before["event"]["type"], swap["event"]["type"]) == ("TurnStarted", "HatSwapped")

    _, swap = next(filter(starts_a_turn, zip(frames, frames[1:], strict=False)))
    player, step = swap["event"]["data"]["player"], swap["step"]
    open_viewer(page, site, match.id, step)

    def credited(at: int) -> str:
        return str(page.inner_text(f"#events li[data-step='{at}'] .actor"))

    assert credited(step) == player
    assert page.inner_text("#step-sentence strong") == player
    assert credited(step - 1) == "the table"
    # Every main action, redraw and favourite is its player's, whether it started a turn or not;
    # the turn it started and the end of play it brought are the table's.
    for frame in frames:
        event = frame["event"]
        if event["type"] in {"HatSwapped", "BlackHatMade", "CardRedrawn", "FavouriteRevealed"}:
            assert credited(frame["step"]) == event["data"]["player"], event
        elif event["type"] in {"TurnStarted", "PlayEnded"}:
            assert credited(frame["step"]) == "the table", event


HATS_COLUMN = {"zh": "帽子牌", "ja": "帽子カード"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hats_collections_name_their_hat_cards_column_in_words(site: str, page: Any, lang: str) -> None:
    match = record_seed(site, "hats", 0)
    open_in(page, site, match, 10, lang)
    heads = page.locator("#board table.grid thead th").all_inner_texts()
    assert heads[1] == HATS_COLUMN[lang], heads
    assert "Hats" not in heads
    # On a phone each cell is labelled with its column.
    assert page.locator(f"#board table.grid td[data-label='{HATS_COLUMN[lang]}']").count() > 0
