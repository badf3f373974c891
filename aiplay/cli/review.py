"""``aiplay review``: the coach's verdict on one seat's decisions in a saved game (:mod:`aiplay.review`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, Optional

from aiplay.exits import Interrupted
from aiplay.match import Match
from aiplay.review import DEFAULT_ITERATIONS, Decision, Review, review


def add_review_command(sub: Any) -> None:
    """Add ``aiplay review`` to the CLI's subparsers (:mod:`aiplay.cli.main` calls this)."""
    parser = sub.add_parser(
        "review", help="review one seat's decisions in a saved game: each move priced, the mistakes shown",
        description="Price every decision of one seat in a game record (Match.save, the --human game's "
                    "record): the best move as a search from that seat's information sees it, the loss, a "
                    "label (best, good, inaccuracy, mistake, blunder) and, for a mistake, the expected line; "
                    "exact where the solver finishes. Ctrl-C prints the review so far, marked partial.")
    parser.add_argument("record", help="a game record file (the full record: Match.save / to_json)")
    parser.add_argument("--seat", type=int, required=True, help="the seat whose decisions are reviewed")
    parser.add_argument("--viewer", type=int,
                        help="the seat asking (default: --seat); another seat's review of a game with hidden "
                             "information needs --all-seats-visible")
    parser.add_argument("--all-seats-visible", action="store_true",
                        help="you hold the whole game and ask for it: any seat may be reviewed, every name shown")
    parser.add_argument("--budget", type=int, default=DEFAULT_ITERATIONS,
                        help=f"search iterations per decision (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--seconds", type=float, help="a time budget per decision instead (not reproducible)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="searches per decision; above 1 the loss's interval comes from their spread")
    parser.add_argument("--no-exact", action="store_true", help="never use the solver, even on small positions")
    parser.add_argument("--seed", type=int, default=0, help="seed of the searches (default 0)")
    parser.add_argument("--backend", default="auto", choices=["auto", "native", "reference"],
                        help="engine (default: native when built)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    parser.set_defaults(func=cmd_review)


def cmd_review(args: argparse.Namespace) -> int:
    """``aiplay review``: load the record, review the seat, print every decision and the summary."""
    match = Match.load(args.record, backend=args.backend)
    budget: Dict[str, Any] = {"seconds": args.seconds} if args.seconds is not None else {"iterations": args.budget}
    result = run_review(match, args.seat, quiet=args.quiet, budget=budget, exact=not args.no_exact,
                        viewer=args.viewer, viewer_all=args.all_seats_visible, seed=args.seed, repeats=args.repeats)
    print(json.dumps(result.to_dict(), indent=1) if args.json else result.text())
    if result.partial:
        sys.stdout.flush()
        raise Interrupted("the review so far is printed above (partial)")
    return 0


def run_review(match: Match, seat: int, quiet: bool = False, **options: Any) -> Review:
    """``match.review(seat, **options)`` with a progress line per decision on standard error."""

    def progress(done: int, total: int, decision: Decision) -> None:
        if not quiet:
            print(f"review: {done}/{total} decisions ({decision.label} at turn {decision.turn})",
                  file=sys.stderr, flush=True)

    result: Optional[Review] = match.review(seat, progress=progress, **options)
    assert result is not None
    return result


__all__ = ["add_review_command", "cmd_review", "run_review"]
