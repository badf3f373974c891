"""Tree reuse on the reference (Python) loops: MCTS, SO-ISMCTS and MO-ISMCTS keep their tree when asked.

The rule is the native loop's (:mod:`aiplay.search.tree_reuse`): the next search of the
same seat starts from the most visited node where that seat's information is what it is
now. The games come from the registry by property; nothing here names a game.
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.search import ISMCTSBot, MCTSBot
from aiplay.testing.choose import pick_variant

CASES = [
    ("mcts", {}, dict(perfect_information=True, chance=True, short=True)),
    ("ismcts-so", {}, dict(perfect_information=False, short=True)),
    ("ismcts-mo", {"variant": "mo"}, dict(perfect_information=False, short=True)),
]


def _bot(kind, **options):
    return (MCTSBot if kind == "mcts" else ISMCTSBot)(**options)


def _next_own_decision(state, player, rng):
    """Play on (chance and every seat at random) until ``player`` decides again; None at the end."""
    state = state.clone()
    first = True
    while not state.is_terminal():
        if not first and state.current_player() == player:
            return state
        first = False
        if state.is_chance_node():
            state.apply_action(aiplay.sample_chance_outcome(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return None


@pytest.mark.parametrize("kind,options,wanted", CASES, ids=[c[0] for c in CASES])
def test_the_reference_loop_reuses_its_tree_when_asked(kind, options, wanted):
    name, game_options = pick_variant(**wanted)
    game = aiplay.load(name, backend="reference", **game_options)
    rng = random.Random(3)
    reused_once = False
    for _ in range(20):  # a few deals: a reuse needs the new position to lie in the old tree
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(aiplay.sample_chance_outcome(state, rng))
        if state.is_terminal():
            continue
        player = state.current_player()
        bot = _bot(kind, iterations=400, seed=1, reuse_tree=True, **options)
        first = bot.analyse(state)
        assert first.counters["reused_tree"] is False and first.counters["reused_visits"] == 0
        later = _next_own_decision(state, player, rng)
        if later is None:
            continue
        second = bot.analyse(later)
        if second.counters["reused_tree"]:
            reused_once = True
            assert second.counters["reused_visits"] > 0
            # The kept statistics are on top of this search's own iterations.
            assert sum(s.visits for s in second.stats) > second.counters["iterations"]
            assert second.counters["tree_nodes"] > 1
        fresh = _bot(kind, iterations=400, seed=1, **options).analyse(later)
        assert "reused_tree" not in fresh.counters  # off by default on the reference loop
        if reused_once:
            break
    assert reused_once, "no deal led to a position inside the kept tree"


@pytest.mark.parametrize("kind,options,wanted", CASES, ids=[c[0] for c in CASES])
def test_reuse_is_reproducible_and_keyed_by_game_and_seat(kind, options, wanted):
    """Two bots with one seed and one history make the same analyses; another game starts afresh."""
    name, game_options = pick_variant(**wanted)
    game = aiplay.load(name, backend="reference", **game_options)
    rng = random.Random(5)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(aiplay.sample_chance_outcome(state, rng))
    bots = [_bot(kind, iterations=200, seed=4, reuse_tree=True, **options) for _ in range(2)]
    first = [b.analyse(state).to_dict() for b in bots]
    later = _next_own_decision(state, state.current_player(), random.Random(7))
    if later is not None:
        second = [b.analyse(later).to_dict() for b in bots]
        for d in first + second:
            d["counters"].pop("seconds")
        assert first[0] == first[1] and second[0] == second[1]
    # A tree of another game (other options) is never taken for this one.
    other = aiplay.load(name, backend="reference", **{**game_options, **_other_options(game)})
    if other.options != game.options:
        start = other.new_initial_state()
        while start.is_chance_node():
            start.apply_action(aiplay.sample_chance_outcome(start, rng))
        assert bots[0].analyse(start).counters["reused_tree"] is False


def _other_options(game):
    """Options of the same game that differ from ``game``'s (another player count where it allows one)."""
    spec = game.option_spec.get("players")
    if spec is None:
        return {}
    for players in range(2, 9):
        if players != game.num_players:
            try:
                aiplay.load(game.name, backend="reference", players=players)
            except aiplay.AiplayError:
                continue
            return {"players": players}
    return {}
