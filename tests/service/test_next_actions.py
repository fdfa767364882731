"""GET /v1/matches/{id}/next: who is to act and what is legal now, for every game, without
telling a public reader what a hidden hand holds."""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from games.legal import build
from games.registry import all_games
from tests.service.conftest import SHORT, Table
from tests.support.offers import pick
from tests.support.wizard import bids, plays

WIZARD = {"setup": {"first_dealer": "ann"}, "options": {"canadian_rule": True}}


def entry(answer: dict[str, Any], kind: str, player: str | None = None) -> dict[str, Any]:
    """The offered entry of ``kind`` (for ``player``)."""
    return next(
        e
        for e in answer["actions"]
        if e["type"] == kind and (player is None or e["fixed"].get("player") == player)
    )


def values(answer: dict[str, Any], kind: str, name: str, player: str | None = None) -> list[Any]:
    """The values offered for field ``name`` of ``kind``."""
    return next(f["values"] for f in entry(answer, kind, player)["fields"] if f["name"] == name)


def test_next_says_who_deals_and_offers_the_round_start_and_the_scores_only_path(
    table: Callable[..., Table],
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    answer = match.get("next")
    assert answer.status_code == 200
    body = answer.json
    assert body["version"] == 1 and body["finished"] is False and body["to_act"] == ["ann"]
    assert {e["type"] for e in body["actions"]} == {"start_round", "record_round"}
    assert "7H" in values(body, "start_round", "trump_card")
    assert values(body, "record_round", "tricks.bob") == [0, 1]
    assert body["undo"] == {"possible": False, "sentence": None}
    assert "Authorization" in [v.strip() for v in answer.headers["Vary"].split(",")]


def test_a_dealer_who_does_not_lead_alone_is_offered_every_bid(
    table: Callable[..., Table],
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], **WIZARD)
    # Round 1 gives ann the lead alone: she bids 1 and takes the trick.
    for action in [
        {"type": "start_round", "trump_card": "7H"},
        *bids(bob=0, cy=0, ann=1),
        *plays(bob="2S", cy="3S", ann="AS"),
    ]:
        match.ok(action)
    # Round 2: bob deals; ann leads alone but does not deal, so bob may bid anything...
    match.ok({"type": "start_round", "trump_card": "jester"})
    match.ok({"type": "bid", "player": "cy", "tricks": 1})
    match.ok({"type": "bid", "player": "ann", "tricks": 0})
    assert values(match.get("next").json, "bid", "tricks", "bob") == [0, 1, 2]


def test_the_sole_leading_dealer_may_not_bid_so_the_bids_add_up(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "bob"}, options={"canadian_rule": True})
    # Round 1, dealt by bob: ann bids 1 and takes the trick (30 points), bob misses.
    match.ok({"type": "record_round", "bids": {"ann": 1, "bob": 1}, "tricks": {"ann": 1, "bob": 0}})
    # Round 2 is ann's deal; ann leads alone, bob bids 1 first.
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "bob", "tricks": 1})
    assert values(match.get("next").json, "bid", "tricks", "ann") == [0, 2]
    refused = match.act({"type": "bid", "player": "ann", "tricks": 1})
    assert refused.status_code == 422 and refused.json["code"] == "canadian_rule"


def test_a_recorded_hand_narrows_the_cards_for_the_table_and_a_public_reader_learns_nothing_of_it(
    table: Callable[..., Table],
) -> None:
    with_hands = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    without = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    with_hands.ok({"type": "start_round", "trump_card": "7H", "hands": {"ann": ["2C"], "bob": ["KS"]}})
    without.ok({"type": "start_round", "trump_card": "7H"})
    for match in (with_hands, without):
        match.ok({"type": "bid", "player": "bob", "tricks": 1})
        match.ok({"type": "bid", "player": "ann", "tricks": 0})
    mine = with_hands.client.get(f"/v1/matches/{with_hands.id}/next", headers=with_hands.auth).json
    assert values(mine, "play", "card", "bob") == ["KS"]
    public = with_hands.get("next").json
    assert "7H" not in values(public, "play", "card", "bob")
    assert public["actions"] == without.get("next").json["actions"]
    # The public undo sentence names the action, not its values.
    assert public["undo"]["sentence"] == "ann: bid"


