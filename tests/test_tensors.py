"""Observation and information-state tensors (issue 24): OpenSpiel's own for the poker games, twins equal,
every field of the seat's view decodable, on both engines."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import aiplay
from aiplay.views import tensors
from aiplay.errors import InvalidPlayerError, UnsupportedError
from aiplay.registry import game_entries
from aiplay.testing.choose import games_with, pick_game, pick_options, pick_variant, variants_with
from aiplay.testing.generated import record_if_missing
from aiplay.testing.simulate import random_action

#: Chosen by property: the short hidden-information variants with tensors (card games, the example game).
HIDDEN_SHORT = variants_with(perfect_information=False, short=True, tensors=True)
HIDDEN_SHORT_IDS = [f"{n}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o in HIDDEN_SHORT]
ENGINES = ["reference", "native"]


def _states(game, games, seed):
    """Every state of ``games`` seeded random games (chance nodes and the end included), with their moves."""
    rng = random.Random(seed)
    for _ in range(games):
        state, moves = game.new_initial_state(), []
        while True:
            yield state.clone(), list(moves)
            if state.is_terminal():
                break
            action = random_action(state, rng)
            state.apply_action(action)
            moves.append(action)


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name,options", HIDDEN_SHORT, ids=HIDDEN_SHORT_IDS)
def test_tensors_encode_exactly_what_the_seat_knows(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    rng = random.Random(5)
    by_information: dict = {}
    for state, _ in _states(game, 200, seed=9):
        for p in range(game.num_players):
            tensor = state.information_state_tensor(p)
            if state.is_chance_node() or state.is_terminal():
                # OpenSpiel's encoding leaves out who is to move and a final fold, so a chance node or the
                # end may share the tensor of the decision before it; the strings tell those apart.
                continue
            # Twins (a world sampled for p: the same information) give equal tensors.
            twin = state.determinize(p, rng)
            assert np.array_equal(twin.information_state_tensor(p), tensor)
            assert np.array_equal(twin.observation_tensor(p), state.observation_tensor(p))
            # And different information gives different tensors: the encoding is the information.
            key = (p, state.information_state_string(p))
            assert by_information.setdefault(key, tensor.tobytes()) == tensor.tobytes()
    if game.num_players == 2 or not _folds_left_out(game):
        # A layout that does not encode folds (OpenSpiel's Leduc layout, which says so in its slices'
        # documentation and in docs/tensors.md): from three players on, the tensor right after a fold that
        # does not end the hand equals the one before it; with two players a fold ends the hand.
        assert len(set(by_information.values())) == len(by_information)


def _folds_left_out(game):
    """True when the game's information-state layout documents that a fold is not encoded."""
    return any("fold" in part.doc and "stays zero" in part.doc for part in tensors.slices(game, "information_state"))


def test_a_layout_that_leaves_folds_out_is_still_checked_with_two_players():
    # The exception above applies to some variant, and never with two players.
    leaving = [(n, o) for n, o in HIDDEN_SHORT if _folds_left_out(aiplay.load(n, **o))]
    assert leaving and any(aiplay.load(n, **o).num_players > 2 for n, o in leaving)


def _parts(game, kind, tensor):
    parts, start = {}, 0
    for part in tensors.slices(game, kind):
        parts[part.name] = tensor[start:start + part.size]
        start += part.size
    return parts


def _card(one_hot):
    hot = np.flatnonzero(one_hot).tolist()
    assert len(hot) <= 1
    return hot[0] if hot else None


def _named(card, name_of):
    """A decoded card id by the name the view gives it (None stays None)."""
    return None if card is None else name_of(card)


def _actions(bits):
    pairs = bits.reshape(-1, 2)
    return [int(np.flatnonzero(pair)[0]) for pair in pairs if pair.any()]


@pytest.mark.parametrize("name,options", [v for v in HIDDEN_SHORT if "fill_tensor" in dir(aiplay.load(v[0], backend="native", **v[1]).kernel)],
                         ids=[i for v, i in zip(HIDDEN_SHORT, HIDDEN_SHORT_IDS)
                              if "fill_tensor" in dir(aiplay.load(v[0], backend="native", **v[1]).kernel)])
def test_the_kernels_write_the_same_tensors_as_the_encoding(name, options):
    game = aiplay.load(name, backend="native", **options)
    assert callable(getattr(game.kernel, "fill_tensor", None))  # the native path is taken
    for state, _ in _states(game, 40, seed=6):
        for p in range(game.num_players):
            for kind in ("information_state", "observation"):
                native = tensors._tensor(state, p, kind)
                from_dict = tensors._tensor(state, p, kind, native=False)
                assert native.dtype == np.float32 and np.array_equal(native, from_dict), (kind, p)


