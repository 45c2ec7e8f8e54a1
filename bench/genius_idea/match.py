"""Measured match: Genius Idea Solvers of each strength (and random ones) on the same bot
riddles, everything else held equal.

Every seat prepares, reveals (as Disruptor) and orders (as Riddler) with one policy
(``--others``, default ``normal``); only the Solvers' policy changes between the arms. The
race is driven like the server does it: at each step one seat of ``to_act`` (picked by a
seeded PRNG) makes its bot's move. Every arm plays the same seeds (same deals). Reported per
arm: riddles solved, solved within 1/2/3 hints, hints needed (an unsolved riddle counts 6),
wrong guesses per riddle, and Solver points per riddle.

    .venv/bin/python bench/genius_idea/match.py --games 200 --solvers random easy normal sharp
    .venv/bin/python bench/genius_idea/match.py --games 200 --language de   # the German deck
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from geniusnight.engines import Rng
from geniusnight.engines.genius_idea import ENGINE as E


@dataclass
class Tally:
    riddles: int = 0
    solved: int = 0
    hints_when_solved: list[int] = field(default_factory=list)
    wrong: int = 0
    solver_points: int = 0

    def within(self, most: int) -> list[float]:
        """Share of all riddles solved with at most 1, 2 ... ``most`` hints out."""
        return [sum(1 for h in self.hints_when_solved if h <= k) / self.riddles for k in range(1, most + 1)]

    def add(self, rounds: list[dict[str, Any]]) -> None:
        for r in rounds:
            self.riddles += 1
            self.wrong += len(r["wrong"])
            if r["solved_by"] is not None:
                self.solved += 1
                self.hints_when_solved.append(len(r["revealed"]))
                self.solver_points += r["points"][r["solved_by"]]


def play(
    players: int, seed: int, solver_bot: str, others: str = "normal", language: str = "en"
) -> list[dict[str, Any]]:
    state = E.setup(players, {"language": language}, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    step = 0
    while E.outcome(state) is None:
        seats = sorted(E.to_act(state))
        seat = rng.choice(seats)
        role = E.view(state, None)["roles"][seat]
        bot = solver_bot if state["phase"] == "guess" and role == "solver" else others
        action = E.bot_action(state, seat, bot, seed * 100_003 + step)
        assert action is not None
        state = E.apply(state, seat, action)
        step += 1
    return list(state["history"])


def run(players: int, games: int, solver_bot: str, others: str, language: str = "en") -> Tally:
    tally = Tally()
    for seed in range(games):
        tally.add(play(players, seed, solver_bot, others, language))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    parser.add_argument("--solvers", nargs="*", default=["random", "easy", "normal", "sharp"])
    parser.add_argument("--others", default="normal", help="the bot of every other role")
    parser.add_argument("--language", default="en", help="the built-in deck to play (en, de)")
    args = parser.parse_args()
    print(
        "| players | Solvers | riddles | solved | solved with <=1 / <=2 / <=3 hints "
        "| hints needed | wrong guesses / riddle | Solver pts / riddle |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for players in args.players:
        for bot in args.solvers:
            t = run(players, args.games, bot, args.others, args.language)
            # hints out when the riddle fell, an unsolved riddle counting 6 (one past all 5)
            needed = (sum(t.hints_when_solved) + 6 * (t.riddles - t.solved)) / t.riddles
            print(
                f"| {players}{' (co-op)' if players == 2 else ''} | {bot} | {t.riddles} "
                f"| {t.solved / t.riddles:.1%} | {' / '.join(f'{x:.1%}' for x in t.within(3))} "
                f"| {needed:.2f} | {t.wrong / t.riddles:.2f} "
                f"| {t.solver_points / t.riddles:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
