"""The Jinja2 templates every page is rendered from (package data, see ``resources``)."""

from __future__ import annotations

from fastapi.templating import Jinja2Templates

from ..resources import data_dir

TEMPLATE_DIR = data_dir("templates")

templates = Jinja2Templates(directory=TEMPLATE_DIR)
