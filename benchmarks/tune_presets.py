"""Search constants tuned, not guessed: a seeded NTBEA over a game's search options (issue 41, Build 4).

The N-Tuple Bandit Evolutionary Algorithm (as TAG uses it) searches a small
discrete space of options, here a game's tree-search options (the exploration
constant ``uct_c``, ``rollout_cutoff``, ``rollout`` where the game has a playout
policy). Its model keeps bandit statistics (visits, reward sum) for every
1-tuple (one option at one value) and for the full n-tuple (one whole
setting); a setting's UCB score is the mean, over those tuples, of the tuple's
mean reward plus ``k * sqrt(log(1 + N) / (n + eps))``. Each round proposes
mutations of the current setting, evaluates the ``--batch`` best of them by
that score (one game each, on ``--processes`` workers), updates the model,
and moves the current setting to the best of the batch. The recommendation is
the best setting by the model with exploration off, among the settings played
at least ``--min-visits`` times.

One evaluation is one game of the candidate against the game's current preset
for the same search kind, both at ``--seconds`` a move (equal time), in the
smallest table the game seats (two players; a game of three or more fills the
other seats with the preset). The candidate's seat rotates with the
evaluation's index and every game has its own deal, both drawn from
``--seed``. The reward is the candidate's win share (1 alone, 1/k in a k-way
tie, 0 otherwise), on a 0-1 scale. Then a separate validation match with a new
seed, the recommendation against the preset, seats rotated, ``--validate-games``
games, gives the win rate with its Wilson 95 % interval.

Examples (the figures in ``benchmarks/RESULTS.md``, "Issue 41 Build 4")::

    nice -n 10 python benchmarks/tune_presets.py area51 --evaluations 300 --processes 2 \\
        --seed 1 --validate-games 100 --out build/tune_area51.json
    python benchmarks/tune_presets.py --quick          # CI: a small game, under a minute

Only ``--iterations`` budgets (instead of ``--seconds``) make a run repeat game
for game; at a time budget the games depend on the machine's speed and load.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from aiplay import registry
from aiplay.arena import run as run_arena
from aiplay.arena.tournament import play_task
from aiplay.errors import InvalidOptionError
from aiplay.search import BOTS
from aiplay.search.kinds import strongest_kind

#: The default space of the tree searches' options (``rollout`` is added where the game has a policy).
EXPLORATION = (0.3, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8)
CUTOFFS = (10, 20, 40, 60, 80, None)
ROLLOUTS = ("random", "policy")

#: The quick profile (CI): a short game, a few iteration-budgeted evaluations, a tiny validation.
QUICK_GAME = "pig"

Point = Tuple[int, ...]  # one index per dimension of the space


# ---------------------------------------------------------------------------------------------------
# The bandit model


class NTupleModel:
    """UCB statistics of the 1-tuples and the full n-tuple of a discrete space.

    ``sizes``: the number of values of each dimension. ``k``: the exploration
    weight (rewards on a 0-1 scale). ``pairs``: also keep every 2-tuple.
    """

    def __init__(self, sizes: Sequence[int], k: float = 1.0, epsilon: float = 1e-6, pairs: bool = False):
        if not sizes or any(int(s) < 1 for s in sizes):
            raise InvalidOptionError(f"every dimension of the space needs a value; sizes {list(sizes)}")
        self.sizes = [int(s) for s in sizes]
        self.k, self.epsilon = float(k), float(epsilon)
        dims = len(self.sizes)
        tuples: List[Tuple[int, ...]] = [(d,) for d in range(dims)]
        if pairs:
            tuples += [(a, b) for a in range(dims) for b in range(a + 1, dims)]
        if tuple(range(dims)) not in tuples:  # with one dimension the 1-tuple is the full tuple
            tuples.append(tuple(range(dims)))
        self.tuples = tuples
        #: stats[tuple index][values] = [visits, reward sum]
        self.stats: List[Dict[Tuple[int, ...], List[float]]] = [{} for _ in tuples]
        self.evaluations = 0
        self.total_reward = 0.0

    def add(self, point: Point, reward: float) -> None:
        """Record one evaluation of ``point``."""
        self._check(point)
        for t, dims in enumerate(self.tuples):
            entry = self.stats[t].setdefault(tuple(point[d] for d in dims), [0, 0.0])
            entry[0] += 1
            entry[1] += reward
        self.evaluations += 1
        self.total_reward += reward

    def visits(self, point: Point) -> int:
        """How often the whole setting ``point`` was played."""
        entry = self.stats[-1].get(tuple(point))
        return int(entry[0]) if entry else 0

    def mean(self, point: Point) -> Optional[float]:
        """The mean reward of the whole setting ``point``, or None when it was never played."""
        entry = self.stats[-1].get(tuple(point))
        return entry[1] / entry[0] if entry else None

    def score(self, point: Point, explore: bool = True) -> float:
        """The model's value of ``point``: the mean over tuples of mean reward (+ the UCB term).

        With ``explore`` off, tuples never played are left out (no data, no opinion).
        """
        self._check(point)
        log_n = math.log(1 + self.evaluations)
        values = []
        for t, dims in enumerate(self.tuples):
            entry = self.stats[t].get(tuple(point[d] for d in dims))
            n, total = (entry[0], entry[1]) if entry else (0, 0.0)
            exploit = total / n if n else 0.0
            if explore:
                values.append(exploit + self.k * math.sqrt(log_n / (n + self.epsilon)))
            elif n:
                values.append(exploit)
        return sum(values) / len(values) if values else 0.0

    def _check(self, point: Point) -> None:
        if len(point) != len(self.sizes) or any(not 0 <= v < s for v, s in zip(point, self.sizes)):
            raise InvalidOptionError(f"point {tuple(point)} is outside the space of sizes {self.sizes}")


class NTBEA:
    """The search: rounds of proposals around the current setting, scored by :class:`NTupleModel`.

    ``evaluate(batch)`` gets ``[(evaluation index, point), ...]`` and returns one
    reward in [0, 1] for each. Everything random comes from ``seed``.
    """

    def __init__(self, sizes: Sequence[int], seed: int, *, k: float = 1.0, neighbours: int = 50,
                 pairs: bool = False, start: Optional[Point] = None):
        self.model = NTupleModel(sizes, k=k, pairs=pairs)
        self.rng = random.Random(seed)
        self.neighbours = int(neighbours)
        self.current: Point = tuple(start) if start is not None else tuple(self.rng.randrange(s) for s in sizes)
        self.model._check(self.current)
        #: Every evaluation: (index, point, reward), in order.
        self.history: List[Tuple[int, Point, float]] = []

    def mutations(self, point: Point) -> List[Point]:
        """Up to ``neighbours`` distinct settings, each ``point`` with one or more values changed."""
        sizes = self.model.sizes
        mutable = [d for d, s in enumerate(sizes) if s > 1]
        if not mutable:
            return []
        out: List[Point] = []
        for _ in range(self.neighbours):
            new = list(point)
            # Each dimension mutates with probability 1/d; at least one always does.
            changed = [d for d in mutable if self.rng.random() < 1.0 / len(mutable)] or [self.rng.choice(mutable)]
            for d in changed:
                new[d] = self.rng.choice([v for v in range(sizes[d]) if v != point[d]])
            if tuple(new) not in out:
                out.append(tuple(new))
        return out

    def propose(self, batch: int) -> List[Point]:
        """The ``batch`` settings to play next: the best by UCB among the current one and its mutations."""
        pool = [self.current] + [p for p in self.mutations(self.current) if p != self.current]
        # A random key breaks ties (many unseen settings score alike), drawn from the seeded rng.
        keyed = [(self.model.score(p), self.rng.random(), p) for p in pool]
        keyed.sort(key=lambda item: (-item[0], item[1]))
        return [p for _, _, p in keyed[:batch]]

    def run(self, evaluate: Callable[[List[Tuple[int, Point]]], List[float]], evaluations: int, batch: int,
            on_round: Optional[Callable[["NTBEA", List[Tuple[int, Point, float]]], None]] = None,
            stop: Optional[Callable[[], bool]] = None) -> None:
        """Play up to ``evaluations`` evaluations in all, ``batch`` at a time.

        ``stop()``, asked before each round, ends the search early when it returns True.
        """
        while len(self.history) < evaluations and not (stop is not None and stop()):
            points = self.propose(min(batch, evaluations - len(self.history)))
            jobs = [(len(self.history) + i, p) for i, p in enumerate(points)]
            rewards = evaluate(jobs)
            done = []
            for (index, point), reward in zip(jobs, rewards):
                reward = float(reward)
                if not 0.0 <= reward <= 1.0:
                    raise InvalidOptionError(f"reward {reward} of evaluation {index} is outside [0, 1]")
                self.model.add(point, reward)
                self.history.append((index, point, reward))
                done.append((index, point, reward))
            # Walk on to the batch's best by UCB, as TAG moves to the neighbour it evaluates next.
            self.current = max(points, key=lambda p: (self.model.score(p), -points.index(p)))
            if on_round is not None:
                on_round(self, done)

    def ranking(self, min_visits: int = 1) -> List[Point]:
        """Settings played at least ``min_visits`` times (else the most played), best model value first."""
        played = [p for p in self.model.stats[-1]]
        if not played:
            return []
        most = max(self.model.visits(p) for p in played)
        floor = min(min_visits, most)
        eligible = [p for p in played if self.model.visits(p) >= floor]
        return sorted(eligible, key=lambda p: (-self.model.score(p, explore=False), -self.model.visits(p), p))

    def recommend(self, min_visits: int = 1) -> Optional[Point]:
        """The best setting by the model with exploration off (see :meth:`ranking`)."""
        ranking = self.ranking(min_visits)
        return ranking[0] if ranking else None


# ---------------------------------------------------------------------------------------------------
# A game's space and its evaluations


def smallest_table(game: str) -> int:
    """The fewest players the game seats (2 for most; a game that needs three says 3)."""
    spec = registry.game_entry(game).reference.option_spec
    if "players" in spec and spec["players"].low is not None:
        return int(spec["players"].low)
    return registry.load(game).num_players


def table_options(game: str) -> Dict[str, Any]:
    """The game options of the smallest table."""
    spec = registry.game_entry(game).reference.option_spec
    return {"players": smallest_table(game)} if "players" in spec else {}


def default_space(game: str) -> Dict[str, List[Any]]:
    """The default space of ``game``'s search options: exploration, cutoff, and rollout where it has a policy."""
    space: Dict[str, List[Any]] = {"uct_c": list(EXPLORATION), "rollout_cutoff": list(CUTOFFS)}
    if has_policy(game):
        space["rollout"] = list(ROLLOUTS)
    return space


