"""The fixture game answers to both of its names: the one this repository uses and the one
load harnesses outside it pass in ``GENIUSNIGHT_EXTRA_ENGINES``."""

from __future__ import annotations

import importlib

from geniusnight.fixtures import count21


def test_the_harness_name_of_count21_is_the_fixture_game() -> None:
    assert importlib.import_module("geniusnight.bench.toy").ENGINE is count21.ENGINE
