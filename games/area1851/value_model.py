"""Area 1851's learned evaluation: a logistic regression of each seat's win from self-play.

``value_model.json`` beside this module holds the weights by feature name and
their provenance (the data's seed, games, positions, commit and command); it is
written by ``benchmarks/area1851_value_fit.py``. :func:`learned_values` is the
reference engine's form of the model; the kernel's ``evaluate`` computes the
same features with the same float operations in the same order once given the
weights (``kernel.set_value_weights``; ``tests/test_area1851_value_model.py``
checks them within 1e-9).

**In use at two and three players** (:data:`IN_USE_PLAYERS`), one model file per
player count (:data:`MODEL_FILES`): each was fitted on games of the search itself at
that count (ISMCTS at the preset, 1,000 iterations a move), and a search scoring its
cut playouts with it beat the search scoring them with the old evaluation at equal
time (issue 41, "Area 1851: the playout, and an evaluation learned from the search's
own games" and "Area 1851 at three players" in benchmarks/RESULTS.md). A first
model, fitted on the heuristic's games, had lost there (issue 41 Build 2; a likely
reason, not tested: it rewarded what the heuristic's winners hold and the search can
inflate, such as cards in hand). At 4-5 players no model is measured, so
``heuristic_values`` and the kernel's default evaluation stay
:func:`.heuristic.static_values` there. Changing :data:`IN_USE_PLAYERS` before a game
(and its kernel) is made switches both engines.

Why learned: the hand-written evaluation (:func:`.heuristic.static_values`, the
lead in score plus 0.7 per gadget rating, the modifications and 2 per face-down
feat, squashed by ``tanh``) weighs a point of lead the same on turn 2 and on
turn 15, and a gadget on the table the same whether there are turns left to
fill and deliver it or not (issue 41, Build 1: it hardly predicts the results
of top-level games). The features say that: the score lead alone and against
the share of the game played ("late"), the table's value alone and late, full
gadgets, the feats held face down (Final ones apart), the hand, the junkyard,
the assistants, the player count. The old evaluation is one of the features, so
the fit can keep what it knew.

Values: each seat's probability ``sigmoid(w . x_p)`` is divided by the sum over
the seats (a share ``s_p`` of the win), then mapped to the expected return of a
game with one winner, ``(n s_p - 1) / (n - 1)``: in ``[-1/(n-1), 1]``, summing
to 0 as the returns do.

Hidden information: inside ISMCTS the evaluation reads a *determinized* world
(sampled hands and face-down feats), never the real hidden state; the features
of a seat read that world's blocks like any rule does.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .cards import FEATS, FINAL, L_TOWNHALL, NUM_LOCATIONS, TINKER
from .heuristic import static_values

#: The features of one seat, in the order the weights are applied (the kernel copies this order).
FEATURES: Tuple[str, ...] = (
    "bias", "score lead / 10", "score lead x late", "score lead x late squared", "old evaluation",
    "table / 10", "table x late", "opponents' best table / 10", "full gadgets", "empty sockets / 3",
    "feats face down", "Final feats face down", "feats revealed", "hand / 5", "junkyard / 5",
    "assistants at the Town Hall", "assistants on the board", "late", "players 3", "players 4", "players 5",
    "to move")

#: Feat types scored only at the game's end (cards.FEATS' timing "Final").
FINAL_FEATS: Tuple[int, ...] = tuple(f for f, feat in enumerate(FEATS) if feat.timing == FINAL)

#: The model file of each player count with a model (package data, see pyproject.toml).
MODEL_FILES: Dict[int, str] = {2: "value_model.json", 3: "value_model_3p.json"}
#: The two-player model's file (the first one shipped; :data:`WEIGHTS`).
MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), MODEL_FILES[2])


def model_path(num_players: int) -> str:
    """The model file of ``num_players`` (a KeyError where there is none)."""
    return os.path.join(os.path.dirname(MODEL_PATH), MODEL_FILES[num_players])


def load_model(path: str = MODEL_PATH) -> Dict[str, Any]:
    """The model file as a dict (weights by name, provenance)."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def weights_of(model: Dict[str, Any]) -> Tuple[float, ...]:
    """The weights in :data:`FEATURES` order; a feature the file lacks weighs 0."""
    table = model.get("weights", {})
    return tuple(float(table.get(name, 0.0)) for name in FEATURES)


#: The shipped weights of each player count with a model (read once, at import).
WEIGHTS_BY_PLAYERS: Dict[int, Tuple[float, ...]] = {n: weights_of(load_model(model_path(n))) for n in MODEL_FILES}
#: The two-player weights.
WEIGHTS: Tuple[float, ...] = WEIGHTS_BY_PLAYERS[2]
#: The player counts at which ``heuristic_values`` (reference) and the kernel's ``evaluate`` use the
#: model (module docstring: fitted and measured at two and three players). The kernel reads it when it is made.
IN_USE_PLAYERS: FrozenSet[int] = frozenset(MODEL_FILES)


