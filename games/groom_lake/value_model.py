"""Groom Lake's learned evaluation: an escape model and an Alien Proof race, fitted on self-play.

``value_model.json`` beside this module holds the weights by feature name and
their provenance (the data's seed, games, positions, commit and command); it is
written by ``benchmarks/groom_lake_value_fit.py``. :func:`learned_values` is
the reference engine's static evaluation (``heuristic_values``); the kernel's
``evaluate`` reads the same weights and computes the same features with the
same float operations in the same order
(``games/groom_lake/tests/test_groom_lake_value_model.py`` checks them within 1e-9).

The game's result has two parts, and so does the model:

* **the escape** (the Team reaches Civilization; otherwise the Alien wins):
  ``e = sigmoid(w . x)`` over the features of :data:`ESCAPE_FEATURES`: those of
  the hand-fitted escape model of ``heuristic.escape_chance`` plus the clock
  (the Discard Stack's cards, the Team's fewest life), the Alien's weapon (its
  Technology AP: 50 wins at once), the room left to scout (empty cells beside
  the Team, tiles and Civilizations left in the stacks), the Recovery cards, and
  the Team's size again at three players (where one Human's death halves it);
* **the race** (who of the living Team wins an escape: the most Alien Proof):
  a softmax over the living Team members of ``v . r`` (:data:`RACE_FEATURES`:
  AP, life tokens, cards without AP), a conditional logit fitted on the Team
  members of positions whose game ended in an escape. With a Half-Win the
  living Team shares the win, as in the rules.

A seat's value is then its expected return, as ``heuristic.static_values``
computes it: a winner gets ``+1`` (a share with a Half-Win), a loser
``-1 / (n - winners)``. The model reads the true state, roles and hidden cards
included: a search calls it on a world it sampled (a determinization), never
on the real game's hidden state.

**Weights by the searching seat's role.** A search scores its cut playouts
with ``heuristic_values_for(searcher)``: at three players the Alien's search
uses a model fitted on games where the Alien searched, a Human's one fitted on
games where one seat searched among heuristic bots (:data:`SEARCHER_MODEL_FILES`).
Fitted on the search's own games, one model for every seat made a Human's
search stronger and the Alien's weaker (``benchmarks/RESULTS.md``, "Groom
Lake: evaluations fitted on the search's own games"); one per role made both
stronger. Elsewhere (4-6 players, and ``heuristic_values()``, which no seat
asks) the weights of ``value_model.json`` stand.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .components import ALIEN, AP_VALUE, CIVILIZATION, DIRS, RECOVERY, TECH, TILES, in_grid
from . import heuristic as H
from .heuristic import escape_inputs

#: The escape model's features, in the order the weights are applied (the kernel copies this order).
ESCAPE_FEATURES: Tuple[str, ...] = (
    "bias", "players 4", "players 5", "players 6", "clear Civilization next", "clear Civilization",
    "steps to it (cap 8)", "Civilization with a hazard", "steps from the lake (cap 8)", "tiles on the map / 10",
    "Team members / starters", "Team life / starters", "Team cards without AP / starters", "Alien alive",
    "Alien's Technology AP / 10", "Discard Stack cards", "Team's fewest life", "empty cells beside the Team",
    "tiles left in the stacks / 10", "Civilizations left in the stacks", "Team's Recovery cards",
    "Recovery cards played", "players 3 x Team members / starters")
#: The race's features of one living Team member (no bias: a softmax ignores it).
RACE_FEATURES: Tuple[str, ...] = ("race: AP / 10", "race: life", "race: cards without AP")
#: Every weight of the file, escape first.
FEATURES: Tuple[str, ...] = ESCAPE_FEATURES + RACE_FEATURES

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


#: The shipped weights (read once, at import; the kernel copies them when it is made).
WEIGHTS: Tuple[float, ...] = weights_of(load_model())

#: The models a search uses by (players, the searching seat's role: "alien", or "human" for a Human or
#: the Hunter), beside this module; where none is named, :data:`WEIGHTS`.
SEARCHER_MODEL_FILES: Dict[Tuple[int, str], str] = {
    (3, "alien"): "value_model_3p_alien.json", (3, "human"): "value_model_3p_human.json"}


def searcher_model_path(players: int, role: str) -> str:
    """Where the model for the search of a seat holding ``role`` at ``players`` ships (KeyError if none)."""
    return os.path.join(os.path.dirname(MODEL_PATH), SEARCHER_MODEL_FILES[(players, role)])


#: Their weights (read once, at import; the kernel copies them when it is made).
SEARCHER_WEIGHTS: Dict[Tuple[int, str], Tuple[float, ...]] = {
    key: weights_of(load_model(searcher_model_path(*key))) for key in SEARCHER_MODEL_FILES}


def role_kind(role: int) -> str:
    """``"alien"`` for the Alien, ``"human"`` for every other role (a Human, the Hunter, none dealt yet)."""
    return "alien" if role == ALIEN else "human"


def searcher_weights(players: int, role: str) -> Tuple[float, ...]:
    """The weights a search scores its cut playouts with, at ``players``, for a searching seat of ``role``.

    ``role`` is ``"alien"`` or ``"human"`` (:func:`role_kind`); the role's own model where
    :data:`SEARCHER_WEIGHTS` has one, else :data:`WEIGHTS`.
    """
    return SEARCHER_WEIGHTS.get((players, role), WEIGHTS)


def _static_weights() -> Tuple[float, ...]:
    """The hand-fitted evaluation of ``heuristic.static_values`` written as weights of this model.

    Its escape model reads a subset of these features (the intercept per table
    size as the bias and the players dummies, tiles per tile rather than per
    ten) and its race is a softmax of AP / ``AP_SCALE``; so these weights give
    the same values up to rounding. The strength script plays them as "today's"
    evaluation (the kernel has no other), and a test checks the identity.
    """
    table = {
        "bias": H.ESCAPE_BIAS[3], "players 4": H.ESCAPE_BIAS[4] - H.ESCAPE_BIAS[3],
        "players 5": H.ESCAPE_BIAS[5] - H.ESCAPE_BIAS[3], "players 6": H.ESCAPE_BIAS[6] - H.ESCAPE_BIAS[3],
        "clear Civilization next": H.ESCAPE_CIV_NEXT, "clear Civilization": H.ESCAPE_CIV_CLEAR,
        "steps to it (cap 8)": H.ESCAPE_CIV_STEP, "Civilization with a hazard": H.ESCAPE_CIV_HAZARD,
        "steps from the lake (cap 8)": H.ESCAPE_LAKE, "tiles on the map / 10": 10 * H.ESCAPE_TILE,
        "Team members / starters": H.ESCAPE_TEAM, "Team life / starters": H.ESCAPE_LIFE,
        "Team cards without AP / starters": H.ESCAPE_CARDS, "Alien alive": H.ESCAPE_ALIEN,
        "race: AP / 10": 10.0 / H.AP_SCALE}
    assert H.ESCAPE_STEP_CAP == 8 and H.ESCAPE_LAKE_CAP == 8  # the caps of the features
    return tuple(float(table.get(name, 0.0)) for name in FEATURES)


#: The old static evaluation's weights (see :func:`_static_weights`).
STATIC_WEIGHTS: Tuple[float, ...] = _static_weights()


def escape_features(state: Any) -> List[float]:
    """The escape model's inputs at a reference ``state``, in :data:`ESCAPE_FEATURES` order."""
    n = state.n
    tx, ty = state.team
    clear, hazard, members, life, cards, alien_alive = escape_inputs(state)
    starters = n - 1
    tech = fewest = recovery = 0
    for p in range(n):
        if state.roles[p] == ALIEN:
            tech = sum(state.hands[p][t] * AP_VALUE[t] for t in TECH)
        elif state.life[p] > 0:
            if fewest == 0 or state.life[p] < fewest:
                fewest = state.life[p]
            recovery += state.hands[p][RECOVERY]
    grid = state.grid()
    empty = sum(1 for dx, dy in DIRS if in_grid(tx + dx, ty + dy) and (tx + dx, ty + dy) not in grid)
    left = sum(len(s) for s in state.stacks)
    civ = sum(1 for s in state.stacks for t in s if TILES[t].terrain == CIVILIZATION)
    return [1.0, 1.0 if n == 4 else 0.0, 1.0 if n == 5 else 0.0, 1.0 if n == 6 else 0.0,
            1.0 if clear == 1 else 0.0, 1.0 if clear >= 0 else 0.0, float(min(max(clear, 0), 8)),
            1.0 if hazard else 0.0, float(min(abs(tx) + abs(ty), 8)), len(state.placed) / 10.0,
            members / starters, life / starters, cards / starters, float(alien_alive),
            tech / 10.0, float(len(state.discard)), float(fewest), float(empty), left / 10.0, float(civ),
            float(recovery), float(state.recoveries), members / starters if n == 3 else 0.0]


