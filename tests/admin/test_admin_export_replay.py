"""Export -> ``geniusnight replay FILE`` round trip, and the development admin token file."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path
from typing import Any

import httpx
import pytest
from admin_helpers import ADMIN, bearer, play_to_end, two_players

from geniusnight.cli import dev_admin_token, main
from geniusnight.engines import get_engine
from geniusnight.server.replay.player import replay_file, state_digest
from geniusnight.settings import Settings


async def exported(app: Any, client: httpx.AsyncClient, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    g = await two_players(app)
    await play_to_end(app, g["game_id"], steps=[1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2])
    data = (await client.get(f"/api/admin/games/{g['game_id']}/export", headers=bearer(ADMIN))).json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path, data


def run(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    return replay_file(path, out), out.getvalue()


async def test_admin_export_replays_to_the_recorded_result(app: Any, client: httpx.AsyncClient, tmp_path: Path) -> None:
    path, data = await exported(app, client, tmp_path)
    code, text = run(path)
    assert code == 0, text
    assert "ok: the replayed result matches" in text
    assert f"seq:     {len(data['log'])}" in text
    # the printed hash is the hash of the engine's dump of the live game's final state
    live = await app.state.games.get(data["game"]["id"])
    assert state_digest(get_engine("count21"), live.state) in text
    assert json.dumps(data["result"], sort_keys=True) in text


async def test_admin_replay_cli_exits_nonzero_when_the_result_differs(
    app: Any, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    path, data = await exported(app, client, tmp_path)
    data["result"] = {"winners": [1], "scores": [0, 1]}
    path.write_text(json.dumps(data))
    code, text = run(path)
    assert code == 1 and "MISMATCH" in text
    assert main(["replay", str(path)]) == 1  # the command line says the same


async def test_admin_replay_cli_refuses_broken_exports(app: Any, client: httpx.AsyncClient, tmp_path: Path) -> None:
    path, data = await exported(app, client, tmp_path)
    cases: list[tuple[str, Any]] = [
        ("not json", "{"),
        ("wrong format", {**data, "format": "other"}),
        ("unknown engine", {**data, "game": {**data["game"], "engine": "chess"}}),
        ("gap", {**data, "log": data["log"][:2] + data["log"][3:]}),
        ("illegal move", {**data, "log": [{**data["log"][0], "action": {"type": "add", "n": 7}}, *data["log"][1:]]}),
    ]
    for name, body in cases:
        path.write_text(body if isinstance(body, str) else json.dumps(body))
        code, text = run(path)
        assert code == 2 and text.startswith("error:"), name
    assert run(tmp_path / "missing.json")[0] == 2


async def test_admin_replay_cli_of_a_truncated_log_reports_a_running_game(
    app: Any, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    path, data = await exported(app, client, tmp_path)
    data["log"] = data["log"][:4]
    path.write_text(json.dumps(data))
    code, text = run(path)
    assert code == 1 and "outcome: null" in text and "seq:     4" in text


def test_admin_dev_token_is_generated_once_and_kept_private(tmp_path: Path) -> None:
    settings = Settings(env="test", database_url=f"sqlite+aiosqlite:///{tmp_path / 'var' / 'g.db'}")
    first = dev_admin_token(settings)
    path = tmp_path / "var" / "admin_token"
    assert path.read_text().strip() == first and len(first) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert dev_admin_token(settings) == first  # reused on the next run


@pytest.mark.parametrize("content", ["", "short\n"])
def test_admin_dev_token_replaces_an_unusable_file(tmp_path: Path, content: str) -> None:
    settings = Settings(env="test", database_url=f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    (tmp_path / "admin_token").write_text(content)
    token = dev_admin_token(settings)
    assert len(token) >= 32 and (tmp_path / "admin_token").read_text().strip() == token
