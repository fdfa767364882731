"""What the API shows of a game's position, as one JSON Schema per game (``{Game}View`` in the
OpenAPI document's components): the ``state`` of the writes' answers, of GET …/state and of each
replay frame. The games' own code makes the views (games/<game>/view.py); these schemas say what
a client may rely on, and tests/test_positions_schema.py holds every example match's views to them.
"""

from __future__ import annotations

from service.api.schemas.positions import hat_trick, hats, hobbit, other_hat_trick, wizard
from service.api.schemas.positions.parts import Schema

VIEWS: dict[str, Schema] = {
    "hat-trick": hat_trick.VIEW,
    "hats": hats.VIEW,
    "hobbit": hobbit.VIEW,
    "other-hat-trick": other_hat_trick.VIEW,
    "wizard": wizard.VIEW,
}
