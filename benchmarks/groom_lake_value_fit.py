"""Fit Groom Lake's learned evaluation (``games/groom_lake/value_model.py``) from seeded self-play.

Plays seeded games of the heuristic policy on the native kernel (its C port,
``policy_choice``), a share of them with ``--epsilon`` random moves for
positions the policy alone does not reach; 3, 4, 5 and 6 players by game
number, the ``half_win`` variant in one game in five. At a random ``--sample``
share of the decision points (set-up excluded) it records the features of
:func:`value_model.escape_features` and, per living Team member,
:func:`value_model.race_features` (from the reference state: the very functions
the engine evaluates), with the game's result.

It fits, on the games whose number is not 0 mod 5:

* the escape: a logistic regression (Newton's method, ridge ``--ridge``, the
  bias unpenalised) of "the Team escaped";
* the race: a conditional logit (a softmax over the living Team members at the
  position) of each member's share of the win, on positions of escaped games
  without a Half-Win.

On the held-out games it reports, per seat, the log loss of "this seat wins"
and the mean squared error of the value on the 0-1 scale (a win 1, a loss 0),
for the learned model and for today's hand-fitted static evaluation
(``heuristic.static_values``), and the escape's log loss. The games run on
``--processes`` cores::

    python benchmarks/groom_lake_value_fit.py --games 8000 --processes 2 --out games/groom_lake/value_model.json
    python benchmarks/groom_lake_value_fit.py --quick        # CI: 160 games, prints the fit, writes nothing

``--search-iterations N`` plays the games with the search instead (every seat
ISMCTS at the game's preset, ``N`` iterations a move, no random moves), for a
model of the positions the search itself reaches (the recipe that gave Area 1851
its first evaluation to win at equal time); ``--players 3`` keeps every game at
that count. ``--one-searcher`` lets only one seat search (seat = game number mod
the player count) and the others play the policy: the games of the strength
match, where the measured search sits among heuristic bots, and ``--searcher-role
alien`` (or ``human``) deals that seat that role in every game (the role draws
conditioned as the strength match conditions them), for an evaluation of the
positions one role's search reaches::

    python benchmarks/groom_lake_value_fit.py --search-iterations 1000 --players 3 --games 500 --sample 0.2 --out FILE
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

from value_fitting import logistic, commit
from groom_lake_strength import conditioned_chance

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake.components import ALIEN
from aiplay.games.groom_lake.heuristic import static_values
from aiplay.games.groom_lake.rules import S_DEAL, S_KEEP, S_ROLES, S_ROW, TEAM_ESCAPES
from aiplay.games.groom_lake import value_model
from aiplay.games.groom_lake.value_model import (
    ESCAPE_FEATURES, FEATURES, RACE_FEATURES, escape_features, race_features)
from aiplay.search import make_bot

SETUP = (S_ROLES, S_DEAL, S_KEEP, S_ROW)

#: One recorded position: (game seed, escape features, [(seat, race features)] of the living Team,
#: half-Win agreed, seats' old static values, seats' roles).
Position = Tuple[int, List[float], List[Tuple[int, List[float]]], bool, List[float], List[int], Any]
#: One game: its positions, whether the Team escaped, each seat's return.
Game = Tuple[List[Position], bool, List[float]]


def options_of(seed: int, players: Optional[int] = None) -> Dict[str, Any]:
    """The game options of game ``seed``: ``players``, else 3 to 6 players in turn; the Half-Win variant in one game in five."""
    options: Dict[str, Any] = {"players": players or 3 + seed % 4}
    if seed % 5 == 2:
        options["half_win"] = True
    return options


def play(seed: int, epsilon: float, sample: float, data_seed: int, keep_states: bool = False,
         search_iterations: int = 0, players: Optional[int] = None, one_searcher: bool = False,
         searcher_role: Optional[str] = None) -> Game:
    """One game of the policy (random moves at ``epsilon`` in the odd-numbered games), positions sampled.

    ``search_iterations`` > 0: every seat (``one_searcher``: seat ``seed`` mod n only) moves by
    ISMCTS at the game's preset with that many iterations (seeded from the game), and
    ``epsilon`` is not used. ``searcher_role`` ("Alien" or "Human", with
    ``one_searcher``): the role draws give the searching seat that role.
    """
    game = aiplay.load("groom_lake", backend="native", **options_of(seed, players))
    kernel = game.kernel
    rng = random.Random(data_seed * 1_000_003 + seed)
    eps = epsilon if seed % 2 and not search_iterations else 0.0
    searcher = (make_bot("ismcts", game=game, iterations=search_iterations, seed=rng.getrandbits(63))
                if search_iterations else None)
    state = game.new_initial_state()
    positions: List[Position] = []
    seat = seed % game.num_players
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(conditioned_chance(state, seat, searcher_role, rng) if searcher_role
                               else sample_chance_outcome(state, rng))
            continue
        if rng.random() < sample:
            ref = state.to_reference()
            if ref.step not in SETUP:
                team = [(p, race_features(ref, p)) for p in range(ref.n) if ref.life[p] > 0 and ref.roles[p] != ALIEN]
                positions.append((seed, escape_features(ref), team, bool(ref.half_agreed), static_values(ref),
                                  list(ref.roles), ref if keep_states else None))
        if searcher is not None and (not one_searcher or state.current_player() == seat):
            state.apply_action(searcher.choose(state))
        elif eps and rng.random() < eps:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            state.apply_action(kernel.policy_choice(state, rng.getrandbits(63)))
    ref = state.to_reference()
    return positions, ref.result == TEAM_ESCAPES, list(state.returns())


def _play_many(job: Tuple[Sequence[int], float, float, int, int, Optional[int], bool, Optional[str]]) -> List[Game]:
    seeds, epsilon, sample, data_seed, search_iterations, players, one_searcher, searcher_role = job
    return [play(seed, epsilon, sample, data_seed, search_iterations=search_iterations, players=players,
                 one_searcher=one_searcher, searcher_role=searcher_role) for seed in seeds]


def conditional_logit(groups: List[Tuple[np.ndarray, np.ndarray]], ridge: float = 1.0, rounds: int = 50) -> np.ndarray:
    """Weights ``v`` of a softmax over each group's rows (``x`` a member per row) of the target shares ``y``.

    Newton's method with an L2 ridge; the groups are stacked, and sums per group use ``np.add.reduceat``.
    """
    x = np.concatenate([g[0] for g in groups])
    y = np.concatenate([g[1] for g in groups])
    sizes = np.array([len(g[1]) for g in groups])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(groups)), sizes)
    weight = np.add.reduceat(y, starts)  # each group's total target (1 when a member won)
    k = x.shape[1]
    v = np.zeros(k)
    for _ in range(rounds):
        s = x @ v
        s = s - np.maximum.reduceat(s, starts)[owner]
        e = np.exp(s)
        p = e / np.add.reduceat(e, starts)[owner]
        mean = np.add.reduceat(x * p[:, None], starts)  # per group
        grad = y @ x - weight @ mean - ridge * v
        second = (x * (p * weight[owner])[:, None]).T @ x
        hess = -(second - (mean * weight[:, None]).T @ mean) - ridge * np.eye(k)
        step = np.linalg.solve(hess - 1e-9 * np.eye(k), grad)
        v -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return v


def win_probability(value: float, n: int) -> float:
    """A seat's chance to win implied by its expected return with one winner: ``v = w - (1 - w) / (n - 1)``."""
    return (value + 1.0 / (n - 1)) / (1.0 + 1.0 / (n - 1))