def test_another_matchs_token_is_refused(table: Callable[..., Table]) -> None:
    one = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    other = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    answer = one.client.get(f"/v1/matches/{one.id}/next", headers=other.auth)
    assert answer.status_code == 403 and answer.json["code"] == "wrong_token"


def test_an_unknown_match_is_a_404(client: Any) -> None:
    answer = client.get("/v1/matches/0123456789abcdef/next")
    assert answer.status_code == 404 and answer.json["code"] == "unknown_match"


def test_undo_and_redo_say_what_they_would_take_back_and_put_back(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "bob", "tricks": 1})
    match.ok({"type": "bid", "player": "ann", "tricks": 0})
    match.ok({"type": "play", "player": "bob", "card": "KS"})
    match.ok({"type": "play", "player": "ann", "card": "3H"})
    mine = match.client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json
    assert mine["undo"]["sentence"] == "ann: play a card 3♥ (then trick won and round scored)"
    assert mine["redo"] == {"possible": False, "sentence": None}
    assert match.post("undo").status_code == 201
    mine = match.client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json
    assert mine["redo"]["sentence"] == "ann: play a card 3♥ (then trick won and round scored)"
    assert mine["undo"]["sentence"] == "bob: play a card K♠"
    assert mine["to_act"] == ["ann"]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_is_recorded_to_its_end_by_sending_what_next_offers(
    game_id: str, table: Callable[..., Table]
) -> None:
    script = all_games()[game_id].example(SHORT[game_id])
    match = table(game_id, script["players"], setup=script["setup"], options=script["options"])
    rng = Random(SHORT[game_id])
    for _ in range(3000):
        body = match.client.get(f"/v1/matches/{match.id}/next", headers=match.auth).json
        if body["finished"]:
            break
        assert _first_accepted(match, body, rng), f"nothing offered was accepted: {body}"
    assert match.get("scores").json["finished"] is True
    assert match.get("next").json == {
        **match.get("next").json,
        "finished": True,
        "to_act": [],
        "actions": [],
    }


def _first_accepted(match: Table, body: dict[str, Any], rng: Random) -> bool:
    """Send offered actions, chosen at random, until one is recorded (a refusal records nothing)."""
    for _ in range(60):
        found = rng.choice(body["actions"])
        action = build(found, pick(rng, found))
        if match.act(action, **{"If-Match": str(body["version"])}).status_code == 201:
            return True
    return False


