"""The API in the reader's language: Accept-Language chooses, the answer says which, and refusals,
schema errors and HTTP errors read as sentences in English, 简体中文 and 日本語."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.service.conftest import Table

ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
# A word of the English sentences; names, card ids and field names are checked for apart.
ENGLISH = re.compile(r"\b(?:is|the|not|turn|card|hand|play|plays|must|has|of|in|and|or|to)\b")


def english_words(text: str, *allowed: str) -> list[str]:
    """The English words left in ``text`` once the names and ids it should carry are taken out."""
    for word in allowed:
        text = text.replace(word, "")
    return ENGLISH.findall(text)


@pytest.mark.parametrize(
    ("header", "tag"),
    [
        ("zh-CN,zh;q=0.9", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-Hans-CN", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("ja", "ja"),
        ("fr-FR, ja;q=0.5", "ja"),
        ("de-DE", "en"),
        ("zh-TW", "en"),
        ("", "en"),
    ],
)
def test_the_api_answers_in_the_language_asked_for_and_says_so(
    client: FlaskClient, header: str, tag: str
) -> None:
    answer = client.get("/v1/games", headers={"Accept-Language": header} if header else {})
    assert answer.headers["Content-Language"] == tag
    assert "Accept-Language" in answer.headers["Vary"]


def test_a_refusal_out_of_turn_names_the_players_in_chinese_and_japanese(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    action = {"type": "bid", "player": "cy", "tricks": 0}
    english = match.act(action).json
    chinese = match.act(action, **ZH).json
    japanese = match.act(action, **JA).json
    assert english["detail"] == "it is bob's turn to bid (clockwise from the dealer's left), not cy's"
    assert chinese["title"] == "规则不允许" and japanese["title"] == "ルール上できません"
    for said in (chinese, japanese):
        assert said["code"] == english["code"] == "not_your_turn"
        assert "bob" in said["detail"] and "cy" in said["detail"]
        assert not english_words(said["detail"], "bob", "cy"), said["detail"]
    assert "庄家" in chinese["detail"] and "预测" in chinese["detail"]


def _refused(match: Table, action: dict[str, Any], code: str) -> list[str]:
    details = []
    for headers in (ZH, JA):
        answer = match.act(action, **headers)
        assert answer.status_code == 422 and answer.json["code"] == code, answer.json
        details.append(answer.json["detail"])
    return details


def test_a_wizard_card_played_from_another_hand_is_refused_in_the_readers_language(
    table: Callable[..., Table],
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    for player, bid in (("bob", 1), ("cy", 0), ("ann", 1)):
        match.ok({"type": "bid", "player": player, "tricks": bid})
    match.ok({"type": "play", "player": "bob", "card": "AS"})
    for detail in _refused(match, {"type": "play", "player": "cy", "card": "AS"}, "card_already_played"):
        assert "bob" in detail and "AS" in detail
        assert not english_words(detail, "bob", "AS"), detail


def test_a_hobbit_card_played_twice_is_refused_in_the_readers_language(table: Callable[..., Table]) -> None:
    match = table(
        "hobbit",
        ["ann", "bob"],
        setup={"characters": {"ann": "bilbo", "bob": "smaug"}},
    )
    match.ok({"type": "start_round", "leader": "ann"})
    match.ok({"type": "play", "player": "ann", "card": "red-4", "mark": "light"})
    again = {"type": "play", "player": "ann", "card": "red-5", "mark": "light"}
    for detail in _refused(match, again, "not_your_turn"):
        assert "ann" in detail and "bob" in detail
        assert not english_words(detail, "ann", "bob"), detail
    twice = {"type": "play", "player": "bob", "card": "red-4", "mark": "light"}
    # The card as the table says it (红 4, 赤 4), not its id.
    for detail, card in zip(_refused(match, twice, "card_already_played"), ("红 4", "赤 4"), strict=True):
        assert card in detail and "red-4" not in detail, detail
        assert not english_words(detail), detail


def test_a_hat_trick_prop_placed_twice_is_named_with_the_tables_word(table: Callable[..., Table]) -> None:
    match = table("hat-trick", ["ann", "bob"])
    match.ok({"type": "reveal", "card": 1, "colour": ["hat", "rabbit"], "grey": []})
    stack = [{"prop": "hat", "on": "table"}, {"prop": "rabbit", "in": "hat"}, {"prop": "rabbit", "on": "hat"}]
    declared = {"type": "declare", "player": "ann", "stack": stack}
    chinese, japanese = _refused(match, declared, "prop_placed_twice")
    assert "兔子" in chinese and not english_words(chinese), chinese
    assert "ウサギ" in japanese and not english_words(japanese), japanese


def test_a_schema_error_is_a_sentence_that_names_the_field_with_details_for_programs(
    table: Callable[..., Table],
) -> None:
    match = table("hobbit", ["ann", "bob"], setup={"characters": {"ann": "bilbo", "bob": "smaug"}})
    extra = match.act({"type": "start_round", "leader": "ann", "under": 1}).json
    assert extra["status"] == 400
    assert extra["detail"].startswith("unexpected field 'under' in the action start_round: it takes 'leader'")
    assert extra["errors"][0]["validator"] == "additionalProperties"
    missing = match.act({"type": "start_round"}, **JA).json
    assert missing["detail"] == "アクション start_roundにはフィールド「leader」が必要です"
    assert missing["errors"][0]["validator"] == "required"
    wrong_type = match.act({"type": "start_round", "leader": 7}, **ZH).json["detail"]
    assert wrong_type == "“leader”必须是带引号的文本，而不是 7"


def test_an_unknown_address_is_not_found_in_every_language(client: FlaskClient) -> None:
    english = client.get("/v1/nowhere").json
    chinese = client.get("/v1/nowhere", headers=ZH).json
    japanese = client.get("/v1/nowhere", headers=JA).json
    assert english["title"] == "Not found" and english["detail"] == "there is nothing at this address"
    assert chinese["title"] == "未找到" and chinese["detail"] == "这个地址上没有内容"
    assert japanese["title"] == "見つかりません" and japanese["code"] == english["code"]


def test_json_pasted_with_curly_quotes_is_told_where_and_what_to_use(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "ann"})
    url = f"/v1/matches/{match.id}/actions"
    body = "{\u201ctype\u201d: \u201cstart_round\u201d}"
    english = match.client.post(url, data=body, content_type="application/json", headers=match.auth).json
    assert english["status"] == 400 and english["code"] == "invalid_json"
    assert english["detail"] == 'curly quotes at line 1, column 2: use straight quotes (")'
    assert english["errors"][0]["line"] == 1 and english["errors"][0]["column"] == 2
    chinese = match.client.post(url, data=body, content_type="application/json", headers=match.auth | ZH).json
    assert chinese["detail"] == '第 1 行第 2 列是弯引号：请使用直引号（"）'


def test_the_games_titles_and_descriptions_follow_accept_language_and_their_schemas_do_not(
    client: FlaskClient,
) -> None:
    english = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    chinese = {g["id"]: g for g in client.get("/v1/games", headers=ZH).json["games"]}
    japanese = {g["id"]: g for g in client.get("/v1/games", headers=JA).json["games"]}
    assert chinese["hat-trick"]["title"] == "帽子戏法"
    assert chinese["hobbit"]["title"] == "霍比特人卡牌游戏"
    assert japanese["other-hat-trick"]["title"] == "ジ・アザー・ハットトリック"
    bid = chinese["wizard"]["actions"]["bid"]
    assert "预测" in bid["description"]
    assert bid["required"] == english["wizard"]["actions"]["bid"]["required"]
    assert set(bid["properties"]) == set(english["wizard"]["actions"]["bid"]["properties"])
    assert japanese["hats"]["options"]["properties"].keys() == english["hats"]["options"]["properties"].keys()


def test_a_stale_if_match_and_an_unknown_game_or_action_are_said_in_the_readers_language(
    client: FlaskClient, table: Callable[..., Table]
) -> None:
    match = table("hobbit", ["ann", "bob"], setup={"characters": {"ann": "bilbo", "bob": "smaug"}})
    stale = {"type": "start_round", "leader": "ann"}
    for headers, words in ((ZH, "版本 1"), (JA, "バージョン 1")):
        said = match.act(stale, **headers, **{"If-Match": '"7"'}).json
        assert said["status"] == 412 and said["code"] == "version_mismatch", said
        assert words in said["detail"] and not english_words(said["detail"]), said
    for headers, title in ((ZH, "霍比特人卡牌游戏"), (JA, "ホビット")):
        said = match.act({"type": "play_card", "player": "ann"}, **headers).json
        assert said["code"] == "unknown_action" and title in said["detail"], said
        assert "Hobbit" not in said["detail"], said
    for headers in (ZH, JA):
        body = {"game": "chess", "players": ["ann", "bob"]}
        said = client.post("/v1/matches", json=body, headers=headers).json
        assert said["code"] == "unknown_game" and "'chess'" in said["detail"], said
        assert not english_words(said["detail"].replace("hat-trick", "")), said
        assert "there is no game" not in said["detail"], said
