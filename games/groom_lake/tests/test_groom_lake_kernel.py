"""The Groom Lake kernel (games/groom_lake/kernel.pyx) against the reference engine (games/groom_lake/).

* Lockstep play (random and heuristic decisions, 3-6 players, both variants):
  current player, legal actions, chance outcomes, serialized state, static
  evaluation and returns agree at every step (:func:`aiplay.testing.differential.compare_engines`).
* The policy port is the reference ``heuristic_policy`` exactly, whatever the seed.
* ``info_hash`` partitions positions exactly as the reference information strings do.
* The native determinization keeps the observer's information string, gives
  worlds the reference validator accepts (every knowledge record holds), is
  canonical (a state and one of its worlds give the same world for one seed)
  and varies the hidden parts.
* ``load_dict`` rejects out-of-range or oversized values with InvalidStateError
  naming the field, and leaves the state unchanged; a reload keeps the state's bytes.

The kernel is used through :class:`aiplay.native.NativeGame` directly, so the
tests do not depend on the game's registry entry.
"""

from __future__ import annotations

import copy
import random
from typing import Iterator, List, Tuple

import pytest

from aiplay import InvalidStateError
from aiplay.games.groom_lake.kernel import make_kernel
from aiplay.testing.differential import compare_engines, compare_states
from aiplay.game import sample_chance_outcome
from aiplay.games.groom_lake import GroomLakeGame
from aiplay.testing.kernel_rng import KernelRandom
from aiplay.native import NativeGame

OPTIONS = [{"players": 3}, {"players": 4}, {"players": 5, "half_win": True}, {"players": 6}]


def _pair(options) -> Tuple[GroomLakeGame, NativeGame]:
    reference = GroomLakeGame(**options)
    return reference, NativeGame(reference, make_kernel(reference))


