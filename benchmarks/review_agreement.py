"""The coach checked against exact values (issue 39): how well a review's losses and labels agree with the truth.

For each game where the truth is known, games are played by a noisy player (at each decision the
strong move with probability ``--strong``, else a uniformly random one, so that there are mistakes
to find), every seat's decisions are reviewed by :func:`aiplay.review` **without the solver**
(``exact=False``: the search alone, at the review's default budget unless ``--budget``), and each
reviewed decision's loss is compared with the true loss:

* **Pig** (``winscore=20``; ``--quick``: 10): a dynamic program (value iteration over banked scores and turn
  total, to 1e-12; the ``horizon`` of 1,000 decisions is ignored, which these games never
  approach). Values are the win-or-lose returns, 1 and -1.
* **Kuhn and Leduc poker**: the equilibrium's action values. OpenSpiel's CFR+ (C++) gives an
  approximate equilibrium (its exploitability is printed); the value of action ``a`` at the
  seat's information state is its expected return when both seats then follow that equilibrium,
  averaged over the histories of the information state weighted by the chance and opponent reach.
  Decisions at information states the equilibrium opponent never reaches have no such value
  and are left out (counted). The games are played in aiplay and in OpenSpiel side by side (the
  same action ids: these games are defined exactly as OpenSpiel defines them).
* **Sunken City, two turns left** (3 players): the fixed positions of
  ``benchmarks/solver_positions/sunken_city_two_turns_3p.json`` played on, the truth from
  :func:`aiplay.solve` (exact max^n values of every move; a decision the solver does not finish
  within ``--truth-nodes`` is left out, counted).

The true loss is ``max_a Q(a) - Q(played)``; true labels use the same thresholds on the same span
as the review (:func:`aiplay.review.label_of`). Reported per game: decisions compared, mean
absolute error of the loss (in the game's units and as a fraction of its span), precision and
recall of "mistake or worse", and how many decisions were mistakes or worse by either count.

Usage::

    python benchmarks/review_agreement.py                 # the RESULTS.md run (>= 500 decisions a game)
    python benchmarks/review_agreement.py --quick         # CI-sized: a few seconds
    python benchmarks/review_agreement.py --only pig --decisions 1000 --budget 10000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import aiplay
from aiplay.match import Match
from aiplay.review import label_of, review, scale_of
from aiplay.solve import solve

try:
    import pyspiel
except ImportError:  # pragma: no cover - the poker rows need OpenSpiel (the compare extra)
    pyspiel = None

HERE = Path(__file__).resolve().parent
TWO_TURNS = HERE / "solver_positions" / "sunken_city_two_turns_3p.json"
BAD = ("mistake", "blunder")
#: Extra options of the review's search (``--search key=value``); empty: the review's defaults.
SEARCH: Dict[str, Any] = {}


# -- the truth -----------------------------------------------------------------------------------

def pig_values(win: int, faces: int = 6) -> Dict[Tuple[int, int, int], Dict[int, float]]:
    """Q[(mine, theirs, turn total)] = {0: roll, 1: stop}: the mover's value, 2-player Pig, by value iteration."""
    states = [(i, j, k) for i in range(win) for j in range(win) for k in range(win - i + faces)
              if i + k < win + faces]
    v = {s: 0.0 for s in states}

    def value(i: int, j: int, k: int) -> float:
        if i + k >= win:  # only stop is legal: the turn total wins
            return 1.0
        return v[(i, j, k)]

    def q(i: int, j: int, k: int) -> Dict[int, float]:
        stop = 1.0 if i + k >= win else -value(j, i + k, 0)
        if i + k >= win:
            return {1: stop}
        roll = -value(j, i, 0) / faces  # a 1: the turn total is lost, the other seat moves
        roll += sum(value(i, j, k + d) for d in range(2, faces + 1)) / faces
        return {0: roll, 1: stop}

    for _ in range(10_000):
        delta = 0.0
        for s in states:
            if s[0] + s[2] >= win:
                continue
            new = max(q(*s).values())
            delta = max(delta, abs(new - v[s]))
            v[s] = new
        if delta < 1e-12:
            break
    return {s: q(*s) for s in states}


