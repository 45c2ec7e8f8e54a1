"""Ingenious (Einfach Genial): two-colour hex tiles, scored by your weakest colour (SPEC 3)."""

from .engine import ENGINE, IngeniousEngine

__all__ = ["ENGINE", "IngeniousEngine"]
