"""Bots under threads and signals: one search per bot, stop() from anywhere, Ctrl-C.

The budgets here are a minute long and every search must end within a few
seconds of the request: the assertions are about behaviour (the request is
obeyed), not speed. The latency itself (about 10 ms) is measured by
``benchmarks/cancel_latency.py``.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import aiplay
from aiplay.errors import BotBusyError
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot
from aiplay.testing.choose import pick_variant

ROOT = Path(__file__).resolve().parents[1]
LONG = 60.0  # seconds: a budget no test waits for


def first_decision(name: str, backend: str = "auto", **options) -> aiplay.State:
    return aiplay.skip_chance(aiplay.load(name, backend=backend, **options).new_initial_state(), random.Random(1))


#: Games chosen by property: board games for three or more with hidden and with perfect information (long
#: searches on native kernels), and short games of both kinds for the reference searches.
BOARD_HIDDEN = pick_variant(board=True, perfect_information=False, native=True, min_players=3)
BOARD_PERFECT = pick_variant(board=True, perfect_information=True, native=True, min_players=3)
SHORT_HIDDEN = pick_variant(perfect_information=False, short=True)
SHORT_PERFECT = pick_variant(perfect_information=True, chance=True, short=True)

BOTS = {
    "ismcts-native": (lambda: ISMCTSBot(seconds=LONG, seed=1), BOARD_HIDDEN, "native"),
    "ismcts-mo-native": (lambda: ISMCTSBot(seconds=LONG, seed=1, variant="mo", workers=2), BOARD_HIDDEN, "native"),
    "mcts-native-2-workers": (lambda: MCTSBot(seconds=LONG, seed=1, workers=2), BOARD_PERFECT, "native"),
    "expectimax-native": (lambda: ExpectimaxBot(seconds=LONG, seed=1), BOARD_PERFECT, "native"),
    "ismcts-reference": (lambda: ISMCTSBot(seconds=LONG, seed=1), SHORT_HIDDEN, "reference"),
    "expectimax-reference": (lambda: ExpectimaxBot(seconds=LONG, seed=1), SHORT_PERFECT, "reference"),
}


@pytest.mark.parametrize("case", sorted(BOTS))
def test_stop_from_another_thread_returns_the_best_move_so_far(case):
    make, (name, options), backend = BOTS[case]
    bot = make()
    state = first_decision(name, backend, **options)
    before = state.to_json()
    timer = threading.Timer(0.3, bot.stop)
    started = time.perf_counter()
    timer.start()
    analysis = bot.analyse(state)
    elapsed = time.perf_counter() - started
    timer.join()
    assert elapsed < 5.0, f"stop() was not obeyed: the search ran {elapsed:.1f} s"
    assert analysis.action in state.legal_actions()
    assert state.to_json() == before


def test_stop_without_a_search_is_harmless():
    bot = ISMCTSBot(iterations=200, seed=3)
    state = first_decision(BOARD_HIDDEN[0], **BOARD_HIDDEN[1])
    bot.stop()  # nothing running: must not stop the next search
    analysis = bot.analyse(state)
    assert analysis.counters["iterations"] == 200


@pytest.mark.parametrize("case", ["ismcts-native", "mcts-native-2-workers", "expectimax-native",
                                  "ismcts-reference"])
def test_a_bot_shared_by_two_threads_refuses_the_second_search(case):
    make, (name, options), backend = BOTS[case]
    bot = make()
    state = first_decision(name, backend, **options)
    outcome = {}

    def search():
        try:
            outcome["action"] = bot.choose(state)
        except BaseException as exc:  # reported below
            outcome["error"] = exc

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.2)
    with pytest.raises(BotBusyError, match="another thread"):
        bot.choose(state.clone())
    bot.stop()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["action"] in state.legal_actions()
    # Once idle, the same bot searches again (and obeys a new stop).
    timer = threading.Timer(0.2, bot.stop)
    timer.start()
    assert bot.choose(state) in state.legal_actions()
    timer.join()


def test_many_threads_with_their_own_bots_agree_with_a_serial_run():
    """Bots are independent objects: N threads, N bots, the same answers as one after another."""
    state = first_decision(BOARD_PERFECT[0], **BOARD_PERFECT[1])
    serial = [MCTSBot(iterations=300, seed=s).choose(state) for s in range(6)]
    parallel = [None] * 6

    def run(i):
        parallel[i] = MCTSBot(iterations=300, seed=i).choose(state)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert parallel == serial


SIGINT_SCRIPT = textwrap.dedent("""
    import json, random, sys, time
    import aiplay
    from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot
    kind, name, options = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    game = aiplay.load(name, **options)
    if kind == "expectimax":
        bot = ExpectimaxBot(seconds=60, seed=1)
    elif kind == "mcts":
        bot = MCTSBot(seconds=60, seed=1, workers=2)
    else:
        bot = ISMCTSBot(seconds=60, seed=1, variant="mo")
    state = aiplay.skip_chance(game.new_initial_state(), random.Random(1))
    print("ready", flush=True)
    started = time.perf_counter()
    try:
        bot.analyse(state)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - started)
""")


@pytest.mark.parametrize("kind", ["ismcts", "mcts", "expectimax"])
def test_ctrl_c_interrupts_a_native_search(kind, tmp_path):
    script = tmp_path / "search.py"
    script.write_text(SIGINT_SCRIPT)
    # A child of a non-interactive shell may inherit SIGINT ignored: restore the default.
    name, options = BOARD_HIDDEN if kind == "ismcts" else BOARD_PERFECT
    proc = subprocess.Popen([sys.executable, str(script), kind, name, json.dumps(options)], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    words = out.split()
    assert words[0] == "interrupted", out
    assert float(words[1]) < 5.0
