"""Fit Sunken City's learned evaluation (``games/sunken_city/value_model.py``) from seeded self-play.

Plays seeded games of the heuristic policy on the native kernel (its C port,
``policy_choice``), a share of them with ``--epsilon`` random moves for
positions the policy alone does not reach; 2 players in half the games, 3 and 4
in a quarter each, the ``short`` and ``no_neptune_chips`` variants now and then.
At a random ``--sample`` share of the decision points it records, for every
seat, the features of :func:`value_model.features` (from the reference state,
the very function the engine evaluates) and the seat's return at the end (1, a
share of a tie, or 0). It fits a logistic regression (Newton's method, a small
ridge) on the games whose seed is not 0 mod 5 and reports, on the others, the
log loss and the winner accuracy of the model (seat probabilities divided by
their sum, as the engine uses them) against today's static evaluation, the
share of the "wealth". The games run on ``--processes`` cores::

    python benchmarks/sunken_city_value_fit.py --games 20000 --processes 2 --out games/sunken_city/value_model.json
    python benchmarks/sunken_city_value_fit.py --quick        # CI: 400 games, prints the fit, writes nothing
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from value_fitting import logistic, normalised, scores, commit

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.games.sunken_city.value_model import FEATURES, features

Rows = Tuple[List[List[float]], List[float], List[List[float]], List[int]]


def options_of(seed: int) -> Dict[str, Any]:
    """The game options of game ``seed``: the player count and now and then a variant."""
    options: Dict[str, Any] = {"players": (2, 2, 3, 4)[seed % 4]}
    if seed % 7 == 3:
        options["short"] = True
    if seed % 7 == 5:
        options["no_neptune_chips"] = True
    return options


def wealth_shares(state: Any) -> List[float]:
    """Today's static evaluation (``heuristic_values`` before the model): the shares of 1 + 2 per secured + 1 per carried."""
    n = state.game.players
    wealth = [1 + 2 * len(state.secured(p)) + len(state.carried(p)) for p in range(n)]
    return [w / sum(wealth) for w in wealth]


def play(seed: int, epsilon: float, sample: float, data_seed: int) -> Rows:
    """One game: per recorded position and seat the features, the seat's return, the wealth share, the position id."""
    game = aiplay.load("sunken_city", backend="native", **options_of(seed))
    kernel = game.kernel
    rng = random.Random(data_seed * 1_000_003 + seed)
    eps = epsilon if seed % 2 else 0.0  # half the games the plain policy, half with random moves
    state = game.new_initial_state()
    recorded = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if rng.random() < sample:
            recorded.append(state.to_reference())
        if eps and rng.random() < eps:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            state.apply_action(kernel.policy_choice(state, rng.getrandbits(63)))
    returns = state.returns()
    x: List[List[float]] = []
    y: List[float] = []
    base: List[List[float]] = []
    ids: List[int] = []
    for k, ref in enumerate(recorded):
        shares = wealth_shares(ref)
        for p in range(ref.game.players):
            x.append(features(ref, p))
            y.append(returns[p])
            base.append([shares[p]])
            ids.append(seed * 10_000 + k)
    return x, y, base, ids


def _play_many(job: Tuple[Sequence[int], float, float, int]) -> List[Tuple[int, Rows]]:
    seeds, epsilon, sample, data_seed = job
    return [(seed, play(seed, epsilon, sample, data_seed)) for seed in seeds]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=41, help="the data's seed (with the game number, every game's)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="random moves in the odd-numbered games")
    parser.add_argument("--sample", type=float, default=0.05, help="share of decision points recorded")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=max(1, multiprocessing.cpu_count()))
    parser.add_argument("--out", default=None, help="write the model here (games/sunken_city/value_model.json)")
    parser.add_argument("--quick", action="store_true", help="a short profile (CI): 400 games, nothing written")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 400
    started = time.perf_counter()
    chunk = 50
    jobs = [(range(a, min(a + chunk, args.games)), args.epsilon, args.sample, args.seed)
            for a in range(0, args.games, chunk)]
    results: List[Tuple[int, Rows]] = []
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for part in pool.imap(_play_many, jobs):
                results += part
    else:
        for job in jobs:
            results += _play_many(job)
    results.sort(key=lambda item: item[0])
    split: Dict[bool, Tuple[list, list, list, list]] = {True: ([], [], [], []), False: ([], [], [], [])}
    for seed, (x, y, base, ids) in results:
        bucket = split[seed % 5 == 0]
        bucket[0].extend(x)
        bucket[1].extend(y)
        bucket[2].extend(base)
        bucket[3].extend(ids)
    xtr, ytr = np.array(split[False][0], float), np.array(split[False][1], float)
    xte, yte = np.array(split[True][0], float), np.array(split[True][1], float)
    base_te, ids_te = np.array(split[True][2], float)[:, 0], np.array(split[True][3])
    positions = len(set(split[False][3])) + len(set(split[True][3]))
    w = logistic(xtr, ytr, args.ridge)
    raw = 1.0 / (1.0 + np.exp(-(xte @ w)))
    model_loss, model_acc = scores(normalised(raw, ids_te), yte, ids_te)
    raw_loss, _ = scores(raw, yte, ids_te)
    base_loss, base_acc = scores(base_te, yte, ids_te)
    flat = float(ytr.mean())
    flat_loss, _ = scores(np.full(len(yte), flat), yte, ids_te)
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {positions} positions ({len(ytr)} + {len(yte)} seat rows, held out: games 0 mod 5); "
          f"{elapsed:.0f} s on {args.processes} processes")
    print(f"held-out log loss per seat: model {model_loss:.4f} (unnormalised {raw_loss:.4f}), "
          f"wealth share {base_loss:.4f}, base rate {flat_loss:.4f}")
    print(f"held-out winner accuracy: model {model_acc:.1%}, wealth share {base_acc:.1%}")
    for name, weight in zip(FEATURES, w):
        print(f"  {name:<30} {weight:+.4f}")
    if args.out:
        command = "python benchmarks/sunken_city_value_fit.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]))
        model = {
            "about": "Sunken City's learned evaluation (games/sunken_city/value_model.py); written by the command.",
            "features": list(FEATURES),
            "weights": {name: float(weight) for name, weight in zip(FEATURES, w)},
            "provenance": {"seed": args.seed, "games": args.games, "positions": positions, "seat_rows": len(ytr) + len(yte),
                           "epsilon": args.epsilon, "sample": args.sample, "ridge": args.ridge,
                           "commit": commit(), "command": command.strip()},
            "held_out": {"games": "seed 0 mod 5", "log_loss": round(model_loss, 5), "winner_accuracy": round(model_acc, 5),
                         "wealth_share_log_loss": round(base_loss, 5),
                         "wealth_share_winner_accuracy": round(base_acc, 5)},
        }
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(model, handle, indent=1)
            handle.write("\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
