"""The endgame solver's figures (issue 14): Sunken City solve times, pruning savings, nodes/s on Pig.

Prints three tables:

1. **Sunken City, two turns left** (3 players; the fixed set of
   ``benchmarks/solver_positions/sunken_city_two_turns_3p.json``, 24 positions):
   exact-solve time per position under a per-position cap, median and max;
   a position that is not solved within the cap counts as "> cap". The same
   positions **one turn left** (player 1's turn played by first legal moves,
   as in the shipped examples) are solved too, for scale.
2. **Pruning**: nodes of the exact solve with Star2 + shallow pruning + table
   (table ordering), with and without the kernel's per-position bounds (Sunken
   City has them once the end is triggered; the default uses them), against
   plain expectimax with the table (no pruning, no bounds), on every position
   that both finish.
3. **Pig**: nodes/s of the solver (exact solve of ``games/pig/positions/race_to_20.json``,
   and a depth-limited pass) beside OpenSpiel's ``expectiminimax`` at the same
   depth with the same value function (values compared).

Usage::

    python benchmarks/solver.py            # the RESULTS.md run (about 15 minutes on 2 shared vCPUs)
    python benchmarks/solver.py --quick    # CI-sized: 4 positions, small caps, about a minute
    python benchmarks/solver.py --cap 60   # seconds per two-turns-left position
    python benchmarks/solver.py --only pig # one table

OpenSpiel is optional (the ``compare`` extra); without it table 3 shows ours only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import aiplay
from aiplay._ext.expectimax import Solver as NativeSolver
from aiplay.solve import example_positions, load_position, solve

HERE = Path(__file__).resolve().parent
TWO_TURNS = HERE / "solver_positions" / "sunken_city_two_turns_3p.json"

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax
except ImportError:  # pragma: no cover - table 3 then shows ours only
    pyspiel = None
    os_minimax = None


def two_turn_positions(count: Optional[int] = None) -> List[Tuple[int, Any]]:
    """(seed, state) of the fixed two-turns-left set, on the native engine."""
    data = json.loads(TWO_TURNS.read_text())
    out = []
    for item in data["positions"][:count]:
        doc = item["position"]
        game = aiplay.load(doc["game"], **doc["options"])
        out.append((item["seed"], game.state_from_json(json.dumps(doc))))
    return out


def one_turn_left(state: Any) -> Any:
    """Player 1's turn played by first legal moves (chance: the likeliest outcome): one turn left."""
    s = state.clone()
    while s.to_dict()["turn"] == 1 and not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(max(s.chance_outcomes(), key=lambda o: o[1])[0])
        else:
            s.apply_action(s.legal_actions()[0])
    return s


def timed_solve(state: Any, cap: float, **options: Any) -> Dict[str, Any]:
    started = time.perf_counter()
    # One unlimited pass under the cap: the time of an exact solve (no depth-limited passes first).
    solution = solve(state, seconds=cap, pv_nodes=1, deepening=False, **options)
    return {"seconds": time.perf_counter() - started, "exact": solution.exact, "nodes": solution.nodes,
            "values": solution.values, "tt_hits": solution.tt_hits}


def fmt_times(results: List[Dict[str, Any]], cap: float) -> str:
    exact = [r for r in results if r["exact"]]
    times = sorted(r["seconds"] if r["exact"] else float("inf") for r in results)
    median = statistics.median(times)
    med = f"{median:.2f} s" if median != float("inf") else f"> {cap:g} s (cap)"
    worst = f"{times[-1]:.2f} s" if times[-1] != float("inf") else f"> {cap:g} s (cap)"
    return f"{len(exact)}/{len(results)} solved exactly; median {med}; max {worst}"


