"""The global feed's query and answers (GET /v1/feed)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from events.keys import FEED_PARTITIONS, FEED_PARTITIONS_CLUSTER

POSITION = r"^[0-9]{1,15}(\.[0-9]{1,15})*$"


class FeedQuery(Schema):
    """GET /v1/feed."""

    after = fields.String(
        validate=validate.Regexp(POSITION, error="a position is numbers joined by dots, as the feed gave it"),
        metadata={
            "description": "Resume after this position (a page's `position`; `0` or none: the beginning). "
            "The merged view takes one number per partition joined by dots "
            f"({FEED_PARTITIONS} on one Redis, {FEED_PARTITIONS_CLUSTER} on a Redis Cluster); "
            "one partition's, one number."
        },
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    game = fields.String(
        validate=validate.Length(min=1, max=64), metadata={"description": "Only this game's."}
    )
    type = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        metadata={"description": "Only events of these types (repeat the parameter for several)."},
    )
    partition = fields.Integer(
        validate=validate.Range(min=0, max=FEED_PARTITIONS_CLUSTER - 1),
        metadata={
            "description": "Read one partition only (its positions are single numbers): 0 to "
            f"{FEED_PARTITIONS - 1} on one Redis, to {FEED_PARTITIONS_CLUSTER - 1} on a Redis Cluster."
        },
    )
    seconds = fields.Integer(
        load_default=25,
        validate=validate.Range(min=1, max=300),
        metadata={"description": "How long a live stream (SSE or NDJSON) stays open; reconnect to go on."},
    )


class FeedEvent(Schema):
    """One public event of one match, where the feed holds it."""

    match_id = fields.String(required=True)
    partition = fields.Integer(required=True, metadata={"description": "The feed partition of the match."})
    position = fields.Integer(
        required=True, metadata={"description": "The event's position in its partition."}
    )
    seq = fields.Integer(required=True, metadata={"description": "The event's step in its match."})
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    meta = fields.Dict(required=True)


class FeedLinks(Schema):
    """Where to go on."""

    next = fields.String(required=True, metadata={"description": "The page after this one."})


class FeedPageOut(Schema):
    """A page of the feed."""

    events = fields.List(fields.Nested(FeedEvent), required=True)
    position = fields.String(required=True, metadata={"description": "Resume after this position."})
    links = fields.Nested(FeedLinks, required=True)
