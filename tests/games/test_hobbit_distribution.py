"""The Hobbit Card Game: handing out a won trick (every power accepted and refused, the free rule,
what a distribution must name) and what the cards then do (heal, damage, pipe)."""

from __future__ import annotations

from typing import Any

import pytest
from hobbit_table import Table, of_type, types

# ann holds the character under test and wins the first trick (red-10 over red-2 and red-3).
CASTS = {
    "bilbo": {"ann": "bilbo", "bob": "smaug", "cy": "thorin"},
    "thorin": {"ann": "thorin", "bob": "smaug", "cy": "gandalf"},
    "gandalf": {"ann": "gandalf", "bob": "bolg", "cy": "bilbo"},
    "smaug": {"ann": "smaug", "bob": "bilbo", "cy": "bolg"},
    "bolg": {"ann": "bolg", "bob": "gandalf", "cy": "smaug"},
}
FREE_DUO = {"ann": "bilbo", "bob": "smaug"}


def won_by(character: str, **options: Any) -> Table:
    """A three-player table where ann, playing ``character``, has just won trick 1."""
    t = Table(CASTS[character], **options)
    t.start("ann")
    t.trick("red-10", "red-2", "red-3")
    return t


def handed(ten: str, two: str, three: str) -> dict[str, str]:
    """A distribution of trick 1's cards: red-10, red-2, red-3."""
    return {"red-10": ten, "red-2": two, "red-3": three}


# --- each power, accepted and refused ------------------------------------------------------------


@pytest.mark.parametrize(
    ("character", "cards"),
    [
        ("bilbo", handed("ann", "bob", "discard")),
        ("bilbo", handed("cy", "discard", "ann")),
        ("thorin", handed("ann", "bob", "cy")),
        ("thorin", handed("cy", "ann", "bob")),
        ("smaug", handed("ann", "bob", "cy")),
        ("smaug", handed("discard", "discard", "discard")),
        ("smaug", handed("ann", "discard", "discard")),
        ("gandalf", handed("discard", "bob", "discard")),
        ("gandalf", handed("discard", "discard", "discard")),
        ("bolg", handed("bob", "discard", "discard")),
        ("bolg", handed("discard", "discard", "cy")),
    ],
)
def test_a_distribution_within_the_winners_power_is_accepted(character: str, cards: dict[str, str]) -> None:
    t = won_by(character)
    events = t.act("distribute", cards=cards)
    assert of_type(events, "CardsDistributed")[0] == {
        "round": 1,
        "trick": 1,
        "player": "ann",
        "cards": cards,
    }
    assert t.view["phase"] == "playing" and t.view["to_act"] == ["ann"]


@pytest.mark.parametrize(
    ("character", "cards", "broken"),
    [
        ("bilbo", handed("ann", "ann", "bob"), "gave himself 2 cards"),
        ("bilbo", handed("bob", "cy", "discard"), "gave himself 0 cards"),
        ("bilbo", handed("ann", "bob", "cy"), "gave 2 cards to other players"),
        ("bilbo", handed("ann", "discard", "discard"), "gave 0 cards to other players"),
        ("thorin", handed("ann", "ann", "cy"), "gave ann 2 cards"),
        ("thorin", handed("ann", "bob", "discard"), "gave no card to cy"),
        ("smaug", handed("bob", "bob", "discard"), "gave bob 2 cards"),
        ("gandalf", handed("ann", "ann", "discard"), "gave ann 2 cards"),
        ("bolg", handed("ann", "discard", "discard"), "gave himself 1 card"),
        ("bolg", handed("bob", "cy", "discard"), "gave 2 cards to other players"),
        ("bolg", handed("discard", "discard", "discard"), "gave 0 cards to other players"),
    ],
)
def test_a_distribution_breaking_the_winners_power_is_refused_naming_the_power(
    character: str, cards: dict[str, str], broken: str
) -> None:
    error = won_by(character).refused("distribute", cards=cards)
    assert error.code == "power_broken"
    assert error.message.startswith(f"{character.capitalize()}'s power gives")
    assert f"ann ({character}) {broken}" in error.message


def test_with_free_distribution_any_living_player_may_get_any_number_of_cards() -> None:
    t = won_by("bilbo", distribution="free")
    assert "CardsDistributed" in types(t.act("distribute", cards=handed("bob", "bob", "bob")))


def test_with_free_distribution_no_card_may_be_discarded() -> None:
    error = won_by("smaug", distribution="free").refused("distribute", cards=handed("ann", "bob", "discard"))
    assert error.code == "distribution_broken" and "red-3" in error.message


# --- what a distribution must name ---------------------------------------------------------------


def test_distributing_before_the_trick_is_complete_is_refused() -> None:
    t = Table(CASTS["smaug"])
    t.start("ann")
    t.trick("red-10", "red-2")
    error = t.refused("distribute", cards={"red-10": "discard", "red-2": "discard"})
    assert error.code == "trick_not_won" and "cy plays next" in error.message


def test_distributing_before_any_round_is_refused() -> None:
    assert Table(FREE_DUO).refused("distribute", cards={"red-1": "ann"}).code == "wrong_phase"


