"""The pure aggregation behind player statistics and leaderboards."""

from __future__ import annotations

from typing import Any

from projections.readmodels.stats import aggregate, leaderboard


def summary(
    game: str, players: list[str], winners: list[str], finished: bool = True, **figures: dict[str, float]
) -> dict[str, Any]:
    return {
        "game": game,
        "players": players,
        "winners": winners,
        "finished": finished,
        "totals": None,
        "figures": figures,
    }


MATCHES = [
    summary("wizard", ["ann", "bob"], ["ann"], ann={"bid_accuracy": 0.5}, bob={"bid_accuracy": 0.25}),
    summary("wizard", ["ann", "bob"], ["bob"], ann={"bid_accuracy": 1.0}, bob={"bid_accuracy": 0.75}),
    summary("hats", ["ann", "cy"], []),
    summary("hats", ["ann", "cy"], ["ann"], finished=False),
]


def test_a_players_record_counts_finished_matches_and_averages_each_figure_by_game() -> None:
    ann = aggregate("ann", MATCHES)
    assert (ann["matches"], ann["wins"], ann["win_rate"]) == (3, 1, 0.3333)
    assert ann["by_game"]["wizard"] == {
        "matches": 2,
        "wins": 1,
        "win_rate": 0.5,
        "figures": {"bid_accuracy": 0.75},
    }
    assert ann["by_game"]["hats"]["wins"] == 0 and ann["by_game"]["hats"]["figures"] == {}


def test_a_draw_is_a_match_without_a_win_and_an_unknown_player_has_no_record() -> None:
    assert aggregate("cy", MATCHES)["by_game"] == {
        "hats": {"matches": 1, "wins": 0, "win_rate": 0.0, "figures": {}}
    }
    assert aggregate("zed", MATCHES) == {
        "name": "zed",
        "matches": 0,
        "wins": 0,
        "win_rate": 0.0,
        "by_game": {},
    }


def test_a_leaderboard_ranks_by_wins_then_win_rate_then_name() -> None:
    more = MATCHES + [summary("wizard", ["bob", "cy"], ["bob"])]
    rows = leaderboard("wizard", more)
    assert [(r["rank"], r["name"], r["wins"], r["matches"]) for r in rows] == [
        (1, "bob", 2, 3),
        (2, "ann", 1, 2),
        (3, "cy", 0, 1),
    ]
    assert leaderboard("hats", MATCHES)[0]["name"] == "ann"


def test_names_that_differ_only_in_case_are_one_player_shown_as_first_spelled() -> None:
    first = summary("wizard", ["Ann", "bob"], ["Ann"], Ann={"bid_accuracy": 1.0}) | {"created_ms": 1}
    later = summary("wizard", ["ANN", "bob"], ["bob"], ANN={"bid_accuracy": 0.5}) | {"created_ms": 2}
    for asked in ("ann", "ANN", "Ann"):
        record = aggregate(asked, [later, first])
        assert (record["name"], record["matches"], record["wins"]) == ("Ann", 2, 1)
        assert record["by_game"]["wizard"]["figures"] == {"bid_accuracy": 0.75}
    rows = leaderboard("wizard", [later, first])
    assert [(r["name"], r["matches"], r["wins"]) for r in rows] == [("Ann", 2, 1), ("bob", 2, 1)]
