"""GET /v1/matches/{id}/next says its undo and redo in the reader's language: under
Accept-Language zh-CN and ja, every game's sentences (action, values in words, what it derived)
keep no English word and no card id; only player names and what the table typed itself are left.
Cards are said as the recorder shows them: 7♥, 奇才牌, 绿 7."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from games.registry import all_games
from tests.service.conftest import SHORT, Table, record

LANGUAGES = {"zh-CN": re.compile(r"[\u4e00-\u9fff]"), "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")}
# Card ids as the API spells them (7H, 10s, wizard, blue-4, purple-12): none is left in a sentence.
CARD_IDS = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b|\b(?:wizard|jester)\b|\b[a-z]+-\d+\b", re.IGNORECASE)
UPTO = 24


def english_in(sentence: str, action: dict[str, Any], players: list[str]) -> list[str]:
    """The English words of ``sentence`` once names, card ids and the table's own text are out."""
    # Names as the action spells them (any letter case), and a reason the table typed itself.
    typed = [str(action.get(k) or "") for k in ("player", "with_player", "leader", "reason")]
    text = sentence.casefold()
    for kept in sorted([*players, *filter(None, typed)], key=len, reverse=True):
        text = text.replace(kept.casefold(), " ")
    return re.findall(r"[A-Za-z]{2,}", text)


def said(table: Table, language: str) -> dict[str, Any]:
    """The table's next answer in ``language``."""
    answer = table.client.get(
        f"/v1/matches/{table.id}/next", headers=table.auth | {"Accept-Language": language}
    )
    assert answer.status_code == 200 and answer.headers["Content-Language"] in ("zh-Hans", "ja")
    return dict(answer.json)


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_games_undo_and_redo_sentences_have_no_english_word_in_chinese_or_japanese(
    table: Callable[..., Table], game_id: str
) -> None:
    checked: list[str] = []

    def act_and_check(match: Table, action: dict[str, Any]) -> None:
        match.ok(action)
        players = list(match.created["players"])
        for language, script in LANGUAGES.items():
            sentence = said(match, language)["undo"]["sentence"]
            assert script.search(sentence), (language, sentence)
            assert english_in(sentence, action, players) == [], (language, action, sentence)
            assert not CARD_IDS.search(sentence), (language, action, sentence)
            checked.append(sentence)

    match = record(table, game_id, SHORT[game_id], UPTO, act_and_check)
    assert match.post("undo").status_code == 201
    for language, script in LANGUAGES.items():
        redo = said(match, language)["redo"]
        assert redo["possible"] and script.search(redo["sentence"]), redo
    assert len(set(checked)) > 2


def test_the_english_sentence_is_unchanged_for_an_english_reader(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    english = match.client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json
    assert english["undo"]["sentence"] == "the table: start the round 7♥"
    chinese = said(match, "zh-CN")["undo"]["sentence"]
    assert chinese.startswith("牌桌：") and "7♥" in chinese, chinese
