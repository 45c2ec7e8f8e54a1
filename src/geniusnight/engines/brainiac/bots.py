"""Bots for Brainiac or IDIOT!: ``random`` and ``trivia``.

A bot decides from its own seat's view, except that "knowing" an answer is simulated: when
it is meant to answer right it writes one of the accepted answers. Wrong answers are
plausible: an accepted answer of another question on the same card, or of a card from the
bank, checked so that the judge really rules it wrong.

- ``random``: trades half the time, asks any unasked question, answers right half the time
  as a Brainiac (never as an IDIOT, who must answer wrong), confirms the engine's verdicts
  and accuses a uniformly random wrong answerer or no one.
- ``trivia``: answers right with probability 0.85 / 0.65 / 0.45 / 0.25 by difficulty as a
  Brainiac (always wrong as an IDIOT), trades with probability 0.1, asks a random unasked
  question and confirms the engine's verdicts as Genius, and accuses the wrong answerer most
  likely to be an IDIOT given the WHOAMI cards still unseen (Bayes with the chance that a
  Brainiac misses a question of that level), when a correct accusation is worth the risk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base import Rng
from .engine import IDIOT, card_count, card_questions
from .judge import judge

if TYPE_CHECKING:
    from .engine import BrainiacEngine, State

RIGHT_BY_LEVEL = (0.85, 0.65, 0.45, 0.25)


def choose(engine: BrainiacEngine, state: State, seat: int, bot: str, seed: int) -> dict[str, Any]:
    """The move of bot policy ``bot`` (unknown ids play as ``random``) for ``seat``."""
    rng = Rng.from_seed(f"brainiac-bot:{seed}:{seat}:{state['round']}:{state['phase']}")
    view = engine.view(state, seat)
    phase = view["phase"]
    smart = bot == "trivia"
    if phase == "trade":
        return {"type": "trade" if rng.random() < (0.1 if smart else 0.5) else "keep"}
    if phase == "ask":
        unasked = [q["level"] - 1 for q in view["card"] if not q["asked"]]
        return {"type": "ask", "index": rng.choice(unasked)}
    if phase == "answer":
        level = view["question"]["level"]
        chance = RIGHT_BY_LEVEL[level - 1] if smart else 0.5
        right = view["identity"] != IDIOT and rng.random() < chance
        return {"type": "answer", "text": _answer(engine, state, right, rng)}
    if phase == "judge":
        return {"type": "judge", "overrides": {}}
    # accuse
    targets = view["accuse_targets"]
    if not smart:
        return {"type": "accuse", "target": rng.choice([None, *targets])}
    return {"type": "accuse", "target": _suspect(view, seat, targets, rng)}


def _answer(engine: BrainiacEngine, state: State, right: bool, rng: Rng) -> str:
    accepted = engine.accepted(state)
    if right:
        return rng.choice(accepted)
    card = card_questions(state, state["hand"][state["genius"]])
    pool = [a[0] for i, (_, a) in enumerate(card) if i != state["question"]]
    rng.shuffle(pool)
    for _ in range(4):
        other = card_questions(state, rng.randbelow(card_count(state)))
        pool.append(rng.choice(other)[1][0])
    for guess in pool:
        if not judge(guess, accepted):
            return guess
    return "I don't know"


def _suspect(view: dict[str, Any], seat: int, targets: list[int], rng: Rng) -> int | None:
    """Accuse the likeliest IDIOT among the wrong answerers when 3p - 1 > 0 (a correct
    accusation is +2, a wrong one -1), with a little noise so bots are not predictable."""
    if not targets:
        return None
    w = view["whoami"]
    unseen_idiots = w["idiots_total"] - w["idiots_seen"]
    unseen_cards = w["left"] + sum(1 for p, r in enumerate(view["revealed"]) if r is None and p != view["genius"])
    if view["identity"] == IDIOT:
        unseen_idiots -= 1  # its own card is seen by itself
    if view["identity"] is not None:
        unseen_cards -= 1
    prior = max(0.0, min(1.0, unseen_idiots / unseen_cards)) if unseen_cards > 0 else 0.0
    miss = 1.0 - RIGHT_BY_LEVEL[view["question"]["level"] - 1]
    p = prior / (prior + (1 - prior) * miss) if prior > 0 else 0.0
    pick = rng.choice(targets)
    if rng.random() < max(0.05, min(0.95, 3 * p - 0.5)):
        return pick
    return None
