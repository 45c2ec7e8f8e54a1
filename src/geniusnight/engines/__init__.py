"""The game engines and their registry.

Each game is a package under ``geniusnight.engines`` whose ``__init__`` exposes ``ENGINE``
(an object satisfying :class:`~geniusnight.engines.base.Engine`). Packages are discovered
at import, so adding a game needs no change anywhere else. Tests may ``register`` their own.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Engine, GameInfo, IllegalAction, Rng

ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine to the registry (its ``info.id`` is its key)."""
    ENGINES[engine.info.id] = engine
    return engine


def get_engine(game_id: str) -> Engine:
    """The engine for ``game_id``; ``KeyError`` names the known ones if it is unknown."""
    try:
        return ENGINES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {sorted(ENGINES)}") from None


def load_extra(specs: list[str]) -> None:
    """Register the engines ``specs`` name as ``module:attribute`` (``ENGINE`` if no
    attribute is given), each unless an engine of its id is registered already."""
    for spec in specs:
        module, _, attr = spec.partition(":")
        engine = getattr(importlib.import_module(module), attr or "ENGINE")
        if engine.info.id not in ENGINES:
            register(engine)


def _discover() -> None:
    for mod in pkgutil.iter_modules(__path__):
        if not mod.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{mod.name}")
        engine = getattr(package, "ENGINE", None)
        if engine is not None:
            register(engine)


_discover()

__all__ = ["ENGINES", "Engine", "GameInfo", "IllegalAction", "Rng", "get_engine", "load_extra", "register"]
