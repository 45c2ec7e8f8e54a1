"""The package stands alone: its wheel, installed into a fresh venv, serves pages, static files
and migrations from any directory, without the checkout.

The wheel is built without build isolation and installed with ``--no-deps``; the fresh venv
borrows this venv's site-packages for the dependencies (a ``.pth`` line, so this venv's
editable install of the package is not picked up), which keeps the test fast and offline."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import httpx

from support import ROOT, free_port


def run(*cmd: str | Path, cwd: Path) -> str:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_installed_wheel_serves_pages_static_files_and_migrations_from_any_directory(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, ROOT, cwd=tmp_path)
    (wheel,) = dist.glob("geniusnight-*.whl")

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path).strip())
    (site / "borrowed-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run(
        sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel, cwd=tmp_path
    )
    where = run(python, "-c", "import geniusnight; print(geniusnight.__file__)", cwd=tmp_path)
    assert Path(where).is_relative_to(site)
    decks = "from geniusnight.engines.genius_idea import similarity as s; print(*map(len, map(s.themes, ['en', 'de'])))"
    assert run(python, "-c", decks, cwd=tmp_path).split() == ["243", "243"]  # each language's deck ships

    work = tmp_path / "elsewhere"
    work.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GENIUSNIGHT_") and k != "PYTHONPATH"}
    db = work / "var" / "geniusnight.db"
    log = (tmp_path / "serve.log").open("wb")
    cmd = [venv / "bin" / "geniusnight", "serve", "--port", str(port), "--database-url", f"sqlite+aiosqlite:///{db}"]
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                games = httpx.get(f"{base}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "server did not start in 30 s"
                time.sleep(0.1)
        assert games.status_code == 200 and games.json()
        brainiac = next(g for g in games.json() if g["id"] == "brainiac")
        language = next(o for o in brainiac["options"] if o["name"] == "language")
        assert language["choices"] == ["en", "de"]  # the question banks ship, a folder per language
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200 and "<html" in page.text.lower()
        german = httpx.get(f"{base}/", headers={"Accept-Language": "de"}, timeout=5)  # the catalogs ship too
        assert '<html lang="de">' in german.text and "Raum eröffnen" in german.text
        script = httpx.get(f"{base}/static/js/home.js", timeout=5)
        assert script.status_code == 200 and script.text == (ROOT / "static" / "js" / "home.js").read_text()
        with sqlite3.connect(db) as conn:  # the shipped migrations ran up to their head
            (version,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        heads = [p.name for p in (ROOT / "alembic" / "versions").glob("*.py") if version in p.read_text()]
        assert heads
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
