"""Liar's Dice: native ISMCTS against the probability heuristic, seats rotated, with a 95 % interval.

Issue 40 asks how well determinized search plays a bluffing game. This plays seeded
2-player games of 3-dice Liar's Dice (OpenSpiel's ``liars_dice`` with ``numdice=3``, six
sides, reset-face bidding) between ISMCTS at ``--iterations`` (default 4,000, the native
kernel, uniformly random playouts) and the game's probability heuristic
(``games/liars_dice/heuristic.py``). Each deal is played once per seat rotation, so
``--deals 100`` is 200 games; a game is won by the seat whose bid or call was right (returns
+1/-1, no draws). Prints the arena's table and ISMCTS's win rate with its 95 % Wilson interval::

    python benchmarks/liars_dice_arena.py --deals 200 --processes 2    # 400 games (RESULTS.md)
    python benchmarks/liars_dice_arena.py --quick                      # CI's short profile

Results do not depend on ``--processes``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional

from aiplay.arena import run_match

GAME = "liars_dice"
GAME_OPTIONS = {"players": 2, "numdice": 3}


def main(argv: Optional[List[str]] = None) -> int:
    """Run the match and print the table; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals, each played in both seatings (default 100)")
    parser.add_argument("--iterations", type=int, default=4000, help="ISMCTS iterations per move (default 4000)")
    parser.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--quick", action="store_true", help="a short run: 10 deals (20 games) at 500 iterations")
    args = parser.parse_args(argv)
    deals, iterations = (10, 500) if args.quick else (args.deals, args.iterations)
    start = time.perf_counter()
    result = run_match(GAME, ["ismcts", "heuristic"], deals=deals, seed=args.seed,
                       bot_options=[{"iterations": iterations}, {}], game_options=GAME_OPTIONS,
                       backend="native", processes=args.processes, progress=False)
    low, high = result.interval(0)
    print(result.summary())
    print(f"ISMCTS ({iterations} iterations) vs the probability heuristic, {GAME} {GAME_OPTIONS}: "
          f"won {result.wins(0):.0f} of {result.games_of(0)} games = {result.win_rate(0):.1%}, "
          f"95% interval [{low:.1%}, {high:.1%}] (seed {args.seed}, {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
