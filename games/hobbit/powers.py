"""The winner's distribution powers: what each character may do with the cards of a trick won.

Each check reads who got how many cards and answers with what broke the power, or None. The
refusal names the power in words, so the table can see at once which rule it broke.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from games.contract import N_, Message, State, fail, plural, words
from games.hobbit.constants import DISCARD, living

# --- constants -----------------------------------------------------------------------------------

POWERS = {
    "bilbo": N_("Bilbo's power gives one card to himself and one to another player, the rest discarded"),
    "thorin": N_("Thorin's power gives one card at random to each living player, any extra discarded"),
    "smaug": N_(
        "Smaug's power gives at most one card to each living player, himself included, the rest discarded"
    ),
    "gandalf": N_(
        "Gandalf's power gives at most one card to each living player, himself included, the rest discarded"
    ),
    "bolg": N_("Bolg's power gives one card to another player, the rest discarded"),
}
FREE = N_("The free distribution gives every card of the trick to some living player")

# --- Checks --------------------------------------------------------------------------------------


def check_distribution(state: State, winner: str, cards: dict[str, str]) -> None:
    """Refuse a distribution that breaks the winner's power (or the free rule)."""
    given = Counter(to for to in cards.values() if to != DISCARD)
    if state["options"]["distribution"] == "free":
        thrown = [card for card, to in cards.items() if to == DISCARD]
        if thrown:
            fail(
                "distribution_broken",
                "{FREE}; {thrown} cannot be discarded",
                FREE=words(FREE),
                thrown=", ".join(thrown),
            )
        return
    character = state["characters"][winner]
    problem = _CHECKS[character](winner, given, len(cards), living(state))
    if problem is not None:
        fail(
            "power_broken",
            "{power}; {winner} ({character}) {problem}",
            power=words(POWERS[character]),
            winner=winner,
            character=character,
            problem=problem,
        )


def _bilbo(winner: str, given: Counter[str], n: int, alive: list[str]) -> Message | None:
    kept = given[winner]
    others = sum(count for player, count in given.items() if player != winner)
    if kept != 1:
        return words("gave himself {cards}", cards=_cards(kept))
    if others != 1:
        return words("gave {cards} to other players", cards=_cards(others))
    return None


def _thorin(winner: str, given: Counter[str], n: int, alive: list[str]) -> Message | None:
    crowded = _crowded(given)
    if crowded:
        return crowded
    missed = [p for p in alive if given[p] == 0]
    if missed and n > sum(given.values()):
        return words("gave no card to {missed}", missed=missed)
    return None


def _one_each(winner: str, given: Counter[str], n: int, alive: list[str]) -> Message | None:
    return _crowded(given)


def _bolg(winner: str, given: Counter[str], n: int, alive: list[str]) -> Message | None:
    kept = given[winner]
    others = sum(count for player, count in given.items() if player != winner)
    if kept:
        return words("gave himself {cards}", cards=_cards(kept))
    if others != 1:
        return words("gave {cards} to other players", cards=_cards(others))
    return None


_CHECKS: dict[str, Callable[[str, Counter[str], int, list[str]], Message | None]] = {
    "bilbo": _bilbo,
    "thorin": _thorin,
    "smaug": _one_each,
    "gandalf": _one_each,
    "bolg": _bolg,
}

# --- private helpers -----------------------------------------------------------------------------


def _crowded(given: Counter[str]) -> Message | None:
    over = [
        words("{player} {cards}", player=player, cards=_cards(count))
        for player, count in given.items()
        if count > 1
    ]
    return words("gave {over}", over=over) if over else None


def _cards(count: int) -> Message:
    return plural("{count} card", "{count} cards", count=count)
