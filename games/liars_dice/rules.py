"""Liar's Dice, exactly as OpenSpiel defines it (``open_spiel/games/liars_dice``).

Each player rolls ``numdice`` dice of ``dice_sides`` sides in secret. Then the
players bid in turn, seat 0 first: a bid "q-f" claims that at least ``q`` dice
among *all* players' dice show face ``f``. The highest face is wild: it counts
for every face (and once for itself). Each bid must be higher than the last
one; instead of bidding, a player may call "Liar" on the last bid. Then every
die is counted: if the bid holds, the bidder wins (+1) and the caller loses
(-1), otherwise the other way round; any other seat gets 0.

OpenSpiel's conventions, kept here so the two can be compared action by action:

* bids are action ids ``0 .. total_dice * dice_sides - 1`` ordered by strength;
  ``total_dice * dice_sides`` is "Liar" (legal once a bid was made). With
  ``bidding_rule="reset-face"`` bid ``b`` is quantity ``b // sides + 1`` of face
  ``b % sides + 1`` (a higher quantity beats any face); with ``"reset-quantity"``
  it is quantity ``b % total + 1`` of face ``b // total + 1`` (a higher face
  beats any quantity);
* chance outcomes ``0 .. sides - 1`` are die faces ``1 .. sides``, each
  ``1 / sides``. Seat 0 rolls all its dice, then seat 1, and so on; once the
  last die is rolled every seat's dice are sorted (before that, a seat's dice
  stay in roll order, unrolled ones printed ``-1``);
* ``information_state_string`` is OpenSpiel's, character for character: the
  seat's dice, then every bid as ``q-f`` and a final ``Liar``.

OpenSpiel 2.0.2 accepts only two players; its code is written for any number
(round-robin turns, +1/-1 to bidder and caller only) and this engine follows
that code for three and four players too, which OpenSpiel cannot check.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Tuple

from aiplay.errors import InvalidStateError
from aiplay.game import (
    CHANCE, TERMINAL, Game, ReferenceState, choice_option, int_option, reject_unknown_fields,
)

from .heuristic import probability_policy
from .view import build as build_view

RESET_FACE = "reset-face"
RESET_QUANTITY = "reset-quantity"
BIDDING_RULES = (RESET_FACE, RESET_QUANTITY)
#: What OpenSpiel prints for a die not rolled yet.
UNROLLED = -1
#: Upper bounds of the options: the kernel sizes its C arrays from them.
MAX_PLAYERS = 4
MAX_DICE = 5
MAX_SIDES = 8


class LiarsDiceGame(Game):
    """Liar's Dice with OpenSpiel's parameters."""

    name = "liars_dice"
    title = "Liar's Dice (OpenSpiel's definition)"
    #: The same game in OpenSpiel (``pyspiel.load_game`` name): ``aiplay bench`` races its searchers there.
    openspiel_game = "liars_dice"
    #: The probability heuristic (heuristic.py): the heuristic bot and policy rollouts.
    heuristic_policy = staticmethod(probability_policy)
    option_spec = {
        "players": int_option(2, 2, MAX_PLAYERS, "number of players (OpenSpiel itself accepts only 2)"),
        "numdice": int_option(1, 1, MAX_DICE, "dice per player"),
        # One side would leave nothing hidden: every die shows the wild face.
        "dice_sides": int_option(6, 2, MAX_SIDES, "sides of each die; the highest face is wild"),
        "bidding_rule": choice_option(RESET_FACE, BIDDING_RULES,
                                      "reset-face: a higher quantity beats any face; "
                                      "reset-quantity: a higher face beats any quantity"),
    }

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.players: int = self._options["players"]
        self.numdice: int = self._options["numdice"]
        self.sides: int = self._options["dice_sides"]
        self.reset_face: bool = self._options["bidding_rule"] == RESET_FACE
        self.total_dice: int = self.players * self.numdice
        #: The action id of "Liar" (one past the highest bid).
        self.liar: int = self.total_dice * self.sides

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def num_distinct_actions(self) -> int:
        return self.liar + 1

    @property
    def max_chance_outcomes(self) -> int:
        return self.sides

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def max_game_length(self) -> int:
        """Every die rolled, every bid made in increasing order, then "Liar"."""
        return self.total_dice + self.liar + 1

    def unrank_bid(self, bid: int) -> Tuple[int, int]:
        """``(quantity, face)`` of bid id ``bid`` under the game's bidding rule."""
        if self.reset_face:
            return bid // self.sides + 1, bid % self.sides + 1
        return bid % self.total_dice + 1, bid // self.total_dice + 1

    def bid_name(self, bid: int) -> str:
        """OpenSpiel's name of a bid id: ``"q-f"``, or ``"Liar"``."""
        if bid == self.liar:
            return "Liar"
        quantity, face = self.unrank_bid(bid)
        return f"{quantity}-{face}"

    def new_initial_state(self) -> "LiarsDiceState":
        return LiarsDiceState(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "LiarsDiceState":
        """Rebuild a state by replaying its rolls and bids, so every rule is checked."""
        reject_unknown_fields(data, ("dice", "bids"))
        for key in ("dice", "bids"):
            if key not in data:
                raise InvalidStateError(f"state.{key}", "missing")
        dice, bids = data["dice"], data["bids"]
        n, k = self.players, self.numdice
        if not isinstance(dice, list) or len(dice) != n:
            raise InvalidStateError("state.dice", f"must be a list of {n} lists (one per seat), got {dice!r}")
        if not isinstance(bids, list):
            raise InvalidStateError("state.bids", f"must be a list, got {bids!r}")
        state = LiarsDiceState(self)
        rolls: List[Tuple[str, int]] = []
        for seat, seat_dice in enumerate(dice):
            if not isinstance(seat_dice, list) or len(seat_dice) != k:
                raise InvalidStateError(f"state.dice[{seat}]", f"must be a list of {k} dice, got {seat_dice!r}")
            for slot, face in enumerate(seat_dice):
                field = f"state.dice[{seat}][{slot}]"
                if face is None:
                    continue
                if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= self.sides:
                    raise InvalidStateError(field, f"must be a face from 1 to {self.sides} or null, got {face!r}")
                if seat * k + slot != len(rolls):
                    # Dice are rolled seat by seat, slot by slot: the rolled ones form a prefix.
                    raise InvalidStateError(field, "dice are rolled in seat and slot order; an earlier die "
                                                   "is not rolled yet")
                rolls.append((field, face))
        for field, face in rolls:
            state._apply(face - 1)
        if len(rolls) == self.total_dice and state.dice != dice:
            raise InvalidStateError("state.dice", "once every die is rolled each seat's dice are sorted "
                                                  f"(OpenSpiel sorts them), got {dice!r}")
        for i, bid in enumerate(bids):
            field = f"state.bids[{i}]"
            if state._current_player() != len(state.bids) % n:
                what = "the game is over" if state._current_player() == TERMINAL else "dice are still to roll"
                raise InvalidStateError(field, f"no bid is possible here: {what}")
            if isinstance(bid, bool) or not isinstance(bid, int) or bid not in state._legal_actions():
                low = state.bids[-1] + 1 if state.bids else 0
                raise InvalidStateError(
                    field, f"must be a bid from {low} to {self.liar - 1} (higher than the last one) or "
                           f"{self.liar} (Liar, after a bid), got {bid!r}")
            state._apply(bid)
        return state


class LiarsDiceState(ReferenceState):
    """A Liar's Dice position: every seat's dice and the bids so far."""

    __slots__ = ("game", "dice", "rolled", "bids", "winner", "loser")

    def __init__(self, game: LiarsDiceGame):
        self.game = game
        #: Each seat's faces (1..sides), UNROLLED until rolled; sorted once every die is rolled.
        self.dice: List[List[int]] = [[UNROLLED] * game.numdice for _ in range(game.players)]
        self.rolled = 0  # dice rolled so far, seat by seat
        self.bids: List[int] = []  # every bid id in order, then LIAR once called
        self.winner = -1  # set when Liar is called
        self.loser = -1

    # -- rules -------------------------------------------------------------
    def _current_player(self) -> int:
        if self.winner >= 0:
            return TERMINAL
        if self.rolled < self.game.total_dice:
            return CHANCE
        return len(self.bids) % self.game.players  # seat 0 bids first, then round robin

    def _legal_actions(self) -> List[int]:
        game = self.game
        actions = list(range(self.bids[-1] + 1 if self.bids else 0, game.liar))
        if self.bids:
            actions.append(game.liar)
        return actions

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        p = 1.0 / self.game.sides  # OpenSpiel's expression
        return [(face, p) for face in range(self.game.sides)]

    def _apply(self, action: int) -> None:
        game = self.game
        if self.rolled < game.total_dice:
            seat, slot = divmod(self.rolled, game.numdice)
            self.dice[seat][slot] = action + 1
            self.rolled += 1
            if self.rolled == game.total_dice:
                for seat_dice in self.dice:
                    seat_dice.sort()
            return
        self.bids.append(action)
        if action == game.liar:
            self._resolve()

    def _resolve(self) -> None:
        """Settle the call: the last bid against every die (the highest face is wild)."""
        n = self.game.players
        calls = len(self.bids) - 1
        quantity, face = self.game.unrank_bid(self.bids[-2])
        wild = self.game.sides
        matches = sum(1 for seat_dice in self.dice for d in seat_dice if d == face or d == wild)
        bidder, caller = (calls - 1) % n, calls % n
        self.winner, self.loser = (bidder, caller) if matches >= quantity else (caller, bidder)

    def roller(self) -> int:
        """The seat whose die is rolled next (during the rolls)."""
        return self.rolled // self.game.numdice

    def returns(self) -> List[float]:
        values = [0.0] * self.game.players
        if self.winner >= 0:
            values[self.winner] = 1.0
            values[self.loser] = -1.0
        return values

    def clone(self) -> "LiarsDiceState":
        other = LiarsDiceState.__new__(LiarsDiceState)
        other.game = self.game
        other.dice = [list(d) for d in self.dice]
        other.rolled = self.rolled
        other.bids = list(self.bids)
        other.winner = self.winner
        other.loser = self.loser
        return other

    # -- text --------------------------------------------------------------
    def _bids_text(self) -> str:
        return "".join(" " + self.game.bid_name(b) for b in self.bids)

    def action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE:
            return f"Roll {action + 1}"
        if 0 <= action <= self.game.liar:
            return self.game.bid_name(action)
        return f"action {action}"

    def information_state_string(self, player: int) -> str:
        # OpenSpiel's format, so that information sets can be compared with it.
        return "".join(map(str, self.dice[player])) + self._bids_text()

    def __str__(self) -> str:
        # OpenSpiel's ToString: every seat's dice, then the chance roller or the bids.
        dice = " ".join("".join(map(str, d)) for d in self.dice)
        if self._current_player() == CHANCE:
            return f"{dice} - chance node, current roller is player {self.roller()}"
        return dice + self._bids_text()

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """Another seat's roll is hidden from ``viewer``; bids and calls are public."""
        if self._current_player() == CHANCE and self.roller() != viewer:
            return f"Roll a die for player {self.roller()}"
        return None

    # -- hidden information ------------------------------------------------
    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def determinize(self, observer: int, rng: random.Random) -> "LiarsDiceState":
        """Roll the other seats' rolled dice afresh; ``observer``'s own dice and the bids stay.

        Bids never depend on the dice, so every roll is consistent with what
        ``observer`` knows (OpenSpiel's information state does not show the
        other dice even at the end). The draws depend only on how many dice
        are rolled, which is public, so a seed gives the same world from any
        state the observer cannot tell apart. At the end the call is settled
        again with the new dice.
        """
        game = self.game
        other = self.clone()
        for seat in range(game.players):
            if seat == observer:
                continue
            for slot in range(min(game.numdice, max(0, self.rolled - seat * game.numdice))):
                other.dice[seat][slot] = rng.randrange(game.sides) + 1
            if self.rolled == game.total_dice:
                other.dice[seat].sort()
        if other.winner >= 0:
            other._resolve()
        return other

    # -- serialization -----------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {"dice": [[None if d == UNROLLED else d for d in seat_dice] for seat_dice in self.dice],
                "bids": list(self.bids)}
