"""Per-call bot control for frontends: a budget for one move, stop(), and named principal variations."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import make_bot
from aiplay.search.base import Budget, name_line
from aiplay.testing.choose import pick_variant

#: A long game with perfect information for three seats (a solve of its start is not exact within seconds),
#: and one for two seats.
LONG3, LONG3_OPTIONS = pick_variant(perfect_information=True, short=False, min_players=3)
LONG2, LONG2_OPTIONS = pick_variant(perfect_information=True, short=False, players=2)


def _decision_state(name, seed=1, **options):
    state = aiplay.load(name, **options).new_initial_state()
    return aiplay.skip_chance(state, random.Random(seed))


def _perfect_and_hidden():
    games = [aiplay.load(n, **(aiplay.registry.game_entry(n).contract_options[0]))
             for n in aiplay.games_available()]
    perfect = next(g for g in games if g.perfect_information)
    hidden = next(g for g in games if not g.perfect_information)
    return perfect, hidden


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_per_call_iterations_override_the_budget_for_one_call_only(kind):
    perfect, hidden = _perfect_and_hidden()
    game = perfect if kind == "mcts" else hidden
    state = aiplay.skip_chance(game.new_initial_state(), random.Random(2))
    bot = make_bot(kind, iterations=400, seed=3)
    assert bot.analyse(state, iterations=25).counters["iterations"] == 25
    assert bot.analyse(state).counters["iterations"] == 400  # the bot's own budget again
    assert bot.budget == Budget(iterations=400)
    assert bot.choose(state, iterations=10) in state.legal_actions()


def test_per_call_seconds_bound_the_search_time():
    perfect, _ = _perfect_and_hidden()
    state = aiplay.skip_chance(perfect.new_initial_state(), random.Random(4))
    bot = make_bot("mcts", iterations=10 ** 9, seed=1)
    started = time.perf_counter()
    analysis = bot.analyse(state, seconds=0.2)
    elapsed = time.perf_counter() - started
    assert 0.15 <= analysis.counters["seconds"] and elapsed < 2.0
    expectimax = make_bot("expectimax", seed=1)
    started = time.perf_counter()
    expectimax.choose(state, seconds=0.2)
    assert time.perf_counter() - started < 3.0


def test_bad_per_call_budgets_are_refused_and_change_nothing():
    perfect, _ = _perfect_and_hidden()
    state = aiplay.skip_chance(perfect.new_initial_state(), random.Random(4))
    bot = make_bot("mcts", iterations=50, seed=1)
    for kwargs in ({"iterations": 0}, {"seconds": -1}, {"nodes": 1.5}, {"seconds": "1"}):
        with pytest.raises(InvalidOptionError):
            bot.choose(state, **kwargs)
    with pytest.raises(InvalidOptionError, match="iterations"):
        make_bot("expectimax", depth=2).choose(state, iterations=10)
    assert bot.budget == Budget(iterations=50)


def test_stop_ends_a_long_search_quickly():
    perfect, _ = _perfect_and_hidden()
    state = aiplay.skip_chance(perfect.new_initial_state(), random.Random(5))
    bot = make_bot("mcts", seed=1)
    result = {}
    thread = threading.Thread(target=lambda: result.update(a=bot.analyse(state, seconds=60)))
    thread.start()
    time.sleep(0.3)
    asked = time.perf_counter()
    bot.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert time.perf_counter() - asked < 0.5
    assert result["a"].action in state.legal_actions()


@pytest.mark.parametrize("kind", ["random", "heuristic", "mcts", "ismcts", "expectimax"])
def test_principal_variations_carry_move_names(kind):
    for name in aiplay.games_available():
        game = aiplay.load(name, **aiplay.registry.game_entry(name).contract_options[0])
        if kind == "heuristic" and game.heuristic_policy is None:
            continue
        options = {"iterations": 60} if kind in ("mcts", "ismcts") else {}
        if kind == "expectimax":
            options = {"depth": 2, "nodes": 5000}
        if kind in ("mcts", "expectimax") and not game.perfect_information:
            options["allow_hidden_information"] = True
        state = aiplay.skip_chance(game.new_initial_state(), random.Random(6))
        analysis = make_bot(kind, seed=2, **options).analyse(state)
        names = analysis.principal_variation_names
        assert len(names) == len(analysis.principal_variation) >= 1, (name, kind)
        assert names[0] == state.action_to_string(analysis.action)
        assert all(isinstance(n, str) and n for n in names)
        # Following the line on a copy names every move where it is played.
        assert names == name_line(state, analysis.principal_variation)
        assert "principal_variation_names" not in analysis.to_dict()  # the dict contract is unchanged


def test_name_line_follows_legal_moves_and_tolerates_the_rest():
    perfect, _ = _perfect_and_hidden()
    state = aiplay.skip_chance(perfect.new_initial_state(), random.Random(7))
    before = state.to_json()
    legal = state.legal_actions()
    line = [legal[0]]
    after = state.clone()
    after.apply_action(legal[0])
    if not after.is_terminal():
        line.append(after.legal_actions()[0])
    names = name_line(state, line + [10 ** 9])
    assert names[:len(line)] == [state.action_to_string(legal[0])] + (
        [after.action_to_string(line[1])] if len(line) > 1 else [])
    assert names[-1] == str(10 ** 9)
    assert state.to_json() == before


def test_quit_during_a_solve_still_gives_the_solve_its_final_reply():
    """Every request gets exactly one final reply: a solve still running at quit is waited for."""
    import io
    import json as _json

    from aiplay.protocol import serve_stdio

    lines = [
        {"id": 1, "cmd": "new", "game": LONG3, "options": LONG3_OPTIONS, "seed": 2, "auto_chance": True},
        {"id": 2, "cmd": "solve", "seconds": 4},  # longer than the 2 s a stopped search gets
        {"id": 3, "cmd": "quit"},
    ]
    out = io.StringIO()
    serve_stdio(io.StringIO("".join(_json.dumps(x) + "\n" for x in lines)), out)
    replies = [_json.loads(line) for line in out.getvalue().splitlines()]
    finals = {r["id"]: r for r in replies if r["type"] != "info"}
    assert finals[3]["bye"] is True
    assert finals[2]["cmd"] == "solve" and finals[2]["ok"] is True, finals[2]
    assert finals[2]["result"]["exact"] is False  # the budget ended it, after the quit
    assert [r["id"] for r in replies].index(2) > [r["id"] for r in replies].index(3)


def test_a_budget_spent_before_the_first_slice_still_answers_a_move():
    replies = []
    from aiplay.protocol import Server

    server = Server(replies.append)
    server.handle_line(json.dumps({"id": 1, "cmd": "new", "game": LONG2, "options": LONG2_OPTIONS, "auto_chance": True}))
    server.handle_line('{"id": 2, "cmd": "go", "bot": "mcts", "seconds": 1e-9}')
    server.shutdown(timeout=30)
    final = [r for r in replies if r["id"] == 2 and r["type"] == "bestmove"]
    assert len(final) == 1 and final[0]["ok"] is True, final
    assert final[0]["action"] in [a for a in range(10000)]
