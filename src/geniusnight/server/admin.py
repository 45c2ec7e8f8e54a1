"""Admin console and API (issue 6): guarded by GENIUSNIGHT_ADMIN_TOKEN."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
