"""Question packs for Brainiac or IDIOT!: the built-in bank and host-uploaded packs.

A *card* is a list of exactly four questions, easy to hard; a *question* is
``{"q": text, "a": [accepted answers, canonical first]}``, with ``"d": [decoys]`` when the pack
gives plausible wrong answers (what the bots bluff with). Everything here returns cards in
that normalised shape, freshly built, so callers may keep or change them freely.

- :func:`load_builtin_cards` - the 180 built-in cards of a language
  (``content/<language>/questions.json``; :data:`LANGUAGES` lists the languages).
- :func:`validate_cards` - check and normalise cards given as Python data (the ``cards``
  room option, or a parsed pack).
- :func:`parse_pack` - parse an uploaded JSON or CSV file (see
  ``docs/rules/brainiac-question-packs.md``); :func:`pack_language` - the language a file
  declares, if any.

Every problem raises :class:`PackError` with a message a host can act on, naming the card and
question (or the file line) at fault.

    >>> cards = parse_pack(b'[[{"q": "2+2?", "a": "4"}, {"q": "3+3?", "a": ["6"]},'
    ...                    b' {"q": "4+4?", "a": "8"}, {"q": "5+5?", "a": "10"}]]', "maths.json")
    >>> cards[0][0]
    {'q': '2+2?', 'a': ['4']}
"""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from ..base import content_languages
from .judge import LANGUAGES as JUDGE_LANGUAGES

__all__ = [
    "LANGUAGES",
    "MAX_ANSWERS",
    "MAX_ANSWER_LEN",
    "MAX_CARDS",
    "MAX_DECOYS",
    "MAX_PACK_BYTES",
    "MAX_QUESTION_LEN",
    "QUESTIONS_PER_CARD",
    "PackError",
    "bank_file",
    "load_builtin_cards",
    "pack_language",
    "parse_pack",
    "read_pack",
    "validate_cards",
    "validate_pack",
]

QUESTIONS_PER_CARD = 4
MAX_CARDS = 2000
MAX_QUESTION_LEN = 300
MAX_ANSWER_LEN = 100
MAX_ANSWERS = 20
MAX_DECOYS = 10
MAX_PACK_BYTES = 1024 * 1024

Card = list[dict[str, Any]]

# the languages of the built-in banks: the folders of content/, English first
LANGUAGES = content_languages(__name__.rpartition(".")[0])


class PackError(ValueError):
    """A question pack (file or ``cards`` option) that cannot be used; the message says why."""


# --------------------------------------------------------------------------- validation


def _question_key(text: str) -> str:
    """Duplicate-detection key: case and runs of whitespace do not make a question new."""
    return " ".join(text.split()).casefold()


