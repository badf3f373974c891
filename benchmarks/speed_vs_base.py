"""Board-game search speed of this build against another build (a base commit), side by side.

Each build runs in its own interpreter (its own virtual environment, where
``aiplay`` is that build, installed with ``pip install -e .``), kept alive as
a worker that searches on request. For every board game at its benchmark
decision (``aiplay.bench.first_decision`` with the game's ``benchmark=``
options) and every search the speed table reports there (ISMCTS with random
rollouts, ISMCTS with the game's presets, MCTS with its presets for
perfect-information games), the script asks both workers in turn, the order
alternating from repeat to repeat (base, this, this, base, ...), so that load
from other processes falls on both alike. A search is one seeded bot
(``workers=1``, the other options at their defaults, as ``aiplay bench``) with an iteration budget: the same work in
both builds when their kernels and searches agree, which the script checks
by comparing the searched positions and the root visit counts.

It prints, per configuration, each build's iterations/s (median, min..max
over the repeats), the ratio of the medians and the spread of the
per-repeat ratios, and the load average before and after.

Build the base once, in its own worktree and environment::

    git worktree add /work/wt/base6e1 6e1d4ec
    python3 -m venv /work/wt/base6e1/.venv
    /work/wt/base6e1/.venv/bin/pip install -e /work/wt/base6e1

Usage::

    python benchmarks/speed_vs_base.py --base-python /work/wt/base6e1/.venv/bin/python
    python benchmarks/speed_vs_base.py --base-python ... --games area51 --repeats 9 --iterations 4000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from typing import Any, Dict, List

DEFAULT_GAMES = "sunken_city,area51,area1851,groom_lake"


# -- the worker: runs in each build's interpreter ---------------------------------------------
def _configurations(games: List[str]) -> List[Dict[str, Any]]:
    """The searches of the speed table at each board game's benchmark decision."""
    import aiplay
    from aiplay.bench import BOARD_GAMES

    configs = []
    for name in games:
        options = dict(BOARD_GAMES[name])
        native = aiplay.load(name, **options)
        presets = native.bot_presets
        configs.append({"game": name, "options": options, "bot": "ismcts", "extra": {}, "label": "ISMCTS random"})
        if presets.get("ismcts"):
            configs.append({"game": name, "options": options, "bot": "ismcts", "extra": dict(presets["ismcts"]),
                            "label": "ISMCTS presets"})
        if native.perfect_information:
            extra = dict(presets.get("mcts") or {})
            configs.append({"game": name, "options": options, "bot": "mcts", "extra": extra,
                            "label": "MCTS presets"})
    return configs


def worker() -> None:
    """Answer JSON requests on stdin, one a line: ``configs`` or ``run``."""
    import time

    import aiplay
    from aiplay.bench import first_decision
    from aiplay.search import ISMCTSBot, MCTSBot

    roots: Dict[str, Any] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "configs":
            reply: Any = {"configs": _configurations(request["games"]), "aiplay": aiplay.__file__}
        else:
            config = request["config"]
            key = json.dumps([config["game"], config["options"]], sort_keys=True)
            if key not in roots:
                roots[key] = first_decision(aiplay.load(config["game"], **config["options"]))
            root = roots[key]
            bot_class = ISMCTSBot if config["bot"] == "ismcts" else MCTSBot
            # The bot defaults (tree reuse on), as aiplay.bench measures; a new bot never reuses a tree.
            bot = bot_class(iterations=request["iterations"], seed=1, workers=1,
                            **config["extra"])
            start = time.perf_counter()
            analysis = bot.analyse(root)
            wall = time.perf_counter() - start
            reply = {"rate": request["iterations"] / analysis.counters["seconds"], "wall": wall,
                     "root": hashlib.sha256(str(root).encode()).hexdigest()[:12],
                     "visits": [s.visits for s in analysis.stats]}
        print(json.dumps(reply), flush=True)


# -- the driver ------------------------------------------------------------------------------------
class Build:
    """One build's worker process."""

    def __init__(self, name: str, python: str):
        self.name = name
        self.process = subprocess.Popen([python, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, cwd="/")

    def ask(self, request: Dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} worker ended (see its error output above)")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def spread(values: List[float]) -> str:
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}..{max(values):,.0f})"


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base-python", required=False, help="the base build's interpreter")
    parser.add_argument("--python", default=sys.executable, help="this build's interpreter (default: this one)")
    parser.add_argument("--games", default=DEFAULT_GAMES)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=2000, help="iterations per search")
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return 0
    if not args.base_python:
        parser.error("--base-python is required")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    builds = [Build("base", args.base_python), Build("this", args.python)]
    try:
        answers = [b.ask({"cmd": "configs", "games": games}) for b in builds]
        for build, answer in zip(builds, answers):
            print(f"{build.name}: aiplay from {answer['aiplay']}")
        configs = answers[1]["configs"]
        # Each build searches with its own presets (the issue's "figure at the base, with the
        # presets"): a preset the base build did not have yet is part of what is compared.
        base_configs = {(c["game"], c["label"]): c for c in answers[0]["configs"]}
        load_before = os.getloadavg()
        print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
        lines = []
        for config in configs:
            base_config = base_configs.get((config["game"], config["label"]))
            if base_config is None:
                print(f"{config['game']} {config['label']}: not in the base build's table, skipped")
                continue
            requests = {"base": {"cmd": "run", "config": base_config, "iterations": args.iterations},
                        "this": {"cmd": "run", "config": config, "iterations": args.iterations}}
            same_options = base_config["extra"] == config["extra"]
            for b in builds:  # warm-up: imports, the root state, the node arrays
                b.ask(dict(requests[b.name], iterations=min(200, args.iterations)))
            rates: Dict[str, List[float]] = {"base": [], "this": []}
            replies: Dict[str, Any] = {}
            for r in range(args.repeats):
                order = builds if r % 2 == 0 else builds[::-1]
                for b in order:
                    replies[b.name] = b.ask(requests[b.name])
                    rates[b.name].append(replies[b.name]["rate"])
            ratios = [t / b for t, b in zip(rates["this"], rates["base"])]
            same_root = replies["base"]["root"] == replies["this"]["root"]
            same_search = replies["base"]["visits"] == replies["this"]["visits"]
            options = "" if same_options else f" (base {base_config['extra']}, this {config['extra']})"
            line = (f"{config['game']} {config['label']}{options}: base {spread(rates['base'])} it/s, "
                    f"this {spread(rates['this'])} it/s, x{statistics.median(rates['this']) / statistics.median(rates['base']):.2f} "
                    f"(per repeat x{min(ratios):.2f}..x{max(ratios):.2f}; {args.repeats} repeats, "
                    f"{args.iterations} iterations; same root: {same_root}, same root visits: {same_search}; "
                    f"load {os.getloadavg()[0]:.2f})")
            print(line, flush=True)
            lines.append(line)
        load_after = os.getloadavg()
        print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    finally:
        for b in builds:
            b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
