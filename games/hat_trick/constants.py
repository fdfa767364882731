"""Hat Trick as data: the props, the deck, the star rules."""

from __future__ import annotations

from games.contract import N_, Message, words

# --- constants -------------------------------------------------------------------------------

GAME_ID = "hat-trick"
TITLE = "Hat Trick"
MIN_PLAYERS = 2
MAX_PLAYERS = 4

DECK_SIZE = 55
PROPS = ("coin", "rabbit", "tube", "goblet", "hat")  # smallest first; also the canonical order
SIZE = {prop: rank for rank, prop in enumerate(PROPS)}
CONTAINERS = ("tube", "goblet", "hat")
TABLE = "table"
# A prop's name in a sentence (the catalogs give the table's words: 金币, 兔子, 圆筒, 高脚杯, 魔术帽).
PROP_NAMES = {
    "coin": N_("coin"),
    "rabbit": N_("rabbit"),
    "tube": N_("tube"),
    "goblet": N_("goblet"),
    "hat": N_("hat"),
}


def prop_name(prop: str) -> Message | str:
    """A prop in a sentence, in the reader's language (an unknown name as it was given)."""
    return words(PROP_NAMES[prop]) if prop in PROP_NAMES else prop


STAR_RULES = ("off", "contain", "empty")
