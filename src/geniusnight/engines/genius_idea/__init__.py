"""Genius Idea: word riddles, a Disruptor and a quick-answer race (docs/rules/genius-idea.md)."""

from .engine import ENGINE, GeniusIdeaEngine

__all__ = ["ENGINE", "GeniusIdeaEngine"]
