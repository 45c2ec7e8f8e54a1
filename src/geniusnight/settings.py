"""Typed settings from the environment (prefix ``GENIUSNIGHT_``).

Development defaults let ``make run`` work on a fresh machine; production mode refuses to
start with unsafe ones (no admin token, the default secret key).
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEV_SECRET = "dev-insecure-secret-key-change-me"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GENIUSNIGHT_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    database_url: str = "sqlite+aiosqlite:///var/geniusnight.db"
    redis_url: str | None = None
    admin_token: str | None = None
    secret_key: str = DEV_SECRET
    host: str = "127.0.0.1"
    port: int = 8000
    # "module:attribute" of extra engines to register (tests use this for their toy game)
    extra_engines: list[str] = Field(default_factory=list)
    # more directories searched for /static files after ./static (the tests' toy game UI)
    extra_static: list[str] = Field(default_factory=list)
    # how long a bot "thinks" before its move, so people can follow the game
    bot_delay_ms: int = 700
    # per-connection flood limit: a token bucket
    rate_per_second: float = 15.0
    rate_burst: int = 30
    max_frame_bytes: int = 16 * 1024
    # limits a public server needs (per client address: the socket's peer, or the proxy's
    # X-Forwarded-For from a trusted proxy)
    ws_per_address: int = 50
    ws_total: int = 10_000
    ws_per_member: int = 4  # open sockets of one member in one room (tabs)
    ws_connects_per_minute: int = 120  # new websockets one address may open a minute
    admin_failures_per_minute: int = 10  # wrong admin tokens one address may try a minute
    # addresses (IPs or networks, comma-separated; "*" for any) whose X-Forwarded-For and
    # X-Forwarded-Proto are believed: the proxy in front, and nothing else
    trusted_proxies: str = "127.0.0.1,::1"
    rooms_per_minute: int = 30  # rooms one address may create
    code_misses_per_minute: int = 10  # wrong room codes one address may type a minute
    room_members_max: int = 50  # people in one room, spectators included
    chat_per_minute: int = 20  # chat messages one member may send
    # a room's options as JSON: each option, and all together (a custom word deck or question
    # pack is copied into every game of the room and replayed on every state asked for)
    option_max_bytes: int = 192 * 1024
    options_max_bytes: int = 256 * 1024
    option_changes_per_minute: int = 20  # option and time-limit changes one member may make
    hello_seconds: float = 10.0  # a new socket must say hello this soon
    # a host whose every socket closed this long ago hands the host role to someone connected
    host_away_seconds: float = 120.0
    finished_room_days: int = 30  # finished and closed rooms are deleted after this (0: never)
    # lobbies and running games nobody touched this long are closed (0: never); closed rooms
    # are then deleted after finished_room_days like finished ones (docs/deploy.md)
    abandoned_lobby_hours: float = Field(default=24.0, ge=0)
    abandoned_game_hours: float = Field(default=72.0, ge=0)
    # the cache of live games: a game that left it comes back from its log when needed
    live_games_max: int = 1000
    live_idle_seconds: float = 600.0
    live_finished_seconds: float = 60.0
    # moves a live game keeps as patches, so a client that reconnects soon after gets only
    # what it missed (docs/protocol.md, "Patch frames")
    patch_steps: int = Field(default=64, ge=1, le=4096)
    # HTTP request bodies: the largest a client needs is a room's options (OPTIONS_MAX_BYTES)
    # or an option file (at most 384 KiB); every JSON body is read whole before any route runs
    max_body_bytes: int = 512 * 1024
    # public base URL for invite links; empty means "use the request's host"
    public_url: str = ""
    # refused actions are kept this long for the admin's debugging view
    refused_keep_days: int = 7
    # cookies get the Secure flag (turn on behind HTTPS)
    secure_cookies: bool = False
    # "host:port" serving /metrics without the admin token (e.g. only to the scraper's
    # network); empty: /metrics on the main port, behind the admin token
    metrics_address: str = ""
    # log lines: "json" (one object per line) or "text"; unset: json in production
    log_format: Literal["json", "text"] | None = None
    # "debug" adds a line per committed move
    log_level: Literal["debug", "info", "warning", "error"] = "info"

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        if self.env == "production":
            if not self.admin_token or len(self.admin_token) < 16:
                raise ValueError("production needs GENIUSNIGHT_ADMIN_TOKEN (16+ characters)")
            if self.secret_key == DEV_SECRET or len(self.secret_key) < 32:
                raise ValueError("production needs GENIUSNIGHT_SECRET_KEY (32+ characters)")
        return self

    @property
    def json_logs(self) -> bool:
        return self.log_format == "json" or (self.log_format is None and self.env == "production")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def sqlite_path(self) -> Path | None:
        if not self.is_sqlite:
            return None
        path = self.database_url.split(":///", 1)[-1]
        return None if path in ("", ":memory:") else Path(path)


def generate_token() -> str:
    return secrets.token_urlsafe(24)


@lru_cache
def get_settings() -> Settings:
    return Settings()
