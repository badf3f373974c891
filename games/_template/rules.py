"""Template Race: the example game of docs/adding_a_game.md (tiny, complete, hidden).

It exists to be copied. It is small enough to read in five minutes, yet it has
every ingredient the generic machinery exercises: decisions, two kinds of
chance (a deal and a die), a hidden card (so ``determinize`` and the
information state matter), a static evaluation, a hand-written policy, a
serializer with validation and a native kernel (``games/_template/kernel.pyx``).

Rules (``players`` 2-4, ``goal`` 6-30, ``horizon`` 10-1000):

* **Deal.** The deck has ``players + 1`` cards of values ``1..players+1``
  (card id ``c`` is worth ``c + 1``). Each seat, in order, is dealt one card
  face down (a chance node per card, each undealt card equally likely); one
  card stays undealt. Everybody starts at square 0.
* **Turn.** Seats play in order from seat 0. The player to move chooses:

  - ``walk`` (action 0): advance 1 square;
  - ``roll`` (action 1): a three-sided die is rolled (a chance node, outcomes
    ``0..2`` advance ``1..3`` squares);
  - ``boost`` (action 2, once per game): reveal your card and advance by its value.

* **Landing.** The race ends exactly on square ``goal``: a move that would go
  past it bounces back (from ``goal - 1`` a 3 ends on ``goal - 2``).
* **End.** The first player to land on ``goal`` wins: +1, the others
  ``-1/(players-1)`` each (zero-sum). After ``horizon`` decisions the game is
  a draw (all 0): the bounce makes games unbounded otherwise, and the horizon
  gives the game a declared maximum length.

What is hidden: another seat's card until it boosts, and the undealt card. The
legal moves never depend on a hidden card, so any redeal of the unseen cards
is a state the observer could be in (``determinize``).
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Tuple

from aiplay.errors import InvalidStateError
from aiplay.game import CHANCE, TERMINAL, Game, ReferenceState, int_option, reject_unknown_fields

from .view import build as build_view

WALK = 0
ROLL = 1
BOOST = 2
#: Decision names, by action id.
ACTION_NAMES = ("walk", "roll", "boost")
#: Faces of the die: outcome ``f`` advances ``f + 1`` squares.
DIE_FACES = 3


def heuristic_policy(state: "TemplateRaceState", rng: random.Random) -> int:
    """A deterministic baseline, mirrored exactly by the kernel's ``policy_action``.

    Boost when the card lands exactly on the goal; from one square away walk
    (a sure win); from two away walk too (a sure win next turn, whereas a roll
    wins only one time in three); far from the goal spend the boost early if it
    keeps at least three squares to go; otherwise roll (it averages 2 squares).
    Reads only the player's own ``view`` (public API, no hidden card), so it
    plays on both engines. ``rng`` is unused: the policy is deterministic.
    """
    me = state.current_player()
    view = state.view(me)
    goal = state.game.options["goal"]
    seat = view["seats"][me]
    need = goal - seat["position"]
    can_boost = not seat["boosted"]
    value = seat["card"]
    if can_boost and value == need:
        return BOOST
    if need <= 2:
        return WALK
    if can_boost and need - value >= 3:
        return BOOST
    return ROLL


class TemplateRaceGame(Game):
    """Template Race (the example game): a dice race with one hidden card each."""

    name = "template"
    title = "Template Race (example game of docs/adding_a_game.md)"
    option_spec = {
        "players": int_option(2, 2, 4, "number of players; the deck has players+1 cards"),
        "goal": int_option(10, 6, 30, "the square to land on exactly"),
        "horizon": int_option(60, 10, 1000, "decisions before the game is a draw"),
    }
    heuristic_policy = staticmethod(heuristic_policy)
    # Rollouts with the game's policy (the kernel mirrors it): what `aiplay play
    # template --bots ismcts` and the benchmarks start from.
    bot_presets = {"ismcts": {"rollout": "policy"}, "mcts": {"rollout": "policy"}}

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.players: int = self._options["players"]
        self.goal: int = self._options["goal"]
        self.horizon: int = self._options["horizon"]
        self.num_cards: int = self.players + 1

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return 3

    @property
    def max_chance_outcomes(self) -> int:
        # Card ids at a deal, die faces at a roll: the larger space.
        return max(self.num_cards, DIE_FACES)

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def max_game_length(self) -> int:
        """Moves in the longest game: the deal, then ``horizon`` decisions each followed by at most one roll."""
        return self.players + 2 * self.horizon

    def new_initial_state(self) -> "TemplateRaceState":
        return TemplateRaceState(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "TemplateRaceState":
        """Validate every field (raising :class:`InvalidStateError` naming it), then build the state."""
        fields = ("boosted", "cards", "moves", "positions", "rolling")
        reject_unknown_fields(data, fields)
        for key in fields:
            if key not in data:
                raise InvalidStateError(f"state.{key}", "missing")
        n, goal = self.players, self.goal
        cards, positions, boosted = data["cards"], data["positions"], data["boosted"]
        for key, value in (("cards", cards), ("positions", positions), ("boosted", boosted)):
            if not isinstance(value, list) or len(value) != n:
                raise InvalidStateError(f"state.{key}", f"must be a list of {n} entries, got {value!r}")
        dealt = 0
        for seat, card in enumerate(cards):
            field = f"state.cards[{seat}]"
            if card is None:
                continue
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < self.num_cards:
                raise InvalidStateError(field, f"must be a card id from 0 to {self.num_cards - 1} or null, got {card!r}")
            if seat != dealt:
                raise InvalidStateError(field, f"cards are dealt in seat order and seat {dealt} has none")
            if card in cards[:seat]:
                raise InvalidStateError(field, f"card {card} is dealt twice")
            dealt += 1
        for seat, pos in enumerate(positions):
            if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= goal:
                raise InvalidStateError(f"state.positions[{seat}]", f"must be an integer from 0 to {goal}, got {pos!r}")
        if sum(pos == goal for pos in positions) > 1:
            raise InvalidStateError("state.positions", "only one player can have reached the goal")
        for seat, flag in enumerate(boosted):
            if not isinstance(flag, bool):
                raise InvalidStateError(f"state.boosted[{seat}]", f"must be true or false, got {flag!r}")
        moves, rolling = data["moves"], data["rolling"]
        if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= self.horizon:
            raise InvalidStateError("state.moves", f"must be an integer from 0 to {self.horizon}, got {moves!r}")
        if not isinstance(rolling, bool):
            raise InvalidStateError("state.rolling", f"must be true or false, got {rolling!r}")
        if dealt < n and (moves or rolling or any(positions) or any(boosted)):
            raise InvalidStateError("state.cards", "play starts only once every seat has its card")
        if rolling and (moves == 0 or goal in positions):
            raise InvalidStateError("state.rolling", "a roll follows a decision of a game still on")
        if sum(boosted) > moves:
            raise InvalidStateError("state.boosted", f"{sum(boosted)} boosts in {moves} decisions")
        state = TemplateRaceState(self)
        state.cards = list(cards)
        state.dealt = dealt
        state.positions = list(positions)
        state.boosted = list(boosted)
        state.moves = moves
        state.rolling = rolling
        return state


class TemplateRaceState(ReferenceState):
    """A Template Race position. The player to move follows from ``moves`` (seats play in turn)."""

    __slots__ = ("game", "cards", "dealt", "positions", "boosted", "moves", "rolling")

    def __init__(self, game: TemplateRaceGame):
        n = game.num_players
        self.game = game
        self.cards: List[Optional[int]] = [None] * n  # card ids, None until dealt
        self.dealt = 0  # seats 0..dealt-1 have their card
        self.positions: List[int] = [0] * n
        self.boosted: List[bool] = [False] * n  # boosted (card revealed)
        self.moves = 0  # decisions made (the horizon counts these)
        self.rolling = False  # a roll was chosen; the die is not resolved yet

    # -- rules -------------------------------------------------------------
    def _turn(self) -> int:
        """The seat whose turn it is: the roller during a roll, else the next in order."""
        return ((self.moves - 1) if self.rolling else self.moves) % self.game.players

    def _over(self) -> bool:
        return self.game.goal in self.positions or (self.moves >= self.game.horizon and not self.rolling)

    def _current_player(self) -> int:
        if self.dealt < self.game.players:
            return CHANCE
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self._turn()

    def _legal_actions(self) -> List[int]:
        return [WALK, ROLL] if self.boosted[self._turn()] else [WALK, ROLL, BOOST]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        if self.dealt < self.game.players:
            p = 1.0 / (self.game.num_cards - self.dealt)
            return [(c, p) for c in range(self.game.num_cards) if c not in self.cards]
        return [(face, 1.0 / DIE_FACES) for face in range(DIE_FACES)]

    def _advance(self, seat: int, squares: int) -> None:
        """Move ``seat`` forward, bouncing back from the goal (it must be hit exactly)."""
        pos = self.positions[seat] + squares
        goal = self.game.goal
        self.positions[seat] = pos if pos <= goal else 2 * goal - pos

    def _apply(self, action: int) -> None:
        if self.dealt < self.game.players:
            self.cards[self.dealt] = action
            self.dealt += 1
            return
        seat = self._turn()
        if self.rolling:
            self.rolling = False
            self._advance(seat, action + 1)
            return
        self.moves += 1
        if action == ROLL:
            self.rolling = True
        elif action == WALK:
            self._advance(seat, 1)
        else:
            self.boosted[seat] = True
            self._advance(seat, self.cards[seat] + 1)

    def clone(self) -> "TemplateRaceState":
        other = TemplateRaceState.__new__(TemplateRaceState)
        other.game = self.game
        other.cards = list(self.cards)
        other.dealt = self.dealt
        other.positions = list(self.positions)
        other.boosted = list(self.boosted)
        other.moves = self.moves
        other.rolling = self.rolling
        return other

    def returns(self) -> List[float]:
        n = self.game.players
        if self.game.goal not in self.positions:
            return [0.0] * n  # still on, or a draw at the horizon
        winner = self.positions.index(self.game.goal)
        return [1.0 if p == winner else -1.0 / (n - 1) for p in range(n)]

    def heuristic_values(self) -> List[float]:
        """Each seat's lead over the field, scaled into (-1, 1) (the kernel's ``evaluate`` agrees).

        A search scores its cut playouts with ``heuristic_values_for(seat)``, which is this unless a
        game overrides both it and the kernel's ``evaluate_for`` (Groom Lake weighs a position by the
        searching seat's role); a new game rarely needs to.
        """
        if self.is_terminal():
            return self.returns()
        n, goal = self.game.players, self.game.goal
        total = sum(self.positions)
        # Before the end every position is below the goal, so |value| < 1 without clipping.
        return [(pos * n - total) / ((n - 1) * goal) for pos in self.positions]

    # -- text --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.dealt < self.game.players:
            if 0 <= action < self.game.num_cards:
                return f"deal card {action + 1} to player {self.dealt}"
        elif self.rolling:
            if 0 <= action < DIE_FACES:
                return f"die shows {action + 1}"
        elif 0 <= action < len(ACTION_NAMES):
            return ACTION_NAMES[action]
        return f"action {action}"

    def _public(self) -> str:
        boosts = " ".join(str(c + 1) if b else "-" for c, b in zip(self.cards, self.boosted))
        player = self.current_player()
        who = "chance" if player == CHANCE else "nobody (over)" if player == TERMINAL else str(player)
        return (f"positions {' '.join(map(str, self.positions))} of {self.game.goal}; boosts {boosts}; "
                f"dealt {self.dealt}; moves {self.moves}; to move {who}{' (rolling)' if self.rolling else ''}")

    def information_state_string(self, player: int) -> str:
        own = self.cards[player]
        return f"card {'-' if own is None else own + 1}; {self._public()}"

    def __str__(self) -> str:
        cards = " ".join("-" if c is None else str(c + 1) for c in self.cards)
        return f"cards {cards}; {self._public()}"

    # -- hidden information ------------------------------------------------
    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """What ``viewer`` sees of a move: a card dealt to another seat is hidden; dice and decisions are public.

        Every game with hidden information defines this next to its ``view``:
        ``None`` when the viewer sees the move exactly, else the text it sees,
        which may depend only on what the viewer knows (the generic transcript
        twin test, tests/test_seat_transcripts.py, checks that).
        """
        if self.dealt < self.game.players and self.dealt != viewer:
            return f"deal a card to player {self.dealt}"
        return None

    def determinize(self, observer: int, rng: random.Random) -> "TemplateRaceState":
        """Redeal the cards ``observer`` has not seen among the dealt seats that have not boosted.

        The unseen cards are those neither the observer's own nor revealed by a
        boost; they are computed from public facts and the observer's card
        only, so the sample never depends on the true hidden cards.
        """
        seen = {self.cards[observer]} | {c for c, b in zip(self.cards, self.boosted) if b}
        unseen = [c for c in range(self.game.num_cards) if c not in seen]
        hidden_seats = [p for p in range(self.dealt) if p != observer and not self.boosted[p]]
        other = self.clone()
        for seat, card in zip(hidden_seats, rng.sample(unseen, len(hidden_seats))):
            other.cards[seat] = card
        return other

    # -- serialization -----------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {"boosted": list(self.boosted), "cards": list(self.cards), "moves": self.moves,
                "positions": list(self.positions), "rolling": self.rolling}
