"""The Jinja2 templates every page is rendered from (package data, see ``resources``).

Every page gets the request's language and its ``t`` (see ``geniusnight.i18n``)."""

from __future__ import annotations

from fastapi.templating import Jinja2Templates

from ..i18n import page_context
from ..resources import data_dir

TEMPLATE_DIR = data_dir("templates")

templates = Jinja2Templates(directory=TEMPLATE_DIR, context_processors=[page_context])
