"""Finished matches in BG Stats' own shapes: its export file (games, players, locations, plays
joined by refIds) and its createPlay link, with local times, ranks, roles and teams."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import pytest
from flask.testing import FlaskClient

from games.registry import all_games
from service.app import create_app
from service.config import Settings
from tests.service.conftest import SHORT, Table


def bgstats_file(client: FlaskClient, match_id: str) -> dict[str, Any]:
    answer = client.get(f"/v1/matches/{match_id}/export", query_string={"format": "bgstats"})
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def seats(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The one play's seats, each with its player's name joined in by refId."""
    names = {p["id"]: p["name"] for p in document["players"]}
    [play] = document["plays"]
    return [s | {"name": names[s["playerRefId"]]} for s in play["playerScores"]]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_a_finished_match_exports_as_bg_stats_own_file_with_every_reference_resolved(
    recorded: Callable[..., Table], client: FlaskClient, game_id: str
) -> None:
    match = recorded(game_id, SHORT[game_id])
    document = bgstats_file(client, match.id)
    assert {"games", "players", "locations", "plays"} <= set(document)
    [game], [play] = document["games"], document["plays"]
    assert game["name"] == all_games()[game_id].title and play["gameRefId"] == game["id"]
    for row in (game, play, *document["players"]):
        assert isinstance(row["uuid"], str) and len(row["uuid"]) == 36
    scores = match.get("scores").json
    lines = seats(document)
    assert [s["name"] for s in lines] == match.created["players"]
    assert [s["seatOrder"] for s in lines] == list(range(1, len(lines) + 1))
    assert {s["name"] for s in lines if s["winner"]} == set(scores["winners"])
    assert all(s["rank"] == 1 for s in lines if s["winner"]) and all(
        s["rank"] > 1 for s in lines if not s["winner"]
    )
    for line in lines:
        assert line["score"] == str(scores.get("totals", {}).get(line["name"], ""))
    assert sum(s["startPlayer"] for s in lines) <= 1
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S") and play["durationMin"] >= 1


