"""What the native engine's names, views and text cost: per move, and for a protocol ``new``.

The native ``action_to_string``, ``view`` and ``str`` read the reference engine's copy of the
position. Until issue 27 that copy was re-loaded (and the whole position re-validated) on every
new position; now it is kept in step by replaying the moves on it. Measured:

* a 300-move Area 1851 game (3 players, seed 1): after each move, the name of the first legal
  action (what a GUI or the protocol does after every move), then ``view(0)`` and ``str``;
* the same, one clone of the position per call (a search's or a Match's copies);
* a protocol ``new`` with ``auto_chance`` (the deal's chance moves are named), per game.

    python benchmarks/native_names.py

Runs on any aiplay, so the same script measures before and after a change.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any, Dict, List

import aiplay
from aiplay.game import sample_chance_outcome


def area1851_moves(count: int = 300, seed: int = 1) -> List[int]:
    game = aiplay.load("area1851", backend="native", players=3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    moves = []
    while len(moves) < count and not state.is_terminal():
        action = sample_chance_outcome(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        moves.append(action)
        state.apply_action(action)
    return moves


def per_move(moves: List[int]) -> Dict[str, float]:
    """Median milliseconds per move of: the first name after the move, view(0), str."""
    game = aiplay.load("area1851", backend="native", players=3)
    state = game.new_initial_state()
    name, view, text = [], [], []
    for action in moves:
        state.apply_action(action)
        legal = state.legal_actions()
        t0 = time.perf_counter()
        state.action_to_string(legal[0])
        t1 = time.perf_counter()
        state.view(0)
        t2 = time.perf_counter()
        str(state)
        t3 = time.perf_counter()
        name.append(t1 - t0)
        view.append(t2 - t1)
        text.append(t3 - t2)
    return {"name": statistics.median(name) * 1e3, "view": statistics.median(view) * 1e3,
            "str": statistics.median(text) * 1e3, "name_max": max(name) * 1e3}


def at_the_end(moves: List[int], repeat: int = 20) -> Dict[str, float]:
    """Milliseconds of one name on a fresh clone of the 300-move position, and of one more move then a name."""
    game = aiplay.load("area1851", backend="native", players=3)
    state = game.new_initial_state()
    for action in moves:
        state.apply_action(action)
    legal = state.legal_actions()
    state.action_to_string(legal[0])  # the position's own copy, built once
    clones, stepped = [], []
    for _ in range(repeat):
        copy = state.clone()
        t0 = time.perf_counter()
        copy.action_to_string(legal[-1])
        clones.append(time.perf_counter() - t0)
        copy.apply_action(legal[0])
        t0 = time.perf_counter()
        copy.action_to_string(copy.legal_actions()[0]) if copy.legal_actions() else None
        stepped.append(time.perf_counter() - t0)
    return {"clone_name": statistics.median(clones) * 1e3, "move_then_name": statistics.median(stepped) * 1e3}


def protocol_new(name: str, options: Dict[str, Any], repeat: int = 10) -> float:
    """Median milliseconds of a protocol ``new`` with auto_chance (the deal's moves are named)."""
    from aiplay.protocol import Server
    server = Server(lambda obj: None)
    times = []
    for seed in range(repeat):
        line = json.dumps({"cmd": "new", "game": name, "seed": seed, "auto_chance": True, "options": options,
                           "viewer": "all"})  # (a later protocol asks hidden-information games for a viewer)
        t0 = time.perf_counter()
        server.handle_line(line)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main() -> None:
    moves = area1851_moves()
    print(f"aiplay {aiplay.__version__}; Area 1851, 3 players, {len(moves)} moves (seed 1), native engine")
    p = per_move(moves)
    print(f"  after each move: first name {p['name']:.3f} ms (max {p['name_max']:.1f}), view(0) {p['view']:.3f} ms, "
          f"str {p['str']:.3f} ms (medians)")
    e = at_the_end(moves)
    print(f"  at move {len(moves)}: a name on a fresh clone {e['clone_name']:.3f} ms, "
          f"one move then a name {e['move_then_name']:.3f} ms")
    for game, options in (("sunken_city", {"players": 3}), ("area51", {"players": 4}), ("area1851", {"players": 3}),
                          ("groom_lake", {"players": 5})):
        print(f"  protocol new {game:12} {protocol_new(game, options):8.2f} ms (median of 10, auto_chance)")


if __name__ == "__main__":
    main()
