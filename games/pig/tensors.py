"""Pig's observation tensor: OpenSpiel's encoding, element for element.

Pig is a perfect-information game and, as in OpenSpiel, provides an
observation tensor only: one row of ``winscore + 1`` one-hot entries for the
turn total, then one such row per player for the scores (seat order, whoever
observes), each value capped at ``winscore``. The player to move is not in it
(OpenSpiel's layout).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding


class PigTensors(TensorEncoding):
    """OpenSpiel's Pig observation tensor (rows flattened)."""

    def information_state_layout(self, game: Game) -> Optional[List[Slice]]:
        return None

    def observation_layout(self, game: Game) -> Optional[List[Slice]]:
        width = game.options["winscore"] + 1
        return [Slice("turn_total", width, "one-hot: the points of the current turn (capped at winscore)")] + [
            Slice(f"score{p}", width, f"one-hot: seat {p}'s banked score (capped at winscore)")
            for p in range(game.num_players)]

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        raise AssertionError("Pig has no information-state tensor")  # slices() refuses it first

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        cap = game.options["winscore"]
        out["turn_total"][min(data["turn_total"], cap)] = 1
        for p, score in enumerate(data["scores"]):
            out[f"score{p}"][min(score, cap)] = 1
