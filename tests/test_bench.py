"""aiplay bench (issue 16): the speed table as text and as data, and the benchmark script that calls it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import aiplay
from aiplay import bench
from aiplay.cli import main as cli_main
from aiplay.errors import InvalidOptionError
from aiplay.registry import game_entry
from aiplay.testing.choose import pick_game

ROOT = Path(__file__).resolve().parent.parent
#: The games of the quick table, chosen by property: a short perfect-information game, a short hidden-information
#: game (no MCTS row), and a perfect-information board game whose kernel plays its policy (policy playouts, presets).
PERFECT = pick_game(short=True, perfect_information=True)
HIDDEN = pick_game(short=True, perfect_information=False)
BOARD = pick_game(board=True, perfect_information=True, kernel_policy=True)
GAMES = [PERFECT, HIDDEN, BOARD]


@pytest.fixture(scope="module")
def quick():
    return bench.measure(quick=True, games=GAMES, openspiel=False)


def test_measure_gives_every_figure_of_the_table(quick):
    assert [g["game"] for g in quick["games"]] == GAMES
    assert quick["machine"]["cpus"] >= 1 and quick["openspiel"] is None and quick["quick"] is True
    for g in quick["games"]:
        assert g["native"]
        assert g["native_playouts_per_s"] > 0 and g["reference_playouts_per_s"] > 0
        assert g["playout_speedup"] == pytest.approx(g["native_playouts_per_s"] / g["reference_playouts_per_s"])
        assert g["clone_ns"]["native"] > 0 and g["clone_ns"]["reference"] > 0
        whats = [s["what"] for s in g["search_at_first_decision"]]
        assert whats[0] == "ISMCTS, random rollouts"
        assert any(w.startswith("expectimax, ") for w in whats)
        assert ("MCTS, random rollouts" in whats) == (g["game"] != HIDDEN)  # MCTS: perfect information
        for s in g["search_at_first_decision"]:
            assert s["count"] > 0 and s["rate"] == pytest.approx(s["count"] / s["seconds"])
    board = quick["games"][2]
    assert board["options"] == game_entry(BOARD).benchmark  # the board game's benchmark= options
    assert board["policy"]["playouts_per_s"] > 0 and board["policy"]["moves_policy"] > 0
    presets = dict(game_entry(BOARD).reference.bot_presets["mcts"])
    assert f"MCTS, presets {presets}" in [s["what"] for s in board["search_at_first_decision"]]


def test_the_text_table_names_each_figure(quick):
    text = bench.format_table(quick)
    assert text.startswith("aiplay bench --quick: Python")
    for needle in (PERFECT, "random playouts/s: native", "clone(): native", "ISMCTS, random rollouts:",
                   "MCTS, random rollouts:", "nodes/s", "policy playouts/s native",
                   "OpenSpiel comparison: skipped (--no-openspiel)"):
        assert needle in text
    assert "not installed" not in text  # skipped on request, whether or not pyspiel is there
    missing = bench.format_table({**quick, "openspiel_skipped": False, "openspiel": None})
    assert "pyspiel is not installed" in missing


def test_every_search_figure_is_timed_long_enough(quick):
    least = bench.MIN_FIGURE_SECONDS[0]
    for g in quick["games"]:
        for s in g["search_at_first_decision"]:
            if not s["what"].startswith("expectimax, ") or "presets" in s["what"]:
                # the fixed-size searches are repeated until their time adds up (a time-budgeted one is not)
                assert s["seconds"] >= least, s


def test_openspiel_comparison_runs_when_pyspiel_is_installed():
    rows = bench.measure_openspiel(quick=True)  # the compare extra is part of the test install
    # Every game with an OpenSpiel twin: ISMCTS rows for hidden information, then MCTS rows, each in name order.
    # Every game with an OpenSpiel twin that OpenSpiel's own searches can play.
    pyspiel = pytest.importorskip("pyspiel")
    twins = [(n, aiplay.load(n).perfect_information) for n in aiplay.games_available(True)
             if bench.openspiel_twin(n) and bench.openspiel_can_search(n, pyspiel)]
    assert any(perfect for _, perfect in twins) and not all(perfect for _, perfect in twins)
    assert [r["what"] for r in rows] == ([f"ISMCTS simulations/s, {n}" for n, perfect in twins if not perfect]
                                         + [f"MCTS iterations/s, {n}" for n, perfect in twins if perfect])
    for r in rows:
        assert r["aiplay"] > 0 and r["openspiel"] > 0 and r["ratio"] == pytest.approx(r["aiplay"] / r["openspiel"])
    text = bench.format_table({"machine": {"python": "3", "processor": "x", "cpus": 1}, "games": [],
                               "openspiel": rows})
    assert "OpenSpiel comparison (same states" in text and f"{HIDDEN} (200 per move, 20 states)" in text


def test_cli_bench_json_and_unknown_games(capsys):
    assert cli_main(["bench", "--quick", "--json", "--games", HIDDEN, "--no-openspiel"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["game"] for g in data["games"]] == [HIDDEN] and data["openspiel"] is None
    assert cli_main(["bench", "--quick", "--games", "chess"]) == 2
    assert "unknown game(s) ['chess']" in capsys.readouterr().err
    with pytest.raises(InvalidOptionError):
        bench.measure(games=["chess"])


def test_benchmark_script_is_a_thin_caller_of_aiplay_bench():
    script = ROOT / "benchmarks" / "board_games.py"
    source = script.read_text()
    assert "from aiplay.cli import bench" in source and "timeit" not in source and "perf_counter" not in source
    result = subprocess.run([sys.executable, str(script), "--quick", "--games", HIDDEN, "--no-openspiel"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert HIDDEN in result.stdout and "random playouts/s: native" in result.stdout
