"""Encoded ``state`` frames (docs/protocol.md): the shared part of a view is encoded once per
seq and each seat's own part is added to it; the result is exactly the full frame."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from geniusnight.engines import get_engine
from geniusnight.server.play.games import LiveGame
from geniusnight.server.play.outbound import expand
from geniusnight.server.play.patches import COMPACT, JSON_PATCH


def live_game(game: str, players: int) -> LiveGame:
    engine = get_engine(game)
    options = engine.validate_options(players, {})
    return LiveGame(
        id=7,
        room_id="r",
        engine=engine,
        options=options,
        seed=5,
        players=players,
        seats=[{} for _ in range(players)],
        time_limits={},
        state=engine.setup(players, options, 5),
    )


@pytest.mark.parametrize("game", ["ingenious", "genius-idea", "brainiac"])
def test_state_text_is_the_full_frame_of_each_seat_at_each_seq(game: str) -> None:
    live = live_game(game, 4)
    engine = live.engine
    for step in range(60):
        live.deadline_at = datetime(2030, 1, 1, tzinfo=UTC) if step % 2 else None
        for seat in [None, *range(live.players)]:
            frame = json.loads(live.state_text(seat))
            assert frame == {
                "type": "state",
                "game_id": 7,
                "seq": live.seq,
                "deadline": live.deadline_at.timestamp() * 1000 if live.deadline_at else None,
                "view": json.loads(json.dumps(engine.view(live.state, seat))),  # the view as JSON has it
                "seat": seat,
            }
            assert live.state_text(seat) is live.state_text(seat)  # one string for every connection
            # the compact form: ["s", game_id, seq, deadline, seat, view], the same frame
            compact = live.state_text(seat, COMPACT)
            assert compact.startswith('["s",7,') and expand(json.loads(compact)) == frame
        if live.over:
            break
        seat = min(engine.to_act(live.state), default=None)
        action = (engine.bot_action(live.state, seat, "random", step) if seat is not None else None) or {
            "type": "timeout"
        }
        live.state = engine.apply(live.state, None if action == {"type": "timeout"} else seat, action)
        live.seq += 1


def test_a_client_of_rfc_6902_patches_and_one_of_none_share_one_state_frame() -> None:
    live = live_game("ingenious", 2)
    assert live.state_text(0, JSON_PATCH) is live.state_text(0)  # the object, encoded once
    assert live.state_text(0, COMPACT) != live.state_text(0)
