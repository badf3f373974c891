"""Sunken City's learned evaluation: a logistic regression of each seat's win from self-play.

``value_model.json`` beside this module holds the weights by feature name and
their provenance (the data's seed, games, positions, commit and command); it is
written by ``benchmarks/sunken_city_value_fit.py``. :func:`learned_values` is
the reference engine's static evaluation (``heuristic_values``); the kernel's
``evaluate`` reads the same file and computes the same features with the same
float operations in the same order (``tests/test_sunken_city_value_model.py``
checks them within 1e-9).

Why learned: the hand-written share of the "wealth" (2 per secured treasure, 1
per carried one) cannot tell a carried treasure that is one step from home
early in the game from one that is ten steps away with the Sand Timer about to
show, which is where the policy's playouts hoard (issue 41). The features say
exactly that: the lead, the carried treasures against the distance home and the
streets left before the timer, and whether a seat still has a turn after the
end was triggered. Each seat's probability ``sigmoid(w . x)`` is divided by their
sum, so the values add up to 1 as the returns do.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Sequence, Tuple

from . import board as B
from .components import FIRST_PILE, NUM_PILES
from .phases import CARRIED, PH_OVER, ROOF, SECURED, VILLAGE

#: The features of one seat, in the order the weights are applied (the kernel copies this order).
FEATURES: Tuple[str, ...] = (
    "bias", "lead in secured", "lead in value when tied / 10", "lead x late", "lead x late squared", "lead x end triggered", "secured", "carried",
    "carried value / 10", "carried x distance home / 8", "carried x late", "carried, no turn left",
    "opponents' most carried", "late", "end triggered", "no turn left", "players 3", "players 4", "chips",
    "to move", "roof-side up")

#: Where the weights ship (package data, see pyproject.toml).
MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "value_model.json")


def load_model(path: str = MODEL_PATH) -> Dict[str, Any]:
    """The model file as a dict (weights by name, provenance)."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def weights_of(model: Dict[str, Any]) -> Tuple[float, ...]:
    """The weights in :data:`FEATURES` order; a feature the file lacks weighs 0."""
    table = model.get("weights", {})
    return tuple(float(table.get(name, 0.0)) for name in FEATURES)


#: The shipped weights (read once, at import).
WEIGHTS: Tuple[float, ...] = weights_of(load_model())


def distance_home(state: Any, player: int) -> int:
    """Steps from ``player``'s adventurer to his village as the crow walks: the fewest row plus column
    steps from a cell of his piece to the village's corner cell, plus one to enter the village; 0 at home."""
    pos = state.adventurer[player]
    if pos == VILLAGE:
        return 0
    corner = B.VILLAGE_CORNER[state.game.seats[player]]
    cr, cc = divmod(corner, B.SIZE)
    best = 99
    for cell in B.piece_cells(state.cover, pos):
        r, c = divmod(cell, B.SIZE)
        best = min(best, abs(r - cr) + abs(c - cc))
    return best + 1


def streets_to_timer(state: Any) -> int:
    """Streets still to draw before the Sand Timer shows: street spaces 1-5 from the draw pile on."""
    return sum(state.piles[state.draw:NUM_PILES - 1]) if state.draw < NUM_PILES - 1 else 0


def features(state: Any, player: int) -> List[float]:
    """The inputs of the model for ``player`` at a reference ``state`` (not over), in :data:`FEATURES` order."""
    n = state.game.players
    sec = [0] * n
    secv = [0] * n
    car = [0] * n
    carv = [0] * n
    roof = [0] * n
    for p in range(n):
        for t, status in enumerate(state.treasure[p]):
            if status == SECURED:
                sec[p] += 1
                secv[p] += t
            elif status == CARRIED:
                car[p] += 1
                carv[p] += t
            elif status == ROOF:
                roof[p] += 1
    opp_sec = max(sec[q] for q in range(n) if q != player)
    opp_secv = max(secv[q] for q in range(n) if q != player)
    opp_car = max(car[q] for q in range(n) if q != player)
    start = FIRST_PILE[n] + 4
    late = 1.0 - min(streets_to_timer(state), start) / start
    no_turn = 1.0 if state.end_triggered and player < state.turn else 0.0
    lead = float(sec[player] - opp_sec)
    c = float(car[player])
    tied = [secv[q] for q in range(n) if q != player and sec[q] == sec[player]]
    vlead = (secv[player] - max(tied)) / 10.0 if tied else 0.0
    return [1.0, lead, vlead, lead * late, lead * late * late,
            lead if state.end_triggered else 0.0, float(sec[player]), c, carv[player] / 10.0,
            c * distance_home(state, player) / 8.0, c * late, c * no_turn, float(opp_car), late,
            1.0 if state.end_triggered else 0.0, no_turn, 1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0,
            float(state.chips[player]), 1.0 if state.turn == player else 0.0, float(roof[player])]


def linear_score(x: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """``w . x`` summed in feature order (the kernel sums in the same order)."""
    z = 0.0
    for w, v in zip(weights, x):
        z += w * v
    return z


def learned_values(state: Any, weights: Sequence[float] = WEIGHTS) -> List[float]:
    """Each seat's share of the win: ``sigmoid(w . x_p)`` over their sum; the returns at the end."""
    if state.phase == PH_OVER:
        return state.returns()
    probs = [1.0 / (1.0 + math.exp(-linear_score(features(state, p), weights))) for p in range(state.game.players)]
    total = 0.0
    for v in probs:
        total += v
    return [v / total for v in probs]


__all__ = ["FEATURES", "MODEL_PATH", "WEIGHTS", "distance_home", "features", "learned_values", "linear_score",
           "load_model", "streets_to_timer", "weights_of"]
