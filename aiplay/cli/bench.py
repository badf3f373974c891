"""``aiplay bench``: the speed table of every game's engines and searches (:mod:`aiplay.bench`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from aiplay.bench import format_table, measure


def add_bench_command(sub: Any) -> None:
    """Add ``aiplay bench`` to the CLI's subparsers (``aiplay/cli.py`` calls this)."""
    parser = sub.add_parser("bench", help="measure engine and search speed on this machine",
                            description="Print the speed table of benchmarks/RESULTS.md, measured here: kernel "
                                        "vs reference playouts/s, clone ns, ISMCTS/MCTS iterations/s, expectimax "
                                        "nodes/s per game, and the OpenSpiel comparison when pyspiel is installed.")
    parser.add_argument("--quick", action="store_true", help="short timings (a few seconds a game)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--games", help="comma-separated games to measure (default: every listed game)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.set_defaults(func=cmd_bench)



def cmd_bench(args: argparse.Namespace) -> int:
    """``aiplay bench``: measure and print."""
    games = [g.strip() for g in args.games.split(",") if g.strip()] if args.games else None
    data = measure(quick=args.quick, games=games, openspiel=not args.no_openspiel)
    print(json.dumps(data, indent=1) if args.json else format_table(data))
    return 0


__all__ = ["add_bench_command", "cmd_bench"]
