"""Delta frames: RFC 6902 JSON Patches between two views of one seat.

A client that says ``"patches": true`` in its ``hello`` gets, after its first full ``state``,
one ``patch`` frame per accepted move instead of the whole view again (docs/protocol.md,
"Patch frames"); one that says ``"patches": "compact"`` gets the same operations written as
arrays (``COMPACT``), a third fewer bytes. Views are plain JSON values (dicts, lists,
strings, numbers, booleans, None), so the diff needs no general-purpose library; ours emits
only ``add``, ``remove`` and ``replace`` and is 10-40 times faster than
``jsonpatch.make_patch`` on the games' views (``bench/patches.py``; docs/performance.md, D10).

>>> diff({"a": 1, "b": [1, 2, 3]}, {"a": 2, "b": [1, 9, 2, 3]})
[{'op': 'replace', 'path': '/a', 'value': 2}, {'op': 'add', 'path': '/b/1', 'value': 9}]
>>> apply_patch({"a": 1}, diff({"a": 1}, {"a": 1, "b": None}))
{'a': 1, 'b': None}
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import takewhile
from operator import eq, is_, truth
from typing import Any, Literal, NamedTuple

import orjson

Op = dict[str, Any]

# How a client's ``patch`` and ``room_patch`` frames write their operations: as RFC 6902
# objects (``"patches": true`` in its hello), or each as an array, ``[sign, path]`` or
# ``[sign, path, value]``, the sign ``+`` for add, ``-`` for remove and ``=`` for replace
# (``"patches": "compact"``). A form is the text the protocol names it by.
PatchForm = Literal["json-patch", "compact"]
JSON_PATCH: PatchForm = "json-patch"
COMPACT: PatchForm = "compact"
SIGNS = {"add": "+", "remove": "-", "replace": "="}  # the compact form's signs
_OPS = {sign: op for op, sign in SIGNS.items()}


def write_ops(ops: list[Op], form: PatchForm) -> list[Any]:
    """``ops`` as ``form`` writes them.

    >>> write_ops([{"op": "replace", "path": "/a", "value": 2}, {"op": "remove", "path": "/b/0"}], COMPACT)
    [['=', '/a', 2], ['-', '/b/0']]
    """
    if form == JSON_PATCH:
        return ops
    return [
        [SIGNS[op["op"]], op["path"], op["value"]] if "value" in op else [SIGNS[op["op"]], op["path"]] for op in ops
    ]


# the standard library's compact encoding (views hold no cycles: nothing to check for)
_encode_json = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def encode(value: Any) -> str:
    """``value`` as compact JSON text: how every frame the server sends is encoded.

    orjson, 10-60 times faster than the standard library on the games' views and patches
    (docs/performance.md, D13), and it writes non-ASCII text as UTF-8 rather than as escapes. What orjson
    refuses (an integer past 64 bits, a lone surrogate: the edge lets neither in) the
    standard library still encodes.

    A key that is not text (no view has one) is written as JSON writes it, as text; orjson
    is asked for that only when it refuses such a key, as its option costs every call half
    as much again.

    >>> encode({"a": [1, 2.5, None, True], 1: "é"})
    '{"a":[1,2.5,null,true],"1":"é"}'
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return _encode_json(value)


SLIDE = 4  # a list window may drop this many items at its front and still be one shift


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1") if ("~" in key or "/" in key) else key


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """The operations that turn ``old`` into ``new`` (each a JSON value)."""
    ops: list[Op] = []
    _diff(old, new, path, ops)
    return ops


