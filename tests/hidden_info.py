"""What each seat may not know, one oracle per game (docs/rules/<game>.md, "View").

``check_view(engine_id, state, seat, view)`` asserts that ``view`` (what ``seat`` got, over any
channel) leaks nothing of ``state`` that ``seat`` may not know, two ways:

- **nothing secret in it**: the secret values themselves (another seat's answer, an unrevealed
  hint, the PRNG state) appear nowhere in the view's JSON, and the fields that hold a seat's
  own secrets hold that seat's only;
- **nothing secret behind it**: :func:`conceal` re-deals everything ``seat`` may not know
  (other racks and the bag, other hands, identities and choices, deck orders, the PRNG state)
  consistently with what it may know, and ``seat``'s view of that other state must be the
  very same. A view that changes is one that depends on a secret.

:func:`secret_texts` lists the secret strings, for searching frames and HTTP bodies that are
not views (the room, pages).
"""

from __future__ import annotations

import json
import random
from typing import Any

from geniusnight.engines import get_engine

TRADE_PHASES = ("ask", "answer", "judge", "dispute", "accuse")


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _strings(value: Any) -> Any:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _quoted(words: Any) -> list[str]:
    return [json.dumps(w) for w in words if isinstance(w, str) and w]


# --- Ingenious: other racks (partners' too), the bag and its order, the PRNG state ----------


def _ingenious_conceal(state: Any, seat: int | None, rng: random.Random) -> Any:
    from geniusnight.engines.base import Rng
    from geniusnight.engines.ingenious.bots import determinize

    other = determinize(state, -1 if seat is None else seat, Rng.from_seed(rng.getrandbits(62)))
    other.shuffle = state.shuffle  # an option of the table, not a secret
    return other


def _ingenious_text(state: Any, seat: int | None, view: dict[str, Any]) -> None:
    from geniusnight.engines.ingenious.rules import tile_json

    if seat is None:
        assert "rack" not in view, "a spectator sees a rack"
    else:
        assert view["rack"] == [tile_json(t) for t in state.racks[seat]], "the rack is not the seat's own"
    rest = json.dumps({k: v for k, v in view.items() if k != "rack"})
    assert "rng" not in rest and '"bag"' not in rest and "racks" not in rest, "a hidden field is in the view"
    assert str(state.rng) not in rest, "the PRNG state is in the view"


def _ingenious_secrets(state: Any, seat: int | None) -> list[str]:
    return [str(state.rng)]


# --- Genius Idea: hands, riddles still to come, unrevealed hints, the answer, the supply --


def _gi_public_words(s: dict[str, Any]) -> set[str]:
    words: set[str] = set()
    for h in s["history"]:
        words |= {h["answer"], *h["hints"], *h["public"]}
    cur = s["cur"]
    if cur is not None:
        words |= set(cur["public"]) | set(cur["revealed"])
    return words


def _gi_secret_words(s: dict[str, Any], seat: int | None) -> list[str]:
    """Words ``seat`` may not see: the supply, other seats' hands and waiting riddles, the
    unrevealed hints (unless Riddler or Disruptor); discarded cards that never went public."""
    public = _gi_public_words(s)
    secret = set(s["supply"])
    secret |= {w for w in s["discards"] if w not in public}
    for p in range(s["players"]):
        if p == seat:
            continue
        secret |= set(s["hands"][p])
        riddle = s["riddles"][p]
        if riddle is not None:
            secret |= {riddle["answer"], *riddle["hints"]}
    cur = s["cur"]
    if cur is not None and seat not in (cur["riddler"], cur["disruptor"]):
        secret |= {h for h in cur["hints"] if h not in cur["revealed"]}
    mine: set[str] = set()
    if seat is not None and 0 <= seat < s["players"]:
        mine |= set(s["hands"][seat])
        if s["riddles"][seat] is not None:
            mine |= {s["riddles"][seat]["answer"], *s["riddles"][seat]["hints"]}
    return sorted(secret - public - mine)


def _gi_answer_public(cur: dict[str, Any]) -> bool:
    return any(g.get("correct") for g in cur["guesses"])