def sunken_city(count: Optional[int], cap: float, one_cap: float) -> Dict[str, Any]:
    positions = two_turn_positions(count)
    print(f"\n== Sunken City, 3 players: {len(positions)} positions ==", flush=True)
    two: List[Dict[str, Any]] = []
    for seed, state in positions:
        r = timed_solve(state, cap)
        two.append(r)
        print(f"  two turns left, seed {seed}: {r['seconds']:.2f} s, exact {r['exact']}, nodes {r['nodes']:,}",
              flush=True)
    print("two turns left: " + fmt_times(two, cap), flush=True)
    one: List[Dict[str, Any]] = []
    pruning_rows: List[Tuple[int, int, int, int]] = []
    for (seed, state), r2 in zip(positions, two):
        last = one_turn_left(state)
        if last.is_terminal():
            continue
        star2 = timed_solve(last, one_cap)
        one.append(star2)
        star2_nb = timed_solve(last, one_cap, bounds=False)
        plain = timed_solve(last, one_cap, pruning="none", ordering="table", bounds=False)
        line = (f"  one turn left, seed {seed}: star2+bounds {star2['seconds']:.2f} s / {star2['nodes']:,} nodes; "
                f"star2 {star2_nb['nodes']:,}; plain+table {plain['nodes']:,} ({plain['seconds']:.2f} s)")
        print(line, flush=True)
        if star2["exact"] and plain["exact"] and star2_nb["exact"]:
            assert max(abs(a - b) for a, b in zip(star2["values"], plain["values"])) < 1e-9
            assert max(abs(a - b) for a, b in zip(star2_nb["values"], plain["values"])) < 1e-9
            pruning_rows.append((seed, star2["nodes"], star2_nb["nodes"], plain["nodes"]))
        if r2["exact"]:  # a two-turn solve that finished: compare its pruning too
            plain2 = timed_solve(state, cap, pruning="none", ordering="table", bounds=False)
            if plain2["exact"]:
                star2_nb2 = timed_solve(state, cap, bounds=False)
                assert max(abs(a - b) for a, b in zip(r2["values"], plain2["values"])) < 1e-9
                pruning_rows.append((seed, r2["nodes"], star2_nb2["nodes"] if star2_nb2["exact"] else -1,
                                     plain2["nodes"]))
                print(f"  two turns left, seed {seed}: plain+table {plain2['nodes']:,} nodes "
                      f"({plain2['seconds']:.2f} s) vs star2+bounds {r2['nodes']:,}, star2 {star2_nb2['nodes']:,}",
                      flush=True)
    print("one turn left: " + fmt_times(one, one_cap), flush=True)
    if pruning_rows:
        s2 = sum(r[1] for r in pruning_rows)
        pl = sum(r[3] for r in pruning_rows)
        ratios = [r[1] / r[3] for r in pruning_rows]
        print(f"pruning: Star2+table+bounds {s2:,} nodes vs plain+table {pl:,} = {100 * s2 / pl:.0f}% in total "
              f"(per position: median {100 * statistics.median(ratios):.0f}%, min {100 * min(ratios):.0f}%, "
              f"max {100 * max(ratios):.0f}%); {len(pruning_rows)} solves", flush=True)
        rows_nb = [r for r in pruning_rows if r[2] >= 0]
        if rows_nb:
            s2n = sum(r[2] for r in rows_nb)
            pln = sum(r[3] for r in rows_nb)
            ratios_nb = [r[2] / r[3] for r in rows_nb]
            print(f"pruning: Star2+table without bounds {s2n:,} nodes vs plain+table {pln:,} = "
                  f"{100 * s2n / pln:.0f}% in total (per position: median {100 * statistics.median(ratios_nb):.0f}%); "
                  f"{len(rows_nb)} solves", flush=True)
    return {"two": two, "one": one, "pruning": pruning_rows}


def other_games() -> List[Tuple[str, int, int]]:
    """(position, Star2+table nodes, plain+table nodes) of exact solves beyond Sunken City."""
    rows = []
    cases = [("leduc_poker: the whole game, open hands", aiplay.load("leduc_poker").new_initial_state())]
    for path in example_positions():
        if path.parent.parent.name in ("area51", "pig", "leduc_poker"):
            cases.append((f"{path.parent.parent.name}/{path.name}", load_position(path)[0]))
    print("\n== Pruning on the other games (exact solves) ==", flush=True)
    for label, state in cases:
        star2 = solve(state, pv_nodes=1)
        plain = solve(state, pv_nodes=1, pruning="none", ordering="table")
        heur = solve(state, pv_nodes=1, ordering="heuristic")
        assert star2.exact and plain.exact and heur.exact
        assert max(abs(a - b) for a, b in zip(star2.values, plain.values)) < 1e-9
        rows.append((label, star2.nodes, plain.nodes))
        print(f"  {label}: Star2+table {star2.nodes:,} nodes, plain+table {plain.nodes:,} "
              f"({100 * star2.nodes / plain.nodes:.0f}%); Star2 with heuristic ordering {heur.nodes:,}", flush=True)
    return rows


def pig_value_fn(winscore: int):
    """aiplay's pig heuristic (games/pig/rules.py) on a pyspiel state, for one player."""
    def value(os_state) -> float:
        text = str(os_state)  # "Scores: a b, Turn total: t\nCurrent player: p ..."
        head, _, tail = text.partition("\n")
        scores_part, _, total_part = head.partition(", Turn total: ")
        scores = [int(x) for x in scores_part.replace("Scores: ", "").split()]
        turn_player = int(tail.replace("Current player: ", "").split()[0])
        points = list(scores)
        points[turn_player] += int(total_part)
        n = len(points)
        return max(-1.0, min(1.0, (points[value.player] * n - sum(points)) / ((n - 1) * winscore)))
    value.player = 0
    return value


