"""Upcasters: old-shaped events read back in their current shape, the log left as written."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from events.envelope import NewEvent, StoredEvent
from events.keys import Keys
from events.store import EventStore
from events.upcasting import Upcasters


def bid_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 called the bid ``amount``; schema 2 calls it ``bid``."""
    data["bid"] = data.pop("amount")
    return data


def bid_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 adds whether the bid was made blind (it never was before)."""
    return {**data, "blind": False}


def wizard_upcasters() -> Upcasters:
    """Wizard's bid upcasters, as a game would hand them to the store."""
    upcasters = Upcasters()
    upcasters.register_game("wizard", {("BidPlaced", 1): bid_v1_to_v2, ("BidPlaced", 2): bid_v2_to_v3})
    return upcasters


def stored(type_: str, data: dict[str, Any], schema: int | None = 1) -> StoredEvent:
    """A stored event of the given schema (None: without one, as the oldest events are)."""
    meta: dict[str, Any] = {"actor": "ann"}
    if schema is not None:
        meta["schema"] = schema
    return StoredEvent(seq=5, type=type_, data=data, meta=meta)


def test_an_old_event_is_upcast_through_every_schema_to_the_newest() -> None:
    event = wizard_upcasters().upcast("wizard", stored("BidPlaced", {"player": "ann", "amount": 2}))
    assert event == StoredEvent(
        seq=5,
        type="BidPlaced",
        data={"player": "ann", "bid": 2, "blind": False},
        meta={"actor": "ann", "schema": 3},
    )


def test_an_event_halfway_through_its_history_gets_only_the_later_upcasters() -> None:
    event = wizard_upcasters().upcast("wizard", stored("BidPlaced", {"bid": 2}, schema=2))
    assert (event.data, event.meta["schema"]) == ({"bid": 2, "blind": False}, 3)


def test_an_event_without_a_schema_counts_as_schema_one() -> None:
    event = wizard_upcasters().upcast("wizard", stored("BidPlaced", {"amount": 1}, schema=None))
    assert (event.data, event.meta["schema"]) == ({"bid": 1, "blind": False}, 3)


def test_a_current_event_and_an_event_of_another_type_or_game_are_left_unchanged() -> None:
    upcasters = wizard_upcasters()
    current = stored("BidPlaced", {"bid": 2, "blind": False}, schema=3)
    other_type = stored("CardPlayed", {"card": "7H"})
    other_game = stored("BidPlaced", {"amount": 2})
    assert upcasters.upcast("wizard", current) is current
    assert upcasters.upcast("wizard", other_type) is other_type
    assert upcasters.upcast("hats", other_game) is other_game


def test_upcasting_leaves_the_event_it_was_given_as_it_was() -> None:
    old = stored("BidPlaced", {"player": "ann", "amount": 2})
    wizard_upcasters().upcast("wizard", old)
    assert old.data == {"player": "ann", "amount": 2}
    assert old.meta == {"actor": "ann", "schema": 1}


def test_a_second_upcaster_for_the_same_step_is_refused() -> None:
    upcasters = wizard_upcasters()
    with pytest.raises(ValueError, match="already"):
        upcasters.register("wizard", "BidPlaced", 1, bid_v2_to_v3)
    assert len(upcasters) == 2


def test_an_old_shaped_event_stored_in_redis_reads_back_current(
    redis_client: redis.Redis, keys: Keys
) -> None:
    meta = {"ts": "2023-01-01T00:00:00Z", "actor": "ann", "action_id": "a1", "schema": 1}
    old = NewEvent("BidPlaced", {"player": "ann", "amount": 2}, meta)
    created = NewEvent("MatchCreated", {"players": ["ann", "bob", "cy"]}, {**meta, "schema": 1})
    EventStore(redis_client, keys).create("m", {"game": "wizard"}, [created, old], created_ms=1)

    reader = EventStore(redis_client, keys, upcasters=wizard_upcasters())
    first, bid = reader.read("m")
    assert first.data == {"players": ["ann", "bob", "cy"]}
    assert bid.data == {"player": "ann", "bid": 2, "blind": False}
    assert bid.meta["schema"] == 3
    assert [e.data for e in reader.iter_events("m", start=2)] == [bid.data]
    assert EventStore(redis_client, keys).read("m", start=2)[0].data == old.data


def test_a_match_without_a_game_in_its_header_is_read_as_written(
    redis_client: redis.Redis, keys: Keys
) -> None:
    old = NewEvent("BidPlaced", {"amount": 2}, {"schema": 1})
    EventStore(redis_client, keys).create("m", {"title": "no game"}, [old], created_ms=1)
    reader = EventStore(redis_client, keys, upcasters=wizard_upcasters())
    assert reader.read("m")[0].data == {"amount": 2}
