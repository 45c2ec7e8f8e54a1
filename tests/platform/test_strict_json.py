"""``strict_json`` reads with orjson first and falls back to the standard library: whatever
the text, it accepts the same values and refuses with the same codes as the standard
library's reading alone (``strict_stdlib_json``), the rule docs/protocol.md describes."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from geniusnight.server.edge import (
    FORBIDDEN_TEXT,
    MAX_DEPTH,
    BadInput,
    check_value,
    strict_json,
    strict_stdlib_json,
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 70), max_value=1 << 70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def outcome(read: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", read(text)
    except BadInput as e:
        return "refused", e.code


def same(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    # json.dumps of the values: 1 and 1.0 and True stay apart, and -0.0 from 0.0
    return a[0] == b[0] and json.dumps(a[1], sort_keys=True) == json.dumps(b[1], sort_keys=True)


@settings(max_examples=400)
@given(values, st.booleans(), st.integers(min_value=0, max_value=40))
def test_strict_json_accepts_and_refuses_as_the_standard_library_does(value: Any, ascii: bool, nest: int) -> None:
    text = "[" * nest + json.dumps(value, ensure_ascii=ascii) + "]" * nest
    assert same(outcome(strict_json, text), outcome(strict_stdlib_json, text))


@settings(max_examples=400)
@given(st.text(alphabet='{}[]:,"\\ 0123456789.eE+-tfnulrsaIiNy\ud800\x00', max_size=30))
def test_strict_json_refuses_broken_text_as_the_standard_library_does(text: str) -> None:
    assert same(outcome(strict_json, text), outcome(strict_stdlib_json, text))


def test_an_integer_past_64_bits_is_refused_though_orjson_reads_it_as_a_float() -> None:
    for text in ("18446744073709551616", "-9223372036854775809", '{"n": [99999999999999999999]}'):
        assert outcome(strict_json, text) == ("refused", "bad_number")
    assert strict_json("1e19") == 1e19  # a float that size, written as one, is a float


def problems(value: Any, depth: int = 0) -> set[str]:
    """What the edge refuses in ``value``, found the plain way: each item in turn."""
    if isinstance(value, str):
        return {"bad_text"} if FORBIDDEN_TEXT.search(value) else set()
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int):
        return set() if -(1 << 63) <= value < 1 << 63 else {"bad_number"}
    if isinstance(value, float):
        return set() if math.isfinite(value) else {"bad_number"}
    found = {"too_deep"} if depth >= MAX_DEPTH else set()
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    for item in items:
        found |= problems(item, depth + 1)
    return found


deep_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=40).map(
    lambda v: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[v]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
)


@settings(max_examples=300)
@given(values | deep_values)
def test_the_edge_refuses_a_value_exactly_when_one_of_its_items_breaks_a_rule(value: Any) -> None:
    found = problems(value)
    try:
        check_value(value)
    except BadInput as e:
        assert e.code in found
    else:
        assert not found


def test_frames_plain_enough_to_skip_the_walk_are_read_as_the_walk_reads_them() -> None:
    # strict_json skips the item-by-item walk for a text of printable ASCII with no escape,
    # no long or fractional number and few brackets; each of these texts is
    # one step past that and must still meet the walk
    for text, expected in [
        ('{"type":"act","action":{"cells":[[1,-2],[2,-2]]}}', "value"),
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, "value"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "refused"),
        ('{"name":"a\x7fb"}', "refused"),
        ('{"name":"a\\u0001b"}', "refused"),
        ('{"name":"\\ud800"}', "refused"),
        ("[9223372036854775807, -9223372036854775808]", "value"),
        ("[9223372036854775808]", "refused"),
        ("[1e400]", "refused"),
        ("[0.5]", "value"),
        ('{"name":"café"}', "value"),
        ('{"n":\t1}', "value"),
    ]:
        got = outcome(strict_json, text)
        assert got[0] == expected, text
        assert same(got, outcome(strict_stdlib_json, text)), text
