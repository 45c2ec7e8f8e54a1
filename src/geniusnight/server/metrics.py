"""Prometheus metrics (``/metrics``, docs/deploy.md "Metrics").

Counters and histograms are process-wide and move as the work happens. The gauges
(connections, rooms by status, live games) are read when a scrape comes in, by
:class:`.ops.Gauges`: rooms by status come from the database, so every process reports the same
figure (aggregate them with ``max``, not ``sum``); connections and live games are this
process's own.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric

__all__ = ["CONTENT_TYPE_LATEST", "REGISTRY"]

# seconds: a move is a millisecond or two on an idle server, tens under load
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

CONNECTIONS = Gauge("geniusnight_connections", "Open websocket connections on this process")
ROOMS = Gauge("geniusnight_rooms", "Rooms by status (the whole database)", ["status"])
LIVE_GAMES = Gauge("geniusnight_live_games", "Running games this process holds, by game", ["game"])
MOVES_REFUSED = Counter("geniusnight_moves_refused", "Moves refused, by game and error code", ["game", "code"])
COMMIT_BATCH = Histogram(
    "geniusnight_commit_batch_moves",
    "Moves written per group commit",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
)
REDIS_LAG_SECONDS = Histogram(
    "geniusnight_redis_lag_seconds",
    "From an event's publish on one process to its receipt on another (wall clocks)",
    buckets=LATENCY_BUCKETS,
)
REDIS_DEGRADED = Gauge(
    "geniusnight_redis_degraded",
    "1 while Redis is configured but this process is not subscribed to it (it serves only its own rooms)",
)
REDIS_EVENTS_LOST = Counter("geniusnight_redis_events_lost", "Events this process could not publish to Redis")
BOT_THINK_SECONDS = Histogram(
    "geniusnight_bot_think_seconds",
    "Time a bot policy takes to choose its move (the display delay not included)",
    ["game"],
    buckets=LATENCY_BUCKETS,
)


@dataclass(slots=True)
class Latencies:
    """A histogram of seconds over ``LATENCY_BUCKETS``, as plain numbers."""

    counts: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))  # the last: over all
    total: float = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(LATENCY_BUCKETS, seconds)] += 1  # a bucket counts what is <= its bound
        self.total += seconds

    def buckets(self) -> list[tuple[str, float]]:
        """Cumulative counts by upper bound, as the exposition format has them."""
        out, running = [], 0
        for bound, count in zip([*map(str, LATENCY_BUCKETS), "+Inf"], self.counts, strict=True):
            running += count
            out.append((bound, float(running)))
        return out


@dataclass(slots=True)
class MoveTally:
    """One game's accepted moves, and the commit and fan-out latency of each.

    Every accepted move adds to these, so they are plain numbers a move updates in a few
    hundred nanoseconds. prometheus_client's Counter and Histogram take a lock and look up
    their bucket in Python: nearly 2 % of the server's CPU under load (docs/performance.md,
    D17). A scrape reads them
    (:class:`MoveCollector`) as the metrics ``geniusnight_moves_accepted``,
    ``geniusnight_move_commit_seconds`` and ``geniusnight_move_fanout_seconds``."""

    accepted: int = 0
    commit: Latencies = field(default_factory=Latencies)
    fanout: Latencies = field(default_factory=Latencies)


MOVES: dict[str, MoveTally] = {}  # by game


def move_tally(game: str) -> MoveTally:
    tally = MOVES.get(game)
    if tally is None:
        tally = MOVES[game] = MoveTally()
    return tally


class MoveCollector:
    """The move tallies, as metric families when a scrape comes."""

    def collect(self) -> Iterator[Metric]:
        accepted = CounterMetricFamily("geniusnight_moves_accepted", "Moves committed, by game", labels=["game"])
        commit = HistogramMetricFamily(
            "geniusnight_move_commit_seconds", "From a move's receipt to its commit", labels=["game"]
        )
        fanout = HistogramMetricFamily(
            "geniusnight_move_fanout_seconds",
            "From a move's receipt to its fan-out (frames queued here, event published to Redis)",
            labels=["game"],
        )
        for game, tally in sorted(MOVES.items()):
            accepted.add_metric([game], tally.accepted)
            commit.add_metric([game], tally.commit.buckets(), tally.commit.total)
            fanout.add_metric([game], tally.fanout.buckets(), tally.fanout.total)
        yield accepted
        yield commit
        yield fanout


REGISTRY.register(MoveCollector())

TIMEOUTS = Counter("geniusnight_timeouts_fired", "Phase clocks that ran out and applied the timeout", ["game"])
