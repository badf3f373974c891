"""Root-parallel scaling on the board games: 2 workers against 1, on a seconds budget.

For every board game (its ``benchmark=`` options) and its searches with the
game's presets (ISMCTS; MCTS too for perfect-information games), over the
first decisions of a few seeded deals, a bot with ``workers=1`` and one with
``workers=2`` each search ``--seconds`` per move, interleaved (1, 2, 2, 1, ...)
for ``--repeats`` rounds. The figure is iterations (all workers) per second of
wall time; the ratio of the medians should be near 2 on an idle machine with
two free cores, and says little on a loaded one (the load average is printed
with every row). A seconds budget keeps both workers busy for the whole move;
with an iteration budget a move would last as long as the slower worker's
share.

Usage::

    python benchmarks/worker_scaling.py                   # ~1 min: 4 games x 5 repeats x 2 x 4 deals x 0.25 s
    python benchmarks/worker_scaling.py --games area51 --seconds 1 --repeats 7
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any, List

import aiplay
from aiplay.bench import BOARD_GAMES
from aiplay.game import sample_chance_outcome
from aiplay.search import ISMCTSBot, MCTSBot


def first_decisions(name: str, options: dict, count: int, seed: int) -> List[Any]:
    """The first decision of ``count`` seeded deals."""
    game = aiplay.load(name, **options)
    rng = random.Random(seed)
    roots = []
    for _ in range(count):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        roots.append(state)
    return roots


def rate(bot: Any, roots: List[Any]) -> float:
    """Iterations per second of wall time over one search of each root."""
    iterations, start = 0, time.perf_counter()
    for root in roots:
        iterations += bot.analyse(root).counters["iterations"]
    return iterations / (time.perf_counter() - start)


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="sunken_city,area51,area1851,groom_lake")
    parser.add_argument("--seconds", type=float, default=0.25, help="budget per move")
    parser.add_argument("--deals", type=int, default=4, help="first decisions of this many seeded deals")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} CPUs; load average before {os.getloadavg()[0]:.2f}", flush=True)
    for name in [g.strip() for g in args.games.split(",") if g.strip()]:
        options = dict(BOARD_GAMES[name])
        roots = first_decisions(name, options, args.deals, seed=3)
        presets = roots[0].game.bot_presets
        kinds = [("ISMCTS", ISMCTSBot, dict(presets.get("ismcts") or {}))]
        if roots[0].game.perfect_information:
            kinds.append(("MCTS", MCTSBot, dict(presets.get("mcts") or {})))
        for label, bot_class, extra in kinds:
            bots = {w: bot_class(seconds=args.seconds, seed=1, workers=w, reuse_tree=False, **extra) for w in (1, 2)}
            for bot in bots.values():
                bot.choose(roots[0], seconds=min(0.05, args.seconds))  # warm-up
            rates: dict = {1: [], 2: []}
            for r in range(args.repeats):
                for w in ((1, 2) if r % 2 == 0 else (2, 1)):
                    rates[w].append(rate(bots[w], roots))
            ratios = [b / a for a, b in zip(rates[1], rates[2])]
            print(f"{name} {label} {extra}: 1 worker {statistics.median(rates[1]):,.0f} it/s "
                  f"({min(rates[1]):,.0f}..{max(rates[1]):,.0f}), 2 workers {statistics.median(rates[2]):,.0f} "
                  f"({min(rates[2]):,.0f}..{max(rates[2]):,.0f}): x{statistics.median(rates[2]) / statistics.median(rates[1]):.2f} "
                  f"(per repeat x{min(ratios):.2f}..x{max(ratios):.2f}; {args.repeats} repeats, {args.deals} deals, "
                  f"{args.seconds} s per move; load {os.getloadavg()[0]:.2f})", flush=True)
    print(f"load average after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
