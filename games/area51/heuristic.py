"""The Area 51 heuristic: a static evaluation and a greedy, hand-written policy.

Both read the state only through the public API (``legal_actions``,
``view(own seat)``, ``current_player``, ``returns``), never another player's
hidden cards, so they run unchanged on a native engine. The kernel's
``policy_action`` is an exact port of :func:`policy`: with the same random
stream (``aiplay.testing.kernel_rng.KernelRandom``) both choose the same action
(``tests/test_policy_agreement.py``).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Dict, List

from . import actions as A
from .components import HIGHEST_BUNKER_POINTS, type_colour, type_value

if TYPE_CHECKING:  # pragma: no cover
    from aiplay.game import State

#: Score lead (in points) that the evaluation maps to about 0.76 (tanh(1)).
SCALE = 15.0


def _projected(view: Dict[str, Any]) -> List[float]:
    """Each seat's score plus the highest-bunker points it would get if the game ended now."""
    owners = len(view["scores"])
    total = [float(s + b) for s, b in zip(view["scores"], view["bonus"])]
    if view["phase"] != "over":
        for reg in view["spaces"]:
            ranked = sorted(((b[2], s, b[1]) for s, b in enumerate(reg) if b is not None), reverse=True)
            for points, (_, _, owner) in zip(HIGHEST_BUNKER_POINTS, ranked):
                total[owner] += points
            for b in reg:
                if b is not None:
                    total[b[1]] += 0.5 * b[2]  # a bunker keeps scoring while piles are loaded
    seats = view["owners_of_seat"]
    return [min(total[o] for o in seats[p]) if owners else 0.0 for p in range(view["players"])]


def static_values(state: "State") -> List[float]:
    """Each seat's value in (-1, 1): its projected lead over the best rival, squashed.

    Uses only public information (the view of seat 0 with its hand unused).
    """
    n = state.game.num_players
    if state.is_terminal():
        return state.returns()
    proj = _projected(state.view(0)["internal"])
    out = []
    for p in range(n):
        rival = max(proj[q] for q in range(n) if q != p)
        out.append(0.99 * math.tanh((proj[p] - rival) / SCALE))
    return out


def _own_bunkers(view: Dict[str, Any], me: int):
    mine = set(view["owners_of_seat"][me])
    for r, reg in enumerate(view["spaces"]):
        for s, b in enumerate(reg):
            if b is not None and b[1] in mine:
                yield r, s, b