def model_values(position: Position, w: Sequence[float]) -> List[float]:
    """The learned model's values at a recorded position (the formula of ``learned_values``, from its features)."""
    _, x, team, half, old, roles, _ = position
    n = len(roles)
    e = 1.0 / (1.0 + np.exp(-float(np.dot(w[:len(ESCAPE_FEATURES)], x))))
    race = np.array(w[len(ESCAPE_FEATURES):])
    if team:
        if half:
            shares = {p: 1.0 / len(team) for p, _ in team}
        else:
            s = np.array([float(np.dot(race, r)) for _, r in team])
            z = np.exp(s - s.max())
            shares = {p: float(v) for (p, _), v in zip(team, z / z.sum())}
    else:
        shares = {}
    winners = len(shares) if half else 1
    lost_escape, lost_alien = -1.0 / (n - winners), -1.0 / (n - 1)
    out = []
    for p in range(n):
        if roles[p] == ALIEN:
            out.append((1 - e) + e * lost_escape)
        elif p in shares:
            win = e * shares[p]
            out.append(win + (1 - win) * lost_alien if not half else win + (1 - e) * lost_alien)
        else:
            out.append(e * lost_escape + (1 - e) * lost_alien)
    return out


def seat_scores(games: List[Game], values_of: Any) -> Tuple[float, float, int]:
    """Per seat row: the log loss of "this seat wins" and the squared error of the value on the 0-1 scale."""
    loss = square = 0.0
    rows = 0
    for positions, _, returns in games:
        n = len(returns)
        for position in positions:
            values = values_of(position)
            for p in range(n):
                won = 1.0 if returns[p] > 0 else 0.0
                q = min(max(win_probability(values[p], n), 1e-6), 1 - 1e-6)
                loss -= won * np.log(q) + (1 - won) * np.log(1 - q)
                scaled = (values[p] + 1.0) / 2.0
                target = (returns[p] + 1.0) / 2.0
                square += (scaled - target) ** 2
                rows += 1
    return loss / max(1, rows), square / max(1, rows), rows


