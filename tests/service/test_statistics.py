"""Player statistics, leaderboards and the match index equal a recomputation from the logs alone."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from events.keys import Keys
from games.registry import all_games, get_game
from projections.projecting.rebuild import rebuild_all
from tests.service.conftest import Table, record
from tests.support.folds import naive_at
from tests.support.games import copied

# Example seeds with short matches, so that a dozen matches stay quick to record.
SHORT = {
    "hat-trick": [1, 6, 11],
    "hats": [0, 3, 9],
    "hobbit": [1, 2, 5],
    "other-hat-trick": [6, 11],
    "wizard": [9, 10, 7],
}


def from_scratch(app: Flask) -> dict[str, dict[str, Any]]:
    """Each match's result folded from step 1 of its log, ignoring every projection."""
    parts = app.extensions["tabletape"]
    results = {}
    for match_id in parts.store.match_ids(0, 1000):
        game = get_game(parts.store.header(match_id)["game"])
        pos = naive_at(parts.store, game, match_id, parts.store.version(match_id))
        board = game.scores(copied(pos["game"]))
        finished = bool(board["finished"])
        results[match_id] = {
            "game": game.id,
            "players": pos["game"]["players"],
            "finished": finished,
            "winners": board["winners"],
            "figures": game.figures(pos["game"]) if finished and game.figures else {},
        }
    return results


