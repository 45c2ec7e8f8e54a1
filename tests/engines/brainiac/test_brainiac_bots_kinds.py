"""The bots' fallback bluff (a pack without decoys) is of the kind the question asks for, in
English and in German: a year for a year, a city for a city, a person for a person.

Two measures over the built-in banks with their decoys removed (played as a custom pack, so
without categories), each question's fallback bluff for two seeds:

- *same kind* (strict): the bluff is in the right answer's decoy class (answers joined by
  standing together as a question's answer and decoys in the bank: Nile, Tigris and
  Euphrates; Wien, Salzburg and Graz), or both question and bluff are about persons (the
  bluff is the answer or a decoy of a question asking for a person). A river for a river of
  another class (Main for Aare) or a capital for a capital (Rome for Madrid's class) counts
  as a miss, so this is a floor.
- *on topic* (lenient, as ``test_brainiac_bots_on_topic.on_topic``): same kind, or the
  answer of another bank question of the same category or sharing a content word.

Figures in docs/bots.md, "Brainiac bots".
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

import pytest

from geniusnight.engines import Rng
from geniusnight.engines.brainiac import bots
from geniusnight.engines.brainiac.cards import card_questions
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import asks_for_person, judge, normalise

STOP = {
    "en": {"the", "what", "which", "that", "with", "from", "this", "does", "have", "known", "name", "called"},
    "de": {"der", "die", "das", "den", "dem", "des", "welche", "welcher", "welches", "welchem", "welchen", "wie"},
}
STOP["de"] |= {"heisst", "hiess", "nennt", "man", "ist", "war", "von", "mit", "aus", "und", "einer", "eine", "einem"}


@cache
def raw_bank(lang: str) -> list[dict[str, Any]]:
    path = resources.files("geniusnight.engines.brainiac").joinpath(f"content/{lang}/questions.json")
    cards: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cards"]
    return cards


def questions(lang: str) -> list[tuple[str, dict[str, Any]]]:
    return [(card["category"], q) for card in raw_bank(lang) for q in card["questions"]]


def stems(text: str, lang: str) -> set[str]:
    return {w[:5] for w in normalise(text, lang).split() if len(w) > 2 and w not in STOP[lang]}


class Kinds:
    """The bank's answers by decoy class, and who is a person (see the module docstring)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.parent: dict[str, str] = {}
        self.people: set[str] = set()
        for _, q in questions(lang):
            group = [normalise(x, lang) for x in (q["a"][0], *q.get("d", ()))]
            for x in group[1:]:
                self.parent[self.root(x)] = self.root(group[0])
            if asks_for_person(q["q"], lang):
                self.people.update(group)

    def root(self, x: str) -> str:
        while self.parent.setdefault(x, x) != x:
            x = self.parent[x]
        return x

    def same(self, guess: str, question: str, answer: str) -> bool:
        g, a = normalise(guess, self.lang), normalise(answer, self.lang)
        return self.root(g) == self.root(a) or (asks_for_person(question, self.lang) and g in self.people)


def on_topic(lang: str, guess: str, question: str, category: str) -> bool:
    words = stems(question, lang)
    return any(
        guess == q["a"][0] and q["q"] != question and (c == category or words & stems(q["q"], lang))
        for c, q in questions(lang)
    )


@cache
def fallback_shares(lang: str) -> tuple[float, float, int]:
    """(same kind, on topic, bluffs) over the bank without decoys, numbers and expansions
    ("What does X stand for?") left out: those have rules of their own."""
    cards = [[{"q": q["q"], "a": q["a"]} for q in card["questions"]] for card in raw_bank(lang)]
    state = {"cards": cards, "language": lang}
    kinds = Kinds(lang)
    same = topical = n = 0
    for category, q in questions(lang):
        answer = q["a"][0]
        if re.fullmatch(r"[\d.,/:% -]+", answer) or bots.guess_words(lang).stands_for.search(q["q"]):
            continue
        for seed in range(2):
            guess = bots.wrong_answer(state, q["q"], q["a"], Rng.from_seed(seed))
            assert not judge(guess, q["a"], q["q"], lang)
            n += 1
            is_same = kinds.same(guess, q["q"], answer)
            same += is_same
            topical += is_same or on_topic(lang, guess, q["q"], category)
    return same / n, topical / n, n


@pytest.mark.parametrize(("lang", "same_floor", "topic_floor"), [("en", 0.38, 0.95), ("de", 0.35, 0.9)])
def test_a_pack_without_decoys_gets_bluffs_of_the_kind_asked(lang: str, same_floor: float, topic_floor: float) -> None:
    same, topical, n = fallback_shares(lang)
    assert n > 1000
    assert same >= same_floor and topical >= topic_floor, (same, topical)