def progress(before: int, done: int, total: int, started: float) -> None:
    """A line on stderr each time ``done`` passes another tenth of the games (search games take hours)."""
    if done * 10 // total > before * 10 // total:
        print(f"  {done}/{total} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=41, help="the data's seed (with the game number, every game's)")
    parser.add_argument("--epsilon", type=float, default=0.05, help="random moves in the odd-numbered games")
    parser.add_argument("--sample", type=float, default=0.05, help="share of decision points recorded")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=max(1, multiprocessing.cpu_count()))
    parser.add_argument("--out", default=None, help="write the model here (games/groom_lake/value_model.json)")
    parser.add_argument("--search-iterations", type=int, default=0,
                        help="play the games by ISMCTS (the preset) at this many iterations a move; 0: the policy")
    parser.add_argument("--players", type=int, default=None, choices=(3, 4, 5, 6),
                        help="every game at this player count (default: 3, 4, 5, 6 by game number)")
    parser.add_argument("--one-searcher", action="store_true",
                        help="with --search-iterations: one seat searches (game number mod n), the others play the policy")
    parser.add_argument("--searcher-role", choices=("alien", "human"), default=None,
                        help="with --one-searcher: the searching seat holds this role in every game")
    parser.add_argument("--quick", action="store_true", help="a short profile (CI): 160 games, nothing written")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 160
    if args.search_iterations < 0:
        parser.error("--search-iterations must be 0 or more")
    if args.one_searcher and not args.search_iterations:
        parser.error("--one-searcher needs --search-iterations")
    if args.searcher_role and not args.one_searcher:
        parser.error("--searcher-role needs --one-searcher")
    role = args.searcher_role.capitalize() if args.searcher_role else None
    started = time.perf_counter()
    chunk = 5 if args.search_iterations else 20  # search games are slow: smaller jobs, steadier progress
    jobs = [(range(a, min(a + chunk, args.games)), args.epsilon, args.sample, args.seed, args.search_iterations,
             args.players, args.one_searcher, role)
            for a in range(0, args.games, chunk)]
    games: List[Game] = []
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for part in pool.imap(_play_many, jobs):
                games += part
                progress(len(games) - len(part), len(games), args.games, started)
    else:
        for job in jobs:
            part = _play_many(job)
            games += part
            progress(len(games) - len(part), len(games), args.games, started)
    train = [g for g in games if g[0] and g[0][0][0] % 5 != 0]
    test = [g for g in games if g[0] and g[0][0][0] % 5 == 0]
    xs = np.array([pos[1] for g in train for pos in g[0]], float)
    ys = np.array([float(g[1]) for g in train for _ in g[0]], float)
    w_escape = logistic(xs, ys, args.ridge, rounds=50)
    groups = []
    for positions, escaped, returns in train:
        if not escaped:
            continue
        for pos in positions:
            team, half = pos[2], pos[3]
            if len(team) > 1 and not half:
                groups.append((np.array([r for _, r in team], float),
                               np.array([max(0.0, returns[p]) for p, _ in team], float)))
    w_race = conditional_logit(groups, args.ridge) if groups else np.zeros(len(RACE_FEATURES))
    w = [float(v) for v in w_escape] + [float(v) for v in w_race]
    positions_count = sum(len(g[0]) for g in games)
    model_loss, model_mse, rows = seat_scores(test, lambda pos: model_values(pos, w))
    old_loss, old_mse, _ = seat_scores(test, lambda pos: pos[4])
    shipped_loss, shipped_mse, _ = seat_scores(test, lambda pos: model_values(pos, value_model.WEIGHTS))
    flat = float(np.mean([1.0 if r > 0 else 0.0 for g in train for _ in g[0] for r in g[2]]))
    flat_loss = -(flat * np.log(flat) + (1 - flat) * np.log(1 - flat))
    xt = np.array([pos[1] for g in test for pos in g[0]], float)
    yt = np.array([float(g[1]) for g in test for _ in g[0]], float)
    pt = np.clip(1.0 / (1.0 + np.exp(-(xt @ w_escape))), 1e-6, 1 - 1e-6)
    escape_loss = float(-np.mean(yt * np.log(pt) + (1 - yt) * np.log(1 - pt)))
    base = float(ys.mean())
    escape_flat = -(base * np.log(base) + (1 - base) * np.log(1 - base))
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {positions_count} positions ({len(ys)} + {len(yt)}; held out: games 0 mod 5, "
          f"{rows} seat rows); escapes {base:.1%}; {len(groups)} race groups; {elapsed:.0f} s on {args.processes} processes")
    print(f"held-out log loss per seat (this seat wins): model {model_loss:.4f}, shipped model {shipped_loss:.4f}, "
          f"old static evaluation {old_loss:.4f}, base rate {flat_loss:.4f}")
    print(f"held-out squared error of the value (0-1 scale): model {model_mse:.4f}, shipped {shipped_mse:.4f}, "
          f"old {old_mse:.4f}")
    print(f"held-out log loss of the escape: model {escape_loss:.4f}, base rate {escape_flat:.4f}")
    for name, weight in zip(FEATURES, w):
        print(f"  {name:<36} {weight:+.4f}")
    if args.out:
        command = "python benchmarks/groom_lake_value_fit.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]))
        model = {
            "about": "Groom Lake's learned evaluation (games/groom_lake/value_model.py); written by the command.",
            "features": list(FEATURES),
            "weights": {name: weight for name, weight in zip(FEATURES, w)},
            "provenance": {"seed": args.seed, "games": args.games, "search_iterations": args.search_iterations,
                           "one_searcher": args.one_searcher, "searcher_role": args.searcher_role,
                           "players": args.players, "positions": positions_count,
                           "race_groups": len(groups), "epsilon": args.epsilon, "sample": args.sample,
                           "ridge": args.ridge, "commit": commit(), "command": command.strip()},
            "held_out": {"games": "seed 0 mod 5", "seat_rows": rows, "log_loss": round(model_loss, 5),
                         "squared_error": round(model_mse, 5), "static_log_loss": round(old_loss, 5),
                         "static_squared_error": round(old_mse, 5), "base_rate_log_loss": round(float(flat_loss), 5),
                         "escape_log_loss": round(escape_loss, 5)},
        }
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(model, handle, indent=1)
            handle.write("\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
