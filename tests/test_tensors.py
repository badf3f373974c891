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
from aiplay.games.kuhn_poker.rules import card_name
from aiplay.testing.simulate import random_action

POKER_OPTIONS = [("kuhn_poker", {}), ("kuhn_poker", {"players": 3}), ("kuhn_poker", {"players": 5}),
                 ("leduc_poker", {}), ("leduc_poker", {"players": 3}), ("leduc_poker", {"suit_isomorphism": True}),
                 ("leduc_poker", {"action_mapping": True}), ("leduc_poker", {"players": 4, "starting_player": 2})]
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
@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_poker_tensors_equal_openspiel_s_element_for_element(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    spiel = pyspiel.load_game(name, options)
    assert game.information_state_tensor_shape() == tuple(spiel.information_state_tensor_shape())
    assert game.observation_tensor_shape() == tuple(spiel.observation_tensor_shape())
    checked = 0
    for state, moves in _states(game, 150, seed=len(options)):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            ours = state.information_state_tensor(p)
            assert ours.dtype == np.float32 and ours.shape == game.information_state_tensor_shape()
            assert ours.tolist() == theirs.information_state_tensor(p), (moves, p)
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name,options", POKER_OPTIONS[:2] + POKER_OPTIONS[3:5]
                         + [("template", {}), ("template", {"players": 3, "goal": 8})])
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
    if name != "leduc_poker" or game.num_players == 2:
        # OpenSpiel's Leduc layout does not encode folds: from three players on, the tensor right after a
        # fold that does not end the hand equals the one before it (documented in docs/tensors.md); with
        # two players a fold ends the hand.
        assert len(set(by_information.values())) == len(by_information)


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


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_every_field_of_the_seat_s_view_decodes_from_its_tensors(name, backend):
    game = aiplay.load(name, backend=backend, players=3)
    for state, _ in _states(game, 60, seed=2):
        for p in range(game.num_players):
            view = state.view(p)  # documented in docs/views/<game>.md: cards by name
            info = _parts(game, "information_state", state.information_state_tensor(p))
            seen = _parts(game, "observation", state.observation_tensor(p))
            assert _card(info["player"]) == p == _card(seen["player"])
            seats = view["seats"]
            if name == "kuhn_poker":
                assert _named(_card(info["private_card"]), lambda c: card_name(c, game.num_cards)) == seats[p]["card"]
                assert [0 if a == 0 else 1 for a in _actions(info["betting"])] == [
                    0 if b == "pass" else 1 for b in view["betting"]]
                assert seen["pot_contribution"].tolist() == [s["stake"] for s in seats]
                assert sum(s["stake"] for s in seats) == view["pot"]
            else:
                assert _named(_card(info["private_card"]), game.card_name) == seats[p]["card"]
                assert _named(_card(info["public_card"]), game.card_name) == view["public_card"]
                # The tensor keeps calls (1) and raises (2); a fold ends the hand and shows in the view only
                # as the last action, which the returns (terminal) tell apart.
                rounds = view["betting"] + [[]] * (2 - len(view["betting"]))
                for r in (1, 2):
                    decoded = [1 + a for a in _actions(info[f"round{r}"])]
                    assert decoded == [{"call": 1, "raise": 2}[a] for a in rounds[r - 1] if a != "fold"]
                assert seen["pot_contribution"].tolist() == [s["chips_in"] for s in seats]
                assert sum(s["chips_in"] for s in seats) == view["pot"]


@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_the_kernels_write_the_same_tensors_as_the_encoding(name, options):
    game = aiplay.load(name, backend="native", **options)
    assert callable(getattr(game.kernel, "fill_tensor", None))  # the native path is taken
    for state, _ in _states(game, 40, seed=6):
        for p in range(game.num_players):
            for kind in ("information_state", "observation"):
                native = tensors._tensor(state, p, kind)
                from_dict = tensors._tensor(state, p, kind, native=False)
                assert native.dtype == np.float32 and np.array_equal(native, from_dict), (kind, p)


