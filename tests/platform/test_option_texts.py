"""The lobby's option texts are written for the players, in every language (docs/i18n.md).

static/js/options.js draws each option's label and sentence from the catalog (for the game,
``option.<game>.<name>``, else for every game, ``option.<name>``), else from the game's own
English (``OptionSpec``); choices from ``option.<game>.<name>.<choice>``, languages by their
own names, seats as ``options.player`` counted from 1. ``shown`` reads them the same way. Every
option has its sentence; none counts seats from 0 ("0+2") or writes data notation ("{q, a}");
choices are words with a capital ("Automatic", not "auto"), and team seats are named as the
lobby names seats ("Player 1 & 3")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from geniusnight.engines import ENGINES
from geniusnight.i18n import LANGS, catalog

PLAYER = {"en": "Player", "de": "Spieler"}


def shown(lang: str) -> dict[tuple[str, str], dict[str, Any]]:
    """Each option of each game as the lobby's form shows it in ``lang``: its label, its
    sentence and its choices' names (a seat option: the first seats' names)."""
    words = catalog(lang)
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for game, engine in ENGINES.items():
        if not type(engine).__module__.startswith("geniusnight.engines."):
            continue  # a test's fixture game (count21), never offered to players
        for opt in engine.info.options:
            key = f"option.{game}.{opt.name}"
            label = words.get(key, words.get(f"option.{opt.name}", opt.label or opt.name))
            help_ = words.get(f"{key}.help", words.get(f"option.{opt.name}.help", opt.help))
            if opt.name == "language":
                choices = [words.get(f"lang.name.{c}", c) for c in opt.choices]
            elif opt.kind == "seat":
                choices = [words["options.player"].replace("{n}", str(seat + 1)) for seat in range(opt.min or 0, 3)]
            else:
                choices = [words.get(f"{key}.{c}", c) for c in opt.choices]
            out[game, opt.name] = {"label": label, "help": help_, "choices": choices}
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_has_a_sentence_in_players_words(lang: str) -> None:
    options = shown(lang)
    assert {name for _, name in options} >= {"shuffle", "mode", "variant", "first_genius", "language"}
    for (game, name), texts in options.items():
        where = (lang, game, name)
        assert texts["label"] and texts["label"] != name, where
        assert re.search(r"\w.*\.$", texts["help"]), (where, texts["help"])  # a sentence, not a word
        for text in [texts["label"], texts["help"], *texts["choices"]]:
            assert not re.search(r"\d\s*\+\s*\d", text), (where, text)  # "0+2": seats counted as data
            assert not re.search(r"[{}\[\]]", text), (where, text)  # "{q, a}": data notation
            assert "_" not in text, (where, text)  # an id, not a word
            assert not re.search(r"\b(seat|Platz|Sitz)\s*0\b", text, re.I), (where, text)
        for choice in texts["choices"]:
            assert choice[:1].isupper(), (where, choice)  # "Automatic", not "auto"
        # team seats are numbered as the lobby numbers seats: "Player 1 & 3"
        for pair in re.finditer(r"(\S+)\s+\d+\s*&\s*\d+", texts["help"]):
            assert pair[1] == PLAYER[lang], (where, pair[0])


def test_the_modes_and_the_teams_read_as_the_players_know_them() -> None:
    english, german = shown("en"), shown("de")
    assert english["genius-idea", "mode"]["choices"] == ["Automatic", "Competitive", "Co-op"]
    assert german["genius-idea", "mode"]["choices"] == ["Automatisch", "Gegeneinander", "Kooperativ"]
    assert "Player 1 & 3 against Player 2 & 4" in english["ingenious", "variant"]["help"]
    assert "Spieler 1 & 3 gegen Spieler 2 & 4" in german["ingenious", "variant"]["help"]
    assert english["brainiac", "first_genius"]["choices"][:2] == ["Player 1", "Player 2"]
    for game in ("brainiac", "genius-idea", "ingenious"):
        assert english[game, "shuffle"]["help"].startswith("On: "), game
        assert german[game, "shuffle"]["help"].startswith("An: "), game
