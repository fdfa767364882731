"""Hat Trick as data: the props, the deck, the star rules."""

from __future__ import annotations

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
STAR_RULES = ("off", "contain", "empty")
