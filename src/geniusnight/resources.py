"""The package's data directories: ``templates/``, ``static/`` and ``alembic/``.

They live at the top of the repository. A wheel carries them inside the package
(``pyproject.toml`` force-includes them under ``geniusnight/``), so an installed server finds
them through ``importlib.resources`` from any working directory; an editable install from a
checkout finds them beside ``src/``, where they are edited.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def data_dir(name: str) -> Path:
    """The directory ``name`` (``"templates"``, ``"static"`` or ``"alembic"``) as a real path
    (Jinja2, StaticFiles and Alembic read from the file system)."""
    shipped = files(__package__) / name
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    checkout = CHECKOUT / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"package data {name!r} is missing: reinstall geniusnight")
