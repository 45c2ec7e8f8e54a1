"""The language of the cards (docs/rules/brainiac.md, "Language of the cards"): one built-in bank
per language under ``content/<language>/``, the room option ``language`` picks the bank the game
deals from and the language the judge reads; a custom pack may declare its own language; a game
stored before rooms had a language is English."""

from __future__ import annotations

import json
from typing import Any

import pytest
from brainiac_helpers import make_cards

from geniusnight.engines.base import LANGUAGE_OPTION, IllegalAction, content_languages
from geniusnight.engines.brainiac import packs
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import judge, known_answers


def bank(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(packs.bank_file(language).read_text(encoding="utf-8"))
    return data


def numbers_pack() -> list[list[dict[str, Any]]]:
    """Eight cards whose first question accepts only "12" (a number word is read by the judge
    in its language: "twelve" in English, "zwölf" in German)."""
    cards = make_cards(8)
    for c, card in enumerate(cards):
        card[0] = {"q": f"How many months has a year ({c})?", "a": ["12"]}
    return cards


def judged_right(options: dict[str, Any], text: str) -> bool:
    """The engine's verdict on ``text`` as an answer to the first question asked (seat 0's
    card, level 1) of a 3-player game with ``options`` and a fixed deal."""
    s = E.setup(3, {"shuffle": False, **options}, seed=1)
    for seat in range(3):
        s = E.apply(s, seat, {"type": "keep"})
    s = E.apply(s, 0, {"type": "ask", "index": 0})
    s = E.apply(s, 1, {"type": "answer", "text": text})
    s = E.apply(s, 2, {"type": "answer", "text": "no idea"})
    return bool(s["engine_verdicts"][1])


def test_the_languages_are_the_content_folders_english_first() -> None:
    assert packs.LANGUAGES == content_languages("geniusnight.engines.brainiac") == ("en", "de")
    spec = next(o for o in E.info.options if o.name == LANGUAGE_OPTION)
    assert spec.kind == "choice" and spec.choices == ("en", "de") and spec.default == "en"
    assert spec.label == "Language of the cards"


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_built_in_bank_is_complete_and_well_formed(language: str) -> None:
    raw = bank(language)
    cards = packs.load_builtin_cards(language)
    assert len(raw["cards"]) == len(cards) == 180
    assert all(len(card["questions"]) == 4 for card in raw["cards"])  # levels 1-4, easy to hard
    questions = [q for card in cards for q in card]
    keys = [" ".join(q["q"].split()).casefold() for q in questions]
    assert len(set(keys)) == len(keys) == 720
    for q in questions:
        assert q["q"].strip() and q["a"] and all(a.strip() for a in q["a"])
        assert len(set(q["d"])) >= 3, q["q"]  # at least three decoys for the bots to bluff with


# A card's source note says where its answers were checked, in a line or two (the German
# bank's longest is 211 characters). The English bank came before the notes; every bank added
# since names one per card (docs/rules/brainiac-question-packs.md), a third language's too.
SOURCE_NOTE_CHARS = 240


@pytest.mark.parametrize("language", [language for language in packs.LANGUAGES if language != "en"])
def test_every_card_of_a_bank_after_the_english_one_names_its_source_in_a_short_note(language: str) -> None:
    for card in bank(language)["cards"]:
        note = card.get("source")
        assert isinstance(note, str) and note.strip(), f"card {card['id']} names no source"
        assert len(note) <= SOURCE_NOTE_CHARS and "\n" not in note, f"card {card['id']}: the note is not one short line"


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_judge_accepts_each_answer_and_refuses_each_decoy_in_the_banks_language(language: str) -> None:
    cards = packs.load_builtin_cards(language)
    others = known_answers([t for card in cards for q in card for t in (*q["a"], *q["d"])], language)
    for card in cards:
        for q in card:
            for answer in q["a"]:
                assert judge(answer, q["a"], q["q"], language, others), (q["q"], answer)
            for decoy in q["d"]:
                assert not judge(decoy, q["a"], q["q"], language, others), (q["q"], decoy)


def test_the_banks_are_different_languages_of_the_same_size() -> None:
    english = {q["q"] for card in packs.load_builtin_cards("en") for q in card}
    german = {q["q"] for card in packs.load_builtin_cards("de") for q in card}
    assert not english & german
    assert bank("de").get("language") == "de"


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_room_deals_from_the_bank_of_its_language(language: str) -> None:
    s = E.setup(3, {"language": language, "shuffle": False}, seed=4)
    expected = packs.load_builtin_cards(language)
    for seat in range(3):
        card = E.view(s, seat)["card"]
        assert [q["q"] for q in card] == [q["q"] for q in expected[s["hand"][seat]]]
    s = E.apply(E.apply(E.apply(s, 0, {"type": "keep"}), 1, {"type": "keep"}), 2, {"type": "keep"})
    s = E.apply(s, 0, {"type": "ask", "index": 2})
    assert E.view(s, 1)["question"]["q"] == expected[s["hand"][0]][2]["q"]


def test_the_judge_reads_the_rooms_language() -> None:
    assert judged_right({"cards": numbers_pack(), "language": "de"}, "zwölf")
    assert not judged_right({"cards": numbers_pack(), "language": "en"}, "zwölf")
    assert judged_right({"cards": numbers_pack(), "language": "en"}, "twelve")


def test_a_pack_that_declares_its_language_is_judged_in_it_whatever_the_room() -> None:
    german_pack = {"language": "de", "cards": numbers_pack()}
    assert judged_right({"cards": german_pack, "language": "en"}, "zwölf")
    assert not judged_right({"cards": german_pack, "language": "en"}, "twelve")
    english_pack = {"language": "en", "cards": numbers_pack()}
    assert judged_right({"cards": english_pack, "language": "de"}, "twelve")


def test_a_declared_language_survives_validation_and_the_custom_cards_are_dealt() -> None:
    opts = E.validate_options(3, {"cards": {"language": "de", "cards": numbers_pack()}, "language": "en"})
    assert opts["cards"]["language"] == "de" and opts["language"] == "en"
    assert E.validate_options(3, opts) == opts
    s = E.setup(3, {**opts, "shuffle": False})
    assert E.view(s, 0)["card"][0]["q"] == "How many months has a year (0)?"


def test_an_uploaded_pack_declares_its_language_in_json_or_csv() -> None:
    rows = [f"{q},{a},de" for q, a in (("Eins?", "1"), ("Zwei?", "2"), ("Drei?", "3"), ("Vier?", "4"))]
    csv_pack = "question,answers,language\n" + "\n".join(rows) + "\n"
    assert E.import_option("cards", csv_pack.encode(), "p.csv")["language"] == "de"
    plain = "question,answers\nEins?,1\nZwei?,2\nDrei?,3\nVier?,4\n"
    assert isinstance(E.import_option("cards", plain.encode(), "p.csv"), list)
    doc = {"version": 1, "language": "de", "cards": make_cards(1)}
    assert E.import_option("cards", json.dumps(doc).encode(), "p.json") == {"language": "de", "cards": make_cards(1)}
    with pytest.raises(IllegalAction) as bad:
        E.import_option("cards", json.dumps({**doc, "language": "xx"}).encode(), "p.json")
    assert bad.value.code == "bad_file" and "'xx'" in bad.value.message
    mixed = csv_pack.replace("Vier?,4,de", "Vier?,4,en")
    with pytest.raises(IllegalAction) as clash:
        E.import_option("cards", mixed.encode(), "p.csv")
    assert "line 5" in clash.value.message


def test_a_room_language_the_game_lacks_is_a_bad_option() -> None:
    for value in ("fr", None, 1, ["de"]):
        with pytest.raises(IllegalAction) as bad:
            E.validate_options(None, {"language": value})
        assert bad.value.code == "bad_option"


def test_a_game_stored_without_the_language_option_plays_and_replays_in_english() -> None:
    """Games stored before rooms had a language: their options lack ``language`` and their
    states lack the key; both read as English."""
    old_options = {"shuffle": True, "first_genius": 1, "cards": None, "whoami": None}
    s = E.setup(4, old_options, seed=7)
    assert s["language"] == "en"
    english = {q["q"] for card in packs.load_builtin_cards("en") for q in card}
    stored = {k: v for k, v in E.dump(s).items() if k != "language"}  # as an older server kept it
    old = E.load(stored)
    for seat in range(4):
        assert {q["q"] for q in E.view(old, seat)["card"]} <= english
    for seat in range(4):
        old = E.apply(old, seat, {"type": "keep"})
    old = E.apply(old, None, {"type": "timeout"})  # the Genius asks
    asked = E.view(old, 0)["question"]["q"]
    assert asked in english
    assert E.bot_action(old, (old["genius"] + 1) % 4, "trivia", 3) is not None
