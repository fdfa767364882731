"""Hats scoring, worked out by hand: the tea table's values, every category, the cookie, winners.

Each case folds the facts of a finished match as events (evolve never validates, so a case states
only what it scores), then reveals the last favourite through ``decide`` so that the match ends with
the game's own MatchFinished.
"""

from __future__ import annotations

from typing import Any

from games.contract import event
from games.registry import get_game
from games.validation import validate_action
from tests.support.games import copied

GAME = get_game("hats")
State = dict[str, Any]
# Type values of this tea table: red 1, orange 2, yellow 3, green 4, blue 5, purple 6, pink 0.
TABLE = ["red-6", "orange-5", "yellow-4", "green-3", "blue-2", "purple-1"]


# --- helpers ---------------------------------------------------------------------------------


def finished(
    collected: dict[str, list[str]],
    favourites: dict[str, str],
    black: dict[str, int] | None = None,
    table: list[str] | None = None,
    removed: list[str] | None = None,
) -> tuple[State, dict[str, Any]]:
    """A finished match with these collections, black hats, favourites and final tea table.

    Every collected card passes through space 1: the first one is dealt there, each is taken by
    its collector as the next one is played onto it, and the last play restores the table's card.
    Returns the final state and the MatchFinished data.
    """
    table = table or TABLE
    players = list(collected)
    chain = [(player, card) for player in players for card in collected[player]]
    setup: dict[str, Any] = {"start_player": players[0], "table": list(table)}
    if chain:
        setup["table"][0] = chain[0][1]
    if removed:
        setup["removed_types"] = removed
    events = [event("MatchCreated", players=players, setup=setup, options={"partners": True})]
    for step, (player, card) in enumerate(chain):
        placed = chain[step + 1][1] if step + 1 < len(chain) else table[0]
        events.append(event("HatSwapped", player=player, card=placed, space=1, taken=card))
    for player, count in (black or {}).items():
        events += [event("BlackHatMade", player=player, card=None) for _ in range(count)]
    events.append(event("PlayEnded", plays=8))
    *first, last = players
    events += [event("FavouriteRevealed", player=p, card=favourites[p]) for p in first]
    state: State = {}
    for each in events:
        state = GAME.evolve(state, each)
    action = validate_action(GAME, {"type": "favourite", "player": last, "card": favourites[last]})
    for each in GAME.decide(copied(state), action):
        state = GAME.evolve(state, each)
        result = each["data"]
    assert state["finished"]
    return state, result


def row(state: State, player: str) -> dict[str, int]:
    return dict(GAME.scores(state)["categories"][player])


# --- the tea table and the collection --------------------------------------------------------


def test_a_type_twice_on_the_tea_table_scores_by_its_lowest_space() -> None:
    table = ["blue-6", "red-5", "blue-3", "green-4", "yellow-3", "orange-1"]
    state, _ = finished(
        {"ann": ["blue-1", "blue-4"], "bob": ["red-1"], "cy": ["green-1"]},
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-3"},
        table=table,
    )
    assert GAME.scores(state)["type_values"]["blue"] == 1  # space 1; the copy on space 3 is idle
    assert row(state, "ann")["collection"] == 1 + 1


def test_a_collected_type_missing_from_the_tea_table_scores_nothing() -> None:
    state, _ = finished(
        {"ann": ["pink-6", "pink-5", "red-1"], "bob": ["red-2"], "cy": ["red-3"]},
        {"ann": "orange-1", "bob": "orange-2", "cy": "orange-3"},
    )
    assert GAME.scores(state)["type_values"]["pink"] == 0
    assert row(state, "ann")["collection"] == 0 + 0 + 1


def test_each_black_hat_scores_one() -> None:
    state, _ = finished(
        {"ann": ["red-1"], "bob": [], "cy": []},
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-3"},
        black={"ann": 3, "bob": 8, "cy": 7},
    )
    assert [row(state, p)["black_hats"] for p in ("ann", "bob", "cy")] == [3, 8, 7]


def test_the_favourite_adds_its_types_collected_values_less_its_own_and_may_be_negative() -> None:
    state, _ = finished(
        {"ann": ["red-1", "red-2", "blue-5"], "bob": ["yellow-6", "yellow-5"], "cy": []},
        {"ann": "red-5", "bob": "yellow-1", "cy": "pink-4"},
    )
    assert row(state, "ann")["favourite"] == 1 + 2 - 5
    assert row(state, "bob")["favourite"] == 6 + 5 - 1
    assert row(state, "cy")["favourite"] == -4


# --- the last cookie -------------------------------------------------------------------------


def cookie(collected: dict[str, list[str]], black: dict[str, int] | None = None) -> str | None:
    favourites = {"ann": "pink-1", "bob": "pink-2", "cy": "pink-3"}
    state, result = finished(collected, favourites, black=black)
    board = GAME.scores(state)
    assert result["cookie"] == board["cookie"]
    for player in collected:
        assert board["categories"][player]["cookie"] == (5 if board["cookie"] == player else 0)
    holder: str | None = board["cookie"]
    return holder


