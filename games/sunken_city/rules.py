"""Sunken City (Kramer & Kiesling, 2004), the reference engine.

Players raise the pieces of a drowned city from a 9 x 9 lake, walk their
adventurer from building to building to find treasures, carry them home to
their village, and move Neptune, who sinks every piece he leaves and sends
home any adventurer on it. The player with the most treasures secured wins.

Sources (paths relative to the repository root): the English rulebook
(``../shared/seeds/001_fb382808bb8bff26.txt``, cited as "RB, <section>") and the
rulings file ``../shared/spec/sunken_city.md`` (cited as "spec, <section>"), which wins where they differ. The board itself is in
:mod:`.board`.

The rules in brief, with the rule each follows:

* Setup (RB "Game Preparation"; spec "Board", "Street supply"): building 10
  on the centre with Neptune on it, the other buildings in their grottos,
  adventurers at home, 20/23/26 streets on street space 1 and one on each
  of spaces 2-5. Two players sit diagonally (board seats 0 and 2); three
  use seats 0-2.
* A turn (RB "Gameplay"; spec "Turn"): play one movement card (pieces to
  raise, movement points; table :data:`CARDS`), then do the three blocks
  **raise**, **move adventurer** and **move Neptune** in any order, each as
  one block, then end the turn. Played cards stay out until all six are
  played, then return to the hand.
* Raising (RB "Playing a Movement Card"; spec "City pieces"): exactly the
  card's number of pieces, at most one of them a building (any building from
  the grottos, on an empty dark cell or the centre); streets are dominoes on
  two empty cells, never on the centre; no connection is needed.
* Walking (spec "Adventurer movement"): up to the card's points, one per
  piece or village entered, whatever the piece's size; pieces with Neptune
  or other adventurers are entered freely (RB "Returning Adventurers").
  Entering a building turns up its treasure, the centre building also the
  chest 12 (RB "The Treasure Chest"); entering the own village secures all
  face-up treasures, and he may walk on.
* Neptune (RB "Moving Neptune"; spec "Neptune movement"): 3 steps (4 with two
  players) when his piece lies at least partly in the active player's
  territory, else the die of the player count (a chance node, rolled once
  when the block starts). Every piece he leaves sinks: buildings to their
  grotto, streets to the current discard pile; adventurers on it go home,
  their face-up treasures turn back, and they get a chip unless the active
  player sank himself. He never enters a village, and cannot move (no
  roll) when no piece touches his.
* Street supply (RB "Game End"; spec "Street supply"): drawing empties space
  k, then space k+1 is drawn from at once and sunk streets go to k+2; when
  space 5 empties the Sand Timer shows, and the rest of the round draws from
  and discards to space 6.
* End (RB "Game End"; spec "End and scoring"): a player securing all his
  treasures, or the Sand Timer, triggers the end; the round is played out.

Rulings settled here (beyond the spec's explicit text):

* Raising is mandatory up to the card's number; the block stops early only
  when no further piece can be placed (no street in the draw pile, no legal
  cells, the one building per turn already raised, no building in the
  grottos). That is the spec's "raise as many as can be raised" (RB "Street
  Tiles run out"); in particular with no street left the raise is skipped.
  A turn may end without the raise block only when nothing can be raised.
* The move block may end at any time ("up to", moving 0 is legal); it ends
  by itself when no step and no chip is left. It is offered only when a step
  or a chip is possible, so no decision is ever a no-op.
* The Neptune chip (RB "Neptune Chips") is played inside the move block,
  before or between steps; it is not offered when it would add 0 points
  (no roof-side-up treasure), and at most one per turn. Chips come from a
  supply of 8 (RB "Game Material"): a player sent home when the supply is
  empty gets none.
* An adventurer may enter only his own village (RB "Returning Adventurers";
  the other villages are no use to him).
* The Neptune die is a chance node whose outcomes are the die's values
  (equal faces merged, probabilities exact); after a 0, or when Neptune is
  stuck, the Neptune block is over.
* After the last block the turn ends by itself, and whenever "end turn"
  would be the only choice it is taken automatically.
* The game ends when, after an end trigger, the turn would pass back to
  seat 0 (spec, "End and scoring").
* A third end trigger, which the rules do not foresee: a **frozen lake**.
  When a turn ends with Neptune stuck (no adjacent piece), no building able
  to rise and no street able to rise, nothing can ever sink or rise again,
  so the Sand Timer could never show and the game would never end. The end
  is then triggered as by the Sand Timer, and the round is played out
  (:meth:`SunkenCityState.board_frozen`).

Returns: the winners (most secured treasures, then highest total value,
RB "Game End") share 1, everybody else 0. :meth:`SunkenCityState.scores` is
the number of secured treasures; ``to_dict()`` and ``view()`` also give the
secured values used for the tie-break.

Action space (fixed, ``NUM_ACTIONS`` ids; see :func:`describe_action_space`):

====================  ======================================================
ids                   meaning
====================  ======================================================
0..5                  play movement card k of :data:`CARDS`
6                     start the raise block
7                     start the adventurer's move block
8                     start the Neptune block (roll first when outside the
                      player's territory)
9                     end the turn
10                    use a Neptune chip (inside the move block)
11                    stop the adventurer (end the move block)
12                    adventurer enters his own village
13                    Neptune stops (ends the Neptune block)
14..175               raise a street at slot ``cell*2 + dir`` (dir 0 right,
                      1 down)
176..425              raise building b at site i: ``176 + (b-1)*25 + i``
                      (sites: :data:`board.BUILDING_SITES`)
426..506              adventurer steps onto the piece anchored at cell c
507..587              Neptune steps onto the piece anchored at cell c
====================  ======================================================

Chance outcomes are Neptune's die values 0..4.
"""

