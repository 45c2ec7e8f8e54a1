"""Fixtures shared by the multi-process tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from wsclient import Player


@pytest.fixture
async def players() -> AsyncIterator[list[Player]]:
    """A list the test adds its connected players to; each is closed afterwards."""
    opened: list[Player] = []
    yield opened
    for p in opened:
        await p.close()
