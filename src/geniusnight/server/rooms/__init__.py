"""Rooms: the HTTP routes (:mod:`.routes`), the use cases behind them (:mod:`.usecases`), the
storage of rooms, members and seats (:mod:`.service`) and host migration (:mod:`.hosting`)."""