from __future__ import annotations

import json
import random
from typing import Any, Dict, List, Mapping, Optional, Tuple

import networkx as nx

from aiplay.game import CHANCE, TERMINAL, Game, ReferenceState, bool_option, int_option

from . import board as B

from .actions import (
    BUILD_BASE, END_TURN, ENTER_VILLAGE, MOVE, NEPTUNE, NEPTUNE_STEP_BASE, NEPTUNE_STOP, NUM_ACTIONS, PLAY_CARD, RAISE,
    STEP_BASE, STOP_MOVE, STREET_BASE, USE_CHIP, _ACTION_NAMES,
)
from .components import (
    ALL_TREASURES, CARDS, CHEST, DICE, FIRST_PILE, MAX_DIE, NUM_BUILDINGS, NUM_CARDS, NUM_CHIPS, NUM_PILES,
)
from .phases import (
    ABSENT, CARRIED, PH_CARD, PH_CHOOSE, PH_MOVE, PH_NEPTUNE, PH_OVER, PH_RAISE, PH_ROLL, ROOF, SECURED,
    VILLAGE,
)
from .policy import heuristic_policy as _heuristic_policy
from .render import text_board
from .serialize import load_state, state_to_dict
from .value_model import learned_values
from .view import build as build_view


def _die_outcomes(players: int) -> List[Tuple[int, float]]:
    faces = DICE[players]
    return [(v, faces.count(v) / len(faces)) for v in sorted(set(faces))]


