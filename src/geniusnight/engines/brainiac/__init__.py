"""Brainiac or IDIOT!: trivia with hidden identities (docs/rules/brainiac.md)."""

from .engine import ENGINE, BrainiacEngine

__all__ = ["ENGINE", "BrainiacEngine"]
