"""The rule codes: one vocabulary, listed once in docs/rule-codes.md."""

from __future__ import annotations

import re
from pathlib import Path

from rule_codes import codes_by_place

DOC = Path(__file__).parents[2] / "docs" / "rule-codes.md"
RENAMED = ("wrong_turn", "hand_size", "duplicate_hand", "match_ended", "no_round", "round_in_play")


def listed() -> set[str]:
    """The codes docs/rule-codes.md lists, one a table row."""
    return set(re.findall(r"^\| `([a-z_]+)` \|", DOC.read_text(encoding="utf-8"), re.MULTILINE))


def test_every_code_the_games_can_raise_is_listed_in_the_docs() -> None:
    unlisted = sorted(set(codes_by_place()) - listed())
    assert not unlisted, f"add these codes to docs/rule-codes.md: {unlisted}"


def test_the_docs_list_no_code_the_games_no_longer_raise() -> None:
    assert not sorted(listed() - set(codes_by_place()))


def test_the_walk_finds_codes_in_every_way_a_game_raises_them() -> None:
    found = codes_by_place()
    # require(...) across lines, fail(...), a dispute's "code", a (code, sentence) pair
    assert {"wizard"} <= found["must_follow_suit"] and {"wizard", "hobbit"} <= found["revoke"]
    assert "hats" in found["card_on_table"] and "games" in found["match_finished"]


def test_renamed_codes_are_gone_for_their_one_name() -> None:
    assert not set(RENAMED) & set(codes_by_place())


def titles() -> dict[str, list[str]]:
    """The codes of docs/rule-codes.md's table of titles, each with its three titles."""
    text = DOC.read_text(encoding="utf-8").split("## Titles in the three languages", 1)[1]
    rows = re.findall(r"^\| `([a-z_]+)` \|(.*)\|$", text, re.MULTILINE)
    return {code: [cell.strip() for cell in rest.split("|")] for code, rest in rows}


def test_every_code_the_games_can_raise_has_a_title_in_english_chinese_and_japanese() -> None:
    found = titles()
    untitled = sorted(
        code for code in codes_by_place() if len(found.get(code, [])) != 3 or not all(found[code])
    )
    assert not untitled, f"give these codes their three titles in docs/rule-codes.md: {untitled}"
    chinese = re.compile(r"[\u4e00-\u9fff]")
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    assert all(chinese.search(zh) and japanese.search(ja) for _en, zh, ja in found.values())
