"""Bot policies for every role: ``random`` and ``smart`` (similarity-driven).

``smart`` uses :func:`similarity.similarity` (the model's table for the built-in deck, a
string measure for custom decks):

- **Prepare**: the answer whose 5 most similar other cards are most similar on average; those
  5 are the hints.
- **Disruptor**: reveals the least helpful hint: the one whose similarity to the answer, minus
  its best similarity to any other live public card, is lowest.
- **Riddler**: orders the revealed hints by similarity to the answer, most similar first.
- **Solver**: scores each live public card by the revealed hints' similarities, weighted by
  the Riddler's order (weight 1/(1+i) for the i-th hint), and guesses the best card when it
  leads the runner-up by at least the margin threshold, else passes. The threshold is
  ``SOLVER_MARGIN * hidden / 4`` (``hidden`` = unrevealed hints: the fewer points are left to
  win, the less sure it needs to be), times ``SPARE_CHANCE_FACTOR`` when it has more than one
  chance left (a miss is cheaper), times ``RIVAL_FACTOR`` for each other Solver who still has a
  chance (it is a race: waiting for a surer hint lets a rival take the riddle). With all 5
  hints out it must guess: it takes the best card.

``random`` plays a uniformly random legal action (a Solver guesses or passes with even odds).
"""

from __future__ import annotations

from typing import Any

from ..base import Rng
from .rules import HINTS, State, to_act
from .similarity import similarity

SOLVER_MARGIN = 0.03  # lead over the runner-up needed to guess with 1 hint out (tuned by bench)
SPARE_CHANCE_FACTOR = 0.7
RIVAL_FACTOR = 0.6  # per other Solver still in the race (tuned by bench)


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
    """Each live public card's order-weighted similarity to the revealed hints, best first."""
    weights = [1.0 / (1 + i) for i in range(len(cur["revealed"]))]
    total = sum(weights) or 1.0
    scored = []
    for card in live_cards(cur):
        s = sum(w * similarity(h, card) for w, h in zip(weights, cur["revealed"], strict=True)) / total
        scored.append((s, card))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


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
    hidden = HINTS - len(cur["revealed"])
    threshold = SOLVER_MARGIN * hidden / (HINTS - 1)
    if cur["chances"][seat] > 1:
        threshold *= SPARE_CHANCE_FACTOR
    threshold *= RIVAL_FACTOR ** sum(1 for s in cur["solvers"] if s != seat and cur["chances"][s] > 0)
    margin = scored[0][0] - scored[1][0] if len(scored) > 1 else 1.0
    if hidden == 0 or margin >= threshold:
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
    if bot == "smart":
        return smart_action(state, seat)
    return random_action(state, seat, Rng.from_seed(seed))
