"""Leduc poker, exactly as OpenSpiel defines it (``open_spiel/games/leduc_poker``).

The deck has ``players + 1`` ranks in two suits. Each player antes one chip
(from a stack of 100) and is dealt one private card. A first betting round
follows; then one public card is dealt and a second betting round follows.
The best two-card hand (private plus public) among the players still in wins
the pot: a pair beats any non-pair, then the higher card, then the lower one;
suits never matter, so equal hands split the pot. If all but one player fold,
the last one takes the pot at once.

Betting: at most two raises per round, of 2 chips in round 1 and 4 in round 2.
A round ends when every player still in has called the last raise (or
everyone has checked, when nobody raised).

OpenSpiel's conventions, kept here so the two can be compared action by
action:

* decision actions: ``0`` fold, ``1`` call (a check when nothing is owed),
  ``2`` raise; folding is legal only when facing a raise;
* with ``action_mapping`` all three actions are always legal and an illegal
  one is played as a call (the betting history records the call);
* chance outcomes are card ids: card ``c`` has rank ``c // 2`` and suit
  ``c % 2``; each undealt card has equal probability. With
  ``suit_isomorphism`` the outcomes are ranks ``0..players``, a rank with both
  cards still in the deck being twice as likely;
* private cards go to seats ``0, 1, ...`` in order; each betting round starts
  with ``starting_player`` (or the next player still in);
* returns: money at the end minus the 100 chips at the start, so a split pot
  can give half chips;
* ``information_state_string`` is OpenSpiel's, character for character.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Tuple

from aiplay.errors import InvalidOptionError, InvalidStateError
from aiplay.game import (
    CHANCE, TERMINAL, Game, ReferenceState, bool_option, int_option, reject_unknown_fields,
)

from .view import build as build_view

FOLD = 0
CALL = 1
RAISE = 2
ACTION_NAMES = ("Fold", "Call", "Raise")

ANTE = 1
STARTING_MONEY = 100
NUM_SUITS = 2
MAX_RAISES = 2  # per betting round
RAISE_AMOUNT = {1: 2, 2: 4}  # by round
#: What OpenSpiel prints for a card not dealt yet.
NO_CARD = -10000

# Rank names for display only; the ``players + 1`` ranks end at K so that two
# players get the classic J, Q, K deck.
_RANK_NAMES = "23456789TJQK"


class LeducPokerGame(Game):
    """Leduc poker with OpenSpiel's parameters."""

    name = "leduc_poker"
    title = "Leduc poker (OpenSpiel's definition)"
    #: The same game in OpenSpiel (``pyspiel.load_game`` name): ``aiplay bench`` races its searchers there.
    openspiel_game = "leduc_poker"
    #: The coach's search here (aiplay.review, by convention): MO-ISMCTS, whose opponent nodes follow the
    #: opponent's own information (SO-ISMCTS lets the opponent act alike whatever it holds: no bluffs, no
    #: calls it can read), with wider exploration so that the moves it rates low are still valued.
    #: Against the equilibrium's action values it cut the loss error and the false "mistakes" on both
    #: poker games (benchmarks/RESULTS.md, "Review": the coach checked against exact values).
    review_search = {"variant": "mo", "uct_c": 4.0}
    option_spec = {
        "players": int_option(2, 2, 10, "number of players; the deck has players+1 ranks in 2 suits"),
        "action_mapping": bool_option(False, "every action is legal; an illegal fold or raise is played as a call"),
        "suit_isomorphism": bool_option(False, "chance outcomes are ranks: the two suits are not told apart"),
        "starting_player": int_option(0, 0, 9, "seat that opens each betting round"),
    }

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.players: int = self._options["players"]
        self.action_mapping: bool = self._options["action_mapping"]
        self.suit_isomorphism: bool = self._options["suit_isomorphism"]
        self.starting_player: int = self._options["starting_player"]
        # OpenSpiel does not check this and then hands the turn to a seat that
        # does not exist; refusing it is the only faithful choice.
        if self.starting_player >= self.players:
            raise InvalidOptionError(
                f"option starting_player={self.starting_player!r} is invalid; "
                f"it accepts an integer from 0 to {self.players - 1} (players - 1)")
        self.num_ranks: int = self.players + 1
        # Copies of each chance outcome in a fresh deck.
        self.copies_per_outcome: int = NUM_SUITS if self.suit_isomorphism else 1

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def max_chance_outcomes(self) -> int:
        return self.num_ranks if self.suit_isomorphism else self.num_ranks * NUM_SUITS

    @property
    def most_chips_in(self) -> int:
        """The most one player can put in the pot: the ante plus two raises per round."""
        return ANTE + MAX_RAISES * (RAISE_AMOUNT[1] + RAISE_AMOUNT[2])

    @property
    def min_utility(self) -> float:
        return -float(self.most_chips_in)

    @property
    def max_utility(self) -> float:
        # Winning alone against opponents who all put in the most they could.
        return float((self.players - 1) * self.most_chips_in)

    def card_rank(self, card: int) -> int:
        """The rank of a chance outcome (a card id, or already a rank with suit isomorphism)."""
        return card if self.suit_isomorphism else card // NUM_SUITS

    def card_name(self, card: int) -> str:
        """``J1``, ``J2``, ``Q1``... (OpenSpiel's naming); just the rank with suit isomorphism."""
        rank = _RANK_NAMES[len(_RANK_NAMES) - self.num_ranks + self.card_rank(card)]
        return rank if self.suit_isomorphism else f"{rank}{card % NUM_SUITS + 1}"

    def new_initial_state(self) -> "LeducPokerState":
        return LeducPokerState(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "LeducPokerState":
        """Rebuild a state by replaying its deal and betting, so every rule is checked."""
        fields = ("private_cards", "public_card", "round1", "round2", "pot", "contributions")
        reject_unknown_fields(data, fields)
        for key in fields:
            if key not in data:
                raise InvalidStateError(f"state.{key}", "missing")
        n = self.players
        private_cards = data["private_cards"]
        if not isinstance(private_cards, list):
            raise InvalidStateError("state.private_cards", f"must be a list, got {private_cards!r}")
        if len(private_cards) != n:
            raise InvalidStateError("state.private_cards", f"must have {n} entries, got {len(private_cards)}")
        for key in ("round1", "round2", "contributions"):
            if not isinstance(data[key], list):
                raise InvalidStateError(f"state.{key}", f"must be a list, got {data[key]!r}")

        state = LeducPokerState(self)
        for seat, card in enumerate(private_cards):
            field = f"state.private_cards[{seat}]"
            if card is None:
                continue
            if seat != state.dealt:
                # Private cards are dealt in seat order, so they form a prefix.
                raise InvalidStateError(field, f"seat {state.dealt} has no card yet, so seat {seat} cannot have one")
            self._check_card(state, field, card)
            state._apply(card)

        for i, action in enumerate(data["round1"]):
            field = f"state.round1[{i}]"
            if state.dealt < n:
                raise InvalidStateError(field, "no betting before every player has a private card")
            if state.is_terminal() or state.round != 1:
                raise InvalidStateError(field, "the first betting round was already over")
            self._check_bet(state, field, action)
            state._apply(action)

        public_card = data["public_card"]
        if public_card is not None:
            if state.is_terminal():
                raise InvalidStateError("state.public_card", "the hand ended in the first round; no public card is dealt")
            if state.round != 2:
                raise InvalidStateError("state.public_card", "the first betting round is not over yet")
            self._check_card(state, "state.public_card", public_card)
            state._apply(public_card)

        for i, action in enumerate(data["round2"]):
            field = f"state.round2[{i}]"
            if state.public_card is None:
                raise InvalidStateError(field, "no second-round betting before the public card")
            if state.is_terminal():
                raise InvalidStateError(field, "the hand was already over before this action")
            self._check_bet(state, field, action)
            state._apply(action)

        contributions = data["contributions"]
        if len(contributions) != n:
            raise InvalidStateError("state.contributions", f"must have {n} entries, got {len(contributions)}")
        for seat, (given, actual) in enumerate(zip(contributions, state.contributions)):
            if isinstance(given, bool) or not isinstance(given, int) or given != actual:
                raise InvalidStateError(
                    f"state.contributions[{seat}]", f"the betting puts {actual} chips in for seat {seat}, not {given!r}")
        pot = data["pot"]
        if isinstance(pot, bool) or not isinstance(pot, int) or pot != state.pot:
            raise InvalidStateError("state.pot", f"must be {state.pot} (the sum of the contributions), got {pot!r}")
        return state

    def _check_card(self, state: "LeducPokerState", field: str, card: Any) -> None:
        """Raise unless ``card`` is a chance outcome still in ``state``'s deck."""
        if isinstance(card, bool) or not isinstance(card, int):
            raise InvalidStateError(field, f"must be a card or null, got {card!r}")
        if not 0 <= card < self.max_chance_outcomes:
            raise InvalidStateError(field, f"must be between 0 and {self.max_chance_outcomes - 1}, got {card}")
        if state.deck[card] == 0:
            what = f"both cards of rank {card}" if self.suit_isomorphism else f"card {card}"
            raise InvalidStateError(field, f"{what} already dealt: a card cannot be dealt twice")

    def _check_bet(self, state: "LeducPokerState", field: str, action: Any) -> None:
        """Raise unless ``action`` is strictly legal (recorded sequences never hold mapped actions)."""
        # `2.0 in (0, 1, 2)` holds in Python: ints only, or the float would be stored as is.
        if isinstance(action, bool) or not isinstance(action, int) or action not in (FOLD, CALL, RAISE):
            raise InvalidStateError(field, f"must be 0 (fold), 1 (call) or 2 (raise), got {action!r}")
        if action == FOLD and not state.facing_raise():
            raise InvalidStateError(field, "fold is not legal with nothing to call")
        if action == RAISE and state.num_raises >= MAX_RAISES:
            raise InvalidStateError(field, f"raise is not legal: already {MAX_RAISES} raises this round")


class LeducPokerState(ReferenceState):
    """A Leduc poker position: cards, betting so far, and the chips each seat has put in."""

    __slots__ = ("game", "private_cards", "public_card", "deck", "deck_size", "dealt", "round",
                 "cur_player", "stakes", "num_raises", "num_calls", "in_hand", "folded",
                 "contributions", "pot", "round1", "round2")

    def __init__(self, game: LeducPokerGame):
        n = game.num_players
        self.game = game
        self.private_cards: List[Optional[int]] = [None] * n
        self.public_card: Optional[int] = None
        # Copies left of each chance outcome (0/1, or 0..2 with suit isomorphism).
        self.deck: List[int] = [game.copies_per_outcome] * game.max_chance_outcomes
        self.deck_size = game.num_ranks * NUM_SUITS  # physical cards left
        self.dealt = 0  # private cards dealt; seats 0..dealt-1 have theirs
        self.round = 1
        # Seat to act, CHANCE while dealing. Like OpenSpiel's it is left on the
        # last actor when the hand ends (the information state shows it).
        self.cur_player = CHANCE
        self.stakes = ANTE  # what each player must have put in to stay in
        self.num_raises = 0  # this round
        self.num_calls = 0  # since the last raise, this round
        self.in_hand = n  # players who have not folded
        self.folded: List[bool] = [False] * n
        self.contributions: List[int] = [ANTE] * n
        self.pot = ANTE * n
        self.round1: List[int] = []
        self.round2: List[int] = []

    # -- rules -------------------------------------------------------------
    def _round_complete(self) -> bool:
        if self.num_raises == 0:
            return self.num_calls == self.in_hand
        return self.num_calls == self.in_hand - 1

    def _is_over(self) -> bool:
        return self.in_hand == 1 or (self.round == 2 and self._round_complete())

    def facing_raise(self) -> bool:
        """True when the player to act owes chips (the only time folding is legal)."""
        return self.stakes > self.contributions[self.cur_player]

    def _current_player(self) -> int:
        return TERMINAL if self._is_over() else self.cur_player

    def _legal_actions(self) -> List[int]:
        if self.game.action_mapping:
            return [FOLD, CALL, RAISE]
        actions = [FOLD, CALL] if self.facing_raise() else [CALL]
        if self.num_raises < MAX_RAISES:
            actions.append(RAISE)
        return actions

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        # count * (1/deck_size) is exactly OpenSpiel's p or p*2.
        p = 1.0 / self.deck_size
        return [(card, copies * p) for card, copies in enumerate(self.deck) if copies]

    def _next_player(self) -> int:
        """The next seat still in after the current one (or from ``starting_player`` at a round's start)."""
        n = self.game.players
        start = self.game.starting_player - 1 if self.cur_player == CHANCE else self.cur_player
        for i in range(1, n + 1):
            seat = (start + i) % n
            if not self.folded[seat]:
                return seat
        raise AssertionError("no player is left in the hand")

    def _apply(self, action: int) -> None:
        if self.cur_player == CHANCE:
            self._deal(action)
        else:
            self._bet(action)

    def _deal(self, card: int) -> None:
        self.deck[card] -= 1
        self.deck_size -= 1
        if self.dealt < self.game.players:
            self.private_cards[self.dealt] = card
            self.dealt += 1
            if self.dealt == self.game.players:
                self.cur_player = self.game.starting_player
        else:
            self.public_card = card
            self.cur_player = self._next_player()

    def _bet(self, action: int) -> None:
        player = self.cur_player
        if self.game.action_mapping:
            if action == FOLD and not self.facing_raise():
                action = CALL
            elif action == RAISE and self.num_raises >= MAX_RAISES:
                action = CALL
        (self.round1 if self.round == 1 else self.round2).append(action)
        if action == FOLD:
            self.folded[player] = True
            self.in_hand -= 1
        elif action == CALL:  # also a check when nothing is owed
            self._put_in(player, self.stakes - self.contributions[player])
            self.num_calls += 1
        else:  # RAISE: match the stakes, then raise them
            self.stakes += RAISE_AMOUNT[self.round]
            self._put_in(player, self.stakes - self.contributions[player])
            self.num_raises += 1
            self.num_calls = 0
        if self._is_over():
            return
        if action != RAISE and self._round_complete():
            self.round = 2
            self.num_raises = 0
            self.num_calls = 0
            self.cur_player = CHANCE  # the public card comes next
        else:
            self.cur_player = self._next_player()

    def _put_in(self, player: int, chips: int) -> None:
        self.contributions[player] += chips
        self.pot += chips

    def _hand_strength(self, player: int) -> Tuple[int, ...]:
        """Comparable strength of ``player``'s hand: pairs first, then high card, then low card."""
        rank = self.game.card_rank
        own, public = rank(self.private_cards[player]), rank(self.public_card)
        if own == public:
            return (1, own)
        return (0, max(own, public), min(own, public))

    def _winners(self) -> List[int]:
        """The seats sharing the pot once the hand is over."""
        live = [p for p in range(self.game.players) if not self.folded[p]]
        if len(live) == 1:
            return live
        best = max(self._hand_strength(p) for p in live)
        return [p for p in live if self._hand_strength(p) == best]

    def _money(self) -> List[float]:
        """Each seat's stack, OpenSpiel's ``money_``: 100 minus chips put in, plus winnings at the end."""
        money = [float(STARTING_MONEY - c) for c in self.contributions]
        if self._is_over():
            winners = self._winners()
            share = self.pot / len(winners)
            for p in winners:
                money[p] += share
        return money

    def returns(self) -> List[float]:
        if not self._is_over():
            return [0.0] * self.game.players
        # Same float operations as OpenSpiel (money minus starting money).
        return [m - STARTING_MONEY for m in self._money()]

    def clone(self) -> "LeducPokerState":
        other = LeducPokerState.__new__(LeducPokerState)
        other.game = self.game
        other.private_cards = list(self.private_cards)
        other.public_card = self.public_card
        other.deck = list(self.deck)
        other.deck_size = self.deck_size
        other.dealt = self.dealt
        other.round = self.round
        other.cur_player = self.cur_player
        other.stakes = self.stakes
        other.num_raises = self.num_raises
        other.num_calls = self.num_calls
        other.in_hand = self.in_hand
        other.folded = list(self.folded)
        other.contributions = list(self.contributions)
        other.pot = self.pot
        other.round1 = list(self.round1)
        other.round2 = list(self.round2)
        return other

    # -- text --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE and 0 <= action < self.game.max_chance_outcomes:
            card = self.game.card_name(action)
            if self.dealt < self.game.players:
                return f"Deal {card} to player {self.dealt}"
            return f"Public card {card}"
        return ACTION_NAMES[action] if 0 <= action < len(ACTION_NAMES) else f"action {action}"

    def information_state_string(self, player: int) -> str:
        # OpenSpiel's format, so that information sets can be compared with it.
        own = self.private_cards[player]
        over = self._is_over()
        money = " ".join(f"{m:.6g}" for m in self._money())
        text = (f"[Observer: {player}][Private: {NO_CARD if own is None else own}]"
                f"[Round {self.round}][Player: {self.cur_player}]"
                f"[Pot: {0 if over else self.pot}][Money: {money}]")
        if self.public_card is not None:
            text += f"[Public: {self.public_card}]"
        return (text + f"[Round1: {' '.join(map(str, self.round1))}]"
                f"[Round2: {' '.join(map(str, self.round2))}]")

    def __str__(self) -> str:
        name = self.game.card_name
        privates = " ".join("-" if c is None else name(c) for c in self.private_cards)
        public = "-" if self.public_card is None else name(self.public_card)
        player = self._current_player()
        status = ("hand over" if player == TERMINAL else "dealing" if player == CHANCE
                  else f"player {player} to act")
        return (f"Round {self.round}, {status}\n"
                f"Cards: public {public}, private {privates}\n"
                f"Pot: {self.pot}, chips in: {' '.join(map(str, self.contributions))}\n"
                f"Round 1: {', '.join(ACTION_NAMES[a] for a in self.round1)}\n"
                f"Round 2: {', '.join(ACTION_NAMES[a] for a in self.round2)}")

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """A private card dealt to another seat is hidden from ``viewer``; the public card and bets are not."""
        if self._current_player() == CHANCE and self.dealt < self.game.players and self.dealt != viewer:
            return f"Deal a card to player {self.dealt}"
        return None

    # -- hidden information ------------------------------------------------
    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def determinize(self, observer: int, rng: random.Random) -> "LeducPokerState":
        """Deal the other dealt seats' private cards afresh from the cards ``observer`` has not seen.

        Betting never depends on the cards, so any such deal is consistent
        with the betting. After a showdown, though, the information state
        shows every stack, hence who won: deals are then redrawn until they
        give the same winners (rejection sampling keeps the draw uniform over
        the consistent deals, and the real deal is one of them).
        """
        game = self.game
        hidden_seats = [p for p in range(self.dealt) if p != observer]
        unseen = [card for card in range(game.max_chance_outcomes) for _ in range(game.copies_per_outcome)]
        for known in (self.private_cards[observer], self.public_card):
            if known is not None:
                unseen.remove(known)
        showdown = self._is_over() and self.in_hand > 1
        winners = self._winners() if showdown else None
        other = self.clone()
        while True:
            for seat, card in zip(hidden_seats, rng.sample(unseen, len(hidden_seats))):
                other.private_cards[seat] = card
            if not showdown or other._winners() == winners:
                break
        other.deck = [game.copies_per_outcome] * game.max_chance_outcomes
        for card in other.private_cards + [other.public_card]:
            if card is not None:
                other.deck[card] -= 1
        return other

    # -- serialization -----------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {
            "private_cards": list(self.private_cards),
            "public_card": self.public_card,
            "round1": list(self.round1),
            "round2": list(self.round2),
            "pot": self.pot,
            "contributions": list(self.contributions),
        }
