"""Ingenious (Einfach Genial): two-colour hex tiles, scored by your weakest colour (docs/rules/ingenious.md)."""

from .engine import ENGINE, IngeniousEngine

__all__ = ["ENGINE", "IngeniousEngine"]
