"""The lock files (docs/deploy.md, "Reproducible installs"): requirements/server.txt pins the
server's dependencies for the image, requirements/dev.txt those and the dev extra for
development and CI. Each pin satisfies pyproject.toml's bounds (a bound changed without
`make lock` fails here) and carries hashes, so `pip install --require-hashes` takes them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)", re.M)


def pins(name: str) -> dict[str, str]:
    return {canonicalize_name(n): v for n, v in PIN.findall((ROOT / "requirements" / name).read_text())}


def direct(extra: str | None) -> list[Requirement]:
    reqs = [Requirement(r) for r in PROJECT["dependencies"]]
    if extra is not None:
        for r in PROJECT["optional-dependencies"][extra]:
            req = Requirement(r)
            if canonicalize_name(req.name) == "geniusnight":  # geniusnight[bench]
                reqs += [Requirement(b) for e in req.extras for b in PROJECT["optional-dependencies"][e]]
            else:
                reqs.append(req)
    return reqs


@pytest.mark.parametrize(("lock", "extra"), [("server.txt", None), ("dev.txt", "dev")])
def test_every_dependency_is_pinned_within_its_bounds(lock: str, extra: str | None) -> None:
    pinned = pins(lock)
    for req in direct(extra):
        version = pinned.get(canonicalize_name(req.name))
        assert version is not None, f"{req.name} is not in requirements/{lock}: run `make lock`"
        assert req.specifier.contains(version, prereleases=True), f"{req.name}=={version} outside {req}"


@pytest.mark.parametrize("lock", ["server.txt", "dev.txt"])
def test_every_pin_has_hashes(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    pinned = [b for b in blocks if PIN.match(b)]
    assert len(pinned) == len(pins(lock)) > 10
    assert all("--hash=sha256:" in b for b in pinned)


def test_the_image_and_the_install_use_the_locks() -> None:
    assert "pip install --require-hashes -r requirements.txt" in (ROOT / "Dockerfile").read_text()
    assert "COPY requirements/server.txt" in (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/dev.txt" in (ROOT / "Makefile").read_text()
