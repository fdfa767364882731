"""Over HTTP: one person however the name is typed, in actions, statistics, leaderboards and the
match list; a name two seats share, or one holding invisible characters, refused with a sentence."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable

from flask.testing import FlaskClient

from games.registry import get_game
from tests.service.conftest import Table

NFC_ZOE = unicodedata.normalize("NFC", "Zoë")
NFD_ZOE = unicodedata.normalize("NFD", "Zoë")


def test_ann_typed_full_width_and_zoe_typed_apart_are_each_one_person_in_the_statistics(
    table: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    script = get_game("wizard").example(10)
    made = []
    for ann, zoe in (("ann", NFC_ZOE), ("ａｎｎ", NFD_ZOE)):
        # The actions say "ann": the seat is found by the name's key.
        players = [{"ann": ann, "bob": zoe}.get(p, p) for p in script["players"]]
        match = table("wizard", players, setup=script["setup"], options=script["options"])
        assert match.created["players"][script["players"].index("bob")] == NFC_ZOE
        for action in script["actions"]:  # every action names bob's seat as NFD "Zoë"
            match.ok(json.loads(json.dumps(action).replace('"bob"', json.dumps(NFD_ZOE))))
        made.append(match)
    work()
    for first, *others in (("ann", "ａｎｎ", "ＡＮＮ"), (NFC_ZOE, NFD_ZOE, "ZOË")):
        answers = [client.get(f"/v1/players/{name}").json for name in (first, *others)]
        assert all(a == answers[0] for a in answers) and answers[0]["matches"] == 2
    rows = client.get("/v1/leaderboards/wizard").json["players"]
    assert sorted(r["name"] for r in rows) == sorted(
        ["ann", NFC_ZOE, *[p for p in script["players"] if p not in ("ann", "bob")]]
    )
    assert all(r["matches"] == 2 for r in rows)
    listed = client.get("/v1/matches", query_string={"player": NFD_ZOE}).json["matches"]
    assert {m["id"] for m in listed} == {m.id for m in made}


def test_an_action_naming_a_seat_in_another_form_is_recorded_under_the_seat_name(
    table: Callable[..., Table],
) -> None:
    match = table("wizard", [NFC_ZOE, "bob"], setup={"first_dealer": "bob"})
    match.ok({"type": "start_round", "trump_card": "7H"})
    answer = match.act({"type": "bid", "player": NFD_ZOE, "tricks": 1})
    assert answer.status_code == 201, answer.json
    assert answer.json["events"][0]["data"]["player"] == NFC_ZOE


def test_seats_that_are_one_name_and_names_with_invisible_characters_are_refused(client: FlaskClient) -> None:
    for players, says in (
        (["ann", "ａｎｎ"], "'ann' and 'ａｎｎ'"),
        ([NFC_ZOE, NFD_ZOE], f"{NFC_ZOE!r} is seated twice"),
        (["ann", "b\u200bob"], "U+200B"),
        (["ann", "\u202ebob"], "U+202E"),
    ):
        body = {"game": "wizard", "players": players, "setup": {"first_dealer": "ann"}}
        answer = client.post("/v1/matches", json=body)
        assert answer.status_code == 400 and answer.json["code"] == "invalid_players", answer.json
        assert says in answer.json["detail"]