def expected_player(name: str, results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A player's record counted the simplest way there is."""
    mine = [r for r in results.values() if r["finished"] and name in r["players"]]
    by_game: dict[str, Any] = {}
    for game_id in sorted({r["game"] for r in mine}):
        played = [r for r in mine if r["game"] == game_id]
        figures: dict[str, float] = {}
        for figure in sorted({f for r in played for f in r["figures"].get(name, {})}):
            values = [r["figures"][name][figure] for r in played]
            figures[figure] = round(sum(values) / len(values), 4)
        by_game[game_id] = {
            "matches": len(played),
            "wins": sum(name in r["winners"] for r in played),
            "figures": figures,
        }
    return {"matches": len(mine), "wins": sum(name in r["winners"] for r in mine), "by_game": by_game}


def assert_statistics_match(client: FlaskClient, app: Flask) -> None:
    """Every player's statistics, every leaderboard and the status index agree with the logs."""
    results = from_scratch(app)
    for name in sorted({p for r in results.values() for p in r["players"]}):
        got = client.get(f"/v1/players/{name}").json
        want = expected_player(name, results)
        assert (got["matches"], got["wins"]) == (want["matches"], want["wins"]), name
        assert {
            g: {k: v[k] for k in ("matches", "wins", "figures")} for g, v in got["by_game"].items()
        } == want["by_game"], name
    for game_id in all_games():
        board = client.get(f"/v1/leaderboards/{game_id}").json["players"]
        for row in board:
            want = expected_player(row["name"], results)["by_game"][game_id]
            assert (row["matches"], row["wins"]) == (want["matches"], want["wins"])
    finished = client.get("/v1/matches", query_string={"status": "finished", "limit": 200}).json
    assert {m["id"] for m in finished["matches"]} == {i for i, r in results.items() if r["finished"]}


@pytest.mark.parametrize("seed", [3, 8])
def test_statistics_equal_a_recomputation_after_random_matches_undos_and_rebuilds(
    table: Callable[..., Table],
    client: FlaskClient,
    app: Flask,
    work: Callable[[], int],
    redis_client: redis.Redis,
    keys: Keys,
    seed: int,
) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        game_id = rng.choice(sorted(SHORT))
        length = len(all_games()[game_id].example(example := rng.choice(SHORT[game_id]))["actions"])
        match = record(table, game_id, example, upto=None if rng.random() < 0.75 else length // 2)
        if rng.random() < 0.5:
            work()
        for word in rng.choice([[], ["undo"], ["undo", "redo"], ["undo", "undo", "redo"]]):
            assert match.post(word).status_code == 201
    work()
    assert_statistics_match(client, app)
    rebuilt = rebuild_all(app.extensions["tabletape"].projector)
    assert rebuilt.matches == 10
    assert_statistics_match(client, app)


def test_an_undo_after_the_end_retracts_the_match_from_the_statistics(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    match = recorded("hats", 0)
    work()
    winner = match.get("scores").json["winners"][0]
    before = client.get(f"/v1/players/{winner}").json
    assert (before["matches"], before["wins"], before["in_progress"]) == (1, 1, 0)
    assert match.post("undo").status_code == 201
    work()
    after = client.get(f"/v1/players/{winner}").json
    assert (after["matches"], after["wins"], after["in_progress"]) == (0, 0, 1)
    assert client.get("/v1/leaderboards/hats").json["players"] == []
    assert match.post("redo").status_code == 201
    work()
    assert client.get(f"/v1/players/{winner}").json["wins"] == 1


def test_wizard_bid_accuracy_is_the_share_of_rounds_bid_exactly(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    match = recorded("wizard", 10)
    work()
    rounds = match.get("scores").json["rounds"]
    for name in match.created["players"]:
        met = sum(r["bids"][name] == r["tricks"][name] for r in rounds)
        figures = client.get(f"/v1/players/{name}").json["by_game"]["wizard"]["figures"]
        assert figures == {"bid_accuracy": round(met / len(rounds), 4)}


def test_hats_cookie_rate_averages_who_took_the_last_cookie(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    cookies = [recorded("hats", seed).get("scores").json["cookie"] for seed in (0, 3, 9)]
    work()
    names = {n for seed in (0, 3, 9) for n in all_games()["hats"].example(seed)["players"]}
    for name in names:
        answer = client.get(f"/v1/players/{name}")
        rate = answer.json["by_game"]["hats"]["figures"]["cookie_rate"]
        played = answer.json["by_game"]["hats"]["matches"]
        assert rate == round(cookies.count(name) / played, 4)


def test_a_name_in_another_case_is_the_same_player_shown_as_first_spelled(
    table: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    script = get_game("wizard").example(10)
    made = []
    for spelling in ("Ann", "ANN"):  # the actions say "ann": seats are found ignoring case
        players = [spelling if p == "ann" else p for p in script["players"]]
        match = table("wizard", players, setup=script["setup"], options=script["options"])
        for action in script["actions"]:
            match.ok(action)
        made.append(match)
    work()
    answers = [client.get(f"/v1/players/{name}").json for name in ("ann", "ANN", "Ann")]
    assert answers[0] == answers[1] == answers[2]
    assert (answers[0]["name"], answers[0]["matches"], answers[0]["in_progress"]) == ("Ann", 2, 0)
    rows = client.get("/v1/leaderboards/wizard").json["players"]
    assert [r["matches"] for r in rows if r["name"].casefold() == "ann"] == [2]
    listed = client.get("/v1/matches", query_string={"player": "aNN"}).json["matches"]
    assert {m["id"] for m in listed} == {m.id for m in made}


def test_a_player_no_match_names_is_not_found_and_nor_is_an_unknown_games_leaderboard(
    client: FlaskClient,
) -> None:
    assert client.get("/v1/players/nobody").status_code == 404
    assert client.get("/v1/leaderboards/chess").json["code"] == "unknown_game"


def test_the_match_list_filters_by_game_player_and_status_newest_first_with_page_links(
    recorded: Callable[..., Table], client: FlaskClient, work: Callable[[], int]
) -> None:
    made = [recorded("hats", 0), recorded("hats", 3, upto=4), recorded("hat-trick", 1)]
    work()
    hats = client.get("/v1/matches", query_string={"game": "hats", "limit": 1}).json
    second = client.get(hats["links"]["next"]).json
    assert hats["total"] == 2 and second["links"]["next"] is None
    pages = hats["matches"] + second["matches"]
    assert {m["id"] for m in pages} == {made[0].id, made[1].id}
    assert pages[0]["created_ms"] >= pages[1]["created_ms"]
    assert client.get(second["links"]["prev"]).json["matches"] == hats["matches"]
    done = client.get("/v1/matches", query_string={"game": "hats", "status": "finished"}).json
    assert [m["id"] for m in done["matches"]] == [made[0].id]
    player = made[2].created["players"][0]
    mine = client.get("/v1/matches", query_string={"player": player}).json["matches"]
    assert made[2].id in [m["id"] for m in mine]
    assert all(player in m["players"] for m in mine)
