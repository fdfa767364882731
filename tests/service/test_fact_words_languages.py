"""The sentences games store in English (a revoke's dispute, a Hat Trick judgement's reason, The
Hobbit's result) are read in the reader's language: under Accept-Language zh-CN and ja the
events, the replay, the state and the live stream's frames add ``said`` beside the stored
English, told from the facts (player, card, prop, side) and with no English word; the stored
sentence stays as recorded."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.service.conftest import Table

LANGUAGES = {"zh-CN": re.compile(r"[\u4e00-\u9fff]"), "ja": re.compile(r"[\u3040-\u30ff]")}
CARD_IDS = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b|\b[a-z]+-\d+\b", re.IGNORECASE)


def english_words(sentence: str, names: list[str]) -> list[str]:
    """The Latin words left in ``sentence`` once player names and card ids are out."""
    for name in sorted(names, key=len, reverse=True):
        sentence = sentence.replace(name, " ")
    return re.findall(r"[A-Za-z]{2,}", CARD_IDS.sub(" ", sentence))


def reads(match: Table, language: str) -> dict[str, Any]:
    """The events, the replay, the state and the live stream (from step 0) of ``match`` in ``language``."""
    header = match.auth | {"Accept-Language": language}
    got = {
        what: match.client.get(f"/v1/matches/{match.id}/{what}", headers=header, query_string=query)
        for what, query in (("events", {"limit": 1000}), ("replay", {"limit": 1000}), ("state", {}))
    }
    assert all(a.status_code == 200 for a in got.values()), {k: a.json for k, a in got.items()}
    return {k: a.json for k, a in got.items()} | {"live": followed(match, header | {"Last-Event-ID": "0"})}


def followed(match: Table, headers: dict[str, str]) -> list[Any]:
    """The live stream's frames of ``match`` followed from step 0 up to its last step (and its end)."""
    version = match.client.get(f"/v1/matches/{match.id}").json["version"]
    answer = match.client.get(f"/v1/matches/{match.id}/live", headers=headers)
    assert answer.status_code == 200
    told: list[Any] = []
    try:
        for chunk in answer.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            if text.startswith(("event: ", "id: ")) and "data: " in text:
                told.append(json.loads(text.split("data: ", 1)[1]))
                if "event: end" in text or told[-1].get("step") == version:
                    return told
    finally:
        answer.close()
    raise AssertionError(f"the live stream ended before step {version}: {told}")


def members(value: Any, key: str) -> Iterator[dict[str, Any]]:
    """Every object in ``value`` that holds ``key``."""
    if isinstance(value, dict):
        if key in value:
            yield value
        for inner in value.values():
            yield from members(inner, key)
    elif isinstance(value, list):
        for inner in value:
            yield from members(inner, key)


def told(body: dict[str, Any], stored: str) -> list[dict[str, Any]]:
    """The objects that carry the stored English ``stored`` member and its ``said``."""
    found = [m for m in members(body, stored) if isinstance(m[stored], str) and m[stored]]
    assert found and all("said" in m for m in found), body
    return found


def check(match: Table, stored: str, names: list[str], must_name: list[str]) -> None:
    """Under zh-CN and ja every read says the stored sentence in the language; English keeps it."""
    english = reads(match, "en")
    for where in ("events", "replay", "live"):
        assert all(m["said"] == m[stored] for m in told(english[where], stored))
    for language, script in LANGUAGES.items():
        body = reads(match, language)
        for where in ("events", "replay", "state", "live"):
            for found in told(body[where], stored):
                said = found["said"]
                assert script.search(said) and english_words(said, names) == [], (language, where, said)
                assert all(word in said for word in must_name), (language, said)
                assert re.search(r"[a-z]{3,} [a-z]{3,}", found[stored]), found  # the stored English stays


def test_a_wizard_revoke_is_said_in_the_readers_language(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    match.ok({"type": "record_round", "bids": {"ann": 0, "bob": 0}, "tricks": {"ann": 0, "bob": 1}})
    match.ok({"type": "start_round", "trump_card": "jester"})
    for player in ("ann", "bob"):
        match.ok({"type": "bid", "player": player, "tricks": 0})
    # bob shows void in spades with 2H, and yet holds KS: a revoke.
    for player, card in (("ann", "AS"), ("bob", "2H"), ("ann", "3C"), ("bob", "KS")):
        match.ok({"type": "play", "player": player, "card": card})
    check(match, "message", ["ann", "bob"], ["bob", "KS"])


def test_a_hat_trick_judgements_reason_is_said_in_the_readers_language(
    recorded: Callable[..., Table],
) -> None:
    match = recorded("hat-trick", 1, 2)
    players = list(match.created["players"])
    check(match, "message", players, [])


@pytest.mark.parametrize("seed", [2, 3])
def test_the_hobbits_result_is_said_in_the_readers_language(
    recorded: Callable[..., Table], seed: int
) -> None:
    match = recorded("hobbit", seed)
    check(match, "explanation", list(match.created["players"]), [])
