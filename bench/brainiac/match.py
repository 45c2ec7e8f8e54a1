"""Measured match: Brainiac or IDIOT! bots in full games of the built-in bank.

The game of seed ``s`` has 3 + s % 4 players; seat ``p`` plays bot ``bots[(p + s) %
len(bots)]``, so with two bots each sits in every seat about as often. The seat to
act is always the lowest of ``to_act`` (the bots never wait on each other). Reported per bot:
its honest answers (as a Brainiac) and the share right, by question level, how many of the
misses were one of the question's decoys, its mean score and its share of the wins (a shared
win counts its share) per seat played, where equal bots would each have 1 / players.

    .venv/bin/python bench/brainiac/match.py                                   # trivia, seeds 1000-1039, en + de
    .venv/bin/python bench/brainiac/match.py --games 400 --bots trivia random --language en
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from geniusnight.engines.brainiac.cards import IDIOT, card_questions, known_others, question_decoys
from geniusnight.engines.brainiac.engine import ENGINE as E
from geniusnight.engines.brainiac.judge import judge


@dataclass
class Tally:
    asked: list[int] = field(default_factory=lambda: [0] * 4)  # honest answers by level
    right: list[int] = field(default_factory=lambda: [0] * 4)
    decoy_misses: int = 0
    seats: int = 0
    score: int = 0
    wins: float = 0.0
    fair_wins: float = 0.0  # the wins equal bots would have: 1 / players per seat

    def line(self, bot: str) -> str:
        asked, right = sum(self.asked), sum(self.right)
        levels = " / ".join(f"{r / a:.0%}" if a else "-" for r, a in zip(self.right, self.asked, strict=True))
        misses = asked - right
        return (
            f"{bot:8} honest answers {asked:5}  right {right / asked:6.1%} ({levels})  "
            f"misses that are decoys {self.decoy_misses}/{misses}  "
            f"score/seat {self.score / self.seats:5.2f}  wins/seat {self.wins / self.seats:.3f} "
            f"(equal bots: {self.fair_wins / self.seats:.3f})"
        )


def play(seed: int, players: int, bots: list[str], language: str, tallies: dict[str, Tally]) -> None:
    seat_bot = [bots[(p + seed) % len(bots)] for p in range(players)]
    state, step = E.setup(players, {"language": language}, seed=seed), 0
    while E.outcome(state) is None:
        seat = min(E.to_act(state))
        action = E.bot_action(state, seat, seat_bot[seat], seed * 7919 + step)
        assert action is not None
        if action["type"] == "answer" and state["identity"][seat] != IDIOT:
            card, index = state["hand"][state["genius"]], state["question"]
            question, accepted = card_questions(state, card)[index]
            tally = tallies[seat_bot[seat]]
            tally.asked[index] += 1
            if judge(action["text"], accepted, question, language, known_others(state)):
                tally.right[index] += 1
            elif action["text"] in question_decoys(state, card, index):
                tally.decoy_misses += 1
        state, step = E.apply(state, seat, action), step + 1
    outcome = E.outcome(state)
    assert outcome is not None
    for seat, bot in enumerate(seat_bot):
        tally = tallies[bot]
        tally.seats += 1
        tally.score += outcome["scores"][seat]
        tally.fair_wins += 1 / players
        if seat in outcome["winners"]:
            tally.wins += 1 / len(outcome["winners"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--bots", nargs="+", default=["trivia"], help="the bots, seated in turn")
    parser.add_argument("--language", nargs="+", default=["en", "de"], help="the built-in banks to play")
    args = parser.parse_args()
    for language in args.language:
        tallies = {bot: Tally() for bot in args.bots}
        for seed in range(args.first_seed, args.first_seed + args.games):
            play(seed, 3 + seed % 4, args.bots, language, tallies)
        print(f"{language}: {args.games} games, seeds {args.first_seed}-{args.first_seed + args.games - 1}")
        for bot, tally in tallies.items():
            print("  " + tally.line(bot))


if __name__ == "__main__":
    main()