def policy(state: "State", rng: random.Random) -> int:
    """A greedy player: store in its own bunkers first and in the weakest rival's otherwise,
    build and upgrade where it holds the matching colour, pick up large or rewarding piles."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
    mine = set(view["owners_of_seat"][me])
    decoded = [(a, *A.decode(a)) for a in legal]
    kinds = {block for _, block, _ in decoded}

    if "kind" in kinds:
        return _choose_kind(view, me, legal, rng)
    if "store" in kinds:
        return max(decoded, key=lambda d: _store_value(view, mine, d[2]))[0]
    if kinds & {"take_up", "take_deck", "refresh"}:
        return _choose_take(view, me, decoded)
    if kinds & {"create", "upgrade"}:
        return max(decoded, key=lambda d: _build_value(view, me, d[1], d[2]) + rng.random() * 0.1)[0]
    if "pick" in kinds:
        return max(decoded, key=lambda d: _pile_value(view, mine, d[2][0], d[2][1]))[0]
    if "route" in kinds:
        return rng.choice(legal)
    if "number" in kinds:
        return min(legal)  # the cheapest vehicle
    if "face_up" in kinds or "face_down" in kinds:
        return min(decoded, key=lambda d: _card_keep_value(view, mine, d[2][0], d[2][1]))[0]
    return rng.choice(legal)


def _colours_owned(view: Dict[str, Any], me: int) -> Dict[int, int]:
    out: Dict[int, int] = {}
    for _, _, (c, _, level) in _own_bunkers(view, me):
        out[c] = max(out.get(c, 0), level)
    return out


def _pile_value(view: Dict[str, Any], mine: set, r: int, h: int) -> float:
    """Cards gained plus points the face-up cards would bring to our bunkers in that region."""
    value = 0.0
    cards = view["hangars"][r][h]
    for t, up, _ in cards:
        value += 0.6
        if t is None:
            continue
        c, v = type_colour(t), type_value(t)
        for b in view["spaces"][r]:
            if b is not None and b[0] == c and b[2] >= v:
                value += v if b[1] in mine else -0.3 * v
                break
    return value


def _choose_kind(view: Dict[str, Any], me: int, legal: List[int], rng: random.Random) -> int:
    mine = set(view["owners_of_seat"][me])
    size = sum(view["hand"])
    if A.KIND_PICKUP in legal:
        best = max((_pile_value(view, mine, r, h) for r, reg in enumerate(view["hangars"])
                    for h, cards in enumerate(reg) if cards), default=0.0)
        if best >= 4.0 or (best >= 2.5 and size < 4):
            return A.KIND_PICKUP
    if A.KIND_BUILD in legal and size >= 4 and rng.random() < 0.8:
        return A.KIND_BUILD
    if A.KIND_COLLECT in legal and size < 10:
        return A.KIND_COLLECT
    if A.KIND_BUILD in legal:
        return A.KIND_BUILD
    if A.KIND_PICKUP in legal:
        return A.KIND_PICKUP
    return legal[0]


def _choose_take(view: Dict[str, Any], me: int, decoded) -> int:
    owned = _colours_owned(view, me)
    hand = view["hand"]
    best, best_value = None, -1e9
    for a, block, args in decoded:
        if block == "take_up":
            t = args[0]
            c = type_colour(t)
            value = 1.0 + (2.0 if c in owned else 0.0) + 0.3 * type_value(t) - 0.2 * sum(hand[c * 4:c * 4 + 4])
        elif block == "take_deck":
            value = 1.5
        else:
            continue  # never refresh: keeps the policy simple
        if value > best_value:
            best, best_value = a, value
    return best


def _build_value(view: Dict[str, Any], me: int, block: str, args) -> float:
    owned = _colours_owned(view, me)
    if block == "upgrade":
        r, s = args
        c, _, level = view["spaces"][r][s]
        cap = 3 if c == 0 else 4
        return 3.0 - level if level < cap else -1.0
    c, r, j = args
    n_own = sum(1 for _ in _own_bunkers(view, me))
    hand = view["hand"]
    value = (2.5 if n_own < 3 else 0.0) + 0.3 * sum(hand[c * 4:c * 4 + 4]) + 0.1 * view["markers"][r] - (
        1.0 if c in owned else 0.0)
    owners = view["owners_of_seat"][me]
    if len(owners) > 1:
        # A seat with two owners (2 players) scores its poorer one: spread the
        # bunkers, building for the owner with more caps left.
        value += 0.02 * view["caps"][owners[j]]
    return value


def _card_keep_value(view: Dict[str, Any], mine: set, t: int, h: int) -> float:
    """How much we would rather keep card ``t`` (lower is played first); small piles first."""
    c = type_colour(t)
    keep = type_value(t) + (3.0 if any(b is not None and b[0] == c and b[1] in mine
                                       for reg in view["spaces"] for b in reg) else 0.0)
    r = view["context"].get("region", 0)
    return keep + 0.05 * len(view["hangars"][r][h])


def _store_value(view: Dict[str, Any], mine: set, args) -> float:
    """Own bunker: the artifact's value; a rival's: as little as possible, to the weakest rival."""
    t, r, s = args
    owner = view["spaces"][r][s][1]
    v = type_value(t)
    scores = view["scores"]
    if owner in mine:
        # With two owners (2 players) the seat scores its poorer one: feed it.
        return 100.0 + v - 0.001 * scores[owner]
    weakest = min(scores[o] for o in range(len(scores)) if o not in mine)
    return -10.0 * v - 0.1 * (scores[owner] - weakest)
