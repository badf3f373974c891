"""Engine and search speed, native against reference, in one run: ``aiplay bench`` as a script.

The measurements live in :mod:`aiplay.bench` and the command in :mod:`aiplay.cli.bench`
(this script only calls them):
random playouts/s (kernel against reference engine), ``clone()`` ns, the
kernel's playout policy, ISMCTS/MCTS iterations/s and expectimax nodes/s at
the first decision, for every listed game (board games with the options of
their ``benchmark=`` registration), and the OpenSpiel comparison when
pyspiel is installed.

Usage::

    python benchmarks/board_games.py            # a few minutes
    python benchmarks/board_games.py --quick
    python benchmarks/board_games.py --json --games sunken_city,area51
"""

from __future__ import annotations

import argparse
import sys

from aiplay.cli import bench
from aiplay.bench import BOARD_GAMES  # noqa: F401  (tests read the benchmarked games here)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    subparsers = parser.add_subparsers()
    bench.add_bench_command(subparsers)
    return bench.cmd_bench(parser.parse_args(["bench"] + list(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    sys.exit(main())
