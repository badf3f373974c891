"""How fast a running native search obeys ``bot.stop()`` and Ctrl-C (SIGINT).

For each bot, a search with a one-minute budget is started; after 0.5 s it is
stopped (from another thread) or interrupted (SIGINT sent to a child process
running it), and the time from the request to the search's end is printed.
The issue's target is about 50 ms.

    python benchmarks/cancel_latency.py            # 5 repetitions per bot
    python benchmarks/cancel_latency.py --quick    # 1 repetition (CI smoke run)
    python benchmarks/cancel_latency.py --presets  # every bot kind x board game, with the game's presets,
                                                   # through the API (bot.stop()) and the protocol (stop)
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import aiplay
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot

CASES = {
    "ismcts (area51 4p)": ("area51", {"players": 4}, lambda: ISMCTSBot(seconds=60, seed=1)),
    "ismcts mo, 2 workers (area51 4p)": ("area51", {"players": 4},
                                         lambda: ISMCTSBot(seconds=60, seed=1, variant="mo", workers=2)),
    "mcts, 2 workers (sunken_city 3p)": ("sunken_city", {"players": 3},
                                         lambda: MCTSBot(seconds=60, seed=1, workers=2)),
    "expectimax (sunken_city 3p)": ("sunken_city", {"players": 3}, lambda: ExpectimaxBot(seconds=60, seed=1)),
}


def first_decision(name: str, options: dict) -> aiplay.State:
    return aiplay.skip_chance(aiplay.load(name, **options).new_initial_state(), random.Random(1))


def stop_latency(case: str) -> float:
    """Seconds from bot.stop() (another thread) to the end of the search."""
    name, options, make = CASES[case]
    bot, state = make(), first_decision(name, options)
    asked = []

    def stop() -> None:
        asked.append(time.perf_counter())
        bot.stop()

    timer = threading.Timer(0.5, stop)
    timer.start()
    bot.analyse(state)
    ended = time.perf_counter()
    timer.join()
    return ended - asked[0]


CHILD = """
import sys, time
sys.path.insert(0, {here!r})
from cancel_latency import CASES, first_decision
name, options, make = CASES[sys.argv[1]]
bot, state = make(), first_decision(name, options)
print("ready", flush=True)
try:
    bot.analyse(state)
except KeyboardInterrupt:
    print(time.perf_counter(), flush=True)
"""


def sigint_latency(case: str) -> float:
    """Seconds from SIGINT to KeyboardInterrupt in a child process running the search."""
    from pathlib import Path
    code = CHILD.format(here=str(Path(__file__).resolve().parent))
    proc = subprocess.Popen([sys.executable, "-c", code, case], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"{case}: the child did not start")
    time.sleep(0.5)
    sent = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes on Linux
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    return float(out.strip()) - sent


#: The board games whose presets are measured (issue 27: every bot kind with its game's presets).
PRESET_GAMES = {"sunken_city": {"players": 3}, "area51": {"players": 4}, "area1851": {"players": 3},
                "groom_lake": {"players": 5}}


def preset_bot(kind: str, game: aiplay.Game) -> Any:
    """The bot ``kind`` with ``game``'s presets and a one-minute budget (reading hidden cards where it must)."""
    from aiplay.search import make_bot
    options: Dict[str, Any] = {"seed": 1}
    if kind in ("mcts", "ismcts", "expectimax"):
        options["seconds"] = 60
    if kind == "expectimax":
        options["depth"] = 200  # deepen until stopped (a preset depth of 2 ends before the stop)
    if kind in ("mcts", "expectimax") and not game.perfect_information:
        options["allow_hidden_information"] = True
    return make_bot(kind, game=game, **options)


#: Seconds a search runs before the stop. The level bot's budget is its level's iterations (no
#: minute-long search exists), so it is stopped early; it may still end first (reported so).
STOP_AFTER = {"level": 0.05}


