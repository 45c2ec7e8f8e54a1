"""Brainiac or IDIOT!: the state's shape, its constants and the question cards, shared by the
rules (``rules.py``), the views (``view.py``), the bots (``bots.py``) and the engine
(``engine.py``). Rulings: docs/rules/brainiac.md."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from ..base import DEFAULT_LANGUAGE, LANGUAGE_OPTION, IllegalAction
from . import packs
from .judge import known_answers

State = dict[str, Any]
Card = list[dict[str, Any]]

OPTION_NAMES = ("cards", "whoami", "shuffle", "first_genius", LANGUAGE_OPTION)
IDIOT, BRAINIAC = "idiot", "brainiac"
# the phases of a round in play, between its deal and its scoring
ROUND_PHASES = ("ask", "answer", "judge", "dispute", "accuse")
WHOAMI_IDIOTS, WHOAMI_BRAINIACS = 12, 48
MAX_ANSWER_CHARS = 200
MAX_WHOAMI = 600
# A game whose tie lasts this many extra questions ends with the tied players sharing the
# win: a safety valve so that no game can run for ever.
MAX_TIE_ROUNDS = 60


def default_whoami() -> list[str]:
    """The unshuffled WHOAMI deck: four Brainiacs then an IDIOT, twelve times (60 cards)."""
    return ([BRAINIAC] * 4 + [IDIOT]) * WHOAMI_IDIOTS


def rounds_for(players: int) -> int:
    """Regular rounds: everyone is Genius twice, three times with 3 players."""
    return players * (3 if players == 3 else 2)


def language(state: State) -> str:
    """The language of the game's questions, the one the judge reads: the custom pack's
    declared language, else the room's; a game stored before rooms had a language is English."""
    return str(state.get("language", DEFAULT_LANGUAGE))


@cache
def _builtin(lang: str) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]:
    return tuple(tuple((q["q"], tuple(q["a"])) for q in card) for card in packs.load_builtin_cards(lang))


def validate_cards_option(value: object) -> tuple[list[Card], str | None]:
    """Check the ``cards`` option with the pack validator: a list of cards, or a pack object
    ``{"language": ..., "cards": [...]}``; its cards and declared language. The message names
    the fault."""
    try:
        return packs.validate_pack(value, "Option 'cards'")
    except packs.PackError as e:
        message = str(e)
        prefix = "" if message.startswith("Option 'cards'") else "Option 'cards': "
        raise IllegalAction("bad_option", prefix + message) from None
    except Exception as e:
        raise IllegalAction("bad_option", f"Option 'cards' could not be read ({type(e).__name__}).") from None


def card_entries(cards: list[Card] | None, card: int, lang: str) -> Sequence[tuple[str, Sequence[str]]]:
    """The four (question, accepted answers) of trivia card ``card`` of the pack ``cards``
    (None: the built-in bank of ``lang``), not copied: for views, which only read them (a
    seat's view holds its card's questions on every move)."""
    if cards is None:
        return _builtin(lang)[card]
    return [(q["q"], q["a"]) for q in cards[card]]


def card_questions(state: State, card: int) -> list[tuple[str, list[str]]]:
    """The four (question, accepted answers) of trivia card ``card``, copied."""
    return [(q, list(a)) for q, a in card_entries(state["cards"], card, language(state))]


@cache
def _builtin_decoys(lang: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    return tuple(tuple(tuple(q.get("d", ())) for q in card) for card in packs.load_builtin_cards(lang))


def question_decoys(state: State, card: int, index: int) -> list[str]:
    """The decoys (plausible wrong answers, ``"d"``) of question ``index`` of trivia card
    ``card``; empty where the pack gives none. Only the bots read them, never a view."""
    if state["cards"] is None:
        return list(_builtin_decoys(language(state))[card][index])
    return list(state["cards"][card][index].get("d", ()))


def _texts(cards: list[Card]) -> tuple[str, ...]:
    return tuple(t for card in cards for q in card for t in (*q["a"], *q.get("d", ())))


@cache
def _builtin_others(lang: str) -> frozenset[str]:
    return known_answers(_texts(packs.load_builtin_cards(lang)), lang)


@lru_cache(maxsize=8)
def _pack_others(texts: tuple[str, ...], lang: str) -> frozenset[str]:
    return known_answers(texts, lang)


def known_others(state: State) -> frozenset[str]:
    """The judge's ``others`` for any question of the game's pack: the normal forms (in the
    game's language) of every accepted answer and decoy of the pack (a question's own answers
    among them change nothing, as they match exactly). Built once per pack: a built-in bank's
    is kept, a custom pack's is looked up by its texts."""
    if state["cards"] is None:
        return _builtin_others(language(state))
    return _pack_others(_texts(state["cards"]), language(state))


def card_count(state: State) -> int:
    return len(_builtin(language(state))) if state["cards"] is None else len(state["cards"])