def has_policy(game: str) -> bool:
    """Whether ``rollout="policy"`` plays on ``game`` as loaded by default (a native kernel needs its own port)."""
    loaded = registry.load(game, **table_options(game))
    if getattr(loaded, "heuristic_policy", None) is None:
        return False
    kernel = getattr(loaded.new_initial_state(), "kernel", None)
    return kernel is None or bool(getattr(kernel, "has_policy", False))


def check_space(kind: str, space: Mapping[str, Sequence[Any]]) -> None:
    """Refuse an option the search kind does not take, or a dimension with no values."""
    if kind not in BOTS:
        raise InvalidOptionError(f"unknown search kind {kind!r}; the kinds are {', '.join(BOTS)}")
    params = inspect.signature(BOTS[kind]).parameters
    for name, values in space.items():
        if name not in params or params[name].kind is not inspect.Parameter.KEYWORD_ONLY:
            raise InvalidOptionError(f"{kind} has no option {name!r}; its options are: "
                                     + ", ".join(n for n, p in params.items() if p.kind is p.KEYWORD_ONLY))
        if not isinstance(values, (list, tuple)) or not values:
            raise InvalidOptionError(f"option {name!r} of the space needs a non-empty list of values")


def options_of(space: Mapping[str, Sequence[Any]], point: Point) -> Dict[str, Any]:
    """The search options of ``point`` (one index per dimension of ``space``)."""
    return {name: list(values)[i] for (name, values), i in zip(space.items(), point)}


