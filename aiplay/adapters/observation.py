"""The text observation shared by the PettingZoo and Gymnasium adapters: an information string as bytes.

A seat's information state string (the engine's own, which hides what the
seat cannot see) is sent as its UTF-8 bytes in a zero-padded ``uint8`` vector
of a fixed length per environment; ``bytes(vector).rstrip(b"\\0").decode()``
gives the text back. It is lossless, not a feature encoding.
"""

from __future__ import annotations

import json
import random
from typing import Dict, Tuple

import numpy as np

from aiplay.errors import InvalidOptionError
from aiplay.game import Game
from aiplay.testing.simulate import play_out

__all__ = ["default_length", "encode_text"]

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