def _clean_text(value: object, where: str, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise PackError(f"{where}: {what} must be text, not {_type_name(value)}.")
    text = " ".join(value.split())  # no stray newlines or double spaces in the UI
    if not text:
        raise PackError(f"{where}: {what} is empty.")
    if len(text) > limit:
        raise PackError(f"{where}: {what} is {len(text)} characters long; the limit is {limit}.")
    return text


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _validate_question(raw: object, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise PackError(f'{where}: must be an object with "q" and "a", not {_type_name(raw)}.')
    if "q" not in raw:
        raise PackError(f'{where}: the question text "q" is missing.')
    if "a" not in raw:
        raise PackError(f'{where}: the accepted answers "a" are missing.')
    q = _clean_text(raw["q"], where, "the question text", MAX_QUESTION_LEN)
    answers_raw = raw["a"]
    if isinstance(answers_raw, str):
        answers_raw = [answers_raw]
    if not isinstance(answers_raw, list):
        raise PackError(f'{where}: "a" must be an answer or a list of answers, not {_type_name(answers_raw)}.')
    if not answers_raw:
        raise PackError(f"{where}: has no accepted answers.")
    if len(answers_raw) > MAX_ANSWERS:
        raise PackError(f"{where}: has {len(answers_raw)} accepted answers; the limit is {MAX_ANSWERS}.")
    answers: list[str] = []
    for k, a in enumerate(answers_raw, 1):
        text = _clean_text(a, where, f"answer {k}", MAX_ANSWER_LEN)
        if text not in answers:  # repeats add nothing; keep the first (canonical) order
            answers.append(text)
    question: dict[str, Any] = {"q": q, "a": answers}
    if "d" in raw:
        decoys = _validate_decoys(raw["d"], where, answers)
        if decoys:
            question["d"] = decoys
    return question


def _validate_decoys(raw: object, where: str, answers: list[str]) -> list[str]:
    """The optional ``"d"``: plausible wrong answers, a list of at most ``MAX_DECOYS`` texts of
    at most ``MAX_ANSWER_LEN`` characters. Repeats and decoys that are an accepted answer
    (ignoring case) are dropped."""
    if not isinstance(raw, list):
        kind = "one text" if isinstance(raw, str) else _type_name(raw)
        raise PackError(f'{where}: the decoys "d" must be a list of wrong answers, not {kind}.')
    if len(raw) > MAX_DECOYS:
        raise PackError(f"{where}: has {len(raw)} decoys; the limit is {MAX_DECOYS}.")
    right = {a.casefold() for a in answers}
    decoys: list[str] = []
    for k, d in enumerate(raw, 1):
        text = _clean_text(d, where, f"decoy {k}", MAX_ANSWER_LEN)
        if text.casefold() not in right and text not in decoys:
            decoys.append(text)
    return decoys


def validate_cards(cards: object) -> list[Card]:
    """Check ``cards`` and return them normalised (new lists and dicts).

    Accepts a list of cards; a card is a list of four questions or an object whose
    ``"questions"`` holds them (the built-in file's shape, other keys ignored). A question's
    ``"a"`` may be one string or a list of strings. Texts are trimmed and inner whitespace
    collapsed; repeated answers within a question are dropped.

    >>> validate_cards([[{"q": f"Q{i}?", "a": " yes "} for i in range(4)]])[0][3]
    {'q': 'Q3?', 'a': ['yes']}
    >>> try:
    ...     validate_cards([[{"q": "Q?", "a": "x"}]])
    ... except PackError as e:
    ...     print(e)
    Card 1 has 1 question; every card needs exactly 4.
    """
    return _validate_cards(cards, None)


def _validate_cards(cards: object, lines: list[list[int]] | None) -> list[Card]:
    """:func:`validate_cards`; ``lines[i][j]``, when given, is the file line of card i's question j."""
    if not isinstance(cards, list):
        raise PackError(f"The cards must be a list of cards, not {_type_name(cards)}.")
    if not cards:
        raise PackError("The pack has no cards.")
    if len(cards) > MAX_CARDS:
        raise PackError(f"The pack has {len(cards)} cards; the limit is {MAX_CARDS}.")
    seen: dict[str, str] = {}
    out: list[Card] = []
    for i, raw_card in enumerate(cards, 1):
        questions = raw_card.get("questions") if isinstance(raw_card, dict) else raw_card
        if not isinstance(questions, list):
            raise PackError(f"Card {i} must be a list of {QUESTIONS_PER_CARD} questions, not {_type_name(questions)}.")
        if len(questions) != QUESTIONS_PER_CARD:
            n = len(questions)
            raise PackError(
                f"Card {i} has {n} question{'' if n == 1 else 's'}; every card needs exactly {QUESTIONS_PER_CARD}."
            )
        card: Card = []
        for j, raw_q in enumerate(questions, 1):
            where = f"Card {i}, question {j}"
            if lines is not None:
                where += f" (line {lines[i - 1][j - 1]})"
            question = _validate_question(raw_q, where)
            key = _question_key(question["q"])
            if key in seen:
                raise PackError(f"{where}: the same question text as {seen[key]}: {question['q']!r}.")
            seen[key] = where.lower()
            card.append(question)
        out.append(card)
    return out


# --------------------------------------------------------------------------- built-in bank


def bank_file(language: str) -> Traversable:
    """The built-in bank of ``language`` (one of :data:`LANGUAGES`)."""
    if language not in LANGUAGES:
        raise ValueError(f"no built-in bank in {language!r}")
    return resources.files(__name__.rpartition(".")[0]).joinpath("content", language, "questions.json")


@cache
def _builtin(language: str) -> tuple[tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...], ...]:
    """The built-in bank of ``language``, parsed and validated once, frozen so the cache cannot
    be altered: (question, accepted answers, decoys) by card."""
    cards = parse_pack(bank_file(language).read_bytes(), f"content/{language}/questions.json")
    return tuple(tuple((q["q"], tuple(q["a"]), tuple(q.get("d", ()))) for q in card) for card in cards)


def load_builtin_cards(language: str = "en") -> list[Card]:
    """The built-in cards of ``language`` in file order, each a list of 4
    ``{"q": str, "a": [str, ...]}`` (with ``"d": [str, ...]`` where the bank gives decoys).

    Parsed once and cached; every call returns fresh lists, so callers may change them.
    """
    return [
        [{"q": q, "a": list(a), **({"d": list(d)} if d else {})} for q, a, d in card] for card in _builtin(language)
    ]


# --------------------------------------------------------------------------- uploaded packs


def parse_pack(data: bytes, filename: str) -> list[Card]:
    """Parse an uploaded pack: JSON or CSV, UTF-8 with or without a byte-order mark.

    The format follows the file extension (``.json`` / ``.csv``); for any other name it is
    guessed from the first character (``[`` or ``{`` means JSON). Returns validated cards.
    """
    return read_pack(data, filename)[0]


def read_pack(data: bytes, filename: str) -> tuple[list[Card], str | None]:
    """:func:`parse_pack`, with the language the pack declares (a JSON object's ``"language"``,
    a CSV ``language`` column), or None: the judge then reads its answers in the room's language.

    >>> read_pack(b'{"language": "de", "cards": [[{"q": "2+2?", "a": "vier"}, {"q": "3+3?", "a": "sechs"},'
    ...           b' {"q": "4+4?", "a": "acht"}, {"q": "5+5?", "a": "zehn"}]]}', "mathe.json")[1]
    'de'
    """
    if not isinstance(data, (bytes, bytearray)):
        raise PackError("The pack must be uploaded as a file.")
    name = filename or "pack"
    if len(data) > MAX_PACK_BYTES:
        raise PackError(f"{name} is {len(data)} bytes; the limit is {MAX_PACK_BYTES} bytes (1 MiB).")
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise PackError(f"{name} is not UTF-8 text (bad byte at offset {e.start}); save it as UTF-8.") from None
    if not text.strip():
        raise PackError(f"{name} is empty.")
    lower = name.lower()
    if lower.endswith(".json"):
        is_json = True
    elif lower.endswith(".csv"):
        is_json = False
    else:
        is_json = text.lstrip()[:1] in ("[", "{")
    return _parse_json(text, name) if is_json else _parse_csv(text, name)


def pack_language(value: object, where: str) -> str:
    """Check a language a pack declares: one the judge reads (:data:`judge.LANGUAGES`)."""
    if value not in JUDGE_LANGUAGES:
        raise PackError(
            f"{where}: the language {value!r} is not one the judge reads; use one of {', '.join(JUDGE_LANGUAGES)}."
        )
    return str(value)


def _parse_json(text: str, name: str) -> tuple[list[Card], str | None]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise PackError(f"{name}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}.") from None
    except RecursionError:
        raise PackError(f"{name}: the JSON is nested too deeply.") from None
    return validate_pack(doc, name)


def validate_pack(doc: object, name: str) -> tuple[list[Card], str | None]:
    """A pack as JSON data: a list of cards, or an object with ``"cards"`` and optionally
    ``"version"`` (1) and ``"language"``; its cards normalised and its declared language."""
    language = None
    if isinstance(doc, dict):
        if "version" in doc and doc["version"] != 1:
            raise PackError(f"{name}: unsupported pack version {doc['version']!r}; only version 1 is known.")
        if "cards" not in doc:
            raise PackError(f'{name}: a JSON object pack needs a "cards" list.')
        if "language" in doc:
            language = pack_language(doc["language"], name)
        doc = doc["cards"]
    elif not isinstance(doc, list):
        raise PackError(f'{name}: the JSON must be a list of cards or an object with "cards".')
    return validate_cards(doc), language


_CSV_COLUMNS = ("card", "level", "question", "answers", "decoys", "language")


def _parse_csv(text: str, name: str) -> tuple[list[Card], str | None]:
    """CSV: header row naming ``question`` and ``answers`` (``|`` between answers), and
    optionally ``card`` (rows sharing a value form one card), ``level`` (1-4, easy to hard),
    ``decoys`` (wrong answers for the bots, ``|`` between them) and ``language`` (the pack's
    language, the same on every row that fills it).
    Without ``card``, every 4 consecutive rows form a card. Other columns are ignored.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue  # blank lines carry nothing
            if header is None:
                header = [cell.strip().casefold() for cell in row]
                continue
            rows.append((reader.line_num, row))
    except csv.Error as e:
        raise PackError(f"{name}: line {reader.line_num}: bad CSV ({e}).") from None
    if header is None:
        raise PackError(f"{name} is empty.")
    for col in ("question", "answers"):
        if col not in header:
            raise PackError(
                f'{name}: the header row must name the columns "question" and "answers" '
                f'(optionally "card" and "level"); "{col}" is missing. Found: {", ".join(header)}.'
            )
    for col in _CSV_COLUMNS:
        if header.count(col) > 1:
            raise PackError(f'{name}: the header names the column "{col}" twice.')
    col_index = {col: header.index(col) for col in _CSV_COLUMNS if col in header}
    if not rows:
        raise PackError(f"{name} has a header but no questions.")

    # One record per row: (line, card label, level or None, question, answers, decoys)
    records: list[tuple[int, str | None, int | None, str, list[str], list[str]]] = []
    languages: list[str] = []  # the one language the rows declare, if any
    for line, row in rows:
        if len(row) != len(header):
            raise PackError(
                f"{name}: line {line} has {len(row)} fields but the header has {len(header)} "
                "(put quotes around any text that contains a comma)."
            )
        label = row[col_index["card"]].strip() if "card" in col_index else None
        if label == "":
            raise PackError(f"{name}: line {line}: the card column is empty.")
        level: int | None = None
        if "level" in col_index:
            raw_level = row[col_index["level"]].strip()
            if raw_level not in ("1", "2", "3", "4"):
                raise PackError(f"{name}: line {line}: level must be 1, 2, 3 or 4 (easy to hard), not {raw_level!r}.")
            level = int(raw_level)
        answers = [a.strip() for a in row[col_index["answers"]].split("|") if a.strip()]
        decoys = [d.strip() for d in row[col_index["decoys"]].split("|") if d.strip()] if "decoys" in col_index else []
        records.append((line, label, level, row[col_index["question"]], answers, decoys))
        if "language" in col_index and row[col_index["language"]].strip():
            declared = pack_language(row[col_index["language"]].strip(), f"{name}: line {line}")
            if languages and declared not in languages:
                raise PackError(f"{name}: line {line}: the language {declared!r} differs from {languages[0]!r} above.")
            if not languages:
                languages.append(declared)

    groups: list[list[tuple[int, str | None, int | None, str, list[str], list[str]]]] = []
    if "card" in col_index:
        by_label: dict[str | None, list[tuple[int, str | None, int | None, str, list[str], list[str]]]] = {}
        for rec in records:
            if rec[1] not in by_label:
                by_label[rec[1]] = []
                groups.append(by_label[rec[1]])
            by_label[rec[1]].append(rec)
        for group in groups:
            if len(group) != QUESTIONS_PER_CARD:
                n = len(group)
                raise PackError(
                    f"{name}: card {group[0][1]!r} (first at line {group[0][0]}) has {n} row{'' if n == 1 else 's'}; "
                    f"every card needs exactly {QUESTIONS_PER_CARD}."
                )
    else:
        if len(records) % QUESTIONS_PER_CARD:
            raise PackError(
                f"{name}: the pack has {len(records)} question row{'' if len(records) == 1 else 's'}, which is not a "
                f"multiple of {QUESTIONS_PER_CARD}; without a "
                f'"card" column every {QUESTIONS_PER_CARD} consecutive rows form one card.'
            )
        groups = [records[k : k + QUESTIONS_PER_CARD] for k in range(0, len(records), QUESTIONS_PER_CARD)]

    cards: list[list[dict[str, Any]]] = []
    lines: list[list[int]] = []
    for group in groups:
        if "level" in col_index:
            levels = sorted(rec[2] for rec in group if rec[2] is not None)
            if levels != [1, 2, 3, 4]:
                label = f"card {group[0][1]!r}" if group[0][1] is not None else "the card"
                raise PackError(
                    f"{name}: {label} starting at line {group[0][0]} must have levels 1, 2, 3 and 4 once each; "
                    f"found {', '.join(str(n) for n in (rec[2] for rec in group))}."
                )
            group = sorted(group, key=lambda rec: rec[2] or 0)
        cards.append([{"q": rec[3], "a": rec[4], **({"d": rec[5]} if rec[5] else {})} for rec in group])
        lines.append([rec[0] for rec in group])
    try:
        return _validate_cards(cards, lines), (languages[0] if languages else None)
    except PackError as e:
        raise PackError(f"{name}: {e}") from None
