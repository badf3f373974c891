"""``aiplay arena`` and ``aiplay replay``: round robins between bots, and one game of a results file."""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict

from aiplay import registry
from aiplay.arena.plot import plot_budget
from aiplay.arena.tournament import replay_lines, run
from aiplay.errors import InvalidOptionError
from aiplay.search.spec import _literal, parse_bots


def add_arena_command(sub: Any) -> None:
    """Add ``aiplay arena`` to the CLI's subparsers (``aiplay/cli/main.py`` calls this)."""
    parser = sub.add_parser(
        "arena", help="a seeded round robin between bots: win rates, intervals, ratings",
        description="Play a seeded round robin between bots (seats rotated, paired deals) and print win rates "
                    "with 95% Wilson intervals and, for 3 or more bots, Bradley-Terry ratings with intervals. "
                    "Games go to a JSON-lines results file that resumes.",
        epilog="examples (GAME: a name from `aiplay games`):\n"
               "  aiplay arena GAME --bots 'mcts(iterations=200)',expectimax,random --games 20 --out results.jsonl\n"
               "  aiplay arena GAME --bots mcts,heuristic --games 100 --out results.jsonl --workers 2\n"
               "  aiplay arena GAME --players 4 --bots ismcts,heuristic,random,random --games 40 \\\n"
               "      --out results.jsonl --scheduler tcp://scheduler-host:8786\n"
               "bots: a kind (random, heuristic, mcts, ismcts, expectimax) with the game's presets, a kind\n"
               "with options as kind(name=value,...) (presets=false drops the presets, name=... labels it),\n"
               "a JSON object {\"kind\": ..., ...}, or @file.json.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game name (see `aiplay games`)")
    parser.add_argument("--bots", required=True, help="comma-separated bots, 2 or more (see below)")
    parser.add_argument("--games", type=int, required=True,
                        help="games per table (rounded up to whole deals: a multiple of the number of seats)")
    parser.add_argument("--out", help="JSON-lines results file; games already in it are skipped (resume)")
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument("--players", type=int, help="number of seats (default: the game's usual number, or the number of bots when fewer)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option, repeatable")
    parser.add_argument("--backend", default="auto", choices=["auto", "native", "reference"],
                        help="game engine (default: native when built)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="run on a local Dask cluster of N processes")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on an existing Dask cluster")
    parser.add_argument("--plot", metavar="FILE.svg", help="draw win rate against budget (needs matplotlib)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=cmd_arena)



def add_replay_command(sub: Any) -> None:
    """Add ``aiplay replay`` (one game of an arena results file, move by move) to the CLI's subparsers."""
    parser = sub.add_parser(
        "replay", help="show one game of an arena results file move by move",
        description="Replay one game of an `aiplay arena --out FILE` results file: who sat where, every move "
                    "(chance included) and the result.")
    parser.add_argument("file", help="the arena's JSON-lines results file")
    parser.add_argument("--index", type=int, help="the game's index (default: the first game in the file)")
    parser.add_argument("--show-state", action="store_true", help="print the state after every move")
    parser.set_defaults(func=cmd_replay)



def cmd_replay(args: argparse.Namespace) -> int:
    """``aiplay replay FILE [--index N]``."""
    for line in replay_lines(args.file, args.index, args.show_state):
        print(line)
    return 0



def cmd_arena(args: argparse.Namespace) -> int:
    """``aiplay arena``: run the round robin, print the summary, draw the plot."""
    options: Dict[str, Any] = {}
    for text in args.option or []:
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise InvalidOptionError(f"--option {text!r} must look like NAME=VALUE")
        options[key.strip()] = _literal(value.strip())
    if args.players is not None:
        options["players"] = args.players
    specs = parse_bots(args.bots)
    result = run(args.game, specs, games=args.games, seed=args.seed, game_options=options, backend=args.backend,
                 out=args.out, workers=args.workers, scheduler=args.scheduler, progress=not args.no_progress)
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result.summary())
        if args.out:
            print(f"results: {args.out}")
    if args.plot:

        game = registry.load(args.game, backend=args.backend, **result.game_options)
        plot_budget(result, specs, args.plot, game=game)
        if not args.json:
            print(f"plot: {args.plot}")
    return 0


__all__ = ["add_arena_command", "add_replay_command", "cmd_arena", "cmd_replay"]
