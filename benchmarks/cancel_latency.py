"""How fast a running native search obeys ``bot.stop()`` and Ctrl-C (SIGINT).

For each bot, a search with a one-minute budget is started; after 0.5 s it is
stopped (from another thread) or interrupted (SIGINT sent to a child process
running it), and the time from the request to the search's end is printed.
The issue's target is about 50 ms.

    python benchmarks/cancel_latency.py            # 5 repetitions per bot
    python benchmarks/cancel_latency.py --quick    # 1 repetition (CI smoke run)
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import threading
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one repetition")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    print(f"{'search':36} {'stop() ms (median, max)':>26} {'SIGINT ms (median, max)':>26}")
    for case in CASES:
        stops = [stop_latency(case) * 1000 for _ in range(repeat)]
        sigints = [sigint_latency(case) * 1000 for _ in range(repeat)]
        print(f"{case:36} {statistics.median(stops):12.1f} {max(stops):12.1f} "
              f"{statistics.median(sigints):13.1f} {max(sigints):12.1f}", flush=True)


if __name__ == "__main__":
    main()
