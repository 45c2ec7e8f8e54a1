"""Bot policies for every role: ``random`` and ``smart`` (association-driven).

``smart`` uses :func:`similarity.similarity` (curated themes plus a hub-corrected embedding
cosine for the built-in deck, a string measure for custom decks):

- **Prepare**: the answer whose 5 most similar other cards are most similar in total; those
  5 are the hints. Unrelated cards score about 0, so it picks the answer a person can read.
- **Disruptor**: reveals the least helpful hint: the one whose similarity to the answer, minus
  its best similarity to any other live public card, is lowest.
- **Riddler**: orders the revealed hints by similarity to the answer, most similar first.
- **Solver**: a card's evidence is the sum of its similarities to the revealed hints, weighted
  by the Riddler's order (1/(1+i) for the i-th hint). Its belief in the best card is that
  card's share of ``exp(SHARPNESS * evidence)`` over the live cards. It guesses the best card
  when the belief reaches ``CONFIDENCE`` (times ``SPARE_CHANCE_FACTOR`` with a chance to spare,
  times ``RIVAL_FACTOR`` for each other Solver still in the race), else passes and waits for
  the next hint. With all 5 hints out it must guess: it takes the best card.

``random`` plays a uniformly random legal action (a Solver guesses or passes with even odds).
"""

from __future__ import annotations

import math
from typing import Any

from ..base import Rng
from .rules import HINTS, State, to_act
from .similarity import similarity

SHARPNESS = 6.0  # evidence -> belief; with 0.5 below: fewest wasted chances for most points (bench)
CONFIDENCE = 0.5  # belief in the best card needed to guess with no spare chance and no rival
SPARE_CHANCE_FACTOR = 0.7
RIVAL_FACTOR = 0.8  # per other Solver still in the race


def best_riddle(hand: list[str]) -> tuple[str, list[str]]:
    """The hand's most self-evident riddle: answer plus its 5 nearest cards."""
    best: tuple[float, str, list[str]] | None = None
    for answer in hand:
        others = sorted((c for c in hand if c != answer), key=lambda c: (-similarity(answer, c), c))
        hints = others[:HINTS]
        score = sum(similarity(answer, h) for h in hints)
        if best is None or score > best[0]:
            best = (score, answer, hints)
    assert best is not None
    return best[1], best[2]


def live_cards(cur: dict[str, Any]) -> list[str]:
    return [c for c in cur["public"] if c not in cur["wrong"]]


def card_scores(cur: dict[str, Any]) -> list[tuple[float, str]]:
    """Each live public card's evidence: its similarity to each revealed hint, weighted by the
    Riddler's order (1/(1+i) for the i-th hint), summed; best first."""
    scored = []
    for card in live_cards(cur):
        s = sum(similarity(h, card) / (1 + i) for i, h in enumerate(cur["revealed"]))
        scored.append((s, card))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def belief(scored: list[tuple[float, str]]) -> float:
    """How sure the Solver is of the best card: its share of ``exp(SHARPNESS * evidence)``
    over the live cards (each card equally likely before any hint)."""
    top = scored[0][0]
    return 1.0 / sum(math.exp(SHARPNESS * (s - top)) for s, _ in scored)


def confidence_needed(cur: dict[str, Any], seat: int) -> float:
    """``CONFIDENCE``, lowered when a miss is cheap (a spare chance) and for each other Solver
    still in the race (waiting lets a rival take the riddle)."""
    needed = CONFIDENCE
    if cur["chances"][seat] > 1:
        needed *= SPARE_CHANCE_FACTOR
    return needed * RIVAL_FACTOR ** sum(1 for s in cur["solvers"] if s != seat and cur["chances"][s] > 0)


def smart_action(state: State, seat: int) -> dict[str, Any]:
    phase = state["phase"]
    cur = state["cur"]
    if phase == "prepare":
        answer, hints = best_riddle(state["hands"][seat])
        return {"type": "prepare", "answer": answer, "hints": hints}
    if phase == "reveal":
        others = [c for c in live_cards(cur) if c != cur["answer"]]

        def helpfulness(h: str) -> float:
            rival = max((similarity(h, c) for c in others), default=0.0)
            return similarity(h, cur["answer"]) - rival

        unrevealed = [h for h in cur["hints"] if h not in cur["revealed"]]
        return {"type": "reveal", "hint": min(unrevealed, key=lambda h: (helpfulness(h), h))}
    if phase == "order":
        ordered = sorted(cur["revealed"], key=lambda h: (-similarity(h, cur["answer"]), h))
        return {"type": "order", "hints": ordered}
    # guess
    scored = card_scores(cur)
    if len(cur["revealed"]) == HINTS or belief(scored) >= confidence_needed(cur, seat):
        return {"type": "guess", "card": scored[0][1]}
    return {"type": "pass"}


def random_action(state: State, seat: int, rng: Rng) -> dict[str, Any]:
    phase = state["phase"]
    cur = state["cur"]
    if phase == "prepare":
        hand = rng.shuffled(state["hands"][seat])
        return {"type": "prepare", "answer": hand[0], "hints": hand[1 : 1 + HINTS]}
    if phase == "reveal":
        hidden = [h for h in cur["hints"] if h not in cur["revealed"]]
        return {"type": "reveal", "hint": rng.choice(hidden)}
    if phase == "order":
        return {"type": "order", "hints": rng.shuffled(cur["revealed"])}
    if len(cur["revealed"]) < HINTS and rng.randbelow(2) == 0:
        return {"type": "pass"}
    return {"type": "guess", "card": rng.choice(live_cards(cur))}


def bot_action(state: State, seat: int, bot: str, seed: int) -> dict[str, Any] | None:
    if seat not in to_act(state):
        return None
    if state["phase"] == "results":
        return {"type": "ready"}  # a bot has seen the result at once
    if bot == "smart":
        return smart_action(state, seat)
    return random_action(state, seat, Rng.from_seed(seed))
