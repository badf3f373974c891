"""Generic determinization tests: every registered game, both engines, every observer seat.

``state.determinize(observer, rng)`` must sample a full state that the
observer cannot tell from the real one, and that is itself a valid state:

* the world has the observer's information key, information string and view,
  the same player to act, and contradicts none of the observer's knowledge
  records (``knowledge_violations``); the real state contradicts none either;
* the world round-trips through JSON, and random play from it reaches the end;
* the hidden part does vary: a perfect-information game returns the state
  itself; in an imperfect-information game, wherever the observer provably
  does not know everything (a world differs from the state, or a world
  sampled for another seat is indistinguishable to this observer yet
  different), its worlds are not all equal, and every observer gets several
  distinct worlds at some state past the first decision. (Area 51's knowledge
  records can leave nothing hidden, e.g. a hand whose every card was taken
  face up, so "past the deal" alone would not do.)
* sampling is canonical: a world ``w`` of ``s`` gives, for the same seed, the
  same world as ``s`` (a searcher determinizes from the true state, so any
  dependence on the true hidden contents would leak them);
* a bad observer or generator raises an :class:`aiplay.AiplayError`.

States are taken at several depths (early, middle, late) of seeded random
games. Each (game, options, engine) samples ``WORLDS`` worlds per observer in
all: a thousand per observer and game, split evenly over its option sets and
engines (Area 51: 4 option sets on 2 engines, 125 worlds each).
"""

from __future__ import annotations

import random
from typing import List, Tuple

import pytest

import aiplay
from aiplay import AiplayError
from aiplay.game import State, sample_chance_outcome

from aiplay.testing.cases import game_variants, variant_id

CASES = game_variants()
#: Worlds per observer and game, split evenly over its (options, engine) cases and spread
#: over each case's sampled states.
WORLDS_PER_GAME = 1000
#: Where the sampled states lie, as fractions of a game's length.
DEPTHS = (0.0, 0.1, 0.3, 0.55, 0.8, 0.95)
GAMES = 2
#: Worlds per (state, observer) played out to the end, and checked for canonical sampling.
PLAYED_OUT = 2
CANONICAL_SEEDS = (11, 12)
#: Further draws, where the hidden part can differ but the worlds drawn so far are all equal.
EXTRA_DRAWS = 200


def sampled_states(game, seed: int) -> List[Tuple[State, int]]:
    """(state, decisions made so far) at the DEPTHS of one seeded random game, and its final state."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    history: List[Tuple[State, int]] = []
    decisions = 0
    while not state.is_terminal():
        history.append((state.clone(), decisions))
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    picks = sorted({min(len(history) - 1, int(f * len(history))) for f in DEPTHS})
    # The end too: a showdown's worlds must keep what it revealed (who won).
    return [history[i] for i in picks] + [(state, decisions)]


def play_out(state: State, rng: random.Random) -> None:
    """Random play from ``state`` must reach the end (a cap catches endless games)."""
    for _ in range(100_000):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("random play from a world did not end")


@pytest.fixture(params=CASES, ids=[variant_id(c) for c in CASES])
def game(request):
    name, backend, options = request.param
    return aiplay.load(name, backend=backend, **options)


def indistinguishable(world: State, state: State, observer: int) -> bool:
    """True when ``observer`` could be in ``world`` as well as in ``state``."""
    return (world.information_state_key(observer) == state.information_state_key(observer)
            and world.view(observer) == state.view(observer)
            and world.knowledge_violations(observer) == [])


def test_worlds_are_indistinguishable_valid_varied_and_canonical(game):
    n = game.num_players
    states = [pick for seed in range(GAMES) for pick in sampled_states(game, seed)]
    cases = sum(1 for name, _, _ in CASES if name == game.name)
    per_state = max(1, -(-WORLDS_PER_GAME // cases) // len(states))
    rng = random.Random(f"worlds-{game.name}")
    varied = [False] * n  # per observer: some state past the deal gave several worlds
    for state, decisions in states:
        truth = state.to_json()
        for observer in range(n):
            assert state.knowledge_violations(observer) == [], "a state reached by play violates no record"
        # One world per seat: a world sampled for another seat that this
        # observer cannot tell from the state, yet differs from it, proves the
        # observer does not know everything here.
        probes = [state.determinize(o, random.Random(rng.getrandbits(64))) for o in range(n)]
        for observer in range(n):
            key = state.information_state_key(observer)
            text = state.information_state_string(observer)
            view = state.view(observer)
            worlds: List[State] = []
            documents = set()
            for _ in range(per_state):
                world = state.determinize(observer, random.Random(rng.getrandbits(64)))
                doc = world.to_json()
                assert state.to_json() == truth, "determinize must not change the state"
                assert world.information_state_key(observer) == key
                assert world.information_state_string(observer) == text
                assert world.view(observer) == view
                assert world.current_player() == state.current_player()
                assert world.knowledge_violations(observer) == []
                assert game.state_from_json(doc).to_json() == doc, "a world is a valid, loadable state"
                if doc not in documents:
                    documents.add(doc)
                    worlds.append(world)
            if game.perfect_information:
                assert documents == {truth}, "nothing is hidden: every world is the state itself"
            else:
                hidden = documents != {truth} or any(
                    probe.to_json() != truth and indistinguishable(probe, state, observer)
                    for o, probe in enumerate(probes) if o != observer)
                if hidden:
                    # Two states the observer cannot tell apart exist, so the
                    # sampler must not keep returning one world. Worlds need
                    # not be equally likely (Area 51's are far from it), so a
                    # small per-state budget gets more draws before judging.
                    for _ in range(EXTRA_DRAWS):
                        if len(documents) > 1:
                            break
                        documents.add(state.determinize(observer, random.Random(rng.getrandbits(64))).to_json())
                    assert len(documents) > 1, (
                        f"observer {observer}: {per_state + EXTRA_DRAWS} worlds are all the same although the hidden part "
                        f"can differ ({decisions} decisions in)")
                if decisions > 0 and len(documents) > 1:
                    varied[observer] = True
            for world in worlds[:PLAYED_OUT]:
                for seed in CANONICAL_SEEDS:
                    twin = world.determinize(observer, random.Random(seed))
                    real = state.determinize(observer, random.Random(seed))
                    assert twin.to_json() == real.to_json(), (
                        "sampling depends on the hidden contents: a world and the true state give "
                        "different worlds for the same seed")
                play_out(world.clone(), rng)
    if not game.perfect_information:
        # Once play has begun someone's cards are hidden from every seat at some
        # point; a sampler that always returned the true state would fail here.
        assert all(varied), f"observers {[o for o in range(n) if not varied[o]]} never got two distinct worlds"


def test_bad_observers_and_generators_raise_aiplay_errors(game):
    state = game.new_initial_state()
    n = game.num_players
    for observer, rng in ((0, None), (-1, random.Random(1)), (n, random.Random(1)), ("0", random.Random(1))):
        with pytest.raises(AiplayError):
            state.determinize(observer, rng)
