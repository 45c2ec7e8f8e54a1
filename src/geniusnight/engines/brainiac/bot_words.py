"""One language's words for the bots' wrong guesses (``bots.py``): which words of a question
say nothing about it, and how a question names the kind of answer it wants ("which
country", "Welches Land", "what is the largest planet", "Wie heißt der höchste Berg").

Words are in lower case, German umlauts as ae/oe/ue and ß as ss, as the judge's normal form
spells them. A language without an entry reads as English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class GuessWords:
    """How the bots read one language's questions."""

    stop: frozenset[str]  # words that say nothing about the question's topic
    ask: frozenset[str]  # the words before the kind of answer: "which", "what"; "welcher", "was"
    bare_ask: frozenset[str]  # ask words that name a kind only with a linking verb ("wie heißt", "was ist")
    determiners: frozenset[str]  # ask words and articles that determine the noun after them
    kind_of: frozenset[str]  # "type of X", "kind of X", "Art von X": X is the kind
    kind_of_link: frozenset[str]  # the "of" of "type of"
    link: frozenset[str]  # linking verbs: "what is the largest planet", "Wie heißt der Fluss"
    skip: frozenset[str]  # words skipped after a linking verb ("the name of the", "der")
    end: frozenset[str]  # words that end the phrase naming the kind (a verb, a preposition)
    superlative: tuple[str, ...]  # endings of a superlative skipped after a linking verb ("largest")
    verb: tuple[str, ...]  # endings of a verb that ends the phrase ("painted")
    stands_for: re.Pattern[str]  # a question asking what an abbreviation stands for
    # nouns are written with a capital (German): the kind is the phrase's head noun, and
    # a compound names the kind of its last part ("Hauptstadt" is a "Stadt")
    capital_nouns: bool = False
    # head nouns of a person or a person's name, and of compounds ending in one
    # ("Radrennfahrer"), beside the judge's kinds of person (``judge.OTHER_WORDS``)
    people: tuple[str, ...] = ()
    letters: tuple[tuple[str, str], ...] = ()  # letters spelled out in the words above ("ä" as "ae")

    def spelled(self, word: str) -> str:
        """``word`` in lower case with the letters spelled as in these lists."""
        word = word.casefold()
        for letter, spelling in self.letters:
            word = word.replace(letter, spelling)
        return word

    def skipped(self, word: str) -> bool:
        """Whether ``word`` is passed over after a linking verb: "the", "name", "largest"."""
        return word in self.skip or word.endswith(self.superlative)


def _words(*groups: str) -> frozenset[str]:
    return frozenset(word for group in groups for word in group.split())


GUESS_WORDS = {
    "en": GuessWords(
        stop=_words(
            "a an and are as at be by called can did do does for from has have in is it its known name",
            "of on or that the this to us was were what which with call you we your",
        ),
        ask=_words("which what"),
        bare_ask=frozenset(),
        determiners=_words("which what the a an"),
        kind_of=_words("type kind sort breed species"),
        kind_of_link=_words("of"),
        link=_words("is was are were"),
        skip=_words("the a an of for name term word called most main only"),
        end=_words(
            "is was are were do does did has have had can could would will the a an of in on to from",
            "for by with that at which who whose where when like as than and or",
            "built made wrote won became gave took lies flows carry carries",
        ),
        superlative=("est",),
        verb=("ed",),
        stands_for=re.compile(r"\bstands? for\b", re.IGNORECASE),
    ),
    "de": GuessWords(
        stop=_words(
            "der die das den dem des ein eine einer eines einem einen und oder als wie was wer wen wem",
            "welcher welche welches welchen welchem ist war sind waren hat hatte haben wird wurde wurden",
            "im am an auf aus bei mit von vom zu zum zur nach fuer ueber unter um durch gegen man sich",
            "heisst hiess heissen hiessen nennt nennen lautet lauten gilt",
        ),
        ask=_words("welcher welche welches welchen welchem was wie"),
        bare_ask=_words("was wie"),
        determiners=_words(
            "welcher welche welches welchen welchem der die das den dem des ein eine einen einem einer eines"
        ),
        kind_of=_words("art sorte"),
        kind_of_link=_words("von"),
        link=_words("ist war sind waren heisst hiess heissen hiessen nennt nennen lautet lauten"),
        skip=_words("man der die das den dem des ein eine einen einem einer eines"),
        end=_words(
            "ist war sind waren hat hatte haben wird wurde wurden kann gilt gibt gab liegt lag",
            "im am an auf aus bei mit von vom zu zum zur nach fuer ueber unter um durch gegen",
            "in wie als neben zwischen vor hinter seit ohne bis wegen waehrend",
        ),
        superlative=(),  # a German adjective before the noun is written small: the noun is found anyway
        verb=(),
        stands_for=re.compile(r"\bwof(?:ü|ue)r steh(?:t|en)\b", re.IGNORECASE),
        capital_nouns=True,
        people=tuple(
            _words(
                "held heldin deutsche deutscher chef baller nachnam vornam boxer boxerin",
                "fahrer fahrerin seefahrer baumeister arzt aerztin lehrer lehrerin kommissar kommissarin",
                "kapitaen trainer torwart stuermer politiker politikerin reformator prinz prinzessin",
                "herzog herzogin fuerst ritter zauberer detektiv moderator moderatorin regisseurin",
                "erfinderin entdeckerin schwimmer schwimmerin laeufer laeuferin spieler spielerin",
                "saenger saengerin komponist komponistin maler malerin dichter dichterin autor autorin",
                "kaiser kaiserin koenig koenigin papst kanzler kanzlerin forscher forscherin physiker chemiker",
            )
        ),
        letters=(("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")),
    ),
}


def guess_words(language: str) -> GuessWords:
    return GUESS_WORDS.get(language, GUESS_WORDS["en"])
