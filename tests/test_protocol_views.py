"""Names in views: Area 51's view gives its cards, regions, vehicles and owners by name beside the ids."""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay.registry import has_native

BACKENDS = ["reference"] + (["native"] if has_native("area51") else [])


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
            names = view["names"]
            types = names["card_types"]
            assert len(types) == len(view["hand"]) and len(set(types)) == len(types)
            named = lambda counts: {types[t]: c for t, c in enumerate(counts) if c}  # noqa: E731
            assert names["hand"] == named(view["hand"])
            assert names["row"] == named(view["row"])
            assert names["discards"] == named(view["discards"])
            assert names["pile"] == named(view["pile"])
            assert names["known"] == [named(k) for k in view["known"]]
            for reg_ids, reg_names in zip(view["hangars"], names["hangars"]):
                for pile_ids, pile_names in zip(reg_ids, reg_names):
                    # A hidden card stays hidden by name too.
                    assert [None if t is None else types[t] for t, _, _ in pile_ids] == pile_names
                    seen_hangar |= bool(pile_names)
            for reg_ids, reg_names in zip(view["spaces"], names["bunkers"]):
                assert [b is None for b in reg_ids] == [b is None for b in reg_names]
            assert [v is None for v in view["vehicles"]] == [v is None for v in names["vehicles"]]
            seen_hand |= bool(names["hand"])
    assert seen_hand and seen_hangar


def test_area51_names_reveal_nothing_the_ids_hide():
    """Two states one seat cannot tell apart give that seat the same named view."""
    game = aiplay.load("area51", backend="reference", players=3)
    state = aiplay.play_out(game.new_initial_state(), random.Random(5), max_steps=150)
    for observer in range(3):
        world = state.determinize(observer, random.Random(observer))
        assert world.view(observer)["names"] == state.view(observer)["names"]
