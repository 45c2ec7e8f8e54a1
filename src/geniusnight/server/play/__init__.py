"""Live play: the move pipeline and the live-game cache (:mod:`.games`), bots and clocks
(:mod:`.driver`), the websocket (:mod:`.ws`, :mod:`.frames`), per-seat fan-out and the bus
(:mod:`.realtime`, :mod:`.events`) and patch frames (:mod:`.patches`)."""