def test_the_cookie_goes_to_the_most_types_whatever_their_values() -> None:
    assert cookie({"ann": ["red-4", "blue-5", "green-6"], "bob": ["red-1", "red-2"], "cy": []}) == ("ann")


def test_black_hats_count_as_one_type_for_the_cookie() -> None:
    assert cookie({"ann": ["red-4"], "bob": ["red-1"], "cy": []}, black={"ann": 2}) == "ann"


def test_a_cookie_tie_goes_to_the_lowest_card() -> None:
    assert cookie({"ann": ["red-2", "blue-5"], "bob": ["green-1", "yellow-6"], "cy": []}) == "bob"


def test_a_cookie_tie_on_the_lowest_card_goes_to_the_second_lowest() -> None:
    assert cookie({"ann": ["red-1", "blue-3"], "bob": ["green-1", "yellow-2"], "cy": []}) == "bob"


def test_a_cookie_tie_through_every_card_goes_to_nobody() -> None:
    assert cookie({"ann": ["red-1", "blue-3"], "bob": ["green-1", "yellow-3"], "cy": []}) is None


def test_a_cookie_tie_where_one_runs_out_of_cards_first_goes_to_nobody() -> None:
    # ann: red and black hats (2 types, cards [1]); bob: green, yellow (2 types, cards [1, 3]).
    collected = {"ann": ["red-1"], "bob": ["green-1", "yellow-3"], "cy": []}
    assert cookie(collected, black={"ann": 1}) is None


def test_the_cookie_scores_five() -> None:
    state, _ = finished(
        {"ann": ["red-1", "blue-1"], "bob": ["red-2"], "cy": []},
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-3"},
    )
    assert row(state, "ann") == {
        "collection": 1 + 5,
        "black_hats": 0,
        "favourite": -1,
        "cookie": 5,
        "total": 10,
    }


# --- winners ---------------------------------------------------------------------------------


def test_the_highest_total_wins() -> None:
    state, result = finished(
        {"ann": ["purple-2"], "bob": ["red-1"], "cy": ["red-2"]},
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-3"},
    )
    board = GAME.scores(state)
    # ann: 6 - 1; bob: 1 - 2; cy: 1 - 3; the cookie: one type each, lowest card bob's red-1.
    assert board["totals"] == {"ann": 5, "bob": 4, "cy": -2}
    assert (board["winners"], board["decided_by"], board["finished"]) == (["ann"], "total", True)
    assert result == {key: board[key] for key in ("winners", "totals", "cookie", "decided_by")}


def tied_at_seven(bob_favourite: str, bob_black_hats: int) -> dict[str, Any]:
    """The scoreboard where ann and bob end on 7 and cy on 5 holding the cookie.

    ann: 5 + 3 black hats - 1 favourite = 7; cy: 1 + 2 + 3 + 5 cookie - 6 favourite = 5;
    bob collected 4 + 4, and his black hats and favourite bring him to 7 too.
    """
    state, _ = finished(
        {"ann": ["blue-1"], "bob": ["green-1", "green-2"], "cy": ["red-2", "orange-1", "yellow-1"]},
        {"ann": "pink-1", "bob": bob_favourite, "cy": "pink-6"},
        black={"ann": 3, "bob": bob_black_hats},
    )
    return dict(GAME.scores(state))


def test_a_total_tie_goes_to_the_most_black_hats() -> None:
    board = tied_at_seven("pink-2", bob_black_hats=1)  # bob: 4 + 4 + 1 black hat - 2 favourite
    assert board["totals"] == {"ann": 7, "bob": 7, "cy": 5} and board["cookie"] == "cy"
    assert (board["winners"], board["decided_by"]) == (["ann"], "black_hats")


def test_a_tie_on_total_and_black_hats_goes_to_the_cookie_holder() -> None:
    state, _ = finished(
        {
            "ann": ["blue-1", "red-2"],  # 5 + 1 + 1 black hat + 5 cookie - 6 favourite = 6
            "bob": ["green-1", "orange-3"],  # 4 + 2 + 1 black hat - 1 favourite = 6
            "cy": ["red-3"],  # 1 - 5 favourite = -4
        },
        {"ann": "pink-6", "bob": "pink-1", "cy": "pink-5"},
        black={"ann": 1, "bob": 1},
    )
    board = GAME.scores(state)
    assert board["totals"] == {"ann": 6, "bob": 6, "cy": -4} and board["cookie"] == "ann"
    assert (board["winners"], board["decided_by"]) == (["ann"], "cookie")


def test_a_tie_the_cookie_does_not_settle_is_a_shared_win() -> None:
    board = tied_at_seven("pink-4", bob_black_hats=3)  # bob: 4 + 4 + 3 black hats - 4 favourite
    assert board["totals"] == {"ann": 7, "bob": 7, "cy": 5}
    assert (board["winners"], board["decided_by"]) == (["ann", "bob"], "shared")


