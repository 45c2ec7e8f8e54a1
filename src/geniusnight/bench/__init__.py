"""Benchmarks of the running server (``geniusnight bench load``); not imported by the app."""
