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