class PokerTruth:
    """The equilibrium's action values of one OpenSpiel poker game (see the module docstring)."""

    def __init__(self, name: str, iterations: int):
        self.game = pyspiel.load_game(name)
        # Kept: the average policy reads the solver's tables (it fails once the solver is freed).
        self.solver = pyspiel.CFRPlusSolver(self.game)
        for _ in range(iterations):
            self.solver.evaluate_and_update_policy()
        self.policy = self.solver.average_policy()
        self.exploitability = pyspiel.exploitability(self.game, self.policy)
        self.sums: Dict[str, Dict[int, float]] = {}
        self.weights: Dict[str, float] = {}
        self._walk(self.game.new_initial_state(), [1.0] * self.game.num_players(), 1.0)

    def _walk(self, state: Any, reach: List[float], chance: float) -> List[float]:
        if state.is_terminal():
            return list(state.returns())
        if state.is_chance_node():
            total = [0.0] * self.game.num_players()
            for action, p in state.chance_outcomes():
                child = self._walk(state.child(action), reach, chance * p)
                total = [t + p * c for t, c in zip(total, child)]
            return total
        player = state.current_player()
        key = state.information_state_string(player)
        others = chance
        for q, r in enumerate(reach):
            if q != player:
                others *= r
        probabilities = dict(self.policy.get_state_policy(state))
        total = [0.0] * self.game.num_players()
        sums = self.sums.setdefault(key, {})
        for action in state.legal_actions():
            p = probabilities.get(action, 0.0)
            child_reach = list(reach)
            child_reach[player] *= p
            child = self._walk(state.child(action), child_reach, chance)
            sums[action] = sums.get(action, 0.0) + others * child[player]
            total = [t + p * c for t, c in zip(total, child)]
        self.weights[key] = self.weights.get(key, 0.0) + others
        return total

    def q(self, key: str) -> Optional[Dict[int, float]]:
        """The action values at information state ``key``; None where the opponent never reaches it."""
        weight = self.weights.get(key, 0.0)
        if weight <= 1e-12:
            return None
        return {a: s / weight for a, s in self.sums[key].items()}

    def strong(self, state: Any, rng: random.Random) -> int:
        """A draw from the equilibrium at an OpenSpiel state."""
        actions, probabilities = zip(*self.policy.get_state_policy(state))
        return rng.choices(actions, probabilities)[0]


# -- games to review --------------------------------------------------------------------------------

def play(game: aiplay.Game, start: Any, strong: Callable[[Any, random.Random], int], rate: float,
         rng: random.Random) -> Match:
    """A game from ``start``: each decision ``strong``'s move with probability ``rate``, else a random one."""
    match = Match(game, state=start, seed=rng.getrandbits(32))
    while True:
        match.advance_chance()
        if match.is_terminal():
            return match
        legal = match.state.legal_actions()
        move = strong(match.state, rng) if rng.random() < rate else rng.choice(legal)
        match.apply(move)


def positions_of(match: Match) -> Dict[int, Any]:
    """The position before each move of ``match``, by ply."""
    state = match.game.state_from_json(json.dumps(match.to_record()["start"]))
    out = {}
    for move in match.history:
        out[move.ply] = state.clone()
        state.apply_action(move.action)
    return out


def compare(match: Match, truth: Callable[[int, Any, int], Optional[Dict[int, float]]], budget: Optional[int],
            seed: int, rows: List[Dict[str, Any]], skipped: List[int]) -> None:
    """Review every seat of ``match`` (search only) and add one row per decision with a known truth."""
    span, thresholds = scale_of(match.game)
    positions = positions_of(match)
    for seat in range(match.game.num_players):
        result = review(match, seat, budget=budget, exact=False, seed=seed, search=SEARCH or None)
        for d in result.decisions:
            q = truth(d.ply, positions[d.ply], seat)
            if q is None:
                skipped[0] += 1
                continue
            top = max(q.values())
            true_loss = max(0.0, top - q[d.played])
            true_best = [a for a, v in q.items() if v >= top - 1e-9]
            rows.append({"loss": d.loss, "true_loss": true_loss, "label": d.label,
                         "true_label": label_of(true_loss, d.played in true_best, span, thresholds),
                         "span": span})


