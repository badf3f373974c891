"""The native kernels must match their reference engines move for move.

Besides the lockstep comparison, the hidden-information parts of a kernel
(``info_hash`` and ``determinize``) are checked here against the reference
engine's information state strings, for every game with a native kernel.
"""

from __future__ import annotations

import os
import random
from collections import Counter, defaultdict

import pytest

import aiplay
from aiplay.testing.differential import EngineMismatch, compare_engines, compare_states
from aiplay.game import sample_chance_outcome
from aiplay.registry import game_entries, has_native

from aiplay.testing.cases import CONTRACT_OPTIONS

#: AIPLAY_FULL_DIFFERENTIAL=1 runs each case's ``full_games`` count (Area 51: 5 times
#: the CI count, the 2,000 games the issue asks for); CI runs the base counts to stay fast.
FULL = bool(os.environ.get("AIPLAY_FULL_DIFFERENTIAL"))


def differential_cases():
    """(game, options, number of seeded games) from every game's registry entry."""
    return [(entry.name, dict(case.options), (case.full_games or case.games) if FULL else case.games)
            for entry in game_entries(include_hidden=True) for case in entry.differential]


# Every game but Area 51 gets >= 1,000 games in CI (see each game's register() call).
CASES = differential_cases()


@pytest.mark.parametrize("name,options,games", CASES,
                         ids=[f"{n}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o, _ in CASES])
def test_native_matches_reference(name, options, games):
    if not has_native(name):
        pytest.fail(f"{name} should have a native kernel but it is not built")
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    report = compare_engines(reference, native, range(games))
    assert report.games == games
    assert report.terminal_games == games
    assert report.steps > games


def test_harness_reports_a_disagreement():
    reference = aiplay.load("pig", backend="reference", winscore=20)
    native = aiplay.load("pig", backend="native", winscore=20)
    ref_state = reference.new_initial_state()
    fast_state = native.new_initial_state()
    fast_state.apply_action(1)  # the native engine is now one move ahead
    with pytest.raises(EngineMismatch, match="serialized state|current player"):
        compare_states(ref_state, fast_state, seed=7, step=0)


def test_native_is_the_default_backend():
    assert aiplay.load("pig").backend == "native"
    assert aiplay.load("pig", backend="reference").backend == "reference"


# -- hidden information: info_hash and determinize --------------------------------

# Option sets for the hidden-information checks: the contract tests' sets, plus
# the Leduc variants whose deck or betting differs.
INFO_OPTIONS = dict(CONTRACT_OPTIONS)
INFO_OPTIONS["leduc_poker"] = CONTRACT_OPTIONS["leduc_poker"] + [
    {"suit_isomorphism": True}, {"players": 3, "action_mapping": True, "starting_player": 1}]
INFO_CASES = [(name, options) for name in aiplay.games_available() if has_native(name)
              for options in INFO_OPTIONS.get(name, [{}])]
INFO_IDS = [f"{n}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o in INFO_CASES]


# Playouts for the info-key check: every state is loaded through the reference engine
# once per seat, so games are played until about 4,000 states (at least 8 games, at
# most 150): long games (Area 51: ~1,000 states each) play few, short ones many.
INFO_STATES, INFO_MIN_GAMES, INFO_MAX_GAMES = 4_000, 8, 150


def native_random_states(game, games, seed=0, until_states=None, min_games=1):
    """Every state met along seeded random playouts (clones): ``games`` games, or fewer once
    ``until_states`` states are met and ``min_games`` games played."""
    states = []
    for g in range(games):
        if until_states is not None and g >= min_games and len(states) >= until_states:
            break
        rng = random.Random(seed * 100_003 + g)
        states.extend(state.clone() for state in aiplay.random_walk(game.new_initial_state(), rng))
    return states


def hides_something(state, player):
    """True when ``player`` sees less than some other seat: another seat's entry (``seats[q]``)
    as ``player`` sees it differs from that seat's own view of it, or a shared field differs.

    Views are compared without ``observer`` and the engine part ``internal`` (which repeats the
    readable fields in the engine's arrays); in a perfect-information game nothing differs.
    """
    mine = state.view(player)
    for q in range(state.game.num_players):
        if q == player:
            continue
        theirs = state.view(q)
        if mine["seats"][q] != theirs["seats"][q]:
            return True
        if any(mine[k] != theirs[k] for k in mine if k not in ("observer", "internal", "seats")):
            return True
    return False


@pytest.mark.parametrize("name,options", INFO_CASES, ids=INFO_IDS)
def test_native_info_keys_partition_like_the_reference_strings(name, options):
    game = aiplay.load(name, backend="native", **options)
    states = native_random_states(game, INFO_MAX_GAMES, until_states=INFO_STATES, min_games=INFO_MIN_GAMES)
    for player in range(game.num_players):
        keys_of = defaultdict(set)     # reference string -> native keys
        strings_of = defaultdict(set)  # native key -> reference strings
        for state in states:
            text = state.to_reference().information_state_string(player)
            key = state.information_state_key(player)
            keys_of[text].add(key)
            strings_of[key].add(text)
        # Equal keys always mean equal reference information states.
        assert all(len(texts) == 1 for texts in strings_of.values()), f"player {player}: a key mixes strings"
        assert all(len(keys) == 1 for keys in keys_of.values()), f"player {player}: a string has two keys"
        if not game.perfect_information:
            # The check means something: many states share an information set.
            shared = Counter(state.to_reference().information_state_string(player) for state in states)
            assert sum(1 for c in shared.values() if c > 1) >= 5


@pytest.mark.parametrize("name,options", INFO_CASES, ids=INFO_IDS)
def test_native_determinize_keeps_the_information_state(name, options):
    game = aiplay.load(name, backend="native", **options)
    states = native_random_states(game, 40, seed=1)
    states = states[::max(1, len(states) // 150)]  # long games (pig) are thinned out
    hiding = varied = 0
    for i, state in enumerate(states):
        before = state.to_json()
        for player in range(game.num_players):
            key = state.information_state_key(player)
            text = state.information_state_string(player)
            samples = set()
            for seed in range(12):
                sample = state.determinize(player, random.Random(i * 1000 + player * 100 + seed))
                assert sample.information_state_key(player) == key
                assert sample.information_state_string(player) == text
                assert sample.current_player() == state.current_player()
                # The observer's own moves are known to it; at a deal the cards left
                # may differ, and another seat's moves depend on its redealt hand.
                if player == state.current_player():
                    assert sample.legal_actions() == state.legal_actions()
                # A consistent position: the reference engine accepts it, and its
                # native reload has the same bytes (derived fields were redone).
                loaded = game.state_from_json(sample.to_json())
                assert loaded.state_key() == sample.state_key()
                samples.add(sample.to_json())
            if not state.is_terminal() and hides_something(state, player):
                hiding += 1
                varied += len(samples) > 1
            elif game.perfect_information:
                assert samples == {before}
        assert state.to_json() == before, "determinize changed the original"
    # Knowledge can pin every hidden card in some positions (Area 51's exact
    # records: a deck forced to its bound), so variation is asked of most, not all.
    if not game.perfect_information:
        assert hiding > 0 and varied >= 0.75 * hiding, f"determinize varied in {varied} of {hiding} positions"


def test_native_kuhn_determinize_draws_the_opponents_card_uniformly():
    game = aiplay.load("kuhn_poker", backend="native")
    state = game.new_initial_state()
    state.apply_action(1)  # observer 0 holds card 1 ...
    state.apply_action(2)  # ... and seat 1 holds card 2, which seat 0 cannot see
    rng = random.Random(11)
    counts = Counter(state.determinize(0, rng).to_dict()["cards"][1] for _ in range(4000))
    assert set(counts) == {0, 2}
    assert abs(counts[0] - 2000) < 200


def test_native_leduc_determinize_after_a_showdown_keeps_the_winners():
    # As the reference test: seat 0 lost with J-Q to an unseen card; every
    # sample must beat J-Q too (J2 would tie, so it is never drawn).
    j1, k1, q1 = 0, 4, 2
    game = aiplay.load("leduc_poker", backend="native")
    state = game.new_initial_state()
    for action in (j1, k1, 1, 1, q1, 1, 1):
        state.apply_action(action)
    assert state.returns() == [-1.0, 1.0]
    hidden = Counter(state.determinize(0, random.Random(seed)).to_dict()["private_cards"][1] for seed in range(60))
    assert set(hidden) == {3, 4, 5}  # Q2, K1, K2


@pytest.mark.parametrize("name,options", [("kuhn_poker", {"players": 3}), ("leduc_poker", {"players": 3}),
                                          ("leduc_poker", {"players": 4, "suit_isomorphism": True})])
def test_native_returns_are_bit_identical(name, options):
    # The harness compares returns with a tolerance; the kernels promise equality,
    # split pots (halves, thirds) included.
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    splits = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = aiplay.play_out(reference.new_initial_state(), rng)
        assert native.from_reference(state).returns() == state.returns()
        splits += sum(r > 0 for r in state.returns()) > 1
    if name == "leduc_poker":
        assert splits > 0, "no split pot was played"


# -- Sunken City: positions that uniform random play seldom reaches ---------------

def _sunken_city_mixed_chooser(greedy):
    """The heuristic policy with probability ``greedy``, else a uniform random move:
    games where treasures are found, carried home and chips are used."""
    def choose(state, rng):
        if rng.random() < greedy:
            return state.game.heuristic_policy(state, rng)
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]
    return choose


@pytest.mark.parametrize("options", [{}, {"players": 3, "short": True}, {"players": 4, "no_neptune_chips": True}],
                         ids=["2p", "3p-short", "4p-no-chips"])
def test_native_sunken_city_matches_under_heuristic_play(options):
    reference = aiplay.load("sunken_city", backend="reference", **options)
    native = aiplay.load("sunken_city", backend="native", **options)
    report = compare_engines(reference, native, range(25), choose=_sunken_city_mixed_chooser(0.8))
    assert report.terminal_games == 25
    # Somebody secured treasures: not every game is a shared nothing.
    assert any(max(r) == 1.0 for r in report.returns_seen)


def _sunken_city_positions():
    """(options, dict) start positions: a frozen lake, every treasure but the chest
    secured, the chip supply one short of empty, the Sand Timer about to show."""
    from test_sunken_city_rules import FROZEN_STREETS

    out = []
    game = aiplay.load("sunken_city", backend="reference", players=4)
    base = game.new_initial_state().to_dict()
    sites = [(3, 3), (2, 4), (4, 2), (4, 6), (6, 4), (3, 5), (5, 3), (5, 5), (0, 4), (4, 4)]
    base.update(buildings=[list(s) for s in sites], streets=FROZEN_STREETS,
                street_piles=[0, 0, 0, 0, 1, 0], draw_pile=5)
    out.append(({"players": 4}, base))

    game = aiplay.load("sunken_city", backend="reference", players=3, short=True)
    base = game.new_initial_state().to_dict()
    base.update(streets=[[0, 0, "right"]], adventurers=[[0, 0], "village", "village"],
                secured=[[2, 3, 4, 5, 6, 7, 8, 9, 10], [], []], carried=[[12], [], []],
                secured_values=[54, 0, 0])
    base["street_piles"][0] -= 1
    out.append(({"players": 3, "short": True}, base))

    game = aiplay.load("sunken_city", backend="reference", players=4)
    base = game.new_initial_state().to_dict()
    streets = [[r, k, "right"] for r in (0, 1, 2, 3) for k in (0, 2)]
    base.update(streets=streets, neptune=[1, 0], chips=[3, 2, 2, 0],
                adventurers=["village", [1, 0], [1, 0], [2, 2]])
    base["street_piles"][0] -= len(streets)
    out.append(({"players": 4}, base))

    game = aiplay.load("sunken_city", backend="reference", players=3)
    base = game.new_initial_state().to_dict()
    streets = [[r, k, "right"] for r in (0, 1, 2, 3, 5, 6) for k in (0, 2, 4, 6)]
    base.update(streets=streets, street_piles=[0, 0, 0, 0, 1, game.total_streets - 1 - len(streets)],
                draw_pile=5, turn=1)
    out.append(({"players": 3}, base))
    return out


@pytest.mark.parametrize("index", range(4), ids=["frozen-lake", "all-secured", "chip-supply", "sand-timer"])
def test_native_sunken_city_matches_from_edge_positions(index):
    options, data = _sunken_city_positions()[index]
    reference_game = aiplay.load("sunken_city", backend="reference", **options)
    native_game = aiplay.load("sunken_city", backend="native", **options)
    start = reference_game.state_from_dict(data)
    loaded = native_game.state_from_dict(data)
    assert loaded.to_json() == start.to_json()
    for seed in range(150):
        rng = random.Random(seed)
        ref, fast = start.clone(), loaded.clone()
        history = []
        for step in range(10_000):
            compare_states(ref, fast, seed=seed, step=step, history=history)
            if ref.is_terminal():
                break
            if ref.is_chance_node():
                action = sample_chance_outcome(ref, rng)
            else:
                legal = ref.legal_actions()
                action = legal[rng.randrange(len(legal))]
            ref.apply_action(action)
            fast.apply_action(action)
            history.append(action)
        assert ref.is_terminal()
