"""Only what the seat knew: two games a seat cannot tell apart get the same review of its decisions.

For every variant of every game with hidden information (:func:`aiplay.testing.choose.variants_with`,
no game named here) and every seat ``p``: twin games A and B are played side by side, B taking
another move than A where ``p`` cannot see the difference (``p``'s information-state key and view
stay equal after every move, as in :mod:`aiplay.testing.contract`'s twins). Then ``review(A, p)``
and ``review(B, p)`` must be the same, byte for byte: values, losses, labels, best moves, lines.
A review that read the true deal, or a move ``p`` did not see, would tell them apart.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any, Dict, List, Tuple

import pytest

import aiplay
from aiplay.match import Match
from aiplay.protocol import Server
from aiplay.testing.choose import variants_with

#: The most moves of one twin pair, and the search per decision (small: only equality matters).
PLIES = 200
BUDGET = 60
SEEDS = 16
#: How often B takes another move than A where one fits (lower: longer twin pairs, fewer differences).
SWAP_RATE = 0.3

CASES = [pytest.param(name, options, id=f"{name}-" + (",".join(f"{k}={v}" for k, v in options.items()) or "default"))
         for name, options in variants_with(perfect_information=False)]


def twins(game: aiplay.Game, viewer: int, seed: int) -> Tuple[List[int], List[int]]:
    """The moves of twin games A and B for ``viewer``: B swaps in a move ``viewer`` cannot tell apart."""
    rng, b_rng = random.Random(f"review-a-{seed}-{viewer}"), random.Random(f"review-b-{seed}-{viewer}")
    a, b = game.new_initial_state(), game.new_initial_state()
    moves_a: List[int] = []
    moves_b: List[int] = []
    for _ in range(PLIES):
        if a.is_terminal():
            break
        legal = [x for x, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions()
        action_a = rng.choice(legal)
        after_a = a.clone()
        after_a.apply_action(action_a)
        key, view = after_a.information_state_key(viewer), after_a.view(viewer)
        # The seat's own moves are the same in both: its review is of the moves it played.
        others = [] if a.current_player() == viewer else [x for x in b.legal_actions() if x != action_a]
        b_rng.shuffle(others)
        order = others + [action_a] if b_rng.random() < SWAP_RATE else [action_a] + others
        chosen = None
        for action_b in order:
            if action_b not in b.legal_actions():
                continue
            trial = b.clone()
            trial.apply_action(action_b)
            if trial.information_state_key(viewer) == key and trial.view(viewer) == view \
                    and trial.returns() == after_a.returns():
                chosen = (action_b, trial)
                break
        if chosen is None:
            break
        moves_a.append(action_a)
        moves_b.append(chosen[0])
        a, b = after_a, chosen[1]
    return moves_a, moves_b


def _match(game: aiplay.Game, moves: List[int]) -> Match:
    match = Match(game)
    for action in moves:
        match.apply(action)
    return match


def _differing_decisions(game: aiplay.Game, viewer: int, moves_a: List[int], moves_b: List[int]) -> int:
    """How many of ``viewer``'s reviewed decisions (a choice) stand in true positions that differ in A and B."""
    a, b = game.new_initial_state(), game.new_initial_state()
    count = 0
    for action_a, action_b in zip(moves_a, moves_b):
        if a.current_player() == viewer and len(a.legal_actions()) > 1 and a.to_json() != b.to_json():
            count += 1
        a.apply_action(action_a)
        b.apply_action(action_b)
    return count


@pytest.mark.parametrize("reuse", [False, True], ids=["fresh", "reuse"])
@pytest.mark.parametrize("name,options", CASES)
def test_twin_games_get_the_same_review(name: str, options: Dict[str, Any], reuse: bool) -> None:
    """``reuse``: one tree kept from decision to decision (re-rooted by the seat's own key) leaks nothing either."""
    game = aiplay.load(name, **options)
    proved = 0  # twin pairs that differ and gave decisions to review
    for viewer in range(game.num_players):
        for seed in range(SEEDS):
            moves_a, moves_b = twins(game, viewer, seed)
            if moves_a == moves_b:
                continue  # no hidden difference in this pair: try another seed
            a = _match(game, moves_a).review(viewer, budget=BUDGET, seed=seed, reuse=reuse).to_dict()
            b = _match(game, moves_b).review(viewer, budget=BUDGET, seed=seed, reuse=reuse).to_dict()
            assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (
                f"seat {viewer} cannot tell the twins of seed {seed} apart, but their reviews differ")
            if _differing_decisions(game, viewer, moves_a, moves_b):
                proved += 1
                break  # this seat is proved: on to the next
    assert proved, ("no twin pair whose true positions differ at a decision the seat has a choice at: "
                    "the test would prove nothing")


