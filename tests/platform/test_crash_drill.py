"""The crash drill in the suite (docs/deploy.md, "Crash drill"): one round of
``geniusnight.bench.drill`` on SQLite, and on PostgreSQL when it is configured.

At least 50 games are running (bots that move at once, scripted websocket clients) when the
server gets SIGKILL; it restarts on the same database, and the round checks that every acked
move is in the log, every state a client saw is in the log, every game moves again, and each
client's resync after ``hello`` with its last ``seq`` is its seat's view of the log.
"""

from __future__ import annotations

from geniusnight.bench.drill import drill_round


async def test_a_server_killed_mid_play_loses_no_acked_move_and_every_game_resumes(any_db_url: str) -> None:
    report = await drill_round(any_db_url, rooms=54, min_live=50, kill_after=(0.0, 1.5))
    assert report["problems"] == [], report
    assert report["live_at_kill"] >= 50, report
    assert report["acks_before_kill"] >= report["rooms"], report  # play was under way
    assert report["games_resumed"] == report["running_at_kill"] >= 45, report
    assert report["resyncs_checked"] == report["clients"], report
