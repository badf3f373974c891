"""Liar's Dice's tensors: OpenSpiel's encodings, element for element.

Both tensors are: the observer's seat (one-hot), then one one-hot row of
``dice_sides`` entries per die slot of the observer (its faces in the order the
state holds them: roll order while rolling, sorted after; a row stays zero
until its die is rolled), then one entry per bid id and one for "Liar". The
information state sets the entry of every bid made so far; the observation
only those of the last ``players`` bids (OpenSpiel's layout, "Liar" included).
Read from the position's dict form, and only the observer's own dice of the
hidden ones.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding


def _layout(game: Game, bids_doc: str) -> List[Slice]:
    n, k, sides = game.num_players, game.options["numdice"], game.options["dice_sides"]
    return [Slice("player", n, "one-hot: the observer's seat"),
            Slice("dice", k * sides, f"{k} die slots x {sides} faces: one-hot of each of the observer's dice "
                                     "(roll order while rolling, sorted after; zeros until rolled)"),
            Slice("bids", game.num_distinct_actions, bids_doc)]


class LiarsDiceTensors(TensorEncoding):
    """OpenSpiel's Liar's Dice tensors."""

    def information_state_layout(self, game: Game) -> List[Slice]:
        return _layout(game, "one entry per bid id, then Liar: 1 for every bid made so far")

    def observation_layout(self, game: Game) -> List[Slice]:
        return _layout(game, "one entry per bid id, then Liar: 1 for each of the last `players` bids")

    @staticmethod
    def _fill(game: Game, data: Mapping[str, Any], player: int, out: Dict[str, np.ndarray], last: int) -> None:
        sides = game.options["dice_sides"]
        out["player"][player] = 1
        for slot, face in enumerate(data["dice"][player]):
            if face is not None:
                out["dice"][slot * sides + face - 1] = 1
        bids = data["bids"]
        for bid in bids[max(0, len(bids) - last):]:
            out["bids"][bid] = 1

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        self._fill(game, data, player, out, len(data["bids"]))

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        self._fill(game, data, player, out, game.num_players)
