"""The games' SVG pictures (issue 23): well-formed for every state and viewer, blind to what the
viewer cannot know, and the legal-move mapping names only elements the picture draws."""

from __future__ import annotations

import json
import random
import time
import xml.etree.ElementTree as ET
from typing import Any, Dict, Optional, Set

import pytest

import aiplay
from aiplay.views import svg as S
from aiplay.errors import InvalidOptionError, InvalidPlayerError
from aiplay.testing.choose import games_with, pick_game, pick_options, pick_variant, variants_with
from aiplay.testing.pictures import check_every_picture, check_marks_look_alike, check_twins_look_alike, targets as _targets
from aiplay.testing.simulate import random_action

#: Chosen by property: the short games that draw pictures (whole games are checked here; each board game's
#: own tests run the checks on option sets that keep its games short), and per game that draws pictures
#: its first option set.
SHORT = variants_with(svg=True, short=True)
SHORT_IDS = [f"{name}-{'-'.join(f'{k}{v}' for k, v in opts.items())}" for name, opts in SHORT]
PICTURED = [(name, pick_options(name, svg=True)) for name in games_with(svg=True)]
LISTED = [(name, options) for name, options in PICTURED if name in games_with(svg=True, listed=True)]


@pytest.mark.parametrize("name,options", SHORT, ids=SHORT_IDS)
def test_every_state_and_viewer_parses_and_the_move_map_names_drawn_elements(name, options):
    check_every_picture(name, options, (1, 2))


@pytest.mark.parametrize("name,options", [v for v in SHORT if not aiplay.load(v[0], **v[1]).perfect_information],
                         ids=[i for v, i in zip(SHORT, SHORT_IDS) if not aiplay.load(v[0], **v[1]).perfect_information])
def test_twins_the_viewer_cannot_tell_apart_give_the_same_picture(name, options):
    check_twins_look_alike(name, options, (1, 2))

@pytest.mark.parametrize("name,options", [(n, o) for n, o in PICTURED if n in games_with(svg=True, native=True)])
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


def test_bad_input_is_refused():
    name, options = pick_variant(svg=True, perfect_information=False, players=3)
    state = aiplay.load(name, **options).new_initial_state()
    for viewer in (3, -1, True, "0", 1.0):
        with pytest.raises(InvalidPlayerError):
            S.svg(state, viewer)
        with pytest.raises(InvalidPlayerError):
            S.legal_moves_on_svg(state, viewer)
    poker = aiplay.load(pick_game(svg=False)).new_initial_state()
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


#: A listed game for three that draws pictures, for ``aiplay render``.
RENDERED = pick_variant(svg=True, listed=True, players=3)


def test_render_command_writes_the_picture_and_the_move_map(tmp_path, capsys):
    from aiplay.cli import main

    name, options = RENDERED
    state = _mid_game(name, options, 120)
    position = tmp_path / "position.json"
    position.write_text(state.to_json())
    out, moves = tmp_path / "board.svg", tmp_path / "moves.json"
    seat = state.current_player()
    code = main(["render", name, str(position), "--viewer", str(seat), "--out", str(out),
                 "--targets", str(moves)])
    assert code == 0 and "wrote" in capsys.readouterr().out
    assert out.read_text().strip() == S.svg(state, seat)
    drawn = _targets(out.read_text())
    mapping = json.loads(moves.read_text())
    assert sorted(int(a) for a in mapping) == sorted(state.legal_actions())
    for action, entry in mapping.items():
        assert entry["name"] == state.action_to_string(int(action)) and set(entry["targets"]) <= drawn
    # To standard output, omniscient.
    assert main(["render", name, str(position)]) == 0
    assert capsys.readouterr().out.strip() == S.svg(state, None)
    # Bad input: another game's name, a viewer that is no seat, a missing file.
    other = [n for n, _ in LISTED if n != name][0]
    for argv in (["render", other, str(position)], ["render", name, str(position), "--viewer", "x"],
                 ["render", name, str(position), "--viewer", "7"], ["render", name, str(tmp_path / "no.json")]):
        assert main(argv) == 2
        assert "aiplay: error:" in capsys.readouterr().err


@pytest.mark.parametrize("name,options", LISTED)
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