def _gi_conceal(state: Any, seat: int | None, rng: random.Random) -> Any:
    # a copy of the parts changed below (a state is never changed, so the rest is shared)
    s = dict(state)
    s["supply"], s["discards"] = list(s["supply"]), list(s["discards"])
    s["hands"], s["riddles"] = [list(h) for h in s["hands"]], list(s["riddles"])
    s["cur"] = None if s["cur"] is None else dict(s["cur"])
    pool = list(s["supply"])
    rng.shuffle(pool)

    def fresh(word: str) -> str:
        if not pool:
            return word
        new = pool.pop()
        s["supply"][s["supply"].index(new)] = word
        return new

    for p in range(s["players"]):
        if p == seat:
            continue
        s["hands"][p] = [fresh(w) for w in s["hands"][p]]
        riddle = s["riddles"][p]
        if riddle is not None:
            s["riddles"][p] = {"answer": fresh(riddle["answer"]), "hints": [fresh(h) for h in riddle["hints"]]}
    public = _gi_public_words(s)
    s["discards"] = [w if w in public else fresh(w) for w in s["discards"]]
    cur = s["cur"]
    if cur is not None:
        if seat not in (cur["riddler"], cur["disruptor"]):
            cur["hints"] = [h if h in cur["revealed"] else fresh(h) for h in cur["hints"]]
        if seat != cur["riddler"] and not _gi_answer_public(cur):
            tried = {g["card"] for g in cur["guesses"]} | set(cur["wrong"]) | set(cur["hints"])
            others = [w for w in cur["public"] if w != cur["answer"] and w not in tried]
            if others:
                cur["answer"] = rng.choice(others)
    rng.shuffle(s["supply"])
    s["rng"] = rng.getrandbits(63)
    return s


def _gi_text(state: Any, seat: int | None, view: dict[str, Any]) -> None:
    s = state
    text = json.dumps(view)
    assert "rng" not in view and str(s["rng"]) not in text, "the PRNG state is in the view"
    assert "supply" not in view and "hands" not in view and "riddles" not in view and "discards" not in view
    shown = set(_strings(view))
    for word in _gi_secret_words(s, seat):
        assert word not in shown, f"seat {seat} sees the secret word {word!r}"
    cur = s["cur"]
    if cur is not None and seat != cur["riddler"] and not _gi_answer_public(cur):
        assert "answer" not in view, f"seat {seat} has the answer field"
        assert text.count(json.dumps(cur["answer"])) == 1, f"seat {seat} can tell the answer"
    if seat is not None and 0 <= seat < s["players"]:
        if "hand" in view:
            assert view["hand"] == s["hands"][seat]
        if "my_riddle" in view:
            assert view["my_riddle"] == s["riddles"][seat]


def _gi_secrets(state: Any, seat: int | None) -> list[str]:
    out = [str(state["rng"]), *_quoted(_gi_secret_words(state, seat))]
    cur = state["cur"]
    if cur is not None and seat != cur["riddler"] and not _gi_answer_public(cur):
        out.append('"answer"')
    return out


# --- Brainiac: identities, answers before all are in, accepted answers, choices, decks ---


def _brainiac_conceal(state: Any, seat: int | None, rng: random.Random) -> Any:
    from geniusnight.engines.brainiac.cards import IDIOT

    s = dict(state)  # a copy of the parts changed below; the rest is shared, never changed
    for key in ("trade", "hand", "deck", "identity", "whoami", "answers"):
        s[key] = list(s[key])
    n, g, phase = s["players"], s["genius"], s["phase"]
    in_round = phase in TRADE_PHASES
    if phase == "trade":
        for p in range(n):
            if p != seat and s["trade"][p] is not None:
                s["trade"][p] = rng.choice(["trade", "keep"])
    # other trivia cards, from the deck (the Genius's card is the table's once asked)
    for p in range(n):
        if p == seat or (in_round and p == g) or not s["deck"]:
            continue
        k = rng.randrange(len(s["deck"]))
        s["hand"][p], s["deck"][k] = s["deck"][k], s["hand"][p]
    rng.shuffle(s["deck"])
    if in_round:
        # unrevealed identities, from the WHOAMI deck (the count of IDIOTs seen stays)
        for p in range(n):
            if p in (seat, g) or s["revealed"][p] or s["identity"][p] is None or not s["whoami"]:
                continue
            k = rng.randrange(len(s["whoami"]))
            old, new = s["identity"][p], s["whoami"][k]
            s["identity"][p], s["whoami"][k] = new, old
            s["whoami_idiots_dealt"] += (new == IDIOT) - (old == IDIOT)
        if s.get("genius_card") is not None and s["whoami"]:  # set aside, unseen by everyone
            k = rng.randrange(len(s["whoami"]))
            old, s["genius_card"], s["whoami"][k] = s["genius_card"], s["whoami"][k], s["genius_card"]
            s["whoami_idiots_dealt"] += (s["genius_card"] == IDIOT) - (old == IDIOT)
        if phase in ("ask", "answer"):
            for p in range(n):
                if p != seat and s["answers"][p] is not None:
                    s["answers"][p] = f"concealed answer {rng.randrange(10**6)}"
    rng.shuffle(s["whoami"])
    s["rng"] = rng.getrandbits(63)
    return s


