"""With several processes, a ``state`` event carries the last moves committed: another
process applies them to its cached game and reads the log only for a gap; a move sent to a
process whose cache is behind is still checked against the newest state, and the log never
forks (the unique seq decides)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from geniusnight.server.play.games import PUBLISHED_MOVES, GameService
from support import start_game


class Reads:
    """Counts the log reads a game service makes for moves other processes committed."""

    def __init__(self, games: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        replay = games._replay_new_moves

        async def counted(live: Any) -> bool:
            self.count += 1
            return await replay(live)

        monkeypatch.setattr(games, "_replay_new_moves", counted)


def two_processes(app: Any) -> tuple[GameService, GameService]:
    here: GameService = app.state.games
    here.multi_process = True
    return here, GameService(here.db, multi_process=True)


async def test_published_moves_are_applied_without_reading_the_log(
    app: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = two_processes(app)
    game_id = await start_game(client, target=99)
    await there.get(game_id)  # cached at seq 0
    reads = Reads(there, monkeypatch)
    for seat in (0, 1):
        assert (await here.submit(game_id, seat, {"type": "add", "n": 2}, ref=f"m{seat}")).ok
    live = await here.get(game_id)
    applied = await there.apply_published(game_id, live.seq, live.published_moves())
    assert reads.count == 0
    assert applied.seq == live.seq == 2 and applied.view(0) == live.view(0) and applied.view(1) == live.view(1)
    # the refs came along: a repeat sent to the other process is answered as a duplicate
    repeat = await there.submit(game_id, 1, {"type": "add", "n": 2}, ref="m1")
    assert repeat.ok and repeat.duplicate and repeat.seq == 2 and reads.count == 0


async def test_a_gap_longer_than_the_published_moves_reads_the_log(
    app: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = two_processes(app)
    game_id = await start_game(client, target=99)
    await there.get(game_id)
    reads = Reads(there, monkeypatch)
    for i in range(PUBLISHED_MOVES + 3):
        assert (await here.submit(game_id, i % 2, {"type": "add", "n": 1})).ok
    live = await here.get(game_id)
    assert len(live.published_moves()) == PUBLISHED_MOVES
    applied = await there.apply_published(game_id, live.seq, live.published_moves())
    assert reads.count == 1 and applied.seq == live.seq and applied.view(0) == live.view(0)


async def test_a_move_sent_to_a_process_that_is_behind_is_judged_on_the_newest_state(
    app: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = two_processes(app)
    game_id = await start_game(client, target=99)
    await there.get(game_id)  # at seq 0: seat 0 to move, as far as it knows
    assert (await here.submit(game_id, 0, {"type": "add", "n": 3})).ok  # seq 1, not yet published
    reads = Reads(there, monkeypatch)
    # seat 1's move is legal only after seq 1: the stale cache would refuse it, so it reads
    outcome = await there.submit(game_id, 1, {"type": "add", "n": 2})
    assert outcome.ok and outcome.seq == 2 and reads.count == 1
    # seat 1 again is out of turn on the newest state: refused after one more read at most
    again = await there.submit(game_id, 1, {"type": "add", "n": 1})
    assert not again.ok and again.code == "not_your_turn"
    # a move that another process already took the seq of loses the race and is re-judged
    assert (await here.get(game_id)).seq == 1  # here is behind now
    won = await here.submit(game_id, 0, {"type": "add", "n": 1})
    assert won.ok and won.seq == 3
    final = await GameService(here.db).get(game_id)  # straight from the log
    assert final.seq == 3 and final.view(0)["counter"] == 6