def race_features(state: Any, player: int) -> List[float]:
    """The race's inputs of a living Team member, in :data:`RACE_FEATURES` order."""
    hand = state.hands[player]
    return [state.ap_of(player) / 10.0, float(state.life[player]),
            float(sum(c for t, c in enumerate(hand) if AP_VALUE[t] == 0))]


def linear_score(x: Sequence[float], weights: Sequence[float]) -> float:
    """``w . x`` summed in feature order (the kernel sums in the same order)."""
    z = 0.0
    for w, v in zip(weights, x):
        z += w * v
    return z


def escape_probability(state: Any, weights: Optional[Sequence[float]] = None) -> float:
    """The model's chance that the Team escapes from ``state`` (by :data:`WEIGHTS` unless ``weights`` are given)."""
    weights = WEIGHTS if weights is None else weights
    z = linear_score(escape_features(state), weights[:len(ESCAPE_FEATURES)])
    return 1.0 / (1.0 + math.exp(-z))


def race_shares(state: Any, weights: Optional[Sequence[float]] = None) -> Dict[int, float]:
    """Each living Team member's chance to win an escape (equal shares once a Half-Win is agreed)."""
    weights = WEIGHTS if weights is None else weights
    team = [p for p in range(state.n) if state.life[p] > 0 and state.roles[p] != ALIEN]
    if not team:
        return {}
    if state.half_agreed:
        return {p: 1.0 / len(team) for p in team}
    race = weights[len(ESCAPE_FEATURES):]
    scores = {p: linear_score(race_features(state, p), race) for p in team}
    best = max(scores.values())
    raw = {p: math.exp(s - best) for p, s in scores.items()}
    total = 0.0
    for p in team:
        total += raw[p]
    return {p: raw[p] / total for p in team}


def learned_values(state: Any, weights: Optional[Sequence[float]] = None,
                   searcher: Optional[int] = None) -> List[float]:
    """Each seat's expected return in [-1, 1] by the model; the returns once the game is over.

    The weights: ``weights`` if given, else those of seat ``searcher``'s search
    (:func:`searcher_weights` of its role), else :data:`WEIGHTS`.
    """
    if state.is_terminal():
        return state.returns()
    if weights is None:
        weights = WEIGHTS if searcher is None else searcher_weights(state.n, role_kind(state.roles[searcher]))
    return H.expected_returns(state, escape_probability(state, weights), race_shares(state, weights))


__all__ = ["ESCAPE_FEATURES", "FEATURES", "MODEL_PATH", "RACE_FEATURES", "SEARCHER_MODEL_FILES", "SEARCHER_WEIGHTS",
           "STATIC_WEIGHTS", "WEIGHTS", "escape_features", "escape_probability", "learned_values", "linear_score",
           "load_model", "race_features", "race_shares", "role_kind", "searcher_model_path", "searcher_weights",
           "weights_of"]
