"""Pig, exactly as OpenSpiel defines it (``open_spiel/games/pig``).

Each turn the player rolls a die as often as they like, adding the faces to a
turn total. Rolling a 1 loses the turn total and ends the turn; stopping
banks the turn total. The first to reach ``winscore`` wins.

OpenSpiel's conventions, kept here so the two can be compared action by
action:

* decision actions: ``0`` roll, ``1`` stop; once the score plus the turn total
  reaches ``winscore``, only stop is legal;
* chance outcomes ``0..diceoutcomes-1`` stand for faces ``1..diceoutcomes``
  (with ``piglet``: ``0`` is a 1 and ``1`` is any other face, worth 1 point);
* ``horizon`` counts decisions only; reaching it ends the game, a draw;
* returns: the winner gets 1 and every other player ``-1/(players-1)``.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Tuple

from aiplay.game import (
    CHANCE, TERMINAL, Game, ReferenceState, bool_option, int_option, reject_unknown_fields,
    require_int, require_int_list,
)
from aiplay.errors import InvalidStateError

from .view import build as build_view

ROLL = 0
STOP = 1


def hold_at_20(state: "PigState", rng: random.Random) -> int:
    """The classic Pig baseline: roll until the turn total reaches 20 (or would win).

    Reads only ``to_dict()``, so it plays on the native engine too.
    """
    data = state.to_dict()
    if data["turn_total"] >= 20 or len(state.legal_actions()) == 1:
        return STOP
    return ROLL


class PigGame(Game):
    """The dice game Pig with OpenSpiel's parameters."""

    heuristic_policy = staticmethod(hold_at_20)

    name = "pig"
    title = "Pig (OpenSpiel's definition)"
    #: The same game in OpenSpiel (``pyspiel.load_game`` name): ``aiplay bench`` races its searchers there.
    openspiel_game = "pig"
    option_spec = {
        "players": int_option(2, 2, 10, "number of players"),
        "winscore": int_option(100, 1, 10_000, "score that wins"),
        "diceoutcomes": int_option(6, 2, 100, "faces of the die"),
        "horizon": int_option(1000, 1, 1_000_000, "decisions before the game is a draw"),
        "piglet": bool_option(False, "coin-like die: a 1 or 'not 1' worth one point"),
    }

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.winscore: int = self._options["winscore"]
        self.diceoutcomes: int = self._options["diceoutcomes"]
        self.horizon: int = self._options["horizon"]
        self.piglet: bool = self._options["piglet"]

    @property
    def num_players(self) -> int:
        return self._options["players"]

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def max_chance_outcomes(self) -> int:
        # OpenSpiel reports diceoutcomes even for piglet, whose outcomes are only 0 and 1.
        return self._options["diceoutcomes"]

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def perfect_information(self) -> bool:
        return True

    @property
    def max_roll(self) -> int:
        """Points the best chance outcome adds to the turn total."""
        return 1 if self._options["piglet"] else self._options["diceoutcomes"]

    def new_initial_state(self) -> "PigState":
        return PigState(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "PigState":
        reject_unknown_fields(data, ("scores", "turn_total", "turn_player", "rolling", "total_moves"))
        n, win = self.num_players, self._options["winscore"]
        # A bank never exceeds winscore-1 plus one roll: stopping is forced at winscore.
        top = win - 1 + self.max_roll
        scores = require_int_list(data, "scores", n, 0, top)
        turn_total = require_int(data, "turn_total", 0, top)
        turn_player = require_int(data, "turn_player", 0, n - 1)
        total_moves = require_int(data, "total_moves", 0, self._options["horizon"])
        if "rolling" not in data:
            raise InvalidStateError("state.rolling", "missing")
        if not isinstance(data["rolling"], bool):
            raise InvalidStateError("state.rolling", f"must be true or false, got {data['rolling']!r}")
        winners = [p for p in range(n) if scores[p] >= win]
        if len(winners) > 1:
            raise InvalidStateError("state.scores", f"players {winners} all reached winscore {win}; at most one can")
        if winners and turn_total:
            raise InvalidStateError("state.turn_total", "must be 0 once a player has won")
        if scores[turn_player] + turn_total >= win + self.max_roll:
            raise InvalidStateError(
                "state.turn_total", "score plus turn total exceeds what a forced stop allows")
        if data["rolling"] and scores[turn_player] + turn_total >= win:
            # Once score plus turn total reaches winscore only "stop" is legal,
            # so no die can be in the air (a roll would then pass the bound above).
            raise InvalidStateError("state.rolling", "a player who has reached winscore must stop, not roll")
        if data["rolling"] and winners:
            raise InvalidStateError("state.rolling", "the game is over: nobody rolls")
        state = PigState(self)
        state.banked = scores
        state.turn_total = turn_total
        state.turn_player = turn_player
        state.rolling = data["rolling"]
        state.total_moves = total_moves
        return state


class PigState(ReferenceState):
    """A Pig position: banked scores, the running turn total, whose turn, and whether a die is in the air."""

    __slots__ = ("game", "banked", "turn_total", "turn_player", "rolling", "total_moves")

    def __init__(self, game: PigGame):
        self.game = game
        self.banked: List[int] = [0] * game.num_players
        self.turn_total = 0
        self.turn_player = 0
        self.rolling = False  # a roll was chosen and the die is not resolved yet
        self.total_moves = 0  # decisions made; OpenSpiel's horizon counts these

    def _is_over(self) -> bool:
        if self.total_moves >= self.game.horizon:
            return True
        win = self.game.winscore
        return any(s >= win for s in self.banked)

    def _current_player(self) -> int:
        if self._is_over():
            return TERMINAL
        return CHANCE if self.rolling else self.turn_player

    def _legal_actions(self) -> List[int]:
        if self.banked[self.turn_player] + self.turn_total >= self.game.winscore:
            return [STOP]
        return [ROLL, STOP]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        d = self.game.diceoutcomes
        if self.game.piglet:
            return [(0, 1.0 / d), (1, 1.0 - 1.0 / d)]
        return [(face, 1.0 / d) for face in range(d)]

    def _apply(self, action: int) -> None:
        n = self.game.num_players
        if self.rolling:
            self.rolling = False
            if action == 0:  # a 1: the turn total is lost and the turn passes
                self.turn_total = 0
                self.turn_player = (self.turn_player + 1) % n
            else:
                self.turn_total += 1 if self.game.piglet else action + 1
            return
        self.total_moves += 1
        if action == ROLL:
            self.rolling = True
        else:
            self.banked[self.turn_player] += self.turn_total
            self.turn_total = 0
            self.turn_player = (self.turn_player + 1) % n

    def clone(self) -> "PigState":
        other = PigState.__new__(PigState)
        other.game = self.game
        other.banked = list(self.banked)
        other.turn_total = self.turn_total
        other.turn_player = self.turn_player
        other.rolling = self.rolling
        other.total_moves = self.total_moves
        return other

    def returns(self) -> List[float]:
        n = self.game.num_players
        if not self._is_over():
            return [0.0] * n
        win = self.game.winscore
        for player, score in enumerate(self.banked):
            if score >= win:
                values = [-1.0 / (n - 1)] * n
                values[player] = 1.0
                return values
        return [0.0] * n  # the horizon ended the game with no winner

    def scores(self) -> List[float]:
        return [float(s) for s in self.banked]

    def heuristic_values(self) -> List[float]:
        """Each player's lead over the others' mean, in units of ``winscore``, clipped to [-1, 1].

        The turn total counts for the player on turn. Integer arithmetic up to
        one final division keeps the kernel's figures bit-identical.
        """
        if self._is_over():
            return self.returns()
        n = self.game.num_players
        points = list(self.banked)
        points[self.turn_player] += self.turn_total
        total = sum(points)
        scale = (n - 1) * self.game.winscore
        return [max(-1.0, min(1.0, (p * n - total) / scale)) for p in points]

    def action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE:
            return f"Roll {action if self.game.piglet else action + 1}"
        return "roll" if action == ROLL else "stop" if action == STOP else f"action {action}"

    def information_state_string(self, player: int) -> str:
        # Everything is public; the move count is included because the horizon reads it.
        return f"{self}\nMoves: {self.total_moves}"

    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def determinize(self, observer: int, rng: random.Random) -> "PigState":
        return self.clone()  # perfect information: nothing is hidden

    def to_dict(self) -> Dict[str, Any]:
        return {
            "scores": list(self.banked),
            "turn_total": self.turn_total,
            "turn_player": self.turn_player,
            "rolling": self.rolling,
            "total_moves": self.total_moves,
        }

    def __str__(self) -> str:
        rolling = " (rolling)" if self.rolling else ""
        return (f"Scores: {' '.join(map(str, self.banked))}, Turn total: {self.turn_total}\n"
                f"Current player: {self.turn_player}{rolling}")
