"""Where one native ISMCTS/MCTS iteration spends its time, per game and phase.

The native search loop (``src_ext/mcts.pyx``) carries time stamps around each
phase of an iteration (clone, determinize, the tree walk's legal moves,
selection, moves and node bookkeeping, the rollout's legal moves, move choice,
moves and end, back-up, and run()'s loop between iterations). They are compiled
in only when the C macro ``AIPLAY_PROFILE_SEARCH`` is defined: in the release
build they are dead code the compiler removes. This script compiles
``src_ext/mcts.pyx`` once more with the macro into ``build/profile/`` (a
private copy, a few seconds; rebuilt when the source changes), runs the same
searches with the release class and with the profile class, interleaved, and
prints:

* per configuration: iterations/s of the release build (median of the
  repeats) and of the profile build (the timers' overhead);
* per phase: the share of the profile build's loop time and ns per iteration;
* per iteration: moves in the tree walk and in the rollout, expansions,
  determinization redraws and stop-flag polls.

Configurations: leduc_poker ISMCTS (1,000 iterations per move, as in the
OpenSpiel comparison, over first decisions of seeded deals) and, for every
board game at its benchmark decision (``aiplay.bench.first_decision`` with its
``benchmark=`` options), ISMCTS with random rollouts, ISMCTS with the game's
presets and, for perfect-information games, MCTS with its presets.

Ticks are the CPU's time-stamp counter (x86) or the monotonic clock elsewhere,
converted to seconds by the loop's own total. On a loaded machine the shares
hold better than the rates; the load average is printed with the table.

Needs Cython and a C compiler (the build's own requirements; ``pip install cython``).

Usage::

    python benchmarks/profile_search.py                 # every configuration, ~1 min
    python benchmarks/profile_search.py --games leduc_poker,area51 --repeats 5
    python benchmarks/profile_search.py --json          # the figures as JSON
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import platform
import random
import shutil
import statistics
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

HERE = Path(__file__).resolve().parent.parent
PROFILE_DIR = HERE / "build" / "profile"


def build_profile_module() -> Path:
    """Compile ``src_ext/mcts.pyx`` with ``AIPLAY_PROFILE_SEARCH``; the path of the shared library."""
    source = HERE / "src_ext" / "mcts.pyx"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in [source, *sorted((HERE / "src_ext").glob("*.pxd"))]))
    tag = digest.hexdigest()[:16]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = PROFILE_DIR / tag / f"mcts{suffix}"
    if target.exists():
        return target
    try:
        import numpy
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as exc:  # the release build needs none of them at run time
        sys.exit(f"building the profile variant of mcts needs Cython, setuptools, NumPy and a C compiler "
                 f"({exc}): pip install cython setuptools numpy")

    work = PROFILE_DIR / tag / "work"
    shutil.rmtree(work, ignore_errors=True)
    (work / "src").mkdir(parents=True)
    copy = work / "src" / "mcts.pyx"
    shutil.copyfile(source, copy)
    # cimport aiplay._ext.kernel resolves by package path (as in setup.py's cython_include_tree).
    include = work / "include"
    (include / "aiplay" / "_ext").mkdir(parents=True)
    (include / "aiplay" / "__init__.pxd").touch()
    (include / "aiplay" / "_ext" / "__init__.pxd").touch()
    for pxd in (HERE / "src_ext").glob("*.pxd"):
        shutil.copyfile(pxd, include / "aiplay" / "_ext" / pxd.name)
    extension = Extension("aiplay._ext.mcts", [str(copy)], include_dirs=[numpy.get_include()],
                          define_macros=[("AIPLAY_PROFILE_SEARCH", "1")], extra_compile_args=["-O3"])
    # setup.py's release directives and flags, so that only the macro differs.
    modules = cythonize([extension], include_path=[str(include)],
                        compiler_directives={"language_level": "3", "embedsignature": True,
                                             "boundscheck": False, "wraparound": False,
                                             "cdivision": True, "initializedcheck": False},
                        build_dir=str(work / "c"), quiet=True)
    dist = Distribution({"ext_modules": modules})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "tmp")
    command.ensure_finalized()
    command.run()
    built = next((work / "lib").rglob(f"mcts{suffix}"))
    shutil.copyfile(built, target)
    return target


def load_profile_class(path: Path) -> Any:
    """The profile build's ``TreeSearch`` (a module beside the release one, not replacing it)."""
    import aiplay._ext.mcts  # noqa: F401  (the release module stays importable as itself)
    spec = importlib.util.spec_from_file_location("aiplay._ext.mcts", path)
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("aiplay._ext.mcts")
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["aiplay._ext.mcts"] = saved
    if not module.PROFILE_BUILD:
        sys.exit(f"{path} is not a profile build (AIPLAY_PROFILE_SEARCH was not defined)")
    return module


