"""Fit Area 1851's learned evaluation (``games/area1851/value_model.py``) from seeded self-play.

Plays seeded games of the heuristic policy (v3) on the native kernel (its C port,
``policy_choice``), the odd-numbered ones with ``--epsilon`` random moves for
positions the policy alone does not reach (the policy keeps its assistants near
the Town Hall; the search does not); players 2, 2, 2, 3, 4, 5 by game number,
and now and then another ``block`` (1, 2, 3, 5 or 6 random events a block, so
games of 6 to 21 turns). At a random ``--sample`` share of the decision points
it records, for every seat, the features of :func:`value_model.features` (from
the reference state, the very function the engine evaluates) and the seat's
share of the win at the end (1 over the winners, 0 for the others; 1/n when all
tie). It fits a logistic regression (Newton's method, a small ridge) on the
games whose number is not 0 mod 5 and reports, on the others, the log loss and
the winner accuracy of the model (seat probabilities divided by their sum, as
the engine uses them) against the old static evaluation
(``heuristic.static_values``): mapped to a share as the engine maps the model
back (``s = ((n-1) v + 1) / n``, clipped), and refitted alone with a bias
(its best calibration). The games run on ``--processes`` cores::

    python benchmarks/area1851_value_fit.py --games 6000 --processes 2 --out runs/value_model_heuristic.json
    python benchmarks/area1851_value_fit.py --quick        # CI: 400 games, prints the fit, writes nothing

``--search-iterations N`` plays the games with the search instead (ISMCTS at the
preset, ``N`` iterations a move, no random moves), for a model of the positions
the search itself reaches; ``--players 2`` keeps every game at that count. The
shipped models (in use at two and three players, ``value_model.IN_USE_PLAYERS``) are::

    python benchmarks/area1851_value_fit.py --search-iterations 1000 --players 2 --games 2000 --sample 0.1 --processes 1 \\
        --out games/area1851/value_model.json
    python benchmarks/area1851_value_fit.py --search-iterations 1000 --players 3 --games 600 --sample 0.1 --processes 2 \\
        --out games/area1851/value_model_3p.json

(the first model, fitted on the heuristic's games by the first command, lost at
equal time and was never in use; ``area1851_value_match.py --model`` plays either.)
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
from aiplay.games.area1851.heuristic import static_values
from aiplay.games.area1851.value_model import FEATURES, features
from aiplay.search import make_bot

Rows = Tuple[List[List[float]], List[float], List[List[float]], List[int]]

#: Column of the old evaluation among FEATURES (the "old evaluation, refitted" comparison).
OLD = FEATURES.index("old evaluation")


def options_of(seed: int, players: Optional[int] = None) -> Dict[str, Any]:
    """The game options of game ``seed``: the player count (``players``, or by game number), now and then another block size."""
    options: Dict[str, Any] = {"players": players or (2, 2, 2, 3, 4, 5)[seed % 6]}
    block = (4, 4, 4, 4, 1, 2, 3, 5, 6)[seed % 9]
    if block != 4:
        options["block"] = block
    return options


def win_shares(returns: Sequence[float]) -> List[float]:
    """The target of each seat: 1 over the winners for a winner, 0 for the others, 1/n when all tie."""
    n = len(returns)
    if all(r == 0.0 for r in returns):
        return [1.0 / n] * n
    winners = sum(1 for r in returns if r > 0)
    return [1.0 / winners if r > 0 else 0.0 for r in returns]


def play(seed: int, epsilon: float, sample: float, data_seed: int, search_iterations: int = 0,
         players: Optional[int] = None) -> Rows:
    """One game: per recorded position and seat the features, the target, the old evaluation's share, the position id.

    ``search_iterations`` > 0: every seat moves by ISMCTS at the game's preset with that many
    iterations (seeded from the game), and ``epsilon`` is not used.
    """
    game = aiplay.load("area1851", backend="native", **options_of(seed, players))
    kernel = game.kernel
    n = game.num_players
    rng = random.Random(data_seed * 1_000_003 + seed)
    eps = epsilon if seed % 2 and not search_iterations else 0.0  # half the policy games with random moves
    searcher = (make_bot("ismcts", game=game, iterations=search_iterations, seed=rng.getrandbits(63))
                if search_iterations else None)
    state = game.new_initial_state()
    recorded = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if rng.random() < sample:
            recorded.append(state.to_reference())
        if searcher is not None:
            state.apply_action(searcher.choose(state))
        elif eps and rng.random() < eps:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            state.apply_action(kernel.policy_choice(state, rng.getrandbits(63)))
    target = win_shares(state.returns())
    x: List[List[float]] = []
    y: List[float] = []
    base: List[List[float]] = []
    ids: List[int] = []
    for k, ref in enumerate(recorded):
        old = static_values(ref)
        for p in range(n):
            x.append(features(ref, p, old))
            y.append(target[p])
            base.append([min(1.0, max(0.0, ((n - 1) * old[p] + 1.0) / n))])
            ids.append(seed * 10_000 + k)
    return x, y, base, ids


def _play_many(job: Tuple[Sequence[int], float, float, int, int, Optional[int]]) -> List[Tuple[int, Rows]]:
    seeds, epsilon, sample, data_seed, search_iterations, players = job
    return [(seed, play(seed, epsilon, sample, data_seed, search_iterations, players)) for seed in seeds]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=41, help="the data's seed (with the game number, every game's)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="random moves in the odd-numbered games")
    parser.add_argument("--sample", type=float, default=0.03, help="share of decision points recorded")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=max(1, multiprocessing.cpu_count()))
    parser.add_argument("--out", default=None, help="write the model here (games/area1851/value_model.json)")
    parser.add_argument("--search-iterations", type=int, default=0,
                        help="play the games by ISMCTS (the preset) at this many iterations a move; 0: the policy")
    parser.add_argument("--players", type=int, default=None, choices=(2, 3, 4, 5),
                        help="every game at this player count (default: 2, 2, 2, 3, 4, 5 by game number)")
    parser.add_argument("--quick", action="store_true", help="a short profile (CI): 400 games, nothing written")
    parser.add_argument("--only", action="append", default=[],
                        help="fit with only these features (repeatable; the others weigh 0), e.g. --only bias")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 400
    started = time.perf_counter()
    if args.search_iterations < 0:
        parser.error("--search-iterations must be 0 or more")
    chunk = 10 if args.search_iterations else 50  # search games are slow: smaller jobs, steadier progress
    jobs = [(range(a, min(a + chunk, args.games)), args.epsilon, args.sample, args.seed, args.search_iterations,
             args.players)
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
    if args.only:
        unknown = [name for name in args.only if name not in FEATURES]
        if unknown:
            parser.error(f"--only {unknown}: not features; they are {FEATURES}")
        # The other columns are zeroed, so their weights stay 0 (the ridge pulls them there).
        keep = np.array([name in args.only for name in FEATURES])
        xtr = xtr * keep
        xte = xte * keep
    w = logistic(xtr, ytr, args.ridge)
    raw = 1.0 / (1.0 + np.exp(-(xte @ w)))
    model_loss, model_acc = scores(normalised(raw, ids_te), yte, ids_te)
    raw_loss, _ = scores(raw, yte, ids_te)
    base_loss, base_acc = scores(base_te, yte, ids_te)
    # The old evaluation at its best: a logistic regression on it alone (bias and weight refitted).
    cols = [0, OLD]
    w_old = logistic(xtr[:, cols], ytr, args.ridge)
    refit_loss, refit_acc = scores(normalised(1.0 / (1.0 + np.exp(-(xte[:, cols] @ w_old))), ids_te), yte, ids_te)
    flat = float(ytr.mean())
    flat_loss, _ = scores(np.full(len(yte), flat), yte, ids_te)
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {positions} positions ({len(ytr)} + {len(yte)} seat rows, held out: games 0 mod 5); "
          f"{elapsed:.0f} s on {args.processes} processes")
    print(f"held-out log loss per seat: model {model_loss:.4f} (unnormalised {raw_loss:.4f}), "
          f"old evaluation {base_loss:.4f} (refitted alone {refit_loss:.4f}), base rate {flat_loss:.4f}")
    print(f"held-out winner accuracy: model {model_acc:.1%}, old evaluation {base_acc:.1%} (refitted {refit_acc:.1%})")
    print(f"old evaluation refitted alone: bias {w_old[0]:+.4f}, old evaluation {w_old[1]:+.4f}")
    for name, weight in zip(FEATURES, w):
        print(f"  {name:<30} {weight:+.4f}")
    if args.out:
        command = "python benchmarks/area1851_value_fit.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]))
        model = {
            "about": "Area 1851's learned evaluation (games/area1851/value_model.py); written by the command.",
            "features": list(FEATURES),
            "weights": {name: float(weight) for name, weight in zip(FEATURES, w)},
            "provenance": {"seed": args.seed, "games": args.games, "search_iterations": args.search_iterations,
                           "players": args.players, "positions": positions, "seat_rows": len(ytr) + len(yte),
                           "epsilon": args.epsilon, "sample": args.sample, "ridge": args.ridge,
                           "commit": commit(), "command": command.strip()},
            "held_out": {"games": "seed 0 mod 5", "log_loss": round(model_loss, 5), "winner_accuracy": round(model_acc, 5),
                         "old_evaluation_log_loss": round(base_loss, 5),
                         "old_evaluation_winner_accuracy": round(base_acc, 5),
                         "old_evaluation_refitted_log_loss": round(refit_loss, 5),
                         "base_rate_log_loss": round(flat_loss, 5)},
        }
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(model, handle, indent=1)
            handle.write("\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
