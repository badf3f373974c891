"""Groom Lake kernel speed against its targets (issue 13): playouts and ISMCTS at the first decision.

Targets: kernel random playouts/s at least 50 times the reference engine's,
and at least 10,000 native ISMCTS iterations/s at the first decision of a
5-player game. The kernel is built from the reference game directly
(:class:`aiplay.native.NativeGame`), so the script runs whatever the game's
registry entry says. The machine load (1-minute average) is printed beside
the figures: the machine is shared.

Usage::

    python benchmarks/groom_lake_kernel.py            # about a minute
    python benchmarks/groom_lake_kernel.py --quick
    python benchmarks/groom_lake_kernel.py --players 3
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict

from aiplay.games.groom_lake.kernel import make_kernel
from aiplay.bench import first_decision, native_playouts_per_second, reference_playouts_per_second
from aiplay.games.groom_lake import GroomLakeGame
from aiplay.native import NativeGame
from aiplay.search import ISMCTSBot

#: Kernel random playouts/s over the reference engine's, at least.
PLAYOUT_SPEEDUP_TARGET = 50.0
#: Native ISMCTS iterations/s at the first decision of a 5-player game, at least.
ISMCTS_TARGET = 10_000.0


def measure(players: int = 5, quick: bool = False) -> Dict[str, Any]:
    """The figures as a dict (rates per second; ``load`` is the 1-minute load average before and after)."""
    load_before = os.getloadavg()[0]
    reference = GroomLakeGame(players=players)
    native = NativeGame(reference, make_kernel(reference))
    seconds = 0.5 if quick else 3.0
    ref_rate = reference_playouts_per_second(reference, seconds)
    batch = max(200, int(ref_rate * 60 * seconds))
    native_rate = native_playouts_per_second(native, batch)
    policy_rate = native_playouts_per_second(native, max(100, batch // 4), policy=True)
    state = first_decision(native)
    iterations = 2_000 if quick else 20_000
    searches = {}
    presets = dict(native.bot_presets.get("ismcts") or {})
    for label, extra in (("random rollouts", {}), (f"presets {presets}", presets)):
        analysis = ISMCTSBot(iterations=iterations, seed=1, **extra).analyse(state)
        searches[label] = iterations / analysis.counters["seconds"]
    return {"players": players, "reference_playouts_per_s": ref_rate, "native_playouts_per_s": native_rate,
            "playout_speedup": native_rate / ref_rate, "policy_playouts_per_s": policy_rate,
            "first_decision_step": state.to_dict()["step"], "ismcts_iterations_per_s": searches,
            "load": (load_before, os.getloadavg()[0]), "cpus": os.cpu_count()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test, not a measurement)")
    args = parser.parse_args(argv)
    r = measure(args.players, args.quick)
    print(f"groom_lake, {r['players']} players; load average {r['load'][0]:.2f} -> {r['load'][1]:.2f} "
          f"on {r['cpus']} CPUs")
    print(f"  reference random playouts/s   {r['reference_playouts_per_s']:10.1f}")
    print(f"  kernel random playouts/s      {r['native_playouts_per_s']:10.1f}   "
          f"x{r['playout_speedup']:.0f} (target x{PLAYOUT_SPEEDUP_TARGET:.0f})")
    print(f"  kernel policy playouts/s      {r['policy_playouts_per_s']:10.1f}")
    ok = r["playout_speedup"] >= PLAYOUT_SPEEDUP_TARGET
    for label, rate in r["ismcts_iterations_per_s"].items():
        print(f"  ISMCTS iterations/s at the first decision ({r['first_decision_step']}), {label}: {rate:10.0f}"
              f"   (target {ISMCTS_TARGET:.0f})")
        ok = ok and (args.players != 5 or rate >= ISMCTS_TARGET)
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
