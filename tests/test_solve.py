"""The endgame solver (aiplay.solve): exact values against independent computations.

* Pig: every reachable decision position of a small game against a backward-
  induction table written here (no search, no State API);
* Kuhn and Leduc poker, open hands: the whole game's value against brute-force
  enumeration of every deal and betting line;
* every registered game: random late positions against a plain full-width
  expectimax written here (no pruning, no table), on both engines, with the
  same best move and principal variation from both;
* ``aiplay solve`` on every shipped example position prints its stored value.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

import pytest

import aiplay
from aiplay.cli import main as cli_main
from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, TERMINAL, State
from aiplay.registry import game_entries, has_native
from aiplay.solve import TIE_EPS, example_positions, load_position, solve

Values = Tuple[float, ...]


# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------

def plain_expectimax(state: State) -> Tuple[Values, Optional[int]]:
    """Full-width max^n expectimax: no pruning, no table; ties to the lowest action id."""
    player = state.current_player()
    if player == TERMINAL:
        return tuple(state.returns()), None
    if player == CHANCE:
        acc = [0.0] * state.game.num_players
        for outcome, prob in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            values, _ = plain_expectimax(child)
            for i, v in enumerate(values):
                acc[i] += prob * v
        return tuple(acc), None
    best: Optional[int] = None
    best_values: Values = ()
    for action in state.legal_actions():  # increasing ids
        child = state.clone()
        child.apply_action(action)
        values, _ = plain_expectimax(child)
        if best is None or values[player] > best_values[player] + TIE_EPS:
            best, best_values = action, values
    return best_values, best


def tree_size(state: State, cap: int) -> int:
    """Nodes of the full tree below ``state``, counting stops past ``cap``."""
    count = 1
    stack = [state]
    while stack:
        s = stack.pop()
        for action in s.legal_actions():
            count += 1
            if count > cap:
                return count
            child = s.clone()
            child.apply_action(action)
            stack.append(child)
    return count


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


# ---------------------------------------------------------------------------
# Pig against the table
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Poker, open hands, against brute force
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_open_hand_poker_matches_brute_force(name):
    game = aiplay.load(name)
    root = game.new_initial_state()
    expected, _ = plain_expectimax(root)
    solution = solve(root)
    assert solution.exact and solution.perfect_information_assumed
    assert solution.player == CHANCE and solution.best_action is None
    for got, want in zip(solution.values, expected):
        assert got == pytest.approx(want, abs=1e-9)
    # And after each deal (a decision root), action by action.
    deals = 0
    for outcome, _ in root.chance_outcomes():
        state = root.clone()
        state.apply_action(outcome)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        want_values, want_action = plain_expectimax(state)
        got = solve(state)
        assert got.best_action == want_action
        assert got.values == pytest.approx(want_values, abs=1e-9)
        deals += 1
    assert deals >= 3


# ---------------------------------------------------------------------------
# Every registered game: random late positions
# ---------------------------------------------------------------------------

TREE_CAP = 2500  # nodes of the full tree of a test position (the plain search visits them all)


def late_positions(game: aiplay.Game, seed: int, count: int) -> List[State]:
    """Positions from the end of seeded random games whose full tree is small but not trivial."""
    rng = random.Random(seed)
    found: List[State] = []
    for _ in range(count * 3):
        if len(found) >= count:
            break
        state = game.new_initial_state()
        history = [state.clone()]
        while not state.is_terminal() and len(history) < 5000:
            legal = state.legal_actions()
            if state.is_chance_node():
                action = aiplay.sample_chance_outcome(state, rng)
            else:
                action = rng.choice(legal)
            state.apply_action(action)
            history.append(state.clone())
        best = None
        for back in range(2, min(len(history), 60)):
            candidate = history[-back]
            if tree_size(candidate, TREE_CAP) <= TREE_CAP:
                best = candidate
            elif best is not None:
                break  # the trees only grow from here back
        if best is not None and not best.is_terminal():
            found.append(best)
    return found


def _game_with_late_positions(entry, seed: int, count: int):
    """The game (first contract option set that has some) and its late test positions."""
    if not has_native(entry.name):
        count = 1  # the reference engine walks and expands slowly: one position keeps the file quick
    for options in entry.contract_options:
        game = aiplay.load(entry.name, **options)
        positions = late_positions(game, seed, count)
        if positions:
            return game, positions
    raise AssertionError(f"no small late position found for {entry.name} in any contract option set")


def _entries():
    return [pytest.param(e, id=e.name) for e in game_entries(include_hidden=True)]


def _same_pv(a, b) -> None:
    """Two PV trees: the same moves and outcomes, values within 1e-9."""
    assert a.kind == b.kind and a.player == b.player and a.action == b.action and a.name == b.name
    assert a.values == pytest.approx(b.values, abs=1e-9)
    assert len(a.outcomes) == len(b.outcomes)
    for x, y in zip(a.outcomes, b.outcomes):
        assert (x.action, x.name) == (y.action, y.name) and x.probability == pytest.approx(y.probability)
        _same_pv(x.next, y.next)
    if a.next is not None or b.next is not None:
        _same_pv(a.next, b.next)


@pytest.mark.parametrize("entry", _entries())
def test_every_game_solver_equals_plain_expectimax(entry):
    game, positions = _game_with_late_positions(entry, seed=14, count=3)
    reference = aiplay.load(entry.name, backend="reference", **game.options)
    lo, hi = game.min_utility, game.max_utility
    for state in positions:
        want_values, want_action = plain_expectimax(state)
        got = solve(state, pv_nodes=200)
        assert got.exact and got.bounds is None
        assert got.values == pytest.approx(want_values, abs=1e-9)
        assert all(lo <= v <= hi for v in got.values)
        assert got.best_action == want_action
        assert got.perfect_information_assumed == (not game.perfect_information)
        ref_state = reference.state_from_json(state.to_json())
        ref = solve(ref_state, pv_nodes=200)
        assert ref.engine == "reference" and ref.exact
        assert ref.values == pytest.approx(got.values, abs=1e-9)
        assert ref.best_action == got.best_action
        _same_pv(got.pv, ref.pv)
        if has_native(entry.name):
            assert got.engine == "native"


@pytest.mark.parametrize("entry", _entries())
def test_every_game_pruning_never_changes_the_value(entry):
    # Without a kernel the reference engine runs (it never prunes): nothing to compare there.
    if not has_native(entry.name):
        return
    game, positions = _game_with_late_positions(entry, seed=15, count=2)
    for state in positions:
        plain = solve(state, pruning="none", ordering="none", pv_nodes=1)
        for pruning in ("star1", "star2"):
            for ordering in ("table", "heuristic"):
                got = solve(state, pruning=pruning, ordering=ordering, pv_nodes=1)
                assert got.values == pytest.approx(plain.values, abs=1e-9)
                assert got.best_action == plain.best_action


# ---------------------------------------------------------------------------
# The principal variation, budgets, hidden information, errors
# ---------------------------------------------------------------------------

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


def test_budget_gives_an_estimate_with_bounds_and_deepening():
    data = json.loads(open(_two_turns_file()).read())
    # The set's hardest position (seed 133: about 21 M nodes exact), far beyond this budget.
    doc = next(p for p in data["positions"] if p["seed"] == 133)["position"]
    state = aiplay.load("sunken_city", **doc["options"]).state_from_json(json.dumps(doc))
    solution = solve(state, nodes=30_000)
    assert not solution.exact
    assert solution.bounds == [(0.0, 1.0)] * 3
    assert solution.completed_depth is not None and solution.completed_depth >= 1
    assert solution.best_action in state.legal_actions()
    assert all(0.0 <= v <= 1.0 for v in solution.values)
    assert solution.nodes <= 30_000 + 1


def test_depth_cap_is_reported_not_silent():
    game = aiplay.load("pig", winscore=6, diceoutcomes=3, horizon=40)
    state = game.new_initial_state()
    capped = solve(state, max_plies=8, pv_nodes=1)
    assert not capped.exact and any("max_plies" in n for n in capped.notes)
    full = solve(state, pv_nodes=1)
    assert full.exact and not full.notes


def test_observer_estimate_over_determinizations():
    game = aiplay.load("leduc_poker")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    open_hands = solve(state)
    assert open_hands.perfect_information_assumed and open_hands.exact
    estimate = solve(state, observer=0, seed=3, determinizations=12)
    assert not estimate.exact and estimate.observer == 0 and not estimate.perfect_information_assumed
    assert estimate.determinizations == 12 and estimate.standard_error is not None
    assert all(e >= 0 for e in estimate.standard_error)
    assert estimate.best_action in state.legal_actions()
    again = solve(state, observer=0, seed=3, determinizations=12)
    assert again.values == estimate.values  # seeded


def test_bad_options_raise():
    state = aiplay.load("pig", winscore=6).new_initial_state()
    for kwargs in ({"seconds": -1}, {"seconds": True}, {"nodes": 0}, {"observer": 5}, {"pruning": "alpha"},
                   {"backend": "fast"}, {"determinizations": 1}):
        with pytest.raises(aiplay.AiplayError):
            solve(state, **kwargs)
    with pytest.raises(InvalidOptionError):
        solve("not a state")  # type: ignore[arg-type]


def test_exported_from_the_package():
    assert aiplay.solve is solve and aiplay.Solution.__name__ == "Solution"


# ---------------------------------------------------------------------------
# The command line and the shipped positions
# ---------------------------------------------------------------------------

def _two_turns_file():
    from pathlib import Path
    return Path(__file__).resolve().parent.parent / "benchmarks" / "solver_positions" / "sunken_city_two_turns_3p.json"


def _run_cli(args: List[str]) -> Tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(args)
    return code, out.getvalue()


def test_shipped_positions_exist_for_the_board_games():
    games = {p.parent.parent.name for p in example_positions()}
    assert {"sunken_city", "area51", "pig", "kuhn_poker", "leduc_poker"} <= games


def _position_param(path):
    # A position that shows the solver at work (0.1 s to 10 s, "slow": true) is marked slow,
    # so that a short CI run can leave it out with -m "not slow".
    marks = [pytest.mark.slow] if json.loads(path.read_text()).get("slow") else []
    return pytest.param(path, id=f"{path.parent.parent.name}/{path.name}", marks=marks)


@pytest.mark.parametrize("path", [_position_param(p) for p in example_positions()])
def test_cli_solves_each_shipped_position_to_its_stored_value(path):
    stored = json.loads(path.read_text())
    code, text = _run_cli(["solve", str(path), "--json"])
    assert code == 0
    result = json.loads(text)
    assert result["exact"] is True
    assert result["values"] == pytest.approx(stored["value"], abs=1e-9)
    assert result["best_action_name"] == stored["best_action"]
    code, text = _run_cli(["solve", str(path), "--depth", "2"])
    assert code == 0
    shown = "[" + ", ".join(f"{v:.6g}" for v in stored["value"]) + "]"
    assert f"value (exact): {shown}" in text
    assert f"best move: {stored['best_action']}" in text
    assert "principal variation:" in text


def test_cli_help_shows_a_shipped_example(capsys):
    with pytest.raises(SystemExit):
        cli_main(["solve", "--help"])
    text = capsys.readouterr().out
    line = next(l for l in text.splitlines() if l.strip().startswith("aiplay solve /") or "positions" in l)
    example = next(p for p in example_positions() if p.name == "last_turn_3p.json")
    assert str(example) in text, line


def test_cli_reports_a_bad_file(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code, _ = _run_cli(["solve", str(bad)])
    assert code == 2 and "not valid JSON" in err.getvalue()