@pytest.mark.parametrize("name,options", [v for v in SHORT if not aiplay.load(v[0], **v[1]).perfect_information],
                         ids=[i for v, i in zip(SHORT, SHORT_IDS) if not aiplay.load(v[0], **v[1]).perfect_information])
def test_twins_get_the_same_last_move_marks(name, options):
    # Marks compare two pictures the seat may see, so twins (now and at the earlier position) agree.
    assert check_marks_look_alike(name, options, (1,)) > 0


@pytest.mark.parametrize("name,options", PICTURED)
def test_the_last_move_marks_what_it_changed(name, options):
    game = aiplay.load(name, **options)
    rng = random.Random(7)
    state = game.new_initial_state()
    marked = moves = 0
    while not state.is_terminal() and moves < 80:
        before = state.clone()
        state.apply_action(random_action(state, rng))
        moves += 1
        for viewer in [None] + list(range(game.num_players)):
            plain, marks = S.svg(state, viewer), S.svg(state, viewer, since=before)
            changed = S.changed_ids(S.svg(before, viewer), plain)
            # Marking adds the attribute to the changed elements and a style; nothing else differs.
            assert marks.replace(' data-changed="1"', "").replace(S.CHANGED_STYLE + "\n", "") == plain
            for attr, ident in changed:
                assert f'{attr}="{ident}" data-changed="1"' in marks
            assert (marks == plain) == (not changed)
            marked += bool(changed)
        # Against the position itself nothing changed.
        assert S.svg(state, 0, since=state) == S.svg(state, 0)
    assert marked > moves // 2, (marked, moves)


def test_since_must_be_a_state_of_the_same_game():
    name, options = pick_variant(svg=True, perfect_information=False, players=3)
    state = aiplay.load(name, **options).new_initial_state()
    other = aiplay.load(name, **{**options, "players": 2}).new_initial_state()
    for since in ("earlier", 3, other):
        with pytest.raises(InvalidOptionError, match="since"):
            S.svg(state, 0, since=since)


def test_protocol_view_marks_the_last_move_or_since_a_ply():
    from aiplay.protocol import Server

    name, options = pick_variant(svg=True, perfect_information=False, players=3)
    replies = []
    server = Server(replies.append)

    def ask(**request):
        server.handle_line(json.dumps({"id": 1, **request}))
        return replies[-1]

    new = ask(cmd="new", game=name, options=options, seed=3, auto_chance=True, viewer=0)
    game_id = new["game_id"]
    assert "since_ply" not in ask(cmd="view", game_id=game_id, render="svg")  # nothing played yet
    rng = random.Random(2)
    for _ in range(12):
        status = ask(cmd="status", game_id=game_id)
        if status["terminal"]:
            break
        if status["to_move"] == 0:
            legal = ask(cmd="legal", game_id=game_id)["actions"]
            ask(cmd="apply", game_id=game_id, action=rng.choice(legal)["id"])
        else:
            start = len(replies)
            server.handle_line(json.dumps({"id": 9, "cmd": "go", "game_id": game_id, "bot": "random", "play": True}))
            deadline = time.monotonic() + 30
            while not any(r.get("id") == 9 and r.get("type") == "bestmove" for r in replies[start:]):
                assert time.monotonic() < deadline, replies[start:]
                time.sleep(0.01)
    history = ask(cmd="history", game_id=game_id, viewer=0)["moves"]
    view = ask(cmd="view", game_id=game_id, render="svg", panel=True)
    last = max(i for i, m in enumerate(history) if m["player"] >= 0)
    assert view["since_ply"] == last  # default: the latest decision and the chance outcomes after it
    assert isinstance(view["panel"], list) and all({"title", "rows"} <= set(s) for s in view["panel"])
    since = ask(cmd="view", game_id=game_id, render="svg", since_ply=0)
    assert since["since_ply"] == 0 and 'data-changed="1"' in since["svg"]
    ply = since["status"]["ply"]
    for bad in (ply + 1, -1, "3", True):
        reply = ask(cmd="view", game_id=game_id, render="svg", since_ply=bad)
        assert not reply["ok"] and reply["error_type"] in ("InvalidOptionError", "ProtocolError"), reply
    assert ask(cmd="status", game_id=game_id)["ply"] == ply  # refused, nothing changed