def _brainiac_text(state: Any, seat: int | None, view: dict[str, Any]) -> None:
    from geniusnight.engines.brainiac.cards import card_questions

    E = get_engine("brainiac")
    v = view
    assert "rng" not in v and "whoami_all" not in v and str(state["rng"]) not in json.dumps(v)
    phase, g = state["phase"], state["genius"]
    if phase == "trade" and seat is not None:
        assert v["trade"]["mine"] == state["trade"][seat]
    if phase not in TRADE_PHASES:
        return
    for p in range(state["players"]):
        shown = v["revealed"][p]
        assert shown == (state["identity"][p] if state["revealed"][p] else None), f"identity of {p} shown"
    assert v["identity"] == (state["identity"][seat] if seat is not None else None)
    is_genius = seat == g
    card = card_questions(state, state["hand"][g])
    if not is_genius:
        assert v["question"] is None or "a" not in v["question"], "the accepted answers are shown"
        assert all("a" not in q for q in v.get("card", [])), "a card's answers are shown"
    if phase == "answer":
        assert v["answers"] is None
        # no one's answer but your own is in the view (history and own answer aside)
        text = json.dumps({k: x for k, x in v.items() if k not in ("my_answer", "history")})
        public = json.dumps(v.get("card")) + json.dumps(v["question"])
        mine = state["answers"][seat] if seat is not None else None
        for p, ans in enumerate(state["answers"]):
            quoted = json.dumps(ans)[1:-1] if ans else ""
            if p != seat and len(quoted) > 3 and ans != mine and quoted not in public:
                assert quoted not in text, f"seat {seat} sees {p}'s answer {ans!r}"
        if not is_genius and state["question"] is not None:
            for a in card[state["question"]][1]:
                assert json.dumps(a) not in text, f"seat {seat} sees an accepted answer"
    assert E.info.id == "brainiac"


def _brainiac_secrets(state: Any, seat: int | None) -> list[str]:
    from geniusnight.engines.brainiac.cards import card_questions

    out = [str(state["rng"])]
    g = state["genius"]
    if state["phase"] == "answer" and seat != g and state["question"] is not None:
        question, accepted = card_questions(state, state["hand"][g])[state["question"]]
        # a seat's own answer may be one of the accepted ones: it is shown back to it
        mine = state["answers"][seat] if seat is not None else None
        out += [
            q for q in _quoted(accepted) if len(q) > 5 and q[1:-1] not in json.dumps(question) and q != json.dumps(mine)
        ]
    return out


ORACLES: dict[str, tuple[Any, Any, Any]] = {
    "ingenious": (_ingenious_conceal, _ingenious_text, _ingenious_secrets),
    "genius-idea": (_gi_conceal, _gi_text, _gi_secrets),
    "brainiac": (_brainiac_conceal, _brainiac_text, _brainiac_secrets),
}


def conceal(engine_id: str, state: Any, seat: int | None, rng: random.Random) -> Any:
    """``state`` with everything ``seat`` may not know dealt afresh."""
    return ORACLES[engine_id][0](state, seat, rng)


def secret_texts(engine_id: str, state: Any, seat: int | None) -> list[str]:
    """Strings (JSON-quoted where they are words) that must appear nowhere ``seat`` reads."""
    return [t for t in ORACLES[engine_id][2](state, seat) if t]


def check_view(engine_id: str, state: Any, seat: int | None, view: Any, rng: random.Random | None = None) -> None:
    """``view``, as ``seat`` received it, leaks nothing of ``state`` (see the module doc)."""
    _conceal, text_check, _ = ORACLES[engine_id]
    view = _json(view)
    text_check(state, seat, view)
    if rng is not None:
        engine = get_engine(engine_id)
        other = _conceal(state, seat, rng)
        assert _json(engine.view(other, seat)) == view, f"seat {seat}'s view depends on something hidden from it"
