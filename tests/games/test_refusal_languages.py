"""A sample of every game's refusals read in 简体中文 and 日本語: the sentence names the player and
the card or prop, and no English word is left in it; the English rendering is the rule's sentence."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.contract import RuleViolation
from games.hobbit.constants import DECK
from games.registry import get_game
from service.language.catalogs import render
from tests.support import games as support

ENGLISH = re.compile(r"\b(?:is|the|not|turn|card|hand|play|plays|must|has|of|in|and|or|to|draw|on|at|swap)\b")


def _state(game_id: str, setup: dict[str, Any], players: list[str], actions: list[dict[str, Any]]) -> Any:
    game = get_game(game_id)
    return support.run(game, support.create(game, players, setup, {}), actions)


def _refusal(game_id: str, state: Any, action: dict[str, Any]) -> RuleViolation:
    return support.refused(get_game(game_id), state, action)


def _read(refusal: RuleViolation, *kept: str) -> dict[str, str]:
    said = {locale: render(refusal.sentence, locale) for locale in ("zh_Hans", "ja")}
    for locale, text in said.items():
        for word in kept:
            assert word in text, (locale, word, text)
            text = text.replace(word, "")
        assert not ENGLISH.findall(text), (locale, said[locale])
    return said


def test_a_hats_card_drawn_from_the_tea_table_names_the_player_and_the_card() -> None:
    setup = get_game("hats").example(0)["setup"]
    state = _state("hats", setup, ["ann", "bob"], [{"type": "black_hat", "player": "bob"}])
    refusal = _refusal("hats", state, {"type": "redraw", "player": "ann", "drawn": "blue-4"})
    assert refusal.message == "ann cannot draw blue 4: blue 4 is on the tea table at space 1"
    said = _read(refusal, "ann")
    assert "ティーテーブル" in said["ja"] and "茶桌" in said["zh_Hans"]
    # The card as the table says it, not its id.
    assert "青 4" in said["ja"] and "蓝 4" in said["zh_Hans"]


def test_a_hats_setup_that_deals_a_card_twice_names_the_card_and_both_places_in_words() -> None:
    game = get_game("hats")
    script = game.example(0)
    setup, player = script["setup"], script["players"][0]
    first = setup["table"][0]
    # The first tea-table card dealt into the first player's hand too.
    hand = [first, *[c for c in setup["hands"][player] if c != first][:8]]
    with pytest.raises(RuleViolation) as caught:
        support.create(game, script["players"], {**setup, "hands": {player: hand}}, script["options"])
    kind, value = first.split("-")
    assert caught.value.code == "duplicate_card"
    assert caught.value.message == f"{kind} {value} is both in tea-table space 1 and {player}'s hand"
    said = _read(caught.value, player)
    assert "ティーテーブルのスペース 1" in said["ja"] and f"{player} の手札" in said["ja"]
    assert "茶桌第 1 格" in said["zh_Hans"] and f"{player} 的手牌" in said["zh_Hans"]


def test_the_other_hat_tricks_props_are_named_in_the_tables_words() -> None:
    setup = {"first_player": "ann", "first_trick": "hungry-rabbit"}
    state = _state(
        "other-hat-trick",
        setup,
        ["gus", "jo", "ann"],
        [{"type": "swap", "player": "ann", "slot": 1, "with_player": "gus", "with_slot": 1}],
    )
    refusal = _refusal(
        "other-hat-trick", state, {"type": "perform", "player": "ann", "props": ["hat", "hat"]}
    )
    said = _read(refusal)
    assert "帽子" in said["ja"] and "ウサギ" in said["ja"] and "腹ペコのウサギ" in said["ja"]
    refusal = _refusal(
        "other-hat-trick", state, {"type": "perform", "player": "jo", "props": ["hat", "carrot"]}
    )
    said = _read(refusal, "jo", "ann")
    assert refusal.code == "not_your_turn"


def test_a_wizard_refusal_out_of_phase_says_what_the_match_waits_for() -> None:
    state = _state("wizard", {"first_dealer": "ann"}, ["ann", "bob", "cy"], [])
    refusal = _refusal("wizard", state, {"type": "play", "player": "bob", "card": "7H"})
    assert refusal.code == "wrong_phase"
    said = _read(refusal)
    assert "出牌" in said["zh_Hans"] and "カードを出す" in said["ja"]


def test_a_hobbit_play_out_of_turn_names_both_players() -> None:
    setup = {"characters": {"ann": "bilbo", "bob": "smaug"}}
    state = _state("hobbit", setup, ["ann", "bob"], [{"type": "start_round", "leader": "ann"}])
    refusal = _refusal("hobbit", state, {"type": "play", "player": "bob", "card": "red-4", "mark": "light"})
    assert refusal.code == "not_your_turn"
    _read(refusal, "ann", "bob")


def test_a_hobbit_card_shown_with_another_mark_names_the_card_and_both_marks_in_words() -> None:
    # The setup's mark table gives green-1 the dark mark.
    setup = {
        "characters": {"ann": "bilbo", "bob": "smaug"},
        "marks": {**dict.fromkeys(DECK, "light"), "green-1": "dark"},
    }
    state = _state("hobbit", setup, ["ann", "bob"], [{"type": "start_round", "leader": "ann"}])
    refusal = _refusal("hobbit", state, {"type": "play", "player": "ann", "card": "green-1", "mark": "light"})
    assert refusal.code == "wrong_mark"
    assert refusal.message == "green 1 bears dark in the mark table, not light"
    said = _read(refusal)
    assert "緑 1" in said["ja"] and "闇" in said["ja"] and "光" in said["ja"], said
    assert "绿 1" in said["zh_Hans"], said


def test_a_hat_trick_prop_too_large_is_named_with_both_props() -> None:
    state = _state(
        "hat-trick", {}, ["ann", "bob"], [{"type": "reveal", "card": 1, "colour": ["hat"], "grey": []}]
    )
    stack = [{"prop": "coin", "on": "table"}, {"prop": "hat", "in": "coin"}]
    refusal = _refusal("hat-trick", state, {"type": "declare", "player": "ann", "stack": stack})
    said = _read(refusal)
    assert "金币" in said["zh_Hans"] and "魔术帽" in said["zh_Hans"]
