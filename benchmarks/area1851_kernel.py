"""Area 1851 kernel speed: random playouts (native vs reference), clone(), ISMCTS at a 4-player first decision.

Run from the repository root::

    .venv/bin/python benchmarks/area1851_kernel.py [--quick]

The kernel is built from the reference game directly (``make_kernel``), so this script runs whether or
not the registry entry names the kernel yet. Figures go to stdout; benchmarks/RESULTS.md records a run.
"""

from __future__ import annotations

import argparse
import os
import random
import time
import timeit

from aiplay.games.area1851.kernel import make_kernel
from aiplay.games.area1851 import Area1851Game

from aiplay.game import sample_chance_outcome
from aiplay.native import NativeGame
from aiplay.search import ISMCTSBot
from aiplay.testing.simulate import play_out


def first_decision(game, seed: int = 2):
    """The first decision of a seeded deal."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, rng))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    seconds = 2.0 if args.quick else 10.0
    iterations = 2000 if args.quick else 20000
    print(f"load average: {os.getloadavg()}")
    ref = Area1851Game(players=args.players)
    native = NativeGame(ref, make_kernel(ref))

    rng = random.Random(0)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or count == 0:
        play_out(ref.new_initial_state(), rng)
        count += 1
    ref_rate = count / (time.perf_counter() - start)
    print(f"reference random playouts/s: {ref_rate:,.1f} ({count} games)")

    batch = max(200, int(ref_rate * 60 * seconds))
    start, cpu = time.perf_counter(), time.process_time()
    native.kernel.random_playouts(native.new_initial_state(), batch, 1)
    nat_rate = batch / (time.perf_counter() - start)
    nat_cpu_rate = batch / (time.process_time() - cpu)
    print(f"native random playouts/s: {nat_rate:,.0f} ({batch} games), x{nat_rate / ref_rate:,.0f} the reference"
          f" (per CPU second: {nat_cpu_rate:,.0f})")
    start = time.perf_counter()
    native.kernel.playouts(native.new_initial_state(), max(50, batch // 4), 1, True)
    pol_rate = max(50, batch // 4) / (time.perf_counter() - start)
    print(f"native policy playouts/s: {pol_rate:,.0f}")

    mid = play_out(native.new_initial_state(), random.Random(1), max_steps=40)
    clone_ns = min(timeit.repeat(mid.clone, number=20000, repeat=5)) / 20000 * 1e9
    ref_mid = play_out(ref.new_initial_state(), random.Random(1), max_steps=40)
    ref_clone_ns = min(timeit.repeat(ref_mid.clone, number=2000, repeat=5)) / 2000 * 1e9
    print(f"clone() from Python: native {clone_ns:,.0f} ns, reference {ref_clone_ns:,.0f} ns")

    state = first_decision(native)
    for label, extra in (("random rollouts", {}), ("presets (rollout_cutoff 40)", dict(native.bot_presets["ismcts"])),
                         ("policy rollouts", {"rollout": "policy"})):
        bot = ISMCTSBot(iterations=iterations, seed=1, **extra)
        start, cpu = time.perf_counter(), time.process_time()
        bot.choose(state)
        rate = iterations / (time.perf_counter() - start)
        cpu_rate = iterations / (time.process_time() - cpu)
        print(f"ISMCTS at the first decision ({args.players} players), {label}: {rate:,.0f} iterations/s"
              f" (per CPU second: {cpu_rate:,.0f})")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
