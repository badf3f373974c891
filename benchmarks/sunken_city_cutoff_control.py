"""Control for issue 41 Build 2: is it the learned evaluation or the cutoff alone that wins?

Plays MCTS with policy playouts cut after ``--cutoff`` moves against today's
old preset (policy playouts to the end) at equal time per move, as
``benchmarks/strength.py sunken_city-cutoff20-preset-0.05s`` does, but with the
kernel's evaluation weights replaced before any game is made: ``--weights
zero`` scores every cut playout as an even share (no evaluation at all), and
``--weights learned`` keeps the shipped model. One process (the weights are
read when a kernel is made, in this process)::

    python benchmarks/sunken_city_cutoff_control.py --weights zero --deals 20
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence

from aiplay.arena import run_match
from aiplay.games.sunken_city import value_model


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", choices=("zero", "learned"), default="zero")
    parser.add_argument("--cutoff", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.weights == "zero":
        # The kernel copies value_model.WEIGHTS when it is made: every game below gets these.
        value_model.WEIGHTS = tuple(0.0 for _ in value_model.FEATURES)
    options: List[dict] = [{"seconds": args.seconds, "rollout": "policy", "rollout_cutoff": args.cutoff},
                           {"seconds": args.seconds, "rollout": "policy"}]
    result = run_match("sunken_city", ["mcts", "mcts"], deals=args.deals, seed=args.seed, bot_options=options,
                       processes=1)
    print(result.summary())
    low, high = result.interval(0)
    print(f"RESULT cutoff {args.cutoff}, {args.weights} weights, {args.seconds} s: {result.win_rate(0):.1%} of "
          f"{result.games} games, 95% interval [{low:.1%}, {high:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
