"""Bot policies: ``random``, and three strengths of a player who reads words like a person
(``easy``, ``normal``, ``sharp``). Stored games may name ``smart``, the one association bot of
earlier builds: it plays as ``sharp``.

The Riddler and the Solvers read words with different models, so a bot Solver has no
telepathy with a bot Riddler (docs/rules/genius-idea.md, "Bots"):

Both read the words with the tables of the room's content language (``state["language"]``,
``content/<language>/``); words outside that deck (custom decks) with the string fallback.

- **Riddler** (and Disruptor): :func:`similarity.similarity`, the curated themes a person
  links a word with plus half the embedding. From its 10 cards it picks the answer and the 5
  hints that single the answer out best among cards it cannot see yet: the public area is 15
  cards from the rest of the deck, so a riddle is as good as the answer's chance to beat 15
  random cards of the deck on the hints' total link (:func:`best_riddle`). It lists the
  hints most telling first, and orders revealed hints the same way. The Disruptor sees the
  hints but not the answer: it takes the card they point at for the answer.
- **Solver**: :func:`similarity.embedding_similarity`, the embedding alone (it never reads
  the themes), plus noise of its own per word pair (more for weaker bots): two people never
  link words quite alike. It guesses when its belief in the best card reaches its strength's
  confidence, else passes and waits for the next hint; with all 5 hints out it must guess.
- **Think time** (:func:`think_seconds`): a Solver answers a hint after the time a quick
  person needs to read it and decide, never under ``MIN_THINK`` seconds; the server waits
  that long (the engine has no clock).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ..base import Rng
from .rules import HINTS, PUBLIC_FROM_SUPPLY, State, to_act
from .similarity import association, builtin_words, embedding, embedding_similarity, similarity, themes


@dataclass(frozen=True)
class Strength:
    """How well a bot plays: what a Solver hears in the hints, and how fast it answers."""

    noise: float  # spread of the Solver's own error per word pair
    confidence: float  # belief in the best card a Solver needs to guess before the last hint
    think: float  # seconds a Solver needs at least after a hint
    think_spread: float  # mean extra seconds (an exponential tail, capped at 3 x)
    careful_disruptor: bool  # reveals the least helpful hint (else a random one)


STRENGTHS = {
    "easy": Strength(noise=0.16, confidence=0.8, think=4.0, think_spread=3.0, careful_disruptor=False),
    "normal": Strength(noise=0.09, confidence=0.65, think=3.0, think_spread=2.0, careful_disruptor=True),
    "sharp": Strength(noise=0.04, confidence=0.5, think=2.2, think_spread=1.2, careful_disruptor=True),
}
LEGACY_BOTS = {"smart": "sharp"}  # bot ids of earlier builds, still in stored games
MIN_THINK = 2.0  # seconds: no Solver bot answers a hint sooner, whatever its strength
SHARPNESS = 14.0  # Solver: evidence -> belief (bench/genius_idea/match.py)
RIVAL_FACTOR = 0.9  # Solver: the confidence needed, per other Solver still in the race
SPARE_CHANCE_FACTOR = 0.85  # Solver: the confidence needed with a chance to spare
RIDDLE_TEMPERATURE = 0.15  # Riddler: how surely a margin of link beats a rival card


def strength(bot: str) -> Strength | None:
    """The strength a bot id plays at, or None for ``random`` (and unknown ids)."""
    return STRENGTHS.get(LEGACY_BOTS.get(bot, bot))


# --- the Riddler ----------------------------------------------------------------------------


def link(a: str, b: str, language: str) -> float:
    """How strongly a person links two words (the Riddler's model); unrelated is 0."""
    return max(0.0, similarity(a, b, language))


@cache
def _deck_links(language: str) -> tuple[dict[str, int], tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """For the language's built-in deck, computed once: every word's index, and two readings
    of every pair: the curated themes alone and the embedding alone (each cut at 0)."""
    words = builtin_words(language)
    themed = tuple(tuple(association(a, b, language) for b in words) for a in words)
    embedded = tuple(tuple(max(0.0, embedding(a, b, language)) for b in words) for a in words)
    return {w: i for i, w in enumerate(words)}, themed, embedded


MARGIN_STEPS = 100  # the logistic of a link margin, tabulated per hundredth (from -4 to 4)
_LOGISTIC = [
    1.0 / (1.0 + math.exp(-(i / MARGIN_STEPS - 4.0) / RIDDLE_TEMPERATURE)) for i in range(8 * MARGIN_STEPS + 1)
]
ANSWERS_WEIGHED = 5  # the hand's answers with the strongest links, whose riddles are searched


def _beats(own: float, totals: list[float]) -> float:
    """The chance a card with total link ``own`` beats PUBLIC_FROM_SUPPLY cards drawn from
    cards with these totals (each beaten with the logistic chance of the margin)."""
    top = len(_LOGISTIC) - 1
    shift = (own + 4.0) * MARGIN_STEPS
    beaten = sum(_LOGISTIC[min(top, max(0, int(shift - t * MARGIN_STEPS)))] for t in totals)
    return (beaten / len(totals)) ** PUBLIC_FROM_SUPPLY


def _likely_answers(hand: list[str], language: str) -> list[str]:
    """The ``ANSWERS_WEIGHED`` cards of the hand with the most link to their 5 closest
    others: a riddle needs related hints, so the rest cannot win the search below."""

    def pull(answer: str) -> float:
        return sum(sorted((link(answer, c, language) for c in hand if c != answer), reverse=True)[:HINTS])

    return sorted(hand, key=lambda c: (-pull(c), c))[:ANSWERS_WEIGHED]


def best_riddle(hand: list[str], language: str) -> tuple[str, list[str]]:
    """The hand's most solvable riddle (:func:`_best_riddle`; the same hand gets the same
    riddle, so a replayed or re-asked preparation costs nothing)."""
    answer, hints = _best_riddle(tuple(hand), language)
    return answer, list(hints)


@lru_cache(maxsize=256)
def _best_riddle(hand: tuple[str, ...], language: str) -> tuple[str, tuple[str, ...]]:
    """The hand's most solvable riddle: answer and 5 hints, the most telling hint first.

    A riddle is as good as the chance that the answer, among 15 cards from the rest of the
    deck, is the card the hints link to most, read by the themes alone and by the embedding
    alone: the lower of the two counts, so a riddle must read well either way. For the
    built-in deck each answer gets its hints one at a time, each time the card that raises
    that chance most; the answer whose riddle is best wins. Custom decks (no themes) take
    each answer's 5 most similar cards and the answer they add up to most for."""
    known = themes(language)
    if not all(c in known for c in hand):
        return _closest_riddle(hand, language)
    index, themed, embedded = _deck_links(language)
    held = {index[c] for c in hand}
    rivals = [i for i in range(len(index)) if i not in held]
    best: tuple[float, str, list[str]] | None = None
    for answer in _likely_answers(list(hand), language):
        a = index[answer]
        hints: list[str] = []
        sums = [[0.0] * len(rivals), [0.0] * len(rivals)]
        own = [0.0, 0.0]
        quality = 0.0
        for _ in range(HINTS):
            options = []
            for card in hand:
                if card == answer or card in hints:
                    continue
                c = index[card]
                q = min(
                    _beats(own[m] + table[c][a], [t + table[c][r] for t, r in zip(sums[m], rivals, strict=True)])
                    for m, table in enumerate((themed, embedded))
                )
                options.append((q, card))
            quality, pick = max(options)
            hints.append(pick)
            c = index[pick]
            for m, table in enumerate((themed, embedded)):
                own[m] += table[c][a]
                sums[m] = [t + table[c][r] for t, r in zip(sums[m], rivals, strict=True)]
        if best is None or quality > best[0]:
            best = (quality, answer, hints)
    assert best is not None
    _, answer, hints = best
    return answer, tuple(sorted(hints, key=lambda h: (-link(h, answer, language), h)))


def _closest_riddle(hand: tuple[str, ...], language: str) -> tuple[str, tuple[str, ...]]:
    """For a custom deck: each answer's 5 most similar cards, and the answer they add up to
    most for."""
    scored = []
    for answer in hand:
        closest = sorted((c for c in hand if c != answer), key=lambda c: (-similarity(answer, c, language), c))[:HINTS]
        scored.append((sum(similarity(answer, h, language) for h in closest), answer, tuple(closest)))
    _, best_answer, best_hints = max(scored)
    return best_answer, best_hints


def telling(hint: str, answer: str, others: list[str], language: str) -> float:
    """How well a hint points at the answer among the other live cards: its link to the
    answer, less half its strongest link to another card."""
    return link(hint, answer, language) - 0.5 * max((link(hint, c, language) for c in others), default=0.0)


def disruptors_answer(cur: dict[str, Any], language: str) -> str:
    """The card a Disruptor takes for the answer: it sees all 5 hints (never the answer), so
    the live card they link to most."""
    return max(live_cards(cur), key=lambda c: (sum(link(h, c, language) for h in cur["hints"]), c))


# --- the Solver -----------------------------------------------------------------------------


def live_cards(cur: dict[str, Any]) -> list[str]:
    return [c for c in cur["public"] if c not in cur["wrong"]]


def _noise(round_key: int, a: str, b: str) -> float:
    """This Solver's own error on the pair (a, b) this round, uniform in [-1, 1] (the caller
    scales it): the same at every look, so a bot's reading of a pair holds all round."""
    pair = f"{a}|{b}" if a < b else f"{b}|{a}"
    return 2.0 * Rng(zlib.crc32(pair.encode(), round_key)).random() - 1.0


def _round_key(seat: int, public: list[str]) -> int:
    """A key for one Solver in one round (its public area), from which its noise is drawn."""
    return zlib.crc32(f"{seat}|{'|'.join(public)}".encode())


def card_scores(cur: dict[str, Any], seat: int, level: Strength, language: str) -> list[tuple[float, str]]:
    """Each live public card's evidence, as this Solver reads it: the sum over the revealed
    hints of its embedding link to the hint (with its own noise), the Riddler's first hint
    weighing most (1/(1+i/2) for the i-th); best first."""
    key = _round_key(seat, cur["public"])
    scored = []
    for card in live_cards(cur):
        s = 0.0
        for i, h in enumerate(cur["revealed"]):
            heard = embedding_similarity(h, card, language) + level.noise * _noise(key, h, card)
            s += max(0.0, heard) / (1 + i / 2)
        scored.append((s, card))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def belief(scored: list[tuple[float, str]]) -> float:
    """How sure the Solver is of the best card: its share of ``exp(SHARPNESS * evidence)``
    over the live cards (each card equally likely before any hint)."""
    top = scored[0][0]
    return 1.0 / sum(math.exp(SHARPNESS * (s - top)) for s, _ in scored)


def confidence_needed(cur: dict[str, Any], seat: int, level: Strength) -> float:
    """The strength's confidence, lowered when a miss is cheap (a spare chance) and for each
    other Solver still in the race (waiting lets a rival take the riddle)."""
    needed = level.confidence
    if cur["chances"][seat] > 1:
        needed *= SPARE_CHANCE_FACTOR
    return needed * RIVAL_FACTOR ** sum(1 for s in cur["solvers"] if s != seat and cur["chances"][s] > 0)


# --- the policies -----------------------------------------------------------------------------


def player_action(state: State, seat: int, level: Strength, rng: Rng) -> dict[str, Any]:
    phase = state["phase"]
    cur = state["cur"]
    language = state["language"]
    if phase == "prepare":
        answer, hints = best_riddle(state["hands"][seat], language)
        return {"type": "prepare", "answer": answer, "hints": hints}
    if phase == "reveal":
        unrevealed = [h for h in cur["hints"] if h not in cur["revealed"]]
        if not level.careful_disruptor:
            return {"type": "reveal", "hint": rng.choice(unrevealed)}
        answer = disruptors_answer(cur, language)  # a Disruptor sees the hints, not the answer
        others = [c for c in live_cards(cur) if c != answer]
        return {"type": "reveal", "hint": min(unrevealed, key=lambda h: (telling(h, answer, others, language), h))}
    if phase == "order":
        others = [c for c in live_cards(cur) if c != cur["answer"]]
        ordered = sorted(cur["revealed"], key=lambda h: (-telling(h, cur["answer"], others, language), h))
        return {"type": "order", "hints": ordered}
    # guess
    scored = card_scores(cur, seat, level, language)
    if len(cur["revealed"]) == HINTS or belief(scored) >= confidence_needed(cur, seat, level):
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
    level = strength(bot)
    if level is None:
        return random_action(state, seat, Rng.from_seed(seed))
    return player_action(state, seat, level, Rng.from_seed(seed))


def think_seconds(state: State, seat: int, bot: str, seed: int) -> float | None:
    """How long a bot Solver thinks before it answers the hints it sees (guesses or passes):
    its strength's minimum plus an exponential spread (capped at 3 means), never under
    ``MIN_THINK``. None (the server's usual bot delay) for every other move."""
    if state["phase"] != "guess" or seat not in to_act(state):
        return None
    level = strength(bot) or STRENGTHS["normal"]  # a random bot takes its time like anyone
    extra = -math.log(1.0 - Rng.from_seed(seed).random()) * level.think_spread
    return max(MIN_THINK, level.think + min(extra, 3 * level.think_spread))
