"""Are bot riddles solvable by a person? Judged by models the bots do not share.

Each game (3 players, competitive, seeds 0..N-1) is played by the engine with bot Riddlers
and Disruptors of one strength and Solvers who always pass, so every riddle shows all 5
hints in the order a table would see them (the Disruptor's reveals, the Riddler's reorders).
A *blind solver* sees only the 16 public cards and the revealed hints, and after each hint
names the live card its model links to the hints most (a wrong card is out for it after);
a riddle counts as solved by hint k if one of its first k guesses was right. Solvers:

- ``wordnet``: WordNet 3.0 glosses and relations (``wordnet_model.py``), shared with no bot;
- ``embedding``: the bot Solvers' model without its noise (for comparison);
- ``themes+embedding``: the bot Riddler's own model (how sure the Riddler thinks it is).

``--language de`` plays the German deck; the WordNet solver then reads each German card
through its English gloss (``content/de/glosses.txt``), the other two read the German
tables.

``--print N`` writes the first N riddles without answers (``--key`` writes the answers) for a
person to solve blind: one guess after each hint, written down before the next is read.
``--blind DIR`` writes them as a folder per riddle and a file per hint step instead, the
answers to ``--key-file``.

    .venv/bin/python bench/genius_idea/riddles.py --games 60
    .venv/bin/python bench/genius_idea/riddles.py --games 60 --language de
    .venv/bin/python bench/genius_idea/riddles.py --games 10 --print 30 > /tmp/riddles.txt
    .venv/bin/python bench/genius_idea/riddles.py --games 15 --print 40 --blind /tmp/blind --key-file /tmp/blind-key.txt
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wordnet_model import WordNetModel

from geniusnight.engines.genius_idea import ENGINE as E
from geniusnight.engines.genius_idea.similarity import (
    builtin_words,
    embedding_similarity,
    glosses,
    similarity,
)

Riddle = dict[str, Any]  # public, answer, steps (revealed hints after each reveal)


def riddles(seed: int, bot: str, language: str = "en", players: int = 3) -> list[Riddle]:
    """Every riddle of one game, with the revealed hints after each reveal."""
    state = E.setup(players, {"language": language}, seed)
    out: list[Riddle] = []
    step = 0
    while E.outcome(state) is None:
        seat = min(E.to_act(state))
        cur = state["cur"]
        if state["phase"] == "guess":
            if len(cur["revealed"]) < 5:
                if not out or out[-1]["answer"] != cur["answer"] or len(out[-1]["steps"]) == 5:
                    out.append({"public": list(cur["public"]), "answer": cur["answer"], "steps": []})
                out[-1]["steps"].append(list(cur["revealed"]))
                action: dict[str, Any] = {"type": "pass"}
            else:
                out[-1]["steps"].append(list(cur["revealed"]))
                action = {"type": "guess", "card": cur["answer"]}
        else:
            action = E.bot_action(state, seat, bot, seed * 7919 + step) or {"type": "timeout"}
        state = E.apply(state, seat, action)
        step += 1
    return out


def blind_solve(riddle: Riddle, relatedness: Callable[[str, str], float]) -> int | None:
    """The hint (1-5) by which a blind solver with this model named the answer, or None."""
    wrong: set[str] = set()
    for k, revealed in enumerate(riddle["steps"], start=1):
        live = [c for c in riddle["public"] if c not in wrong]
        best = max(live, key=lambda c: (sum(relatedness(h, c) for h in revealed), c))
        if best == riddle["answer"]:
            return k
        wrong.add(best)
    return None


def report(all_riddles: list[Riddle], language: str) -> None:
    gloss = glosses(language)
    wordnet = WordNetModel([gloss[w] for w in builtin_words(language)])
    solvers: dict[str, Callable[[str, str], float]] = {
        "wordnet": lambda a, b: wordnet.relatedness(gloss[a], gloss[b]),
        "embedding": lambda a, b: embedding_similarity(a, b, language),
        "themes+embedding": lambda a, b: similarity(a, b, language),
    }
    print("| blind solver | riddles | by hint 1 | 2 | 3 | 4 | 5 (solved) | first guess after all 5 right |")
    print("|---|---|---|---|---|---|---|---|")
    for name, model in solvers.items():
        hits = [blind_solve(r, model) for r in all_riddles]
        n = len(all_riddles)
        cells = [f"{sum(1 for h in hits if h is not None and h <= k) / n:.0%}" for k in range(1, 6)]
        final = sum(1 for r in all_riddles if blind_solve({**r, "steps": r["steps"][-1:]}, model) == 1) / n
        print(f"| {name} | {n} | " + " | ".join(cells) + f" | {final:.0%} |")


def print_blind(all_riddles: list[Riddle], count: int, key: bool) -> None:
    for i, r in enumerate(all_riddles[:count], start=1):
        if key:
            print(f"{i}. {r['answer']}   hints as prepared: {', '.join(r['steps'][-1])}")
            continue
        print(f"Riddle {i}. Public: {', '.join(sorted(r['public']))}")
        for k, revealed in enumerate(r["steps"], start=1):
            print(f"  hint {k}: {revealed[-1] if k == 1 else ', '.join(revealed)}")


def write_blind(all_riddles: list[Riddle], count: int, folder: Path, key_file: Path) -> None:
    """The first ``count`` riddles as one folder each (``riddle-NN/step-K.txt``: the 16 public
    cards and the first K hints in the order the table sees them, nothing else), for a person
    who opens one step at a time; the answers go to ``key_file``, which should lie outside."""
    key = []
    for i, r in enumerate(all_riddles[:count], start=1):
        riddle = folder / f"riddle-{i:02d}"
        riddle.mkdir(parents=True, exist_ok=True)
        for k, revealed in enumerate(r["steps"], start=1):
            text = f"Public cards: {', '.join(sorted(r['public']))}\nHints ({k} of 5): {', '.join(revealed)}\n"
            (riddle / f"step-{k}.txt").write_text(text, encoding="utf-8")
        key.append(f"riddle-{i:02d}: {r['answer']}   hints as prepared: {', '.join(r['steps'][-1])}")
    key_file.write_text("\n".join(key) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--bot", default="normal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--print", type=int, default=0, dest="count")
    parser.add_argument("--key", action="store_true")
    parser.add_argument("--blind", type=Path, help="with --print N: write the riddles here, a file per hint step")
    parser.add_argument("--key-file", type=Path, help="with --blind: where the answers go (outside that folder)")
    parser.add_argument("--language", default="en", help="the built-in deck to play (en, de)")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    all_riddles = [r for seed in seeds for r in riddles(seed, args.bot, args.language)]
    if args.count and args.blind:
        key_file = args.key_file or args.blind.with_name(args.blind.name + "-key.txt")
        write_blind(all_riddles, args.count, args.blind, key_file)
    elif args.count:
        print_blind(all_riddles, args.count, args.key)
    else:
        report(all_riddles, args.language)


if __name__ == "__main__":
    main()
