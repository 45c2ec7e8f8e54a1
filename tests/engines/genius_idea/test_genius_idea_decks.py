"""The built-in decks, one per content language (docs/rules/genius-idea.md, "Options" and
"Bots"): each is 243 unique single-word cards with themes and an embedding row for every
word; a room deals from its language's deck, its bots read that language's tables, custom
decks play in any language, and games stored before the option load as English."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from geniusnight.engines import IllegalAction
from geniusnight.engines.base import content_languages
from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea import bots
from geniusnight.engines.genius_idea.engine import LANGUAGES
from geniusnight.engines.genius_idea.similarity import (
    association,
    builtin_words,
    fallback_similarity,
    glosses,
    similarity,
    themes,
)

PACKAGE = "geniusnight.engines.genius_idea"
ARTICLES = ("der ", "die ", "das ", "ein ", "eine ")


def raw_table(language: str) -> dict[str, Any]:
    folder = resources.files(PACKAGE).joinpath("content").joinpath(language)
    return json.loads(folder.joinpath("similarity.json").read_text(encoding="utf-8"))


def play_to_the_end(state: dict[str, object], bot: str, seed: int) -> dict[str, object]:
    for step in range(3000):
        if E.outcome(state) is not None:
            return state
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, bot, seed * 7919 + step)
        assert action is not None
        state = E.apply(state, seat, action)
    raise AssertionError("the game did not end")


def test_the_game_has_an_english_and_a_german_deck_english_first() -> None:
    assert LANGUAGES == content_languages(PACKAGE) == ("en", "de")
    (option,) = [o for o in E.info.options if o.name == "language"]
    assert option.kind == "choice" and option.choices == ("en", "de") and option.default == "en"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_deck_has_243_unique_single_word_cards(language: str) -> None:
    words = builtin_words(language)
    assert len(words) == 243
    assert len({w.casefold() for w in words}) == 243, "two cards differ only in case"
    assert all(w and not any(ch.isspace() for ch in w) for w in words), "a card of more than one word"


def test_the_english_cards_are_lower_case_and_the_german_cards_capitalised_nouns_without_article() -> None:
    assert all(w.isalpha() and w.islower() for w in builtin_words("en"))
    german = builtin_words("de")
    assert all(w[0].isupper() and w.replace("-", "").isalpha() for w in german)
    assert not any(w.lower().startswith(ARTICLES) for w in german)
    assert {"Apfel", "Hund", "Schule", "Mond"} <= set(german)
    assert not set(german) & set(builtin_words("en")), "a German card is spelled as an English one"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_has_themes_shared_with_several_other_cards(language: str) -> None:
    words = builtin_words(language)
    assert set(themes(language)) == set(words)
    for word in words:
        assert len(themes(language)[word]) >= 3, word  # its name and at least 2 themes
        related = [w for w in words if w != word and association(word, w, language) > 0]
        assert len(related) >= 4, word


# Each deck's own scenes: the German ones are German cards (Ostern and Weihnachten have no
# English card), not glosses of the English ones.
SCENES = {
    "en": {
        "zoo": ("lion", "elephant", "giraffe", "penguin", "crocodile"),
        "night": ("moon", "owl", "bat", "pillow"),
        "birthday": ("cake", "balloon", "gift", "clown"),
        "fruit": ("apple", "banana", "cherry"),
        "sailor": ("ship", "anchor", "lighthouse"),
    },
    "de": {
        "Zoo": ("Löwe", "Elefant", "Giraffe", "Pinguin", "Krokodil"),
        "Nacht": ("Mond", "Eule", "Fledermaus", "Kissen"),
        "Geburtstag": ("Kuchen", "Luftballon", "Geschenk", "Clown", "Kerze"),
        "Obst": ("Apfel", "Banane", "Kirsche"),
        "Matrose": ("Schiff", "Anker", "Leuchtturm"),
        "Weihnachten": ("Kerze", "Stern", "Geschenk", "Keks"),
        "Ostern": ("Hase", "Ei", "Nest", "Korb", "Schokolade"),
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_scene_cards_link_to_the_cards_of_their_scene(language: str) -> None:
    """The deck holds scene cards so a random hand more often has several cards a person links
    to one answer (docs/rules/genius-idea.md, "Built-in decks"); in German too."""
    for scene, members in SCENES[language].items():
        for member in members:
            assert association(scene, member, language) >= 0.15, (scene, member)
        assert len([w for w in builtin_words(language) if association(scene, w, language) >= 0.2]) >= 8


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_themes_link_deck_words_directly_as_the_english_file_does(language: str) -> None:
    """A deck word named among another's themes ("cheese" on the pizza line) links the two;
    the German file keeps as many such direct links as the English one."""
    words = set(builtin_words(language))
    direct = sum(len((t - {w}) & words) for w, t in themes(language).items())
    english = sum(len((t - {w}) & set(builtin_words("en"))) for w, t in themes("en").items())
    assert direct >= 0.95 * english


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_similarity_table_covers_exactly_its_deck_and_is_symmetric(language: str) -> None:
    raw = raw_table(language)
    assert raw["words"] == list(builtin_words(language))
    m = raw["matrix"]
    assert isinstance(m, list) and len(m) == 243 and all(len(row) == 243 for row in m)
    assert all(abs(m[i][j] - m[j][i]) <= 1 for i in range(243) for j in range(i, 243))
    assert all(m[i][i] >= 999 for i in range(243))


def test_every_german_card_has_an_english_gloss_and_the_table_was_made_from_them() -> None:
    gloss = glosses("de")
    assert set(gloss) == set(builtin_words("de"))
    assert all(g and g.isascii() and g == g.lower() for g in gloss.values())
    assert len(set(gloss.values())) == 243, "two German cards with one gloss"
    assert "glosses" in str(raw_table("de")["model"])
    # a gloss that is an English card reads as that card: the model embeds the same text
    en, de = raw_table("en"), raw_table("de")
    row = {w: i for i, w in enumerate(en["words"])}
    for a, b in (("Hund", "Katze"), ("Sand", "Strand"), ("Lehrer", "Schule")):
        i, j = de["words"].index(a), de["words"].index(b)
        assert abs(de["matrix"][i][j] - en["matrix"][row[gloss[a]]][row[gloss[b]]]) <= 1


def test_the_german_deck_carries_the_senses_and_links_german_people_make() -> None:
    """Not the English deck translated: a gloss names the German sense (Eis is ice cream
    first), the themes are German links, and links only English makes are gone."""
    gloss, linked = glosses("de"), themes("de")
    assert gloss["Eis"].startswith("ice cream") and gloss["Drache"] == "dragon, kite"
    assert {"Sommer", "Eisdiele", "Waffel"} <= linked["Eis"]
    assert "Kuchen" in linked["Kaffee"] and "Ostern" in linked["Hase"]  # Kaffee und Kuchen, Osterhase
    # the English deck's apple for the teacher, bell pepper and clock on the wall (Mauer)
    assert association("Apfel", "Lehrer", "de") == 0
    assert "Gemüse" not in linked["Pfeffer"] and "Mauer" not in linked["Uhr"]
    # the glosses made a table of its own: ice cream is nearer chocolate than the English ice is
    en, de = raw_table("en"), raw_table("de")
    row = {w: i for i, w in enumerate(en["words"])}
    i, j = de["words"].index("Eis"), de["words"].index("Schokolade")
    assert de["matrix"][i][j] > en["matrix"][row["ice"]][row["chocolate"]] + 50


def test_german_words_relate_as_people_link_them() -> None:
    assert similarity("Hund", "Katze", "de") > similarity("Hund", "Klavier", "de")
    assert similarity("Planet", "Stern", "de") > 0.5 > 0.1 > similarity("Planet", "Schildkröte", "de")
    # a German word outside the German deck reads with the string measure
    assert similarity("Sonnenblume", "Sonne", "de") == fallback_similarity("Sonnenblume", "Sonne") > 0.2


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_german_room_deals_german_cards(players: int) -> None:
    state = E.setup(players, {"language": "de"}, 11)
    dealt = [c for hand in state["hands"] for c in hand] + state["supply"]
    assert sorted(dealt) == sorted(builtin_words("de"))
    assert state["language"] == "de"
    assert all(c in builtin_words("de") for c in E.view(state, 0)["hand"])


def test_a_room_without_the_option_deals_the_english_deck() -> None:
    assert E.validate_options(3, {})["language"] == "en"
    state = E.setup(3, {}, 11)
    dealt = [c for hand in state["hands"] for c in hand] + state["supply"]
    assert state["language"] == "en" and sorted(dealt) == sorted(builtin_words("en"))


@pytest.mark.parametrize("value", ["fr", "", "EN", 3, None, ["de"]])
def test_a_language_the_game_has_no_deck_for_is_refused(value: object) -> None:
    with pytest.raises(IllegalAction) as info:
        E.validate_options(3, {"language": value})
    assert info.value.code == "bad_option"


def test_the_german_riddler_builds_its_riddle_from_german_links() -> None:
    hand = ["Biene", "Honig", "Blume", "Schmetterling", "Garten", "Klavier", "Rakete", "Seife", "Leiter", "Anker"]
    answer, hints = bots.best_riddle(hand, "de")
    garden = {"Biene", "Honig", "Blume", "Schmetterling", "Garten"}
    assert answer in garden and len(garden & set(hints)) == 4


def test_a_german_solver_reads_german_hints() -> None:
    cur = {"public": ["Meer", "König", "Kaffee"], "wrong": [], "revealed": ["Strand", "Königin"]}
    assert bots.card_scores(cur, 1, bots.STRENGTHS["sharp"], "de")[0][1] == "Meer"
    cur["revealed"] = ["Königin", "Strand"]
    assert bots.card_scores(cur, 1, bots.STRENGTHS["sharp"], "de")[0][1] == "König"


@pytest.mark.parametrize("bot", ["random", "easy", "normal", "sharp"])
@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_a_german_game_to_the_end(bot: str, players: int) -> None:
    state = play_to_the_end(E.setup(players, {"language": "de"}, 3), bot, 3)
    played = {c for r in state["history"] for c in [r["answer"], *r["revealed"]]}  # type: ignore[attr-defined]
    assert played and played <= set(builtin_words("de"))


def test_a_german_room_with_a_custom_deck_deals_it_and_its_bots_play_it_with_the_string_measure() -> None:
    words = [f"Wort{i}" for i in range(80)]
    state = E.setup(3, {"language": "de", "words": words, "shuffle": False}, 1)
    assert state["hands"][0] == words[:10]
    play_to_the_end(state, "sharp", 1)


def test_a_game_stored_before_the_language_option_loads_as_english_and_plays_on() -> None:
    state = E.setup(3, {}, 4)
    stored = {k: v for k, v in E.dump(state).items() if k != "language"}
    loaded = E.load(json.loads(json.dumps(stored)))
    assert loaded["language"] == "en" and E.view(loaded, 0) == E.view(state, 0)
    play_to_the_end(loaded, "normal", 4)


def test_a_stored_game_in_a_language_without_a_deck_is_refused() -> None:
    stored = {**E.dump(E.setup(3, {}, 4)), "language": "xx"}
    with pytest.raises(IllegalAction) as info:
        E.load(stored)
    assert info.value.code == "bad_state"
