"""``geniusnight bench load`` still runs end to end (a smoke test, not a measurement: the
figures live in docs/performance.md): a real server, real games, both loops, every figure in
the report, no errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    "extra", [["--repeat", "2"], ["--rate", "40", "--no-bare"]], ids=["closed-loop-twice", "offered-rate"]
)
def test_bench_load_plays_real_games_and_reports_every_figure(tmp_path: Path, extra: list[str]) -> None:
    out = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "geniusnight.cli", "bench", "load", "--game", "count21", "--rooms", "3"]
    cmd += ["--clients", "2", "--duration", "2", "--ramp", "0.3", "--idle", "10", "--json", str(out), *extra]
    # from outside the checkout: the benchmark and its toy game come with the package
    result = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    reports = json.loads(out.read_text())
    if "--repeat" in extra:  # two runs, each beside the bare server, and the median of their ratios
        assert isinstance(reports, list) and len(reports) == 2
        assert all(r["ratio_to_bare"] > 0 for r in reports) and "over 2 runs" in result.stdout
    report = reports[-1] if isinstance(reports, list) else reports
    ours = report["ours"]
    assert ours["errors"] == 0 and ours["moves"] > 0
    assert ours["client_cpu_ms_per_move"] > 0 and ours["window_cpu_percent"] > 0
    assert set(ours["latency_ms"]) == {"p50", "p95", "p99"}
    assert ours["server"]["cpu_percent"] and ours["server"]["rss_mib"]
    assert report["idle"]["connections"] == 10 and report["idle"]["kib_per_connection"] > 0
    if "--rate" in extra:
        assert ours["moves_per_second"] < 60  # the rooms keep to the offered pace
    else:
        assert report["bare"]["moves_per_second"] > 0 and report["ratio_to_bare"] > 0


@pytest.mark.parametrize("affinity", [[], ["--room-affinity"]], ids=["spread", "room-affinity"])
def test_bench_load_runs_two_processes_on_postgres_and_redis(tmp_path: Path, affinity: list[str]) -> None:
    import os

    pg, redis = os.environ.get("GENIUSNIGHT_TEST_POSTGRES_URL"), os.environ.get("GENIUSNIGHT_TEST_REDIS_URL")
    if not (pg and redis):
        pytest.skip("GENIUSNIGHT_TEST_POSTGRES_URL / _REDIS_URL not set")
    pg = "postgresql+asyncpg://" + pg.split("://", 1)[1]
    out = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "geniusnight.cli", "bench", "load", "--game", "count21", "--rooms", "4"]
    cmd += ["--clients", "2", "--duration", "2", "--ramp", "0.3", "--idle", "0", "--no-bare", "--json", str(out)]
    cmd += ["--processes", "2", "--database-url", pg, "--redis-url", redis, *affinity]
    result = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(out.read_text())
    assert report["processes"] == 2 and report["room_affinity"] == bool(affinity)
    assert report["ours"]["errors"] == 0 and report["ours"]["moves"] > 0
    assert len(report["ours"]["server"]["cpu_percent"]) == 2 and report["ours"]["cpu_ms_per_move"] > 0


async def test_the_watchdog_fails_only_rooms_whose_move_is_stuck() -> None:
    """A room still being set up (no move out yet) or between two games is not stuck; one
    whose move has not reached every client in ``STUCK_SECONDS`` is failed, once."""
    import asyncio
    import time

    from geniusnight.bench.load import STUCK_SECONDS, Room, Stats, _watch

    stats = Stats()
    setting_up, moving, stuck = Room(2, "setting up"), Room(2, "moving"), Room(2, "stuck")
    moving.expect(1)
    stuck.expect(1)
    stuck.asked_at = time.perf_counter() - STUCK_SECONDS - 1
    stats.rooms += [setting_up, moving, stuck]
    watchdog = asyncio.create_task(_watch(stats))
    await asyncio.sleep(2.2)
    watchdog.cancel()
    assert (setting_up.failed, moving.failed, stuck.failed) == (None, None, "stuck")
    assert stuck.done.is_set() and stats.errors == 1 and "stuck: no state for seq 1" in stats.error_samples[0]
