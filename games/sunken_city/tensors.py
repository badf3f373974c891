"""Sunken City's observation tensor: the whole position (the game has perfect information).

One slice per field of the position's dict form (``to_dict``), each cell of
the 9x9 lake as one entry of an 81-long one-hot (row-major), so that the
position can be read back from the tensor (``tests/test_tensors.py`` does).
As in OpenSpiel's perfect-information games, an observation tensor only:
the position is all there is to know.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding

from . import board as B
from .components import CARDS, CHEST, FIRST_PILE, MAX_DIE, NUM_BUILDINGS, NUM_CARDS, NUM_CHIPS, NUM_PILES
from .phases import PHASE_NAMES

#: The flags of the dict form, in the order of their slice.
FLAGS = ("raised", "moved", "neptune_moved", "building_raised", "chip_used", "end_triggered")
#: Treasure numbers run 0..CHEST (not every number exists; the missing ones stay zero).
TREASURE_IDS = CHEST + 1
DIRECTIONS = ("right", "down")


def _cell(rc: List[int]) -> int:
    return rc[0] * B.SIZE + rc[1]


class SunkenCityTensors(TensorEncoding):
    """The position as one flat tensor (observation only)."""

    def information_state_layout(self, game: Game) -> Optional[List[Slice]]:
        return None

    def observation_layout(self, game: Game) -> Optional[List[Slice]]:
        n, cells = game.num_players, B.NUM_CELLS
        most_treasure = sum(range(TREASURE_IDS))
        parts = [Slice("player", n, "one-hot: the observer's seat"),
                 Slice("turn", n, "one-hot: the seat whose turn it is"),
                 Slice("phase", len(PHASE_NAMES), f"one-hot: the phase, in the order {', '.join(PHASE_NAMES)}"),
                 Slice("card", NUM_CARDS, "one-hot: the movement card in play (zeros: none)"),
                 Slice("raise_left", 1, "city pieces still to raise this turn", high=max(r for r, _ in CARDS)),
                 Slice("move_left", 1, "movement points left this turn", high=max(m for _, m in CARDS)),
                 Slice("neptune_left", 1, "Neptune moves left", high=MAX_DIE),
                 Slice("flags", len(FLAGS), "1 where true: " + ", ".join(FLAGS)),
                 Slice("streets", cells * 2, "1 per street piece, at (anchor cell row-major) x 2 + (0 right, 1 down)"),
                 Slice("neptune", cells, "one-hot: Neptune's anchor cell")]
        parts += [Slice(f"building{b}", cells, f"one-hot: building {b}'s cell, zeros while not raised")
                  for b in range(1, NUM_BUILDINGS + 1)]
        for p in range(n):
            parts += [
                Slice(f"adventurer{p}", cells + 1, f"one-hot: seat {p}'s adventurer, its cell or (last) the village"),
                Slice(f"carried{p}", TREASURE_IDS, f"1 per treasure number seat {p} carries"),
                Slice(f"secured{p}", TREASURE_IDS, f"1 per treasure number seat {p} has secured"),
                Slice(f"secured_value{p}", 1, f"the value seat {p} has secured", high=most_treasure),
                Slice(f"chips{p}", 1, f"seat {p}'s chips", high=NUM_CHIPS),
                Slice(f"played{p}", NUM_CARDS, f"1 per movement card seat {p} has played this cycle")]
        parts += [Slice("street_piles", NUM_PILES, "street pieces left in each pile", high=max(FIRST_PILE.values())),
                  Slice("draw_pile", 1, "the pile drawn from (1 to 6)", high=NUM_PILES)]
        return parts

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        raise AssertionError("Sunken City has no information-state tensor")  # slices() refuses it first

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        out["player"][player] = 1
        out["turn"][data["turn"]] = 1
        out["phase"][PHASE_NAMES.index(data["phase"])] = 1
        if data["card"] is not None:
            out["card"][data["card"]] = 1
        for key in ("raise_left", "move_left", "neptune_left"):
            out[key][0] = data[key]
        for i, flag in enumerate(FLAGS):
            out["flags"][i] = 1 if data[flag] else 0
        for row, col, direction in data["streets"]:
            out["streets"][2 * _cell([row, col]) + DIRECTIONS.index(direction)] = 1
        out["neptune"][_cell(data["neptune"])] = 1
        for b, rc in enumerate(data["buildings"], start=1):
            if rc is not None:
                out[f"building{b}"][_cell(rc)] = 1
        for p in range(game.num_players):
            where = data["adventurers"][p]
            out[f"adventurer{p}"][B.NUM_CELLS if where == "village" else _cell(where)] = 1
            out[f"carried{p}"][data["carried"][p]] = 1
            out[f"secured{p}"][data["secured"][p]] = 1
            out[f"secured_value{p}"][0] = data["secured_values"][p]
            out[f"chips{p}"][0] = data["chips"][p]
            out[f"played{p}"][data["played"][p]] = 1
        out["street_piles"][:] = data["street_piles"]
        out["draw_pile"][0] = data["draw_pile"]
