"""The exact solver on Pig: every position against backward induction, the PV's chance outcomes, the depth cap.

Moved from ``tests/test_solve.py`` (Pig's table, options and move names).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import pytest

import aiplay
from aiplay.game import State
from aiplay.solve import example_positions, load_position, solve


def pig_table(win: int, faces: int, horizon: int) -> Dict[Tuple[int, int, int, int, bool, int], float]:
    """Two-player Pig by backward induction over the number of decisions made.

    Key: (banked0, banked1, turn_total, player, rolling, moves); value: player
    0's expected return. Decisions add one move, so the table is filled from
    ``moves = horizon`` down; a die in the air is resolved before the move
    count changes.
    """
    top = win - 1 + faces
    table: Dict[Tuple[int, int, int, int, bool, int], float] = {}

    def terminal(b0: int, b1: int, moves: int) -> Optional[float]:
        if b0 >= win:
            return 1.0
        if b1 >= win:
            return -1.0
        if moves >= horizon:
            return 0.0
        return None

    def lookup(b0: int, b1: int, tt: int, p: int, rolling: bool, moves: int) -> float:
        end = terminal(b0, b1, moves)
        return end if end is not None else table[(b0, b1, tt, p, rolling, moves)]

    states = [(b0, b1, p) for b0 in range(top + 1) for b1 in range(top + 1) for p in (0, 1)]
    for moves in range(horizon, -1, -1):
        # Decisions first: they lead to the next move count (a roll puts the die in the air).
        for b0, b1, p in states:
            mine = b0 if p == 0 else b1
            if terminal(b0, b1, moves) is not None or moves >= horizon:
                continue
            for tt in range(0, top + 1 - mine):
                nb0, nb1 = (b0 + tt, b1) if p == 0 else (b0, b1 + tt)
                options = [lookup(nb0, nb1, 0, 1 - p, False, moves + 1)]  # stop
                if mine + tt < win:
                    options.append(lookup(b0, b1, tt, p, True, moves + 1))  # roll
                table[(b0, b1, tt, p, False, moves)] = max(options) if p == 0 else min(options)
        # Then the dice of this move count: they lead to decisions of the same count.
        for b0, b1, p in states:
            mine = b0 if p == 0 else b1
            if terminal(b0, b1, moves) is not None:
                continue
            for tt in range(0, win - mine):
                value = 0.0
                for face in range(1, faces + 1):
                    if face == 1:  # a 1: the turn total is lost, the turn passes
                        value += lookup(b0, b1, 0, 1 - p, False, moves) / faces
                    else:
                        value += lookup(b0, b1, tt + face, p, False, moves) / faces
                table[(b0, b1, tt, p, True, moves)] = value
    return table


def reachable_decisions(state: State, limit: int = 100_000) -> List[State]:
    """Every decision state reachable from ``state`` (breadth first, by JSON)."""
    seen = {state.to_json()}
    queue = [state]
    found = []
    while queue:
        s = queue.pop()
        if s.current_player() >= 0:
            found.append(s)
        for action in s.legal_actions():
            child = s.clone()
            child.apply_action(action)
            key = child.to_json()
            if key not in seen:
                seen.add(key)
                queue.append(child)
                assert len(seen) < limit
    return found


def test_pig_every_position_matches_backward_induction():
    win, faces, horizon = 6, 3, 10
    game = aiplay.load("pig", winscore=win, diceoutcomes=faces, horizon=horizon)
    table = pig_table(win, faces, horizon)
    positions = reachable_decisions(game.new_initial_state())
    assert len(positions) > 300
    for state in positions:
        d = state.to_dict()
        key = (d["scores"][0], d["scores"][1], d["turn_total"], d["turn_player"], d["rolling"], d["total_moves"])
        solution = solve(state, pv_nodes=1, tt_bits=12)
        assert solution.exact
        assert solution.values[0] == pytest.approx(table[key], abs=1e-9), d
        assert solution.values[1] == pytest.approx(-table[key], abs=1e-9), d


def test_pv_names_every_chance_outcome_down_to_terminal_states():
    state, extra = load_position(next(p for p in example_positions() if p.parent.parent.name == "pig"))
    solution = solve(state, pv_nodes=5000)
    assert solution.exact

    def walk(node, probability_sum_ok=True):
        if node.kind == "chance":
            assert sum(o.probability for o in node.outcomes) == pytest.approx(1.0)
            assert [o.name for o in node.outcomes] == [state.action_to_string(o.action) for o in node.outcomes] \
                or all(o.name for o in node.outcomes)
            # The chance node's value is the expectation of its outcomes'.
            for i in range(len(node.values)):
                assert node.values[i] == pytest.approx(
                    sum(o.probability * o.next.values[i] for o in node.outcomes if o.next.kind != "open"), abs=1e-9) \
                    or any(o.next.kind == "open" for o in node.outcomes)
            return sum(walk(o.next) for o in node.outcomes)
        if node.kind == "decision":
            assert node.name and node.next is not None
            return walk(node.next)
        return 1 if node.kind == "terminal" else 0

    terminals = walk(solution.pv)
    assert terminals > 10
    text = solution.pv_text(3)
    assert "chance" in text and "player 0: roll" in text


def test_depth_cap_is_reported_not_silent():
    game = aiplay.load("pig", winscore=6, diceoutcomes=3, horizon=40)
    state = game.new_initial_state()
    capped = solve(state, max_plies=8, pv_nodes=1)
    assert not capped.exact and any("max_plies" in n for n in capped.notes)
    full = solve(state, pv_nodes=1)
    assert full.exact and not full.notes