def pig(depth: int) -> None:
    path = next(p for p in example_positions() if p.parent.parent.name == "pig")
    state, extra = load_position(path)
    print(f"\n== Pig ({path.name}: winscore {state.game.options['winscore']}) ==", flush=True)
    exact = solve(state, pv_nodes=1)
    print(f"exact solve: value {exact.values[0]:.12f} (stored {extra['value'][0]:.12f}), {exact.nodes:,} nodes in "
          f"{exact.seconds:.3f} s = {exact.nodes / exact.seconds:,.0f} nodes/s (Star2, table)",
          flush=True)
    plain_exact = solve(state, pv_nodes=1, pruning="none", ordering="none")
    print(f"exact solve, plain+table: {plain_exact.nodes:,} nodes in {plain_exact.seconds:.3f} s = "
          f"{plain_exact.nodes / plain_exact.seconds:,.0f} nodes/s", flush=True)
    engine = NativeSolver(state.kernel, True, "none", "none", 20, 4096)
    started = time.perf_counter()
    r = engine.solve(state, depth)
    ours_s = time.perf_counter() - started
    print(f"depth {depth}, plain+table (heuristic leaves): value {r['values'][0]:.12f}, {r['nodes']:,} nodes, "
          f"{r['nodes'] / ours_s:,.0f} nodes/s", flush=True)
    if pyspiel is None:
        print("OpenSpiel not installed: no comparison", flush=True)
        return
    data = state.to_dict()
    os_game = pyspiel.load_game("pig", {"winscore": state.game.options["winscore"]})
    os_state = os_game.new_initial_state()
    # Replay the scores: OpenSpiel has no set-state; reach the same scores and turn total by play.
    os_state = _pig_reach(os_game, data)
    value_fn = pig_value_fn(state.game.options["winscore"])
    value_fn.player = data["turn_player"]
    calls = [0]
    original = os_minimax.expectiminimax

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    os_minimax.expectiminimax = counting
    try:
        started = time.perf_counter()
        their_value, their_action = counting(os_state, depth, value_fn, value_fn.player)
        their_s = time.perf_counter() - started
    finally:
        os_minimax.expectiminimax = original
    print(f"OpenSpiel expectiminimax depth {depth}: value {their_value:.12f} (action {their_action}), "
          f"{calls[0]:,} nodes, {calls[0] / their_s:,.0f} nodes/s; values equal: "
          f"{abs(their_value - r['values'][value_fn.player]) < 1e-9}", flush=True)
    exact_rate = plain_exact.nodes / plain_exact.seconds
    print(f"nodes/s, our exact solve (plain+table) / OpenSpiel expectiminimax: {exact_rate:,.0f} / "
          f"{calls[0] / their_s:,.0f} = x{exact_rate / (calls[0] / their_s):.1f} (our depth-{depth} pass is too "
          f"short to time: {r['nodes']:,} nodes, most of its time is first touches of the table)", flush=True)


def _pig_reach(os_game: Any, data: Dict[str, Any]) -> Any:
    """An OpenSpiel Pig state with the position's scores, turn total and player (moves may differ)."""
    s = os_game.new_initial_state()
    target = data["scores"]
    # Player 0 and 1 bank their scores with rolls of 2..6 (chance outcome k = face k+1), then the turn total.
    for player in (0, 1):
        left = target[player]
        while left > 0:
            face = min(6, left) if left != 1 else None
            if face is None:  # 1 point cannot be rolled: bank 3 and 4 is not possible either; use 2 then adjust
                raise ValueError("unreachable score 1")
            s.apply_action(0)          # roll
            s.apply_action(face - 1)   # the face
            left -= face
        s.apply_action(1)              # stop: bank
    left = data["turn_total"]
    while left > 0:
        face = min(6, left)
        s.apply_action(0)
        s.apply_action(face - 1)
        left -= face
    assert str(s).startswith(f"Scores: {target[0]} {target[1]}, Turn total: {data['turn_total']}"), str(s)
    return s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="CI-sized run")
    parser.add_argument("--cap", type=float, help="seconds per two-turns-left position (default 20, quick 2)")
    parser.add_argument("--positions", type=int, help="how many positions of the set (default all, quick 4)")
    parser.add_argument("--depth", type=int, default=10, help="depth of the Pig comparison (default 10)")
    parser.add_argument("--only", choices=["sunken_city", "other", "pig"], help="run one table only")
    args = parser.parse_args()
    cap = args.cap if args.cap is not None else (2.0 if args.quick else 20.0)
    count = args.positions if args.positions is not None else (4 if args.quick else None)
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    started = time.perf_counter()
    if args.only in (None, "sunken_city"):
        sunken_city(count, cap, 10.0 if args.quick else 30.0)
    if args.only in (None, "other"):
        other_games()
    if args.only in (None, "pig"):
        pig(6 if args.quick else args.depth)
    print(f"\ntotal {time.perf_counter() - started:.0f} s; load average now {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
