"""Tree reuse in the review (issue 39, Build 3): time per decision, and agreement with a bigger search.

For each board game, ``--games`` games (a level-3 seat against the top level) are reviewed three
ways at seat 0 (the solver off, so that only the search is measured): ``reuse=False`` (a fresh
search per decision, the default), ``reuse=True`` (one bot for the whole review, whose tree is
kept from one of the seat's decisions to the next where the engine finds the seat's new
information state in it), both at ``--budget`` iterations, and a reference at 4x the budget
without reuse. Per way: seconds per decision, the share of decisions whose search started from a
kept tree and the visits it brought, and against the reference the loss's mean absolute
difference and the share of equal labels.

Usage::

    python benchmarks/review_reuse.py --games 2 --budget 500
    python benchmarks/review_reuse.py --quick     # CI's short profile
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, Dict, List, Optional

import aiplay
import aiplay.review  # noqa: F401 - the module, for the patch below

from aiplay.search import make_bot
from aiplay.testing.choose import games_with, pick_options
from review_levels import play  # the script beside this one (benchmarks/ is on the path)

#: The analyses' counters of the running review (filled by the wrapped bot factory).
COUNTERS: List[Dict[str, Any]] = []


def _counting_make_bot(*args: Any, **kwargs: Any) -> Any:
    bot = make_bot(*args, **kwargs)
    analyse = bot.analyse

    def counted(*a: Any, **k: Any) -> Any:
        result = analyse(*a, **k)
        COUNTERS.append(dict(result.counters))
        return result

    bot.analyse = counted
    return bot


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--game", action="append", help="only these games (default: every board game)")
    parser.add_argument("--quick", action="store_true",
                        help="CI's short profile: one game of the first board game at 50 iterations")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.budget = 1, 50
        args.game = args.game or games_with(board=True, listed=True)[:1]
    # ``aiplay.review`` the attribute is the function; the module is in sys.modules.
    sys.modules["aiplay.review"].make_bot = _counting_make_bot  # type: ignore[attr-defined]
    names = args.game or games_with(board=True, listed=True)
    print("| game | way | decisions | ms / decision | decisions on a kept tree | visits brought (mean) "
          "| loss MAE vs 4x | labels equal vs 4x |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        options = dict(pick_options(name))
        game = aiplay.load(name, **options)
        # The games of review_levels: level 3 at seat 0, the top level elsewhere.
        matches = [play(game, 3, 0, 100 + g) for g in range(args.games)]
        results: Dict[str, Any] = {}
        for way, reuse, budget in (("fresh", False, args.budget), ("reuse", True, args.budget),
                                   ("reference", False, 4 * args.budget)):
            COUNTERS.clear()
            started = time.perf_counter()
            reviews = [m.review(0, budget=budget, exact=False, reuse=reuse, seed=5) for m in matches]
            seconds = time.perf_counter() - started
            decisions = [d for r in reviews for d in r.decisions]
            results[way] = (decisions, seconds, list(COUNTERS))
        ref = results["reference"][0]
        for way in ("fresh", "reuse", "reference"):
            decisions, seconds, counters = results[way]
            n = len(decisions)
            kept = [c for c in counters if c.get("reused_tree")]
            brought = statistics.fmean(c.get("reused_visits", 0) for c in kept) if kept else 0.0
            mae = statistics.fmean(abs(a.loss - b.loss) for a, b in zip(decisions, ref)) if n else 0.0
            equal = sum(a.label == b.label for a, b in zip(decisions, ref)) / n if n else 0.0
            print(f"| {name} {options} | {way} ({4 * args.budget if way == 'reference' else args.budget}) | {n} "
                  f"| {1000 * seconds / max(1, n):.1f} | {len(kept)}/{len(counters)} | {brought:.0f} "
                  f"| {mae:.4f} | {equal:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
