"""The automatic answer judge for Brainiac or IDIOT! (docs/rules/brainiac.md, "Judging").

:func:`normalise` reduces an answer to a canonical form: case folded, accents stripped
(Unicode NFKD), punctuation dropped, ``&`` read as ``and``, a leading article (a / an / the)
dropped, and number words turned into digits ("twelve" -> "12", "one hundred and five" ->
"105", "nineteen sixty-nine" -> "1969", "third" -> "3rd"; "3rd" stays "3rd").

:func:`judge` accepts an answer when its normal form equals one accepted answer's (spaces
ignored), or is a *near miss* of a longer answer: an optimal-string-alignment edit distance
(a swap of two neighbouring letters counts as one edit) of at most

===========================  =================
accepted answer (letters)    edits allowed
===========================  =================
1-4                          0 (exact)
5-9                          1
10 or more                   2
===========================  =================

provided the first letter matches. Answers with a digit in either form (numbers, years,
ordinals) must match exactly.

    >>> normalise("  The Beatles! ")
    'beatles'
    >>> normalise("Twenty-One")
    '21'
    >>> judge("twelve", ["12"]), judge("Mississipi", ["Mississippi"]), judge("Iraq", ["Iran"])
    (True, True, False)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz.distance import OSA

__all__ = ["allowed_edits", "judge", "normalise"]

_UNITS = {
    "zero": 0,
    "oh": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fourty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
    "sixtieth": 60,
    "seventieth": 70,
    "eightieth": 80,
    "ninetieth": 90,
    "hundredth": 100,
    "thousandth": 1000,
}
_ARTICLES = ("a", "an", "the")
_DIGIT_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tokens(text: str) -> list[str]:
    text = _strip_accents(text).casefold()
    text = text.replace("&", " and ").replace("ß", "ss")
    # digits keep their decimal point and lose thousands separators: "1,000" -> "1000"
    text = re.sub(r"(?<=\d)[,_](?=\d{3})", "", text)
    text = re.sub(r"(?<=\d)\.(?=\d)", "\0", text)
    text = re.sub(r"['\u2019`]", "", text)  # o'neill -> oneill, don't -> dont
    text = re.sub(r"[^\w\0]+|_", " ", text)
    return text.replace("\0", ".").split()


def _numbers(tokens: list[str]) -> list[str]:
    """Replace every run of number words with its digits."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        value, used, ordinal, from_words = _read_number(tokens, i)
        if used == 0:
            m = _DIGIT_ORDINAL.match(tokens[i])
            out.append(_ordinal(int(m.group(1))) if m else tokens[i])
            i += 1
            continue
        # "nineteen sixty nine": two spoken pairs make a year
        if not ordinal and from_words and 11 <= value <= 99 and i + used < len(tokens):
            nxt, nused, nord, nwords = _read_number(tokens, i + used)
            if nused and nwords and 10 <= nxt <= 99:
                value, used, ordinal = value * 100 + nxt, used + nused, nord
        out.append(_ordinal(value) if ordinal else str(value))
        i += used
    return out


def _read_number(tokens: list[str], start: int) -> tuple[int, int, bool, bool]:
    """Parse number words from ``start``: (value, tokens used, is ordinal, from words)."""
    total = 0
    current = 0
    used = 0
    seen = False
    ordinal = False
    i = start
    while i < len(tokens):
        t = tokens[i]
        if t in _UNITS and not (t == "oh" and not seen):
            rest = current % 100
            # a unit may follow a scale ("hundred five") or a tens word ("twenty one");
            # "five six" or "twelve three" are two numbers
            if seen and not (rest == 0 or (rest >= 20 and rest % 10 == 0 and _UNITS[t] < 10)):
                break
            current += _UNITS[t]
        elif t in _TENS:
            if seen and current % 100 != 0:
                break
            current += _TENS[t]
        elif t in _SCALES:
            scale = _SCALES[t]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        elif t in _ORDINALS:
            n = _ORDINALS[t]
            if n >= 100:
                current = (current or 1) * n
            elif seen and not (current % 100 == 0 or (current % 100 >= 20 and current % 10 == 0 and n < 10)):
                break
            else:
                current += n
            ordinal = True
            used = i - start + 1
            seen = True
            break
        elif t == "dozen":
            current = (current or 1) * 12
        elif t == "and" and seen and i + 1 < len(tokens) and (tokens[i + 1] in _UNITS or tokens[i + 1] in _TENS):
            i += 1  # "one hundred and five"
            continue
        else:
            break
        seen = True
        i += 1
        used = i - start
    if not seen:
        return 0, 0, False, False
    return total + current, used, ordinal, True


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """The canonical form answers are compared in (see the module docstring). Kept for
    the texts seen last: a question's accepted answers are read again for every answer
    judged, and reading one cost more than the rest of the judge.

    >>> normalise("Café  &  Crème"), normalise("an apple"), normalise("1,000")
    ('cafe and creme', 'apple', '1000')
    """
    tokens = _tokens(text)
    if len(tokens) > 1 and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    return " ".join(_numbers(tokens))


def allowed_edits(accepted_normal: str) -> int:
    """Edits tolerated for an accepted answer of this normal form (0 when it has a digit)."""
    if any(c.isdigit() for c in accepted_normal):
        return 0
    letters = len(accepted_normal.replace(" ", ""))
    if letters <= 4:
        return 0
    if letters <= 9:
        return 1
    return 2


def judge(text: str, accepted: Iterable[str]) -> bool:
    """Whether ``text`` matches one of the ``accepted`` answers (see the module docstring)."""
    given = normalise(text)
    if not given:
        return False
    squeezed = given.replace(" ", "")
    has_digit = any(c.isdigit() for c in given)
    for answer in accepted:
        target = normalise(answer)
        if not target:
            continue
        tsq = target.replace(" ", "")
        if given == target or squeezed == tsq:
            return True
        limit = allowed_edits(target)
        if has_digit or limit == 0 or squeezed[0] != tsq[0]:
            continue
        if OSA.distance(squeezed, tsq, score_cutoff=limit + 1) <= limit:
            return True
    return False
