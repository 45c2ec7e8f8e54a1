"""Runs the language-neutral conformance cases (docs/conformance.md) against the engines.

Each ``<game>.json`` here holds cases: a setup and a list of steps, each an action with the
expected ``phase``, ``to_act``, ``scores`` and refusal code afterwards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from geniusnight.engines import IllegalAction, get_engine

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))


def load_cases() -> list[Any]:
    out = []
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            out.append(pytest.param(data["game"], case, id=case["id"]))
    return out


CASES = load_cases()


def check_expected(engine: Any, state: Any, expect: dict[str, Any], where: str) -> None:
    view = engine.view(state, expect.get("view_of"))
    for key in ("phase", "to_act", "scores"):
        assert view[key] == expect[key], f"{where}: {key}"
    if "winners" in expect:
        assert view["result"]["winners"] == expect["winners"], f"{where}: winners"
    for key, value in expect.get("view", {}).items():
        assert view[key] == value, f"{where}: view[{key!r}]"


def test_every_game_has_at_least_40_cases() -> None:
    games = {json.loads(p.read_text(encoding="utf-8"))["game"] for p in FILES}
    assert games == {"ingenious", "genius-idea", "brainiac"}
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["cases"]) >= 40, path.name
        assert len({c["id"] for c in data["cases"]}) == len(data["cases"]), path.name
        assert all(c["rule"] for c in data["cases"])


@pytest.mark.parametrize(("game", "case"), CASES)
def test_conformance_case(game: str, case: dict[str, Any]) -> None:
    engine = get_engine(game)
    setup = case["setup"]
    state = engine.setup(setup["players"], setup["options"], seed=setup["seed"])
    check_expected(engine, state, case["start"], "start")
    for i, step in enumerate(case["steps"]):
        where = f"step {i}"
        try:
            state = engine.apply(state, step["seat"], step["action"])
            code = None
        except IllegalAction as e:
            code = e.code
        assert code == step["refused"], f"{where}: refusal code"
        check_expected(engine, state, step, where)
