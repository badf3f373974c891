"""Side-by-side figures: aiplay's native search against OpenSpiel's, in one run.

Prints one table:

* ISMCTS simulations/s on kuhn_poker and leduc_poker: aiplay's native SO-ISMCTS
  against ``pyspiel.ISMCTSBot`` (random-rollout evaluator, the same uct_c and
  simulations per move), over the same decision states;
* expectimax on pig at equal depth: the value and nodes/s, aiplay (plain, and
  with Star2 and its table) against OpenSpiel's ``expectiminimax`` with the
  same value function;
* MCTS iterations/s on pig against ``pyspiel.MCTSBot``;
* native against reference engine: random playouts/s per game;
* two workers against one (ISMCTS on leduc), and how closely a seconds budget is met;
* strength: aiplay's ISMCTS against OpenSpiel's on leduc_poker, seats swapped,
  equal simulations per move, with a 95 % interval on aiplay's mean return.

Every speed row is measured ``--repeats`` times (default 5), the two sides
interleaved (ours, theirs, ours, theirs, ...), so that a burst of load from
another process hits both: it shows the median rate of each side with its
spread (min..max) and the ratio of the medians with the spread of the
per-repeat ratios. The load average is printed before and after each section.

Usage::

    python benchmarks/compare_openspiel.py            # the full run (RESULTS.md figures)
    python benchmarks/compare_openspiel.py --quick    # a few minutes at most
    python benchmarks/compare_openspiel.py --only strength --games 2000
    python benchmarks/compare_openspiel.py --only ismcts --repeats 9

Needs the ``compare`` extra (``pip install ".[compare]"``).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from typing import Callable, List, Tuple

import aiplay
from aiplay.bench import decision_state_pairs
from aiplay.game import sample_chance_outcome
from aiplay.registry import has_native
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax
except ImportError:  # pragma: no cover - the script says what to install
    sys.exit("this script needs OpenSpiel: pip install '.[compare]'")

UCT_C = 2.0
ROWS: List[Tuple[str, str, str, str]] = []
#: Interleaved repeats of every speed row (``--repeats``).
REPEATS = 5


def row(what: str, ours: str, theirs: str, ratio: str = "") -> None:
    ROWS.append((what, ours, theirs, ratio))
    print(f"  {what}: ours {ours} | OpenSpiel/reference {theirs} {ratio}", flush=True)


def spread(values: List[float], fmt: str = ",.0f") -> str:
    """``median (min..max, n=k)`` of a speed row's repeats."""
    return (f"{statistics.median(values):{fmt}} ({min(values):{fmt}}..{max(values):{fmt}}, "
            f"n={len(values)})")


def interleaved(ours: Callable[[], float], theirs: Callable[[], float]) -> Tuple[List[float], List[float]]:
    """``REPEATS`` rates of each side, measured alternately (ours first)."""
    our_rates, their_rates = [], []
    for _ in range(REPEATS):
        our_rates.append(ours())
        their_rates.append(theirs())
    return our_rates, their_rates


def speed_row(what: str, our_rates: List[float], their_rates: List[float], fmt: str = ",.0f",
              ratio_fmt: str = ".1f") -> None:
    """A speed row: both sides' medians and spreads, the ratio of the medians and its spread."""
    ratios = [o / t for o, t in zip(our_rates, their_rates)]
    median_ratio = statistics.median(our_rates) / statistics.median(their_rates)
    row(what, spread(our_rates, fmt), spread(their_rates, fmt),
        f"x{median_ratio:{ratio_fmt}} (per repeat x{min(ratios):{ratio_fmt}}..x{max(ratios):{ratio_fmt}})")


def load_average() -> str:
    """The 1-minute load average, for the log (a figure on a loaded machine says so)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "?"


def decision_states(name: str, count: int, seed: int):
    """``count`` (aiplay native state, pyspiel state) pairs at decisions of random games."""
    return decision_state_pairs(name, count, seed, pyspiel)


def move_rates(pairs, ours, theirs, sims: int):
    """Two rate functions for :func:`interleaved`: simulations per second of our bot and of
    OpenSpiel's, each choosing a move in every state of ``pairs`` once."""

    def our_rate() -> float:
        start = time.perf_counter()
        for state, _ in pairs:
            ours.choose(state)
        return sims * len(pairs) / (time.perf_counter() - start)

    def their_rate() -> float:
        start = time.perf_counter()
        for _, os_state in pairs:
            theirs.step(os_state)
        return sims * len(pairs) / (time.perf_counter() - start)

    return our_rate, their_rate