def point_of(space: Mapping[str, Sequence[Any]], options: Mapping[str, Any]) -> Optional[Point]:
    """The point of ``options`` in ``space``, or None when a value is not in it."""
    out = []
    for name, values in space.items():
        if options.get(name) not in list(values):
            return None
        out.append(list(values).index(options.get(name)))
    return tuple(out)


class Evaluator:
    """Plays evaluations: one game each of a candidate setting against the preset, on a process pool."""

    def __init__(self, game: str, kind: str, space: Mapping[str, Sequence[Any]], budget: Mapping[str, Any],
                 seed: int, processes: int = 1):
        self.game, self.kind, self.space, self.budget, self.seed = game, kind, dict(space), dict(budget), seed
        self.game_options = table_options(game)
        self.players = smallest_table(game)
        self.pool = ProcessPoolExecutor(max_workers=processes) if processes > 1 else None
        #: One row per evaluation (index, options, seat, reward, moves, seconds).
        self.rows: List[Dict[str, Any]] = []

    def candidate(self, point: Point) -> Dict[str, Any]:
        """The candidate's bot configuration: the game's presets, overridden by the point and the budget."""
        return {"kind": self.kind, **options_of(self.space, point), **self.budget}

    def baseline(self) -> Dict[str, Any]:
        """The game's current preset for the same kind, at the same budget."""
        return {"kind": self.kind, **self.budget}

    def job(self, index: int, point: Point) -> Dict[str, Any]:
        """The arena task of evaluation ``index``: its own deal, the candidate in seat ``index % players``."""
        seat = index % self.players
        seating = [1] * self.players
        seating[seat] = 0
        return {"game": self.game, "backend": "auto", "game_options": self.game_options,
                "bots": [self.candidate(point), self.baseline()], "seating": seating, "deal": index,
                "seed": self.seed, "index": index, "max_moves": 100_000}

    def __call__(self, batch: List[Tuple[int, Point]]) -> List[float]:
        jobs = [self.job(index, point) for index, point in batch]
        records = list(self.pool.map(play_task, jobs)) if self.pool else [play_task(j) for j in jobs]
        rewards = []
        for (index, point), record in zip(batch, records):
            reward = record.shares(2)[0]
            rewards.append(reward)
            self.rows.append({"index": index, "options": options_of(self.space, point),
                              "seat": record.seating.index(0), "reward": reward, "moves": record.moves,
                              "seconds": round(record.seconds, 3)})
        return rewards

    def close(self) -> None:
        """End the worker processes."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)


def statistics(tuner: NTBEA, space: Mapping[str, Sequence[Any]]) -> List[Dict[str, Any]]:
    """The model's tuple statistics as JSON-ready rows (option names and values, visits, mean)."""
    names = list(space)
    out = []
    for t, dims in enumerate(tuner.model.tuples):
        for values, (n, total) in sorted(tuner.model.stats[t].items()):
            out.append({"options": {names[d]: list(space[names[d]])[v] for d, v in zip(dims, values)},
                        "visits": int(n), "mean": total / n})
    return out


