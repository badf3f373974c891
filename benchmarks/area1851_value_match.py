"""Issue 41 Build 2 for Area 1851: ISMCTS with the learned evaluation at its rollout cutoff, against today's preset.

Two ISMCTS bots at equal time per move (``--seconds``), 2 players, every deal
played twice with the seats swapped (``--players 3``-``5``: the measured bot in
one seat against the preset in the others, every deal played once from each
seat), seeded (the deal's seed draws the chance
outcomes and seeds both bots). The measured side cuts its uniformly random
playouts after ``--cutoff`` moves and scores them with ``--evaluation``:
``learned`` (the shipped model of the player count), ``zero`` (all weights 0: every
cut playout scores an even 0, no evaluation at all), ``old`` (the old static
evaluation, ``heuristic.static_values``) or ``custom`` (the weights given by
``--weight NAME=VALUE``, the others 0). The other side is the preset before
this build: random playouts cut after 40 moves, scored by the old evaluation.

Both sides share one kernel, so the kernel's weights are switched before each
search (``kernel.set_value_weights``); a search reads them only while it runs.
The games run on ``--processes`` cores (results do not depend on it, the
iterations a search gets do)::

    python benchmarks/area1851_value_match.py --cutoff 20 --seconds 0.05 --deals 30 --processes 2
    python benchmarks/area1851_value_match.py --cutoff 20 --evaluation zero --deals 10
    python benchmarks/area1851_value_match.py --cutoff 40 --evaluation custom --weight bias=0.1 --weight "old evaluation=2.5"
    python benchmarks/area1851_value_match.py --cutoff 40 --evaluation custom --model runs/value_model_search.json
    python benchmarks/area1851_value_match.py --quick     # CI: 1 deal at 0.005 s, cutoff 10

A game's score for the measured side is its share of the win (1 over the tied
winners, 0 for a loss), so its even share is 1 over the player count.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from typing import List, Optional, Sequence, Tuple

import aiplay
from aiplay.arena import wilson_interval
from aiplay.games.area1851 import value_model
from aiplay.play import play
from aiplay.search import make_bot

#: The preset before this build (games/area1851/game.py at b50f1ca): random playouts, cut at 40 moves.
PRESET_CUTOFF = 40
EVALUATIONS = ("learned", "zero", "old", "custom")


def weights_for(evaluation: str, custom: Sequence[str] = (), players: int = 2) -> Optional[Tuple[float, ...]]:
    """The kernel's weights for an evaluation name (None: the old static evaluation); ``custom``: NAME=VALUE.

    ``learned``: the shipped model of ``players`` (the two-player one where that count has none).
    """
    if evaluation == "custom":
        table = {}
        for item in custom:
            name, _, value = item.rpartition("=")
            if name not in value_model.FEATURES:
                raise SystemExit(f"--weight {item!r}: no feature {name!r}; they are {value_model.FEATURES}")
            table[name] = float(value)
        return tuple(table.get(name, 0.0) for name in value_model.FEATURES)
    if evaluation == "learned":
        return value_model.model_weights(players)
    if evaluation == "zero":
        return tuple(0.0 for _ in value_model.FEATURES)
    return None


def play_deal(job: Tuple[int, int, float, int, str, int, Tuple[str, ...], int]) -> Tuple[int, int, float, int, float]:
    """One game: deal ``deal``, the measured side in seat ``seat``; (deal, seat, its win share, moves, seconds)."""
    deal, seat, seconds, cutoff, evaluation, seed, custom, players = job
    game = aiplay.load("area1851", backend="native", players=players)
    kernel = game.kernel
    deal_seed = seed * 1_000_003 + deal
    # Bot 0 is the measured side; bot k >= 1 the preset (the two-player seeds as before this option).
    bots = [make_bot("ismcts", seconds=seconds, rollout_cutoff=cutoff, seed=deal_seed * 2 + 1)]
    bots += [make_bot("ismcts", seconds=seconds, rollout_cutoff=PRESET_CUTOFF, seed=deal_seed * 2 + 1 + k)
             for k in range(1, players)]
    weights = [weights_for(evaluation, custom, players)] + [None] * (players - 1)
    others = iter(range(1, players))
    side_of = [0 if p == seat else next(others) for p in range(players)]  # side_of[seat] = the bot playing it

    def choose(state):
        side = side_of[state.current_player()]
        kernel.set_value_weights(weights[side])
        return bots[side].choose(state)

    state = game.new_initial_state()
    started = time.perf_counter()
    try:
        moves = play(state, random.Random(deal_seed), choose=choose)
    finally:
        kernel.set_value_weights(value_model.default_weights(game.num_players))
    returns = list(state.returns())
    best = max(returns)
    share = 1.0 / returns.count(best) if returns[seat] == best else 0.0
    return deal, seat, share, moves, time.perf_counter() - started


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cutoff", type=int, default=20, help="the measured side's rollout cutoff")
    parser.add_argument("--evaluation", choices=EVALUATIONS, default="learned", help="the measured side's evaluation")
    parser.add_argument("--seconds", type=float, default=0.05, help="time a move, both sides")
    parser.add_argument("--deals", type=int, default=10, help="deals (games = 2 x deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weight", action="append", default=[], help="NAME=VALUE, with --evaluation custom")
    parser.add_argument("--model", default=None,
                        help="with --evaluation custom: the weights of a model file (area1851_value_fit.py --out)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5),
                        help="the measured bot in one seat, the preset in the others")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="CI: 1 deal at 0.005 s a move, cutoff 10")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.seconds, args.cutoff = 1, 0.005, 10
    if args.model:
        if args.evaluation != "custom":
            parser.error("--model needs --evaluation custom")
        with open(args.model, encoding="utf-8") as handle:
            table = json.load(handle)["weights"]
        args.weight += [f"{name}={value!r}" for name, value in table.items()]
    weights_for(args.evaluation, args.weight)  # a bad --weight fails here, before any game
    jobs = [(d, s, args.seconds, args.cutoff, args.evaluation, args.seed, tuple(args.weight), args.players)
            for d in range(args.deals) for s in range(args.players)]
    started = time.perf_counter()
    results: List[Tuple[int, int, float, int, float]] = []
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for r in pool.imap_unordered(play_deal, jobs):
                results.append(r)
                print(f"  deal {r[0]} seat {r[1]}: {r[2]:.1f} ({r[3]} moves, {r[4]:.0f} s)", flush=True)
    else:
        for job in jobs:
            r = play_deal(job)
            results.append(r)
            print(f"  deal {r[0]} seat {r[1]}: {r[2]:.1f} ({r[3]} moves, {r[4]:.0f} s)", flush=True)
    wins = sum(r[2] for r in results)
    low, high = wilson_interval(wins, len(results))
    play_s = sum(r[4] for r in results)
    label = args.evaluation + (f" (model {args.model})" if args.model else
                               " " + ", ".join(args.weight) if args.weight else "")
    print(f"RESULT {args.players} players, cutoff {args.cutoff}, {label} evaluation, against the preset "
          f"(random 40, old evaluation; even share {1 / args.players:.0%}), "
          f"{args.seconds} s a move, seed {args.seed}: {wins / len(results):.1%} of {len(results)} games, "
          f"95% interval [{low:.1%}, {high:.1%}]; mean {sum(r[3] for r in results) / len(results):.0f} moves, "
          f"{play_s:.0f} s of play, {time.perf_counter() - started:.0f} s wall", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