class SunkenCityGame(Game):
    """Sunken City for 2-4 players, with the rulebook's two variants as options."""

    name = "sunken_city"
    title = "Sunken City (Kramer & Kiesling)"
    option_spec = {
        "players": int_option(2, 2, 4, "number of players"),
        "short": bool_option(False, "shorter game: no building 1 and no treasure 1"),
        "no_neptune_chips": bool_option(False, "players sent home get no Neptune chip"),
    }

    def _check_options(self) -> None:
        # Plain attributes: the rules read them at every move.
        self.players: int = self._options["players"]
        self.short: bool = self._options["short"]
        self.chips_enabled: bool = not self._options["no_neptune_chips"]
        self.seats: Tuple[int, ...] = B.SEATS_BY_PLAYERS[self.players]
        self.treasures: Tuple[int, ...] = tuple(t for t in ALL_TREASURES if not (self.short and t == 1))
        self.buildings: Tuple[int, ...] = tuple(b for b in range(1, NUM_BUILDINGS + 1)
                                                if not (self.short and b == 1))
        self.total_streets: int = FIRST_PILE[self.players] + 4
        # Neptune's reach in the active player's territory (spec, "Neptune movement").
        self.territory_reach: int = 4 if self.players == 2 else 3
        self.die_outcomes: List[Tuple[int, float]] = _die_outcomes(self.players)

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return MAX_DIE + 1

    @property
    def min_utility(self) -> float:
        return 0.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def perfect_information(self) -> bool:
        return True

    @property
    def zero_sum(self) -> bool:
        return False  # winners share 1, the others get 0: the sum is 1, not 0

    @property
    def constant_sum(self) -> bool:
        return True  # the returns add up to 1, and so do the heuristic values (wealth shares)

    def new_initial_state(self) -> "SunkenCityState":
        """Setup (RB "Game Preparation"): building 10 with Neptune on the centre, everyone at home."""
        state = SunkenCityState(self)
        state._put_building(10, B.CENTRE)
        state.neptune = B.CENTRE
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> "SunkenCityState":
        return load_state(SunkenCityState(self), data)  # validation has its own module

    #: The greedy baseline (see :mod:`.policy`).
    heuristic_policy = staticmethod(_heuristic_policy)
    #: A turn is a dozen small decisions, and random players hardly ever bring a
    #: treasure home, so MCTS plays out with the policy and expectimax lets the
    #: policy finish 60 more moves past its depth (benchmarks/RESULTS.md, "Strength").
    #: Depth 2 with those playouts can take 15 s in a wide position, so expectimax
    #: deepens to 2 within 2 s a move (depth 1 always completes).
    #: Since issue 41 the MCTS playouts stop after 20 moves, scored by the learned evaluation
    #: (value_model.py): at equal time per move that beat playing out to the end in 91.5 % of
    #: 100 games at 0.05 s and 90 % of 60 at 0.2 s (benchmarks/RESULTS.md, "Issue 41 Build 2").
    bot_presets = {"mcts": {"rollout": "policy", "rollout_cutoff": 20},
                   "expectimax": {"depth": 2, "leaf_playout": 60, "seconds": 2.0}}
    # The common level table slips up to half the time; here that never brings a treasure home,
    # and two players with nothing secured tie (58 of 60 games between levels 1 and 2 were
    # ties, benchmarks/RESULTS.md). What separates players is the rate of slips between 0 and
    # about 0.35, more than iterations past 250, so this table spends its seven levels there.
    # Two earlier tables (0.25 to 0 in six steps) were too narrow: the span from level 1 to 7
    # gave steps of about 56 %, and neighbours with slip rates 0.03 apart (0.16 and 0.13) did
    # not separate. This one adds 0.35 at the bottom (55 % against 0.25 in a pilot) and keeps
    # the top four; with ties broken by the heuristic (below) every neighbour beat the one
    # below in 55.5-67 % of 200 games (benchmarks/RESULTS.md).
    # Issue 41 gave the search a learned evaluation at a 20-move cutoff, and past a few hundred
    # iterations more search hardly separates two levels any more: the old level 6 (2,000
    # iterations, 1.5 % slips) beat the top level in 52.5 % of 80 games, and MCTS at 16,000
    # iterations won 40 % of 80 against 4,000. So the slips do the work all the way up: level
    # 6 searches 400 iterations and slips 3 % (the top level beat it in 66 % of 80 games in a
    # pilot, 400 at 3 % beat 250 at 6 % in 54 %), and the lower levels keep the old slip rates
    # on budgets of 100 to 250 iterations (benchmarks/RESULTS.md, "Issue 41: Sunken City's
    # levels"). The top level keeps 4,000 iterations: it is the best bot, and cheap.
    difficulty_levels = ((100, 0.35, 3), (100, 0.25, 3), (100, 0.17, 3), (150, 0.12, 3),
                         (200, 0.08, 3), (400, 0.03, 3), (4000, 0.0, 1))
    # A raise decision has some 350 legal moves (140 streets, 216 buildings at the start): 200
    # iterations visit each once or not at all, so many share the most visits and value 1.0,
    # and legal order, which starts at row 0, column 0, the first seat's corner, decided a
    # third of level 2's decisions and a seventh of the top level's (benchmarks/level_ties.py).
    # The levels follow the heuristic there instead: the move a player with a rule of thumb
    # would make (so the best bot here is level 7, MCTS at 4,000 iterations with that rule).
    level_ties = "heuristic"