def test_games_without_tensors_say_so_and_seats_are_checked(monkeypatch):
    # Every registered game has tensors now; a registry entry without an encoding stands for a new game.

    from aiplay import registry

    name = pick_game(tensors=True, board=True, listed=True)
    monkeypatch.setattr(registry.game_entry(name).reference, "tensor_encoding", None)
    board = aiplay.load(name)
    with pytest.raises(UnsupportedError, match=name):
        board.observation_tensor_shape()
    with pytest.raises(UnsupportedError):
        board.new_initial_state().information_state_tensor(0)
    kuhn = aiplay.load(*pick_variant(tensors=True, players=2, perfect_information=False, short=True, listed=True)[:1]).new_initial_state()
    for bad in (2, -1, "0", True):
        with pytest.raises(InvalidPlayerError):
            kuhn.information_state_tensor(bad)
    first = kuhn.observation_tensor(0)
    first[:] = 7  # a new array each time: writing to it changes nothing
    assert not np.array_equal(kuhn.observation_tensor(0), first)


def test_the_tensor_layouts_document_is_current():
    # docs/tensors.md is generated (python -m aiplay.tensors --write); it names no game.
    path = Path(__file__).resolve().parent.parent / "docs" / "tensors.md"
    assert path.read_text() == tensors.document(), "regenerate it: python -m aiplay.tensors --write"


@pytest.mark.parametrize("name", [e.name for e in game_entries(include_hidden=True) if e.tensors is not None])
def test_each_games_tensor_layouts_are_current(name):
    # games/<game>/tensors.md is generated from the game's encoding, beside it.
    path = tensors.game_document_path(name)
    skip = record_if_missing(path, lambda: tensors.game_document(name), "python -m aiplay.tensors --write")
    if skip:
        pytest.skip(skip)
    assert path.read_text() == tensors.game_document(name), "regenerate it: python -m aiplay.tensors --write"


# -- the board games with hidden information: tensors encode the seat's view (aiplay.viewtensors) ----------

#: The board games with hidden information (chosen by property), each at every player count it takes (its
#: first option set's other options: a short block...), then its other option sets (a half-win variant...).
BOARDS = games_with(perfect_information=False, board=True, tensors=True)
COUNTS = {name: [n for n in range(1, 11) if name in games_with(accepts_players=n)] for name in BOARDS}
VIEW_GAMES = [(name, {**pick_options(name), "players": n}) for name in BOARDS for n in COUNTS[name]]
VIEW_GAMES += [v for v in variants_with(perfect_information=False, board=True, tensors=True) if v not in VIEW_GAMES]
#: Per game: its fewest and most players and its other option sets (twins); its second count (both engines).
TWIN_GAMES = [v for v in VIEW_GAMES if v[1]["players"] in (COUNTS[v[0]][0], COUNTS[v[0]][-1])
              or v[1] != {**pick_options(v[0]), "players": v[1]["players"]}]
ENGINE_GAMES = [(name, {**pick_options(name), "players": COUNTS[name][1]}) for name in BOARDS]


def _sampled_states(game, seed, every, plies=None):
    """Every ``every``-th state of one seeded random game (chance nodes and the end included), and the moves."""
    rng = random.Random(seed)
    state, moves = game.new_initial_state(), []
    while True:
        if len(moves) % every == 0 or state.is_terminal():
            yield state.clone(), list(moves)
        if state.is_terminal() or (plies is not None and len(moves) >= plies):
            break
        action = random_action(state, rng)
        state.apply_action(action)
        moves.append(action)


def _project(node, value):
    """The part of ``value`` that the schema ``node`` describes (an encoding's internal fields name a few keys)."""
    from aiplay.views.schema import Arr, Obj, Opt

    if value is None:
        return None
    if isinstance(node, Obj):
        return {f.name: _project(f.node, value[f.name]) for f in node.fields}
    if isinstance(node, Arr):
        return [_project(node.item, item) for item in value]
    return _project(node.node, value) if isinstance(node, Opt) else value


def _length(game, seed=0):
    """The length of one seeded random game."""
    return sum(1 for _ in _sampled_states(game, seed, every=1)) - 1


