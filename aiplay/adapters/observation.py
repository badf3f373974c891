"""The seat's observation shared by the PettingZoo and Gymnasium adapters: text bytes or a tensor.

``observation="text"`` (the default): a seat's information state string (the
engine's own, which hides what the seat cannot see) as its UTF-8 bytes in a
zero-padded ``uint8`` vector of a fixed length per environment;
``bytes(vector).rstrip(b"\\0").decode()`` gives the text back. Lossless, not a
feature encoding; every game has it.

``observation="tensor"``: the game's ``float32`` information-state tensor
(:mod:`aiplay.tensors`), or its observation tensor for a game that has only
that one (Pig, Sunken City); games without tensors refuse it.
"""

from __future__ import annotations

import json
import random
from typing import Any, Dict, Optional, Tuple

import numpy as np
from gymnasium import spaces  # type: ignore  # the "gym" or "pettingzoo" extra

from aiplay.views import tensors
from aiplay.errors import InvalidOptionError
from aiplay.game import Game, State
from aiplay.testing.simulate import play_out

__all__ = ["SeatObservation", "default_length", "encode_text"]

#: Seeded random games measured to size the observation by default.
SIZING_GAMES = 3


#: default_length's answers by (game, options): sizing plays whole games, and an environment
#: is often made many times over (vectorized environments, checkers, ``spec.make``).
_LENGTHS: Dict[Tuple[str, str], int] = {}


def default_length(game: Game) -> int:
    """A power of two >= 4x the longest information string of a few seeded random games (>= 64)."""
    key = (game.name, json.dumps(game.options, sort_keys=True))
    if key not in _LENGTHS:
        _LENGTHS[key] = _measure(game)
    return _LENGTHS[key]


def _measure(game: Game) -> int:
    rng = random.Random(0)
    longest = 1
    for _ in range(SIZING_GAMES):
        state = game.new_initial_state()
        while True:
            for player in range(game.num_players):
                longest = max(longest, len(state.information_state_string(player).encode("utf-8")))
            if state.is_terminal():
                break
            play_out(state, rng, max_steps=1)
    length = 64
    while length < 4 * longest:
        length *= 2
    return length


def encode_text(text: str, length: int, who: str) -> np.ndarray:
    """``text`` as UTF-8 bytes in a zero-padded ``uint8`` vector of ``length``; raises when it does not fit."""
    data = text.encode("utf-8")
    if len(data) > length:
        raise InvalidOptionError(
            f"{who}'s information state is {len(data)} bytes, more than observation_length={length}; "
            f"make the environment with a larger observation_length")
    vector = np.zeros(length, np.uint8)
    vector[:len(data)] = np.frombuffer(data, np.uint8)
    return vector


class SeatObservation:
    """One environment's ``"observation"`` entry: its space and how a state is encoded for a seat."""

    KINDS = ("text", "tensor")

    def __init__(self, game: Game, kind: str, length: Optional[int]):
        if kind not in self.KINDS:
            raise InvalidOptionError(f"option observation={kind!r} is invalid; it accepts 'text' or 'tensor'")
        self.kind = kind
        self.space: Any
        if kind == "text":
            self.length = length or default_length(game)
            self.space = spaces.Box(0, 255, (self.length,), np.uint8)
            return
        if length is not None:
            raise InvalidOptionError("option observation_length applies to observation='text' only")
        for tensor in ("information_state", "observation"):
            if tensors.provides(game, tensor):
                self.tensor = tensor
                break
        else:
            raise InvalidOptionError(f"observation='tensor': game {game.name!r} provides no tensor (see "
                                     f"docs/tensors.md); use observation='text'")
        shape = (tensors.information_state_tensor_shape(game) if self.tensor == "information_state"
                 else tensors.observation_tensor_shape(game))
        self.length = shape[0]
        self.space = spaces.Box(np.zeros(shape, np.float32), tensors.bounds(game, self.tensor), shape, np.float32)

    def encode(self, state: State, seat: int, who: str) -> np.ndarray:
        """``seat``'s observation of ``state``; ``who`` names the seat in errors."""
        if self.kind == "text":
            return encode_text(state.information_state_string(seat), self.length, who)
        if self.tensor == "information_state":
            return state.information_state_tensor(seat)
        return state.observation_tensor(seat)
