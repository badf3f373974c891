"""Loaders check consistency, not only ranges (issue 27): every accepted position's successors load again.

Each test is a finding of the issue or of the fuzzers (benchmarks/fuzz_long.py, tests/test_roundtrip.py):
a document that every range check passed, but whose records contradicted the cards they describe.
Both engines must refuse it, naming the field.
"""

from __future__ import annotations

import copy
import random

import pytest

import aiplay
from aiplay import InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.registry import has_native


def backends(name):
    return ["reference"] + (["native"] if has_native(name) else [])


def reached(name, options, seed, until, limit=3000):
    """The first state of a seeded random game (reference engine) for which ``until(dict)`` holds."""
    game = aiplay.load(name, backend="reference", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        data = state.to_dict()
        if until(data):
            return data
        if state.is_terminal():
            break
        state.apply_action(sample_chance_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    raise AssertionError(f"no such state in {name} seed {seed}")


def refused(name, options, data, field):
    for backend in backends(name):
        game = aiplay.load(name, backend=backend, **options)
        with pytest.raises(InvalidStateError) as info:
            game.state_from_dict(data)
        assert info.value.field.startswith(field), (backend, info.value)


def accepted(name, options, data):
    for backend in backends(name):
        aiplay.load(name, backend=backend, **options).state_from_dict(data)


def test_groom_lake_a_known_card_raised_during_the_deal_is_refused():
    """Issue 27: accepted, and 38 moves later the position no longer loaded (native view/names raised)."""
    options = {"players": 4}
    data = reached("groom_lake", options, 1, lambda d: d["step"] == "deal" and any(any(h) for h in d["hands"]))
    accepted("groom_lake", options, data)
    seat = next(p for p, h in enumerate(data["hands"]) if any(h))
    card = next(t for t, c in enumerate(data["hands"][seat]) if c)
    bad = copy.deepcopy(data)
    bad["known"][seat][card] += 1  # within the hand: the range check passed it
    refused("groom_lake", options, bad, f"state.known[{seat}]")


def test_groom_lake_nobody_is_dead_during_the_set_up():
    """Found by the successor-reload property: life 0 while the roles are dealt; three moves on, a dead
    player held cards and the position did not load."""
    options = {"players": 5, "half_win": True}
    data = reached("groom_lake", options, 2, lambda d: d["step"] == "roles")
    bad = copy.deepcopy(data)
    bad["life"][1] = 0
    refused("groom_lake", options, bad, "state.life[1]")
    bad = copy.deepcopy(data)
    bad["deck_known"][3][1] = 4
    refused("groom_lake", options, bad, "state.deck_known[3]")


def area1851_sim_state(seed, players=3, actor_at_least=0):
    return reached("area1851", {"players": players}, seed,
                   lambda d: d["snap"] is not None and d["actor"] >= actor_at_least
                   and any(any(p["hand"]) for p in d["snap"]["players"]))


def test_area1851_a_kept_card_in_the_phase_start_snapshot_is_refused():
    """Issue 27: accepted, and determinize(p) gave a world whose view(p) differed, on both engines."""
    data = area1851_sim_state(1)
    accepted("area1851", {"players": 3}, data)
    q = next(q for q, p in enumerate(data["snap"]["players"]) if any(p["hand"]))
    t = next(t for t, c in enumerate(data["snap"]["players"][q]["hand"]) if c)
    bad = copy.deepcopy(data)
    bad["snap"]["players"][q]["kept"][t] = 1
    refused("area1851", {"players": 3}, bad, f"state.snap.players[{q}].kept")


@pytest.mark.parametrize("seed", range(6))
def test_area1851_swapped_player_blocks_are_refused_or_consistent(seed):
    """Issue 27: two seats' blocks swapped were accepted with no knowledge violation, yet determinize(1)
    raised (16 of 710 accepted fuzz documents). Now such a document is refused, or every seat can be
    determinized to a world that looks the same to it."""
    options = {"players": 3}
    data = area1851_sim_state(seed)
    bad = copy.deepcopy(data)
    bad["players"][0], bad["players"][1] = bad["players"][1], bad["players"][0]
    for backend in backends("area1851"):
        game = aiplay.load("area1851", backend=backend, **options)
        try:
            state = game.state_from_dict(bad)
        except InvalidStateError as exc:
            assert exc.field.startswith("state.players"), exc
            continue
        for p in range(3):
            assert state.knowledge_violations(p) == []
            world = state.determinize(p, random.Random(p))
            assert world.view(p) == state.view(p)


def test_area1851_a_seat_that_has_not_acted_matches_its_snapshot():
    data = reached("area1851", {"players": 3}, 3, lambda d: d["snap"] is not None and d["actor"] == 0
                   and d["players"][2]["score"] == d["snap"]["players"][2]["score"])
    bad = copy.deepcopy(data)
    bad["players"][2]["score"] += 1
    bad["snap"]["players"][2]["score"] += 0  # the snapshot keeps the old score: seat 2 has not acted
    refused("area1851", {"players": 3}, bad, "state.players[2]")


def test_area1851_direction_must_be_an_integer_on_both_engines():
    """Found by fuzz_long (case 8222): "direction": 1.0 loaded on the reference engine, not on the native one."""
    data = reached("area1851", {"players": 2}, 4, lambda d: True)
    for value in (1.0, -1.0, True):
        bad = copy.deepcopy(data)
        bad["direction"] = value
        refused("area1851", {"players": 2}, bad, "state.direction")


def test_area51_worlds_exist_for_zeroed_known_records_with_soft_ones_left():
    """The Area 51 finding of issue 27 (tests/test_roundtrip.py's knowledge check): a document whose
    ``known`` records are all zeroed while ``soft`` ones remain passes every record -- the cards it holds
    are one world that fits them -- yet the sampler found no world: it filled the hands' start slots
    from the free cards only, and late in a game (reshuffled deck within its bound) those could not fill
    both the start slots and the deck. A soft card of a start type may stand in a start slot.
    Every such accepted position must give every seat a world, on both engines."""
    from aiplay.testing.fuzzing import check_knowledge
    options = {"players": 3}
    games = [aiplay.load("area51", backend=b, **options) for b in backends("area51")]
    rng = random.Random(0)
    state = games[0].new_initial_state()
    checked = moves = 0
    while not state.is_terminal():
        state.apply_action(sample_chance_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        moves += 1
        data = state.to_dict()
        if moves % 10 or not any(any(s) for s in data["soft"]) or not any(any(k) for k in data["known"]):
            continue
        data["known"] = [[0] * len(k) for k in data["known"]]
        loaded = []
        for g in games:
            try:
                loaded.append(g.state_from_dict(data))
            except InvalidStateError:
                pass  # more unseen cards beyond anyc than start copies left: refused
        assert len(loaded) in (0, len(games)), "the engines disagree on the document"
        if not loaded:
            continue
        for s in loaded:
            check_knowledge(s, random.Random(moves), f"{s.game.backend} after {moves} moves: ")
        checked += 1
    assert checked > 0


def test_area1851_kept_cards_outside_the_rotation_phase_are_refused():
    """Found by fuzz_long (case 14957): a kept card in the set-up deal was accepted, and the reference engine's
    determinize(0) gave a world whose view(0) differed (a world's other seats keep nothing)."""
    options = {"players": 4}
    data = reached("area1851", options, 2, lambda d: d["phase"] != "rotation" and any(any(p["hand"]) for p in
                                                                                       d["players"]))
    accepted("area1851", options, data)
    q = next(q for q, p in enumerate(data["players"]) if any(p["hand"]))
    t = next(t for t, c in enumerate(data["players"][q]["hand"]) if c)
    bad = copy.deepcopy(data)
    bad["players"][q]["kept"][t] = 1
    refused("area1851", options, bad, f"state.players[{q}].kept")


def test_area1851_kept_cards_in_the_rotation_phase_still_load():
    """The other side of the check above: a seat holding cards back mid-rotation is a position of play."""
    options = {"players": 3}
    data = reached("area1851", options, 5, lambda d: d["phase"] == "rotation" and any(any(p["kept"]) for p in
                                                                                       d["players"]))
    accepted("area1851", options, data)


def test_area1851_a_discard_in_the_phase_start_snapshot_is_refused():
    """Found by fuzz_long (case 76546): a snapshot block with disc_add set was accepted (seat 0 had acted, so
    its block was not compared to the snapshot); a native world for seat 1 gave seat 0 that block, and the
    world did not load again ("the records ask for more cards than the observer cannot see")."""
    options = {"players": 3}
    data = area1851_sim_state(1, actor_at_least=1)
    accepted("area1851", options, data)
    for key in ("disc_add", "drawn", "fdrawn"):
        bad = copy.deepcopy(data)
        if key == "disc_add":
            bad["snap"]["players"][0]["disc_add"][0] = 1
        else:
            bad["snap"]["players"][0][key] = 1
        refused("area1851", options, bad, "state.snap.players[0]")


@pytest.mark.parametrize("options, seed, field", [
    ({"players": 4, "block": 1}, 8256264211161781067, "state.players[1].kept"),
    ({"players": 2, "block": 1}, 1483454375621696049, "state.snap.players[0]"),
])
def test_area1851_fuzz_long_findings_are_refused(options, seed, field):
    """The two fuzz_long documents themselves (run seed 0 at a545013), rebuilt from their case seeds."""
    import json

    from aiplay.testing.fuzzing import case_from_seed, run_case
    case = case_from_seed("area1851", options, None, seed, max_steps=40)
    refused("area1851", options, json.loads(case.payload)["state"], field)
    assert run_case(case) == "rejected"
