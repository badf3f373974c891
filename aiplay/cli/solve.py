"""``aiplay solve``: the endgame solver on a position file (:mod:`aiplay.solve`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Optional

from aiplay.errors import InvalidOptionError
from aiplay.exits import Interrupted
from aiplay.solve import _fmt_values, _games_folder, help_example, load_position, solve


def add_solve_command(sub: Any) -> None:
    """Add ``aiplay solve`` to the CLI's subparsers (:mod:`aiplay.cli.main` calls this)."""
    folder = _games_folder()
    example = help_example()
    epilog = "Example positions ship with the games, in games/<game>/positions/."
    if example is not None and folder is not None:
        epilog = (f"example (a position shipped with aiplay; its \"description\" says what it is):\n"
                  f"  aiplay solve {example}\n"
                  f"  aiplay solve {example} --depth 3 --json\n"
                  f"The other examples are beside it, in {folder}/<game>/positions/.")
    parser = sub.add_parser(
        "solve", help="solve a position exactly: value, best move, principal variation",
        description="Solve a position exactly (max^n expectimax with chance; ties go to the lowest action "
                    "id): print each player's value, whether it is exact, the best move and the principal "
                    "variation as a tree whose chance nodes list every outcome.",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("position", help="a position file (games/<game>/positions/*.json) or a state document "
                                         "(State.to_json())")
    parser.add_argument("--seconds", type=float, help="time budget; without one the solve is exact, however long")
    parser.add_argument("--nodes", type=int, help="node budget")
    parser.add_argument("--depth", type=int, default=8,
                        help="decisions of the principal variation to print along each line (default 8)")
    parser.add_argument("--observer", type=int,
                        help="average over the worlds this player considers possible (hidden information)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the determinizations (default 0)")
    parser.add_argument("--backend", default="auto", choices=["auto", "native", "reference"],
                        help="engine (default: native when built)")
    parser.add_argument("--json", action="store_true",
                        help="print the solution as JSON, with the exact value of every move at the root")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    parser.add_argument("--moves", action="store_true", help="also print the exact value of every move")
    parser.set_defaults(func=cmd_solve)



def cmd_solve(args: argparse.Namespace) -> int:
    """``aiplay solve``: load the position, solve it, print the answer.

    Progress goes to standard error after each deepening pass. Ctrl-C prints
    the best answer so far (marked not exact) and then ends with status 130.
    """
    if args.depth is not None and args.depth < 0:
        raise InvalidOptionError(f"--depth {args.depth} is invalid; it accepts an integer >= 0")
    state, extra = load_position(args.position, backend=args.backend)
    observer = args.observer
    if observer is not None and state.game.perfect_information:
        print(f"notice: {state.game.name} has no hidden information: --observer is ignored (one world to solve)",
              file=sys.stderr)
        observer = None

    def progress(depth: Optional[int], nodes: int, done: Any) -> None:
        if args.quiet:
            return
        best = "" if done.action is None or state.current_player() < 0 else \
            f", best so far {state.action_to_string(done.action)}"
        reached = "exact" if depth is None or done.exact else f"depth {depth}"
        print(f"solve: {reached}, {nodes:,} nodes, value {_fmt_values(done.values)}{best}", file=sys.stderr,
              flush=True)

    solution = solve(state, seconds=args.seconds, nodes=args.nodes, observer=observer, seed=args.seed,
                     backend=args.backend, move_values=args.json or args.moves, stoppable=observer is None,
                     progress=progress)
    if args.json:
        print(json.dumps(solution.to_dict(), indent=1))
    else:
        if extra.get("description"):
            print(extra["description"])
        print(solution.summary())
        if solution.move_values:
            print("moves:")
            for row in solution.move_values:
                print(f"  {row['name']}: {_fmt_values(row['values'])}")
        print("principal variation:")
        print(solution.pv_text(args.depth))
    if solution.interrupted:
        sys.stdout.flush()
        raise Interrupted("the best answer so far is printed above (not exact)")
    return 0


__all__ = ["add_solve_command", "cmd_solve"]
