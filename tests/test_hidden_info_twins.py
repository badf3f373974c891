"""Twin tests: no bot's move may depend on what its player cannot see.

Two states that a player cannot tell apart (twins: equal
``information_state_key(player)``) must get the same move, and the same
search statistics, from that player's bot built with the same seed. A twin of
a state is made with the game's own sampler: ``state.determinize(player,
rng)`` keeps everything ``player`` knows and redeals the rest.

Tree reuse is tested on a pair of calls: a bot that searched ``first`` and is
then asked about ``second`` must answer the same as when it is asked about a
twin of ``second``. Re-rooting the kept tree by anything but the searcher's
own observation (a rival's true information, say) shows up here as different
statistics.

Bots that search the true state (MCTS, expectimax) refuse hidden-information
games unless told to cheat; that refusal is tested too.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Tuple

import pytest

import aiplay
from aiplay import InvalidOptionError
from aiplay.game import sample_chance_outcome
from aiplay.registry import contract_options, has_native
from aiplay.search import ExpectimaxBot, MCTSBot, make_bot

def hidden_games() -> List[Tuple[str, Dict[str, Any]]]:
    """Every registered game with hidden information, with the option sets it registers for the generic tests."""
    return [(name, options) for name, option_sets in contract_options(include_hidden=True).items()
            for options in option_sets
            if not aiplay.load(name, backend="reference", **options).perfect_information]


HIDDEN_GAMES = hidden_games()

#: Bot configurations for the twin test: (kind, options). Budgets are small:
#: equality of the whole analysis is what is tested, not strength.
BOT_CONFIGS: List[Tuple[str, Dict[str, Any]]] = [
    ("random", {}),
    ("heuristic", {}),
    ("ismcts", {"iterations": 150}),
    ("ismcts", {"iterations": 150, "reuse_tree": False}),
    ("ismcts", {"iterations": 150, "variant": "mo"}),
    ("ismcts", {"iterations": 150, "variant": "mo", "reuse_tree": False}),
    ("ismcts", {"iterations": 150, "workers": 2}),
    ("ismcts", {"iterations": 150, "rollout": "policy", "rollout_cutoff": 20}),
    ("ismcts", {"iterations": 150, "rollout": "policy", "rollout_epsilon": 0.3, "variant": "mo"}),
    ("ismcts", {"nodes": 3000, "max_nodes": 40}),
    ("ismcts", {"iterations": 150, "smooth": True}),
    ("ismcts", {"iterations": 150, "variant": "mo", "smooth": True, "self_determinize": 1.0}),
]


def backends(name: str) -> List[str]:
    return ["reference", "native"] if has_native(name) else ["reference"]


def decision_states(game: aiplay.Game, seed: int, count: int) -> List[aiplay.State]:
    """Decision states of seeded random games, spread over the game's length."""
    rng = random.Random(seed)
    found: List[aiplay.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            trail.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        step = max(1, len(trail) // 4)
        found.extend(trail[::step][:count - len(found)])
    return found


def twin(state: aiplay.State, player: int, seed: int) -> aiplay.State:
    """A state ``player`` cannot tell from ``state`` whose hidden parts differ, if any can."""
    key = state.information_state_key(player)
    text = state.to_json()
    candidate = state
    for k in range(50):
        candidate = state.determinize(player, random.Random(seed * 1000 + k))
        if candidate.to_json() != text:
            break
    assert candidate.information_state_key(player) == key
    return candidate


def comparable(analysis: aiplay.search.Analysis) -> Dict[str, Any]:
    """The whole analysis but wall-clock time."""
    data = analysis.to_dict()
    data["counters"] = {k: v for k, v in data["counters"].items() if k != "seconds"}
    return data


def game_cases():
    for name, options in HIDDEN_GAMES:
        for backend in backends(name):
            opts = ",".join(f"{k}={v}" for k, v in options.items()) or "default"
            yield pytest.param(name, options, backend, id=f"{name}-{opts}-{backend}")


def usable(kind: str, options: Dict[str, Any], game: aiplay.Game) -> bool:
    """Whether the configuration applies to this game and engine (an option of one path only)."""
    if kind == "heuristic" or options.get("rollout") == "policy":
        if game.heuristic_policy is None:
            return False
    native_only = ("workers", "max_nodes")
    if game.backend == "reference" and any(k in options for k in native_only):
        return False
    return True


@pytest.mark.parametrize("name,options,backend", list(game_cases()))
def test_twins_get_the_same_analysis(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    states = decision_states(game, seed=11, count=4)
    differing = 0
    for i, state in enumerate(states):
        player = state.current_player()
        other = twin(state, player, seed=i)
        differing += other.to_json() != state.to_json()
        for kind, bot_options in BOT_CONFIGS:
            if not usable(kind, bot_options, game):
                continue
            if backend == "reference" and kind == "ismcts":
                bot_options = {**bot_options, "iterations": 40} if "iterations" in bot_options else bot_options
            first = make_bot(kind, seed=5, **bot_options).analyse(state)
            second = make_bot(kind, seed=5, **bot_options).analyse(other)
            assert comparable(first) == comparable(second), (kind, bot_options, i)
    # The test is only meaningful if the twins really differ in hidden parts.
    assert differing >= 2


@pytest.mark.parametrize("name,options,backend", [c for c in game_cases() if c.values[2] == "native"])
@pytest.mark.parametrize("variant", ["so", "mo"])
def test_tree_reuse_rerooted_by_what_the_searcher_saw(name, options, backend, variant):
    """A bot's second search, on a state or on its twin, after the same first search."""
    game = aiplay.load(name, backend=backend, **options)
    rng = random.Random(3)
    reused = 0
    pairs = 0
    for attempt in range(40):
        state = game.new_initial_state()
        # Find two decision states of one player, a few moves apart, in one game.
        seen: Dict[int, aiplay.State] = {}
        # Six pairs at least, more until one search reused its tree (forced moves, answered
        # without a search, are skipped, so the pairs can lie further apart). Up to 120 pairs: in a
        # 4-player game of hidden simultaneous choices, each followed by a chance node,
        # an MO search of 400 iterations reaches the next decision in every tree only now and then.
        while not state.is_terminal() and not (pairs >= 6 and (reused or pairs >= 120)):
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            player = state.current_player()
            if len(state.legal_actions()) == 1:
                pass  # a forced move is answered without a search: nothing to reuse
            elif player in seen:
                first, second = seen.pop(player), state.clone()
                other = twin(second, player, seed=attempt)
                if other.to_json() != second.to_json():
                    results = []
                    for target in (second, other):
                        bot = make_bot("ismcts", seed=9, iterations=400, variant=variant)
                        bot.analyse(first)
                        results.append(bot.analyse(target))
                    assert comparable(results[0]) == comparable(results[1])
                    reused += results[0].counters["reused_tree"]
                    pairs += 1
            else:
                seen[player] = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
        if pairs >= 6 and (reused or pairs >= 120):
            break
    assert pairs >= 6
    # Some second searches must really have reused the tree, or nothing was tested.
    assert reused >= 1


@pytest.mark.parametrize("name,options,backend", list(game_cases()))
def test_true_state_searchers_refuse_hidden_information(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    state = decision_states(game, seed=2, count=1)[0]
    for bot in (MCTSBot(iterations=10), ExpectimaxBot(depth=1)):
        with pytest.raises(InvalidOptionError, match="hidden information"):
            bot.choose(state)
