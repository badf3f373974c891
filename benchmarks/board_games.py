"""Engine and search speed on the board games, native against reference, in one run.

For every board game with a native kernel it prints:

* random playouts/s: the kernel's C loop against the reference engine's Python loop;
* the Python-visible ``clone()`` of a mid-game state, both engines;
* the kernel's playout policy (``policy_action``): policy playouts/s and
  mean game length, against random playouts;
* search speed at the start of a game: MCTS and expectimax (Sunken City,
  3 players), ISMCTS (Area 51, 4 players), on the native path, with random
  rollouts and with the game's bot presets (the strength settings).

Usage::

    python benchmarks/board_games.py            # about a minute
    python benchmarks/board_games.py --quick
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import aiplay
from aiplay.simulate import play_out, random_walk, skip_chance
from aiplay.registry import LiveTable, benchmark_configs, has_native
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot

#: ``{game: options}``: every registered game with a ``benchmark=`` configuration in its
#: register() call (hidden example games only with AIPLAY_SHOW_HIDDEN_GAMES=1); live, so a
#: game registered at run time is included.
BOARD_GAMES = LiveTable(benchmark_configs)


def reference_playouts_per_second(game, seconds: float) -> float:
    rng = random.Random(0)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or count == 0:
        play_out(game.new_initial_state(), rng)
        count += 1
    return count / (time.perf_counter() - start)


def mid_game(game, moves: int = 40):
    return play_out(game.new_initial_state(), random.Random(1), max_steps=moves)


def first_decision(game):
    return skip_chance(game.new_initial_state(), random.Random(2))


def game_length(game, policy: bool, games: int = 20) -> float:
    """Mean moves (decisions and chance) per game from the start, random or policy play."""
    rng = random.Random(3)
    choose = (lambda s: game.kernel.policy_choice(s, rng.getrandbits(64))) if policy else None
    # The walk yields the start and the state after each move: moves = states - 1.
    total = sum(sum(1 for _ in random_walk(game.new_initial_state(), rng, choose=choose)) - 1 for _ in range(games))
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter timings")
    args = parser.parse_args()
    seconds = 0.5 if args.quick else 3.0
    for name, options in BOARD_GAMES.items():
        if not has_native(name):
            print(f"{name}: no native kernel yet")
            continue
        native = aiplay.load(name, **options)
        reference = aiplay.load(name, backend="reference", **options)
        ref_rate = reference_playouts_per_second(reference, seconds)
        batch = max(100, int(ref_rate * 60 * seconds))
        start = time.perf_counter()
        native.kernel.random_playouts(native.new_initial_state(), batch, 1)
        native_rate = batch / (time.perf_counter() - start)
        print(f"{name} {options}: random playouts/s native {native_rate:,.0f}, reference {ref_rate:,.0f}, "
              f"x{native_rate / ref_rate:.0f}")
        if native.kernel.has_policy:
            policy_batch = max(50, batch // 10)
            start = time.perf_counter()
            native.kernel.playouts(native.new_initial_state(), policy_batch, 1, True)
            policy_rate = policy_batch / (time.perf_counter() - start)
            print(f"  policy playouts/s native {policy_rate:,.0f} (x{policy_rate / native_rate:.2f} random); "
                  f"moves per game: random {game_length(native, False):.0f}, policy {game_length(native, True):.0f}")
        for label, game in (("native", native), ("reference", reference)):
            state = mid_game(game)
            per_call = min(timeit.repeat(state.clone, number=20000, repeat=5)) / 20000
            print(f"  clone() {label}: {per_call * 1e9:,.0f} ns")
        state = first_decision(native)
        iterations = 2000 if args.quick else 20000
        presets = native.bot_presets
        if native.perfect_information:  # MCTS and expectimax; hidden information: ISMCTS
            mcts_presets = dict(presets.get("mcts", {}))
            for label, extra in (("random rollouts", {}), (f"presets {mcts_presets}", mcts_presets)):
                analysis = MCTSBot(iterations=iterations, seed=1, **extra).analyse(state)
                print(f"  MCTS at the first decision, {label}: "
                      f"{iterations / analysis.counters['seconds']:,.0f} iterations/s")
            analysis = ExpectimaxBot(depth=3).analyse(state)
            print(f"  expectimax depth 3 at the first decision: {analysis.counters['nodes']:,} nodes, "
                  f"{analysis.counters['nodes'] / analysis.counters['seconds']:,.0f} nodes/s")
            if "expectimax" in presets:
                extra = dict(presets["expectimax"])
                analysis = ExpectimaxBot(**extra).analyse(state)
                print(f"  expectimax {extra} at the first decision: {analysis.counters['nodes']:,} nodes in "
                      f"{analysis.counters['seconds']:.2f} s")
        else:
            ismcts_presets = dict(presets.get("ismcts", {}))
            for label, extra in (("random rollouts", {}), (f"presets {ismcts_presets}", ismcts_presets)):
                analysis = ISMCTSBot(iterations=iterations, seed=1, **extra).analyse(state)
                print(f"  ISMCTS at the first decision, {label}: "
                      f"{iterations / analysis.counters['seconds']:,.0f} iterations/s")


if __name__ == "__main__":
    main()
