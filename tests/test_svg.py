"""The games' SVG pictures (issue 23): well-formed for every state and viewer, blind to what the
viewer cannot know, and the legal-move mapping names only elements the picture draws."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, Optional, Set

import pytest

import aiplay
from aiplay.views import svg as S
from aiplay.errors import InvalidOptionError, InvalidPlayerError
from aiplay.testing.simulate import random_action, random_walk

#: (game, options, seeds): whole seeded random games (Area 51's turn cap keeps its games short).
CASES = [
    ("template", {"players": 3, "goal": 8}, (1, 2)),
    ("sunken_city", {"players": 3}, (1,)),
    ("sunken_city", {"players": 2}, (2,)),
    ("area51", {"players": 3, "max_turns": 30}, (1,)),
    ("area51", {"players": 2, "max_turns": 24}, (2,)),
    ("area1851", {"players": 2, "block": 1}, (1,)),
    ("area1851", {"players": 3, "block": 1}, (2,)),
    ("groom_lake", {"players": 3}, (1,)),
    ("groom_lake", {"players": 5, "half_win": True}, (2,)),
]
IDS = [f"{name}-{'-'.join(f'{k}{v}' for k, v in opts.items())}" for name, opts, _ in CASES]


def _targets(document: str) -> Set[str]:
    """The ``data-target`` ids of a picture, read by an XML parser (which also proves it well-formed)."""
    root = ET.fromstring(document)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    found = [el for el in root.iter() if el.get("data-target") is not None]
    for el in found:  # no target inside another: a click means one element
        inner = [sub.get("data-target") for sub in el.iter() if sub is not el and sub.get("data-target") is not None]
        assert not inner, (el.get("data-target"), inner)
    return {el.get("data-target") for el in found}  # type: ignore[misc]


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
            # Another seat has nothing to click (and must not learn the acting seat's options).
            assert S.legal_moves_on_svg(state, (player + 1) % game.num_players) == {}
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
            if step % 4:
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


def _mid_game(name: str, options: Dict[str, Any], steps: int, seed: int = 4) -> Any:
    state = aiplay.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply_action(random_action(state, rng))
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    return state


def test_render_command_writes_the_picture_and_the_move_map(tmp_path, capsys):
    from aiplay.cli import main

    state = _mid_game("area51", {"players": 3}, 120)
    position = tmp_path / "position.json"
    position.write_text(state.to_json())
    out, moves = tmp_path / "board.svg", tmp_path / "moves.json"
    seat = state.current_player()
    code = main(["render", "area51", str(position), "--viewer", str(seat), "--out", str(out),
                 "--targets", str(moves)])
    assert code == 0 and "wrote" in capsys.readouterr().out
    assert out.read_text().strip() == S.svg(state, seat)
    drawn = _targets(out.read_text())
    mapping = json.loads(moves.read_text())
    assert sorted(int(a) for a in mapping) == sorted(state.legal_actions())
    for action, entry in mapping.items():
        assert entry["name"] == state.action_to_string(int(action)) and set(entry["targets"]) <= drawn
    # To standard output, omniscient.
    assert main(["render", "area51", str(position)]) == 0
    assert capsys.readouterr().out.strip() == S.svg(state, None)
    # Bad input: another game's name, a viewer that is no seat, a missing file.
    for argv in (["render", "groom_lake", str(position)], ["render", "area51", str(position), "--viewer", "x"],
                 ["render", "area51", str(position), "--viewer", "7"], ["render", "area51", str(tmp_path / "no.json")]):
        assert main(argv) == 2
        assert "aiplay: error:" in capsys.readouterr().err


@pytest.mark.parametrize("name,options", [("area51", {"players": 3}), ("area1851", {"players": 3}),
                                          ("groom_lake", {"players": 4}), ("sunken_city", {"players": 2})])
def test_protocol_view_renders_the_svg_for_the_seat(name, options):
    from aiplay.protocol import Server

    replies = []
    server = Server(replies.append)
    state = _mid_game(name, options, 60)
    for seat in range(state.game.num_players):
        # A client that shows one seat: the picture is that seat's, and so are the clickable targets.
        server.handle_line(json.dumps({"id": 1, "cmd": "new", "game": name, "options": options, "viewer": seat,
                                       "state": json.loads(state.to_json())}))
        assert replies[-1]["ok"], replies[-1]
        game_id = replies[-1]["game_id"]
        server.handle_line(json.dumps({"id": 2, "cmd": "view", "game_id": game_id, "render": "svg"}))
        assert replies[-1]["ok"], replies[-1]
        assert replies[-1]["svg"] == S.svg(state, seat)
        expected = {str(a): ids for a, ids in S.legal_moves_on_svg(state, seat).items()}
        assert replies[-1]["targets"] == expected
        assert bool(expected) == (state.current_player() == seat)


def test_roles_and_feats_show_only_to_their_owner():
    """Groom Lake: a role is drawn for its seat only; Area 1851: face-down feats by name for their owner only."""
    state = _mid_game("groom_lake", {"players": 3}, 40)
    ref = _reference(state)
    alien = ref.roles.index(1)
    human = (alien + 1) % 3
    assert f"Player {alien} (you): Alien" in S.svg(state, alien)
    assert f"Player {alien}: Alien" not in S.svg(state, human) and f"Player {alien}: role ?" in S.svg(state, human)
    assert f"Player {alien}: Alien" in S.svg(state, None)

    state = _mid_game("area1851", {"players": 3}, 60)
    ref = _reference(state)
    owner = next(p for p in range(3) if any(ref.players[p].down))
    ids = {f"p{owner}-feat-f{f}" for f, c in enumerate(ref.players[owner].down) if c}
    assert ids <= _targets(S.svg(state, owner)) and ids <= _targets(S.svg(state, None))
    assert not ids & _targets(S.svg(state, (owner + 1) % 3))
