"""The Area 1851 game object: options, metadata and loading (the top of the game's modules)."""

from __future__ import annotations

from typing import Any, Mapping

from aiplay.game import Game, int_option

from . import actions as A
from .heuristic import policy, policy_v1, policy_v2
from .rules import Area1851State
from .serialize import load_state


class Area1851Game(Game):
    """Area 1851 for 2 to 5 players (reference engine; spec area1851.md)."""

    name = "area1851"
    title = "Area 1851 (tinkering inventors), 2-5 players"
    option_spec = {
        "players": int_option(4, 2, 5, "number of players"),
        "block": int_option(4, 1, 6, "random events in each block of the event deck (spec 'Set-up' 3)"),
    }
    heuristic_policy = staticmethod(policy)
    #: Earlier policies by name, for ``heuristic(policy=v1)``: the first heuristic (the ladder's
    #: baseline), and the second, whose assistants all work the Town Hall.
    heuristic_policies = {"v1": policy_v1, "v2": policy_v2}
    #: Random games last 500-1,500 moves: playouts are cut after 40 moves and scored by the
    #: static evaluation (what `aiplay play` and make_bot(game=...) start from).
    bot_presets = {"mcts": {"rollout_cutoff": 40}, "ismcts": {"rollout_cutoff": 40}}

    def _check_options(self) -> None:
        self.players: int = self._options["players"]
        self.block: int = self._options["block"]

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return A.NUM_CHANCE

    #: Winners share +1 and the others -1 (zero-sum).
    min_utility = -1.0
    max_utility = 1.0
    zero_sum = True

    @property
    def num_turns(self) -> int:
        """Turns in a game without Missing Time: the deck position of The End, plus one."""
        return 3 * self.block + 3

    @property
    def max_game_length(self) -> int:
        """An upper bound on the moves (decisions and chance outcomes) of a game.

        Set-up: 5n + n deals and n placements. Each of the at most ``num_turns`` turns (Missing
        Time only shortens the game): the event phase at most 3 + 2n chance outcomes (two reveals,
        one shared die, a die and a dust draw per player); per player at most 10 event choices
        (with their dice and draws), 1 skip, 5 draws and 3 dice, 1 die setting; in the action
        phase at most 4 AP (3 base + the Replicator) times 5 moves (card, target, up to 3 dice;
        or a feat and its draw), 24 moves for the five locations' effects (one each per turn: the
        Workshop re-roll 3 picks + done + 3 dice, Town Hall 3 dice + done, ...), 6 for bonus draws
        and 1 done; 21 in the delivery phase (10 gadgets, each with a feat, and done); 1 move and 2
        kept cards. Tweaks paying a junkyard card (2 moves each) are bounded over the whole game:
        each uses a junkyard card, and a player adds at most 14 junkyard cards a turn (4 scraps,
        4 from the Recycler, 4 from A Harsh Requirement, 1 each from Casino Night and To the Left!).
        Every decision of the event-choice and action phases is followed by one chance node (rules.py,
        "One chance node after every decision"), which at most doubles the 61 moves of those phases
        and the tweaks, plus 3 forced moves and their draws or rolls (the Replicator's second card, the
        Workshop re-roll's further dice): 97 + 61 + 6 = 164 moves a player and turn.
        """
        n, turns = self.players, self.num_turns
        return 7 * n + turns * (3 + 164 * n) + 4 * 14 * turns * n

    def new_initial_state(self) -> Area1851State:
        return Area1851State(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> Area1851State:
        return load_state(self, data)