def _past_pictures(game: aiplay.Game, moves: List[int], viewer: int, plies: List[int]) -> List[Dict[str, Any]]:
    """The protocol's ``view`` of each past position in ``plies`` (svg, panel, view), as ``viewer`` asks it."""
    out: List[Dict[str, Any]] = []
    server = Server(out.append)
    server.handle_line(json.dumps({"cmd": "load", "record": _match(game, moves).to_record(), "viewer": viewer}))
    assert out[-1]["ok"], out[-1]
    game_id = out[-1]["game_id"]
    pictures = []
    for ply in plies:
        server.handle_line(json.dumps({"cmd": "view", "game_id": game_id, "player": viewer, "ply": ply,
                                       "render": "svg", "panel": True}))
        reply = out[-1]
        assert reply["ok"] and reply["ply"] == ply, reply
        pictures.append({k: reply.get(k) for k in ("view", "svg", "targets", "panel", "since_ply", "ply")})
    return pictures


@pytest.mark.parametrize("name,options", CASES)
def test_twin_games_show_the_same_past_pictures(name: str, options: Dict[str, Any]) -> None:
    """The coach's board of a past decision (``view`` with ``ply``) is the seat's picture then: twins agree."""
    game = aiplay.load(name, **options)
    proved = 0
    for viewer in range(game.num_players):
        for seed in range(SEEDS):
            moves_a, moves_b = twins(game, viewer, seed)
            if moves_a == moves_b:
                continue
            state = game.new_initial_state()
            plies, differ = [], False
            b = game.new_initial_state()
            for ply, (action_a, action_b) in enumerate(zip(moves_a, moves_b)):
                if state.current_player() == viewer:
                    plies.append(ply)
                    differ = differ or state.to_json() != b.to_json()
                state.apply_action(action_a)
                b.apply_action(action_b)
            plies.append(len(moves_a))  # the position now, asked for by its ply
            a_pics = _past_pictures(game, moves_a, viewer, plies)
            b_pics = _past_pictures(game, moves_b, viewer, plies)
            assert json.dumps(a_pics, sort_keys=True) == json.dumps(b_pics, sort_keys=True), (
                f"seat {viewer} cannot tell the twins of seed {seed} apart, but a past picture differs")
            if differ:
                proved += 1
                break
    assert proved, "no twin pair whose true positions differ at one of the seat's decisions"


def _protocol_review(game: aiplay.Game, moves: List[int], viewer: int, seed: int) -> Dict[str, Any]:
    """The protocol's ``review`` reply (the review and its moves' meanings) for ``viewer``'s own seat."""
    out: List[Dict[str, Any]] = []
    done = threading.Event()

    def emit(obj: Dict[str, Any]) -> None:
        out.append(obj)
        if obj.get("cmd") == "review" and obj.get("type") == "reply":
            done.set()

    server = Server(emit)
    server.handle_line(json.dumps({"cmd": "load", "record": _match(game, moves).to_record(), "viewer": viewer}))
    server.handle_line(json.dumps({"cmd": "review", "iterations": BUDGET, "seed": seed}))
    assert done.wait(120)
    reply = [o for o in out if o.get("cmd") == "review" and o.get("type") == "reply"][0]
    assert reply["ok"], reply
    assert len(reply["meanings"]) == len(reply["review"]["decisions"])
    return {"review": reply["review"], "meanings": reply["meanings"]}


@pytest.mark.parametrize("name,options", CASES)
def test_twin_games_get_the_same_review_and_meanings_through_the_protocol(name: str, options: Dict[str, Any]) -> None:
    game = aiplay.load(name, **options)
    proved = 0
    for viewer in range(game.num_players):
        for seed in range(SEEDS):
            moves_a, moves_b = twins(game, viewer, seed)
            if moves_a == moves_b or not _differing_decisions(game, viewer, moves_a, moves_b):
                continue
            a = _protocol_review(game, moves_a, viewer, seed)
            b = _protocol_review(game, moves_b, viewer, seed)
            assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (
                f"seat {viewer} cannot tell the twins of seed {seed} apart, but the protocol's reviews differ")
            proved += 1
            break
    assert proved, "no twin pair whose true positions differ at one of the seat's decisions"
