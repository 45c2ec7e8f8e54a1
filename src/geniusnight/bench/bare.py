"""A bare websocket broadcast server: the ceiling the load benchmark compares against.

It speaks just enough of the room protocol for the benchmark's clients: ``hello`` gets a
``welcome``; an ``act`` bumps the room's ``seq``, gets an ``ack`` and sends every connection
in the room a ``state`` frame of ``--frame-bytes`` bytes. No database, no engine, no views:
what is left is uvicorn, the websocket library and JSON — the cost of the transport alone.

    python -m geniusnight.bench.bare --port 8099 --frame-bytes 1200
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


def make_app(frame_bytes: int) -> Starlette:
    rooms: dict[str, set[WebSocket]] = {}
    seqs: dict[str, int] = {}
    # the frame's fixed part, so that the whole frame comes to about ``frame_bytes``
    overhead = len('{"type":"state","game_id":1,"seq":100000,"deadline":null,"view":{"pad":""}}')
    pad = "x" * max(0, frame_bytes - overhead)

    async def socket(ws: WebSocket) -> None:
        room = ws.path_params["room"]
        await ws.accept()
        conns = rooms.setdefault(room, set())
        conns.add(ws)
        try:
            while True:
                frame: dict[str, Any] = json.loads(await ws.receive_text())
                if frame.get("type") == "hello":
                    await ws.send_text(json.dumps({"type": "welcome", "seat": None, "room": {"game_id": 1}}))
                    seq = seqs.get(room, 0)
                    await ws.send_text(_state(seq, pad))
                elif frame.get("type") == "act":
                    seq = seqs[room] = seqs.get(room, 0) + 1
                    await ws.send_text(json.dumps({"type": "ack", "ref": frame.get("ref"), "seq": seq}))
                    text = _state(seq, pad)
                    for conn in list(conns):
                        await conn.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            conns.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws/{room}", socket)])


def _state(seq: int, pad: str) -> str:
    return json.dumps(
        {"type": "state", "game_id": 1, "seq": seq, "deadline": None, "view": {"pad": pad}}, separators=(",", ":")
    )


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--frame-bytes", type=int, default=1000)
    args = parser.parse_args(argv)
    # the same uvicorn settings as ``geniusnight serve`` (this app sends through ASGI)
    uvicorn.run(
        make_app(args.frame_bytes),
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=1 << 20,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
