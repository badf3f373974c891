"""The games' SVG pictures (issue 23): well-formed for every state and viewer, blind to what the
viewer cannot know, and the legal-move mapping names only elements the picture draws."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, Optional, Set

import pytest

import aiplay
from aiplay import svg as S
from aiplay.errors import InvalidOptionError, InvalidPlayerError
from aiplay.simulate import random_action, random_walk

#: (game, options, seeds): whole seeded random games (Area 51's turn cap keeps its games short).
CASES = [
    ("template", {"players": 3, "goal": 8}, (1, 2)),
    ("sunken_city", {"players": 3}, (1,)),
    ("sunken_city", {"players": 2}, (2,)),
    ("area51", {"players": 3, "max_turns": 30}, (1,)),
    ("area51", {"players": 2, "max_turns": 24}, (2,)),
    ("area1851", {"players": 2, "block": 1}, (1,)),
    ("area1851", {"players": 4, "block": 1}, (2,)),
    ("groom_lake", {"players": 3}, (1,)),
    ("groom_lake", {"players": 5, "half_win": True}, (2,)),
]
IDS = [f"{name}-{'-'.join(f'{k}{v}' for k, v in opts.items())}" for name, opts, _ in CASES]


def _targets(document: str) -> Set[str]:
    """The ``data-target`` ids of a picture, read by an XML parser (which also proves it well-formed)."""
    root = ET.fromstring(document)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return {el.get("data-target") for el in root.iter() if el.get("data-target") is not None}  # type: ignore[misc]


def _reference(state: Any) -> Any:
    return state.to_reference() if hasattr(state, "to_reference") else state


@pytest.mark.parametrize("name,options,seeds", CASES, ids=IDS)
def test_every_state_and_viewer_parses_and_the_move_map_names_drawn_elements(name, options, seeds):
    game = aiplay.load(name, **options)
    module = S.svg_module(game.new_initial_state())
    assert module is not None
    seats = list(range(game.num_players))
    decisions = placed = 0
    for seed in seeds:
        for state in random_walk(game.new_initial_state(), random.Random(seed)):
            drawn: Dict[Optional[int], Set[str]] = {v: _targets(S.svg(state, v)) for v in [None] + seats}
            if state.is_terminal() or state.is_chance_node():
                assert S.legal_moves_on_svg(state) == {}
                continue
            decisions += 1
            player = state.current_player()
            raw = module.move_targets(_reference(state))
            assert sorted(raw) == sorted(state.legal_actions())
            for action, ids in raw.items():
                # The acting seat's picture and the omniscient one draw every element its moves touch.
                missing = [t for t in ids if t not in drawn[None] or t not in drawn[player]]
                assert not missing, (f"{name}: action {state.action_to_string(action)} names {missing}, "
                                     f"not drawn for seat {player}")
            mapping = S.legal_moves_on_svg(state, player)
            assert mapping == raw
            placed += any(mapping.values())
            other = (player + 1) % game.num_players
            for action, ids in S.legal_moves_on_svg(state, other).items():
                assert set(ids) <= drawn[other] and set(ids) <= set(raw[action])
    # Most decisions of these games have a place on the board.
    assert decisions and placed >= decisions // 2, (placed, decisions)


@pytest.mark.parametrize("name,options,seeds", [c for c in CASES if c[0] != "sunken_city"],
                         ids=[i for i, c in zip(IDS, CASES) if c[0] != "sunken_city"])
def test_twins_the_viewer_cannot_tell_apart_give_the_same_picture(name, options, seeds):
    game = aiplay.load(name, **options)
    rng = random.Random(11)
    compared = differed = 0
    for seed in seeds:
        for step, state in enumerate(random_walk(game.new_initial_state(), random.Random(seed))):
            if step % 3:
                continue
            for viewer in range(game.num_players):
                twin = state.determinize(viewer, rng)
                assert S.svg(twin, viewer) == S.svg(state, viewer), f"{name} step {step}: seat {viewer} sees a difference"
                compared += 1
                differed += S.svg(twin, None) != S.svg(state, None)
    # The twins really hid something: the omniscient pictures of some pairs differ.
    assert compared and differed, (compared, differed)


@pytest.mark.parametrize("name,options", [("area51", {"players": 3, "max_turns": 30}),
                                          ("area1851", {"players": 2, "block": 1}),
                                          ("groom_lake", {"players": 3}), ("sunken_city", {"players": 2}),
                                          ("template", {})])
def test_both_engines_draw_the_same_picture(name, options):
    native = aiplay.load(name, backend="native", **options)
    reference = aiplay.load(name, backend="reference", **options)
    a, b = native.new_initial_state(), reference.new_initial_state()
    assert type(a) is not type(b)
    rng = random.Random(5)
    for step in range(150):
        if step % 7 == 0:
            for viewer in [None] + list(range(native.num_players)):
                assert S.svg(a, viewer) == S.svg(b, viewer)
            assert S.legal_moves_on_svg(a, None) == S.legal_moves_on_svg(b, None)
        if a.is_terminal():
            break
        action = random_action(a, rng)
        a.apply_action(action)
        b.apply_action(action)


def test_hidden_cards_are_not_in_another_seats_picture():
    """Area 51: a seat's hand shows by name to itself and as backs to the others."""
    game = aiplay.load("area51", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(aiplay.game.sample_chance_outcome(state, rng))
    ref = _reference(state)
    own = _targets(S.svg(state, 0))
    other = _targets(S.svg(state, 1))
    hand = [f"p0-hand-t{t}" for t, c in enumerate(ref.hands[0]) if c]
    assert hand and set(hand) <= own and not set(hand) & other


def test_bad_input_is_refused():
    state = aiplay.load("groom_lake", players=3).new_initial_state()
    for viewer in (3, -1, True, "0", 1.0):
        with pytest.raises(InvalidPlayerError):
            S.svg(state, viewer)
        with pytest.raises(InvalidPlayerError):
            S.legal_moves_on_svg(state, viewer)
    poker = aiplay.load("kuhn_poker").new_initial_state()
    assert S.svg_module(poker) is None
    with pytest.raises(InvalidOptionError, match="no SVG"):
        S.svg(poker)


def test_text_is_escaped():
    d = S.Drawing(100, 50, 'a <b> & "c"')
    d.text(1, 2, "x < y & z", target='t"1')
    d.card_back(0, 0, 10, 10, tip="<hidden>")
    root = ET.fromstring(d.to_string())
    texts = [el.text for el in root.iter() if el.text]
    assert 'a <b> & "c"' in texts and "x < y & z" in texts and "<hidden>" in texts
    assert _targets(d.to_string()) == {'t"1'}