@pytest.mark.parametrize("name,options", VIEW_GAMES)
def test_board_game_tensors_have_a_fixed_shape_and_decode_to_the_seat_s_view(name, options):
    from aiplay.views.viewtensors import decode

    game = aiplay.load(name, backend="native", **options)
    shape = game.observation_tensor_shape()
    assert shape == game.information_state_tensor_shape()  # the information state is the view (no history)
    high = tensors.bounds(game, "observation")
    checked, by_tensor = 0, {}
    every = 23 if _length(game) > 1500 else 7  # the longest games (Area 51's: 2,000 to 5,000 moves)
    for state, _ in _sampled_states(game, seed=sum(map(ord, name)) + game.num_players, every=every):
        for p in range(game.num_players):
            tensor = state.observation_tensor(p)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert ((tensor >= 0) & (tensor <= high)).all()
            assert np.array_equal(state.information_state_tensor(p), tensor)
            view = state.view(p)  # docs/views/<game>.md, and of the engine's "internal" arrays what it adds
            internal = view.pop("internal")
            encoding = tensors._encoding(game)
            added = {f.name: _project(f.node, internal[f.name]) for f in encoding.internal}
            if encoding.context is not None:
                added[encoding.context[0]] = internal[encoding.context[0]]
            if added:
                view["internal"] = added
            assert decode(game, tensor) == view, (name, p, state.to_json())
            # Different information (another information-state string) gives a different tensor.
            key = state.information_state_string(p)
            assert by_tensor.setdefault(tensor.tobytes(), key) == key, (name, p, state.to_json())
            checked += 1
    assert checked >= 20 and state.is_terminal()


@pytest.mark.parametrize("name,options", TWIN_GAMES)
def test_board_game_twins_give_equal_tensors(name, options):
    # A world determinized for seat p (other hands, other face-down cards, other roles) is a twin.
    game = aiplay.load(name, backend="native", **options)
    rng = random.Random(3)
    hidden_differs = 0
    for state, _ in _sampled_states(game, seed=11, every=37):
        if state.is_terminal():
            continue
        for p in range(game.num_players):
            twin = state.determinize(p, rng)
            hidden_differs += twin.to_json() != state.to_json()
            assert np.array_equal(twin.information_state_tensor(p), state.information_state_tensor(p)), (p, twin)
            assert np.array_equal(twin.observation_tensor(p), state.observation_tensor(p))
    assert hidden_differs >= 5  # the twins did hide something


@pytest.mark.parametrize("name,options", ENGINE_GAMES)
def test_board_game_tensors_are_the_same_on_both_engines(name, options):
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    assert reference.observation_tensor_shape() == native.observation_tensor_shape()
    for ours, moves in _sampled_states(native, seed=5, every=41, plies=1500):
        theirs = reference.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(native.num_players):
            assert np.array_equal(ours.information_state_tensor(p), theirs.information_state_tensor(p)), (moves, p)


def test_a_view_value_beyond_its_declared_bound_is_refused_not_clipped():
    from aiplay.errors import InvalidStateError
    from aiplay.views.schema import Arr, Field, Int, Obj, ViewSchema
    from aiplay.views.viewtensors import ViewTensors

    schema = ViewSchema(game="toy", intro="", root=Obj("view", (
        Field("score", Int(minimum=0), "Open-ended."),
        Field("list", Arr(Int(minimum=0, maximum=3)), "Open-ended."))))
    encoding = ViewTensors(schema, lambda game: {"score": (0, 10), "list": (0, 2)})
    game = aiplay.load(pick_game(tensors=True))
    part = encoding.compiled(game)
    assert [s.name for s in part.slices()] == ["score", "list#len", "list[]"]
    out = {s.name: np.zeros(s.size, np.float32) for s in part.slices()}
    part.fill({"score": 10, "list": [3, 1]}, 0, out)
    assert part.read(0, out) == {"score": 10, "list": [3, 1]}
    for bad in ({"score": 11, "list": []}, {"score": 0, "list": [1, 1, 1]}, {"score": 0, "list": [4]}):
        with pytest.raises(InvalidStateError):
            part.fill(bad, 0, {s.name: np.zeros(s.size, np.float32) for s in part.slices()})
    unbounded = ViewTensors(schema, lambda game: {"score": (0, 10)})
    with pytest.raises(ValueError, match="list"):
        unbounded.compiled(game)


def test_decode_refuses_a_tensor_that_is_not_a_view_tensor():
    from aiplay.views.viewtensors import decode

    name = pick_game(tensors=True, short=True, perfect_information=False, listed=True)
    with pytest.raises(UnsupportedError, match="view"):
        decode(aiplay.load(name), aiplay.load(name).new_initial_state().observation_tensor(0))