def configurations(games: List[str]) -> List[Tuple[str, Any, Any, Dict[str, Any], int, List[Any]]]:
    """``(label, bot class, game options, bot options, iterations per search, root states)``."""
    import aiplay
    from aiplay.bench import BOARD_GAMES, first_decision
    from aiplay.search import ISMCTSBot, MCTSBot
    from aiplay.testing.simulate import skip_chance

    configs = []
    if "leduc_poker" in games:
        game = aiplay.load("leduc_poker")
        rng = random.Random(1)
        roots = [skip_chance(game.new_initial_state(), rng) for _ in range(20)]
        # As in the OpenSpiel comparison: no tree reuse between the 20 moves.
        configs.append(("leduc_poker ISMCTS random", ISMCTSBot, {}, {"uct_c": 2.0, "reuse_tree": False}, 1000, roots))
    for name, options in BOARD_GAMES.items():
        if name not in games:
            continue
        native = aiplay.load(name, **options)
        root = first_decision(native)
        presets = native.bot_presets
        configs.append((f"{name} ISMCTS random", ISMCTSBot, options, {}, 2000, [root]))
        if presets.get("ismcts"):
            configs.append((f"{name} ISMCTS presets {dict(presets['ismcts'])}", ISMCTSBot, options,
                            dict(presets["ismcts"]), 2000, [root]))
        if native.perfect_information:
            extra = dict(presets.get("mcts") or {})
            configs.append((f"{name} MCTS presets {extra}", MCTSBot, options, extra, 2000, [root]))
    return configs


def run_config(search_class: Any, bot_class: Any, bot_options: Dict[str, Any], iterations: int,
               roots: List[Any]) -> Tuple[float, List[Dict[str, Any]]]:
    """Iterations/s over ``roots`` (one search each, a fresh tree) and each search's counters."""
    from aiplay.search import native_path

    saved = native_path.TreeSearch
    native_path.TreeSearch = search_class
    try:
        # Board games: the bot defaults, as aiplay.bench measures (one root: no tree is reused).
        bot = bot_class(iterations=iterations, seed=1, workers=1, **bot_options)
        counters = []
        seconds = 0.0
        for root in roots:
            analysis = bot.analyse(root)
            counters.append(analysis.counters)
            seconds += analysis.counters["seconds"]
    finally:
        native_path.TreeSearch = saved
    return iterations * len(roots) / seconds, counters


def profile_table(profiles: List[Dict[str, Any]], iterations_per_search: int) -> Dict[str, Any]:
    """Merge the per-search profiles: per phase, the median over the searches of its ticks per
    iteration (a search during which another process took the core gets that time charged to
    whatever phase it was in: the median leaves such searches out); counts summed."""
    phases = {name: statistics.median(p["phases"][name] / iterations_per_search for p in profiles)
              for name in profiles[0]["phases"]}
    ticks = statistics.median(p["ticks"] / iterations_per_search for p in profiles)
    counts = {name: sum(p["counts"][name] for p in profiles) for name in profiles[0]["counts"]}
    return {"ticks_per_iteration": ticks, "phases": phases, "counts": counts,
            "iterations": iterations_per_search * len(profiles), "searches": len(profiles),
            # seconds per tick from the whole loop: its ticks against its measured seconds
            "seconds_per_tick": sum(p["seconds"] for p in profiles) / sum(p["ticks"] for p in profiles)}


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="leduc_poker,sunken_city,area51,area1851,groom_lake",
                        help="comma-separated: leduc_poker and board games")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats of each configuration")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    module = load_profile_class(build_profile_module())
    from aiplay._ext.mcts import TreeSearch as ReleaseSearch

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    results = []
    load_before = os.getloadavg()
    for label, bot_class, _options, bot_options, iterations, roots in configurations(games):
        release_rates, profile_rates, profiles = [], [], []
        run_config(ReleaseSearch, bot_class, bot_options, min(iterations, 200), roots[:1])  # warm-up
        for _ in range(args.repeats):
            rate, _ = run_config(ReleaseSearch, bot_class, bot_options, iterations, roots)
            release_rates.append(rate)
            rate, counters = run_config(module.TreeSearch, bot_class, bot_options, iterations, roots)
            profile_rates.append(rate)
            profiles.extend(dict(c["profile"], seconds=c["seconds"]) for c in counters)
        table = profile_table(profiles, iterations)
        results.append({"config": label, "release_rates": release_rates, "profile_rates": profile_rates,
                        **table})
        if not args.json:
            print_config(results[-1])
    load_after = os.getloadavg()
    machine = {"python": platform.python_version(), "machine": platform.machine(),
               "cpus": os.cpu_count(), "load_before": load_before, "load_after": load_after}
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=1))
    else:
        print(f"\n{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
              f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    return 0


def print_config(r: Dict[str, Any]) -> None:
    """One configuration's block of the text table."""
    per_tick = r["seconds_per_tick"]
    release = statistics.median(r["release_rates"])
    profile = statistics.median(r["profile_rates"])
    print(f"\n{r['config']}: release {release:,.0f} it/s (min {min(r['release_rates']):,.0f}, "
          f"max {max(r['release_rates']):,.0f}), profile build {profile:,.0f} it/s "
          f"({len(r['release_rates'])} interleaved repeats; phases: medians over {r['searches']} searches)")
    total = r["ticks_per_iteration"]
    accounted = sum(r["phases"].values())
    print(f"  {'phase':<16} {'share':>7} {'ns/iter':>9}")
    for name, ticks in r["phases"].items():
        print(f"  {name:<16} {100 * ticks / accounted:6.1f}% {ticks * per_tick * 1e9:9.0f}")
    print(f"  {'(sum)':<16} {'':>7} {accounted * per_tick * 1e9:9.0f}  "
          f"(median loop total {total * per_tick * 1e9:,.0f} ns/iter)")
    per = ", ".join(f"{name} {count / r['iterations']:.2f}" for name, count in r["counts"].items())
    print(f"  per iteration: {per}")


if __name__ == "__main__":
    sys.exit(main())