def api_preset_latency(kind: str, name: str) -> Optional[float]:
    """Seconds from bot.stop() (another thread) to the end of the search, the game's presets in force;
    None when the search ended before the stop (random, heuristic, a small level budget)."""
    game = aiplay.load(name, **PRESET_GAMES[name])
    state = aiplay.skip_chance(game.new_initial_state(), random.Random(1))
    bot = preset_bot(kind, game)
    asked: List[float] = []
    done = threading.Event()

    def stop() -> None:
        if not done.is_set():
            asked.append(time.perf_counter())
            bot.stop()

    timer = threading.Timer(STOP_AFTER.get(kind, 0.5), stop)
    timer.start()
    bot.analyse(state)
    ended = time.perf_counter()
    done.set()
    timer.cancel()
    timer.join()
    return max(0.0, ended - asked[0]) if asked else None


def protocol_preset_latency(kind: str, name: str) -> Optional[float]:
    """Seconds from a protocol ``stop`` to the search's ``bestmove`` (an in-process server, presets on);
    None when the search answered before the stop."""
    from aiplay.protocol import Server
    finals: "queue.Queue[Tuple[float, Dict[str, Any]]]" = queue.Queue()

    def emit(obj: Dict[str, Any]) -> None:
        if obj.get("type") in ("bestmove", "reply"):
            finals.put((time.perf_counter(), obj))

    server = Server(emit)
    options = dict(PRESET_GAMES[name])
    server.handle_line(json.dumps({"id": "new", "cmd": "new", "game": name, "seed": 1, "auto_chance": True,
                                   "players": options.pop("players"), "viewer": "all"}))
    finals.get(timeout=60)
    fields: Dict[str, Any] = {"bot": kind, "seconds": 60}
    if kind == "expectimax":
        fields["depth"] = 200
    if kind in ("mcts", "expectimax") and name != "sunken_city":
        fields["options"] = {"allow_hidden_information": True}
    server.handle_line(json.dumps({"id": "go", "cmd": "go", **fields}))
    time.sleep(STOP_AFTER.get(kind, 0.5))
    asked = time.perf_counter()
    server.handle_line(json.dumps({"id": "stop", "cmd": "stop"}))
    while True:
        at, obj = finals.get(timeout=60)
        if obj.get("id") == "go":
            assert obj.get("ok"), obj
            server.shutdown()
            return at - asked if at >= asked else None


def presets_table(repeat: int) -> None:
    """Stop latency of every bot kind on every board game, presets on, through the API and the protocol."""
    from aiplay.search import BOTS

    def cell(times: List[Optional[float]], width: int) -> str:
        """Median and max in ms of the stopped runs, and how many runs ended before the stop."""
        ms = [t * 1000 for t in times if t is not None]
        first = len(times) - len(ms)
        text = f"{statistics.median(ms):.1f} {max(ms):.1f}" if ms else "-"
        return (text + (f" ({first} ended first)" if first else "")).rjust(width)

    uncovered = [g for g in aiplay.games_available() if aiplay.load(g).bot_presets and g not in PRESET_GAMES]
    if uncovered:
        raise SystemExit(f"games with bot presets missing from PRESET_GAMES: {uncovered}")
    print(f"{'bot':11} {'game':12} {'API stop ms (median max)':>36} {'protocol stop ms (median max)':>36}")
    for name in PRESET_GAMES:
        for kind in sorted(BOTS):
            api = [api_preset_latency(kind, name) for _ in range(repeat)]
            proto = [protocol_preset_latency(kind, name) for _ in range(repeat)]
            print(f"{kind:11} {name:12} {cell(api, 36)} {cell(proto, 36)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one repetition")
    parser.add_argument("--presets", action="store_true",
                        help="every bot kind on every board game with the game's presets, API and protocol")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    if args.presets:
        presets_table(repeat)
        return
    print(f"{'search':36} {'stop() ms (median, max)':>26} {'SIGINT ms (median, max)':>26}")
    for case in CASES:
        stops = [stop_latency(case) * 1000 for _ in range(repeat)]
        sigints = [sigint_latency(case) * 1000 for _ in range(repeat)]
        print(f"{case:36} {statistics.median(stops):12.1f} {max(stops):12.1f} "
              f"{statistics.median(sigints):13.1f} {max(sigints):12.1f}", flush=True)


if __name__ == "__main__":
    main()
