"""Views share the engine's never-changed records (the Ingenious event log, Brainiac's round
history) instead of deep-copying them for every seat. These tests pin what makes that safe:
a view already handed out is a snapshot that no later move changes, for every game and seat.
"""

from __future__ import annotations

import copy

import pytest

from geniusnight.engines import get_engine


@pytest.mark.parametrize("game", ["ingenious", "genius-idea", "brainiac"])
def test_a_view_handed_out_never_changes_when_the_game_moves_on(game: str) -> None:
    eng = get_engine(game)
    players = 4
    state = eng.setup(players, eng.validate_options(players, {}), seed=11)
    handed_out: list[tuple[dict[str, object], dict[str, object]]] = []
    for k in range(400):
        if eng.outcome(state) is not None:
            break
        for seat in [*range(players), None]:
            view = eng.view(state, seat)
            handed_out.append((view, copy.deepcopy(view)))
        seat = min(eng.to_act(state))
        state = eng.apply(state, seat, eng.bot_action(state, seat, "random", k))
    assert eng.outcome(state) is not None, "the random bots finish a game"
    for view, as_sent in handed_out:
        assert view == as_sent