PIG_OPTIONS = [{}, {"players": 3, "winscore": 15, "diceoutcomes": 4}, {"piglet": True, "winscore": 8}]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("options", PIG_OPTIONS)
def test_pig_observation_tensor_equals_openspiel_s(options, backend):
    game = aiplay.load("pig", backend=backend, **options)
    spiel = pyspiel.load_game("pig", options)
    assert game.observation_tensor_shape() == (spiel.observation_tensor_size(),)  # OpenSpiel's rows, flattened
    for state, moves in _states(game, 20, seed=3):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
    with pytest.raises(UnsupportedError, match="information state"):  # as in OpenSpiel: observation only
        game.new_initial_state().information_state_tensor(0)


@pytest.mark.parametrize("backend", ENGINES)
def test_every_field_of_the_template_s_view_decodes_from_its_tensor(backend):
    # The example game's tensors (games/_template/tensors.py): one slice per fact of the view.
    game = aiplay.load("template", backend=backend, players=3)
    assert game.observation_tensor_shape() == game.information_state_tensor_shape()
    for state, _ in _states(game, 30, seed=4):
        for p in range(game.num_players):
            view = state.view(p)
            tensor = state.information_state_tensor(p)
            assert np.array_equal(tensor, state.observation_tensor(p))
            parts = _parts(game, "information_state", tensor)
            assert _card(parts["player"]) == view["observer"] == p
            seats = view["seats"]  # docs/views/template.md: a card shows its value (id + 1)
            cards = [_card(parts[f"revealed{q}"]) for q in range(game.num_players)]
            cards[p] = _card(parts["own_card"])
            assert cards == [None if s["card"] is None else s["card"] - 1 for s in seats]
            assert _card(parts["dealt"]) == sum(c is not None for c in state.to_dict()["cards"])
            assert [parts[f"revealed{q}"].any() for q in range(game.num_players)] == [s["boosted"] for s in seats]
            assert [_card(parts[f"position{q}"]) for q in range(game.num_players)] == [s["position"] for s in seats]
            assert parts["moves"][0] == view["decisions_made"]
            assert bool(parts["rolling"][0]) == (view["phase"] == "rolling")
            # current_player follows from dealt, moves, rolling and positions (the rules' _current_player).


def test_games_without_tensors_say_so_and_seats_are_checked(monkeypatch):
    # Every registered game has tensors now; a registry entry without an encoding stands for a new game.

    from aiplay import registry

    monkeypatch.setattr(registry.game_entry("area51").reference, "tensor_encoding", None)
    board = aiplay.load("area51")
    with pytest.raises(UnsupportedError, match="area51"):
        board.observation_tensor_shape()
    with pytest.raises(UnsupportedError):
        board.new_initial_state().information_state_tensor(0)
    kuhn = aiplay.load("kuhn_poker").new_initial_state()
    for bad in (2, -1, "0", True):
        with pytest.raises(InvalidPlayerError):
            kuhn.information_state_tensor(bad)
    first = kuhn.observation_tensor(0)
    first[:] = 7  # a new array each time: writing to it changes nothing
    assert not np.array_equal(kuhn.observation_tensor(0), first)