def _walk(game, seed: int, policy: bool = False) -> Iterator:
    """Every state of one seeded game (random decisions, or the heuristic policy)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            action = sample_chance_outcome(state, rng)
        elif policy:
            action = game.heuristic_policy(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state = state.clone()
        state.apply_action(action)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_lockstep_with_the_reference(options):
    reference, native = _pair(options)
    report = compare_engines(reference, native, range(25))
    assert report.terminal_games == 25 and report.steps > 25 * 100
    policy = compare_engines(reference, native, range(100, 108), choose=reference.heuristic_policy)
    assert policy.terminal_games == 8
    outcomes = {tuple(r) for r in report.returns_seen + policy.returns_seen}
    assert len(outcomes) > 1, "games end in different ways"


def test_lockstep_through_the_reshuffle_of_the_refresh_stack():
    # Random play rarely empties the supply deck: positions with the deck and the
    # Discard Stack moved to the Refresh stack make the turn's end (every player
    # loses a token, six cards face up) reshuffle it at once.
    reference, native = _pair({"players": 4})
    reshuffles = continued = 0
    for seed in range(12):
        start = next((s for i, s in enumerate(_walk(reference, seed)) if i > 120 and s.step == "action"), None)
        if start is None:
            continue
        doc = start.to_dict()
        for t in doc["discard"]:
            doc["refresh"][t] += 1
        doc["refresh"] = [r + d for r, d in zip(doc["refresh"], doc["deck"])]
        doc["deck"], doc["discard"] = [0] * len(doc["deck"]), []
        doc["deck_known"] = [[0] * len(doc["deck"]) for _ in doc["deck_known"]]
        ref = reference.state_from_dict(doc)
        fast = native.from_reference(ref)
        rng = random.Random(seed)
        for step in range(400):
            compare_states(ref, fast, seed=seed, step=step)
            if ref.is_terminal():
                break
            if ref.is_chance_node() and ref.step == "row" and not any(ref.deck) and any(ref.refresh):
                pytest.fail("a Discard Stack refill waits on an empty deck")
            deck_before = sum(ref.deck)
            action = (sample_chance_outcome(ref, rng) if ref.is_chance_node()
                      else rng.choice(ref.legal_actions()))
            ref.apply_action(action)
            fast.apply_action(action)
            reshuffles += deck_before == 0 and sum(ref.deck) > 0
        continued += 1
    assert continued >= 8 and reshuffles >= 8


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 6, "half_win": True}], ids=str)
def test_the_policy_port_is_the_reference_heuristic(options):
    reference, native = _pair(options)
    kernel = native.kernel
    assert kernel.has_policy
    checked, chosen = 0, set()
    for seed in range(6):
        for state in _walk(native, seed, policy=seed % 2 == 0):
            if state.is_terminal() or state.is_chance_node():
                continue
            expected = reference.heuristic_policy(state.to_reference(), KernelRandom(seed))
            for kseed in (seed, 2**63 + 1):
                assert kernel.policy_choice(state, kseed) == expected, state.to_json()
            chosen.add(expected // 10 if expected < 124 else "place")
            checked += 1
    assert checked > 500 and len(chosen) >= 8, "many kinds of decisions were compared"


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 5}], ids=str)
def test_info_hash_partitions_like_the_information_strings(options):
    _, native = _pair(options)
    states: List = []
    for seed in range(3):
        states += [s for i, s in enumerate(_walk(native, seed)) if i % 7 == 0]
    # Add worlds: states that share an information set with a real one.
    for i, s in enumerate(states[:60]):
        if not s.is_terminal():
            states.append(s.determinize(i % native.num_players, random.Random(i)))
    for player in range(native.num_players):
        by_key = {}
        by_text = {}
        for s in states:
            key, text = s.information_state_key(player), s.information_state_string(player)
            by_key.setdefault(key, set()).add(text)
            by_text.setdefault(text, set()).add(key)
        assert all(len(v) == 1 for v in by_key.values()), "one key, one information string"
        assert all(len(v) == 1 for v in by_text.values()), "one information string, one key"
        assert len(by_text) < len(states), "some states share an information set"


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 5}, {"players": 6}], ids=str)
def test_native_worlds_are_valid_indistinguishable_canonical_and_varied(options):
    reference, native = _pair(options)
    checked = varied = 0
    for seed in range(3):
        for i, state in enumerate(_walk(native, seed)):
            if state.is_terminal() or i % 5:
                continue
            o = i % native.num_players
            text = state.information_state_string(o)
            worlds = [state.determinize(o, random.Random(k)) for k in range(3)]
            docs = set()
            for w in worlds:
                assert w.information_state_string(o) == text
                checked_ref = reference.state_from_dict(w.to_dict())  # every record and invariant holds
                assert checked_ref.knowledge_violations(o) == []
                docs.add(w.to_json())
                # Canonical: the world itself, determinized with the same seed, gives the same world.
            again = worlds[0].determinize(o, random.Random(0))
            assert again.to_json() == worlds[0].to_json()
            varied += len(docs) > 1
            checked += 1
    assert checked > 60 and varied > checked // 2


def test_load_dict_checks_every_value_before_writing():
    _, native = _pair({"players": 4})
    state = next(s for i, s in enumerate(_walk(native, 3)) if i > 150 and not s.is_chance_node())
    good = state.to_dict()
    before = state.to_json()
    kernel = native.kernel
    bad_edits = [
        ("life", lambda d: d["life"].__setitem__(0, 99)),
        ("hands[1][12]", lambda d: d["hands"][1].__setitem__(12, 7)),
        ("discard", lambda d: d.__setitem__("discard", [0] * 65)),
        ("held", lambda d: d.__setitem__("held", [1, 2, 3])),
        ("map", lambda d: d.__setitem__("map", [[0, 0, 0, 0, 0]] * 50)),
        ("map[1]", lambda d: d["map"].append([5, 0, 0, 0, 0])),
        ("team", lambda d: d.__setitem__("team", [40, 40])),
        ("queue", lambda d: d.__setitem__("queue", [0] * 65)),
        ("stacks[0]", lambda d: d["stacks"].__setitem__(0, [3, 2])),
        ("pool", lambda d: d.__setitem__("pool", [60])),
        ("step", lambda d: d.__setitem__("step", "lunch")),
        ("ballots", lambda d: d.__setitem__("ballots", [[0, 1]] * 5)),
        ("stats[0][0]", lambda d: d["stats"][0].__setitem__(0, -1)),
        ("half_called", lambda d: d.__setitem__("half_called", 1)),
    ]
    for field, edit in bad_edits:
        data = copy.deepcopy(good)
        if field == "map[1]":
            data["map"] = [data["map"][0], [5, 0, 0, 0, 0]]
        else:
            edit(data)
        with pytest.raises(InvalidStateError) as info:
            kernel.load_dict(state, data)
        assert info.value.args and field.split("[")[0] in str(info.value), (field, str(info.value))
        assert state.to_json() == before, f"{field}: nothing written"
    # A reload gives the same bytes (the grid is rebuilt from the map).
    copy_state = native.state_from_dict(good)
    assert copy_state.state_key() == state.state_key() and copy_state.to_json() == before


def test_kernel_metadata_is_the_reference_games():
    for options in OPTIONS:
        reference, native = _pair(options)
        k = native.kernel
        assert (k.num_players, k.num_distinct_actions, k.max_chance_outcomes, k.min_utility, k.max_utility) == (
            reference.num_players, reference.num_distinct_actions, reference.max_chance_outcomes,
            reference.min_utility, reference.max_utility)
        assert not k.perfect_information
