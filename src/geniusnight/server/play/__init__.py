"""Live play: the move pipeline and the live-game cache (:mod:`.games`), bots and clocks
(:mod:`.driver`), the websocket (:mod:`.ws`, :mod:`.frames`), a socket's outgoing
side (:mod:`.connection`), per-seat fan-out (:mod:`.hub`), the bus between processes (:mod:`.bus`,
:mod:`.events`) and patch frames (:mod:`.patches`)."""
