"""The automatic answer judge for Brainiac or IDIOT! (docs/rules/brainiac.md, "Judging").

:func:`normalise` reduces an answer to a canonical form: case folded, accents stripped
(Unicode NFKD), punctuation dropped but a sign kept ("-273", "minus 273" -> "-273"), ``&``
read as ``and``, a leading article (a / an / the) dropped -- but not the letter "a" of "A
negative" or "A minor" -- and number words turned into digits ("twelve" -> "12", "one hundred
and five" -> "105", "nineteen sixty-nine" -> "1969", "third" -> "3rd"; "3rd" stays "3rd").

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

provided the first letter matches, and never for a typed answer that is itself another
known answer (``others``: the pack's other answers and decoys, see :func:`known_answers`;
"Proton" is not a slip of "Photon"). Answers with a digit in either form (numbers, years,
ordinals, signs) must match exactly, and so must every *mark*: a single letter, a run of
initials or a Roman numeral ("Vitamin C" is not "Vitamin D", "Heinrich VII" not "Heinrich VIII").

A right answer in other words also counts (:func:`head_match`, :func:`surname_match`):

- a longer answer whose *head* is an accepted answer (matched as above), with only generic
  words before it ("the river Nile", "Mount Everest", "in 1969") and after it either a phrase
  starting with a link word of at most four words ("eye of the storm", "Paris in France"), one
  generic noun ("Nile river"), or after a number one or two words ("206 bones"); never when
  what follows holds a negation or an alternative ("Nile or Amazon", "not the eye");
- for a question that asks for a person ("Who ...", "Which painter ..."), the surname of an
  accepted full name: its last word, with any name particles before it ("Washington" for
  "George Washington", "van Gogh" for "Vincent van Gogh").

    >>> normalise("  The Beatles! ")
    'beatles'
    >>> normalise("Twenty-One")
    '21'
    >>> judge("twelve", ["12"]), judge("Mississipi", ["Mississippi"]), judge("Iraq", ["Iran"])
    (True, True, False)
    >>> judge("Vitamin C", ["Vitamin D"]), judge("273", ["-273"]), judge("Proton", ["Photon"], others={"proton"})
    (False, False, False)
    >>> judge("eye of the storm", ["Eye"]), judge("not the eye", ["Eye"]), judge("Nile or Amazon", ["Nile"])
    (True, False, False)
    >>> judge("Washington", ["George Washington"], "Who was the first US president?")
    True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Container, Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA

__all__ = [
    "LANGUAGES",
    *("allowed_edits", "asks_for_person", "german_number", "head_match", "judge", "known_answers"),
    *("normalise", "surname_match"),
]

# the languages the judge reads, each with its own number words, articles and spellings
LANGUAGES = ("en", "de")

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
# After these words a leading "a" is the letter A, not an article: a blood group's rhesus
# factor, a grade's plus or minus, a key's mode or accidental ("A negative", "A minor").
_LETTER_QUALIFIERS = frozenset(
    {"positive", "negative", "pos", "neg", "rhesus", "rh", "plus", "minus", "major", "minor", "sharp", "flat"}
)
_DIGIT_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tokens(text: str, language: str = "en") -> list[str]:
    text = text.replace("\0", " ").replace("\x01", " ")  # the placeholders used below
    if language == "de":
        # umlauts as their two-letter spellings, so "München" = "Muenchen"; "1.000,5" = 1000.5
        text = text.casefold().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
        text = re.sub(r"(?<=\d)\.(?=\d{3}(?!\d))", "", text)
        text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    text = _strip_accents(text).casefold()
    text = text.replace("&", " und " if language == "de" else " and ").replace("ß", "ss")
    # digits keep their decimal point and lose thousands separators: "1,000" -> "1000"
    text = re.sub(r"(?<=\d)[,_](?=\d{3})", "", text)
    text = re.sub(r"(?<=\d)\.(?=\d)", "\0", text)
    text = re.sub(r"['\u2019`]", "", text)  # o'neill -> oneill, don't -> dont
    # a minus sign (hyphen, minus or en dash before a number, not after a word) is kept: "-273"
    text = re.sub(r"(?<![\w.\0])[-\u2212\u2013](?=\d)", "\x01", text)
    text = re.sub(r"[^\w\0\x01]+|_", " ", text)
    return text.replace("\0", ".").replace("\x01", "-").split()


def _signed(tokens: list[str]) -> list[str]:
    """The word "minus" before a number is its sign: ["minus", "273"] -> ["-273"]."""
    out: list[str] = []
    for word in tokens:
        if out and out[-1] == "minus" and word[:1].isdigit() and not _DIGIT_ORDINAL.match(word):
            out[-1] = "-" + word
        else:
            out.append(word)
    return out


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
def normalise(text: str, language: str = "en") -> str:
    """The canonical form answers are compared in (see the module docstring). Kept for
    the texts seen last: a question's accepted answers are read again for every answer
    judged, and reading one cost more than the rest of the judge.

    ``language="de"`` reads German: umlauts as ae/oe/ue, ``ß`` as ss, the articles der, die,
    das, den, dem, des, ein, eine, einen, einem, einer, eines, ``&`` as "und", decimal commas
    and German number words, compounds included ("einundzwanzig" -> "21",
    "neunzehnhundertneunundsechzig" -> "1969"), also written apart ("neunzehnhundert
    neunundachtzig" -> "1989") and with a spoken decimal comma ("zwei Komma fünf" -> "2.5");
    ordinals as their number: "dritte" -> "3".

    >>> normalise("Café  &  Crème"), normalise("an apple"), normalise("1,000")
    ('cafe and creme', 'apple', '1000')
    >>> normalise("A negative"), normalise("a dog"), normalise("minus 273"), normalise("Catch-22")
    ('a negative', 'dog', '-273', 'catch 22')
    >>> normalise("Die Zugspitze", "de"), normalise("München", "de"), normalise("zweihundertsechs", "de")
    ('zugspitze', 'muenchen', '206')
    """
    tokens = _tokens(text, language)
    if language == "de":
        if len(tokens) > 1 and tokens[0] in _GERMAN_ARTICLES and not _german_number_follows(tokens, 1):
            tokens = tokens[1:]
        return " ".join(_signed(_german_numbers(tokens)))
    if len(tokens) > 1 and tokens[0] in _ARTICLES and not (tokens[0] == "a" and tokens[1] in _LETTER_QUALIFIERS):
        tokens = tokens[1:]
    return " ".join(_signed(_numbers(tokens)))


_GERMAN_ARTICLES = frozenset(
    {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines"}
)
_GERMAN_UNITS = {
    **{"null": 0, "eins": 1, "ein": 1, "eine": 1, "zwei": 2, "zwo": 2, "drei": 3, "vier": 4, "fuenf": 5},
    **{"sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwoelf": 12, "dreizehn": 13},
    **{"vierzehn": 14, "fuenfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18, "neunzehn": 19},
}
_GERMAN_TENS = {
    **{"zwanzig": 20, "dreissig": 30, "vierzig": 40, "fuenfzig": 50, "sechzig": 60},
    **{"siebzig": 70, "achtzig": 80, "neunzig": 90},
}
_GERMAN_SCALES = {"million": 10**6, "millionen": 10**6, "milliarde": 10**9, "milliarden": 10**9}
# ordinal stems whose number is not read from the cardinal before "t"/"st" ("erste", "dritte")
_GERMAN_ORDINAL_STEMS = {"erst": 1, "dritt": 3, "siebt": 7, "acht": 8}


def _german_below_100(word: str) -> int | None:
    if word in _GERMAN_UNITS:
        return _GERMAN_UNITS[word]
    if word in _GERMAN_TENS:
        return _GERMAN_TENS[word]
    unit, und, tens = word.partition("und")
    if und and tens in _GERMAN_TENS and unit in _GERMAN_UNITS and 1 <= _GERMAN_UNITS[unit] <= 9:
        return _GERMAN_UNITS[unit] + _GERMAN_TENS[tens]
    return None


def _german_below_1000(word: str) -> int | None:
    head, hundert, rest = word.partition("hundert")
    if not hundert:
        return _german_below_100(word)
    times = _german_below_100(head) if head else 1  # "neunzehnhundert" (years) too
    below = _german_below_100(rest) if rest else 0
    return None if times is None or below is None or times == 0 else times * 100 + below


def german_number(word: str) -> int | None:
    """The value of one German number word, compounds included, or None.

    >>> german_number("einundzwanzig"), german_number("dreitausendzweihundertelf"), german_number("tausend")
    (21, 3211, 1000)
    """
    head, tausend, rest = word.partition("tausend")
    if not tausend:
        return _german_below_1000(word)
    times = _german_below_1000(head) if head else 1
    below = _german_below_1000(rest) if rest else 0
    return None if times is None or below is None or times == 0 else times * 1000 + below


def _german_ordinal(word: str) -> int | None:
    """ "dritte", "zwanzigsten", "erster" -> 3, 20, 1; else None."""
    stem = re.sub(r"(e|er|en|em|es)$", "", word)
    if stem in _GERMAN_ORDINAL_STEMS:
        return _GERMAN_ORDINAL_STEMS[stem]
    for suffix in ("st", "t"):
        if stem.endswith(suffix):
            n = german_number(stem[: -len(suffix)])
            if n is not None and (suffix == "st") == (n >= 20):
                return n
    return None


def _german_numbers(tokens: list[str]) -> list[str]:
    """Replace German number words with digits ("eine Million" -> "1000000"); "ein" alone
    before a word that is no number stays a word (it is an article there). Number words
    written apart are one number when each is below the last's lowest place
    ("neunzehnhundert neunundachtzig" -> "1989", "zweitausend drei" -> "2003"), and "Komma"
    between a whole number and single digits is the decimal comma ("zwei Komma fünf" ->
    "2.5")."""
    out: list[str] = []
    spoken: list[bool] = []  # whether each of ``out`` is a whole number read from words
    i = 0
    while i < len(tokens):
        word = tokens[i]
        scale = _GERMAN_SCALES.get(word)
        if scale is not None and out and out[-1].isdigit():
            out[-1] = str(int(out[-1]) * scale)
            i += 1
            continue
        if word == "komma" and out and out[-1].isdigit() and _german_number_follows(tokens, i):
            digits = ""
            while i + 1 < len(tokens) and _german_digit(tokens[i + 1]):
                i += 1
                digits += str(_GERMAN_UNITS[tokens[i]])
            out[-1], spoken[-1] = f"{out[-1]}.{digits}", False
            i += 1
            continue
        n = german_number(word)
        cardinal = n is not None
        if n is None:
            n = _german_ordinal(word) if len(word) > 3 else None
        if n is None or (word in ("ein", "eine") and i + 1 < len(tokens) and not _german_number_follows(tokens, i + 1)):
            out.append(word)
            spoken.append(False)
        elif cardinal and spoken and spoken[-1] and n < _lowest_place(int(out[-1])):
            out[-1] = str(int(out[-1]) + n)
        else:
            out.append(str(n))
            spoken.append(cardinal)
        i += 1
    return out


def _german_digit(word: str) -> bool:
    return _GERMAN_UNITS.get(word, 10) < 10


def _german_number_follows(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` goes on a number before it: a scale ("Million") or "Komma" and
    a digit ("ein Komma fünf", not "ein Komma")."""
    if tokens[i] == "komma":
        return i + 1 < len(tokens) and _german_digit(tokens[i + 1])
    return tokens[i] in _GERMAN_SCALES


def _lowest_place(n: int) -> int:
    """The place of ``n``'s lowest non-zero digit from the hundreds up (1900 -> 100, 2000 ->
    1000), or 0 below a hundred or off the hundreds: a number spoken after it adds to it."""
    if n < 100 or n % 100:
        return 0
    place = 100
    while n % (place * 10) == 0:
        place *= 10
    return place


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


def known_answers(texts: Iterable[str], language: str = "en") -> frozenset[str]:
    """The ``others`` for :func:`judge`: the normal forms (spaces removed) of ``texts``, the
    accepted answers and decoys of a pack. Meant to be built once per pack; it bypasses the
    cache of :func:`normalise`, which a whole pack would flush.

    >>> sorted(known_answers(["The Photon", "Vitamin C", "Proton"]))
    ['photon', 'proton', 'vitaminc']
    """
    read = normalise.__wrapped__
    return frozenset(form.replace(" ", "") for form in (read(t, language) for t in texts) if form)


def judge(
    text: str,
    accepted: Iterable[str],
    question: str | None = None,
    language: str = "en",
    others: Collection[str] = frozenset(),
) -> bool:
    """Whether ``text`` matches one of the ``accepted`` answers of ``question`` (see the
    module docstring; without the question no surname is taken for a full name). ``others``
    holds other known answers (:func:`known_answers`, same ``language``): a typed answer
    among them, or a word of the question, is no near miss. With ``language="de"`` both are read as German
    (:func:`normalise`), an answer typed without an umlaut's dots counts ("Bar" for "Bär":
    :func:`_umlauts_dropped`), and a right answer in other words is read with German words
    ("Auge des Sturms", "der Fluss Rhein", "Beethoven" for a "Wer ...?" question)."""
    given = normalise(text, language)
    if not given:
        return False
    # a word of the question itself is no slip of the answer: "Mutter" asked for the plural
    # of Mutter is not "Mütter" typed without the dots (a right answer that the question
    # names, "Fisch oder Säugetier?", still counts: it is no near miss)
    known: Container[str] = others if question is None else _EitherOf(others, _words_of(question, language))
    targets = [t for t in (normalise(a, language) for a in accepted) if t]
    if language == "en" and given.startswith("a ") and not any(t.startswith("a ") for t in targets):
        given = given[2:]  # "a negative charge": an article after all, as no answer is the letter A
    if any(_same(given, target, known) for target in targets):
        return True
    if language == "de" and _umlauts_dropped(given, accepted, known):
        return True
    words = given.split()
    if any(head_match(words, target.split(), known, language) for target in targets):
        return True
    if question is not None and asks_for_person(question, language):
        return any(surname_match(given, answer, known, language) for answer in accepted)
    return False


class _EitherOf:
    """In either of two collections (without copying the bank's thousands of answers)."""

    def __init__(self, first: Container[str], second: Container[str]) -> None:
        self.first, self.second = first, second

    def __contains__(self, item: object) -> bool:
        return item in self.first or item in self.second


@lru_cache(maxsize=1024)
def _words_of(question: str, language: str) -> frozenset[str]:
    """The question's words in normal form (every answer to a question is judged with them)."""
    return frozenset(normalise(question, language).split())


_UMLAUT_DOTS_DROPPED = str.maketrans("äöüÄÖÜ", "aouAOU")


def _umlauts_dropped(given: str, accepted: Iterable[str], others: Container[str]) -> bool:
    """Whether the German normal form ``given`` is an accepted answer with its umlauts written
    without the dots ("Bar" for "Bär", "Koln" for "Köln"), exactly: not a near miss of that
    spelling, no single letter ("O" is not "Ö"), and not itself another known answer."""
    squeezed = given.replace(" ", "")
    if squeezed in others:
        return False
    for answer in accepted:
        dropped = answer.translate(_UMLAUT_DOTS_DROPPED)
        if dropped != answer:
            target = normalise(dropped, "de")
            if squeezed == target.replace(" ", "") and _same_marks(given.split(), normalise(answer, "de").split()):
                return True
    return False


def _same(given: str, target: str, others: Container[str] = frozenset()) -> bool:
    """Equal normal forms (spaces ignored), or a near miss of a longer answer: its marks
    equal and not itself one of the ``others``."""
    squeezed, tsq = given.replace(" ", ""), target.replace(" ", "")
    if given == target or squeezed == tsq:
        return True
    limit = allowed_edits(target)
    if limit == 0 or any(c.isdigit() for c in given) or squeezed[0] != tsq[0] or squeezed in others:
        return False
    return _same_marks(given.split(), target.split()) and OSA.distance(squeezed, tsq, score_cutoff=limit + 1) <= limit


# A Roman numeral up to 399 (i, v, x, l, c only, so words like "mix" or "did" are none).
_ROMAN = re.compile(r"(?=[ivxlc])c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")


def _words_and_marks(words: list[str]) -> tuple[set[str], set[str]]:
    """The words, runs of single letters joined ("j r r tolkien" -> "jrr", "tolkien"), and
    which of them are marks: initials, single letters or Roman numerals."""
    joined: list[str] = []
    marks: set[str] = set()
    run = ""
    for word in [*words, ""]:
        if len(word) == 1:
            run += word
            continue
        if run:
            joined.append(run)
            marks.add(run)
            run = ""
        if word:
            joined.append(word)
            if _ROMAN.fullmatch(word):
                marks.add(word)
    return set(joined), marks


def _same_marks(given: list[str], target: list[str]) -> bool:
    """Whether every mark of either answer is a word of the other: a slip never changes a
    letter, initials or a regnal number ("vitamin c" / "vitamin d", "jrr tolkein" = "j r r
    tolkien")."""
    given_words, given_marks = _words_and_marks(given)
    target_words, target_marks = _words_and_marks(target)
    return given_marks <= target_words and target_marks <= given_words


@dataclass(frozen=True)
class OtherWords:
    """One language's words for reading a right answer in other words, in normal form
    (umlauts as ae/oe/ue, ß as ss)."""

    lead: frozenset[str]  # may stand before the answer ("the river Nile", "Mount Everest")
    link: frozenset[str]  # begin a phrase qualifying the answer after it ("eye of the storm")
    generic: frozenset[str]  # one generic noun that may follow the answer ("Nile river")
    negation: frozenset[str]  # a negation, alternative or hedge: not the answer ("Nile or Amazon")
    who: frozenset[str]  # a question starting with one of these asks for a person
    person: frozenset[str]  # kinds of person named among a question's first words


def _words(*groups: str) -> frozenset[str]:
    return frozenset(word for group in groups for word in group.split())


OTHER_WORDS = {
    "en": OtherWords(
        lead=_words(
            "the a an in on at of river mount mt lake planet",
            "city sea ocean island isle year number letter word country",
        ),
        link=_words("of in on at from near by"),
        generic=_words(
            "river mountain mountains mount lake sea ocean island islands",
            "desert volcano planet star language people tribe dynasty empire",
        ),
        negation=_words(
            "not no never nor or either neither isnt wasnt arent except",
            "but versus vs than maybe perhaps unless instead without",
        ),
        who=_words("who whose whom"),
        person=_words(
            "actor actress architect artist astronaut author chemist composer",
            "dictator director emperor empress explorer guitarist inventor king",
            "leader man mathematician musician novelist painter person pharaoh",
            "philosopher physicist playwright poet pope president prime queen",
            "scientist sculptor singer writer woman athlete player general",
        ),
    ),
    "de": OtherWords(
        lead=_words(
            "der die das den dem des ein eine einen einem im in am an auf fluss berg see",
            "stadt meer ozean insel planet jahr zahl buchstabe wort land staat",
        ),
        link=_words("des der von vom im in am an bei aus auf"),
        generic=_words(
            "fluss strom berg gebirge see meer ozean insel inseln",
            "wueste vulkan planet stern sprache volk stamm dynastie reich",
        ),
        negation=_words(
            "nicht kein keine keiner nie niemals oder weder noch entweder ausser",
            "aber sondern statt anstatt vielleicht eventuell ohne als gegen",
        ),
        who=_words("wer wessen wem wen"),
        person=_words(
            "schauspieler schauspielerin architekt kuenstler kuenstlerin astronaut autor autorin",
            "chemiker komponist komponistin diktator regisseur kaiser kaiserin entdecker erfinder",
            "koenig koenigin mann frau mathematiker musiker maler malerin person pharao",
            "philosoph physiker dichter dichterin papst praesident kanzler kanzlerin",
            "wissenschaftler bildhauer saenger saengerin schriftsteller schriftstellerin",
            "sportler sportlerin spieler spielerin general feldherr forscher forscherin",
        ),
    ),
}
_QUALIFIER_WORDS = 4  # at most this many words qualify the head


def head_match(given: list[str], target: list[str], others: Container[str] = frozenset(), language: str = "en") -> bool:
    """Whether the normal-form words ``given`` are the accepted answer ``target`` in other
    words: generic words before it, the accepted answer (near misses as for a whole
    answer), then nothing, a link-word phrase, a generic noun, or after a number a unit.

    >>> head_match("river nile".split(), ["nile"]), head_match("eye wall".split(), ["eye"])
    (True, False)
    >>> head_match("206 bones".split(), ["206"]), head_match("nile or amazon".split(), ["nile"])
    (True, False)
    """
    words = OTHER_WORDS.get(language, OTHER_WORDS["en"])
    n = len(target)
    joined = " ".join(target)
    for i in range(len(given) - n + 1):
        if i and given[i - 1] not in words.lead:
            return False  # only generic words may stand before the head
        rest = given[i + n :]
        if (i or rest) and _same(" ".join(given[i : i + n]), joined, others) and _qualifies(rest, target[-1], words):
            return True
    return False


def _qualifies(rest: list[str], last: str, words: OtherWords) -> bool:
    """Whether ``rest``, the words after a matched head ending in ``last``, only qualify it."""
    if not rest:
        return True
    if len(rest) > _QUALIFIER_WORDS or any(w in words.negation or any(c.isdigit() for c in w) for w in rest):
        return False
    if rest[0] in words.link:
        return len(rest) > 1
    if len(rest) == 1 and rest[0] in words.generic:
        return True
    # a number's unit: "206 bones", "12 months", "1969 ad"
    return last[:1].isdigit() and len(rest) <= 2


# A question asks for a person when it starts "Who/Whose/Whom" ("Wer/Wessen/Wem/Wen") or names
# a kind of person among its first words ("Which Dutch painter ...", "Welcher Komponist ...").
_NAME_PARTICLES = frozenset(
    {"da", "de", "del", "della", "der", "di", "du", "van", "von", "den", "la", "le", "al", "bin", "ibn", "st"}
)
_NAME_SUFFIXES = frozenset({"jr", "sr", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"})


def asks_for_person(question: str, language: str = "en") -> bool:
    """Whether ``question`` asks for a person (so a surname may stand for a full name).

    >>> asks_for_person("Who painted the Mona Lisa?"), asks_for_person("Which Dutch painter cut off his ear?")
    (True, True)
    >>> asks_for_person("Which country has the most people?")
    False
    >>> asks_for_person("Welchem Komponisten verdanken wir die Zauberflöte?", "de")
    True
    """
    lists = OTHER_WORDS.get(language, OTHER_WORDS["en"])
    words = _tokens(question, language) if language != "en" else re.findall(r"[a-z]+", question.casefold())
    if words[:1] and words[0] in lists.who:
        return True
    return any(_inflected(w) & lists.person for w in words[:4])


def _inflected(word: str) -> set[str]:
    """``word`` and its forms without a plural or case ending ("painters", "Komponisten")."""
    forms = {word, word.rstrip("s")}
    for ending in ("en", "n", "s"):
        if word.endswith(ending):
            forms.add(word[: -len(ending)])
    return forms


def surname_match(given: str, full_name: str, others: Container[str] = frozenset(), language: str = "en") -> bool:
    """Whether the normal form ``given`` is the surname of the accepted answer ``full_name``,
    a name of two to four words: its last word, alone or with the name particles before it
    ("gogh", "van gogh" for "Vincent van Gogh"), near misses as for a whole answer.

    >>> surname_match("velazquez", "Diego Velázquez"), surname_match("henry", "Henry VIII")
    (True, False)
    """
    words = normalise(full_name, language).split()
    if not 2 <= len(words) <= 4 or words[-1] in _NAME_SUFFIXES or not words[-1].isalpha():
        return False
    k = len(words) - 1
    forms = [words[k]]
    while k > 1 and words[k - 1] in _NAME_PARTICLES:
        k -= 1
        forms.append(" ".join(words[k:]))
    return any(_same(given, form, others) for form in forms)
