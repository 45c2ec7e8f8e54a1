"""Command line: ``geniusnight serve``, ``geniusnight db upgrade|backup|restore``, ``geniusnight replay``."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import logging
import logging.config
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn

# the largest websocket message assembled: four times the largest frame the protocol takes
# (Settings.max_frame_bytes, 16 KiB), far below what one socket could otherwise pin in memory
WS_MAX_MESSAGE_BYTES = 64 * 1024


def db_upgrade(url: str | None = None) -> None:
    from alembic import command
    from alembic.config import Config

    from .resources import data_dir
    from .settings import Settings

    settings = Settings()
    url = url or settings.database_url
    path = Settings(database_url=url).sqlite_path()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    cfg = Config()  # no ini file: the installed package has none, and the logging stays ours
    cfg.set_main_option("script_location", str(data_dir("alembic")))
    cfg.attributes["url"] = url
    cfg.attributes["configure_logger"] = False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        command.upgrade(cfg, "head")
        return
    # alembic's env.py runs its own event loop: give it a thread when one is running here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(command.upgrade, cfg, "head").result()


def db_backup(target: Path, url: str | None) -> int:
    """Copy the SQLite database to ``target`` with SQLite's online backup API: one read
    transaction (a consistent snapshot; in WAL mode the server keeps writing meanwhile),
    checked, then renamed into place."""
    import sqlite3

    from .settings import Settings

    source = (Settings(database_url=url) if url else Settings()).sqlite_path()
    if source is None:
        print("db backup copies a SQLite database; back up PostgreSQL with pg_dump", file=sys.stderr)
        return 2
    if not source.exists():
        print(f"no database at {source}", file=sys.stderr)
        return 1
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(partial)
    try:
        src.backup(dst)  # all pages in one step: the copy is one moment of the database
        problem = _sqlite_problem(dst)
        counts = _sqlite_counts(dst)
    finally:
        dst.close()
        src.close()
    if problem:
        partial.unlink(missing_ok=True)
        print(f"the copy failed its check: {problem}", file=sys.stderr)
        return 1
    os.replace(partial, target)
    print(f"backed up {source} to {target}: {counts}")
    return 0


def db_restore(backup: Path, url: str | None) -> int:
    """Replace the SQLite database with a backup (stop the server first)."""
    import sqlite3

    from .settings import Settings

    target = (Settings(database_url=url) if url else Settings()).sqlite_path()
    if target is None:
        print("db restore replaces a SQLite database; restore PostgreSQL with pg_restore", file=sys.stderr)
        return 2
    if not backup.is_file():
        print(f"no backup at {backup}", file=sys.stderr)
        return 1
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        problem = _sqlite_problem(src)
        if problem:
            print(f"{backup} is not a Genius Night backup: {problem}", file=sys.stderr)
            return 1
        target.parent.mkdir(parents=True, exist_ok=True)
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)  # page by page into the live file, through its own journal
            counts = _sqlite_counts(dst)
        finally:
            dst.close()
    finally:
        src.close()
    print(f"restored {target} from {backup}: {counts}")
    return 0


def _sqlite_problem(conn: Any) -> str:
    """Empty if ``conn`` holds a sound Genius Night database."""
    try:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except Exception as e:
        return str(e)
    if check != "ok":
        return f"integrity_check: {check}"
    missing = {"alembic_version", "rooms", "games", "moves"} - tables
    return f"missing tables {sorted(missing)}" if missing else ""


def _sqlite_counts(conn: Any) -> str:
    tables = ("rooms", "games", "moves")
    return ", ".join(f"{conn.execute(f'SELECT count(*) FROM {t}').fetchone()[0]} {t}" for t in tables)


def dev_admin_token(settings: Any) -> str:
    """Development's admin token: generated once, kept in ``admin_token`` (mode 0600) beside
    the SQLite database (or in ./var), and reused on later runs."""
    import secrets

    db_path = settings.sqlite_path()
    path = (db_path.parent if db_path is not None else Path("var")) / "admin_token"
    if path.exists():
        token = path.read_text().strip()
        if len(token) >= 16:
            return str(token)
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    os.chmod(path, 0o600)
    return token


def serve(host: str | None, port: int | None, database_url: str | None, migrate: bool) -> None:
    if database_url:
        os.environ["GENIUSNIGHT_DATABASE_URL"] = database_url
    from .settings import Settings

    settings = Settings()
    if migrate:
        db_upgrade(settings.database_url)
    if settings.env != "production" and not settings.admin_token:
        token = dev_admin_token(settings)
        os.environ["GENIUSNIGHT_ADMIN_TOKEN"] = token
        print(
            f"Admin console: http://{host or settings.host}:{port or settings.port}/admin  token: {token}",
            flush=True,
        )
    from .logs import log_config
    from .server.app import create_app
    from .server.lifecycle import DRAIN_TIMEOUT, RECONNECT_GRACE

    logging.config.dictConfig(log_config(settings.json_logs, settings.log_level))
    app = create_app(Settings())  # with the admin token just set
    config = uvicorn.Config(
        app,
        host=host or settings.host,
        port=port or settings.port,
        ws="websockets-sansio",  # the websockets library's sans-I/O protocol (docs/performance.md, D14)
        # a message (its fragments together) over this closes the socket (1009); one over
        # the frame limit but within this gets a clear error frame instead
        ws_max_size=WS_MAX_MESSAGE_BYTES,
        log_config=None,  # configured above
        log_level="info",
        # the client's address (for the per-address limits) is X-Forwarded-For's only when
        # the peer is a trusted proxy; anyone else's header is ignored
        proxy_headers=True,
        forwarded_allow_ips=settings.trusted_proxies,
        timeout_graceful_shutdown=int(RECONNECT_GRACE + DRAIN_TIMEOUT + 5),
    )
    server = uvicorn.Server(config)
    with asyncio.Runner(loop_factory=ListenersLoop) as runner:
        runner.run(serve_draining(server, app.state.lifecycle.drain))


try:
    from uvloop import Loop as EventLoop  # uvicorn's choice too, when it is installed
except ImportError:  # pragma: no cover - uvicorn[standard] brings it
    EventLoop = asyncio.SelectorEventLoop  # type: ignore[misc,assignment]


class ListenersLoop(EventLoop):
    """The event loop, keeping the listening servers opened on it (uvicorn's), so a
    graceful shutdown can stop accepting connections before it drains the open ones."""

    def __init__(self) -> None:
        super().__init__()
        self.listeners: list[asyncio.AbstractServer] = []

    async def create_server(self, *args: Any, **kwargs: Any) -> asyncio.AbstractServer:  # type: ignore[override]
        server: asyncio.AbstractServer = await super().create_server(*args, **kwargs)
        self.listeners.append(server)
        return server


async def serve_draining(server: uvicorn.Server, drain: Callable[[], Awaitable[None]]) -> None:
    """Run ``server``; once it listens, SIGTERM and SIGINT first drain the app (``drain``,
    ``Lifecycle.drain``: every socket asked to reconnect, the moves in flight settled), then
    reach uvicorn's own handler, which closes what is left and exits."""
    serving = asyncio.create_task(server.serve())
    while not server.started and not serving.done():
        await asyncio.sleep(0.05)
    if server.started:
        GracefulExit(drain).install()  # after uvicorn's handlers, which it set as it began
    await serving


class GracefulExit:
    """Signal handlers that drain the app before the server's own handlers run: the
    listening sockets close (new connections go to another replica), then ``drain``, then
    the signal is raised again with the server's handlers back in place. A second signal
    while draining goes straight to the server (twice Ctrl-C: exit now)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, drain: Callable[[], Awaitable[None]]) -> None:
        self.drain = drain
        self.loop = asyncio.get_running_loop()
        self.previous: dict[int, Any] = {}
        self.draining: asyncio.Task[None] | None = None

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signals reach only the main thread (uvicorn also skips them then)
        for sig in self.SIGNALS:
            self.previous[sig] = signal.signal(sig, self.received)

    def received(self, sig: int, frame: Any) -> None:
        if self.draining is None:
            self.loop.call_soon_threadsafe(self.begin, sig)
        elif callable(handler := self.previous[sig]):
            handler(sig, frame)

    def begin(self, sig: int) -> None:
        if self.draining is None:
            self.draining = self.loop.create_task(self.run(sig))

    async def run(self, sig: int) -> None:
        for listener in getattr(self.loop, "listeners", ()):
            listener.close()  # stop accepting; uvicorn closes them again, harmlessly
        try:
            await self.drain()
        except Exception:
            logging.getLogger(__name__).exception("graceful shutdown failed; closing anyway")
        for other, handler in self.previous.items():
            signal.signal(other, handler)
        signal.raise_signal(sig)  # the server's own handler: it shuts down and exits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="geniusnight", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="serve the web app")
    p_serve.add_argument("--host")
    p_serve.add_argument("--port", type=int)
    p_serve.add_argument("--database-url")
    p_serve.add_argument("--no-migrate", action="store_true", help="do not run migrations first")
    p_db = sub.add_parser("db", help="database tasks")
    p_db.add_argument("action", choices=["upgrade", "backup", "restore"])
    p_db.add_argument("file", nargs="?", type=Path, help="backup: the copy to write; restore: the backup to read")
    p_db.add_argument("--database-url")
    p_replay = sub.add_parser("replay", help="replay an admin JSON export through its engine")
    p_replay.add_argument("file", type=Path)
    p_bench = sub.add_parser("bench", help="benchmarks against a running server")
    bench_sub = p_bench.add_subparsers(dest="bench", required=True)
    from .bench.load import add_arguments as add_load_arguments

    add_load_arguments(bench_sub.add_parser("load", help="real games over websockets: moves/s, latency, memory"))
    args = parser.parse_args(argv)
    if args.command == "bench":
        from importlib.util import find_spec

        missing = [name for name in ("httpx", "psutil", "websockets") if find_spec(name) is None]
        if missing:
            print(f"missing {missing}: pip install 'geniusnight[bench]'", file=sys.stderr)
            return 2
        from .bench.load import main as bench_load

        return bench_load(args)
    if args.command == "replay":
        from .server.replay.player import replay_file

        return replay_file(args.file)
    if args.command == "serve":
        serve(args.host, args.port, args.database_url, not args.no_migrate)
    elif args.command == "db" and args.action in ("backup", "restore"):
        if args.file is None:
            parser.error(f"db {args.action} needs a FILE")
        return (db_backup if args.action == "backup" else db_restore)(args.file, args.database_url)
    elif args.command == "db":
        db_upgrade(args.database_url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
