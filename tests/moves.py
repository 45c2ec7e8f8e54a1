"""Moves for the move log's tests: every kind of value a move row, and a game's end, write."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from geniusnight.storage.movelog import NewMove

NOW = datetime(2026, 12, 6, 5, 50, 59, 123456, tzinfo=UTC)
RESULT = {"winners": [0], "note": "é ☃ \u2028"}  # the last move's result: JSON with non-ASCII text


def new_moves(game_id: int, upto: int = 2, *, ends: bool = True) -> list[NewMove]:
    """Game ``game_id``'s moves 1..``upto`` in room ``r<game_id>``; the last ends it (with
    :data:`RESULT`) when ``ends``. Move ``seq`` is made ``seq`` seconds after :data:`NOW`."""
    out = []
    for seq in range(1, upto + 1):
        last = ends and seq == upto
        out.append(
            NewMove(
                game_id=game_id,
                room_id=f"r{game_id}",
                seq=seq,
                seat=seq % 2,
                member_id=None if last else 1,
                action={"type": "add", "n": seq, "word": "naïve é ☃ \u2028", "nested": [1, 2.5, None, True]},
                ref=None if last else f"m{seq}",
                at=NOW + timedelta(seconds=seq),
                deadline_at=None if last else NOW + timedelta(minutes=seq),
                deadline_seq=None if last else seq,
                result=RESULT if last else None,
            )
        )
    return out
