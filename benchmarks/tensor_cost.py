"""What a tensor costs (issue 24): microseconds per information-state tensor, per game that has one.

For each game with tensors and each engine, the information-state tensor (the
observation tensor for Pig) of every seat is computed at positions along
seeded random games (every 7th move); the mean time per call is printed. On
the native engine the poker kernels write the tensor from their C state
(``fill_tensor``); the other games, and the reference engine, go through the
encoding's Python path (the dict form, or the seat's view for Area 51, Area
1851 and Groom Lake).

    python benchmarks/tensor_cost.py            # 300 positions per game and engine
    python benchmarks/tensor_cost.py --quick    # 30 (CI smoke run)
"""

from __future__ import annotations

import argparse
import random
import time

import aiplay
from aiplay.views import tensors
from aiplay.registry import game_entries, has_native
from aiplay.testing.simulate import random_action


def positions(game: aiplay.Game, count: int, seed: int, every: int = 7) -> list:
    """``count`` states taken every ``every`` moves along seeded random games (a board game's
    positions spread past its set-up)."""
    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        state, moves = game.new_initial_state(), 0
        while not state.is_terminal() and len(found) < count:
            if moves % every == 0:
                found.append(state.clone())
            state.apply_action(random_action(state, rng))
            moves += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="30 positions per game and engine")
    args = parser.parse_args()
    count = 30 if args.quick else 300
    print(f"{'game':14} {'engine':9} {'tensor':18} {'floats':>6} {'us per call':>12}")
    for entry in game_entries(include_hidden=True):
        if entry.tensors is None:
            continue
        for backend in ["reference"] + (["native"] if has_native(entry.name) else []):
            game = aiplay.load(entry.name, backend=backend)
            kind = "information_state" if tensors.provides(game, "information_state") else "observation"
            compute = tensors.information_state_tensor if kind == "information_state" else tensors.observation_tensor
            states = positions(game, count, seed=1)
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                for state in states:
                    for p in range(game.num_players):
                        compute(state, p)
                best = min(best, time.perf_counter() - start)
            size = (tensors.information_state_tensor_shape(game) if kind == "information_state"
                    else tensors.observation_tensor_shape(game))[0]
            per_call = best / (len(states) * game.num_players) * 1e6
            print(f"{entry.name:14} {backend:9} {kind:18} {size:6d} {per_call:12.1f}")


if __name__ == "__main__":
    main()
