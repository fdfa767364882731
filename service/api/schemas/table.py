"""marshmallow schemas of what a recorder at the table asks and sends: the legal actions now
(GET …/next) and a queue of writes sent at once (POST …/actions/batch)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.api.schemas.answers import StoredEventOut
from service.api.schemas.requests import MAX_NUMBER

# The most writes one batch carries: an evening's queue of a card-by-card Wizard match fits.
BATCH_MAX = 500
KEY = validate.Length(min=1, max=200)


class Plain(Schema):
    """A schema of plain dicts: a key left out stays out (never a dict method such as ``values``)."""

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        """The value of ``attr`` in ``obj``, or ``default`` when it has none."""
        return obj.get(attr, default) if isinstance(obj, dict) else super().get_attribute(obj, attr, default)


class LegalField(Plain):
    """One field of a legal action: its dotted path, and its values or their JSON Schema."""

    name = fields.String(required=True, metadata={"description": "A dotted path into the action body."})
    values = fields.List(fields.Raw(), metadata={"description": "Every legal value, as the API spells it."})
    schema = fields.Dict(metadata={"description": "Where the values cannot be listed: their JSON Schema."})
    optional = fields.Boolean(metadata={"description": "The field may be left out."})
    multiple = fields.Boolean(metadata={"description": "A list of the values is chosen."})
    min = fields.Integer(metadata={"description": "How many values a multiple field takes at least."})
    max = fields.Integer(metadata={"description": "How many values a multiple field takes at most."})
    flags = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "Values the rules accept but flag, each with the sentence why (a revoke "
            "found from what the table saw, recorded with a dispute)."
        },
    )


class LegalSum(Schema):
    """Fields whose values add up to a number (Wizard's tricks of a round recorded whole)."""

    fields_ = fields.List(fields.String(), data_key="fields", attribute="fields")
    equals = fields.Integer()


class LegalTogether(Schema):
    """Multiple fields that share no value and hold at least ``min`` values between them (Hat
    Trick's card: colour and grey)."""

    fields_ = fields.List(fields.String(), data_key="fields", attribute="fields")
    min = fields.Integer()


class LegalWithin(Schema):
    """Multiple fields each of whose values is one chosen in the fields ``of`` (Hat Trick's
    starred props: each one in colour or in grey)."""

    fields_ = fields.List(fields.String(), data_key="fields", attribute="fields")
    of = fields.List(fields.String())


class LegalStack(Schema):
    """A multiple field whose values form one stack (Hat Trick's placements): each value names its
    ``node`` once and rests, under one of the ``under`` keys, on the ``root`` for exactly one of
    them and on another value's node for the others."""

    field = fields.String()
    node = fields.String()
    under = fields.List(fields.String())
    root = fields.String()


class LegalAction(Schema):
    """An action type legal now for one acting player; send ``{"type", **fixed, fields}``."""

    type = fields.String(required=True)
    fixed = fields.Dict(required=True, metadata={"description": "Fields set already (the player)."})
    fields_ = fields.List(fields.Nested(LegalField), data_key="fields", attribute="fields", required=True)
    choices = fields.List(
        fields.Dict(),
        metadata={"description": "Where fields depend on one another: every legal combination."},
    )
    sum = fields.Nested(LegalSum)
    together = fields.Nested(LegalTogether)
    within = fields.Nested(LegalWithin)
    stack = fields.Nested(LegalStack)
    note = fields.String(metadata={"description": "What else binds the fields, in words."})


class Correction(Schema):
    """Whether an undo (or redo) is possible now, and what it would take back (or put back)."""

    possible = fields.Boolean(required=True)
    sentence = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The action in words, in the reader's language (Accept-Language): who, "
            "what, its values (a card as the recorder shows it: 7♥, 绿 7) and what it derived."
        },
    )


class NextOut(Schema):
    """GET /v1/matches/{id}/next."""

    version = fields.Integer(metadata={"description": "The log version this answer is for."})
    finished = fields.Boolean()
    to_act = fields.List(fields.String(), metadata={"description": "The players who may act now."})
    actions = fields.List(fields.Nested(LegalAction))
    undo = fields.Nested(Correction)
    redo = fields.Nested(Correction)


class BatchItem(Schema):
    """One queued write: an action, an undo or a redo, with its key and the version it expects."""

    key = fields.String(required=True, validate=KEY, metadata={"description": "Its Idempotency-Key."})
    expected_version = fields.Integer(
        validate=validate.Range(min=1, max=MAX_NUMBER),
        metadata={"description": "Its If-Match: written only if the match is at this version."},
    )
    kind = fields.String(required=True, validate=validate.OneOf(["action", "undo", "redo"]))
    action = fields.Dict(
        metadata={"description": "The action (kind action only), as POST …/actions takes it."}
    )

    @validates_schema
    def action_with_its_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        """An action item carries its action; an undo or a redo carries none."""
        if data.get("kind") == "action" and not isinstance(data.get("action"), dict):
            raise ValidationError("an item of kind 'action' carries the action as an object", "action")
        if data.get("kind") in ("undo", "redo") and "action" in data:
            raise ValidationError(f"an item of kind {data['kind']!r} carries no action", "action")


class BatchIn(Schema):
    """POST /v1/matches/{id}/actions/batch."""

    items = fields.List(
        fields.Nested(BatchItem),
        required=True,
        validate=validate.Length(
            min=1,
            max=BATCH_MAX,
            error=f"a batch holds 1 to {BATCH_MAX} items; send a longer queue in several batches, in order",
        ),
    )


class BatchResult(Schema):
    """What became of one item."""

    key = fields.String()
    status = fields.String(
        validate=validate.OneOf(["recorded", "duplicate", "conflict", "refused", "not_tried"]),
        metadata={
            "description": "recorded; duplicate (its key was recorded before: the first answer); "
            "conflict (the match was not at its expected version: the batch stops); refused (the "
            "rules or the request refused it: the batch stops); not_tried (after a stop)."
        },
    )
    version = fields.Integer()
    events = fields.List(fields.Nested(StoredEventOut))
    # Raw, so that a problem's own members (``actual``, ``errors``) are kept; typed as a Problem.
    problem = fields.Raw(
        metadata={
            "description": "The problem a single write would answer.",
            "allOf": [{"$ref": "#/components/schemas/Problem"}],
        }
    )


class BatchOut(Schema):
    """The answer to a batch: the match's version after it, and one result per item, in order."""

    version = fields.Integer()
    results = fields.List(fields.Nested(BatchResult))
