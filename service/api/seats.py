"""A seat per player's phone, and a lost table token replaced with the recovery code."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Response, request

from service.api import bearer_token, match_blueprint, services
from service.api.schemas.answers import SeatOut, TableTokenOut
from service.api.schemas.requests import RecoverIn

blp = match_blueprint(
    "seats", __name__, "Seats for the players' own phones, and the table's token recovered."
)


@blp.route("/<match_id>/seats/<player>", methods=["POST"])
@blp.response(201, SeatOut)
def issue_seat(match_id: str, player: str) -> dict[str, Any]:
    """A new token for one player's seat, with the table's token (the seat's earlier token stops
    working). The seat records only that player's own actions and reads that player's hidden facts."""
    seat = services().seats.issue(match_id, bearer_token(), player)
    page = f"{request.script_root}/matches/{match_id}/seat/{quote(seat.player, safe='')}"
    return {"player": seat.player, "token": seat.token, "link": f"{page}#token={seat.token}"}


@blp.route("/<match_id>/seats/<player>", methods=["DELETE"])
@blp.response(204)
def revoke_seat(match_id: str, player: str) -> Response:
    """Take back one player's seat token, with the table's token."""
    services().seats.revoke(match_id, bearer_token(), player)
    return Response(status=204)


@blp.route("/<match_id>/token", methods=["POST"])
@blp.arguments(RecoverIn())
@blp.response(201, TableTokenOut)
def recover_token(body: dict[str, Any], match_id: str) -> dict[str, Any]:
    """A new table token for the recovery code shown when the match was created; the old token
    stops working at once and the code is spent (the answer carries the next one)."""
    new = services().seats.recover(match_id, body["recovery_code"])
    return {"token": new.token, "recovery_code": new.recovery_code}
