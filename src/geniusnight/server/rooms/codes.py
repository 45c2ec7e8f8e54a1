"""Room codes: a short code people read aloud and type on a phone to join a room.

Six characters from an alphabet without the letters and digits people mix up (no 0/O,
1/I/L, 5/S, 2/Z, 8/B): 25 characters, about 244 million codes. A code is unique among all
rooms the database holds (a unique index), so it is unique among the joinable ones; the
retention that deletes old rooms frees their codes. Typed codes are read case-insensitively,
with spaces and dashes ignored. Guessing is limited per client address (see
``PartyNight.find_by_code``), and a code admits people only while its host lets it.
"""

from __future__ import annotations

import secrets

CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(typed: str) -> str | None:
    """The code someone typed, as stored; None if it cannot be a code at all.

    >>> read_code(" hxk-47p "), read_code("hxk47"), read_code("HXK47O")
    ('HXK47P', None, None)
    """
    code = "".join(typed.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code