def in_use(num_players: int) -> bool:
    """Whether the engines evaluate a game of ``num_players`` with the model (else the old evaluation)."""
    return num_players in IN_USE_PLAYERS


def model_weights(num_players: int) -> Tuple[float, ...]:
    """The learned model's weights for ``num_players``: that count's (:data:`WEIGHTS_BY_PLAYERS`), else
    the two-player :data:`WEIGHTS`, whether or not the engines use the model there (:func:`in_use`)."""
    return WEIGHTS_BY_PLAYERS.get(num_players, WEIGHTS)


def default_weights(num_players: int) -> Optional[Tuple[float, ...]]:
    """The weights the engines evaluate a game of ``num_players`` with by default: :func:`model_weights`
    where the model is in use (:func:`in_use`), else None (the old static evaluation); what
    ``kernel.set_value_weights`` takes."""
    return model_weights(num_players) if in_use(num_players) else None


def table_value(gadgets: Sequence[Sequence[int]]) -> int:
    """The ratings on a seat's table: every face-up gadget's rating plus its modifications'."""
    value = 0
    for gad in gadgets:
        value += TINKER[gad[0]].rating
        for m in gad[1:]:
            if m >= 0:
                value += TINKER[m].rating
    return value


def late(state: Any) -> float:
    """The share of the game played: events revealed over the turns of a game, at most 1 (The End
    is the last event; Missing Time reveals two in one turn, so it counts as played)."""
    total = state.game.num_turns
    return min(len(state.events), total) / total


def features(state: Any, player: int, old: Optional[List[float]] = None) -> List[float]:
    """The inputs of the model for ``player`` at a reference ``state`` (not over), in :data:`FEATURES` order.

    ``old``: the old evaluation (:func:`.heuristic.static_values`) when the caller has it already.
    """
    n = state.game.num_players
    if old is None:
        old = static_values(state)
    blocks = state.players
    me = blocks[player]
    best = max(blocks[q].score for q in range(n) if q != player)
    opp_table = max(table_value(blocks[q].gadgets) for q in range(n) if q != player)
    lt = late(state)
    lead = (me.score - best) / 10.0
    table = table_value(me.gadgets) / 10.0
    full = 0
    empty = 0
    for gad in me.gadgets:
        holes = sum(1 for m in gad[1:] if m < 0)
        empty += holes
        if holes == 0:
            full += 1
    finals = 0
    for f in FINAL_FEATS:
        finals += me.down[f]
    board = 0
    for loc in range(NUM_LOCATIONS):
        board += me.wait[loc] + me.active[loc]
    return [1.0, lead, lead * lt, lead * lt * lt, old[player],
            table, table * lt, opp_table / 10.0, float(full), empty / 3.0,
            float(sum(me.down)), float(finals), float(len(me.up)), sum(me.hand) / 5.0, sum(me.junk) / 5.0,
            float(me.wait[L_TOWNHALL] + me.active[L_TOWNHALL]), float(board), lt,
            1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0, 1.0 if n == 5 else 0.0,
            1.0 if state.current_player() == player else 0.0]


def linear_score(x: Sequence[float], weights: Sequence[float]) -> float:
    """``w . x`` summed in feature order (the kernel sums in the same order)."""
    z = 0.0
    for w, v in zip(weights, x):
        z += w * v
    return z


def values_from_scores(scores: Sequence[float]) -> List[float]:
    """Seat scores ``w . x_p`` to values: sigmoid, shares of their sum, then ``(n s - 1) / (n - 1)``."""
    n = len(scores)
    probs = [1.0 / (1.0 + math.exp(-z)) for z in scores]
    total = 0.0
    for v in probs:
        total += v
    return [(n * (v / total) - 1.0) / (n - 1) for v in probs]


def learned_values(state: Any, weights: Optional[Sequence[float]] = None) -> List[float]:
    """Each seat's expected return under the model (module docstring); the returns at the end.

    ``weights``: in :data:`FEATURES` order; by default :func:`model_weights` of the state's player
    count, as the module holds them now.
    """
    if state.is_terminal():
        return state.returns()
    w = model_weights(state.game.num_players) if weights is None else weights
    old = static_values(state)
    return values_from_scores([linear_score(features(state, p, old), w) for p in range(state.game.num_players)])


__all__ = ["FEATURES", "FINAL_FEATS", "IN_USE_PLAYERS", "MODEL_FILES", "MODEL_PATH", "WEIGHTS", "WEIGHTS_BY_PLAYERS",
           "default_weights", "features", "in_use", "late", "learned_values", "linear_score",
           "load_model", "model_path", "model_weights", "table_value", "values_from_scores", "weights_of"]
