"""The built-in Brainiac question bank and the host pack formats (JSON and CSV)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geniusnight.engines.brainiac.judge import judge
from geniusnight.engines.brainiac.packs import (
    MAX_ANSWER_LEN,
    MAX_CARDS,
    MAX_DECOYS,
    MAX_PACK_BYTES,
    MAX_QUESTION_LEN,
    PackError,
    load_builtin_cards,
    parse_pack,
    read_pack,
    validate_cards,
)

IMPERATIVES = ("Name ", "Give ", "Spell ", "Complete ", "Unscramble ", "Translate ")


def card(prefix: str = "Q") -> list[dict[str, object]]:
    """A valid card of four distinct questions."""
    return [{"q": f"{prefix} question {k}?", "a": [f"answer {k}", f"alt {k}"]} for k in range(1, 5)]


def pack(n: int = 2) -> list[list[dict[str, object]]]:
    return [card(f"C{i}") for i in range(1, n + 1)]


def to_csv(cards: list[list[dict[str, object]]], *, with_card: bool = True, with_level: bool = True) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(
        [c for c, keep in (("card", with_card), ("level", with_level)) if keep] + ["question", "answers", "decoys"]
    )
    for i, c in enumerate(cards, 1):
        for lvl, q in enumerate(c, 1):
            answers = q["a"] if isinstance(q["a"], list) else [q["a"]]
            decoys = q.get("d", [])
            assert isinstance(decoys, list)
            w.writerow(
                ([str(i)] if with_card else [])
                + ([str(lvl)] if with_level else [])
                + [q["q"], "|".join(str(a) for a in answers), "|".join(str(d) for d in decoys)]
            )
    return buf.getvalue().encode()


def raises(match: str):
    return pytest.raises(PackError, match=match)


# --------------------------------------------------------------------------- built-in bank


def test_builtin_bank_has_180_cards_of_4_questions() -> None:
    cards = load_builtin_cards()
    assert len(cards) == 180
    assert all(len(c) == 4 for c in cards)


def test_builtin_bank_has_no_duplicate_questions() -> None:
    texts = [" ".join(q["q"].split()).casefold() for c in load_builtin_cards() for q in c]
    assert len(texts) == 720
    assert len(set(texts)) == 720


def test_builtin_questions_are_questions_or_imperatives() -> None:
    for c in load_builtin_cards():
        for q in c:
            assert q["q"].endswith("?") or q["q"].startswith(IMPERATIVES), q["q"]
            assert 0 < len(q["q"]) <= MAX_QUESTION_LEN


def test_builtin_answers_are_non_empty_short_and_distinct() -> None:
    for c in load_builtin_cards():
        for q in c:
            assert q["a"], q["q"]
            assert len(set(q["a"])) == len(q["a"]), q
            for a in q["a"]:
                assert isinstance(a, str)
                assert a.strip() == a and 0 < len(a) <= MAX_ANSWER_LEN, q


def test_builtin_file_matches_its_documented_format() -> None:
    from importlib import resources

    raw = resources.files("geniusnight.engines.brainiac").joinpath("content", "en", "questions.json").read_bytes()
    doc = json.loads(raw)
    assert doc["version"] == 1
    assert [c["id"] for c in doc["cards"]] == list(range(1, 181))
    assert all(isinstance(c["category"], str) and c["category"] for c in doc["cards"])
    # many categories, none dominating the bank
    categories = {c["category"] for c in doc["cards"]}
    assert len(categories) >= 15
    assert max(sum(c["category"] == cat for c in doc["cards"]) for cat in categories) <= 20
    # the loader keeps the file's order
    assert [q["q"] for q in doc["cards"][0]["questions"]] == [q["q"] for q in load_builtin_cards()[0]]


def test_builtin_cards_are_fresh_copies() -> None:
    first = load_builtin_cards()
    first[0][0]["a"].append("tampered")
    first[0].clear()
    again = load_builtin_cards()
    assert len(again[0]) == 4
    assert "tampered" not in again[0][0]["a"]


def test_builtin_bank_is_valid_by_its_own_rules() -> None:
    cards = load_builtin_cards()
    assert validate_cards(cards) == cards


def test_builtin_numeric_answers_are_written_as_digits() -> None:
    # the engine normalises number words, so the canonical form of a number is its digits
    words = re.compile(r"^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$", re.I)
    for c in load_builtin_cards():
        for q in c:
            assert not words.match(q["a"][0]), q


# --------------------------------------------------------------------------- round trips


def test_json_pack_round_trips_in_the_builtin_format() -> None:
    cards = pack(3)
    doc = {"version": 1, "cards": [{"id": i, "category": "Test", "questions": c} for i, c in enumerate(cards, 1)]}
    assert parse_pack(json.dumps(doc).encode(), "mine.json") == cards


def test_json_pack_round_trips_as_a_bare_list() -> None:
    cards = pack(3)
    assert parse_pack(json.dumps(cards).encode(), "mine.json") == cards


def test_json_pack_accepts_a_single_answer_string() -> None:
    c = [{"q": f"Q{k}?", "a": f"A{k}"} for k in range(4)]
    assert parse_pack(json.dumps([c]).encode(), "p.json")[0][2] == {"q": "Q2?", "a": ["A2"]}


def test_builtin_bank_round_trips_through_json_and_csv() -> None:
    cards = load_builtin_cards()
    assert parse_pack(json.dumps({"cards": cards}, ensure_ascii=False).encode(), "bank.json") == cards
    assert parse_pack(to_csv(cards), "bank.csv") == cards


def test_csv_pack_round_trips_with_card_and_level_columns() -> None:
    cards = pack(3)
    assert parse_pack(to_csv(cards), "mine.csv") == cards


def test_csv_pack_without_card_column_groups_every_four_rows() -> None:
    cards = pack(3)
    assert parse_pack(to_csv(cards, with_card=False, with_level=False), "mine.csv") == cards
    assert parse_pack(to_csv(cards, with_card=False), "mine.csv") == cards


def test_csv_pack_orders_questions_by_level() -> None:
    data = b"card,level,question,answers\na,3,Third?,c\na,1,First?,a\na,4,Fourth?,d\na,2,Second?,b|bee\n"
    assert parse_pack(data, "x.csv") == [
        [
            {"q": "First?", "a": ["a"]},
            {"q": "Second?", "a": ["b", "bee"]},
            {"q": "Third?", "a": ["c"]},
            {"q": "Fourth?", "a": ["d"]},
        ]
    ]


def test_csv_pack_groups_rows_by_card_label_in_first_appearance_order() -> None:
    rows = ["card,question,answers"]
    for k in range(4):
        rows += [f"B,B{k}?,b{k}", f"A,A{k}?,a{k}"]
    cards = parse_pack("\n".join(rows).encode(), "x.csv")
    assert [c[0]["q"] for c in cards] == ["B0?", "A0?"]
    assert [q["q"] for q in cards[1]] == ["A0?", "A1?", "A2?", "A3?"]


def test_csv_header_is_case_insensitive_extra_columns_and_blank_lines_ignored() -> None:
    data = b"Category,QUESTION, Answers \n\nx,One?,1\nx,Two?,2\n\nx,Three?,3\nx,Four?,4\n"
    assert [q["a"] for q in parse_pack(data, "x.csv")[0]] == [["1"], ["2"], ["3"], ["4"]]


def test_csv_answers_are_split_on_bars_and_trimmed() -> None:
    data = b"question,answers\nQ1?, Leonardo da Vinci | da Vinci |Leonardo| \nQ2?,b\nQ3?,c\nQ4?,d\n"
    assert parse_pack(data, "x.csv")[0][0]["a"] == ["Leonardo da Vinci", "da Vinci", "Leonardo"]


def test_csv_quoted_fields_may_contain_commas_and_quotes() -> None:
    data = b'question,answers\n"Who wrote ""Emma"", 1815?","Jane Austen|Austen"\nQ2?,b\nQ3?,c\nQ4?,d\n'
    assert parse_pack(data, "x.csv")[0][0] == {"q": 'Who wrote "Emma", 1815?', "a": ["Jane Austen", "Austen"]}


def test_utf8_byte_order_mark_is_accepted() -> None:
    cards = pack(1)
    assert parse_pack(b"\xef\xbb\xbf" + json.dumps(cards).encode(), "p.json") == cards
    assert parse_pack(b"\xef\xbb\xbf" + to_csv(cards), "p.csv") == cards


def test_non_ascii_text_survives() -> None:
    c = [{"q": f"Qui a peint « Guernica » {k} ?", "a": ["Pablo Picasso", "Picassó"]} for k in range(4)]
    assert parse_pack(json.dumps([c], ensure_ascii=False).encode("utf-8"), "fr.json") == [c]


def test_format_is_guessed_from_content_for_other_extensions() -> None:
    cards = pack(1)
    assert parse_pack(json.dumps(cards).encode(), "upload") == cards
    assert parse_pack(to_csv(cards), "upload.txt") == cards


def test_whitespace_is_trimmed_and_repeated_answers_dropped() -> None:
    c = card()
    c[0] = {"q": "  Spaced \n out?  ", "a": [" x ", "x", "y"]}
    assert validate_cards([c])[0][0] == {"q": "Spaced out?", "a": ["x", "y"]}


def test_validate_accepts_objects_with_questions_and_returns_new_objects() -> None:
    cards = pack(1)
    out = validate_cards([{"questions": cards[0], "category": "ignored"}])
    assert out == cards
    out[0][0]["a"].append("z")
    assert "z" not in cards[0][0]["a"]


def test_upper_limits_are_allowed() -> None:
    c = card()
    c[0] = {"q": "q" * (MAX_QUESTION_LEN - 1) + "?", "a": ["a" * MAX_ANSWER_LEN]}
    assert validate_cards([c])[0][0]["a"] == ["a" * MAX_ANSWER_LEN]
    many = [card(f"C{i}") for i in range(MAX_CARDS)]
    assert len(validate_cards(many)) == MAX_CARDS


# --------------------------------------------------------------------------- validation errors


def test_error_cards_not_a_list() -> None:
    with raises(r"^The cards must be a list of cards, not an object\.$"):
        validate_cards({"q": "x"})


def test_error_no_cards() -> None:
    with raises(r"^The pack has no cards\.$"):
        validate_cards([])


def test_error_too_many_cards() -> None:
    with raises(rf"^The pack has {MAX_CARDS + 1} cards; the limit is {MAX_CARDS}\.$"):
        validate_cards([card(f"C{i}") for i in range(MAX_CARDS + 1)])


def test_error_card_not_a_list() -> None:
    with raises(r"^Card 2 must be a list of 4 questions, not a number\.$"):
        validate_cards([card(), 7])


def test_error_card_without_exactly_four_questions() -> None:
    with raises(r"^Card 1 has 3 questions; every card needs exactly 4\.$"):
        validate_cards([card()[:3]])
    with raises(r"^Card 2 has 5 questions; every card needs exactly 4\.$"):
        validate_cards([card("A"), [*card("B"), {"q": "Extra?", "a": "x"}]])


def test_error_question_not_an_object() -> None:
    c = card()
    c[1] = "What?"
    with raises(r'^Card 1, question 2: must be an object with "q" and "a", not str\.$'):
        validate_cards([c])


def test_error_missing_question_text() -> None:
    c = card()
    c[2] = {"a": ["x"]}
    with raises(r'^Card 1, question 3: the question text "q" is missing\.$'):
        validate_cards([c])


def test_error_missing_answers() -> None:
    c = card()
    c[3] = {"q": "Why?"}
    with raises(r'^Card 1, question 4: the accepted answers "a" are missing\.$'):
        validate_cards([c])


def test_error_empty_question_text() -> None:
    c = card()
    c[0] = {"q": "   ", "a": ["x"]}
    with raises(r"^Card 1, question 1: the question text is empty\.$"):
        validate_cards([c])


def test_error_question_text_not_a_string() -> None:
    c = card()
    c[0] = {"q": 42, "a": ["x"]}
    with raises(r"^Card 1, question 1: the question text must be text, not a number\.$"):
        validate_cards([c])


def test_error_no_accepted_answers() -> None:
    c = card()
    c[1] = {"q": "Who?", "a": []}
    with raises(r"^Card 1, question 2: has no accepted answers\.$"):
        validate_cards([c])


def test_error_empty_answer() -> None:
    c = card()
    c[1] = {"q": "Who?", "a": ["ok", " "]}
    with raises(r"^Card 1, question 2: answer 2 is empty\.$"):
        validate_cards([c])


def test_error_non_string_answers() -> None:
    c = card()
    c[1] = {"q": "How many?", "a": ["12", 12]}
    with raises(r"^Card 1, question 2: answer 2 must be text, not a number\.$"):
        validate_cards([c])
    c[1] = {"q": "How many?", "a": {"x": 1}}
    with raises(r'^Card 1, question 2: "a" must be an answer or a list of answers, not an object\.$'):
        validate_cards([c])
    c[1] = {"q": "How many?", "a": None}
    with raises(r"not null\.$"):
        validate_cards([c])


def test_error_too_many_answers() -> None:
    c = card()
    c[0] = {"q": "Which?", "a": [str(k) for k in range(21)]}
    with raises(r"^Card 1, question 1: has 21 accepted answers; the limit is 20\.$"):
        validate_cards([c])


def test_error_overlong_question() -> None:
    c = card()
    c[0] = {"q": "x" * (MAX_QUESTION_LEN + 1), "a": ["y"]}
    with raises(rf"^Card 1, question 1: the question text is {MAX_QUESTION_LEN + 1} characters long; the limit is "):
        validate_cards([c])


def test_error_overlong_answer() -> None:
    c = card()
    c[3] = {"q": "Long?", "a": ["ok", "y" * (MAX_ANSWER_LEN + 1)]}
    with raises(rf"^Card 1, question 4: answer 2 is {MAX_ANSWER_LEN + 1} characters long; the limit is 100\.$"):
        validate_cards([c])


def test_error_duplicate_question_texts() -> None:
    cards = pack(2)
    cards[1][2] = {"q": "c1  QUESTION 3?", "a": ["x"]}
    with raises(r"^Card 2, question 3: the same question text as card 1, question 3: 'c1 QUESTION 3\?'\.$"):
        validate_cards(cards)


# --------------------------------------------------------------------------- file errors


def test_error_file_too_large() -> None:
    data = b" " * (MAX_PACK_BYTES + 1)
    with raises(r"^big\.json is 1048577 bytes; the limit is 1048576 bytes \(1 MiB\)\.$"):
        parse_pack(data, "big.json")


def test_error_not_utf8() -> None:
    with raises(r"^p\.csv is not UTF-8 text \(bad byte at offset 9\); save it as UTF-8\.$"):
        parse_pack("question,\u00e9".encode("latin-1") + b"\n", "p.csv")


def test_error_empty_file() -> None:
    with raises(r"^p\.json is empty\.$"):
        parse_pack(b"  \n", "p.json")


def test_error_bad_json_names_line_and_column() -> None:
    with raises(r"^p\.json: invalid JSON at line 2, column 9: Expecting value\.$"):
        parse_pack(b'[\n  {"q": }]', "p.json")


def test_error_json_wrong_top_level() -> None:
    with raises(r'^p\.json: the JSON must be a list of cards or an object with "cards"\.$'):
        parse_pack(b'"hello"', "p.json")
    with raises(r'^p\.json: a JSON object pack needs a "cards" list\.$'):
        parse_pack(b'{"questions": []}', "p.json")


def test_error_json_unknown_version() -> None:
    with raises(r"^p\.json: unsupported pack version 2; only version 1 is known\.$"):
        parse_pack(json.dumps({"version": 2, "cards": pack(1)}).encode(), "p.json")


def test_error_json_content_names_card_and_question() -> None:
    cards = pack(2)
    cards[1][0]["a"] = []
    with raises(r"^Card 2, question 1: has no accepted answers\.$"):
        parse_pack(json.dumps(cards).encode(), "p.json")


def test_error_csv_missing_columns() -> None:
    with raises(r'^p\.csv: the header row must name .* "answers" is missing\. Found: card, level, question\.$'):
        parse_pack(b"card,level,question\n1,1,Q?\n", "p.csv")


def test_error_csv_duplicate_column() -> None:
    with raises(r'^p\.csv: the header names the column "question" twice\.$'):
        parse_pack(b"question,question,answers\n", "p.csv")


def test_error_csv_header_only() -> None:
    with raises(r"^p\.csv has a header but no questions\.$"):
        parse_pack(b"question,answers\n\n", "p.csv")


def test_error_csv_wrong_field_count() -> None:
    with raises(r"^p\.csv: line 3 has 3 fields but the header has 2 \(put quotes around"):
        parse_pack(b"question,answers\nQ1?,a\nWho wrote Emma, 1815?,Austen\n", "p.csv")


def test_error_csv_bad_level() -> None:
    with raises(r"^p\.csv: line 2: level must be 1, 2, 3 or 4 \(easy to hard\), not '5'\.$"):
        parse_pack(b"level,question,answers\n5,Q?,a\n", "p.csv")
    with raises(r"not 'easy'\.$"):
        parse_pack(b"level,question,answers\neasy,Q?,a\n", "p.csv")


def test_error_csv_levels_not_one_to_four() -> None:
    data = b"card,level,question,answers\n1,1,A?,a\n1,2,B?,b\n1,2,C?,c\n1,4,D?,d\n"
    with raises(r"^p\.csv: card '1' starting at line 2 must have levels 1, 2, 3 and 4 once each; found 1, 2, 2, 4\.$"):
        parse_pack(data, "p.csv")


def test_error_csv_card_with_wrong_row_count() -> None:
    data = b"card,question,answers\nx,A?,a\nx,B?,b\nx,C?,c\ny,D?,d\ny,E?,e\ny,F?,f\ny,G?,g\n"
    with raises(r"^p\.csv: card 'x' \(first at line 2\) has 3 rows; every card needs exactly 4\.$"):
        parse_pack(data, "p.csv")


def test_error_csv_rows_not_a_multiple_of_four_without_card_column() -> None:
    data = b"question,answers\nA?,a\nB?,b\nC?,c\nD?,d\nE?,e\n"
    with raises(
        r"^p\.csv: the pack has 5 question rows, which is not a multiple of 4; without a \"card\" column every 4 "
    ):
        parse_pack(data, "p.csv")


def test_error_csv_empty_card_label() -> None:
    with raises(r"^p\.csv: line 2: the card column is empty\.$"):
        parse_pack(b"card,question,answers\n ,A?,a\n", "p.csv")


def test_error_csv_content_names_card_question_and_line() -> None:
    data = b"question,answers\nA?,a\nB?,b\nC?,c\nD?,d\n\nE?,e\nF?, | \nG?,g\nH?,h\n"
    with raises(r"^p\.csv: Card 2, question 2 \(line 8\): has no accepted answers\.$"):
        parse_pack(data, "p.csv")


def test_error_csv_duplicate_questions_name_lines() -> None:
    data = b"question,answers\nA?,a\nB?,b\nC?,c\nD?,d\nE?,e\nF?,f\na?,g\nH?,h\n"
    with raises(r"^p\.csv: Card 2, question 3 \(line 8\): the same question text as card 1, question 1 \(line 2\)"):
        parse_pack(data, "p.csv")


def test_error_not_bytes() -> None:
    with raises(r"^The pack must be uploaded as a file\.$"):
        parse_pack("[]", "p.json")  # type: ignore[arg-type]


def test_examples_in_the_host_documentation_parse() -> None:
    from pathlib import Path

    doc = Path(__file__).resolve().parents[3] / "docs" / "rules" / "brainiac-question-packs.md"
    text = doc.read_text(encoding="utf-8")
    blocks = re.findall(r"```(json|csv)\n(.*?)```", text, flags=re.S)
    assert [kind for kind, _ in blocks] == ["json", "json", "json", "csv"]
    parsed = [parse_pack(body.encode(), f"example.{kind}") for kind, body in blocks]
    # the third declares its language, German; the others none
    assert [read_pack(body.encode(), f"example.{kind}")[1] for kind, body in blocks] == [None, None, "de", None]
    assert judge("acht", parsed[2][0][0]["a"], language="de")  # "8", read in German
    # the bank's first card (its decoys in the example are illustrations)
    assert [[{"q": q["q"], "a": q["a"]} for q in card] for card in parsed[0]] == [
        [{"q": q["q"], "a": q["a"]} for q in load_builtin_cards()[0]]
    ]
    assert all(q["d"] for q in parsed[0][0])
    assert [len(cards) for cards in parsed] == [1, 1, 1, 2]
    assert parsed[3][0] == parsed[0][0]
    assert parsed[3][1][3] == {
        "q": 'Who painted "The Persistence of Memory", with its melting clocks?',
        "a": ["Salvador Dalí", "Dalí"],
        "d": ["René Magritte"],
    }
    assert "d" not in parsed[3][1][1]  # an empty decoys field gives none


# --------------------------------------------------------------------------- robustness

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["q", "a", "questions", "x"]), inner),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_validate_cards_rejects_any_junk_with_pack_error_only(value: object) -> None:
    try:
        out = validate_cards(value)
    except PackError as e:
        assert str(e)
    else:
        assert all(len(c) == 4 and all(q["a"] for q in c) for c in out)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["p.json", "p.csv", "p", "p.txt"]))
def test_parse_pack_rejects_any_junk_bytes_with_pack_error_only(data: bytes, filename: str) -> None:
    try:
        parse_pack(data, filename)
    except PackError as e:
        assert str(e)


CSV_CELL = st.text(alphabet=st.sampled_from('ab|,"\n\r 1234?'), max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(["card", "level", "question", "answers"]),
    st.lists(st.lists(CSV_CELL, min_size=3, max_size=5), max_size=12),
)
def test_parse_pack_rejects_any_junk_csv_with_pack_error_only(header: list[str], rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf).writerows([header, *rows])
    try:
        cards = parse_pack(buf.getvalue().encode(), "junk.csv")
    except PackError as e:
        assert str(e)
    else:
        assert all(len(c) == 4 for c in cards)


# --------------------------------------------------------------------------- decoys


def with_decoys(decoys: object) -> list[list[dict[str, object]]]:
    cards = pack(1)
    cards[0][0] = {**cards[0][0], "d": decoys}
    return cards


def test_decoys_are_optional_and_kept_tidied() -> None:
    assert "d" not in validate_cards(pack(1))[0][0]
    cards = validate_cards(with_decoys(["  Lyon ", "Marseille", "Lyon"]))
    assert cards[0][0]["d"] == ["Lyon", "Marseille"]


def test_a_decoy_that_is_an_accepted_answer_is_dropped() -> None:
    cards = validate_cards(with_decoys(["ANSWER 1", "wrong"]))
    assert cards[0][0]["d"] == ["wrong"]
    assert "d" not in validate_cards(with_decoys(["answer 1"]))[0][0]


def test_error_decoys_not_a_list_of_short_texts() -> None:
    with raises(r'Card 1, question 1: the decoys "d" must be a list of wrong answers, not one text'):
        validate_cards(with_decoys("Lyon"))
    with raises("Card 1, question 1: decoy 2 must be text, not a number"):
        validate_cards(with_decoys(["Lyon", 3]))
    with raises(f"decoy 1 is {MAX_ANSWER_LEN + 1} characters long; the limit is {MAX_ANSWER_LEN}"):
        validate_cards(with_decoys(["x" * (MAX_ANSWER_LEN + 1)]))
    with raises(f"has {MAX_DECOYS + 1} decoys; the limit is {MAX_DECOYS}"):
        validate_cards(with_decoys([f"d{k}" for k in range(MAX_DECOYS + 1)]))
    with raises("decoy 1 is empty"):
        validate_cards(with_decoys([" "]))


def test_csv_decoys_column_is_split_on_bars() -> None:
    data = b"question,answers,decoys\nQ1?,a,x|y\nQ2?,b,\nQ3?,c,z\nQ4?,d,\n"
    cards = parse_pack(data, "p.csv")
    assert cards[0][0]["d"] == ["x", "y"] and "d" not in cards[0][1] and cards[0][2]["d"] == ["z"]
