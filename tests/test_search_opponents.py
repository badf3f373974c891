"""The tree searches' opponent model: ``opponents="search"`` (UCB for everyone) or ``"policy"``.

With ``"policy"`` the players other than the searching one move inside the
tree by the game's playout policy, on both search paths.
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.game import sample_chance_outcome
from aiplay.search import make_bot
from aiplay.search.ismcts import ISMCTSBot
from aiplay.search.mcts import MCTSBot
from aiplay.testing.choose import pick_game, pick_variant


def _decision(game, seed: int = 3, moves: int = 2, word: str = ""):
    """A seeded position at least ``moves`` random moves in where a player is to move (and, with
    ``word``, may make a move whose name contains it)."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    played = 0
    while True:
        assert not state.is_terminal(), "the seeded game ended before the position wanted"
        player = state.current_player()
        if player < 0:
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if played >= moves and any(word in state.action_to_string(a) for a in state.legal_actions()):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        played += 1


@pytest.mark.parametrize("factory", [MCTSBot, ISMCTSBot])
@pytest.mark.parametrize("value", ["policy ", "heuristic", 1, None])
def test_a_bad_opponents_value_is_refused_by_name(factory, value):
    with pytest.raises(InvalidOptionError, match="opponents"):
        factory(iterations=10, opponents=value)


def test_opponents_policy_needs_a_policy():
    name = pick_game(heuristic=False, perfect_information=False, short=True, native=True, prefer="large")
    state = _decision(aiplay.load(name, backend="reference"))
    with pytest.raises(InvalidOptionError, match="opponents='policy' needs a policy"):
        ISMCTSBot(iterations=10, opponents="policy", seed=1).choose(state)
    native = _decision(aiplay.load(name))
    with pytest.raises(InvalidOptionError, match="opponents='policy'"):
        ISMCTSBot(iterations=10, opponents="policy", seed=1).choose(native)


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_reference_path_asks_the_policy_for_the_other_players_only(kind, monkeypatch):
    name, options = pick_variant(heuristic=True, perfect_information=False, short=True, players=3)
    game = aiplay.load(name, backend="reference", **options)
    state = _decision(game)
    root = state.current_player()
    original = type(game).heuristic_policy
    asked = []

    def spy(s, rng):
        asked.append(s.current_player())
        return original(s, rng)

    monkeypatch.setattr(type(game), "heuristic_policy", staticmethod(spy))
    extra = {"allow_hidden_information": True} if kind == "mcts" else {}
    make_bot(kind, iterations=300, seed=5, rollout="random", opponents="policy", **extra).choose(state)
    assert asked, "the policy was never asked inside the tree"
    assert root not in asked, "the searching player's own moves must stay a search"
    asked.clear()
    make_bot(kind, iterations=300, seed=5, rollout="random", **extra).choose(state)
    assert asked == []  # the default model: UCB for everyone, random rollouts


#: Hidden-information games whose kernels play their policy: a short one for three, a long one for two.
NATIVE_POLICY_GAMES = [
    pick_variant(kernel_policy=True, native=True, perfect_information=False, short=True, players=3),
    pick_variant(kernel_policy=True, native=True, perfect_information=False, short=False, players=2)]


@pytest.mark.parametrize("game_name,options", NATIVE_POLICY_GAMES, ids=[n for n, _ in NATIVE_POLICY_GAMES])
def test_native_opponents_policy_is_seeded_and_changes_the_search(game_name, options):
    game = aiplay.load(game_name, **options)
    state = _decision(game, seed=0, moves=1)
    analyses = [ISMCTSBot(iterations=400, seed=9, rollout="policy", rollout_cutoff=20,
                          opponents=opponents).analyse(state)
                for opponents in ("policy", "policy", "search")]
    visits = [[(s.action, s.visits) for s in a.stats] for a in analyses]
    assert visits[0] == visits[1]  # same seed, same search
    assert sum(v for _, v in visits[0]) > 0
    # A different model of the others spends the root's visits differently (a decision with
    # one sensible move aside: these positions have several).
    assert visits[0] != visits[2] or len(state.legal_actions()) == 1
