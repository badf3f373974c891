"""Template Race's tensors: what a seat knows, as fixed-size numbers (the example to copy).

The information string of this game summarises everything a seat knows (its
own card, the public race and the cards revealed by boosts), so the
information-state and the observation tensors are the same. Each slice below
is one fact of ``view(seat)``; ``docs/tensors.md`` is generated from these
slices. Only the seat's own card and the boosted seats' cards are read from
the hidden ones.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from aiplay.game import Game
from aiplay.views.tensors import Slice, TensorEncoding


class TemplateTensors(TensorEncoding):
    """One layout for both tensors (this game's information is Markov)."""

    def information_state_layout(self, game: Game) -> Optional[List[Slice]]:
        n, cards = game.num_players, game.num_players + 1
        goal, horizon = game.options["goal"], game.options["horizon"]
        return ([Slice("player", n, "one-hot: the observer's seat"),
                 Slice("own_card", cards, "one-hot: the observer's card id, zeros before its deal"),
                 Slice("dealt", n + 1, "one-hot: how many cards are dealt")]
                + [Slice(f"revealed{p}", cards, f"one-hot: seat {p}'s card once it boosted, else zeros")
                   for p in range(n)]
                + [Slice(f"position{p}", goal + 1, f"one-hot: seat {p}'s square") for p in range(n)]
                + [Slice("moves", 1, "decisions made so far", high=horizon),
                   Slice("rolling", 1, "1 while a roll waits for the die")])

    def observation_layout(self, game: Game) -> Optional[List[Slice]]:
        return self.information_state_layout(game)

    def fill_information_state(self, game: Game, data: Mapping[str, Any], player: int,
                               out: Dict[str, np.ndarray]) -> None:
        out["player"][player] = 1
        cards = data["cards"]
        if cards[player] is not None:
            out["own_card"][cards[player]] = 1
        out["dealt"][sum(card is not None for card in cards)] = 1
        for p, (card, boosted) in enumerate(zip(cards, data["boosted"])):
            if boosted:
                out[f"revealed{p}"][card] = 1
        for p, square in enumerate(data["positions"]):
            out[f"position{p}"][square] = 1
        out["moves"][0] = data["moves"]
        out["rolling"][0] = 1 if data["rolling"] else 0

    def fill_observation(self, game: Game, data: Mapping[str, Any], player: int,
                         out: Dict[str, np.ndarray]) -> None:
        self.fill_information_state(game, data, player, out)
