"""Genius Idea: word riddles, a Disruptor and a quick-answer race (SPEC 4)."""

from .engine import ENGINE, GeniusIdeaEngine

__all__ = ["ENGINE", "GeniusIdeaEngine"]
