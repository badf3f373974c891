"""Area 51: hostile JSON, save/reload of every position reached by play, and exact determinization.

Regression tests for the reported problems (each names it), the knowledge
model of ``games/area51/knowledge.py`` checked scenario by scenario, and a
small in-process run of the mutation fuzzer's checks.
"""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay.errors import AiplayError, InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.games.area51.components import MAIN_COUNTS, START_COUNTS, NUM_TYPES

from area51_helpers import T, counts, position


def game(players=4, backend="reference", **options):
    return aiplay.load("area51", backend=backend, players=players, **options)


def play(state, *names):
    for name in names:
        state.apply_action(state.string_to_action(name))
    return state


def to_decision(state, rng):
    while state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, rng))
    return state


def playthrough(g, seed, heuristic=False):
    """Every state of one seeded game (random or heuristic moves), as clones."""
    rng = random.Random(seed)
    state = g.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        elif heuristic:
            state.apply_action(g.heuristic_policy(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


def rejected_field(g, data):
    """The field an InvalidStateError names, on both engines (they must agree)."""
    fields = []
    for backend in ("reference", "native"):
        engine = aiplay.load("area51", backend=backend, **g.options) if hasattr(g, "options") else g
        with pytest.raises(InvalidStateError) as info:
            engine.state_from_dict(json.loads(json.dumps(data)))
        fields.append(info.value.field)
    assert fields[0] == fields[1]
    return fields[0]


def decision_state(players=4, seed=0, steps=40):
    rng = random.Random(seed)
    state = game(players).new_initial_state()
    for _ in range(steps):
        to_decision(state, rng)
        state.apply_action(rng.choice(state.legal_actions()))
    return to_decision(state, rng)


# -- hostile JSON (reported) --------------------------------------------------------------
def both(players=4, **options):
    return [aiplay.load("area51", backend=b, players=players, **options) for b in ("reference", "native")]


def reject(data, players=4, **options):
    """Both engines reject ``data`` with an InvalidStateError; returns the field named (equal in both)."""
    fields = set()
    for g in both(players, **options):
        with pytest.raises(InvalidStateError) as info:
            g.state_from_dict(json.loads(json.dumps(data)))
        fields.add(info.value.field)
    assert len(fields) == 1, fields
    return fields.pop()


def test_a_pickup_queue_naming_seat_minus_one_is_rejected():
    # Reported: accepted, then native ISMCTS segfaulted.
    state = to_decision(game(4).new_initial_state(), random.Random(1))
    play(state, "collect", "take deck top")
    data = state.to_dict()
    assert data["queue"] == [["draw", 0]]
    data["queue"] = [["draw", -1]]
    assert reject(data) == "state.queue[0][1]"
    data["queue"] = [["deal", -1]]
    assert reject(data) == "state.queue[0][1]"


def test_step_deal_with_a_queue_outside_the_set_up_is_rejected():
    # Reported: accepted, then a segfault, IndexError or AssertionError.
    state = to_decision(game(4).new_initial_state(), random.Random(1))
    play(state, "collect", "take deck top")
    data = state.to_dict()
    data["step"] = "deal"
    assert reject(data) == "state.step"
    data = state.to_dict()
    data["queue"] = [["deal", 0]]
    assert reject(data) == "state.queue"


def test_oversized_input_is_an_invalid_state_error_on_both_engines_and_in_the_kernel():
    # Reported: the validators disagreed and one raised a plain ValueError.
    from aiplay._ext.kernel import NativeState

    state = to_decision(game(4).new_initial_state(), random.Random(2))
    big_queue = state.to_dict()
    big_queue["queue"] = [["deal", 0]] * 40
    assert reject(big_queue) == "state.queue"
    big_hangar = state.to_dict()
    big_hangar["hangars"][0][0] = [[0, 0, 0]] * 300
    reject(big_hangar)
    native = game(4, "native")
    for data, field in ((big_queue, "state.queue"), (big_hangar, "state.hangars[0][0]")):
        with pytest.raises(InvalidStateError) as info:  # the kernel's own loader, unvalidated input
            native.kernel.load_dict(NativeState.create(native.kernel, native), data)
        assert info.value.field == field


@pytest.mark.parametrize("field,value", [
    ("turn", 2 ** 31), ("extra_left", 200), ("taken", -1), ("deck_top_left", 200), ("pile_region", 7),
    ("anyc", [300, 0, 0, 0]), ("scores", [40000, 0, 0, 0]), ("markers", [300, 0, 0]),
])
def test_the_kernel_loader_never_writes_out_of_range(field, value):
    from aiplay._ext.kernel import NativeState

    native = game(4, "native")
    data = to_decision(game(4).new_initial_state(), random.Random(2)).to_dict()
    data[field] = value
    with pytest.raises(InvalidStateError) as info:
        native.kernel.load_dict(NativeState.create(native.kernel, native), data)
    assert info.value.field.startswith(f"state.{field}")
    reject(data)


def test_every_rejection_names_the_field_and_is_an_aiplay_error():
    state = decision_state(4, seed=3)
    for key in state.to_dict():
        data = state.to_dict()
        data[key] = {"bogus": True}
        field = reject(data)
        assert field.startswith(f"state.{key}")
    assert issubclass(InvalidStateError, AiplayError)


def test_the_decision_in_progress_is_checked_against_the_board():
    g = game(4)
    state = position(g, hands={0: ["green 1", "blue 1", "blue 2", "brown 3", "orange 4"]})
    play(state, "build", "create green bunker in R1")
    data = state.to_dict()
    assert data["context"] == {"build": 0, "colour": 0, "region": 1, "owner": 0, "down": 1}
    for key, value, field in (("owner", 1, "state.context.owner"), ("region", 3, "state.context.region"),
                              ("down", 2, "state.context.down"), ("space", 0, "state.context.space")):
        bad = json.loads(json.dumps(data))
        bad["context"][key] = value
        assert reject(bad) == field
    full = json.loads(json.dumps(data))  # no free space left in R1: the bunker could not be placed
    full["spaces"][1] = [[3, 3, 1]] * 5
    assert reject(full) in ("state.markers[1]", "state.towers[3]", "state.caps[3]", "state.context")


# -- every state reached by play saves and reloads (reported) -----------------------------
@pytest.mark.parametrize("players,max_turns,seed,heuristic", [
    (2, 40, 0, False), (3, 40, 1, True), (4, 40, 2, False), (5, 40, 3, True), (6, 40, 4, False),
    (4, 5, 5, False), (5, 1, 6, True), (6, 300, 7, True), (2, 300, 8, False),
])
def test_every_state_reached_by_play_round_trips_in_both_engines(players, max_turns, seed, heuristic):
    ref = game(players, max_turns=max_turns)
    nat = game(players, "native", max_turns=max_turns)
    states = playthrough(ref, seed, heuristic)
    assert states[-1].is_terminal()
    passed_cap = False
    for i, state in enumerate(states):
        text = state.to_json()
        assert ref.state_from_json(text).to_json() == text
        native = nat.state_from_json(text)
        assert native.to_json() == text
        passed_cap = passed_cap or state.turn > max_turns
        if i % 3 == 0 or state.turn > max_turns:
            native.view(i % players), str(native), native.heuristic_values()
            native.information_state_key(i % players)
            assert native.heuristic_values() == state.heuristic_values()
            assert not state.knowledge_violations(i % players)
    if max_turns <= 40:  # games with the default cap end by the markers first
        assert passed_cap, "the game never passed max_turns: the regression is not exercised"


def test_a_five_player_upgrade_to_level_nine_is_a_valid_state():
    # Reported: a real 5-player game reaches context.down == 9; the validator capped it at 8.
    g = game(5)
    hand = ["green 1"] * 5 + ["green 2"] * 4 + ["blue 1", "blue 2"]
    state = position(g, spaces={(0, 7): (0, 0, 8)}, hands={0: hand})
    play(state, "build", "upgrade bunker R0/8")
    assert state.ctx["down"] == 9
    for engine in both(5):
        loaded = engine.state_from_json(state.to_json())
        assert loaded.to_json() == state.to_json()
    play(state, "face-up green 1 to hangar 1")
    for _ in range(9):
        assert state.legal_actions()
        state.apply_action(state.legal_actions()[0])
        game(5).state_from_json(state.to_json())
    assert state.spaces[0][7][2] == 9


def test_the_turn_counter_passes_max_turns_and_still_reloads():
    # Reported: with max_turns=40 the counter passes 40; to_json no longer reloaded and
    # native view/str/heuristic_values raised mid-game.
    nat = game(4, "native", max_turns=40)
    state = nat.new_initial_state()
    rng = random.Random(11)
    seen = False
    while not state.is_terminal():
        if state.to_reference().turn > 40:
            seen = True
            nat.state_from_json(state.to_json())
            state.view(1), str(state), state.heuristic_values()
        to_decision(state, rng)
        if not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen


# -- seats outside 0..n-1 -------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("seat", [-1, 4, 99])
def test_seats_outside_the_game_are_rejected(backend, seat):
    state = to_decision(game(4, backend).new_initial_state(), random.Random(0))
    for call in (lambda: state.view(seat), lambda: state.information_state_key(seat),
                 lambda: state.information_state_string(seat), lambda: state.determinize(seat, random.Random(0)),
                 lambda: state.knowledge_violations(seat)):
        with pytest.raises((AiplayError, ValueError)):
            call()
    if backend == "reference":
        with pytest.raises(AiplayError):
            state.view(-1)  # used to return the last seat's private hand


# -- determinization ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [5, 6])
def test_worlds_keep_the_start_card_layers(players):
    # Reported: 200 of 200 worlds broke them after a 5-6 player set-up.
    state = to_decision(game(players).new_initial_state(), random.Random(players))
    assert state.top_left > 0
    for seed in range(200):
        world = state.determinize(seed % players, random.Random(seed))
        assert world.main_pool == MAIN_COUNTS  # nothing was drawn from the main deck
        assert sum(world.top_pool) == sum(state.top_pool)
        assert all(world.top_pool[t] <= START_COUNTS[t] for t in range(NUM_TYPES))
        for p in range(players):
            assert all(world.hands[p][t] <= START_COUNTS[t] for t in range(NUM_TYPES))
        assert world.knowledge_violations(seed % players) == []


def test_dealt_hands_stay_start_cards_after_the_layers_merge():
    state = to_decision(game(4).new_initial_state(), random.Random(5))
    assert state.top_left == 0  # 4 players: the row used up the top layer
    for seed in range(100):
        world = state.determinize(0, random.Random(seed))
        for p in range(1, 4):
            assert all(world.hands[p][t] <= START_COUNTS[t] - world.start_seen[t] for t in range(NUM_TYPES))


def fully_known_hand_then_face_down(backend="reference"):
    """Seat 0's hand is fully known (green 1, green 2, blue 3); it builds with green 1 face up
    and one face-down card into R1 hangar 2."""
    g = game(4)
    state = position(g, hands={0: ["green 1", "green 2", "blue 3"]}, known={0: ["green 1", "green 2", "blue 3"]})
    play(state, "build", "create green bunker in R1", "face-up green 1 to hangar 1", "face-down blue 3 to hangar 2")
    if backend == "native":
        state = game(4, "native").state_from_json(state.to_json())
    return state


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_a_face_down_card_from_a_fully_known_hand_is_one_of_its_cards(backend):
    # Reported: about 82 % of worlds broke it.
    state = fully_known_hand_then_face_down(backend)
    seen = set()
    for seed in range(200):
        world = state.determinize(2, random.Random(seed)).to_dict()
        hidden = world["hangars"][1][1][0][0]
        held = world["hands"][0]
        assert sum(held) == 1
        assert sorted([hidden, held.index(1)]) == sorted([T("green 2"), T("blue 3")])
        seen.add(hidden)
    assert seen == {T("green 2"), T("blue 3")}  # the unknown part varies


def test_a_revealed_face_down_card_tells_which_card_remains():
    state = fully_known_hand_then_face_down()
    assert state.current_player() == 1
    play(state, "pick up", "pick up R1 hangar 2")  # the pile is public: the blue 3 is revealed
    to_decision(state, random.Random(0))
    assert state.soft[0] == counts(["green 2"])
    for seed in range(100):
        world = state.determinize(2, random.Random(seed))
        assert world.hands[0] == counts(["green 2"])
        assert world.knowledge_violations(2) == []


def test_a_reshuffled_deck_keeps_its_public_composition():
    for state in playthrough(game(3), 4):
        if any(state.deck_bound) and sum(state.main_pool) > 3 and not state.is_chance_node():
            break
    else:
        pytest.fail("no reshuffle in the game")
    for seed in range(100):
        world = state.determinize(seed % 3, random.Random(seed))
        assert all(world.main_pool[t] <= state.deck_bound[t] for t in range(NUM_TYPES))
        assert world.knowledge_violations(seed % 3) == []


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_the_acting_seats_hand_is_redealt_for_other_observers_and_keeps_a_legal_decision(backend):
    g = game(4)
    state = position(g, hands={1: ["green 1", "blue 1", "blue 2", "brown 3", "orange 4"]}, current=1)
    play(state, "build", "create brown bunker in R2")
    assert state.step == "play_face_up"
    if backend == "native":
        state = game(4, "native").state_from_json(state.to_json())
    hands = set()
    for seed in range(100):
        world = state.determinize(0, random.Random(seed))
        data = world.to_dict()
        hand = data["hands"][1]
        assert sum(hand) == 5 and any(hand[8:12])  # it must still hold a brown card to play face up
        assert world.legal_actions()
        hands.add(tuple(hand))
        if seed < 20:  # the world can be played on
            w = world.clone()
            w.apply_action(w.legal_actions()[0])
    assert len(hands) > 10
    # The player to act keeps its own hand.
    assert all(state.determinize(1, random.Random(s)).to_dict()["hands"][1] == state.to_dict()["hands"][1]
               for s in range(10))


@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_determinize_is_canonical_on_twins(backend, players):
    """Two states with the same information state give the same world for the same seed."""
    g = game(players, backend, max_turns=60)
    states = playthrough(game(players, max_turns=60), players)
    for i, ref in enumerate(states[::max(1, len(states) // 25)]):
        state = g.state_from_json(ref.to_json())
        for o in range(players):
            twin = state.determinize(o, random.Random(i + 1))
            assert twin.information_state_key(o) == state.information_state_key(o)
            assert (state.determinize(o, random.Random(7)).to_json()
                    == twin.determinize(o, random.Random(7)).to_json())


@pytest.mark.parametrize("players", [2, 4, 6])
def test_states_reached_by_play_and_their_worlds_satisfy_every_record(players):
    for state in playthrough(game(players, max_turns=80), 10 + players)[::7]:
        for o in range(players):
            assert state.knowledge_violations(o) == []
            world = state.determinize(o, random.Random(o))
            assert world.knowledge_violations(o) == []
            assert world.view(o) == state.view(o)
            assert world.information_state_string(o) == state.information_state_string(o)


def test_knowledge_violations_reports_contradicted_records():
    state = fully_known_hand_then_face_down()
    world = state.clone()
    world.hangars[1][1][0][0] = T("orange 3")  # neither green 2 nor blue 3 ...
    world.hands[0] = counts(["green 2"])
    world.main_pool[T("orange 3")] -= 1
    world.main_pool[T("blue 3")] += 1
    lines = world.knowledge_violations(2)
    assert any("blue 3" in line for line in lines), lines
    assert state.knowledge_violations(2) == []
    data = world.to_dict()
    with pytest.raises(InvalidStateError) as info:
        game(4).state_from_dict(data)
    assert info.value.field == f"state.soft[0][{T('blue 3')}]"


def test_the_native_searcher_runs_on_determinized_worlds():
    from aiplay.search import ISMCTSBot

    state = game(4, "native").state_from_json(decision_state(4, seed=8, steps=80).to_json())
    action = ISMCTSBot(iterations=60, seed=1).choose(state)
    assert action in state.legal_actions()


# -- the native sampler (games/area51/kernel.pyx: a C port of knowledge._sample) -------------------
def test_native_worlds_are_exact_and_canonical_over_many_games():
    """20 seeded games (2-6 players, random and heuristic moves): from every observer at every
    few steps, the kernel's nogil sampler gives worlds that satisfy every knowledge record and
    keep the observer's information, without the reference fallback; a world's own worlds
    (twins) are the state's for the same seed."""
    total = twins = 0
    kernels = []
    for k in range(20):
        players = 2 + k % 5
        ref = game(players, max_turns=60)
        nat = game(players, "native", max_turns=60)
        states = playthrough(ref, 100 + k, heuristic=k % 2 == 1)
        kernels.append(nat.new_initial_state().kernel)
        step = max(1, len(states) // 40)
        for i, s in enumerate(states[k % step::step]):
            state = nat.state_from_json(s.to_json())
            for o in range(players):
                key = state.information_state_key(o)
                for j in range(2):
                    seed = 1000 * k + 10 * i + 2 * o + j
                    world = state.determinize(o, random.Random(seed))
                    total += 1
                    assert world.knowledge_violations(o) == [], (k, i, o)
                    assert world.information_state_key(o) == key
                    if j == 0 and i % 3 == 0:
                        assert (world.determinize(o, random.Random(seed + 7)).to_json()
                                == state.determinize(o, random.Random(seed + 7)).to_json())
                        twins += 1
    assert total >= 5000 and twins >= 500, (total, twins)
    calls, redraws = sum(k.det_calls for k in kernels), sum(k.det_redraws for k in kernels)
    assert sum(k.det_fallbacks + k.det_failures for k in kernels) == 0
    assert calls >= total and redraws <= calls // 100  # the counting checks leave almost no dead end


def test_the_kernel_never_hands_back_the_true_state():
    """A position no world fits (loaded past the reference validation): determinize raises a
    DeterminizationError (an AiplayError) instead of returning the position, and the searcher
    skips the iterations rather than searching the true hands."""
    from aiplay.games.area51.knowledge import DeterminizationError
    from aiplay.search import ISMCTSBot

    state = game(4, "native").state_from_json(decision_state(4, seed=3, steps=10).to_json())
    kernel = state.kernel
    data = state.to_dict()
    data["soft"][2][T("blue 1")] = 9  # more blue 1s than the game has
    bad = state.clone()
    kernel.load_dict(bad, data)
    fallbacks, failures = kernel.det_fallbacks, kernel.det_failures
    with pytest.raises(DeterminizationError):
        bad.determinize(0, random.Random(1))
    assert issubclass(DeterminizationError, AiplayError)
    assert (kernel.det_fallbacks, kernel.det_failures) == (fallbacks + 1, failures + 1)
    ISMCTSBot(iterations=4, seed=1).choose(bad)
    assert kernel.det_failures > failures + 1

def test_the_committed_card_can_only_be_a_start_card():
    # Found by tests/test_contract.py (6 players, seed 8): the acting seat's only unseen slot
    # that may hold a main-deck card holds its soft card, so the blue card it must play face up
    # is one of its dealt (start) cards; the sampler used to look for it among the free cards.
    g = game(4)
    state = position(g, hands={1: ["blue 1", "blue 1", "green 2", "orange 1", "orange 2", "brown 1"]}, current=1)
    data = state.to_dict()
    data["anyc"][1] = 1
    data["soft"][1] = counts(["orange 2"])
    state = g.state_from_dict(data)
    play(state, "vehicle", "blue truck R0->R1")
    assert state.step == "vehicle_number"
    for backend in ("reference", "native"):
        s = state if backend == "reference" else game(4, "native").state_from_json(state.to_json())
        for seed in range(50):
            world = s.determinize(0, random.Random(seed))
            assert world.knowledge_violations(0) == []
            hand = world.to_dict()["hands"][1]
            assert any(hand[4:8]) and hand[T("orange 2")] >= 1
            assert world.legal_actions()


# -- the mutation fuzzer's checks, in process (the long runs use worker processes) -------------
def mutated_positions(count, seed):
    """(players, max_turns, JSON text) of mutated positions reached by play."""
    from aiplay.testing import fuzzing

    rng = random.Random(seed)
    bases = {}
    for _ in range(count):
        players, max_turns = rng.choice([2, 3, 4, 5, 6]), rng.choice([300, 40, 3])
        if (players, max_turns) not in bases:
            states = playthrough(game(players, max_turns=max_turns), players + max_turns)
            bases[players, max_turns] = [s.to_json() for s in states[::max(1, len(states) // 12)]]
        base = rng.choice(bases[players, max_turns])
        doc = json.loads(base)
        st = doc["state"]
        roll = rng.randrange(4)
        if roll == 0:  # one card moved between two count vectors (conservation kept)
            fields = ["row", "discards", "deck_main_pool", "deck_start_pool", "pile"]
            a, b = rng.sample(fields, 2)
            t = rng.randrange(NUM_TYPES)
            if st[a][t]:
                st[a][t] -= 1
                st[b][rng.randrange(NUM_TYPES)] += 1
            text = json.dumps(doc)
        elif roll == 1:  # a counter or a name changed
            key = rng.choice(["turn", "extra_left", "taken", "current", "deck_top_left", "step", "phase"])
            st[key] = rng.choice([-1, 0, 1, 9, 127, 255, 2 ** 31, "deal", "load", "refill", "over", "setup"])
            text = json.dumps(doc)
        elif roll == 2:  # a queue entry
            st["queue"].append([rng.choice(["deal", "draw", "row"]), rng.choice([-1, 0, 5, 6, 99])])
            text = json.dumps(doc)
        else:
            text = fuzzing.mutated_json(base, rng)
        yield players, max_turns, text


def test_mutated_positions_are_rejected_alike_or_play_to_the_end_in_both_engines():
    from aiplay._ext.kernel import NativeState

    accepted = 0
    for players, max_turns, text in mutated_positions(400, seed=5):
        ref, nat = game(players, max_turns=max_turns), game(players, "native", max_turns=max_turns)
        loaded = []
        for g in (ref, nat):
            try:
                loaded.append(g.state_from_json(text))
            except InvalidStateError:
                loaded.append(None)
        assert (loaded[0] is None) == (loaded[1] is None), text[:300]
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # the fuzzer's deep nesting is not for this reader
            data = None
        data = data.get("state") if isinstance(data, dict) else None
        if isinstance(data, dict):
            try:  # the kernel's own loader never fails otherwise, whatever it gets
                nat.kernel.load_dict(NativeState.create(nat.kernel, nat), data)
            except InvalidStateError:
                pass
        if loaded[0] is None:
            continue
        accepted += 1
        r, n = loaded
        rng = random.Random(accepted)
        for o in range(players):
            assert r.knowledge_violations(o) == []
            assert n.determinize(o, random.Random(o)).knowledge_violations(o) == []
        for step in range(5000):
            assert r.to_json() == n.to_json()
            if r.is_terminal():
                break
            legal = r.legal_actions()
            assert legal == n.legal_actions() and legal
            action = sample_chance_outcome(r, rng) if r.is_chance_node() else rng.choice(legal)
            r.apply_action(action)
            n.apply_action(action)
        assert r.is_terminal() and n.is_terminal()
    assert accepted >= 20  # the check means something: some mutants are valid positions


def test_a_float_marker_value_is_rejected_by_both_engines():
    # Found by the mutation fuzzer: 4.0 passed the reference's ``in (3, 4)`` check, the kernel
    # rejected it, so the engines disagreed.
    g = game(4)
    state = position(g, vehicles={0: (0, 4)}, hands={0: ["green 1", "blue 1"]})
    data = state.to_dict()
    assert data["vehicles"][0] == [0, [[1, 4]]]
    data["vehicles"][0][1][0][1] = 4.0
    assert reject(data) == "state.vehicles[0][1][0][1]"
