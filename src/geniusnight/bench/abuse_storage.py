"""What one person can make a running server store or compute through its rooms: each attack
of docs/deploy.md ("Abuse limits", "Storage and rooms"), measured from the attacker's side.
Run it against a server of your own only:

    python -m geniusnight.bench.abuse_storage refusals --base http://127.0.0.1:8000 --db var/geniusnight.db
    python -m geniusnight.bench.abuse_storage races|joins --base URL [--base URL2]
    python -m geniusnight.bench.abuse_storage options|names --base URL

Each prints one JSON line of figures. Needs the ``bench`` extra (httpx, websockets).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets


async def new_room(http: httpx.AsyncClient, game: str = "ingenious", name: str = "Host") -> tuple[str, str, str]:
    """A new room: its id, the host's token and its invite."""
    r = await http.post("/api/rooms", json={"game": game, "name": name})
    r.raise_for_status()
    http.cookies.clear()
    body = r.json()
    return body["room_id"], body["token"], body["invite_url"].rsplit("/", 1)[1]


async def join(http: httpx.AsyncClient, invite: str, name: str) -> httpx.Response:
    r = await http.post(f"/api/join/{invite}", json={"name": name})
    http.cookies.clear()
    return r


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def db_bytes(path: Path) -> int:
    """The SQLite database's size on disk: the file and its write-ahead log."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


async def refusals(args: argparse.Namespace) -> dict[str, Any]:
    """One host with a bot in a started Ingenious game opens ``--sockets`` sockets and sends
    moves the game refuses (``--kib`` each, padding included) at ``--rate`` a second on each
    socket (under the server's flood limit), for ``--seconds``; the database's growth is
    measured."""
    async with httpx.AsyncClient(base_url=args.base) as http:
        room_id, host, _ = await new_room(http)
        (await http.post(f"/api/rooms/{room_id}/bots", json={}, headers=bearer(host))).raise_for_status()
        (await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))).raise_for_status()
    ws_base = args.base.replace("http", "ws", 1)
    action = {"type": "place", "cells": [[99, 99], [98, 98]], "pad": "x" * (args.kib * 1024 - 160)}
    db = Path(args.db)
    before = db_bytes(db)
    sent, answers = Counter[str](), Counter[str]()
    end = time.monotonic() + args.seconds

    async def flood(i: int) -> None:
        try:
            async with websockets.connect(f"{ws_base}/ws/{room_id}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": host}))

                async def read() -> None:  # the answers, counted by their code
                    with contextlib.suppress(websockets.ConnectionClosed):
                        async for text in ws:
                            frame = json.loads(text)
                            if frame.get("type") == "error":
                                answers[str(frame.get("code"))] += 1

                reader = asyncio.create_task(read())
                n = 0
                while time.monotonic() < end:  # without waiting for the answers
                    n += 1
                    await ws.send(json.dumps({"type": "act", "ref": f"{i}-{n}", "action": action}))
                    sent["act"] += 1
                    await asyncio.sleep(1 / args.rate)
                await asyncio.sleep(2.0)  # the last answers
                reader.cancel()
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError, TimeoutError) as e:
            answers[type(e).__name__] += 1

    await asyncio.gather(*(flood(i) for i in range(args.sockets)))
    await asyncio.sleep(1.0)
    grown = db_bytes(db) - before
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT count(*) FROM refused_actions").fetchone()[0]
    return {
        "attack": "refusals",
        "sockets": args.sockets,
        "moves_sent": sent["act"],
        "answers": dict(answers),
        "refused_rows": rows,
        "db_growth_mib": round(grown / (1 << 20), 2),
        "mib_per_hour": round(grown / (1 << 20) * 3600 / args.seconds),
    }


async def races(args: argparse.Namespace) -> dict[str, Any]:
    """``--rounds`` lobbies, each of a host, a bot and two players: a start, a kick, a join, a
    bot and a leave sent at once, spread over the ``--base`` servers; the answers counted."""
    clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in args.base]
    statuses: Counter[str] = Counter()
    try:
        for i in range(args.rounds):
            a, b = clients[0], clients[i % len(clients)]
            room_id, host, invite = await new_room(a, "count21" if args.toy else "ingenious")
            await a.post(f"/api/rooms/{room_id}/bots", json={}, headers=bearer(host))
            await join(a, invite, f"P{i}")
            leaver = (await join(b, invite, f"L{i}")).json()

            async def call(name: str, c: httpx.AsyncClient, method: str, path: str, **kw: Any) -> None:
                r = await c.request(method, path, **kw)
                c.cookies.clear()
                statuses[f"{name} {r.status_code}"] += 1

            await asyncio.gather(
                call("start", a, "POST", f"/api/rooms/{room_id}/start", headers=bearer(host)),
                call("kick", b, "DELETE", f"/api/rooms/{room_id}/seats/2", headers=bearer(host)),
                call("join", b, "POST", f"/api/join/{invite}", json={"name": f"J{i}"}),
                call("bot", a, "POST", f"/api/rooms/{room_id}/bots", json={}, headers=bearer(host)),
                call("leave", b, "POST", f"/api/rooms/{room_id}/leave", headers=bearer(leaver.get("token") or "")),
            )
    finally:
        for c in clients:
            await c.aclose()
    errors = sum(n for k, n in statuses.items() if k.split()[1].startswith("5"))
    return {"attack": "races", "rounds": args.rounds, "answers_5xx": errors, "answers": dict(sorted(statuses.items()))}


async def joins(args: argparse.Namespace) -> dict[str, Any]:
    """A room of ``--prefill`` people, then ``--count`` joins at once over the ``--base``
    servers: how many people the room holds after."""
    clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in args.base]
    try:
        room_id, host, invite = await new_room(clients[0])
        for i in range(args.prefill - 1):
            await join(clients[0], invite, f"Early{i}")

        async def one(i: int) -> int:
            c = httpx.AsyncClient(base_url=args.base[i % len(args.base)], timeout=30)
            async with c:
                return (await c.post(f"/api/join/{invite}", json={"name": f"Late{i}"})).status_code

        codes = Counter(await asyncio.gather(*(one(i) for i in range(args.count))))
        room = (await clients[0].get(f"/api/rooms/{room_id}", headers=bearer(host))).json()
    finally:
        for c in clients:
            await c.aclose()
    return {
        "attack": "joins",
        "answers": {str(k): v for k, v in sorted(codes.items())},
        "members_after": len(room["seats"]) + room["spectators"],
    }


async def options(args: argparse.Namespace) -> dict[str, Any]:
    """``--clients`` hosts PATCH a custom deck of ``--words`` words in a loop for ``--seconds``
    while /healthz is timed; then, if the deck was taken, a players' replay of a finished game
    with it is timed."""
    deck = [f"w{i:07d}" for i in range(args.words)]
    async with httpx.AsyncClient(base_url=args.base, timeout=60) as http:
        rooms = [await new_room(http, "genius-idea", "Host") for _ in range(args.clients)]
        answers: Counter[int] = Counter()
        latencies: list[float] = []
        end = time.monotonic() + args.seconds

        async def patch(room_id: str, token: str) -> None:
            async with httpx.AsyncClient(base_url=args.base, timeout=60) as c:
                while time.monotonic() < end:
                    r = await c.patch(f"/api/rooms/{room_id}", json={"options": {"words": deck}}, headers=bearer(token))
                    answers[r.status_code] += 1

        async def probe() -> None:
            async with httpx.AsyncClient(base_url=args.base, timeout=60) as c:
                while time.monotonic() < end:
                    t = time.perf_counter()
                    await c.get("/healthz")
                    latencies.append((time.perf_counter() - t) * 1000)
                    await asyncio.sleep(0.05)

        await asyncio.gather(probe(), *(patch(r, t) for r, t, _ in rooms))
    return {
        "attack": "options",
        "deck_mib": round(len(json.dumps(deck)) / (1 << 20), 2),
        "patch_answers": {str(k): v for k, v in sorted(answers.items())},
        "healthz_p50_ms": round(statistics.median(latencies), 1),
        "healthz_max_ms": round(max(latencies), 1),
    }


async def names(args: argparse.Namespace) -> dict[str, Any]:
    """Joins under look-alikes of the host's name, and invisible names: the answers."""
    tries = {
        "fullwidth": "\uff28\uff4f\uff53\uff54",
        "cyrillic o": "H\u043est",
        "right-to-left override": "\u202etsoH",
        "zero-width spaces": "\u200b\u200b\u200b",
        "same name": "Host",
    }
    out: dict[str, Any] = {"attack": "names"}
    async with httpx.AsyncClient(base_url=args.base) as http:
        _, _, invite = await new_room(http)
        for label, name in tries.items():
            r = await join(http, invite, name)
            out[label] = r.status_code if r.is_success else f"{r.status_code} {r.json().get('code')}"
    return out


ATTACKS = {"refusals": refusals, "races": races, "joins": joins, "options": options, "names": names}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m geniusnight.bench.abuse_storage", description=__doc__)
    parser.add_argument("attack", choices=sorted(ATTACKS))
    parser.add_argument("--base", action="append", help="a server's base URL (races, joins: one per process)")
    parser.add_argument("--db", default="var/geniusnight.db", help="refusals: the server's SQLite file")
    parser.add_argument("--sockets", type=int, default=45)
    parser.add_argument("--kib", type=int, default=16, help="refusals: a move's size (frames are at most 16 KiB)")
    parser.add_argument("--rate", type=float, default=14.0, help="refusals: moves a second on each socket")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--toy", action="store_true", help="races: the toy game (needs it registered)")
    parser.add_argument("--prefill", type=int, default=45)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--words", type=int, default=150_000)
    args = parser.parse_args(argv)
    args.base = args.base or ["http://127.0.0.1:8000"]
    if args.attack in ("refusals", "options", "names"):
        args.base = args.base[0]
    print(json.dumps(asyncio.run(ATTACKS[args.attack](args))))


if __name__ == "__main__":
    main()
