"""The names people and bots go by in a room: checked as typed, and told apart by how they
look (a name that passes for another's is refused, so nobody can pose as the host)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ..edge import FORBIDDEN_TEXT
from ..errors import ApiError

NAME_MAX = 32

# code points that show nothing (or change how the text around them shows) without being
# format characters (Cf, refused as a category): Hangul fillers, the Braille blank, the
# combining grapheme joiner, Mongolian and standard variation selectors
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
)
# look-alike letters of other scripts, by the Latin letter they pass for (Cyrillic and Greek,
# capitals before case folding: a capital Eta looks like H, its small letter does not), and
# digits and signs that pass for letters
_LOOKS_LIKE = str.maketrans(
    {
        **dict.fromkeys("АΑ", "A"),
        **dict.fromkeys("ВΒ", "B"),
        **dict.fromkeys("СϹ", "C"),
        **dict.fromkeys("ЕΕЁ", "E"),
        **dict.fromkeys("НΗ", "H"),
        **dict.fromkeys("ІΙӀ", "l"),
        **dict.fromkeys("ЈͿ", "J"),
        **dict.fromkeys("КΚ", "K"),
        **dict.fromkeys("МΜ", "M"),
        "Ν": "N",
        **dict.fromkeys("ОΟ", "O"),
        **dict.fromkeys("РΡ", "P"),
        "Ѕ": "S",
        **dict.fromkeys("ТΤ", "T"),
        **dict.fromkeys("УΥҮ", "Y"),
        **dict.fromkeys("ХΧ", "X"),
        "Ζ": "Z",
        "I": "l",
        **dict.fromkeys("аα", "a"),
        "в": "b",
        **dict.fromkeys("сϲ", "c"),
        "ԁ": "d",
        **dict.fromkeys("еёεѐ", "e"),
        "һ": "h",
        **dict.fromkeys("іїιӏ|1", "l"),
        "ј": "j",
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("оοσ0", "o"),
        **dict.fromkeys("рρ", "p"),
        "ԛ": "q",
        "ѕ": "s",
        "τ": "t",
        "υ": "u",
        "ν": "v",
        "ԝ": "w",
        **dict.fromkeys("хχ", "x"),
        "у": "y",
    }
)
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner
_EMOJI_STYLE = frozenset("\ufe0e\ufe0f")  # text or emoji presentation of the symbol before


def name_skeleton(name: str) -> str:
    """What a name looks like, for telling whether two names can be told apart: its
    letters that pass for Latin ones as those, case folded, marks and spaces dropped, and
    "rn" read as "m", "vv" as "w".

    >>> name_skeleton("Host") == name_skeleton("Ｈｏｓｔ") == name_skeleton("Hоst") == name_skeleton("H O S T")
    True
    >>> name_skeleton("Ada") == name_skeleton("Adam"), name_skeleton("Ian") == name_skeleton("lan")
    (False, True)
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).translate(_LOOKS_LIKE))
    text = "".join(
        c for c in text if not (unicodedata.combining(c) or c.isspace() or c in _JOINERS or c in _EMOJI_STYLE)
    )
    return text.casefold().translate(_LOOKS_LIKE).replace("rn", "m").replace("vv", "w")


def _shown(c: str) -> bool:
    """A character beside which a joiner or a presentation selector does its work: a
    letter or mark of a script other than ASCII's, or a symbol (an emoji)."""
    return not c.isascii() and unicodedata.category(c)[0] in "LMS"


def _hidden(name: str, i: int) -> bool:
    """Whether ``name[i]`` shows nothing on its own: a control, format, private-use,
    unassigned or invisible character. Allowed where it does its work: a joiner between two
    letters of a script that needs it (Persian, the Indic scripts) or two emoji, a
    presentation selector after an emoji."""
    c = name[i]
    if c in _JOINERS:
        return not (0 < i < len(name) - 1 and _shown(name[i - 1]) and _shown(name[i + 1]))
    if c in _EMOJI_STYLE:
        return not (i > 0 and unicodedata.category(name[i - 1]) == "So")
    return c in _INVISIBLE or unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn")


def clean_name(name: object) -> str:
    """A name as it is stored: NFKC-normalised (fullwidth letters become plain ones), its
    spaces collapsed. Refused (422 ``bad_name``): anything but text, control, format (zero
    width, direction overrides) or invisible characters, nothing visible, over ``NAME_MAX``."""
    if not isinstance(name, str) or FORBIDDEN_TEXT.search(name):
        raise ApiError(422, "bad_name", "A name must be text, without control characters.")
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if any(_hidden(name, i) for i in range(len(name))):
        raise ApiError(422, "bad_name", "A name may not hold invisible or direction-changing characters.")
    if not name_skeleton(name):
        raise ApiError(422, "bad_name", "Please type a name.")
    if len(name) > NAME_MAX:
        raise ApiError(422, "bad_name", f"Names are at most {NAME_MAX} characters.")
    return name


def check_name_free(name: str, present: Iterable[str]) -> None:
    """409 ``name_taken`` if ``name`` looks like the name of someone in the room (see
    :func:`name_skeleton`): nobody can pose as the host or another player."""
    skeleton = name_skeleton(name)
    if any(name_skeleton(other) == skeleton for other in present):
        raise ApiError(409, "name_taken", "Someone in this room has that name (or one that looks like it).")


# what bots are called, in the order they join: friendly names, not the kind of bot (the seat
# list marks a bot as one); more than a table has seats, so a person's own name never blocks them
BOT_NAMES = ("Pixel", "Gizmo", "Sprocket", "Widget", "Zippy", "Bolt", "Chip", "Sparky", "Nova", "Cog", "Dot", "Beep")


def bot_name(present: list[str]) -> str:
    """A friendly name for a new bot that looks like no name in the room."""
    taken = {name_skeleton(n) for n in present}
    for name in BOT_NAMES:
        if name_skeleton(name) not in taken:
            return name
    for i in range(2, 100):
        name = f"{BOT_NAMES[0]} {i}"
        if name_skeleton(name) not in taken:
            return name
    return BOT_NAMES[0]
