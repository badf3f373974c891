"""Checks of a game's tensors, for the games' own tests: decoding helpers and side-by-side comparisons.

A game's tests decode its tensors back into the facts of the seat's view (every field of the view
must be recoverable), compare them with OpenSpiel's for the validation games, and compare the
kernel's native encoding with the one written from the state's dict. The pieces they share live
here, so that a game author's tensor test is the game's own assertions and nothing else:

* :func:`random_game_states`: every state of a few seeded random games, with the moves leading to it;
* :func:`tensor_parts`: a tensor cut into its named slices (``aiplay.views.tensors.slices``);
* :func:`one_hot_index` and :func:`action_pairs`: the usual decodings of a slice;
* :func:`check_tensors_equal_openspiel` and :func:`check_kernel_tensors_match_encoding`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

import numpy as np

from aiplay.game import Game, State
from aiplay.registry import load
from aiplay.testing.simulate import random_action
from aiplay.views import tensors

try:  # optional: only the OpenSpiel comparison needs it (pip install 'aiplay[compare]')
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - the tests skip first
    pyspiel = None


def random_game_states(game: Game, games: int, seed: int) -> Iterator[Tuple[State, List[int]]]:
    """Every state of ``games`` seeded random games (chance nodes and the end included), with its moves."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        moves: List[int] = []
        while True:
            yield state.clone(), list(moves)
            if state.is_terminal():
                break
            action = random_action(state, rng)
            state.apply_action(action)
            moves.append(action)


def tensor_parts(game: Game, kind: str, tensor: Any) -> Dict[str, Any]:
    """``tensor`` (of ``kind`` "information_state" or "observation") cut into its named slices (numpy views)."""
    parts, start = {}, 0
    for part in tensors.slices(game, kind):
        parts[part.name] = tensor[start:start + part.size]
        start += part.size
    return parts


def one_hot_index(bits: Any) -> Optional[int]:
    """The index of the one set element of a one-hot slice, None when none is set (AssertionError past one)."""
    hot = np.flatnonzero(bits).tolist()
    assert len(hot) <= 1, f"a one-hot slice with {len(hot)} elements set: {hot}"
    return hot[0] if hot else None


def named(index: Optional[int], name_of: Callable[[int], Any]) -> Any:
    """A decoded index by the name the view gives it (None stays None)."""
    return None if index is None else name_of(index)


def action_pairs(bits: Any) -> List[int]:
    """The actions of a history slice written as one 2-element one-hot per step (empty steps left out)."""
    pairs = bits.reshape(-1, 2)
    return [int(np.flatnonzero(pair)[0]) for pair in pairs if pair.any()]


def check_tensors_equal_openspiel(name: str, options: Mapping[str, Any], backend: str, games: int = 150,
                                  seed: int = 0, least: int = 500) -> None:
    """Both tensors of every seat equal OpenSpiel's, element for element, over ``games`` random games.

    The shapes must agree too. ``least``: the fewest (state, seat) pairs that must have been compared,
    so that a game that ends at once does not pass by comparing nothing. Needs ``pyspiel``.
    """
    assert pyspiel is not None, "the OpenSpiel comparison needs open-spiel (pip install 'aiplay[compare]')"
    game = load(name, backend=backend, **options)
    spiel = pyspiel.load_game(name, dict(options))
    assert game.information_state_tensor_shape() == tuple(spiel.information_state_tensor_shape())
    assert game.observation_tensor_shape() == tuple(spiel.observation_tensor_shape())
    checked = 0
    for state, moves in random_game_states(game, games, seed):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            ours = state.information_state_tensor(p)
            assert ours.dtype == np.float32 and ours.shape == game.information_state_tensor_shape()
            assert ours.tolist() == theirs.information_state_tensor(p), (moves, p)
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
            checked += 1
    assert checked >= least, f"only {checked} (state, seat) pairs compared"


def check_kernel_tensors_match_encoding(name: str, options: Mapping[str, Any], games: int = 40,
                                        seed: int = 6) -> None:
    """The kernel's native tensors equal the ones written from the state's dict, for both kinds and every seat."""
    game = load(name, backend="native", **options)
    kernel = getattr(game, "kernel", None)
    assert callable(getattr(kernel, "fill_tensor", None)), f"{name}'s kernel writes no tensors"
    for state, _ in random_game_states(game, games, seed):
        for p in range(game.num_players):
            for kind in ("information_state", "observation"):
                native = tensors._tensor(state, p, kind)
                from_dict = tensors._tensor(state, p, kind, native=False)
                assert native.dtype == np.float32 and np.array_equal(native, from_dict), (kind, p)
