"""Fit the escape model of Groom Lake's static evaluation (``heuristic.escape_chance``).

Plays seeded games of the heuristic policy (3 to 6 players in turn; with
``--epsilon`` a share of the moves random, for states the policy alone does
not reach), records the features of every turn's start and whether the Team
escaped in the end, and fits a logistic regression (Newton's method, a small
ridge) of the escape on those features. Then it fits the scale of the Alien
Proof race: the softmax over AP that best predicts which Team member won an
escape. ``heuristic.py`` holds the printed weights, rounded to two places::

    python benchmarks/groom_lake_escape_fit.py --games 1200 --epsilon 0 --games-random 1200 --epsilon-random 0.05
    python benchmarks/groom_lake_escape_fit.py --quick        # CI: a few games, the fit runs

The features (from the true state, roles included, as a search reads a
sampled world): the table size; a clear Civilization (no open hazard) next to
the Team; a clear Civilization on the map and the steps to the nearest; a
Civilization with an open hazard; the Team's steps from Groom Lake (capped at
8); the tiles on the map; the living Team members, their life tokens and their
cards without Alien Proof, each per starting Team member; the Alien alive.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake.components import ALIEN
from aiplay.games.groom_lake.heuristic import escape_inputs, policy
from aiplay.games.groom_lake.rules import S_ACTION, TEAM_ESCAPES

NAMES = ("bias", "players 4", "players 5", "players 6", "clear Civilization next", "clear Civilization",
         "steps to it (cap 8)", "Civilization with a hazard", "steps from the lake (cap 8)", "tiles on the map",
         "Team members / starters", "Team life / starters", "Team cards without AP / starters", "Alien alive")


def features(state) -> List[float]:
    """The regression's inputs at ``state`` (see the module docstring), in the order of :data:`NAMES`."""
    n = state.n
    tx, ty = state.team
    clear, hazard, members, life, cards, alien_alive = escape_inputs(state)
    starters = n - 1
    return [1.0, n == 4, n == 5, n == 6, clear == 1, clear >= 0, min(max(clear, 0), 8), hazard,
            min(abs(tx) + abs(ty), 8), len(state.placed), members / starters, life / starters, cards / starters,
            alien_alive]


def play(seed: int, epsilon: float) -> Tuple[List[List[float]], List[List[Tuple[int, int]]], int, List[int]]:
    """One game: the features and the Team's (seat, AP) at each turn's start, escaped or not, the winners."""
    n = 3 + seed % 4
    state = aiplay.load("groom_lake", backend="reference", players=n).new_initial_state()
    rng = random.Random(seed)
    rows, races = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if state.step == S_ACTION and state.ap == 2:
            rows.append(features(state))
            races.append([(p, state.ap_of(p)) for p in range(n) if state.life[p] > 0 and state.roles[p] != ALIEN])
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if rng.random() < epsilon else policy(state, rng))
    return rows, races, int(state.result == TEAM_ESCAPES), state.winners()


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Weights of a logistic regression of ``y`` on ``x`` (Newton's method with an L2 ridge)."""
    w = np.zeros(x.shape[1])
    for _ in range(60):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (y - p) - ridge * w
        hess = -(x.T * (p * (1 - p))) @ x - ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200, help="games of the plain policy")
    parser.add_argument("--epsilon", type=float, default=0.0)
    parser.add_argument("--games-random", type=int, default=1200, help="games with some random moves")
    parser.add_argument("--epsilon-random", type=float, default=0.05)
    parser.add_argument("--quick", action="store_true", help="a short profile (CI): 24 games")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.games_random = 12, 12
    started = time.perf_counter()
    x: List[List[float]] = []
    y: List[float] = []
    races: List[Tuple[List[Tuple[int, int]], List[int]]] = []
    for games, epsilon in ((args.games, args.epsilon), (args.games_random, args.epsilon_random)):
        for seed in range(games):
            rows, race, escaped, winners = play(seed, epsilon)
            x += rows
            y += [float(escaped)] * len(rows)
            if escaped:
                races += [(r, winners) for r in race if len(r) > 1]
            if seed % 200 == 199:
                print(f"  {seed + 1} games at epsilon {epsilon}, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr)
    xs, ys = np.array(x, float), np.array(y, float)
    w = logistic(xs, ys)
    p = 1.0 / (1.0 + np.exp(-xs @ w))
    fitted = float(np.mean(ys * np.log(p) + (1 - ys) * np.log(1 - p)))
    base = float(ys.mean())
    flat = base * math.log(base) + (1 - base) * math.log(1 - base)
    print(f"{len(ys)} turn starts of {args.games + args.games_random} games; escapes {base:.1%}; "
          f"mean log-likelihood {fitted:.3f} (base rate {flat:.3f}); {time.perf_counter() - started:.0f} s")
    for name, weight in zip(NAMES, w):
        print(f"  {name:<36} {weight:+.3f}")
    scores: Dict[float, float] = {}
    for scale in (5.0, 10.0, 15.0, 20.0, 30.0):
        total = 0.0
        for race, winners in races:
            best = max(ap for _, ap in race)
            z = sum(math.exp((ap - best) / scale) for _, ap in race)
            total += sum(math.log(math.exp((ap - best) / scale) / z) for seat, ap in race if seat in winners)
        scores[scale] = total / max(1, len(races))
    print("  AP race, mean log-likelihood of the winners by softmax scale: "
          + ", ".join(f"{s:g}: {v:.3f}" for s, v in scores.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