class SunkenCityState(ReferenceState):
    """A Sunken City position: the pieces on the lake, the players' treasures, cards and chips, and the turn's progress."""

    __slots__ = (
        "game", "cover", "building_cell", "cell_building", "neptune", "adventurer", "treasure",
        "chips", "played", "piles", "draw", "turn", "phase", "card", "raise_left", "move_left",
        "neptune_left", "raised", "moved", "neptune_moved", "building_raised", "chip_used",
        "end_triggered", "_graph",
    )

    def __init__(self, game: SunkenCityGame):
        n = game.players
        self.game = game
        self.cover: List[int] = [B.EMPTY] * B.NUM_CELLS     # anchor of the piece on each cell
        self.building_cell: List[int] = [-1] * (NUM_BUILDINGS + 1)  # cell of building b, -1 in its grotto
        self.cell_building: List[int] = [0] * B.NUM_CELLS  # building number on a cell, 0 for none
        self.neptune = B.CENTRE
        self.adventurer: List[int] = [VILLAGE] * n          # anchor of his piece, or VILLAGE
        self.treasure: List[List[int]] = [self._fresh_treasures() for _ in range(n)]
        self.chips: List[int] = [0] * n
        self.played: List[List[int]] = [[] for _ in range(n)]  # card indices played this cycle
        self.piles: List[int] = [FIRST_PILE[n], 1, 1, 1, 1, 0]  # street spaces 1..6
        self.draw = 0                                       # index of the draw pile
        self.turn = 0
        self.phase = PH_CARD
        self.card = -1
        self.raise_left = 0
        self.move_left = 0
        self.neptune_left = 0
        self.raised = False
        self.moved = False
        self.neptune_moved = False
        self.building_raised = False
        self.chip_used = False
        self.end_triggered = False
        self._graph: Optional[nx.Graph] = None  # lazily built piece graph

    def _fresh_treasures(self) -> List[int]:
        status = [ABSENT] * (CHEST + 1)
        for t in self.game.treasures:
            status[t] = ROOF
        return status

    # -- small queries -------------------------------------------------------
    def seat_of(self, player: int) -> int:
        """The board seat (village corner and territory) of ``player``."""
        return self.game.seats[player]

    def streets_available(self) -> int:
        """Streets on the current draw pile."""
        return self.piles[self.draw]

    def discard_pile(self) -> int:
        """Index of the pile sunk streets go to (spec, "Street supply")."""
        return min(self.draw + 1, NUM_PILES - 1)

    def roofs(self, player: int) -> int:
        """Treasures still roof-side up (neither found nor secured) for ``player``."""
        return sum(1 for s in self.treasure[player] if s == ROOF)

    def secured(self, player: int) -> List[int]:
        """The treasure numbers ``player`` has secured in his village."""
        return [t for t, s in enumerate(self.treasure[player]) if s == SECURED]

    def carried(self, player: int) -> List[int]:
        """The treasure numbers face up on ``player``'s adventure board (found, not yet secured)."""
        return [t for t, s in enumerate(self.treasure[player]) if s == CARRIED]

    def neptune_in_territory(self, player: int) -> bool:
        """True when Neptune's piece lies at least partly in ``player``'s territory (RB "Moving Neptune")."""
        seat = self.seat_of(player)
        return any(B.TERRITORY[c] == seat for c in B.piece_cells(self.cover, self.neptune))

    def neptune_can_move(self) -> bool:
        """False when Neptune's piece touches no other piece: he stays, and no die is rolled."""
        return bool(B.piece_neighbours(self.cover, self.neptune))

    def piece_graph(self) -> nx.Graph:
        """The networkx graph of the pieces, with every player's village (cached until a piece changes)."""
        if self._graph is None:
            self._graph = B.piece_graph(self.cover, self.game.seats)
        return self._graph

    def adventurer_reach(self, player: int, points: int) -> Dict[int, int]:
        """Nodes ``player``'s adventurer can reach with ``points`` (anchors; villages are ``81+seat``), by distance.

        Only his own village is a node he may enter, so the others are dropped.
        """
        pos = self.adventurer[player]
        seat = self.seat_of(player)
        source = B.VILLAGE_NODE_BASE + seat if pos == VILLAGE else pos
        graph = self.piece_graph()
        others = [B.VILLAGE_NODE_BASE + s for s in self.game.seats if s != seat]
        view = nx.restricted_view(graph, others, [])
        return B.reachable_within(view, source, points)

    def neptune_reach(self, points: int) -> Dict[int, int]:
        """Pieces Neptune could reach with ``points`` (never villages), by distance.

        Sinking closes the path behind him, so this is an upper bound for
        paths that revisit nothing, which shortest paths never do.
        """
        graph = self.piece_graph()
        villages = [B.VILLAGE_NODE_BASE + s for s in self.game.seats]
        return B.reachable_within(nx.restricted_view(graph, villages, []), self.neptune, points)

    # -- legal moves ----------------------------------------------------------
    def _street_placements(self) -> List[int]:
        if self.piles[self.draw] <= 0:
            return []
        cover = self.cover
        out = []
        for slot in B.VALID_STREET_SLOTS:
            a, b = B.STREET_SLOTS[slot]  # type: ignore[misc]
            if cover[a] == B.EMPTY and cover[b] == B.EMPTY:
                out.append(STREET_BASE + slot)
        return out

    def _building_placements(self) -> List[int]:
        # At most one building per turn (RB "Playing a Movement Card"); any
        # building in its grotto may rise on any empty dark cell or the centre
        # (spec, "City pieces"; RB "Sinking": the centre once building 10 sank).
        if self.building_raised:
            return []
        free = [b for b in self.game.buildings if self.building_cell[b] < 0]
        if not free:
            return []
        sites = [i for i, c in enumerate(B.BUILDING_SITES) if self.cover[c] == B.EMPTY]
        return [BUILD_BASE + (b - 1) * B.NUM_SITES + i for b in free for i in sites]

    def _can_raise(self) -> bool:
        if not self.building_raised and any(self.building_cell[b] < 0 for b in self.game.buildings):
            if any(self.cover[c] == B.EMPTY for c in B.BUILDING_SITES):
                return True
        if self.piles[self.draw] <= 0:
            return False
        cover = self.cover
        for slot in B.VALID_STREET_SLOTS:
            a, b = B.STREET_SLOTS[slot]  # type: ignore[misc]
            if cover[a] == B.EMPTY and cover[b] == B.EMPTY:
                return True
        return False

    def _adventurer_steps(self) -> List[int]:
        player = self.turn
        pos = self.adventurer[player]
        corner = B.VILLAGE_CORNER[self.seat_of(player)]
        if pos == VILLAGE:
            piece = self.cover[corner]
            return [] if piece == B.EMPTY else [STEP_BASE + piece]
        steps = [STEP_BASE + a for a in B.piece_neighbours(self.cover, pos)]
        if self.cover[corner] == pos:
            steps.append(ENTER_VILLAGE)
        return steps

    def _chip_usable(self) -> bool:
        p = self.turn
        return (self.game.chips_enabled and not self.chip_used and self.chips[p] > 0
                and self.roofs(p) > 0)

    def _choose_actions(self) -> List[int]:
        actions = []
        can_raise = not self.raised and self._can_raise()
        if can_raise:
            actions.append(RAISE)
        if not self.moved and (self._adventurer_steps() or self._chip_usable()):
            actions.append(MOVE)
        if not self.neptune_moved and self.neptune_can_move():
            actions.append(NEPTUNE)
        if not can_raise:
            actions.append(END_TURN)  # the raise is done, or nothing can be raised
        return actions

    def _current_player(self) -> int:
        if self.phase == PH_OVER:
            return TERMINAL
        if self.phase == PH_ROLL:
            return CHANCE
        return self.turn

    def _legal_actions(self) -> List[int]:
        phase = self.phase
        if phase == PH_CARD:
            played = self.played[self.turn]
            return [PLAY_CARD + k for k in range(NUM_CARDS) if k not in played]
        if phase == PH_CHOOSE:
            return self._choose_actions()
        if phase == PH_RAISE:
            return self._street_placements() + self._building_placements()
        if phase == PH_MOVE:
            actions = [STOP_MOVE]
            if self._chip_usable():
                actions.append(USE_CHIP)
            if self.move_left > 0:
                actions.extend(self._adventurer_steps())
            return sorted(actions)
        if phase == PH_NEPTUNE:
            return [NEPTUNE_STOP] + [NEPTUNE_STEP_BASE + a for a in B.piece_neighbours(self.cover, self.neptune)]
        return []

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self.phase != PH_ROLL:
            return []
        return list(self.game.die_outcomes)

    # -- changing the board ----------------------------------------------------
    def _put_building(self, b: int, cell: int) -> None:
        self.cover[cell] = cell
        self.building_cell[b] = cell
        self.cell_building[cell] = b
        self._graph = None

    def _put_street(self, slot: int) -> None:
        a, b = B.STREET_SLOTS[slot]  # type: ignore[misc]
        self.cover[a] = a
        self.cover[b] = a
        self._graph = None

    def _draw_street(self) -> None:
        """Take a street from the draw pile; an emptied pile passes the draw on at once (RB "Game End")."""
        self.piles[self.draw] -= 1
        if self.piles[self.draw] == 0 and self.draw < NUM_PILES - 1:
            self.draw += 1
            if self.draw == NUM_PILES - 1:
                self.end_triggered = True  # pile 5 is empty: the Sand Timer shows

    def _sink(self, anchor: int) -> None:
        """Sink the piece at ``anchor``: to its grotto or the discard pile, sending home whoever stands on it."""
        cells = B.piece_cells(self.cover, anchor)
        b = self.cell_building[anchor]
        if b:
            self.building_cell[b] = -1
            self.cell_building[anchor] = 0
        else:
            self.piles[self.discard_pile()] += 1
        for c in cells:
            self.cover[c] = B.EMPTY
        self._graph = None
        for player, pos in enumerate(self.adventurer):
            if pos == anchor:
                self._send_home(player)

    def _send_home(self, player: int) -> None:
        """RB "Returning Adventurers": found treasures turn back; a chip unless he sank himself."""
        self.adventurer[player] = VILLAGE
        status = self.treasure[player]
        for t, s in enumerate(status):
            if s == CARRIED:
                status[t] = ROOF
        if (self.game.chips_enabled and player != self.turn
                and sum(self.chips) < NUM_CHIPS):
            self.chips[player] += 1

    def _enter(self, anchor: int) -> None:
        """The adventurer of the player on turn enters a piece; a building shows its treasures (spec, "Adventurer movement")."""
        player = self.turn
        self.adventurer[player] = anchor
        b = self.cell_building[anchor]
        if b:
            status = self.treasure[player]
            if status[b] == ROOF:
                status[b] = CARRIED
            if anchor == B.CENTRE and status[CHEST] == ROOF:
                status[CHEST] = CARRIED  # RB "The Treasure Chest"

    def _enter_village(self) -> None:
        player = self.turn
        self.adventurer[player] = VILLAGE
        status = self.treasure[player]
        for t, s in enumerate(status):
            if s == CARRIED:
                status[t] = SECURED
        if all(status[t] == SECURED for t in self.game.treasures):
            self.end_triggered = True  # RB "Game End", first trigger

    # -- applying actions --------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PH_ROLL:
            self._after_roll(action)
        elif phase == PH_CARD:
            self._play_card(action - PLAY_CARD)
        elif phase == PH_CHOOSE:
            self._choose(action)
        elif phase == PH_RAISE:
            if action < BUILD_BASE:
                self._put_street(action - STREET_BASE)
                self._draw_street()
            else:
                b, site = divmod(action - BUILD_BASE, B.NUM_SITES)
                self._put_building(b + 1, B.BUILDING_SITES[site])
                self.building_raised = True
            self.raise_left -= 1
            if self.raise_left == 0 or not self._can_raise():
                self.raised = True
                self._back_to_choose()
        elif phase == PH_MOVE:
            if action == STOP_MOVE:
                self._end_move()
                return
            if action == USE_CHIP:
                # Extra points = roofs right now; later finds do not change it (RB "Neptune Chips").
                self.chips[self.turn] -= 1
                self.chip_used = True
                self.move_left += self.roofs(self.turn)
            elif action == ENTER_VILLAGE:
                self.move_left -= 1
                self._enter_village()
            else:
                self.move_left -= 1
                self._enter(action - STEP_BASE)
            if not self._chip_usable() and (self.move_left == 0 or not self._adventurer_steps()):
                self._end_move()
        elif phase == PH_NEPTUNE:
            if action == NEPTUNE_STOP:
                self._end_neptune()
                return
            start = self.neptune
            self.neptune = action - NEPTUNE_STEP_BASE
            self._sink(start)  # the piece he leaves sinks (RB "Sinking Streets and Buildings")
            self.neptune_left -= 1
            if self.neptune_left == 0 or not self.neptune_can_move():
                self._end_neptune()

    def _play_card(self, k: int) -> None:
        self.card = k
        self.played[self.turn].append(k)
        self.played[self.turn].sort()
        self.phase = PH_CHOOSE
        self.raised = CARDS[k][0] == 0
        self._back_to_choose()

    def _choose(self, action: int) -> None:
        if action == RAISE:
            self.phase = PH_RAISE
            self.raise_left = CARDS[self.card][0]
        elif action == MOVE:
            self.phase = PH_MOVE
            self.move_left = CARDS[self.card][1]
            # The block is offered only when a step or a chip exists, so it
            # never needs closing here.
        elif action == NEPTUNE:
            if self.neptune_in_territory(self.turn):
                self.phase = PH_NEPTUNE
                self.neptune_left = self.game.territory_reach
            else:
                self.phase = PH_ROLL  # the die decides (spec: a chance node)
        else:
            self._end_turn()

    def _after_roll(self, value: int) -> None:
        if value == 0:
            self._end_neptune()
        else:
            self.phase = PH_NEPTUNE
            self.neptune_left = value

    def _end_move(self) -> None:
        self.moved = True
        self.move_left = 0
        self._back_to_choose()

    def _end_neptune(self) -> None:
        self.neptune_moved = True
        self.neptune_left = 0
        self._back_to_choose()

    def _back_to_choose(self) -> None:
        """Return to the block choice, ending the turn when that is the only thing left."""
        self.phase = PH_CHOOSE
        self.raise_left = 0
        if self._choose_actions() == [END_TURN]:
            self._end_turn()

    def board_frozen(self) -> bool:
        """True when the lake can never change again, so the game could never end by itself.

        Neptune is stuck (nothing can sink, so no street ever returns to a
        pile), no building can rise (none in the grottos, or no free site)
        and no street can rise (the draw pile is empty, or no two touching
        cells are free). The rules do not foresee this; our ruling is that
        it triggers the end like the Sand Timer (see the module docstring).
        """
        if self.neptune_can_move():
            return False
        if any(self.building_cell[b] < 0 for b in self.game.buildings) and any(
                self.cover[c] == B.EMPTY for c in B.BUILDING_SITES):
            return False
        if self.piles[self.draw] > 0:
            cover = self.cover
            for slot in B.VALID_STREET_SLOTS:
                a, b = B.STREET_SLOTS[slot]  # type: ignore[misc]
                if cover[a] == B.EMPTY and cover[b] == B.EMPTY:
                    return False
        return True

    def _end_turn(self) -> None:
        player = self.turn
        if not self.end_triggered and self.board_frozen():
            self.end_triggered = True
        if len(self.played[player]) == NUM_CARDS:
            self.played[player] = []  # all six played: back to the hand (RB "Playing a Movement Card")
        self.turn = (player + 1) % self.game.players
        self.card = -1
        self.raise_left = self.move_left = self.neptune_left = 0
        self.raised = self.moved = self.neptune_moved = False
        self.building_raised = self.chip_used = False
        # After a trigger the round is played out: the game ends before seat 0 plays again.
        self.phase = PH_OVER if (self.end_triggered and self.turn == 0) else PH_CARD

    # -- copies, results -------------------------------------------------------
    def clone(self) -> "SunkenCityState":
        other = SunkenCityState.__new__(SunkenCityState)
        other.game = self.game
        other.cover = list(self.cover)
        other.building_cell = list(self.building_cell)
        other.cell_building = list(self.cell_building)
        other.neptune = self.neptune
        other.adventurer = list(self.adventurer)
        other.treasure = [list(t) for t in self.treasure]
        other.chips = list(self.chips)
        other.played = [list(p) for p in self.played]
        other.piles = list(self.piles)
        other.draw = self.draw
        other.turn = self.turn
        other.phase = self.phase
        other.card = self.card
        other.raise_left = self.raise_left
        other.move_left = self.move_left
        other.neptune_left = self.neptune_left
        other.raised = self.raised
        other.moved = self.moved
        other.neptune_moved = self.neptune_moved
        other.building_raised = self.building_raised
        other.chip_used = self.chip_used
        other.end_triggered = self.end_triggered
        other._graph = self._graph  # never mutated, only replaced
        return other

    def secured_values(self) -> List[int]:
        """Total value of each player's secured treasures (the tie-break, RB "Game End")."""
        return [sum(self.secured(p)) for p in range(self.game.players)]

    def winners(self) -> List[int]:
        """The players with the most secured treasures, then the highest value (a tie shares the win)."""
        keys = [(len(self.secured(p)), sum(self.secured(p))) for p in range(self.game.players)]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def returns(self) -> List[float]:
        n = self.game.players
        if self.phase != PH_OVER:
            return [0.0] * n
        winners = self.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def scores(self) -> List[float]:
        """Secured treasures per player (the values are in ``to_dict()["secured_values"]``)."""
        return [float(len(self.secured(p))) for p in range(self.game.players)]

    def heuristic_values(self) -> List[float]:
        """Each player's share of the win by the learned evaluation (:func:`.value_model.learned_values`).

        A logistic regression fitted on self-play (``value_model.json``, written by
        ``benchmarks/sunken_city_value_fit.py``) gives each seat a win probability from
        its lead, its carried treasures against the way home and the streets left before
        the Sand Timer; the shares add up to 1 like the returns do. It replaced the share
        of the "wealth" (2 per secured treasure, 1 per carried one), which it beats on
        held-out games (benchmarks/RESULTS.md, issue 41). Terminal states give the returns.
        """
        return learned_values(self)

    # -- text --------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.phase == PH_ROLL:
            return f"die {action}"
        if 0 <= action < NUM_ACTIONS:
            return _ACTION_NAMES[action]  # a table: names are looked up for every legal action
        return f"action {action}"

    def information_state_string(self, player: int) -> str:
        # Perfect information: every player knows the whole state.
        return json.dumps(self.to_dict(), sort_keys=True)

    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def determinize(self, observer: int, rng: random.Random) -> "SunkenCityState":
        return self.clone()  # perfect information: nothing is hidden

    def to_dict(self) -> Dict[str, Any]:
        return state_to_dict(self)

    def __str__(self) -> str:
        return text_board(self)