def summarize(name: str, rows: List[Dict[str, Any]], skipped: int, seconds: float, note: str) -> Dict[str, Any]:
    errors = [abs(r["loss"] - r["true_loss"]) for r in rows]
    predicted = [r["label"] in BAD for r in rows]
    actual = [r["true_label"] in BAD for r in rows]
    hits = sum(p and a for p, a in zip(predicted, actual))
    span = rows[0]["span"] if rows else 1.0
    return {"game": name, "decisions": len(rows), "skipped": skipped,
            "mae": statistics.fmean(errors) if errors else None,
            "mae_span": statistics.fmean(errors) / span if errors else None,
            "precision": hits / sum(predicted) if sum(predicted) else None,
            "recall": hits / sum(actual) if sum(actual) else None,
            "flagged": sum(predicted), "true_bad": sum(actual),
            "label_agreement": statistics.fmean(r["label"] == r["true_label"] for r in rows) if rows else None,
            "seconds": seconds, "note": note}


# -- per game ---------------------------------------------------------------------------------------

def run_pig(target: int, budget: Optional[int], seed: int, rate: float, win: int) -> Dict[str, Any]:
    started = time.perf_counter()
    game = aiplay.load("pig", winscore=win)
    table = pig_values(win)

    def key(state: Any, seat: int) -> Tuple[int, int, int]:
        data = state.to_dict()
        return data["scores"][seat], data["scores"][1 - seat], data["turn_total"]

    def strong(state: Any, rng: random.Random) -> int:
        q = table[key(state, state.current_player())]
        return max(q, key=lambda a: (q[a], -a))

    rows: List[Dict[str, Any]] = []
    skipped = [0]
    rng = random.Random(seed)
    while len(rows) < target:
        match = play(game, game.new_initial_state(), strong, rate, rng)
        compare(match, lambda ply, s, p: table[key(s, p)], budget, seed, rows, skipped)
    return summarize(f"pig (winscore {win})", rows, skipped[0], time.perf_counter() - started,
                     "truth: value iteration")


def run_poker(name: str, target: int, budget: Optional[int], seed: int, rate: float,
              cfr_iterations: int) -> Dict[str, Any]:
    started = time.perf_counter()
    truth = PokerTruth(name, cfr_iterations)
    game = aiplay.load(name)
    rows: List[Dict[str, Any]] = []
    skipped = [0]
    rng = random.Random(seed)

    while len(rows) < target:
        match = Match(game, seed=rng.getrandbits(32))
        spiel = truth.game.new_initial_state()
        while True:
            if match.state.is_chance_node():
                spiel.apply_action(match.play_chance().action)
                continue
            if match.is_terminal():
                break
            legal = match.state.legal_actions()
            action = truth.strong(spiel, rng) if rng.random() < rate else rng.choice(legal)
            match.apply(action)
            spiel.apply_action(action)

        def truth_at(ply: int, state: Any, seat: int, match: Match = match) -> Optional[Dict[int, float]]:
            # The same position in OpenSpiel: aiplay's history replayed (the same action ids).
            s = truth.game.new_initial_state()
            for move in match.history[:ply]:
                s.apply_action(move.action)
            return truth.q(s.information_state_string(seat))

        compare(match, truth_at, budget, seed, rows, skipped)
    return summarize(name, rows, skipped[0], time.perf_counter() - started,
                     f"truth: CFR+ {cfr_iterations} iterations, exploitability {truth.exploitability:.4f}")