def validate(game: str, kind: str, recommended: Mapping[str, Any], budget: Mapping[str, Any], games: int,
             seed: int, processes: int) -> Dict[str, Any]:
    """The recommendation against the preset: a seeded, seat-rotated match with its Wilson interval."""
    players = smallest_table(game)
    bots: List[Dict[str, Any]] = [{"kind": kind, **dict(recommended), **dict(budget), "name": "recommended"}]
    bots += [{"kind": kind, **dict(budget), "name": f"preset{i}" if players > 2 else "preset"}
             for i in range(1, players)]
    result = run_arena(game, bots, games=games, seed=seed, game_options=table_options(game), processes=processes,
                       progress=sys.stderr)
    low, high = result.interval(0)
    return {"games": result.games, "win_rate": result.win_rate(0), "interval": [low, high],
            "even_share": 1.0 / players, "seed": seed, "summary": result.summary(),
            "wall_seconds": result.wall_seconds}


def tune(game: str, *, evaluations: int, seed: int, budget: Mapping[str, Any], processes: int = 1,
         batch: Optional[int] = None, space: Optional[Mapping[str, Sequence[Any]]] = None, k: float = 1.0,
         neighbours: int = 50, min_visits: int = 3, pairs: bool = False, kind: Optional[str] = None,
         log: Optional[Callable[[str], None]] = None, max_seconds: Optional[float] = None) -> Dict[str, Any]:
    """Run the NTBEA on ``game``; returns the recommendation and the statistics (JSON-ready).

    ``max_seconds``: start no round after this much wall time (the evaluations played are kept).
    """
    loaded = registry.load(game, **table_options(game))
    kind = kind or strongest_kind(loaded)
    space = dict(space) if space is not None else default_space(game)
    check_space(kind, space)
    preset = dict(loaded.bot_presets.get(kind, {}))
    # The search starts from the preset (its defaults filled in) when the space holds it.
    defaults = {n: p.default for n, p in inspect.signature(BOTS[kind]).parameters.items()}
    start = point_of(space, {**{n: defaults.get(n) for n in space}, **preset})
    tuner = NTBEA([len(v) for v in space.values()], seed, k=k, neighbours=neighbours, pairs=pairs, start=start)
    evaluator = Evaluator(game, kind, space, budget, seed, processes)
    started = time.perf_counter()

    def report(t: NTBEA, done: List[Tuple[int, Point, float]]) -> None:
        if log is None:
            return
        best = t.recommend(min_visits)
        mean = sum(r for _, _, r in t.history) / len(t.history)
        log(f"[{len(t.history)}/{evaluations}] {time.perf_counter() - started:.0f} s; played "
            + "; ".join(f"{options_of(space, p)} -> {r:g}" for _, p, r in done)
            + f"; mean reward {mean:.3f}; best so far {options_of(space, best)}"
            f" ({t.model.visits(best)} games, model {t.model.score(best, explore=False):.3f}); "
            f"load {os.getloadavg()[0]:.2f}")

    try:
        deadline = None if max_seconds is None else started + max_seconds
        tuner.run(evaluator, evaluations, batch or processes, report,
                  stop=None if deadline is None else (lambda: time.perf_counter() >= deadline))
    finally:
        evaluator.close()
    ranking = tuner.ranking(min_visits)
    best = ranking[0]
    return {
        "game": game, "kind": kind, "players": evaluator.players, "budget": dict(budget), "seed": seed,
        "evaluations": len(tuner.history), "evaluations_asked": evaluations, "batch": batch or processes,
        "processes": processes, "k": k,
        "neighbours": neighbours, "min_visits": min_visits, "pairs": pairs,
        "space": {n: list(v) for n, v in space.items()}, "preset": preset,
        "start": options_of(space, start) if start is not None else None,
        "recommended": options_of(space, best),
        "recommended_stats": {"visits": tuner.model.visits(best), "mean": tuner.model.mean(best),
                              "model": tuner.model.score(best, explore=False)},
        "top": [{"options": options_of(space, p), "visits": tuner.model.visits(p), "mean": tuner.model.mean(p),
                 "model": tuner.model.score(p, explore=False)} for p in ranking[:10]],
        "mean_reward": tuner.model.total_reward / max(1, tuner.model.evaluations),
        "statistics": statistics(tuner, space), "games": evaluator.rows,
        "wall_seconds": time.perf_counter() - started,
    }


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help="the game to tune (default: the quick profile's game)")
    parser.add_argument("--evaluations", type=int, default=200, help="games of the tuner (one evaluation each)")
    parser.add_argument("--seconds", type=float, default=0.02, help="time a move of both sides (equal time)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations a move instead of --seconds (repeatable runs)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1, help="worker processes (games played at once)")
    parser.add_argument("--batch", type=int, default=None, help="evaluations a round (default: --processes)")
    parser.add_argument("--k", type=float, default=1.0, help="the bandit's exploration weight (rewards in 0-1)")
    parser.add_argument("--neighbours", type=int, default=50, help="mutations proposed a round")
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="start no tuning round after this many minutes (the games played are kept)")
    parser.add_argument("--min-visits", type=int, default=3, help="games a setting needs to be recommended")
    parser.add_argument("--pairs", action="store_true", help="also model every 2-tuple")
    parser.add_argument("--space", default=None, help='JSON object of option -> values (default: the game\'s)')
    parser.add_argument("--validate-games", type=int, default=0, help="games of the validation match (0: none)")
    parser.add_argument("--validate-seed", type=int, default=None, help="its seed (default: --seed + 1000)")
    parser.add_argument("--out", default=None, help="write the recommendation and statistics here (JSON)")
    parser.add_argument("--quick", action="store_true", help="the CI profile: a small game, seconds to a minute")
    args = parser.parse_args(argv)
    if args.quick:
        args.game = args.game or QUICK_GAME
        args.evaluations, args.iterations, args.validate_games = 16, 30, 4
        args.min_visits = 1
    if not args.game:
        parser.error("name a game (or --quick)")
    budget = {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds}
    space = json.loads(args.space) if args.space else None

    def log(line: str) -> None:
        print(line, flush=True)

    print(f"== tuning {args.game}: {args.evaluations} evaluations at {budget}, seed {args.seed}, "
          f"{args.processes} processes, load {os.getloadavg()[0]:.2f}", flush=True)
    result = tune(args.game, evaluations=args.evaluations, seed=args.seed, budget=budget,
                  processes=args.processes, batch=args.batch, space=space, k=args.k, neighbours=args.neighbours,
                  min_visits=args.min_visits, pairs=args.pairs, log=log,
                  max_seconds=None if args.max_minutes is None else 60 * args.max_minutes)
    print(f"RECOMMENDED {args.game}: {result['recommended']} ({result['recommended_stats']['visits']} games, "
          f"mean {result['recommended_stats']['mean']:.3f}, model {result['recommended_stats']['model']:.3f}); "
          f"preset {result['preset']}; {result['wall_seconds']:.0f} s wall", flush=True)
    for row in result["top"][:5]:
        print(f"  {row['options']}: {row['visits']} games, mean {row['mean']:.3f}, model {row['model']:.3f}")
    if args.out:  # written before the validation too, so a long validation loses nothing
        _write(args.out, result)
    if args.validate_games:
        vseed = args.validate_seed if args.validate_seed is not None else args.seed + 1000
        print(f"== validating {result['recommended']} against the preset: {args.validate_games} games, "
              f"seed {vseed}, load {os.getloadavg()[0]:.2f}", flush=True)
        result["validation"] = validate(args.game, result["kind"], result["recommended"], budget,
                                        args.validate_games, vseed, args.processes)
        v = result["validation"]
        print(v["summary"])
        print(f"VALIDATION {args.game}: recommended {result['recommended']} won {v['win_rate']:.1%} of "
              f"{v['games']} games against the preset, 95% interval [{v['interval'][0]:.1%}, "
              f"{v['interval'][1]:.1%}] (even share {v['even_share']:.0%})", flush=True)
        if args.out:
            _write(args.out, result)
    return 0


def _write(path: str, result: Mapping[str, Any]) -> None:
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
