"""What shipping a state to another process costs (issue 24): pickle + unpickle per state, per game.

For each game and engine, a set of positions along seeded random games is
pickled and unpickled, one state per ``pickle.dumps``/``pickle.loads`` call
(as ``multiprocessing`` sends one task's argument); the mean time per state
and the pickle's size are printed. A native state pickles as the kernel's own
bytes, a reference state as its Python objects; the JSON form (``to_json`` +
``state_from_json``, which validates every field) is printed beside them, as
the portable alternative.

    python benchmarks/pickle_cost.py            # 200 states per game and engine
    python benchmarks/pickle_cost.py --quick    # 20 (CI smoke run)
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from typing import Callable, List

import aiplay
from aiplay.registry import has_native
from aiplay.testing.simulate import random_action


def positions(game: aiplay.Game, count: int, seed: int) -> List[aiplay.State]:
    """``count`` states taken every few moves along seeded random games."""
    rng = random.Random(seed)
    found: List[aiplay.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step % 5 == 0:
                found.append(state.clone())
            state.apply_action(random_action(state, rng))
            step += 1
    return found


def per_state(states: List[aiplay.State], roundtrip: Callable[[aiplay.State], object]) -> float:
    """Mean microseconds of ``roundtrip`` per state (best of three passes)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for state in states:
            roundtrip(state)
        best = min(best, time.perf_counter() - start)
    return best / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 states per game and engine")
    parser.add_argument("--states", type=int, default=200)
    args = parser.parse_args()
    count = 20 if args.quick else args.states
    print(f"{'game':14} {'engine':9} {'pickle us':>10} {'bytes':>7} {'json us':>10} {'bytes':>7}")
    for name in aiplay.games_available():
        for backend in ["reference"] + (["native"] if has_native(name) else []):
            game = aiplay.load(name, backend=backend)
            states = positions(game, count, seed=1)
            pickled = per_state(states, lambda s: pickle.loads(pickle.dumps(s)))
            size = sum(len(pickle.dumps(s)) for s in states) / len(states)
            as_json = per_state(states, lambda s: game.state_from_json(s.to_json()))
            json_size = sum(len(s.to_json()) for s in states) / len(states)
            print(f"{name:14} {backend:9} {pickled:10.1f} {size:7.0f} {as_json:10.1f} {json_size:7.0f}")


if __name__ == "__main__":
    main()