def test_the_tensor_layouts_document_is_current():
    # docs/tensors.md is generated from the encodings (python -m aiplay.tensors --write).
    path = Path(__file__).resolve().parent.parent / "docs" / "tensors.md"
    assert path.read_text() == tensors.document(), "regenerate it: python -m aiplay.tensors --write"


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "short": True}])
def test_sunken_city_s_position_decodes_from_its_observation_tensor(options, backend):
    # A board game with perfect information: the observation tensor is the whole position, so the
    # position's dict form (the view's fields, less the derived ones) reads back from it exactly.
    from aiplay.games.sunken_city.tensors import DIRECTIONS, FLAGS
    from aiplay.games.sunken_city.phases import PHASE_NAMES

    game = aiplay.load("sunken_city", backend=backend, **options)
    n = game.num_players
    with pytest.raises(UnsupportedError, match="information state"):
        game.information_state_tensor_shape()
    seen: dict = {}
    for state, _ in _states(game, 3, seed=8):
        tensor = state.observation_tensor(1)
        parts = _parts(game, "observation", tensor)
        rc = lambda cell: [cell // 9, cell % 9]  # noqa: E731
        hot = lambda part: np.flatnonzero(part).tolist()  # noqa: E731
        decoded = {
            "turn": _card(parts["turn"]), "phase": PHASE_NAMES[_card(parts["phase"])], "card": _card(parts["card"]),
            **{key: int(parts[key][0]) for key in ("raise_left", "move_left", "neptune_left")},
            **{flag: bool(parts["flags"][i]) for i, flag in enumerate(FLAGS)},
            "streets": [rc(slot // 2) + [DIRECTIONS[slot % 2]] for slot in hot(parts["streets"])],
            "buildings": [None if _card(parts[f"building{b}"]) is None else rc(_card(parts[f"building{b}"]))
                          for b in range(1, 11)],
            "neptune": rc(_card(parts["neptune"])),
            "adventurers": ["village" if _card(parts[f"adventurer{p}"]) == 81 else rc(_card(parts[f"adventurer{p}"]))
                            for p in range(n)],
            "carried": [hot(parts[f"carried{p}"]) for p in range(n)],
            "secured": [hot(parts[f"secured{p}"]) for p in range(n)],
            "secured_values": [int(parts[f"secured_value{p}"][0]) for p in range(n)],
            "chips": [int(parts[f"chips{p}"][0]) for p in range(n)],
            "played": [hot(parts[f"played{p}"]) for p in range(n)],
            "street_piles": [int(x) for x in parts["street_piles"]],
            "draw_pile": int(parts["draw_pile"][0]),
        }
        data = state.to_dict()
        data["streets"] = sorted(data["streets"], key=lambda s: (s[0] * 9 + s[1]) * 2 + DIRECTIONS.index(s[2]))
        assert decoded == data
        assert _card(parts["player"]) == 1
        assert seen.setdefault(tensor.tobytes(), state.to_json()) == state.to_json()  # distinct positions, distinct tensors


# -- the board games with hidden information: tensors encode the seat's view (aiplay.viewtensors) ----------

#: Every player count of each game (its first option set also has a short block / the half-win variant).
VIEW_GAMES = ([("area51", {"players": n}) for n in range(2, 7)]
              + [("area1851", {"players": n, "block": 1}) for n in range(2, 6)]
              + [("groom_lake", {"players": n}) for n in range(3, 7)]
              + [("groom_lake", {"players": 5, "half_win": True})])


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


@pytest.mark.parametrize("name,options", VIEW_GAMES)
def test_board_game_tensors_have_a_fixed_shape_and_decode_to_the_seat_s_view(name, options):
    from aiplay.views.viewtensors import decode

    game = aiplay.load(name, backend="native", **options)
    shape = game.observation_tensor_shape()
    assert shape == game.information_state_tensor_shape()  # the information state is the view (no history)
    high = tensors.bounds(game, "observation")
    checked, by_tensor = 0, {}
    every = 23 if name == "area51" else 7  # Area 51's games are the longest (2,000 to 5,000 moves)
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


@pytest.mark.parametrize("name,options", [VIEW_GAMES[0], VIEW_GAMES[4], VIEW_GAMES[5], VIEW_GAMES[8], VIEW_GAMES[9],
                                          VIEW_GAMES[-1]])
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


@pytest.mark.parametrize("name,options", [VIEW_GAMES[1], VIEW_GAMES[6], VIEW_GAMES[10]])
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
    game = aiplay.load("pig")
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


def test_decode_refuses_what_is_not_a_view_tensor():
    from aiplay.errors import InvalidStateError
    from aiplay.views.viewtensors import decode

    game = aiplay.load("groom_lake", players=3)
    tensor = game.new_initial_state().observation_tensor(0)
    with pytest.raises(InvalidStateError, match="entries"):
        decode(game, tensor[:-1])
    broken = tensor.copy()
    _parts(game, "observation", broken)["step"][:] = 0  # the step's one-hot emptied (views into broken)
    with pytest.raises(InvalidStateError, match="step"):
        decode(game, broken)
    with pytest.raises(UnsupportedError, match="view"):
        decode(aiplay.load("kuhn_poker"), aiplay.load("kuhn_poker").new_initial_state().observation_tensor(0))
