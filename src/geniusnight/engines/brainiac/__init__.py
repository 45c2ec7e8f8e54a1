"""Brainiac or IDIOT!: trivia with hidden identities (SPEC 5)."""

from .engine import ENGINE, BrainiacEngine

__all__ = ["ENGINE", "BrainiacEngine"]
