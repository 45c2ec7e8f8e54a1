"""The fixture game, count21, under the name load harnesses outside this repository give
``GENIUSNIGHT_EXTRA_ENGINES`` (``geniusnight.bench.toy:ENGINE``). The game itself is
:mod:`geniusnight.fixtures.count21`; use that name in this repository."""

from ..fixtures.count21 import ENGINE

__all__ = ["ENGINE"]