def bench_ismcts(name: str, sims: int, states: int) -> None:
    pairs = decision_states(name, states, seed=1)
    ours = ISMCTSBot(iterations=sims, uct_c=UCT_C, seed=1, reuse_tree=False)
    theirs = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, sims)
    ours.choose(pairs[0][0])  # warm-up: the tree's node array grows once
    speed_row(f"ISMCTS simulations/s, {name} ({sims} per move, {len(pairs)} states)",
              *interleaved(*move_rates(pairs, ours, theirs, sims)))


def pig_value(winscore: int) -> Callable:
    """The pig heuristic of aiplay (games/pig/rules.py) on a pyspiel state, for the root player."""
    def value(os_state) -> float:
        text = str(os_state)  # "Scores: a b, Turn total: t\nCurrent player: p ..."
        head, _, tail = text.partition("\n")
        scores_part, _, total_part = head.partition(", Turn total: ")
        scores = [int(x) for x in scores_part.replace("Scores: ", "").split()]
        turn_player = int(tail.replace("Current player: ", "").split()[0])
        points = list(scores)
        points[turn_player] += int(total_part)
        n = len(points)
        total = sum(points)
        return max(-1.0, min(1.0, (points[value.player] * n - total) / ((n - 1) * winscore)))
    value.player = 0
    return value


