"""A probability heuristic for Liar's Dice: bid what is likeliest true, call what is likeliest false.

It reads only the public State API (the seat's view and its legal moves), so it plays on
both engines; the kernel's ``policy_action`` is its C port, draw for draw. For a bid "q-f"
it counts the seat's own dice that match (face ``f`` or the wild highest face) and takes the
chance that enough of the unseen dice match too, each independently with probability
2/sides (1/sides for the wild face itself): a binomial tail. It calls Liar when the last bid
is likelier false than its best bid is true; otherwise it makes one of its likeliest bids,
drawn from ``rng``. Chances are exact integers over ``sides ** unseen`` (at most 8**15), so
ties and comparisons are exact and the C port agrees bit for bit.
"""

from __future__ import annotations

import math
import random
from typing import Any, List, Sequence


def bid_chance(bid: int, own: Sequence[int], unseen: int, sides: int, total: int, reset_face: bool) -> int:
    """``sides ** unseen`` times the chance that bid id ``bid`` holds, given the seat's faces ``own``."""
    if reset_face:
        quantity, face = bid // sides + 1, bid % sides + 1
    else:
        quantity, face = bid % total + 1, bid // total + 1
    need = quantity - sum(1 for d in own if d == face or d == sides)
    hits = 1 if face == sides else 2  # faces of one die that match
    return sum(math.comb(unseen, i) * hits ** i * (sides - hits) ** (unseen - i)
               for i in range(max(need, 0), unseen + 1))


def probability_policy(state: Any, rng: random.Random) -> int:
    """The heuristic's move at a decision node of a Liar's Dice ``state``."""
    player = state.current_player()
    options = state.game.options
    n, k, sides = options["players"], options["numdice"], options["dice_sides"]
    total, reset_face = n * k, options["bidding_rule"] == "reset-face"
    liar, unseen = total * sides, total - k
    own: List[int] = state.view(player)["seats"][player]["dice"]  # all rolled: bidding has begun
    legal: List[int] = state.legal_actions()
    bids = [b for b in legal if b != liar]
    if not bids:  # the highest bid was made: only Liar is left
        return liar
    chance = [bid_chance(b, own, unseen, sides, total, reset_face) for b in bids]
    best = max(chance)
    if liar in legal:
        last = bids[0] - 1  # legal bids start just above the last one
        if sides ** unseen - bid_chance(last, own, unseen, sides, total, reset_face) > best:
            return liar
    return rng.choice([b for b, c in zip(bids, chance) if c == best])