def run_sunken_city(target: int, budget: Optional[int], seed: int, rate: float, truth_nodes: int,
                    positions: Optional[int]) -> Dict[str, Any]:
    started = time.perf_counter()
    data = json.loads(TWO_TURNS.read_text())["positions"][:positions]
    starts = []
    for item in data:
        doc = item["position"]
        game = aiplay.load(doc["game"], **doc["options"])
        starts.append((game, game.state_from_json(json.dumps(doc))))
    rows: List[Dict[str, Any]] = []
    skipped = [0]
    rng = random.Random(seed)

    def strong(state: Any, r: random.Random) -> int:
        policy = state.game.heuristic_policy
        return policy(state, r)

    def truth(ply: int, state: Any, seat: int) -> Optional[Dict[int, float]]:
        solution = solve(state, nodes=truth_nodes, deepening=False, move_values=True, pv_nodes=1)
        if not solution.exact or solution.move_values is None:
            return None
        return {m["action"]: m["values"][seat] for m in solution.move_values}

    i = 0
    while len(rows) < target:
        game, start = starts[i % len(starts)]
        i += 1
        match = play(game, start, strong, rate, rng)
        compare(match, truth, budget, seed, rows, skipped)
    return summarize("sunken_city (two turns left, 3p)", rows, skipped[0], time.perf_counter() - started,
                     f"truth: aiplay.solve, {truth_nodes:,} nodes a decision")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="CI-sized: a few decisions a game, a few seconds")
    parser.add_argument("--decisions", type=int, default=500, help="decisions compared per game (default 500)")
    parser.add_argument("--budget", type=int, help="review iterations per decision (default: the review's)")
    parser.add_argument("--strong", type=float, default=0.6, help="probability of the strong move (default 0.6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cfr", type=int, default=300, help="CFR+ iterations for the poker truth (default 300)")
    parser.add_argument("--truth-nodes", type=int, default=3_000_000, help="solver nodes per Sunken City decision")
    parser.add_argument("--only", choices=["pig", "kuhn_poker", "leduc_poker", "sunken_city"], action="append")
    parser.add_argument("--winscore", type=int, default=20, help="Pig's winning score (default 20)")
    parser.add_argument("--search", action="append", default=[],
                        help="an option of the review's search bot, e.g. variant=mo or uct_c=2 (repeatable)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.decisions, args.cfr, args.winscore, args.truth_nodes = 8, 20, 10, 300_000
    for text in args.search:
        key, _, raw = text.partition("=")
        SEARCH[key] = json.loads(raw) if raw[:1].isdigit() or raw in ("true", "false") else raw
    games = args.only or ["pig", "kuhn_poker", "leduc_poker", "sunken_city"]
    results = []
    for name in games:
        if name == "pig":
            results.append(run_pig(args.decisions, args.budget, args.seed, args.strong, args.winscore))
        elif name in ("kuhn_poker", "leduc_poker"):
            if pyspiel is None:
                print(f"{name}: skipped (OpenSpiel is not installed: the compare extra)", file=sys.stderr)
                continue
            results.append(run_poker(name, args.decisions, args.budget, args.seed, args.strong, args.cfr))
        else:
            results.append(run_sunken_city(args.decisions, args.budget, args.seed, args.strong, args.truth_nodes,
                                           1 if args.quick else None))
        print(f"done: {name} ({results[-1]['seconds']:.0f} s)", file=sys.stderr, flush=True)

    def f(x: Optional[float], digits: int = 3) -> str:
        return "n/a" if x is None else f"{x:.{digits}f}"

    print("| game | decisions (left out) | loss MAE (units; / span) | precision | recall | flagged / truly bad "
          "| labels equal | time |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['game']} | {r['decisions']} ({r['skipped']}) | {f(r['mae'])}; {f(r['mae_span'])} | "
              f"{f(r['precision'], 2)} | {f(r['recall'], 2)} | {r['flagged']} / {r['true_bad']} | "
              f"{f(r['label_agreement'], 2)} | {r['seconds']:.0f} s |")
    for r in results:
        print(f"{r['game']}: {r['note']}")
    sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