def bench_expectimax(depth: int, winscore: int) -> None:
    game = aiplay.load("pig", winscore=winscore)
    os_game = pyspiel.load_game("pig", {"winscore": winscore})
    state, os_state = game.new_initial_state(), os_game.new_initial_state()
    for action in (0, 3, 0, 4):  # roll a 4, roll a 5: a turn total of 9 for player 0
        state.apply_action(action)
        os_state.apply_action(action)
    value_fn = pig_value(winscore)
    value_fn.player = state.current_player()
    calls = [0]
    original = os_minimax.expectiminimax

    def counting(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    result = []

    def their_rate() -> float:
        calls[0] = 0
        os_minimax.expectiminimax = counting  # its recursion goes through the module name
        try:
            start = time.perf_counter()
            result[:] = counting(os_state, depth, value_fn, value_fn.player)
            seconds = time.perf_counter() - start
        finally:
            os_minimax.expectiminimax = original
        return calls[0] / seconds

    def our_rate() -> float:
        analysis = ExpectimaxBot(depth=depth, pruning="none", use_tt=False).analyse(state)
        return analysis.counters["nodes"] / analysis.counters["seconds"]

    our_rates, their_rates = interleaved(our_rate, their_rate)
    their_value, their_action = result
    plain = ExpectimaxBot(depth=depth, pruning="none", use_tt=False).analyse(state)
    star2 = ExpectimaxBot(depth=depth, pruning="star2").analyse(state)
    plain_tt = ExpectimaxBot(depth=depth, pruning="none", use_tt=True).analyse(state)
    # Iterative deepening searches depths 1..d; the figure for depth d alone:
    per_depth = plain.counters["nodes_per_depth"]
    last_nodes = per_depth[-1] - (per_depth[-2] if len(per_depth) > 1 else 0)
    same = abs(plain.value - their_value) < 1e-12 and plain.action == their_action
    row(f"expectimax pig winscore={winscore} depth {depth}: value",
        f"{plain.value:.12f} (action {plain.action})", f"{their_value:.12f} (action {their_action})",
        "equal" if same else "DIFFERENT")
    speed_row(f"expectimax pig depth {depth}: nodes/s (plain, no table; OpenSpiel nodes {calls[0]:,}, "
              f"ours at depth {depth} alone {last_nodes:,})", our_rates, their_rates, ratio_fmt=".0f")
    row(f"expectimax pig depth {depth}: nodes, Star2+table / plain (same value: {abs(star2.value - plain.value) < 1e-12})",
        f"{star2.counters['nodes']:,}", f"{plain.counters['nodes']:,}",
        f"{100 * star2.counters['nodes'] / plain.counters['nodes']:.0f}%")
    row(f"expectimax pig depth {depth}: nodes, Star2+table / plain+table",
        f"{star2.counters['nodes']:,}", f"{plain_tt.counters['nodes']:,}",
        f"{100 * star2.counters['nodes'] / plain_tt.counters['nodes']:.0f}%")


def bench_mcts(sims: int, states: int) -> None:
    pairs = decision_states("pig", states, seed=2)
    ours = MCTSBot(iterations=sims, uct_c=UCT_C, seed=1, reuse_tree=False)
    os_game = pyspiel.load_game("pig")
    theirs = pyspiel.MCTSBot(os_game, pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, sims, 1000, False, 1, False)
    ours.choose(pairs[0][0])  # warm-up
    speed_row(f"MCTS iterations/s, pig ({sims} per move, {len(pairs)} states)",
              *interleaved(*move_rates(pairs, ours, theirs, sims)))


def bench_playouts(seconds: float) -> None:
    for name in aiplay.games_available():
        if not has_native(name):
            continue  # nothing to compare yet
        native = aiplay.load(name)
        reference = aiplay.load(name, backend="reference")
        rng = random.Random(0)
        batch = [1000]

        def ref_rate() -> float:
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / REPEATS:
                state = reference.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(sample_chance_outcome(state, rng))
                    else:
                        legal = state.legal_actions()
                        state.apply_action(legal[rng.randrange(len(legal))])
                count += 1
            rate = count / (time.perf_counter() - start)
            batch[0] = max(1000, int(rate * 200 * seconds / REPEATS))
            return rate

        def native_rate() -> float:
            start = time.perf_counter()
            native.kernel.random_playouts(native.new_initial_state(), batch[0], 1)
            return batch[0] / (time.perf_counter() - start)

        # The reference side first: its rate sizes the native batch.
        ref_rates, native_rates = interleaved(ref_rate, native_rate)
        speed_row(f"random playouts/s, {name}: native vs reference engine", native_rates, ref_rates,
                  ratio_fmt=".0f")


def first_decisions(name: str, count: int, seed: int):
    """The first decision state of ``count`` seeded deals."""
    game = aiplay.load(name)
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        states.append(state)
    return states


def bench_workers(seconds: float, states: int) -> None:
    """Simulations/s of two workers against one, under a seconds budget per move.

    A time budget keeps both workers busy for the whole move; with an
    iteration budget the move lasts as long as the slower worker's share,
    and the figure would mix the parallelism with how unevenly two seeded
    searches happen to cost. Roots are first decisions of seeded deals.
    """
    for name, bot_class in (("leduc_poker", ISMCTSBot), ("pig", MCTSBot)):
        roots = first_decisions(name, states, seed=3)
        bots = {workers: bot_class(seconds=seconds, seed=1, workers=workers, reuse_tree=False)
                for workers in (1, 2)}
        for bot in bots.values():
            bot.choose(roots[0])  # warm-up: the trees' node arrays grow once

        def rate(workers: int) -> float:
            sims, start = 0, time.perf_counter()
            for state in roots:
                sims += bots[workers].analyse(state).counters["iterations"]
            return sims / (time.perf_counter() - start)

        speed_row(f"{bot_class.__name__[:-3]} simulations/s on {name} first decisions, 2 workers vs 1 "
                  f"({seconds} s per move, {states} deals)", *interleaved(lambda: rate(2), lambda: rate(1)),
                  ratio_fmt=".2f")


def bench_time_budget(seconds: float, moves: int) -> None:
    pairs = decision_states("leduc_poker", moves, seed=4)
    errors = []
    bot = ISMCTSBot(seconds=seconds, seed=1, reuse_tree=False)
    for state, _ in pairs:
        start = time.perf_counter()
        bot.choose(state)
        errors.append((time.perf_counter() - start) / seconds - 1.0)
    worst = max(errors, key=abs)
    row(f"seconds budget {seconds} s, ISMCTS leduc, {moves} moves: mean / worst relative error",
        f"{100 * statistics.mean(errors):+.2f}% / {100 * worst:+.2f}%", "target within 5%")


def play_leduc(our_seat: int, seed: int, sims: int, variant: str = "so") -> float:
    """One leduc game, aiplay's ISMCTS in ``our_seat`` against OpenSpiel's; aiplay's return."""
    game = aiplay.load("leduc_poker")
    os_game = pyspiel.load_game("leduc_poker")
    state, os_state = game.new_initial_state(), os_game.new_initial_state()
    ours = ISMCTSBot(iterations=sims, uct_c=UCT_C, seed=seed, reuse_tree=False, variant=variant)
    theirs = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, sims)
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        if player == aiplay.CHANCE:
            action = sample_chance_outcome(state, rng)
        elif player == our_seat:
            action = ours.choose(state)
        else:
            action = theirs.step(os_state)
        state.apply_action(action)
        os_state.apply_action(action)
    return state.returns()[our_seat]