def test_when_every_player_is_alike_in_every_tie_break_all_share_the_win() -> None:
    state, result = finished(
        {"ann": [], "bob": []},
        {"ann": "red-2", "bob": "orange-2"},
        black={"ann": 8, "bob": 8},
        table=["red-6", "orange-5", "yellow-4", "green-3", "blue-2"],
        removed=["pink", "purple"],
    )
    board = GAME.scores(state)
    assert board["totals"] == {"ann": 6, "bob": 6} and board["cookie"] is None
    assert (board["winners"], board["decided_by"]) == (["ann", "bob"], "shared")
    assert result["winners"] == ["ann", "bob"]


def test_two_teams_alike_in_every_tie_break_share_the_win() -> None:
    state, result = finished(
        # ann + cy: (1 - 1) + (3 - 4) = -1; bob + dee: (2 - 2) + (4 - 5) = -1; no black hats;
        # every cookie candidate holds one type and a lowest card of value 2: nobody takes it
        {"ann": ["red-2"], "bob": ["orange-2"], "cy": ["yellow-2"], "dee": ["green-2"]},
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-4", "dee": "pink-5"},
        table=["red-6", "orange-5", "yellow-4", "green-3", "blue-2", "purple-1"],
    )
    board = GAME.scores(state)
    assert [team["total"] for team in board["teams"]] == [-1, -1] and board["cookie"] is None
    assert (board["winners"], board["decided_by"]) == (["ann", "cy", "bob", "dee"], "shared")
    assert result["winners"] == board["winners"]


def test_four_players_add_up_as_partners_and_the_higher_team_wins() -> None:
    state, _ = finished(
        {
            "ann": ["red-2"],  # 1 + 2 black hats - 1 favourite = 2
            "bob": ["purple-2"],  # 6 - 2 favourite = 4
            "cy": ["orange-1", "yellow-1", "blue-1"],  # 2 + 3 + 5 + 5 cookie - 4 favourite = 11
            "dee": ["green-1"],  # 4 + 1 black hat - 3 favourite = 2
        },
        {"ann": "pink-1", "bob": "pink-2", "cy": "pink-4", "dee": "pink-3"},
        black={"ann": 2, "dee": 1},
    )
    board = GAME.scores(state)
    assert board["totals"] == {"ann": 2, "bob": 4, "cy": 11, "dee": 2}
    assert board["teams"] == [
        {"players": ["ann", "cy"], "total": 13, "black_hats": 2},
        {"players": ["bob", "dee"], "total": 6, "black_hats": 1},
    ]
    assert (board["winners"], board["decided_by"]) == (["ann", "cy"], "total")


def test_a_team_tie_goes_to_the_team_with_more_black_hats() -> None:
    state, _ = finished(
        {
            "ann": ["red-2"],  # 1 + 2 black hats - 1 favourite = 2
            "bob": ["red-1"],  # 1 + 1 black hat + 5 cookie (lowest card of 2 types) - 3 = 4
            "cy": ["red-3"],  # 1 - 1 favourite = 0
            "dee": ["red-4"],  # 1 - 3 favourite = -2
        },
        {"ann": "pink-1", "bob": "pink-3", "cy": "orange-1", "dee": "yellow-3"},
        black={"ann": 2, "bob": 1},
    )
    board = GAME.scores(state)
    assert board["totals"] == {"ann": 2, "bob": 4, "cy": 0, "dee": -2}
    assert [(team["total"], team["black_hats"]) for team in board["teams"]] == [(2, 2), (2, 1)]
    assert (board["winners"], board["decided_by"]) == (["ann", "cy"], "black_hats")


def test_an_unfinished_match_shows_its_running_scores_and_no_winner() -> None:
    names = ["ann", "bob", "cy"]
    state: State = {}
    for each in GAME.setup(names, {"start_player": "ann", "table": TABLE}, {"partners": True}):
        state = GAME.evolve(state, each)
    action = validate_action(GAME, {"type": "swap", "player": "ann", "card": "pink-3", "space": 5})
    for each in GAME.decide(state, action):
        state = GAME.evolve(state, each)
    board = GAME.scores(state)
    assert (board["finished"], board["winners"], board["decided_by"]) == (False, [], None)
    assert board["totals"] == {"ann": 0 + 5, "bob": 0, "cy": 0}  # blue-2 taken; cookie: ann
    assert board["categories"]["ann"]["collection"] == 0


def test_the_view_shows_every_category_as_the_scoreboard_counts_it() -> None:
    state, _ = finished(
        {"ann": ["red-3", "blue-4"], "bob": ["green-2"]}, {"ann": "blue-7", "bob": "red-2"}, {"ann": 1}
    )
    board = GAME.scores(state)
    assert GAME.view(state)["points"] == board["categories"]
    assert {p: row["total"] for p, row in GAME.view(state)["points"].items()} == board["totals"]
