"""aiplay.Match over random games of every registered game: history, undo/redo, turns, records.

The games and their option sets come from the registry (no game is named here).
"""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from aiplay.game import CHANCE, TERMINAL
from aiplay.match import Match
from aiplay.testing.cases import CONTRACT_OPTIONS
from aiplay.testing.choose import pick_variant


def _cases():
    cases = []
    for name in aiplay.games_available():
        for options in CONTRACT_OPTIONS.get(name, [{}])[:2]:
            cases.append((name, dict(options)))
    return cases


CASES = _cases()
IDS = [f"{n}-" + ",".join(f"{k}={v}" for k, v in o.items()) for n, o in CASES]


def _random_match(name, options, seed, max_plies=None):
    """A match of random moves from ``seed``; returns it and the position JSON before every move."""
    match = Match(name, seed=seed, **options)
    rng = random.Random(seed + 1)
    before = []
    while not match.is_terminal() and (max_plies is None or match.ply < max_plies):
        before.append(match.state.to_json())
        if match.current_player() == CHANCE:
            match.play_chance()
        else:
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return match, before


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_record_round_trip_replays_exactly(name, options):
    for seed in (1, 2):
        match, _ = _random_match(name, options, seed)
        assert match.is_terminal()
        text = match.to_json()
        again = Match.from_json(text)
        assert again.state.to_json() == match.state.to_json()
        assert again.history == match.history
        assert again.turn_number == match.turn_number and again.turn_owner == match.turn_owner
        assert again.to_json() == text
        assert again.state.returns() == match.state.returns()
        # Both engines read the same record.
        ref = Match.from_json(text, backend="reference")
        assert ref.state.to_json() == match.state.to_json()


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_undo_walks_back_through_every_position_and_redo_replays(name, options):
    match, before = _random_match(name, options, 5)
    final = match.state.to_json()
    history = match.history
    assert len(before) == match.ply == len(history)
    for i in range(len(before) - 1, -1, -1):
        undone = match.undo()
        assert undone == [history[i]]
        assert match.state.to_json() == before[i]
        assert match.ply == i
    assert not match.can_undo()
    assert match.turn_number == 0 and match.turn_owner is None
    match.redo(len(history))
    assert match.state.to_json() == final
    assert match.history == history
    assert not match.can_redo()


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_turns_follow_the_seat_rule(name, options):
    match, _ = _random_match(name, options, 9)
    owner, turn = None, 0
    for move in match.history:
        if move.player != CHANCE:
            assert move.player >= 0
            if move.player != owner:
                turn += 1
                owner = move.player
        assert move.turn == turn
        assert move.name == move.name.strip() and move.name
    assert match.turn_number == turn and match.turn_owner == owner
    assert match.move_number == sum(1 for m in match.history if m.player != CHANCE)
    assert match.turn_ended  # the game is over
    # Replaying step by step: turn_ended is True exactly when the next seat differs from the owner.
    replay = Match(name, **options)
    for move in match.history:
        replay.apply(move.action)
        nxt = replay.current_player()
        expected = replay.turn_owner is not None and (
            nxt == TERMINAL or (nxt != CHANCE and nxt != replay.turn_owner))
        assert replay.turn_ended == expected


@pytest.mark.parametrize("name,options", CASES, ids=IDS)
def test_random_undo_redo_apply_interleavings_stay_consistent(name, options):
    rng = random.Random(11)
    match = Match(name, seed=3, **options)
    for step in range(300):
        r = rng.random()
        if r < 0.15 and match.can_undo():
            match.undo(rng.randint(1, min(3, match.ply)))
        elif r < 0.25 and match.can_redo():
            match.redo()
        elif not match.is_terminal():
            if match.current_player() == CHANCE:
                match.play_chance()
            else:
                legal = match.state.legal_actions()
                # By name half the time: names are what a person types.
                action = legal[rng.randrange(len(legal))]
                match.apply(match.state.action_to_string(action) if rng.random() < 0.5 else action)
        if step % 25 != 24:
            continue
        # The live position is always the replay of the history.
        replay = Match(name, **options)
        for move in match.history:
            replay.apply(move.action)
        assert replay.state.to_json() == match.state.to_json()
        assert replay.turn_number == match.turn_number


@pytest.mark.parametrize("name,options", CASES[:1] + CASES[-1:])
def test_bad_requests_change_nothing(name, options):
    match, _ = _random_match(name, options, 4, max_plies=6)
    snapshot = (match.to_json(), match.can_redo())
    for bad in (-1, 10 ** 9, "no such move", 1.5, None, True):
        with pytest.raises(IllegalActionError):
            match.apply(bad)
    with pytest.raises(InvalidOptionError):
        match.undo(match.ply + 1)
    with pytest.raises(InvalidOptionError):
        match.undo(0)
    with pytest.raises(InvalidOptionError):
        match.redo()
    assert (match.to_json(), match.can_redo()) == snapshot


@pytest.mark.parametrize("name,options", CASES[:1] + CASES[-1:])
def test_tampered_records_are_refused(name, options):
    match, _ = _random_match(name, options, 6, max_plies=20)
    record = match.to_record()
    bad = json.loads(json.dumps(record))
    bad["moves"][-1]["name"] = "not the name"
    with pytest.raises(InvalidStateError, match="name"):
        Match.from_record(bad)
    bad = json.loads(json.dumps(record))
    bad["moves"][0]["action"] = 10 ** 6
    with pytest.raises(InvalidStateError, match=r"moves\[0\]"):
        Match.from_record(bad)
    bad = json.loads(json.dumps(record))
    bad["moves"] = bad["moves"][:-1]
    with pytest.raises(InvalidStateError, match="final"):
        Match.from_record(bad)
    for text in ("", "[]", '{"format": "x"}', "{" * 10000):
        with pytest.raises(InvalidStateError):
            Match.from_json(text)


def test_loaded_record_draws_the_same_chance_as_the_original():
    for name in aiplay.games_available():
        options = CONTRACT_OPTIONS.get(name, [{}])[0]
        match, _ = _random_match(name, options, 8, max_plies=10)
        loaded = Match.from_json(match.to_json())
        for m in (match, loaded):
            aiplay.play_out(m.state, m.rng)  # the matches' own generators draw the rest
        assert match.state.to_json() == loaded.state.to_json(), name


def test_undo_decision_takes_back_the_bots_replies_too():
    for name in aiplay.games_available():
        options = CONTRACT_OPTIONS.get(name, [{}])[0]
        match, _ = _random_match(name, options, 12, max_plies=30)
        decisions = [m for m in match.history if m.player != CHANCE]
        if not decisions:
            continue
        seat = decisions[0].player
        last = max(m.ply for m in match.history if m.player == seat)
        match.undo_decision(seat)
        assert match.ply == last
        assert match.current_player() == seat


def test_perfect_information_games_show_every_move_to_every_seat():
    name, options = pick_variant(perfect_information=True, chance=True, short=True)
    match = aiplay.Match(name, seed=1, **options)
    match.advance_chance()
    match.apply(match.state.legal_actions()[0])
    match.advance_chance()
    assert match.history_seen_by(1) == match.history
