"""The arena's speed-up from 1 to N Dask workers on this machine (issue 16; figures in RESULTS.md).

Plays the same seeded round robin three ways: in this process (``workers=1``),
on a local Dask cluster of one process, and on one of N processes (each
cluster started first; its start-up time is printed apart), checks that the
games are identical game by game, and prints wall times, games/s and the
speed-ups.

Usage::

    python benchmarks/arena_scaling.py                 # Sunken City, 3 bots, 24 games, 2 workers
    python benchmarks/arena_scaling.py --games 2 --workers 2 --quick
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

from dask.distributed import LocalCluster

from aiplay import arena

BOTS = ["mcts(iterations=200,rollout=policy)", "heuristic", "random"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games per table (3 tables)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="pig instead of Sunken City (seconds)")
    args = parser.parse_args(argv)
    game, options = ("pig", {"winscore": 20}) if args.quick else ("sunken_city", {})
    bots = ["mcts(iterations=200)", "expectimax", "random"] if args.quick else BOTS
    print(f"{game}, bots {bots}, {args.games} games per table, seed {args.seed}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    runs = {}
    started = time.perf_counter()
    result = arena.run(game, bots, games=args.games, seed=args.seed, game_options=options, progress=False)
    runs["in-process"] = (result, time.perf_counter() - started)
    print(f"  in-process: {result.games} games in {runs['in-process'][1]:.1f} s", flush=True)
    for workers in (1, args.workers):
        started = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=logging.CRITICAL) as cluster:
            startup = time.perf_counter() - started
            started = time.perf_counter()
            result = arena.run(game, bots, games=args.games, seed=args.seed, game_options=options, progress=False,
                               scheduler=cluster.scheduler_address)
            wall = time.perf_counter() - started
        label = f"dask, {workers} worker{'s' if workers > 1 else ''}"
        runs[label] = (result, wall)
        print(f"  {label}: {result.games} games in {wall:.1f} s ({result.games / wall:.3f} games/s) after a "
              f"{startup:.1f} s cluster start; load {os.getloadavg()[0]:.1f}", flush=True)
    games = [[(r.deal, r.seating, r.returns, r.moves) for r in res.records] for res, _ in runs.values()]
    identical = all(g == games[0] for g in games)
    base = runs["in-process"][1]
    for label, (_, wall) in runs.items():
        print(f"  speed-up {label}: x{base / wall:.2f}")
    print(f"  identical game by game: {identical}")
    print(runs["in-process"][0].summary())
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
