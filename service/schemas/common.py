"""marshmallow schemas every group of routes shares: problems, logged events, liveness."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

MAX_PLAYERS_PER_REQUEST = 16
NAME = validate.Length(min=1, max=64)


class Problem(Schema):
    """RFC 9457 problem details (some problems carry more members, e.g. ``errors``, ``actual``)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String()
    instance = fields.String()


class StoredEventOut(Schema):
    """One logged event."""

    seq = fields.Integer()
    type = fields.String()
    data = fields.Dict()
    meta = fields.Dict()


class Health(Schema):
    """Liveness and the store's state."""

    status = fields.String()
    redis = fields.String()
