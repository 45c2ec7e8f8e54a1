"""Bot riddles beside a person's riddles from the same hands, solved by blind readers.

A riddle can only be as good as the Riddler's 10 cards allow. To tell the bot Riddler's part
from the hand's, each hand is made into two riddles: the bot's (a ``normal`` Riddler, its
hints in the table's final order) and a person's, who saw only the hand. Both get the same
15 other public cards. Two blind readers, who never see a hand, a key or the code, each
solve one riddle of every hand (reader A the bot's riddles of the first half of the hands
and the person's of the second half, reader B the rest, each set shuffled): the 16 public
cards and all 5 hints, most telling first, and name their first, second and third choice.

    # 1. the hands, for the person (one line each: ``Hand 01: card, ...``); ``--language de``
    #    deals them from the German deck (the default, ``en``, the English one)
    .venv/bin/python bench/genius_idea/against_a_person.py hands --first-seed 900 --hands 20 --dir D
    # 2. the person writes D/person.txt: ``Hand 01: answer=<card> hints=<h1>, ..., <h5>``
    # 3. the readers' sets: D/blind-A.txt and D/blind-B.txt (the keys stay in D/key-*.json)
    .venv/bin/python bench/genius_idea/against_a_person.py blind --dir D
    # 4. each reader writes D/answers-A.txt / -B.txt: ``Riddle 01: <first>, <second>, <third>``
    .venv/bin/python bench/genius_idea/against_a_person.py score D [D2 ...]

The folders of the runs in docs/bots.md are kept beside this file (``person-*``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from riddles import riddles

from geniusnight.engines.genius_idea import ENGINE as E

READERS = ("A", "B")


def hands(first_seed: int, count: int, folder: Path, language: str = "en") -> None:
    """Each game's first riddle: the Riddler's hand, the bot's riddle, the 15 other public cards,
    dealt from the built-in deck of ``language``."""
    out = []
    for seed in range(first_seed, first_seed + count):
        state = E.setup(3, {"language": language}, seed)
        riddle = riddles(seed, "normal", language)[0]
        hand = next(list(h) for h in state["hands"] if riddle["answer"] in h)
        supply = [c for c in riddle["public"] if c != riddle["answer"]]
        answer, hints = riddle["answer"], riddle["steps"][-1]
        out.append({"seed": seed, "hand": hand, "supply": supply, "answer": answer, "hints": hints})
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hands.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    rng = random.Random(7)
    lines = []
    for i, h in enumerate(out, 1):
        cards = list(h["hand"])
        rng.shuffle(cards)  # not in the deal's order
        lines.append(f"Hand {i:02d}: {', '.join(cards)}")
    (folder / "hands.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_person(folder: Path, dealt: list[dict[str, Any]]) -> dict[int, tuple[str, list[str]]]:
    person = {}
    for line in (folder / "person.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"Hand (\d+): answer=(.+?) hints=(.+)$", line.strip())
        if m:
            i, answer, hints = int(m.group(1)), m.group(2).strip(), [h.strip() for h in m.group(3).split(",")]
            hand = dealt[i - 1]["hand"]
            assert answer in hand and len(set(hints)) == 5 and answer not in hints, line
            assert all(h in hand for h in hints), line
            person[i] = (answer, hints)
    assert len(person) == len(dealt), "a riddle for every hand"
    return person


def blind(folder: Path) -> None:
    """Reader A gets the bot's riddles of the first half of the hands and the person's of the
    second, reader B the others: no reader sees one hand twice."""
    dealt = json.loads((folder / "hands.json").read_text(encoding="utf-8"))
    person = read_person(folder, dealt)
    made: list[dict[str, Any]] = []
    for i, h in enumerate(dealt, 1):
        for src, (answer, hints) in (("bot", (h["answer"], h["hints"])), ("person", person[i])):
            public = sorted([*h["supply"], answer])
            made.append({"src": src, "hand": i, "answer": answer, "hints": hints, "public": public})
    random.Random(11).shuffle(made)
    sets: dict[str, list[dict[str, Any]]] = {r: [] for r in READERS}
    for riddle in made:
        first_half = riddle["hand"] <= len(dealt) // 2
        sets["A" if (riddle["src"] == "bot") == first_half else "B"].append(riddle)
    for reader, items in sets.items():
        random.Random(reader).shuffle(items)
        (folder / f"key-{reader}.json").write_text(json.dumps(items, indent=1) + "\n", encoding="utf-8")
        text = "".join(
            f"Riddle {n:02d}\n  Public cards: {', '.join(r['public'])}\n"
            f"  Hints, in the order revealed (most telling first): {', '.join(r['hints'])}\n\n"
            for n, r in enumerate(items, 1)
        )
        (folder / f"blind-{reader}.txt").write_text(text, encoding="utf-8")


def score(folders: list[Path]) -> None:
    tally: dict[str, list[int]] = {}
    for folder in folders:
        for reader in READERS:
            key = json.loads((folder / f"key-{reader}.json").read_text(encoding="utf-8"))
            answers = {}
            for line in (folder / f"answers-{reader}.txt").read_text(encoding="utf-8").splitlines():
                m = re.match(r"Riddle (\d+): (.+)$", line.strip())
                if m:
                    answers[int(m.group(1))] = [x.strip() for x in m.group(2).split(",")]
            for n, riddle in enumerate(key, 1):
                picks = answers[n]
                assert all(p in riddle["public"] for p in picks), (folder, reader, n, picks)
                t = tally.setdefault(riddle["src"], [0, 0, 0, 0])
                t[0] += 1
                for k in (1, 2, 3):
                    t[k] += riddle["answer"] in picks[:k]
    print("| riddles by | riddles | first choice right | in the first 2 | in the first 3 |")
    print("|---|---|---|---|---|")
    for src, (n, *hits) in tally.items():
        print(f"| {src} | {n} | " + " | ".join(f"{h} ({h / n:.0%})" for h in hits) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    h = sub.add_parser("hands")
    h.add_argument("--first-seed", type=int, default=900)
    h.add_argument("--hands", type=int, default=20)
    h.add_argument("--dir", type=Path, required=True)
    h.add_argument("--language", default="en", help="the built-in deck to deal from (en, de)")
    b = sub.add_parser("blind")
    b.add_argument("--dir", type=Path, required=True)
    s = sub.add_parser("score")
    s.add_argument("dirs", type=Path, nargs="+")
    args = parser.parse_args()
    if args.step == "hands":
        hands(args.first_seed, args.hands, args.dir, args.language)
    elif args.step == "blind":
        blind(args.dir)
    else:
        score(args.dirs)


if __name__ == "__main__":
    main()