def _public_and_table(match: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """The next answer without the token and with it."""
    path = f"/v1/matches/{match.id}/next"
    return match.client.get(path).json, match.client.get(path, headers=match.auth).json


HOBBIT = {"setup": {"characters": {"ann": "bilbo", "bob": "smaug"}}}
HOBBIT_DECK = [f"{c}-{v}" for c in ("red", "yellow", "green", "blue", "purple") for v in range(1, 13)]


def test_hobbit_hands_narrow_the_table_s_cards_and_stay_hidden_from_a_public_reader(
    table: Callable[..., Table],
) -> None:
    with_hands = table("hobbit", ["ann", "bob"], **HOBBIT)
    without = table("hobbit", ["ann", "bob"], **HOBBIT)
    hands = {"ann": HOBBIT_DECK[:30], "bob": HOBBIT_DECK[30:]}
    with_hands.ok({"type": "start_round", "leader": "ann", "hands": hands})
    without.ok({"type": "start_round", "leader": "ann"})
    for match in (with_hands, without):
        match.ok({"type": "play", "player": "ann", "card": "red-5", "mark": "light"})
    public, mine = _public_and_table(with_hands)
    # bob holds no red card, so the table may play any of his; the public is offered every card left.
    assert values(mine, "play", "card", "bob") == HOBBIT_DECK[30:]
    assert public["actions"] == without.get("next").json["actions"]
    assert "red-6" in values(public, "play", "card", "bob")


HATS = {
    "setup": {
        "start_player": "ann",
        "table": ["red-1", "orange-1", "yellow-1", "green-1", "blue-1"],
        "removed_types": ["purple", "pink"],
    }
}
ANN = ["red-2", "red-3", "red-4", "red-5", "red-6", "orange-2", "orange-3", "orange-4", "orange-5"]


def test_a_hats_hand_narrows_the_table_s_swaps_and_stays_hidden_from_a_public_reader(
    table: Callable[..., Table],
) -> None:
    with_hand = table("hats", ["ann", "bob"], setup=HATS["setup"] | {"hands": {"ann": ANN}})
    without = table("hats", ["ann", "bob"], **HATS)
    public, mine = _public_and_table(with_hand)
    swaps = entry(mine, "swap", "ann")["choices"]
    assert {c["card"] for c in swaps} == set(ANN)
    # Type-or-higher: red-2 goes onto red-1 (same type) and onto any 1 (higher value).
    assert {c["space"] for c in swaps if c["card"] == "red-2"} == {1, 2, 3, 4, 5}
    assert public["actions"] == without.get("next").json["actions"]
    assert {c["card"] for c in entry(public, "swap", "ann")["choices"]} > set(ANN)


def test_a_finished_match_offers_nothing_and_undo_is_still_said(recorded: Callable[..., Table]) -> None:
    match = recorded("hat-trick", SHORT["hat-trick"])
    body = match.get("next").json
    assert body["finished"] is True and body["to_act"] == [] and body["actions"] == []
    assert body["undo"]["possible"] is True and body["undo"]["sentence"]


def test_a_card_that_would_be_a_revoke_is_offered_with_the_sentence_why(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"})
    match.ok({"type": "record_round", "bids": {"ann": 0, "bob": 0}, "tricks": {"ann": 0, "bob": 1}})
    for action in [
        {"type": "start_round", "trump_card": "jester"},
        {"type": "bid", "player": "ann", "tricks": 0},
        {"type": "bid", "player": "bob", "tricks": 0},
        {"type": "play", "player": "ann", "card": "AS"},
        {"type": "play", "player": "bob", "card": "2H"},  # bob shows void in spades
    ]:
        match.ok(action)
    body = match.get("next").json
    field = entry(body, "play", "ann")["fields"][0]
    assert "flags" not in field  # ann followed suit
    match.ok({"type": "play", "player": "ann", "card": "3C"})  # ann won trick 1 and leads trick 2
    body = match.get("next").json
    field = entry(body, "play", "bob")["fields"][0]
    assert "KS" in field["values"]
    assert field["flags"]["KS"].startswith("a revoke: bob did not follow spades in trick 1")
    assert "3D" not in field.get("flags", {})
    answer = match.ok({"type": "play", "player": "bob", "card": "KS"})
    assert any(e["type"] == "DisputeRaised" for e in answer["events"])


def test_a_secret_bid_is_not_told_by_the_public_undo_sentence(table: Callable[..., Table]) -> None:
    match = table("wizard", ["ann", "bob"], setup={"first_dealer": "ann"}, options={"bidding": "secret"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    match.ok({"type": "bid", "player": "ann", "tricks": 1})
    public, mine = _public_and_table(match)
    assert public["undo"]["sentence"] == "ann: bid"
    assert mine["undo"]["sentence"] == "ann: bid 1"
    # Bidding in any order: bob may still bid, and ann's bid is not shown in what is offered.
    assert public["to_act"] == ["bob"] and values(public, "bid", "tricks", "bob") == [0, 1]


@pytest.mark.parametrize("game_id", ["other-hat-trick", "hat-trick"])
def test_a_game_that_hides_nothing_answers_the_public_as_the_table(
    game_id: str, recorded: Callable[..., Table]
) -> None:
    match = recorded(game_id, SHORT[game_id], upto=3)
    public, mine = _public_and_table(match)
    assert public["actions"] == mine["actions"] and public["actions"]


def test_a_player_whose_name_holds_dots_is_named_after_the_first_dot(table: Callable[..., Table]) -> None:
    match = table("wizard", ["j.r.", "bob"], setup={"first_dealer": "bob"})
    found = entry(match.get("next").json, "record_round")
    assert [f["name"] for f in found["fields"]][:2] == ["bids.j.r.", "bids.bob"]
    action = build(found, {"bids.j.r.": 1, "bids.bob": 0, "tricks.j.r.": 1, "tricks.bob": 0})
    assert action["bids"] == {"j.r.": 1, "bob": 0}
    match.ok(action)