def test_the_hobbit_exports_without_points_with_each_character_as_role_and_side_as_team(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hobbit", SHORT["hobbit"])
    document = bgstats_file(client, match.id)
    [game] = document["games"]
    assert game["noPoints"] is True and game["highestWins"] is False
    characters = match.created["setup"]["characters"]
    for line in seats(document):
        assert line["role"] == characters[line["name"]].title() and line["team"] in ("Good", "Evil")
        assert line["score"] == ""


def test_hats_partners_share_a_team_and_the_winning_partnership_ranks_first(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    script = next(s for s in map(all_games()["hats"].example, range(20)) if len(s["players"]) == 4)
    match = table("hats", script["players"], setup=script["setup"], options=script["options"])
    for action in script["actions"]:
        match.ok(action)
    document = bgstats_file(client, match.id)
    lines = {s["name"]: s for s in seats(document)}
    first, second, third, fourth = script["players"]
    assert lines[first]["team"] == lines[third]["team"] != lines[second]["team"] == lines[fourth]["team"]
    assert document["plays"][0]["usesTeams"] is True and document["games"][0]["usesTeams"] is True
    assert {s["rank"] for s in lines.values() if s["winner"]} == {1}


def test_wizard_carries_its_boardgamegeek_id(recorded: Callable[..., Table], client: FlaskClient) -> None:
    document = bgstats_file(client, recorded("wizard", SHORT["wizard"]).id)
    assert document["games"][0]["bggId"] == 1465


def test_the_play_date_is_the_local_time_of_the_matchs_time_zone(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    script = all_games()["other-hat-trick"].example(SHORT["other-hat-trick"])
    match = table(
        "other-hat-trick",
        script["players"],
        setup=script["setup"],
        options=script["options"],
        timezone="America/New_York",
        location="The Crooked Billet",
    )
    for action in script["actions"]:
        match.ok(action)
    assert match.get().json["timezone"] == "America/New_York"
    document = bgstats_file(client, match.id)
    begun = datetime.fromisoformat(match.get("events").json["events"][0]["meta"]["ts"])
    local = begun.astimezone(ZoneInfo("America/New_York")).strftime("%Y-%m-%d %H:%M:%S")
    assert document["plays"][0]["playDate"] == local
    assert [p["name"] for p in document["locations"]] == ["The Crooked Billet"]
    assert document["plays"][0]["locationRefId"] == document["locations"][0]["id"]


def test_a_time_zone_that_is_not_an_iana_name_is_refused_with_its_name(client: FlaskClient) -> None:
    answer = client.post(
        "/v1/matches",
        json={
            "game": "wizard",
            "players": ["ann", "bob", "cy"],
            "setup": {"first_dealer": "ann"},
            "timezone": "Mars/Olympus_Mons",
        },
    )
    assert answer.status_code == 400 and "Mars/Olympus_Mons" in answer.json["detail"]


def test_exporting_again_gives_the_same_uuids_so_bg_stats_updates_instead_of_doubling(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hat-trick", SHORT["hat-trick"])
    assert bgstats_file(client, match.id) == bgstats_file(client, match.id)


def test_the_create_play_link_opens_bg_stats_with_the_play_inline(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("wizard", SHORT["wizard"])
    answer = client.get(f"/v1/matches/{match.id}/export", query_string={"format": "bgstats-link"})
    url = answer.json["url"]
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(url.split("?data=", 1)[1]))
    assert data["sourceName"] == "tabletape" and data["sourcePlayId"] == match.id
    assert data["game"] == {
        "name": "Wizard",
        "sourceGameId": "wizard",
        "bggId": 1465,
        "highestWins": True,
        "noPoints": False,
    }
    assert [p["name"] for p in data["players"]] == match.created["players"]


def test_an_unfinished_match_does_not_export_as_a_play(
    recorded: Callable[..., Table], client: FlaskClient
) -> None:
    match = recorded("hats", 1, upto=3)
    for form in ("bgstats", "bgstats-link"):
        answer = client.get(f"/v1/matches/{match.id}/export", query_string={"format": form})
        assert answer.status_code == 409 and answer.json["code"] == "not_finished"


def test_a_wizard_match_recorded_by_its_scores_starts_at_the_first_dealers_left(
    table: Callable[..., Table], client: FlaskClient
) -> None:
    match = table("wizard", ["ann", "bob", "cy"], setup={"first_dealer": "bob"})
    for n in range(1, 21):
        match.ok(
            {
                "type": "record_round",
                "bids": {"ann": 0, "bob": 0, "cy": 0},
                "tricks": {"ann": n, "bob": 0, "cy": 0},
            }
        )
    lines = seats(bgstats_file(client, match.id))
    assert [s["name"] for s in lines if s["startPlayer"]] == ["cy"]


def test_an_operator_gives_the_boardgamegeek_ids_tabletape_cannot_confirm(
    settings: Settings, redis_client: Any, recorded: Callable[..., Table], client: FlaskClient
) -> None:
    assert Settings.from_env({"TABLETAPE_BGG_IDS": "hats=123, hobbit=456"}).bgg_ids == (
        ("hats", 123),
        ("hobbit", 456),
    )
    with pytest.raises(ValueError, match="hats=x"):
        Settings.from_env({"TABLETAPE_BGG_IDS": "hats=x"})
    match = recorded("hats", SHORT["hats"])
    assert bgstats_file(client, match.id)["games"][0]["bggId"] == 0
    app = create_app(dataclasses.replace(settings, bgg_ids=(("hats", 123),)))
    try:
        configured = app.test_client()
        [game] = bgstats_file(configured, match.id)["games"]
        assert (game["bggId"], game["bggName"]) == (123, "Hats")
        link = configured.get(f"/v1/matches/{match.id}/export", query_string={"format": "bgstats-link"})
        assert json.loads(unquote(link.json["url"].split("data=", 1)[1]))["game"]["bggId"] == 123
    finally:
        app.extensions["tabletape"].close()