def bench_strength(games: int, sims: int, variant: str) -> None:
    """``games`` deals, each played twice with the seats swapped (2 x games results).

    Both games of a deal see the same cards (the chance stream is seeded by
    the deal and decisions draw nothing from it), so the interval is computed
    over deals, on the mean of each pair: card luck largely cancels.
    OpenSpiel's ISMCTSBot does not repeat itself exactly for a given seed, so
    the figure moves a little from run to run; aiplay's side is reproducible.
    """
    pairs = []
    start = time.perf_counter()
    for seed in range(games):
        pairs.append((play_leduc(0, seed, sims, variant) + play_leduc(1, seed, sims, variant)) / 2)
        if (seed + 1) % max(1, games // 10) == 0:
            print(f"    strength: {seed + 1}/{games} deals, mean so far {statistics.mean(pairs):+.3f}",
                  flush=True)
    mean = statistics.mean(pairs)
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))
    row(f"strength, leduc: aiplay {variant.upper()}-ISMCTS vs OpenSpiel ISMCTSBot, {2 * len(pairs)} games, {sims} sims/move, "
        f"seats swapped ({time.perf_counter() - start:.0f} s)",
        f"mean return {mean:+.3f}, 95% interval [{mean - half:+.3f}, {mean + half:+.3f}]",
        "target: lower bound >= -0.05")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a few minutes at most")
    parser.add_argument("--only", choices=["ismcts", "expectimax", "mcts", "playouts", "workers",
                                           "timing", "strength"], help="run one section")
    parser.add_argument("--games", type=int, help="deals for the strength match (each played twice)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="interleaved repeats of every speed row (default 5; the spread needs >= 5)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be >= 1")
    global REPEATS
    REPEATS = args.repeats
    quick = args.quick
    print(f"aiplay {aiplay.__version__}, OpenSpiel {getattr(pyspiel, '__version__', '?')}, "
          f"Python {platform.python_version()}, {platform.machine()}, {platform.processor() or 'cpu'}")
    sections = {
        "ismcts": lambda: [bench_ismcts(name, 1000, 20 if quick else 100) for name in ("kuhn_poker", "leduc_poker")],
        "expectimax": lambda: bench_expectimax(4 if quick else 5, 100),
        "mcts": lambda: bench_mcts(1000, 10 if quick else 50),
        "playouts": lambda: bench_playouts(0.5 if quick else 2.0),
        "workers": lambda: bench_workers(0.1, 5 if quick else 20),
        "timing": lambda: bench_time_budget(0.1, 10 if quick else 50),
        "strength": lambda: [bench_strength(args.games or (100 if quick else 20000), 500, variant)
                             for variant in ("so", "mo")],
    }
    started = time.perf_counter()
    for name, run in sections.items():
        if args.only and name != args.only:
            continue
        print(f"[{name}] load average {load_average()}", flush=True)
        run()
        print(f"  (load average after: {load_average()})", flush=True)
    print()
    width = max(len(r[0]) for r in ROWS)
    print(f"{'measure':<{width}} | {'aiplay':>28} | {'OpenSpiel / reference':>28} | ratio")
    for what, ours, theirs, ratio in ROWS:
        print(f"{what:<{width}} | {ours:>28} | {theirs:>28} | {ratio}")
    print(f"\ntotal {time.perf_counter() - started:.0f} s, {REPEATS} interleaved repeats per speed row, "
          f"load average at the end {load_average()}")


if __name__ == "__main__":
    main()
