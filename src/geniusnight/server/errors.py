"""The refusal every layer raises and the app turns into ``{"code", "message"}`` with its status."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request: HTTP status, stable code, and a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
