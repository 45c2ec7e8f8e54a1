"""Games rebuilt from their logs: the one replayer (:mod:`.replayer`), logs, exports and the
state at any seq (:mod:`.logs`), and the players' replay with ``geniusnight replay FILE``
(:mod:`.player`)."""
