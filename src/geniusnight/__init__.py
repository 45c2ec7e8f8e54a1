"""Genius Night: a multiplayer web server for three games."""

__version__ = "0.1.0"
