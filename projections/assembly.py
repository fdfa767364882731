"""The projection side's parts over one Redis connection, built here and nowhere else.

service.bootstrap builds the whole application on top of this; a worker's job, which may not
import the service, builds its projector here from the connection RQ hands it.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from events.keys import Keys
from events.store import EventStore
from projections.positions.rewind import Positions
from projections.positions.stored import StoredProjections
from projections.projecting.projector import Projector
from projections.projecting.verify import Verifier
from projections.queries.answers import Queries
from projections.queries.feed import FeedReader
from projections.readmodels.feed import FeedPublisher
from projections.readmodels.indexes import ReadModels
from projections.readmodels.listing import MatchList
from projections.readmodels.stats import Statistics
from projections.upcasting import game_upcasters


@dataclass
class Projections:
    """The store and everything derived from it, over one connection and key prefix."""

    store: EventStore
    stored: StoredProjections
    positions: Positions
    models: ReadModels
    projector: Projector
    verifier: Verifier
    matches: MatchList
    statistics: Statistics
    queries: Queries
    feed: FeedReader


def assemble(
    client: redis.Redis,
    keys: Keys,
    snapshot_every: int,
    credited_only: bool = False,
    replicas: int = 0,
    replica_timeout_ms: int = 1000,
    bgg_ids: dict[str, int] | None = None,
) -> Projections:
    """Every projection part over ``client`` under ``keys``; nothing connects until used.

    ``credited_only``: statistics count only matches a deployment credential created;
    ``replicas``: each append waits up to ``replica_timeout_ms`` until that many replicas hold it;
    ``bgg_ids``: BoardGameGeek ids of games that BG Stats exports name, beside tabletape's own.
    """
    store = EventStore(client, keys, game_upcasters(), replicas, replica_timeout_ms)
    stored = StoredProjections(client, keys)
    positions = Positions(store, stored)
    models = ReadModels(client, keys)
    matches = MatchList(client, keys, store)
    statistics = Statistics(client, keys, credited_only)
    return Projections(
        store=store,
        stored=stored,
        positions=positions,
        models=models,
        projector=Projector(positions, models, snapshot_every, FeedPublisher(positions, client, keys)),
        verifier=Verifier(store, stored, models, snapshot_every),
        matches=matches,
        statistics=statistics,
        queries=Queries(positions, matches, statistics, bgg_ids or {}),
        feed=FeedReader(client, keys),
    )
