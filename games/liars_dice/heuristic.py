"""A probability heuristic for Liar's Dice: bid what is likeliest true, call what is likeliest false.

It reads only the public State API (the seat's view and its legal moves), so it plays on
both engines. For a bid "q-f" it counts the seat's own dice that match (face ``f`` or the
wild highest face) and takes the chance that enough of the unseen dice match too, each
independently with probability 2/sides (1/sides for the wild face itself): a binomial tail.
It calls Liar when the last bid is likelier false than its best bid is true; otherwise it
makes its likeliest bid (one of the equally likeliest, drawn from ``rng``).
"""

from __future__ import annotations

import math
import random
from typing import Any, List, Sequence

#: Bids whose chance is this close to the best one count as equally good.
_TIE = 1e-9


def bid_probability(bid: int, own: Sequence[int], unseen: int, sides: int, total: int, reset_face: bool) -> float:
    """The chance that bid id ``bid`` holds, knowing the faces ``own`` and that ``unseen`` dice are unknown."""
    if reset_face:
        quantity, face = bid // sides + 1, bid % sides + 1
    else:
        quantity, face = bid % total + 1, bid // total + 1
    need = quantity - sum(1 for d in own if d == face or d == sides)
    p = (1 if face == sides else 2) / sides
    return sum(math.comb(unseen, i) * p ** i * (1 - p) ** (unseen - i) for i in range(max(need, 0), unseen + 1))


def probability_policy(state: Any, rng: random.Random) -> int:
    """The heuristic's move at a decision node of a Liar's Dice ``state``."""
    player = state.current_player()
    options = state.game.options
    n, k, sides = options["players"], options["numdice"], options["dice_sides"]
    total, reset_face = n * k, options["bidding_rule"] == "reset-face"
    liar = total * sides
    own = [d for d in state.view(player)["seats"][player]["dice"] if d is not None]
    legal: List[int] = state.legal_actions()
    bids = [b for b in legal if b != liar]
    chance = [bid_probability(b, own, total - k, sides, total, reset_face) for b in bids]
    best = max(chance, default=0.0)
    if liar in legal:
        last = (bids[0] if bids else liar) - 1  # legal bids start just above the last one
        if 1.0 - bid_probability(last, own, total - k, sides, total, reset_face) > best:
            return liar
    return rng.choice([b for b, c in zip(bids, chance) if c >= best - _TIE])
