"""Kuhn poker, exactly as OpenSpiel defines it (``open_spiel/games/kuhn_poker``).

A deck of ``players + 1`` cards of distinct ranks, ``0`` (lowest) to
``players`` (highest). Each player antes one chip and is dealt one private
card; one card stays undealt. There is a single betting round with a bet size
of one chip:

* players act in seat order starting with seat 0, each choosing to pass or bet;
* while nobody has bet, "pass" is a check; if everyone checks, the highest
  card among all players wins the pot;
* once someone bets, every other player gets exactly one more turn, in seat
  order after the bettor: "bet" calls and "pass" folds. The highest card among
  the bettor and the callers wins the pot.

OpenSpiel's conventions, kept here so the two can be compared action by
action:

* decision actions: ``0`` pass, ``1`` bet (both are always legal);
* chance outcomes are card ids ``0..players``, dealt to seats ``0, 1, ...``
  in order, each undealt card with equal probability;
* the player to act is ``len(betting) % players``;
* returns: each player loses what they put in the pot (1 chip, or 2 if they
  bet or called); the winner gets the pot minus their own stake;
* ``information_state_string`` is OpenSpiel's, character for character: the
  player's card id (once dealt) followed by the betting as ``p``/``b``.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from aiplay.errors import InvalidStateError
from aiplay.game import (
    CHANCE, TERMINAL, Game, ReferenceState, int_option, reject_unknown_fields,
)

from .view import build as build_view

PASS = 0
BET = 1

#: Each player's compulsory stake before the deal.
ANTE = 1

# Rank names for display only; the lowest ``players + 1`` ranks end at K so
# that two players get the classic J, Q, K deck.
_RANK_NAMES = "23456789TJQK"


def card_name(card: int, num_cards: int) -> str:
    """A readable name for card id ``card`` in a deck of ``num_cards`` ranks (``J``, ``Q``, ``K`` for 3)."""
    return _RANK_NAMES[len(_RANK_NAMES) - num_cards + card]


class KuhnPokerGame(Game):
    """Kuhn poker with OpenSpiel's parameters (``players`` from 2 to 10)."""

    name = "kuhn_poker"
    title = "Kuhn poker (OpenSpiel's definition)"
    #: The same game in OpenSpiel (``pyspiel.load_game`` name): ``aiplay bench`` races its searchers there.
    openspiel_game = "kuhn_poker"
    #: The coach's search here (aiplay.review, by convention): MO-ISMCTS, whose opponent nodes follow the
    #: opponent's own information (SO-ISMCTS lets the opponent act alike whatever it holds: no bluffs, no
    #: calls it can read), with wider exploration so that the moves it rates low are still valued.
    #: Against the equilibrium's action values it cut the loss error and the false "mistakes" on both
    #: poker games (benchmarks/RESULTS.md, "Review": the coach checked against exact values).
    review_search = {"variant": "mo", "uct_c": 4.0}
    option_spec = {
        "players": int_option(2, 2, 10, "number of players; the deck has players+1 cards"),
    }

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.players: int = self._options["players"]
        self.num_cards: int = self.players + 1

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def num_distinct_actions(self) -> int:
        return 2

    @property
    def max_chance_outcomes(self) -> int:
        return self.num_cards

    @property
    def min_utility(self) -> float:
        # The most a player can lose is the ante plus one bet.
        return -2.0

    @property
    def max_utility(self) -> float:
        # The winner collects at most the ante and one bet from each opponent.
        return 2.0 * (self.players - 1)

    def new_initial_state(self) -> "KuhnPokerState":
        return KuhnPokerState(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "KuhnPokerState":
        """Rebuild a state by replaying its deal and betting, so every rule is checked."""
        reject_unknown_fields(data, ("cards", "betting", "pot"))
        n = self.players
        for key in ("cards", "betting", "pot"):
            if key not in data:
                raise InvalidStateError(f"state.{key}", "missing")
        cards, betting, pot = data["cards"], data["betting"], data["pot"]
        if not isinstance(cards, list):
            raise InvalidStateError("state.cards", f"must be a list, got {cards!r}")
        if len(cards) != n:
            raise InvalidStateError("state.cards", f"must have {n} entries, got {len(cards)}")
        if not isinstance(betting, list):
            raise InvalidStateError("state.betting", f"must be a list, got {betting!r}")
        if isinstance(pot, bool) or not isinstance(pot, int):
            raise InvalidStateError("state.pot", f"must be an integer, got {pot!r}")

        state = KuhnPokerState(self)
        for seat, card in enumerate(cards):
            field = f"state.cards[{seat}]"
            if card is None:
                continue
            if isinstance(card, bool) or not isinstance(card, int):
                raise InvalidStateError(field, f"must be a card id or null, got {card!r}")
            if not 0 <= card < self.num_cards:
                raise InvalidStateError(field, f"must be between 0 and {self.num_cards - 1}, got {card}")
            if seat != state.dealt:
                # Cards are dealt in seat order, so the dealt cards form a prefix.
                raise InvalidStateError(field, f"seat {state.dealt} has no card yet, so seat {seat} cannot have one")
            if card in state.cards:
                raise InvalidStateError(field, f"card {card} is dealt twice (also to seat {state.cards.index(card)})")
            state._apply(card)
        for i, action in enumerate(betting):
            field = f"state.betting[{i}]"
            # `1.0 in (0, 1)` holds in Python: ints only, or the float would be stored as is.
            if isinstance(action, bool) or not isinstance(action, int) or action not in (PASS, BET):
                raise InvalidStateError(field, f"must be 0 (pass) or 1 (bet), got {action!r}")
            if state.dealt < n:
                raise InvalidStateError(field, "no betting before every player has a card")
            if state.winner >= 0:
                raise InvalidStateError(field, "the hand was already over before this action")
            state._apply(action)
        if pot != state.pot:
            raise InvalidStateError(
                "state.pot", f"must be {state.pot} (the antes plus one chip per bet or call), got {pot}")
        return state


class KuhnPokerState(ReferenceState):
    """A Kuhn poker position: the deal so far, the betting so far, and the pot."""

    __slots__ = ("game", "cards", "dealt", "betting", "first_bettor", "stakes", "pot", "winner")

    def __init__(self, game: KuhnPokerGame):
        n = game.num_players
        self.game = game
        self.cards: List[Optional[int]] = [None] * n  # each seat's card id, None until dealt
        self.dealt = 0  # cards dealt so far; seats 0..dealt-1 have theirs
        self.betting: List[int] = []  # PASS/BET in the order played
        self.first_bettor = -1  # seat of the first bet, -1 while everyone checks
        self.stakes: List[int] = [ANTE] * n  # chips each seat has put in the pot
        self.pot = ANTE * n
        self.winner = -1  # seat that takes the pot, -1 while the hand is on

    # -- rules -------------------------------------------------------------
    def _current_player(self) -> int:
        if self.winner >= 0:
            return TERMINAL
        if self.dealt < self.game.players:
            return CHANCE
        return len(self.betting) % self.game.players

    def _legal_actions(self) -> List[int]:
        return [PASS, BET]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        undealt = [card for card in range(self.game.num_cards) if card not in self.cards]
        # Same expression as OpenSpiel's so the probabilities agree to the bit.
        p = 1.0 / (self.game.num_cards - self.dealt)
        return [(card, p) for card in undealt]

    def _apply(self, action: int) -> None:
        n = self.game.players
        if self.dealt < n:
            self.cards[self.dealt] = action
            self.dealt += 1
            return
        player = len(self.betting) % n
        if action == BET:
            if self.first_bettor < 0:
                self.first_bettor = player
            self.stakes[player] += 1
            self.pot += 1
        self.betting.append(action)
        self._settle_if_over()

    def _settle_if_over(self) -> None:
        """Set ``winner`` once the betting is complete (OpenSpiel's stopping rule)."""
        n = self.game.players
        acted = len(self.betting)
        if self.first_bettor < 0:
            if acted == n:  # everyone checked: showdown among all players
                self.winner = self._best_of(range(n))
        elif acted == n + self.first_bettor:
            # Everyone after the first bettor has answered it exactly once.
            self.winner = self._best_of(p for p in range(n) if self.stakes[p] > ANTE)

    def _best_of(self, seats: Iterable[int]) -> int:
        """The seat holding the highest card among ``seats``."""
        return max(seats, key=lambda p: self.cards[p])

    def clone(self) -> "KuhnPokerState":
        other = KuhnPokerState.__new__(KuhnPokerState)
        other.game = self.game
        other.cards = list(self.cards)
        other.dealt = self.dealt
        other.betting = list(self.betting)
        other.first_bettor = self.first_bettor
        other.stakes = list(self.stakes)
        other.pot = self.pot
        other.winner = self.winner
        return other

    def returns(self) -> List[float]:
        if self.winner < 0:
            return [0.0] * self.game.players
        values = [-float(s) for s in self.stakes]
        values[self.winner] += float(self.pot)
        return values

    # -- text --------------------------------------------------------------
    def _card(self, card: int) -> str:
        return card_name(card, self.game.num_cards)

    def action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE and 0 <= action < self.game.num_cards:
            return f"Deal {self._card(action)} to player {self.dealt}"
        return "Pass" if action == PASS else "Bet" if action == BET else f"action {action}"

    def information_state_string(self, player: int) -> str:
        own = self.cards[player]
        betting = "".join("b" if a == BET else "p" for a in self.betting)
        return ("" if own is None else str(own)) + betting

    def __str__(self) -> str:
        cards = " ".join("-" if c is None else self._card(c) for c in self.cards)
        betting = "".join("b" if a == BET else "p" for a in self.betting) or "-"
        status = f"winner {self.winner}" if self.winner >= 0 else (
            "dealing" if self.dealt < self.game.players else f"player {self._current_player()} to act")
        return f"Cards: {cards}\nBetting: {betting}\nPot: {self.pot} ({status})"

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """A card dealt to another seat is hidden from ``viewer``; bets and passes are public."""
        if self._current_player() == CHANCE and self.dealt != viewer:
            return f"Deal a card to player {self.dealt}"
        return None

    # -- hidden information ------------------------------------------------
    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def determinize(self, observer: int, rng: random.Random) -> "KuhnPokerState":
        """Deal the other dealt seats' cards afresh from the cards ``observer`` has not seen.

        The betting never depends on the cards, so every such deal is
        consistent with what ``observer`` knows (OpenSpiel's information state
        does not include the showdown either).
        """
        own = self.cards[observer]
        hidden_seats = [p for p in range(self.dealt) if p != observer]
        unseen = [card for card in range(self.game.num_cards) if card != own]
        other = self.clone()
        for seat, card in zip(hidden_seats, rng.sample(unseen, len(hidden_seats))):
            other.cards[seat] = card
        if other.winner >= 0:  # the showdown follows the new cards
            other.winner = -1
            other._settle_if_over()
        return other

    # -- serialization -----------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {"cards": list(self.cards), "betting": list(self.betting), "pot": self.pot}