KINDS_DE = [
    ("Aus welchem Land stammt die Pizza?", "land"),
    ("In welcher Stadt steht die Semperoper?", "stadt"),
    ("In welchem Jahr fiel die Berliner Mauer?", "jahr"),
    ("Welcher Fluss fließt durch Bern?", "fluss"),
    ("Welche schwedische Band gewann 1974 den Eurovision Song Contest?", "band"),
    ("Welche Liverpooler Band bestand aus John, Paul, George und Ringo?", "band"),
    ("Was ist die Hauptstadt Österreichs?", "hauptstadt"),
    ("Wie heißt der höchste Berg Deutschlands?", "berg"),
    ("Wie heißt Deutschlands längster Fluss?", "fluss"),
    ("Wie heißt Michael Endes Roman über ein Mädchen?", "roman"),
    ("Wie heißt Astrid Lindgrens stärkstes Mädchen der Welt?", "maedch"),
    ("Welcher ist der längste Fluss Europas?", "fluss"),
    ("Welches Gas brauchen Menschen zum Atmen?", "gas"),
    ("Wie heißt das Ergebnis einer Division?", "ergebnis"),
    ("Wie heißt das Schweizer Gericht aus geriebenen Kartoffeln?", "gericht"),
    ("Aus der Rinde welches Baumes wird Kork gewonnen?", "baum"),
    ("Welches ist das größte Organ des Menschen?", "organ"),
    ("Wie nennt man ein junges Pferd?", "pferd"),
    ("Wie heißt die Cowboy-Puppe in „Toy Story“?", "pupp"),
    ("Welche der vier Grundzutaten heutigen Biers fehlt?", "grundzutat"),
    ("Mit welchem Organ denken wir?", "organ"),
    ("Wer malte die Mona Lisa?", "person"),
    ("Welcher deutsche Autor schrieb „Das Parfum“?", "person"),
    ("Welcher Held tötete den Minotaurus?", "person"),
    ("Welcher österreichische Skirennläufer wurde „Herminator“ genannt?", "person"),
    ("Wie viele Beine hat eine Spinne?", None),
    ("Was bedeutet „carpe diem“?", None),
]


@pytest.mark.parametrize(("question", "kind"), KINDS_DE)
def test_the_kind_of_a_german_question_is_its_head_noun(question: str, kind: str | None) -> None:
    assert bots._kind(question, "de") == (frozenset({kind}) if kind else frozenset())


def german_pack() -> list[list[dict[str, Any]]]:
    """Twelve cards without decoys: cities, rivers, countries, people and years."""
    cities = ["Berlin", "Hamburg", "München", "Köln", "Dresden", "Leipzig", "Bremen", "Hannover", "Bonn", "Kiel"]
    rivers = ["Rhein", "Donau", "Elbe", "Weser", "Main", "Mosel", "Oder", "Inn", "Isar", "Neckar"]
    lands = ["Italien", "Spanien", "Polen", "Ungarn", "Schweden", "Norwegen", "Kroatien", "Portugal", "Irland"]
    people = ["Johann Sebastian Bach", "Thomas Mann", "Albert Einstein", "Marie Curie", "Robert Koch"]
    people += ["Konrad Adenauer", "Angela Merkel", "Max Planck", "Clara Schumann"]
    kinds = [
        [(f"In welcher Stadt steht das Bauwerk Nummer {i}?", c) for i, c in enumerate(cities)],
        [(f"An welchem Fluss liegt der Ort Nummer {i}?", r) for i, r in enumerate(rivers)],
        [(f"Aus welchem Land stammt das Gericht Nummer {i}?", land) for i, land in enumerate(lands)],
        [(f"Wer erfand die Maschine Nummer {i}?", p) for i, p in enumerate(people)],
        [(f"In welchem Jahr geschah das Ereignis Nummer {i}?", str(1800 + 17 * i)) for i in range(9)],
    ]
    flat = [{"q": q, "a": [a]} for i in range(9) for group in kinds for q, a in [group[i]]]
    flat += [{"q": f"Wie heißt das Zeichen Nummer {i}?", "a": [a]} for i, a in enumerate(["Alpha", "Beta", "Gamma"])]
    return [flat[c * 4 : c * 4 + 4] for c in range(12)]


def test_a_german_pack_without_decoys_gets_bluffs_of_the_same_kind() -> None:
    cards = german_pack()
    kind_of = {q["a"][0]: q["q"].split()[2] for card in cards for q in card}  # Stadt, Fluss, Land, die, Jahr, das
    state: dict[str, Any] = {"cards": cards, "language": "de"}
    for card in cards:
        for q in card:
            guesses = {bots.wrong_answer(state, q["q"], q["a"], Rng.from_seed(k)) for k in range(6)}
            assert guesses and q["a"][0] not in guesses
            for guess in guesses:
                want = kind_of[q["a"][0]]
                assert kind_of.get(guess, "Jahr" if guess.isdigit() else None) == want, (q["q"], guess)


def test_german_bots_play_a_pack_without_decoys_to_the_end_with_on_topic_misses() -> None:
    cards = german_pack()
    kind_of = {q["q"]: q["q"].split()[2] for card in cards for q in card}
    answer_kind = {q["a"][0]: kind_of[q["q"]] for card in cards for q in card}
    wrong = 0
    for seed in range(4):
        s = E.setup(3 + seed, {"cards": cards, "language": "de"}, seed=seed)
        step = 0
        while E.outcome(s) is None:
            seat = min(E.to_act(s))
            a = E.bot_action(s, seat, "trivia", seed * 1000 + step)
            assert a is not None
            if a["type"] == "answer" and a["text"] not in E.accepted(s):
                question = card_questions(s, s["hand"][s["genius"]])[s["question"]][0]
                want = kind_of[question]
                assert answer_kind.get(a["text"], "Jahr" if a["text"].isdigit() else None) == want
                wrong += 1
            s = E.apply(s, seat, a)
            step += 1
    assert wrong > 10
