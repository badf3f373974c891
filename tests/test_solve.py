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
import random
from typing import List, Optional, Tuple

import pytest

import aiplay
from aiplay.cli import main as cli_main
from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, TERMINAL, State
from aiplay.registry import game_entries, has_native
from aiplay.solve import TIE_EPS, example_positions, help_example, solve
from aiplay.testing.choose import pick_variant

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


# ---------------------------------------------------------------------------
# Whole games small enough for brute force, from the root (open hands)
# ---------------------------------------------------------------------------

ROOT_TREE_CAP = 20_000  # nodes of a whole game's tree for the brute-force comparison from its root


def _small_whole_games():
    """Every (game, option set) of the contract options whose whole tree is small, as test parameters."""
    found = []
    for entry in game_entries(include_hidden=True):
        for options in entry.contract_options:
            if tree_size(aiplay.load(entry.name, **options).new_initial_state(), ROOT_TREE_CAP) <= ROOT_TREE_CAP:
                found.append(pytest.param(entry.name, dict(options), id=f"{entry.name}{dict(options) or ''}"))
    return found


SMALL_WHOLE_GAMES = _small_whole_games()


def test_some_registered_game_is_small_enough_to_solve_whole():
    assert SMALL_WHOLE_GAMES, "no registered game has a whole tree this test can brute-force"


@pytest.mark.parametrize("name, options", SMALL_WHOLE_GAMES)
def test_a_whole_small_game_solves_to_brute_force_from_the_root_and_after_each_deal(name, options):
    """The solver on a whole game (hidden cards played open: perfect information assumed), against brute force.

    From the root (a chance node: values only) and from the first decision after each first chance outcome,
    value for value and the best move, ties to the lowest id as in :func:`plain_expectimax`.
    """
    game = aiplay.load(name, **options)
    root = game.new_initial_state()
    expected, _ = plain_expectimax(root)
    solution = solve(root)
    assert solution.exact and solution.perfect_information_assumed == (not game.perfect_information)
    if root.is_chance_node():
        assert solution.player == CHANCE and solution.best_action is None
    assert solution.values == pytest.approx(expected, abs=1e-9)
    outcomes = root.chance_outcomes() if root.is_chance_node() else [(None, 1.0)]
    for outcome, _ in outcomes:
        state = root.clone()
        if outcome is not None:
            state.apply_action(outcome)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        if state.is_terminal():
            continue
        want_values, want_action = plain_expectimax(state)
        got = solve(state)
        assert got.best_action == want_action
        assert got.values == pytest.approx(want_values, abs=1e-9)


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


def test_observer_estimate_over_determinizations():
    name, options = pick_variant(perfect_information=False, short=True, players=2, prefer="large")
    game = aiplay.load(name, **options)
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
    name, options = pick_variant(perfect_information=True, chance=True, short=True)
    state = aiplay.skip_chance(aiplay.load(name, **options).new_initial_state(), random.Random(0))
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


def _run_cli(args: List[str]) -> Tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(args)
    return code, out.getvalue()


def test_shipped_positions_exist_for_the_board_games():
    folders = {p.parent.parent.name for p in example_positions()}
    entries = [e for e in game_entries(include_hidden=True) if e.folder is not None and e.folder.name in folders]
    assert folders == {e.folder.name for e in entries}  # every positions folder is a registered game's
    # Games of both kinds ship positions: with perfect information and with hidden information.
    kinds = {aiplay.load(e.name, backend="reference").perfect_information for e in entries}
    assert kinds == {True, False}


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
    example = help_example()
    assert example is not None and example in example_positions()
    assert str(example) in text, line


def test_cli_reports_a_bad_file(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code, _ = _run_cli(["solve", str(bad)])
    assert code == 2 and "not valid JSON" in err.getvalue()


def test_a_stop_while_the_line_is_built_leaves_it_open():
    """A stop that arrives after the root is solved exactly, while the principal line is being
    built (CI found it through the protocol: a `solve` with `seconds` whose deadline fell there),
    keeps the root's exact value and leaves the rest of the line open; it never fails an assertion.
    The engine is made to answer every solve after the root's as a stopped one would."""
    name, options = SMALL_WHOLE_GAMES[0].values
    state = aiplay.load(name, **options).new_initial_state()
    while state.current_player() == CHANCE:  # to the first decision, which has a line after it
        state.apply_action(state.chance_outcomes()[0][0])
    exact = solve(state)

    def stop_after_the_root(engine):
        inner = engine.solve
        calls = []

        def solve_then_stopped(state, depth, seconds, nodes):
            calls.append(1)
            result = inner(state, depth, seconds, nodes)
            if len(calls) > 1:  # as the native and reference solvers answer a stopped search
                result = dict(result, complete=False, exact=False, action=None)
            return result
        engine.solve = solve_then_stopped

    result = solve(state, deepening=False, on_engine=stop_after_the_root)
    assert result.exact and result.values == pytest.approx(exact.values)
    assert result.best_action == exact.best_action
    assert result.pv.kind == "decision" and result.pv.next.kind == "open"
