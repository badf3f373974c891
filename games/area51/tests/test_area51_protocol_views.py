"""Names in views: Area 51's readable view says by name what its engine part says by type id.

Moved from ``tests/test_protocol_views.py`` (this game's card and region names).
"""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay.games.area51.components import ROUTES, region_name, type_name
from aiplay.registry import has_native

BACKENDS = ["reference"] + (["native"] if has_native("area51") else [])


def named(counts):
    return {type_name(t): c for t, c in enumerate(counts) if c}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("players", [2, 4])
def test_area51_view_names_match_the_ids(backend, players):
    game = aiplay.load("area51", backend=backend, players=players)
    state = game.new_initial_state()
    rng = random.Random(players)
    seen_hand = seen_hangar = False
    for step, position in enumerate(aiplay.random_walk(state, rng)):
        if step % 37:
            continue
        for p in range(players):
            view = position.view(p)
            json.dumps(view)  # JSON-ready
            ids = view["internal"]
            assert view["seats"][p]["hand"] == named(ids["hand"])
            assert view["row"] == named(ids["row"])
            assert view["discards"] == named(ids["discards"])
            assert view["picked_up"] == named(ids["pile"])
            assert [s["known_in_hand"] for s in view["seats"]] == [named(k) for k in ids["known"]]
            assert [s["hand_size"] for s in view["seats"]] == ids["hand_sizes"]
            for region, reg_ids in zip(view["regions"], ids["hangars"]):
                for pile, pile_ids in zip(region["hangars"], reg_ids):
                    # A hidden card stays hidden by name too.
                    assert [c["card"] for c in pile] == [None if t is None else type_name(t) for t, _, _ in pile_ids]
                    assert [(c["face_up"], c["played_by"]) for c in pile] == [(bool(u), b) for _, u, b in pile_ids]
                    seen_hangar |= bool(pile)
            for region, reg_ids in zip(view["regions"], ids["spaces"]):
                assert [b is None for b in region["bunkers"]] == [b is None for b in reg_ids]
                assert [b["level"] for b in region["bunkers"] if b] == [b[2] for b in reg_ids if b]
            for vehicle, v_ids in zip(view["vehicles"], ids["vehicles"]):
                assert vehicle["route"] == (None if v_ids is None else [region_name(r) for r in ROUTES[v_ids[0]]])
            seen_hand |= bool(view["seats"][p]["hand"])
    assert seen_hand and seen_hangar


def test_area51_names_reveal_nothing_the_ids_hide():
    """Two states one seat cannot tell apart give that seat the same named view."""
    game = aiplay.load("area51", backend="reference", players=3)
    state = aiplay.play_out(game.new_initial_state(), random.Random(5), max_steps=150)
    for observer in range(3):
        world = state.determinize(observer, random.Random(observer))
        assert world.view(observer) == state.view(observer)