def test_a_distribution_must_say_where_every_card_goes() -> None:
    error = won_by("smaug").refused("distribute", cards={"red-10": "discard", "red-2": "bob"})
    assert error.code == "card_missing" and "red-3" in error.message


def test_a_distribution_may_only_hand_out_the_tricks_cards() -> None:
    error = won_by("smaug").refused("distribute", cards={**handed("ann", "bob", "cy"), "red-4": "cy"})
    assert error.code == "card_not_in_trick" and "red 4" in error.message


def test_a_distribution_of_something_that_is_not_a_card_is_refused() -> None:
    error = won_by("smaug").refused("distribute", cards={**handed("ann", "bob", "cy"), "joker": "cy"})
    assert error.code == "unknown_card"


def test_a_card_cannot_go_to_someone_not_at_the_table() -> None:
    error = won_by("smaug").refused("distribute", cards=handed("zed", "bob", "cy"))
    assert error.code == "unknown_player" and "zed" in error.message


def test_a_distribution_is_read_in_any_case_and_recorded_canonically() -> None:
    t = won_by("smaug")
    events = t.act("distribute", cards={"RED-10": "ANN", "Red-2": "Discard", "red-3": "Cy"})
    assert of_type(events, "CardsDistributed")[0]["cards"] == handed("ann", "discard", "cy")


# --- what the cards do ---------------------------------------------------------------------------


def free_duo_after(*cards: str) -> Table:
    """A free-distribution table of bilbo (ann) and smaug (bob) that has just played ``cards``."""
    t = Table(FREE_DUO, distribution="free")
    t.start("ann")
    t.trick(*cards)
    return t


def effects(events: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(e["card"], e["player"], e["effect"]) for e in of_type(events, "CardTookEffect")]


def test_light_damages_an_evil_character_and_heals_a_good_one() -> None:
    t = free_duo_after("yellow-1", "yellow-2")
    events = t.give(yellow_1="ann", yellow_2="bob")
    assert effects(events) == [("yellow-1", "ann", "heal"), ("yellow-2", "bob", "damage")]
    assert of_type(events, "DamageChanged") == [
        {"player": "bob", "before": 0, "after": 1, "health": 1, "harm": 1, "heal": 0}
    ]
    assert t.view["characters"]["bob"]["health"] == 1
    assert t.view["damage_dealt"] == {"good": 1, "evil": 0}


def test_dark_damages_a_good_character_and_heals_an_evil_one() -> None:
    t = free_duo_after("green-1", "green-2")
    events = t.give(green_1="bob", green_2="ann")
    assert effects(events) == [("green-1", "bob", "heal"), ("green-2", "ann", "damage")]
    assert t.view["characters"]["ann"]["damage"] == 1 and t.view["characters"]["bob"]["damage"] == 0
    assert t.view["damage_dealt"] == {"good": 0, "evil": 1}


def test_a_pipe_is_counted_and_does_nothing_else() -> None:
    t = free_duo_after("red-1", "red-2")
    events = t.give(red_1="ann", red_2="ann")
    assert effects(events) == [("red-1", "ann", "pipe"), ("red-2", "ann", "pipe")]
    assert "DamageChanged" not in types(events)
    assert t.view["characters"]["ann"]["pipes"] == 2 and t.view["characters"]["ann"]["health"] == 2


@pytest.mark.parametrize(
    "cards",
    [
        pytest.param(("yellow-1", "yellow-3"), id="healing_never_lifts_health_above_two"),
        # One at a time, the heal would be lost on a healthy character and the harm would stay.
        pytest.param(("yellow-1", "green-2"), id="the_cards_of_one_trick_take_effect_together"),
    ],
)
def test_a_healthy_character_handed_these_cards_stays_unharmed(cards: tuple[str, str]) -> None:
    t = free_duo_after(*cards)
    events = t.give(**{card.replace("-", "_"): "ann" for card in cards})
    assert "DamageChanged" not in types(events)
    assert t.view["characters"]["ann"]["health"] == 2 and t.view["characters"]["ann"]["damage"] == 0


def test_healing_takes_away_damage_taken_earlier() -> None:
    t = free_duo_after("green-1", "green-2")
    t.give(green_1="ann", green_2="bob")
    t.trick("yellow-3", "yellow-4")
    t.give(yellow_3="ann", yellow_4="ann")
    assert t.view["characters"]["ann"]["damage"] == 0


def test_damage_dealt_counts_every_harm_before_any_healing() -> None:
    t = free_duo_after("yellow-1", "green-2")
    t.give(yellow_1="ann", green_2="ann")
    assert t.view["damage_dealt"] == {"good": 0, "evil": 1}


def test_a_discarded_card_does_nothing() -> None:
    t = Table({"ann": "gandalf", "bob": "smaug"})
    t.start("ann")
    t.trick("green-1", "green-2")
    events = t.give(green_1="discard", green_2="discard")
    assert types(events)[:2] == ["CardsDistributed", "LeaderChosen"]
    assert t.view["characters"]["ann"]["damage"] == 0
