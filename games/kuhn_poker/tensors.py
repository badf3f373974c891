"""Kuhn poker's tensors: OpenSpiel's encodings, element for element.

Information state (perfect recall): the observer's seat, its card, and every
betting action so far. Observation: the observer's seat, its card, and each
player's chips in the pot. Both are read from the position's dict form, and
only the observer's own card of the hidden ones.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding

from .rules import ANTE, BET


def _common(game: Game) -> List[Slice]:
    n = game.num_players
    return [Slice("player", n, "one-hot: the observer's seat"),
            Slice("private_card", n + 1, "one-hot: the observer's card (rank 0 lowest), zeros before the deal")]


class KuhnTensors(TensorEncoding):
    """OpenSpiel's Kuhn poker tensors."""

    def information_state_layout(self, game: Game) -> List[Slice]:
        moves = 2 * game.num_players - 1  # the longest betting: n - 1 checks, a bet, n - 1 answers
        return _common(game) + [Slice("betting", 2 * moves,
                                      f"{moves} moves x (pass, bet): one-hot of the i-th betting action")]

    def observation_layout(self, game: Game) -> List[Slice]:
        return _common(game) + [Slice("pot_contribution", game.num_players, "each seat's chips in the pot",
                                      high=-game.min_utility)]

    @staticmethod
    def _fill_common(data: Mapping[str, Any], player: int, out: Dict[str, np.ndarray]) -> None:
        out["player"][player] = 1
        card = data["cards"][player]
        if card is not None:
            out["private_card"][card] = 1

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        self._fill_common(data, player, out)
        for i, action in enumerate(data["betting"]):
            out["betting"][2 * i + action] = 1

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        self._fill_common(data, player, out)
        n = game.num_players
        stakes = [ANTE] * n
        for i, action in enumerate(data["betting"]):
            if action == BET:  # a bet or a call: one chip more from the seat that played it
                stakes[i % n] += 1
        out["pot_contribution"][:] = stakes
