"""Leduc poker's tensors: OpenSpiel's encodings, element for element.

Information state (perfect recall): the observer's seat, its private card,
the public card once shown, and the betting of both rounds. Observation: the
seat, the two cards it can see and each player's chips in the pot. Read from
the position's dict form, the observer's own private card only.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding

from .rules import CALL, RAISE


def _moves_per_round(game: Game) -> int:
    # OpenSpiel's bound on the actions of one betting round (two raises at most).
    return 3 * game.num_players - 2


def _common(game: Game) -> List[Slice]:
    deck = game.max_chance_outcomes  # card ids (ranks alone under suit_isomorphism)
    return [Slice("player", game.num_players, "one-hot: the observer's seat"),
            Slice("private_card", deck, "one-hot: the observer's card id, zeros before the deal"),
            Slice("public_card", deck, "one-hot: the public card id, zeros before it is shown")]


class LeducTensors(TensorEncoding):
    """OpenSpiel's Leduc poker tensors."""

    def information_state_layout(self, game: Game) -> List[Slice]:
        moves = _moves_per_round(game)
        return _common(game) + [
            Slice(f"round{r}", 2 * moves, f"{moves} moves x (call, raise): one-hot of round {r}'s i-th action; "
                  f"a fold's pair stays zero (OpenSpiel's layout: from three players on, the tensor right "
                  f"after a fold that does not end the hand equals the one before it)")
            for r in (1, 2)]

    def observation_layout(self, game: Game) -> List[Slice]:
        return _common(game) + [Slice("pot_contribution", game.num_players, "each seat's chips in the pot",
                                      high=-game.min_utility)]

    @staticmethod
    def _fill_common(data: Mapping[str, Any], player: int, out: Dict[str, np.ndarray]) -> None:
        out["player"][player] = 1
        card = data["private_cards"][player]
        if card is not None:
            out["private_card"][card] = 1
        if data["public_card"] is not None:
            out["public_card"][data["public_card"]] = 1

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        self._fill_common(data, player, out)
        for r in (1, 2):
            for i, action in enumerate(data[f"round{r}"]):
                # A fold ends the hand and is not encoded, as in OpenSpiel.
                if action in (CALL, RAISE):
                    out[f"round{r}"][2 * i + (action == RAISE)] = 1

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        self._fill_common(data, player, out)
        out["pot_contribution"][:] = data["contributions"]
