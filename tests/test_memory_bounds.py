"""Options that size memory are bounded in every entry point (issue 27): each at its cap and one past it.

The caps are of two kinds: documented ones (``aiplay.limits.MAX_TT_BITS``, a C int of nodes, 256
workers, depth 200, 1,000,000 plies) and the machine's memory. The memory cap is tested with a
small ``AIPLAY_MEMORY_LIMIT``, so that "at the cap" allocates little: the largest table that fits
is built and searched with, and the next size is refused before anything is allocated.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import aiplay
from aiplay import InvalidOptionError
from aiplay.limits import MAX_TT_BITS, MEMORY_ENV, check_tt_bits, memory_budget
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot
from aiplay.testing.choose import pick_game

native = pytest.importorskip("aiplay._ext.expectimax")
from aiplay._ext.expectimax import ExpectimaxSearch, Solver  # noqa: E402
from aiplay._ext.mcts import NODE_BYTES, TreeSearch  # noqa: E402

#: The budget the memory-cap tests set: 1 MiB.
LIMIT = 2 ** 20


#: A perfect-information game with a native kernel (expectimax, the solver, MCTS) that seats up to 8 players.
GAME = pick_game(perfect_information=True, native=True, short=True, accepts_players=8)


def game_state(players=2):
    """The game for ``players`` players (its other options at their defaults) and its initial state."""
    game = aiplay.load(GAME, backend="native", players=players)
    state = game.new_initial_state()
    return game, state


def largest_fitting(entry_bytes):
    """The largest tt_bits whose table of ``entry_bytes`` entries fits in LIMIT."""
    bits = 0
    while (1 << (bits + 1)) * entry_bytes <= LIMIT:
        bits += 1
    return bits


def test_tt_bits_documented_cap_and_one_past_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, str(2 ** 62))  # memory no object: only the documented cap binds
    assert check_tt_bits(MAX_TT_BITS, 8) == MAX_TT_BITS
    for bad in (MAX_TT_BITS + 1, 3, -1, 2 ** 64, "20", 20.0, True, None):
        with pytest.raises(InvalidOptionError, match="tt_bits"):
            check_tt_bits(bad, 8)


def test_native_expectimax_search_with_8_players_refuses_tt_bits_29_instead_of_wrapping():
    # 2**29 entries x 8 players computed in a C int wrapped to 0: malloc(0), then writes past it (SIGSEGV).
    game, state = game_state(players=8)
    for bits in (29, 30, 31, 64, 2 ** 70):
        with pytest.raises(InvalidOptionError, match="tt_bits"):
            ExpectimaxSearch(game.kernel, tt_bits=bits)


def test_expectimax_search_table_at_the_memory_cap_and_one_past_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, str(LIMIT))
    game, state = game_state(players=8)
    # An entry is a 24-byte record plus one double per player (the check uses the exact size).
    entry = 24 + 8 * 8
    bits = largest_fitting(entry)
    search = ExpectimaxSearch(game.kernel, tt_bits=bits)
    assert search.run(state, 2)["action"] in state.legal_actions()
    with pytest.raises(InvalidOptionError, match=rf"tt_bits={bits + 1}.*would reserve"):
        ExpectimaxSearch(game.kernel, tt_bits=bits + 1)


def test_solver_table_at_the_memory_cap_and_one_past_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, str(LIMIT))
    game, state = game_state()
    entry = 32 + 8 * 2
    bits = largest_fitting(entry)
    solver = Solver(game.kernel, True, tt_bits=bits, max_plies=64)  # (the plies' scratch counts too)
    assert solver.solve(state, 2)["values"]
    with pytest.raises(InvalidOptionError, match=rf"tt_bits={bits + 1}"):
        Solver(game.kernel, True, tt_bits=bits + 1, max_plies=64)
    # Through the public API too.
    with pytest.raises(InvalidOptionError, match="tt_bits"):
        aiplay.solve(state, nodes=100, tt_bits=bits + 1, max_plies=64)
    assert aiplay.solve(state, nodes=100, tt_bits=bits, max_plies=64).values
    # The plies' scratch is bounded by the memory too: 4096 plies of it do not fit in 1 MiB here.
    with pytest.raises(InvalidOptionError, match="max_plies=4096"):
        Solver(game.kernel, True, tt_bits=4)


def test_solve_api_caps_tt_bits_and_max_plies():
    game, state = game_state()
    for options in ({"tt_bits": MAX_TT_BITS + 1}, {"tt_bits": 2.5}, {"max_plies": 1_000_001}, {"max_plies": 7},
                    {"pruning": "alpha"}, {"ordering": None}, {"seed": "1"}, {"deepening": 1}, {"bounds": None}):
        with pytest.raises(InvalidOptionError):
            aiplay.solve(state, nodes=10, **options)
    reference = aiplay.load(GAME, backend="reference").new_initial_state()
    assert aiplay.solve(reference, nodes=10, max_plies=1_000_000, backend="reference").values


def test_tree_nodes_at_the_memory_cap_and_one_past_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, str(LIMIT))
    game, state = game_state()
    cap = LIMIT // NODE_BYTES
    tree = TreeSearch(game.kernel, max_nodes=cap)
    del tree
    with pytest.raises(InvalidOptionError, match=rf"max_nodes={cap + 1}"):
        TreeSearch(game.kernel, max_nodes=cap + 1)
    # The bots refuse it when built, before any search (the bound is rounded up to 64 bytes a node there).
    bot_cap = LIMIT // 64
    assert MCTSBot(max_nodes=bot_cap, iterations=20, seed=1).choose(state) in state.legal_actions()
    for make in (MCTSBot, ISMCTSBot):
        with pytest.raises(InvalidOptionError, match="max_nodes"):
            make(max_nodes=bot_cap + 1)


def test_tree_nodes_documented_cap_and_one_past_it(monkeypatch):
    monkeypatch.setenv(MEMORY_ENV, str(2 ** 62))
    game, _ = game_state()
    TreeSearch(game.kernel, max_nodes=2 ** 31 - 1)  # grows on demand: building it reserves 4096 nodes
    for bad in (2 ** 31, 2 ** 64, 1, "5", 5.0):
        with pytest.raises(InvalidOptionError, match="max_nodes"):
            TreeSearch(game.kernel, max_nodes=bad)
    with pytest.raises(InvalidOptionError):
        MCTSBot(max_nodes=2 ** 31)


def test_workers_and_depth_at_their_caps_and_one_past_them():
    MCTSBot(workers=256)
    with pytest.raises(InvalidOptionError, match="workers"):
        MCTSBot(workers=257)
    ExpectimaxBot(depth=200)
    with pytest.raises(InvalidOptionError, match="depth"):
        ExpectimaxBot(depth=201)
    game, state = game_state()
    search = ExpectimaxSearch(game.kernel)
    for depth in (0, 100_001, 2 ** 40):
        with pytest.raises(InvalidOptionError, match="max_depth"):
            search.run(state, depth)
    with pytest.raises(InvalidOptionError, match="leaf_playout"):
        ExpectimaxSearch(game.kernel, leaf_playout=1_000_001)


def test_the_memory_budget_is_read_from_the_machine_or_the_environment(monkeypatch):
    monkeypatch.delenv(MEMORY_ENV, raising=False)
    budget = memory_budget()
    assert budget is None or budget > 0
    monkeypatch.setenv(MEMORY_ENV, "many")
    with pytest.raises(InvalidOptionError, match=MEMORY_ENV):
        memory_budget()


@pytest.mark.parametrize("args", [
    ["play", GAME, "--bots", "expectimax", "--depth", "201"],
    ["arena", GAME, "--bots", "mcts(max_nodes=2147483648),random", "--games", "1"],
    ["arena", GAME, "--bots", "mcts(workers=257),random", "--games", "1"],
])
def test_the_cli_refuses_options_past_their_caps(args):
    done = subprocess.run([sys.executable, "-m", "aiplay", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "invalid" in (done.stderr + done.stdout), done.stderr
