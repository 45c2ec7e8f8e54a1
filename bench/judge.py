"""What the Brainiac judge costs over the built-in bank.

Every accepted answer and decoy of each question is judged against that question's accepted
answers, with the bank's other answers as ``others`` (as the engine judges). ``--old PATH``
times another ``judge.py`` (e.g. one written by ``git show <commit>:<path>``) in the same run,
alternating, so both see the same load; one without ``others`` is called without them.

    .venv/bin/python bench/judge.py [--repeat 40] [--old /tmp/judge_old.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import sys
import time
from collections.abc import Callable
from importlib import resources
from types import ModuleType
from typing import Any

from geniusnight.engines.brainiac import judge as current


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("judge_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--old", help="another judge.py to time alongside")
    args = parser.parse_args()
    bank = json.loads(resources.files("geniusnight.engines.brainiac").joinpath("content/en/questions.json").read_text())
    questions = [(q["q"], q["a"], q.get("d", [])) for card in bank["cards"] for q in card["questions"]]
    calls = [(text, a, q) for q, a, d in questions for text in (*a, *d)]
    start = time.perf_counter()
    others = current.known_answers(t for _, a, d in questions for t in (*a, *d))
    build_ms = (time.perf_counter() - start) * 1e3

    def runner(module: ModuleType) -> Callable[[], None]:
        kw: dict[str, Any] = {"others": others} if "others" in inspect.signature(module.judge).parameters else {}

        def run() -> None:
            for text, accepted, question in calls:
                module.judge(text, accepted, question, **kw)

        return run

    runs = {"current": runner(current), **({"old": runner(load(args.old))} if args.old else {})}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    print(f"{len(calls)} judge() calls over the bank, {args.repeat} runs each")
    for name, ts in times.items():
        ts.sort()
        best, median = ts[0] * 1e3, ts[len(ts) // 2] * 1e3
        print(f"  {name:8} best {best:.1f} ms ({best / len(calls) * 1e3:.1f} us/call), median {median:.1f} ms")
    print(f"  others: {len(others)} normal forms, built in {build_ms:.1f} ms (once per pack)")


if __name__ == "__main__":
    main()
