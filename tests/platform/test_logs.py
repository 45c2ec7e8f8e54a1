"""Log lines: JSON lines in production, text in development, each game event with its fields."""

from __future__ import annotations

import json
import logging
import subprocess
from pathlib import Path

import httpx

from geniusnight.logs import JsonLines, Text, fields, game_filter
from geniusnight.settings import Settings
from support import ServerProcess
from wsclient import Player, host_post, join, make_room


def _record(**extra: object) -> logging.LogRecord:
    name = "geniusnight.server.play.games"
    record = logging.LogRecord(name, logging.INFO, __file__, 1, "move refused: %s", ("x",), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_room_game_seq_and_seat_as_keys() -> None:
    line = JsonLines().format(_record(**fields("R1", 12, 3, 0)))
    event = json.loads(line)
    assert "\n" not in line
    assert event["msg"] == "move refused: x" and event["level"] == "info"
    assert (event["room"], event["game"], event["seq"], event["seat"]) == ("R1", 12, 3, 0)
    assert "seat" not in json.loads(JsonLines().format(_record(**fields("R1", 12))))


def test_text_lines_end_with_the_fields() -> None:
    line = Text().format(_record(**fields("R1", 12, 3)))
    assert line.endswith("geniusnight.server.play.games: move refused: x room=R1 game=12 seq=3")


def test_production_logs_json_and_development_text() -> None:
    assert Settings(env="production", admin_token="a" * 20, secret_key="s" * 40).json_logs
    assert not Settings(env="development").json_logs
    assert Settings(env="development", log_format="json").json_logs


def test_the_game_filter_finds_exactly_that_games_lines(tmp_path: Path) -> None:
    lines = [
        Text().format(_record(**fields("R", 12, 1))),
        Text().format(_record(**fields("R", 120, 1))),
        Text().format(_record(**fields("R", 12, 2, 1))),
    ]
    log = tmp_path / "server.log"
    log.write_text("\n".join(lines) + "\n")
    found = subprocess.run(f"{game_filter(False, 12)} {log}", shell=True, capture_output=True, text=True).stdout
    assert found.splitlines() == [lines[0], lines[2]]


async def test_a_json_server_logs_one_object_per_line_with_the_games_fields(db_url: str) -> None:
    srv = ServerProcess(db_url, env={"GENIUSNIGHT_LOG_FORMAT": "json"})
    start = srv.log_path.stat().st_size if srv.log_path.exists() else 0
    srv.start()
    try:
        room_id, token, invite = await make_room(srv.base)
        await join(srv.base, invite, "Guest")
        assert (await host_post(srv.base, room_id, token, "/start")).status_code == 200
        host = await Player(srv.ws_base, room_id, token).connect()
        game_id = host.state["game_id"]
        assert (await host.act({"type": "add", "n": 9}))["code"] == "bad_amount"
        await host.close()
        async with httpx.AsyncClient(base_url=srv.base) as c:
            page = await c.get(f"/admin/games/{game_id}", headers={"Authorization": "Bearer " + "t" * 32})
    finally:
        srv.stop()
    with srv.log_path.open("rb") as f:
        f.seek(start)
        events = [json.loads(line) for line in f.read().decode().splitlines()]  # every line is JSON
    mine = [e for e in events if e.get("game") == game_id]
    assert {"game started: count21, 2 players", "move refused: bad_amount"} <= {e["msg"] for e in mine}
    refused = next(e for e in mine if e["msg"] == "move refused: bad_amount")
    assert (refused["room"], refused["seq"], refused["seat"]) == (room_id, 0, 0)
    assert any(e["msg"].startswith("socket open") and e.get("room") == room_id for e in events)
    # the admin console's game page names the filter for these lines
    assert game_filter(True, game_id) in page.text.replace("&#39;", "'")
