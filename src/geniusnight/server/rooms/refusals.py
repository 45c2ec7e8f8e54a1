"""The refusals the rooms' checks (and the use cases) give alike."""

from __future__ import annotations

from ..errors import ApiError


def no_room() -> ApiError:
    return ApiError(404, "no_room", "There is no such room (or it was closed).")


def not_member() -> ApiError:
    return ApiError(401, "not_member", "You are not in this room.")


def not_host() -> ApiError:
    return ApiError(403, "not_host", "Only the host can do that.")


def not_in_lobby() -> ApiError:
    return ApiError(409, "not_in_lobby", "That can only be changed in the lobby.")


def no_member() -> ApiError:
    return ApiError(404, "no_member", "Nobody with that id is in this room.")


def empty_seat() -> ApiError:
    """A seat number that nobody holds (said without the number: seats count from 0 on the
    wire, from 1 for people)."""
    return ApiError(404, "no_seat", "That seat is empty.")


def room_locked() -> ApiError:
    return ApiError(403, "room_locked", "The host has locked this room: nobody new can join.")


def seats_busy() -> ApiError:
    """A change of seats (or a start) that lost its race every time it was tried."""
    return ApiError(409, "seats_busy", "Many seats changed at once; please try again.")


def bad_screen_key() -> ApiError:
    """A shared screen's key that is not the room's: wrong, or retired by a new invite link."""
    return ApiError(
        401, "bad_screen_key", "This screen link is not valid (any more); open the shared screen again from the room."
    )
