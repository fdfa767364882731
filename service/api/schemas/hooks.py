"""Webhooks' bodies and answers (/v1/hooks)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class HookIn(Schema):
    """POST /v1/hooks."""

    url = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    events = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=50),
        metadata={
            "description": "Kinds to deliver: match.created, match.finished, dispute.raised, an event "
            "type (RoundScored), or * for every event."
        },
    )


class HookOut(Schema):
    """A registered hook (its secret only in the answer to its registration)."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    owner = fields.String(
        required=True, metadata={"description": "The id of the API key that registered it."}
    )
    created_at = fields.Integer(required=True)
    paused = fields.Boolean(required=True)
    paused_reason = fields.String(required=True, allow_none=True)
    secret = fields.String(metadata={"description": "Signs every delivery; shown once, at registration."})


class HookList(Schema):
    """GET /v1/hooks."""

    hooks = fields.List(fields.Nested(HookOut), required=True)


class DeliveryOut(Schema):
    """One attempt at one delivery."""

    delivery_id = fields.String(required=True, metadata={"description": "The same for every attempt."})
    attempt = fields.Integer(required=True)
    at = fields.Integer(required=True, metadata={"description": "When it was tried (unix seconds)."})
    match_id = fields.String(required=True)
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    ok = fields.Boolean(required=True)
    status = fields.Integer(metadata={"description": "The receiver's HTTP status, when it answered."})
    error = fields.String(metadata={"description": "What went wrong, when something did."})


class DeliveryLog(Schema):
    """GET /v1/hooks/{id}/deliveries: newest first."""

    deliveries = fields.List(fields.Nested(DeliveryOut), required=True)