def top_diff(old: dict[str, Any], new: dict[str, Any]) -> list[Op]:
    """The operations that turn dict ``old`` into ``new`` key by key: a value that changed is
    replaced whole, and a list that only grew at its end gets its new items added.

    How the server diffs a shared view whose engine gives no operations of its own: each
    value is compared in C, and nothing is walked in Python but the keys (``diff`` walked
    into every value that changed: 7 % of the server's CPU in Genius Idea).
    The operations are a little longer where a small value changed inside (a whole score
    list where one score moved): shared views hold no long list that changes but at its end.

    >>> top_diff({"a": [1, 2], "b": 1, "c": 0}, {"a": [1, 2, 3], "b": 2, "d": None})
    [{'op': 'add', 'path': '/a/2', 'value': 3}, {'op': 'replace', 'path': '/b', 'value': 2}, \
{'op': 'remove', 'path': '/c'}, {'op': 'add', 'path': '/d', 'value': None}]
    """
    ops: list[Op] = []
    same_keys = old.keys() == new.keys()  # most often: then no key is looked for, nor added
    for key, value in old.items():
        if not same_keys and key not in new:
            ops.append({"op": "remove", "path": f"/{_escape(key)}"})
            continue
        now = new[key]
        # equal values of one type are taken as the same JSON, as in ``diff`` (see ``_same``)
        if value is now or (type(value) is type(now) and value == now):
            continue
        path = f"/{_escape(key)}"
        grew = type(value) is list and type(now) is list and len(now) > len(value)
        if grew and _same_items(now[: len(value)], value):
            ops += [{"op": "add", "path": f"{path}/{i}", "value": now[i]} for i in range(len(value), len(now))]
        else:
            ops.append({"op": "replace", "path": path, "value": now})
    if not same_keys:
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"/{_escape(key)}", "value": value})
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    if type(old) is not type(new):  # also keeps 1 and True, 1 and 1.0 apart
        ops.append({"op": "replace", "path": path, "value": new})
    elif isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
                continue
            now = new[key]
            # most of a view is as it was: skip it without building a path (``_same``,
            # inlined: this runs for every key of every view, and the call cost 4 % in Brainiac)
            if value is not now and (type(value) is not type(now) or value != now):
                _diff(value, now, f"{path}/{_escape(key)}", ops)
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
    elif isinstance(new, list):
        _diff_list(old, new, path, ops)
    elif old != new:
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    """Keep the common head and tail, and align the middle by its longest matching runs
    (``difflib``), so that items inserted into or taken from a long list, the usual move, are
    one operation each, not a replace of everything after them."""
    n, m = len(old), len(new)
    if n == m <= 2:  # whose turn it is, most often: item by item gives what the rest would
        _pairwise(old, new, 0, path, ops)
        return
    head = _common_run(old, new)
    if head == n == m:
        return
    tail = _common_run(old[head:][::-1], new[head:][::-1])
    old_mid, new_mid = old[head : n - tail], new[head : m - tail]
    if not old_mid or not new_mid or (len(old_mid) == len(new_mid) and len(old_mid) <= 2):
        _pairwise(old_mid, new_mid, head, path, ops)
        return
    if (
        _only_added(old_mid, new_mid, head, path, ops)
        or _only_removed(old_mid, new_mid, head, path, ops)
        or _slid(old_mid, new_mid, head, path, ops)
    ):
        return
    matcher = SequenceMatcher(None, [_key(x) for x in old_mid], [_key(x) for x in new_mid], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        # the items before j1 are already the new ones: new indexes are current indexes
        if tag != "equal":
            _pairwise(old_mid[i1:i2], new_mid[j1:j2], head + j1, path, ops)


def _only_added(old: list[Any], new: list[Any], at: int, path: str, ops: list[Op]) -> bool:
    """If ``old`` is ``new`` with items left out, the adds that put them back (the runs of
    items they share are found in C, see ``_common_run``)."""
    if len(new) <= len(old):
        return False
    added: list[Op] = []
    i = j = 0
    while j < len(new):
        run = _common_run(old[i:], new[j:]) if i < len(old) else 0
        i, j = i + run, j + run
        if j < len(new):
            added.append({"op": "add", "path": f"{path}/{at + j}", "value": new[j]})
            j += 1
    if i < len(old):
        return False
    ops += added
    return True


def _only_removed(old: list[Any], new: list[Any], at: int, path: str, ops: list[Op]) -> bool:
    """If ``new`` is ``old`` with items left out, the removes that take them out."""
    if len(old) <= len(new):
        return False
    removed: list[Op] = []
    j = 0
    for item in old:
        if j < len(new) and _same(item, new[j]):
            j += 1
        else:
            removed.append({"op": "remove", "path": f"{path}/{at + j}"})
    if j < len(new):
        return False
    ops += removed
    return True


def _slid(old: list[Any], new: list[Any], at: int, path: str, ops: list[Op]) -> bool:
    """A window that dropped a few items at the front and took new ones at the back (a log
    that keeps its last entries): removes at the front, adds at the back."""
    for k in range(1, min(SLIDE, len(old)) + 1):
        rest = old[k:]
        if len(rest) <= len(new) and _same_items(new[: len(rest)], rest):
            ops += [{"op": "remove", "path": f"{path}/{at}"}] * k
            ops += [{"op": "add", "path": f"{path}/{at + i}", "value": new[i]} for i in range(len(rest), len(new))]
            return True
    return False


def _pairwise(old: list[Any], new: list[Any], at: int, path: str, ops: list[Op]) -> None:
    """``old`` (at index ``at``) becomes ``new``: items diffed in pairs, then the rest of
    ``old`` removed (from the back, so indexes stay valid) or the rest of ``new`` added."""
    common = min(len(old), len(new))
    for k in range(common):
        _diff(old[k], new[k], f"{path}/{at + k}", ops)
    for k in range(len(old) - 1, common - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{at + k}"})
    for k in range(common, len(new)):
        ops.append({"op": "add", "path": f"{path}/{at + k}", "value": new[k]})


def _common_run(old: list[Any], new: list[Any]) -> int:
    """How many items from the front of ``old`` and ``new`` are the same (``_same``).

    Compared in C (``map``, stopping at the first difference), not item by item in Python:
    the lists of a view are mostly unchanged from one move to the next, and long (a board, a
    log). Items that are the very same objects (views share what never changes) go first."""
    run = len(list(takewhile(truth, map(is_, old, new))))
    if run == len(old) or run == len(new):
        return run
    rest_old, rest_new = old[run:], new[run:]
    equal = len(list(takewhile(truth, map(eq, rest_old, rest_new))))
    if equal and not _same_types(rest_old[:equal], rest_new[:equal]):
        equal = 0  # a value changed its type (1 to True): find where, item by item
        while _same(rest_old[equal], rest_new[equal]):
            equal += 1
    return run + equal


def _same_items(a: list[Any], b: list[Any]) -> bool:
    """``a`` and ``b`` hold the same items (``_same``), compared in C."""
    return a == b and _same_types(a, b)


def _same_types(a: list[Any], b: list[Any]) -> bool:
    """Item by item, ``a`` and ``b`` hold values of the same types (``==`` takes 1, 1.0 and
    True for one another; JSON does not)."""
    return list(map(type, a)) == list(map(type, b))


def _key(value: Any) -> Any:
    """A hashable stand-in for a JSON value; equal keys mean equal values of the same types."""
    if isinstance(value, list):
        return ("l", *map(_key, value))
    if isinstance(value, dict):
        return ("d", *((k, _key(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def _same(a: Any, b: Any) -> bool:
    # ``==`` inside containers takes true for 1 and 1.0 for 1: the engines' views never put
    # one where the other was (and to the browser 1.0 and 1 are one number)
    return a is b or (type(a) is type(b) and a == b)


def _no_own_part(state: Any, seat: int | None) -> dict[str, Any]:
    return {}


def apply_patch(doc: Any, ops: list[Any]) -> Any:
    """``doc`` with ``ops`` applied (a new value; ``doc`` is not changed), in either
    ``PatchForm``. The reference the browser's ``static/js/patch.js`` follows; tests use it
    to check every patch sent.

    >>> apply_patch({"a": [1]}, [["+", "/a/1", 2], {"op": "replace", "path": "/b", "value": 3}])
    {'a': [1, 2], 'b': 3}
    """
    for op in ops:
        if isinstance(op, list):
            op = {"op": _OPS[op[0]], "path": op[1], **({"value": op[2]} if len(op) > 2 else {})}
        doc = _apply(doc, [_unescape(p) for p in op["path"].split("/")[1:]], op)
    return doc


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def _apply(doc: Any, parts: list[str], op: Op) -> Any:
    if not parts:
        if op["op"] == "remove":
            raise ValueError("cannot remove the whole document")
        return op["value"]
    key, rest = parts[0], parts[1:]
    if isinstance(doc, dict):
        out = dict(doc)
        if rest:
            out[key] = _apply(doc[key], rest, op)
        elif op["op"] == "remove":
            del out[key]
        else:
            out[key] = op["value"]
        return out
    if isinstance(doc, list):
        items = list(doc)
        index = len(items) if key == "-" else int(key)
        if rest:
            items[index] = _apply(items[index], rest, op)
        elif op["op"] == "remove":
            del items[index]
        elif op["op"] == "add":
            items.insert(index, op["value"])
        else:
            items[index] = op["value"]
        return items
    raise ValueError(f"no container at {op['path']!r}")


class OpsText(NamedTuple):
    """One step's operations in one ``PatchForm``: those on the part every seat sees alike,
    and each seat's on its own part, each as its JSON text without the brackets ("" for
    none)."""

    shared: str
    own: dict[int | None, str]

    def of(self, seat: int | None) -> str:
        """``seat``'s operations, shared first, as the JSON text inside a patch's brackets."""
        own = self.own.get(seat, "")
        return f"{self.shared},{own}" if self.shared and own else self.shared or own


@dataclass(slots=True)
class Step:
    """One game's views moving from ``base`` to ``seq``: the operations on the part every
    seat sees alike, once, and each seat's operations on its own part (disjoint keys, see
    ``Engine.seat_view``), as text in each ``PatchForm`` some client of the game took when
    the step was made. The newest step's encoded frames are kept by seat and form, so
    connections of one seat (or all spectators) share one string, and so is the RFC 6902
    frame's head, alike for every seat; an older step lets them go (``History.advance``):
    they are only made again for a client that reconnects from it, and a game's last 64
    steps' frames would be a third of a busy server's memory (docs/performance.md, D22).

    Text, not operation objects: a game keeps its last steps (``History``) and a busy server
    holds tens of thousands of them, which as dicts and lists the cyclic garbage collector
    would walk in its collections, pausing every room (docs/performance.md, D22); strings it
    never looks at."""

    base: int
    seq: int
    texts: dict[PatchForm, OpsText]  # by form
    frames: dict[tuple[int | None, PatchForm], str] = field(default_factory=dict)  # by seat and form
    head: str = ""  # the encoded patch frame up to its operations, once one was encoded

    def ops_text(self, seat: int | None, form: PatchForm = JSON_PATCH) -> str | None:
        """``seat``'s operations in ``form``, shared first, as the JSON text inside a patch's
        brackets; None if no client took that form when the step was made."""
        texts = self.texts.get(form)
        return None if texts is None else texts.of(seat)


class History:
    """The last position a game's connections were sent views of, and the steps since.

    ``advance`` is called with each new seq's state and the seats whose own part is sent
    (every seat and the spectators' ``None``); ``chain(base)`` is the steps from a client's
    ``base`` to now, or None when they are no longer kept (the client gets a full ``state``
    instead). Each part's operations come from the engine when it gives them
    (``Engine.shared_view_ops``, ``Engine.seat_view_ops``): then neither view of that part
    is built. Else the two shared views are diffed key by key (``top_diff``; the last one is
    kept for the next step), and each seat's own part is diffed all the way in (``diff``): a
    seat's card of questions changes one answer's mark at a time, and would be sent whole.
    A view an earlier step did not build is built again from that step's state; one the
    engine's operations left unchanged is kept. (An engine may give operations for some
    moves only: Brainiac's within a phase, where the views it would take to diff are what
    the move costs.)

    A step's operations are written in each form in ``forms``: those the game's clients took
    so far (``observe`` adds a client's), so a game all of whose clients take one form
    encodes only that one."""

    def __init__(
        self,
        keep: int,
        shared_view: Callable[[Any], dict[str, Any]],
        shared_view_ops: Callable[[Any, Any], list[Op] | None] | None = None,
        seat_view: Callable[[Any, int | None], dict[str, Any]] | None = None,
        seat_view_ops: Callable[[Any, Any, int | None], list[Op] | None] | None = None,
    ) -> None:
        self.seq: int | None = None
        self.state: Any = None
        self.steps: deque[Step] = deque(maxlen=keep)
        self.forms: set[PatchForm] = set()
        self._shared_view = shared_view
        self._shared_view_ops = shared_view_ops
        self._seat_view = seat_view if seat_view is not None else _no_own_part
        self._seat_view_ops = seat_view_ops
        self._shared: dict[str, Any] | None = None  # shared_view(state), once it was built
        self._own: dict[int | None, dict[str, Any]] = {}  # seat_view(state, seat), where built

    def advance(self, seq: int, state: Any, seats: Sequence[int | None]) -> None:
        own: dict[int | None, dict[str, Any]] = {}
        if self.seq is not None and seq > self.seq:
            own_ops: dict[int | None, list[Op]] = {}
            for seat in seats:
                ops = self._seat_view_ops(self.state, state, seat) if self._seat_view_ops is not None else None
                if ops is None:
                    before = self._own.get(seat)
                    if before is None:
                        before = self._seat_view(self.state, seat)
                    view = own[seat] = self._seat_view(state, seat)
                    # most seats' own part is as it was: compared in C, as ``_same`` does
                    ops = diff(before, view) if view != before else None
                elif not ops and seat in self._own:
                    own[seat] = self._own[seat]  # unchanged: still the view of this seat
                if ops:
                    own_ops[seat] = ops
            shared_ops = self._shared_view_ops(self.state, state) if self._shared_view_ops is not None else None
            shared = None
            if shared_ops == []:
                shared = self._shared  # unchanged: the view built before (if any) is still it
            elif shared_ops is None:
                old = self._shared if self._shared is not None else self._shared_view(self.state)
                shared = self._shared_view(state)
                shared_ops = top_diff(old, shared)
            if self.steps:
                self.steps[-1].frames.clear()  # no longer the newest (see Step)
            texts = {
                form: OpsText(
                    encode(write_ops(shared_ops, form))[1:-1] if shared_ops else "",
                    {seat: encode(write_ops(ops, form))[1:-1] for seat, ops in own_ops.items()},
                )
                for form in self.forms
            }
            self.steps.append(Step(self.seq, seq, texts))
            self._shared = shared
        else:
            if self.seq is not None and seq < self.seq:  # the game was rebuilt from its log
                self.steps.clear()
            self._shared = None
        self.seq, self.state, self._own = seq, state, own

    def chain(self, base: int) -> list[Step] | None:
        if base == self.seq:
            return []
        # from the newest step back: a client one move behind (every client, every move)
        # finds its step first
        steps = self.steps
        for i in range(len(steps) - 1, -1, -1):
            if steps[i].base == base:
                return [steps[j] for j in range(i, len(steps))]
        return None
