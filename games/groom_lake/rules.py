"""Unleashed From Groom Lake!: the reference rules engine, 3 to 6 players.

Sources: the rulebook (seed 004, "Unleashed From Groom Lake!") and the rulings
and component data of spec groom_lake.md, which take precedence. Citations
below name the rulebook's capitalised headings ("SCOUT THE AREA", "MOVE THE
TEAM"...) or the spec's sections.

This module is the state and its rules; the serializer, the determinization,
the heuristic and the rendering sit on top of it (``serialize.py``,
``knowledge.py``, ``heuristic.py``, ``render.py``) and ``game.py`` ties them
together. Decisions are atomic (:mod:`.actions` documents the numbering).

How a game runs (``step`` names the procedure in progress):

* **Set-up** (spec "Set-up"). Chance deals the roles (the Alien's seat, then
  the Hunter's with 5+ players). Cards are dealt round-robin from seat 0: in
  the first two rounds the Alien's "card" is one of its two set-up Recovery
  cards (a chance node with a single outcome: they are set aside from the
  deck, which holds 62 cards then), every other card is a draw; round-robin
  keeps hand sizes equal whatever the roles, so they do not betray the Alien.
  Then ten more rounds, and each seat in order keeps 3 of its 12 (three
  hidden ``keep`` decisions); the rest go back to the deck. Ruling for six
  players, who cannot all hold twelve of the 64 cards at once (72): after the
  first two rounds the ten cards are dealt seat by seat, each seat keeping
  its 3 and returning the rest before the next seat's ten are dealt. Then six
  cards are dealt face up as the Discard Stack.
* **A turn** (spec "A turn"): two action points; ``end turn`` stops early
  (rulebook: "Players may only take one, or no, Actions"). Then the Discard
  Stack is advanced: its top card is taken (public) and the player puts one
  card face down on the Refresh stack (``refresh`` decision). If the stack is
  then empty, every living player loses a life token and six new cards are
  dealt face up.
* **Hand limit** (spec "Players, roles, life"): whenever a living player holds
  more cards than life tokens, that player's ``refresh`` decisions come first
  (the first such seat from the turn player on), except during the set-up and
  the turn-end exchange, which settles it by itself.
* **Hazards** are contributed to clockwise (seat order) from the mover: each
  living player discards helping cards and life tokens one at a time, then
  ``done``; then one die per item is rolled, one chance node per die. The roll
  stops as soon as the outcome is certain (the total already beats the
  toughness, or cannot any more): only the total's comparison matters.
* **Crash Sites**: the mover assigns each investigation (``investigation to
  player p``); the investigator draws two cards and keeps one (hidden), the
  other goes face up on the Discard Stack.
* **Votes** (open, in seat order from the caller, the caller included, the
  target excluded) and the **Hunter's strike**; the victim's face-down cards
  are handed out one by one (``card to player p``; which card is chance,
  since nobody sees them).

Rulings settled here (beyond the spec's):

* a player may not discard their last life token to a hazard (it would be
  suicide, not a contribution; the rulebook is silent);
* the caller of a vote votes too (spec: "every other living player but the
  target votes, in seat order from the caller");
* a player who dies during their own turn (a class C placement costing the
  last life token, a failed Hunter strike) ends the turn without advancing
  the Discard Stack;
* a player reduced to 0 life tokens puts every card face down on the Refresh
  stack (the hand limit is 0);
* the Alien's weapon (Technology AP >= 50) and the Alien's other wins are
  checked from the first turn on, not during the set-up deal;
* the Half-Win (variant) is proposed by the player whose turn it is, at most
  once per turn, for free; every other living player then votes in seat
  order, and one "no" ends it;
* a scouted tile that fits nowhere goes to the discard pool unseen by the
  others (spec: "A tile that fits nowhere goes to the discard pool");
* the distance, the classes of placement and the end "no escape left" follow
  :mod:`.board` (and its rulings).

For the later C kernel every field is a small bounded array: hands, deck,
Refresh stack and records are 13 counts (at most 64 cards); the Discard Stack
holds at most 64 types; the map at most 49 placed tiles with coordinates in
``-48..48`` (the 97 x 97 grid of :mod:`.components`, whose cell lookup the
kernel would keep as a byte array); stacks, pool and pool records at most 16 /
48 tile ids; queues at most 64 seats; life at most start + 21. Connectivity
(distance, walkable region, escape) is a breadth-first search over that grid.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

from aiplay.game import CHANCE, TERMINAL, Game, ReferenceState

from . import actions as A
from .board import Placed, build_graph, distance_from_groom_lake, escape_possible, make_grid, placements
from .components import (
    ACTIONS_PER_TURN, ALIEN, ALIEN_CARD_AP, ALIEN_WEAPON_AP, CIVILIZATION, CRASH, DIRS, DISCARD_STACK_SIZE,
    FIRST_DEAL, GROOM_LAKE, HELPS, HUMAN, HUNTER, INVESTIGATION_DRAW, KEEP, MOVE_COST, NUM_STACKS, NUM_TYPES,
    RECOVERY, ROLE_NAMES, SCOUT_DRAW, SECOND_DEAL, STACK_TILES, TILES, TYPE_COUNTS, TYPE_NAMES, cell_xy,
    has_hunter, stack_for_distance, tech_ap, tile_name, total_ap,
)
from .view import build as build_view

# Procedure steps.
S_ROLES, S_DEAL, S_KEEP, S_ROW = "roles", "deal", "keep", "row"
S_ACTION, S_TILE, S_KEEP_TILE, S_PLACE = "action", "tile_draw", "keep_tile", "place"
S_CONTRIB, S_ROLL, S_ASSIGN, S_INV_DRAW, S_INV_KEEP = "contribute", "roll", "assign", "investigate_draw", \
    "investigate_keep"
S_VOTE, S_GIVE, S_GIVE_DRAW, S_SHARE, S_TURN_DISCARD, S_HALF_VOTE, S_OVER = (
    "vote", "give", "give_draw", "share", "turn_discard", "half_vote", "over")
STEPS = (S_ROLES, S_DEAL, S_KEEP, S_ROW, S_ACTION, S_TILE, S_KEEP_TILE, S_PLACE, S_CONTRIB, S_ROLL, S_ASSIGN,
         S_INV_DRAW, S_INV_KEEP, S_VOTE, S_GIVE, S_GIVE_DRAW, S_SHARE, S_TURN_DISCARD, S_HALF_VOTE, S_OVER)
CHANCE_STEPS = (S_ROLES, S_DEAL, S_ROW, S_TILE, S_ROLL, S_INV_DRAW, S_GIVE_DRAW, S_SHARE)
#: Steps during which the hand limit waits (set-up hands are large; the turn-end exchange settles itself).
LIMIT_EXEMPT = (S_ROLES, S_DEAL, S_KEEP, S_TURN_DISCARD, S_OVER)
#: ``result`` of a finished game.
NO_RESULT, ALIEN_WINS, TEAM_ESCAPES = 0, 1, 2


def empty_counts() -> List[int]:
    """A zero count vector over the supply types."""
    return [0] * NUM_TYPES


class RulesState(ReferenceState):
    """A Groom Lake position and its rules (the top-level state class in ``game.py`` adds the rest).

    Fields (all serialized by :meth:`to_dict` except the caches):

    * ``roles`` (-1 until dealt), ``revealed``, ``life`` (0 = dead),
      ``alien_card`` (the Hunter holds it);
    * cards as count vectors: ``hands``, ``deck``, ``refresh``, ``discard``
      (the face-up Discard Stack, a list of types, top last), ``recoveries``
      (played, out of the game); set-up: ``dealt``, ``kept`` (the keeper's kept
      cards, set aside);
    * knowledge records: ``known`` (public: cards everyone saw entering a hand
      that cannot have left unseen), ``deck_known``/``refresh_known`` (private:
      cards a player knows are in the deck / on the Refresh stack),
      ``pool_known`` (private: tiles a player knows are in the discard pool or,
      during a scout, drawn from it) -- see :mod:`.knowledge`;
    * tiles: ``stacks`` (three sorted lists of tile ids), ``pool`` (the discard
      pool), ``placed`` (the map, :mod:`.board`), ``team``, ``team_from``,
      ``held`` (tiles drawn by the scout in progress);
    * the turn: ``turn`` (seat), ``ap`` (action points left), ``half_called``,
      ``half_agreed``; the step and its context: ``step``, ``cur`` (the seat
      deciding, when the step has one), ``queue`` (seats still to contribute /
      vote / receive), ``count`` (draws, dice, investigations left), ``total``
      (dice total, or yes votes), ``target`` (vote target, hazard tile index,
      card recipient), ``inv_cards``, ``handout`` (face-down cards being
      handed out), ``ballots`` (the votes cast so far: [seat, 0/1]);
    * ``stats`` (public, per seat: hazard rounds joined, items contributed --
      the Hunter heuristic's belief reads them), ``result``.
    """

    __slots__ = ("game", "roles", "revealed", "life", "alien_card", "hands", "deck", "refresh", "discard",
                 "recoveries", "dealt", "kept", "known", "deck_known", "refresh_known", "pool_known", "stacks",
                 "pool", "placed", "team", "team_from", "held", "turn", "ap", "half_called", "half_agreed", "step",
                 "cur", "queue", "count", "total", "target", "inv_cards", "handout", "ballots", "stats", "result",
                 "_grid", "_graph", "_escape", "_fit")

    def __init__(self, game: Game):
        n = game.num_players  # type: ignore[attr-defined]
        self.game = game
        self.roles: List[int] = [-1] * n
        self.revealed: List[bool] = [False] * n
        self.life: List[int] = [game.start_life] * n  # type: ignore[attr-defined]
        self.alien_card = False
        self.hands: List[List[int]] = [empty_counts() for _ in range(n)]
        deck = list(TYPE_COUNTS)
        deck[RECOVERY] -= FIRST_DEAL  # the Alien's two set-up Recovery cards are set aside (spec "Set-up")
        self.deck: List[int] = deck
        self.refresh: List[int] = empty_counts()
        self.discard: List[int] = []
        self.recoveries = 0
        self.dealt = 0
        self.kept: List[int] = empty_counts()
        self.known: List[List[int]] = [empty_counts() for _ in range(n)]
        self.deck_known: List[List[int]] = [empty_counts() for _ in range(n)]
        self.refresh_known: List[List[int]] = [empty_counts() for _ in range(n)]
        self.pool_known: List[List[int]] = [[] for _ in range(n)]
        self.stacks: List[List[int]] = [list(s) for s in STACK_TILES]
        self.pool: List[int] = []
        self.placed: List[Placed] = [[GROOM_LAKE, 0, 0, 0, 0]]
        self.team: List[int] = [0, 0]
        self.team_from: List[int] = [0, 0]
        self.held: List[int] = []
        self.turn = -1  # no turn yet (set-up)
        self.ap = 0
        self.half_called = False
        self.half_agreed = False
        self.step = S_ROLES
        self.cur = -1
        self.queue: List[int] = []
        self.count = 0
        self.total = 0
        self.target = -1
        self.inv_cards: List[int] = empty_counts()
        self.handout: List[int] = empty_counts()
        self.ballots: List[List[int]] = []
        self.stats: List[List[int]] = [[0, 0] for _ in range(n)]
        self.result = NO_RESULT
        self._grid: Optional[Dict[Tuple[int, int], int]] = None
        self._graph: Any = None
        self._escape: Optional[Tuple[Any, bool]] = None
        self._fit: Optional[Tuple[Any, Any]] = None

    # -- small queries -------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of seats."""
        return self.game.num_players

    def alive(self, p: int) -> bool:
        """True while seat ``p`` has life tokens (dead players are out of the game)."""
        return self.life[p] > 0

    def living(self) -> List[int]:
        """Living seats in seat order."""
        return [p for p in range(self.n) if self.life[p] > 0]

    def seats_from(self, start: int) -> List[int]:
        """All seats in clockwise (seat) order starting with ``start``."""
        return [(start + i) % self.n for i in range(self.n)]

    def hand_size(self, p: int) -> int:
        """Cards in seat ``p``'s hand (public)."""
        return sum(self.hands[p])

    def alien_seat(self) -> int:
        """The Alien's seat (-1 before the roles are dealt)."""
        return self.roles.index(ALIEN) if ALIEN in self.roles else -1

    def in_setup(self) -> bool:
        """True until the first turn starts."""
        return self.turn < 0

    def grid(self) -> Dict[Tuple[int, int], int]:
        """The map's cell lookup (cached until the map changes)."""
        if self._grid is None:
            self._grid = make_grid(self.placed)
        return self._grid

    def graph(self) -> Any:
        """The map as a networkx graph (cached until the map changes; shared by clones, never mutated)."""
        if self._graph is None:
            self._graph = build_graph(self.placed)
        return self._graph

    def _map_changed(self) -> None:
        self._grid = None
        self._graph = None
        self._escape = None
        self._fit = None

    def placements(self, tile: int) -> Tuple[Optional[str], List[Tuple[int, int]]]:
        """Where ``tile`` may be placed now, by class (:func:`.board.placements`; cached per map, Team, tile)."""
        key = (len(self.placed), self.team[0], self.team[1], tile)
        if self._fit is None or self._fit[0] != key:
            self._fit = (key, placements(self.placed, self.grid(), (self.team[0], self.team[1]), tile))
        return self._fit[1]

    def team_tile(self) -> Placed:
        """The placed tile the Team stands on."""
        return self.placed[self.grid()[(self.team[0], self.team[1])]]

    def distance(self) -> int:
        """The Team's distance from Groom Lake in orthogonal steps over placed tiles (networkx)."""
        return distance_from_groom_lake(self.graph(), (self.team[0], self.team[1]))

    def tiles_remain(self) -> bool:
        """True while a tile can still be drawn (a stack or the discard pool) or is held by a scout."""
        return any(self.stacks) or bool(self.pool) or bool(self.held)

    def escape_possible(self) -> bool:
        """Whether the Team can still reach Civilization (cached per map, Team position and tile supply)."""
        key = (len(self.placed), self.team[0], self.team[1], self.tiles_remain())
        if self._escape is None or self._escape[0] != key:
            self._escape = (key, escape_possible(self.graph(), self.grid(), (self.team[0], self.team[1]),
                                                 key[3]))
        return self._escape[1]

    def draw_source(self) -> Optional[int]:
        """Where the next tile of the scout in progress comes from: a stack 0..2, or 3 for the pool; None if nothing.

        Spec "A turn" (Scout): the stack chosen by the distance; an empty stack
        falls through to the next; an empty Compass stack draws from the pool.
        """
        for s in range(self.target, NUM_STACKS):
            if self.stacks[s]:
                return s
        return NUM_STACKS if self.pool else None

    def ap_of(self, p: int) -> int:
        """Seat ``p``'s Alien Proof at the end: its cards, plus 50 for the Hunter holding the Alien card."""
        return total_ap(self.hands[p]) + (ALIEN_CARD_AP if self.alien_card and self.roles[p] == HUNTER else 0)

    def limit_seat(self) -> int:
        """The first seat (from the turn player on) over its hand limit, or -1 (spec "Players, roles, life")."""
        if self.step in LIMIT_EXEMPT:
            return -1
        n, start, life, hands = self.n, max(self.turn, 0), self.life, self.hands
        for i in range(n):
            p = (start + i) % n
            if life[p] > 0 and sum(hands[p]) > life[p]:
                return p
        return -1

    # -- the core contract ----------------------------------------------------------------
    def _current_player(self) -> int:
        if self.step == S_OVER:
            return TERMINAL
        seat = self.limit_seat()
        if seat >= 0:
            return seat
        if self.step in CHANCE_STEPS:
            return CHANCE
        return self.cur

    def _legal_actions(self) -> List[int]:
        p = self._current_player()
        hand = self.hands[p]
        if self.limit_seat() >= 0 or self.step == S_TURN_DISCARD:
            return [A.REFRESH + t for t in range(NUM_TYPES) if hand[t]]
        step = self.step
        if step == S_KEEP:
            return [A.KEEP + t for t in range(NUM_TYPES) if hand[t]]
        if step == S_ACTION:
            return self._turn_actions(p)
        if step == S_KEEP_TILE:
            return sorted(A.KEEP_TILE + t for t in set(self.held))
        if step == S_PLACE:
            _, options = self.placements(self.held[0])
            return [A.place(c, r) for c, r in options]
        if step == S_CONTRIB:
            hazard = TILES[self.placed[self.target][0]].hazard
            out = [A.LIFE] if self.life[p] >= 2 else []
            out.append(A.DONE)
            out += [A.CONTRIB + t for t in HELPS[hazard] if hand[t]]
            return sorted(out)
        if step == S_ASSIGN:
            return [A.ASSIGN + q for q in self.living()]
        if step == S_INV_KEEP:
            return [A.KEEP + t for t in range(NUM_TYPES) if self.inv_cards[t]]
        if step in (S_VOTE, S_HALF_VOTE):
            return [A.YES, A.NO]
        if step == S_GIVE:
            return [A.GIVE + q for q in self.living()]
        raise AssertionError(f"no decision at step {step}")  # pragma: no cover

    def _turn_actions(self, p: int) -> List[int]:
        """What the player whose turn it is may do (rulebook "A player's turn includes TWO ACTIONS")."""
        out = [A.END]
        ap = self.ap
        if ap >= 1 and self.hands[p][RECOVERY]:
            out.append(A.RECOVER)
        if ap >= 1 and (any(self.stacks) or self.pool):
            out.append(A.SCOUT)
        grid = self.grid()
        for d, (dx, dy) in enumerate(DIRS):
            j = grid.get((self.team[0] + dx, self.team[1] + dy))
            if j is not None:
                cost = MOVE_COST[TILES[self.placed[j][0]].terrain]
                if cost is not None and cost <= ap:
                    out.append(A.MOVE + d)
        if ap >= 2:
            others = [q for q in self.living() if q != p]
            out += [A.VOTE + q for q in others]
            if self.roles[p] == HUNTER and not self.revealed[p]:
                out += [A.STRIKE + q for q in others]
        if self.game.half_win and not self.half_agreed and not self.half_called:  # type: ignore[attr-defined]
            out.append(A.HALF)
        return sorted(out)

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self._current_player() != CHANCE:
            return []
        step = self.step
        if step == S_ROLES:
            if ALIEN not in self.roles:
                return [(p, 1.0 / self.n) for p in range(self.n)]
            free = [p for p in range(self.n) if self.roles[p] < 0]
            return [(p, 1.0 / len(free)) for p in free]
        if step == S_DEAL and self._forced_recovery():
            return [(RECOVERY, 1.0)]
        if step in (S_DEAL, S_ROW, S_INV_DRAW):
            return _weighted(self.deck)
        if step in (S_GIVE_DRAW, S_SHARE):
            return _weighted(self.handout)
        if step == S_TILE:
            src = self.draw_source()
            tiles = self.pool if src == NUM_STACKS else self.stacks[src]  # type: ignore[index]
            return [(t, 1.0 / len(tiles)) for t in sorted(tiles)]
        if step == S_ROLL:
            return [(f, 1.0 / 6) for f in range(6)]
        raise AssertionError(f"no chance at step {step}")  # pragma: no cover

    def _forced_recovery(self) -> bool:
        """True when the next set-up card is one of the Alien's two Recovery cards (first two rounds)."""
        return self.dealt < FIRST_DEAL * self.n and self.roles[self.dealt % self.n] == ALIEN

    # -- applying moves ---------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.step in CHANCE_STEPS and self.limit_seat() < 0:
            self._apply_chance(action)
        else:
            self._apply_decision(self._current_player(), action)
        self._settle()

    def _apply_chance(self, x: int) -> None:
        step = self.step
        if step == S_ROLES:
            if ALIEN not in self.roles:
                self.roles[x] = ALIEN
                if not has_hunter(self.n):
                    self._roles_done()
            else:
                self.roles[x] = HUNTER
                self._roles_done()
        elif step == S_DEAL:
            p = self.deal_seat()
            if not self._forced_recovery():
                self._draw_hidden(p, x)
            self.hands[p][x] += 1
            self.dealt += 1
            self.count -= 1
        elif step == S_ROW:
            self._draw_face_up(x)
            self.discard.append(x)
            self.count -= 1
        elif step == S_TILE:
            src = self.draw_source()
            (self.pool if src == NUM_STACKS else self.stacks[src]).remove(x)  # type: ignore[index]
            self.held.append(x)
            self.count -= 1
        elif step == S_ROLL:
            self.total += x + 1
            self.count -= 1
        elif step == S_INV_DRAW:
            self._draw_hidden(self.cur, x)  # only the investigator sees which card left the deck
            self.inv_cards[x] += 1
            self.total -= 1
        elif step == S_GIVE_DRAW:
            self.handout[x] -= 1
            self.hands[self.target][x] += 1
            self.step = S_GIVE
        elif step == S_SHARE:
            self.handout[x] -= 1
            self.hands[self.queue.pop(0)][x] += 1

    def _roles_done(self) -> None:
        self.roles = [HUMAN if r < 0 else r for r in self.roles]
        self.step, self.count = S_DEAL, FIRST_DEAL * self.n

    def deal_together(self) -> bool:
        """True when every seat's twelve set-up cards are dealt before anyone keeps (all but six players)."""
        return (FIRST_DEAL + SECOND_DEAL) * self.n <= sum(TYPE_COUNTS)

    def deal_seat(self) -> int:
        """The seat the next set-up card goes to: round-robin (six players: the last ten seat by seat)."""
        first = FIRST_DEAL * self.n
        if self.dealt < first or self.deal_together():
            return self.dealt % self.n
        return (self.dealt - first) // SECOND_DEAL

    def _draw_hidden(self, p: int, t: int) -> None:
        """Seat ``p`` draws a card of type ``t`` unseen by the others: their "deck holds" records are void."""
        self.deck[t] -= 1
        for q in range(self.n):
            if q == p:
                self.deck_known[q][t] = max(0, self.deck_known[q][t] - 1)
            else:
                self.deck_known[q] = empty_counts()

    def _draw_face_up(self, t: int) -> None:
        """A card of type ``t`` leaves the deck face up: everyone's "deck holds at least" record drops by one."""
        self.deck[t] -= 1
        for rec in self.deck_known:
            if rec[t]:
                rec[t] -= 1

    def _to_refresh(self, p: int, t: int) -> None:
        """Seat ``p`` puts a card of type ``t`` face down on the Refresh stack (spec: the player chooses which)."""
        self.hands[p][t] -= 1
        self.refresh[t] += 1
        self.refresh_known[p][t] += 1
        # Nobody else saw which card left, so every publicly known card of p may be gone.
        self.known[p] = empty_counts()

    def _apply_decision(self, p: int, action: int) -> None:
        block, arg = A.decode(action)
        if block == "refresh":
            self._to_refresh(p, arg)
            if self.step == S_TURN_DISCARD:  # the hand limit waits at this step: this is the turn's exchange
                self._after_advance()
            return
        step = self.step
        if step == S_KEEP:
            self.hands[p][arg] -= 1
            self.kept[arg] += 1
            if sum(self.kept) == KEEP:
                # Rulebook: "discard (face down) down to 3 starting Supply Cards"; they go back to the deck.
                for t in range(NUM_TYPES):
                    self.deck[t] += self.hands[p][t]
                    self.deck_known[p][t] += self.hands[p][t]
                self.hands[p] = self.kept
                self.kept = empty_counts()
                if p + 1 < self.n and self.deal_together():
                    self.cur = p + 1
                elif p + 1 < self.n:
                    self.step, self.cur, self.count = S_DEAL, -1, SECOND_DEAL
                else:
                    self.step, self.cur, self.count = S_ROW, -1, DISCARD_STACK_SIZE
            return
        if step == S_ACTION:
            self._turn_action(p, block, arg)
        elif step == S_KEEP_TILE:
            other = list(self.held)
            other.remove(arg)
            self._to_pool(p, other[0])
            self.held = [arg]
            self._start_placement()
        elif step == S_PLACE:
            self._place(arg // 4, arg % 4)
        elif step == S_CONTRIB:
            if block == "done":
                self.queue.pop(0)
                self.cur = self.queue[0] if self.queue else -1
            else:
                if block == "life":
                    self.life[p] -= 1  # never the last token (ruling in the module docstring)
                else:
                    self._discard_face_up(p, arg)
                self.count += 1  # one more die
                self.stats[p][1] += 1
        elif step == S_ASSIGN:
            self.cur = arg  # the investigator
            self.count -= 1
            self.step, self.total = S_INV_DRAW, INVESTIGATION_DRAW
        elif step == S_INV_KEEP:
            self.inv_cards[arg] -= 1
            self.hands[p][arg] += 1
            for t in range(NUM_TYPES):
                for _ in range(self.inv_cards[t]):
                    self.discard.append(t)  # the other card goes face up on the Discard Stack
            self.inv_cards = empty_counts()
            self.step, self.cur = S_ASSIGN, self.turn
        elif step == S_VOTE:
            self.ballots.append([p, 1 if block == "yes" else 0])
            self.total += 1 if block == "yes" else 0
            self.queue.pop(0)
            if self.queue:
                self.cur = self.queue[0]
            else:
                self._resolve_vote()
        elif step == S_HALF_VOTE:
            self.ballots.append([p, 1 if block == "yes" else 0])
            self.queue.pop(0)
            if block == "no" or not self.queue:
                self.half_agreed = block == "yes"
                self._back_to_action()
            else:
                self.cur = self.queue[0]
        elif step == S_GIVE:
            self.target = arg
            self.step = S_GIVE_DRAW

    def _discard_face_up(self, p: int, t: int) -> None:
        """Seat ``p`` discards a card of type ``t`` face up onto the Discard Stack."""
        self.hands[p][t] -= 1
        self.discard.append(t)
        if self.known[p][t]:
            self.known[p][t] -= 1

    def _to_pool(self, p: int, tile: int) -> None:
        """Seat ``p`` puts ``tile`` face down in the discard pool (only p knows which)."""
        self.pool.append(tile)
        self.pool.sort()
        if tile not in self.pool_known[p]:
            self.pool_known[p].append(tile)
            self.pool_known[p].sort()

    def _turn_action(self, p: int, block: str, arg: int) -> None:
        if block == "end":
            self.ap = 0
        elif block == "recover":
            # Rulebook "PLAY A RECOVERY CARD": the card leaves the game; gain as many life
            # tokens as Recovery cards played so far, this one included.
            self.ap -= 1
            self.hands[p][RECOVERY] -= 1
            if self.known[p][RECOVERY]:
                self.known[p][RECOVERY] -= 1
            self.recoveries += 1
            self.life[p] += self.recoveries
        elif block == "scout":
            self.ap -= 1
            self.step, self.held, self.count = S_TILE, [], SCOUT_DRAW
            self.target = stack_for_distance(self.distance())
        elif block == "move":
            dx, dy = DIRS[arg]
            x, y = self.team[0] + dx, self.team[1] + dy
            j = self.grid()[(x, y)]
            tile = TILES[self.placed[j][0]]
            self.ap -= MOVE_COST[tile.terrain]  # type: ignore[operator]
            self.team_from = list(self.team)
            self.team = [x, y]
            if self.placed[j][4] and tile.hazard != CRASH:
                # Rulebook "OVERCOME THE HAZARD": every living player, clockwise from the mover.
                self.step, self.target, self.count, self.total = S_CONTRIB, j, 0, 0
                self.queue = [q for q in self.seats_from(p) if self.alive(q)]
                self.cur = p
                for q in self.queue:
                    self.stats[q][0] += 1
            elif self.placed[j][4]:
                # Spec "A turn": a Crash Site entered for the first time: the mover hands out its investigations.
                self.step, self.target, self.count, self.cur = S_ASSIGN, j, tile.number, p
            else:
                self._arrived()
        elif block in ("vote", "strike"):
            self.ap -= 2
            if block == "vote":
                self.step, self.target, self.total, self.ballots = S_VOTE, arg, 0, []
                self.queue = [q for q in self.seats_from(p) if self.alive(q) and q != arg]
                self.cur = self.queue[0]
            else:
                self._strike(p, arg)
        elif block == "half":
            self.half_called = True
            self.queue = [q for q in self.seats_from(p) if self.alive(q) and q != p]
            self.ballots = []
            if self.queue:
                self.step, self.cur = S_HALF_VOTE, self.queue[0]
            else:
                self.half_agreed = True

    def _back_to_action(self) -> None:
        """The procedure in progress is over: the turn player chooses again (the context is cleared)."""
        self.step, self.cur, self.target, self.count, self.total = S_ACTION, self.turn, -1, 0, 0
        self.queue, self.ballots = [], []

    def _arrived(self) -> None:
        """The Team stays on its tile: on a Civilization with no open hazard the game is won (spec "End")."""
        tile = self.team_tile()
        if TILES[tile[0]].terrain == CIVILIZATION and not tile[4]:
            self._back_to_action()
            self.result = TEAM_ESCAPES
            self.step, self.cur = S_OVER, -1
        else:
            self._back_to_action()

    def _start_placement(self) -> None:
        cls, options = self.placements(self.held[0])
        if cls is None:
            self._to_pool(self.turn, self.held.pop())  # spec: a tile that fits nowhere goes to the pool
            self._back_to_action()
        else:
            self.step, self.cur = S_PLACE, self.turn

    def _place(self, cell: int, rot: int) -> None:
        tile = self.held.pop()
        cls, _ = self.placements(tile)
        x, y = cell_xy(cell)
        self.placed.append([tile, x, y, rot, 1 if TILES[tile].hazard else 0])
        self._map_changed()
        for rec in self.pool_known:
            if tile in rec:
                rec.remove(tile)
        self._back_to_action()
        if cls == "C":
            self._lose_life(self.turn)  # rulebook "SCOUT THE AREA" (C): the player loses one Life Token

    def _lose_life(self, p: int, k: int = 1) -> None:
        """Seat ``p`` loses ``k`` life tokens; at 0 it is dead and its cards go face down to the Refresh stack."""
        self.life[p] = max(0, self.life[p] - k)
        if self.life[p] == 0:
            for t in range(NUM_TYPES):
                while self.hands[p][t]:
                    self._to_refresh(p, t)

    def _strike(self, hunter: int, victim: int) -> None:
        """Rulebook "turn over his character card, and immediately kill another player"."""
        self.revealed[hunter] = self.revealed[victim] = True
        self.handout = self.hands[victim]
        self.hands[victim] = empty_counts()
        self.known[victim] = empty_counts()
        self.life[victim] = 0
        if self.roles[victim] == ALIEN:
            self.alien_card = True
            self.step, self.cur = S_GIVE, hunter
            return
        # A Human victim: the Hunter dies too; both hands are dealt out equally, the rest to Refresh.
        for t in range(NUM_TYPES):
            self.handout[t] += self.hands[hunter][t]
        self.hands[hunter] = empty_counts()
        self.known[hunter] = empty_counts()
        self.life[hunter] = 0
        others = [q for q in self.seats_from(hunter) if self.alive(q)]
        share = sum(self.handout) // len(others) if others else 0
        self.queue = [q for _ in range(share) for q in others]
        self.step, self.cur = S_SHARE, -1

    def _resolve_vote(self) -> None:
        """Spec "A turn" (vote): more than half yes kills the target, whose role stays hidden."""
        voters = len(self.ballots)
        target = self.target
        if 2 * self.total > voters:
            self.handout = self.hands[target]
            self.hands[target] = empty_counts()
            self.known[target] = empty_counts()
            self.life[target] = 0
            self._back_to_action()
            self.step = S_GIVE
        else:
            self._back_to_action()

    def _finish_actions(self) -> None:
        """Rulebook "ADVANCES THE DISCARD STACK": take the top card, then put one card face down on Refresh."""
        p = self.turn
        if self.alive(p) and self.discard:
            t = self.discard.pop()
            self.hands[p][t] += 1
            self.known[p][t] += 1
            self.step, self.cur = S_TURN_DISCARD, p
        else:
            self._after_advance()

    def _after_advance(self) -> None:
        if not self.discard:
            # Spec "A turn": every living player loses a life token, then six new cards face up.
            for p in self.living():
                self._lose_life(p)
            self._back_to_action()
            self.step, self.cur, self.count = S_ROW, -1, DISCARD_STACK_SIZE
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        for q in self.seats_from(self.turn)[1:] + [self.turn]:
            if self.alive(q):
                self._start_turn(q)
                return
        self._back_to_action()  # nobody alive: the end check catches it

    def _start_turn(self, p: int) -> None:
        self.turn, self.ap, self.half_called = p, ACTIONS_PER_TURN, False
        self._back_to_action()

    def _reshuffle(self) -> None:
        """Spec "A turn": an empty supply deck is replaced by the shuffled Refresh stack (never the Discard Stack)."""
        self.deck, self.refresh = self.refresh, empty_counts()
        for p in range(self.n):
            self.deck_known[p], self.refresh_known[p] = self.refresh_known[p], empty_counts()

    def _settle(self) -> None:
        """Run the automatic steps until a decision or a chance event is due, or the game ends."""
        while True:
            step = self.step
            if step == S_OVER:
                return
            if not self.in_setup() and self._game_over():
                return
            if self.limit_seat() >= 0:
                return
            if step in (S_ROW, S_INV_DRAW) and not any(self.deck) and any(self.refresh):
                self._reshuffle()
            if step == S_DEAL:
                if self.count > 0:
                    return
                if self.dealt == FIRST_DEAL * self.n:
                    # The first two rounds are out: now ten rounds (six players: seat 0's ten).
                    self.count = SECOND_DEAL * (self.n if self.deal_together() else 1)
                elif self.deal_together():
                    self.step, self.cur = S_KEEP, 0
                else:
                    self.step, self.cur = S_KEEP, self.deal_seat() - 1
                continue
            if step == S_ROW:
                if self.count > 0 and any(self.deck):
                    return
                if self.turn < 0:
                    self._start_turn(0)  # rulebook "Determine who goes first": seat 0 (set-up over)
                else:
                    self._next_turn()
                continue
            if step == S_ACTION:
                if not self.alive(self.turn) or self.ap == 0:
                    self._finish_actions()
                    continue
                return
            if step == S_TILE:
                if self.count > 0 and self.draw_source() is not None:
                    return
                if len(self.held) == 2:
                    self.step, self.cur = S_KEEP_TILE, self.turn
                    return
                self._start_placement()
                continue
            if step == S_CONTRIB:
                if self.queue:
                    self.cur = self.queue[0]
                    return
                self.step, self.cur = S_ROLL, -1
                continue
            if step == S_ROLL:
                tough = TILES[self.placed[self.target][0]].number
                if self.total > tough:
                    self.placed[self.target][4] = 0  # closed: a Map Token on the hazard
                    self._escape = None
                    self._arrived()
                    continue
                if self.total + 6 * self.count <= tough:
                    self.team = list(self.team_from)  # the Team goes back to the tile it came from
                    self._back_to_action()
                    continue
                return
            if step == S_ASSIGN:
                if self.count > 0:
                    return
                self.placed[self.target][4] = 0  # all investigations done: the Crash Site is closed
                self._escape = None
                self._arrived()
                continue
            if step == S_INV_DRAW:
                if self.total > 0 and any(self.deck):
                    return
                self.total = 0
                if any(self.inv_cards):
                    self.step = S_INV_KEEP
                    return
                self.step, self.cur = S_ASSIGN, self.turn
                continue
            if step in (S_GIVE, S_GIVE_DRAW):
                if any(self.handout):
                    return
                self._back_to_action()
                continue
            if step == S_SHARE:
                if self.queue and any(self.handout):
                    return
                for t in range(NUM_TYPES):
                    self.refresh[t] += self.handout[t]  # the unequal rest goes to the Refresh stack
                self.handout = empty_counts()
                self._back_to_action()
                continue
            return

    def _game_over(self) -> bool:
        """Spec "End": the Alien's wins (weapon, every Human and Hunter dead, no escape left)."""
        a = self.alien_seat()
        if a >= 0 and self.alive(a) and tech_ap(self.hands[a]) >= ALIEN_WEAPON_AP:
            self.revealed[a] = True  # it reveals at once
            self.result = ALIEN_WINS
        elif not any(self.alive(p) and self.roles[p] != ALIEN for p in range(self.n)):
            self.result = ALIEN_WINS
        elif self.step == S_ACTION and not self.escape_possible():
            self.result = ALIEN_WINS
        else:
            return False
        self.step, self.cur = S_OVER, -1
        return True

    # -- results ---------------------------------------------------------------------------
    def winners(self) -> List[int]:
        """The winning seats of a finished game ([] before the end)."""
        if self.result == ALIEN_WINS:
            return [self.alien_seat()]
        if self.result != TEAM_ESCAPES:
            return []
        team = [p for p in range(self.n) if self.alive(p) and self.roles[p] != ALIEN]
        if self.half_agreed:
            return team  # variant: all non-Alien survivors share the win, Alien Proof is worthless
        best = max(self.ap_of(p) for p in team)
        return [p for p in team if self.ap_of(p) == best]

    def returns(self) -> List[float]:
        n = self.n
        if self.step != S_OVER:
            return [0.0] * n
        won = self.winners()
        return [1.0 / len(won) if p in won else -1.0 / (n - len(won)) for p in range(n)]

    def scores(self) -> List[float]:
        return [float(self.ap_of(p)) for p in range(self.n)]

    # -- copying -------------------------------------------------------------------------------
    def clone(self) -> "RulesState":
        o = type(self).__new__(type(self))
        o.game = self.game
        o.roles, o.revealed, o.life = list(self.roles), list(self.revealed), list(self.life)
        o.alien_card = self.alien_card
        o.hands = [list(h) for h in self.hands]
        o.deck, o.refresh, o.discard = list(self.deck), list(self.refresh), list(self.discard)
        o.recoveries, o.dealt, o.kept = self.recoveries, self.dealt, list(self.kept)
        o.known = [list(h) for h in self.known]
        o.deck_known = [list(h) for h in self.deck_known]
        o.refresh_known = [list(h) for h in self.refresh_known]
        o.pool_known = [list(h) for h in self.pool_known]
        o.stacks = [list(s) for s in self.stacks]
        o.pool = list(self.pool)
        o.placed = [list(p) for p in self.placed]
        o.team, o.team_from, o.held = list(self.team), list(self.team_from), list(self.held)
        o.turn, o.ap, o.half_called, o.half_agreed = self.turn, self.ap, self.half_called, self.half_agreed
        o.step, o.cur, o.queue = self.step, self.cur, list(self.queue)
        o.count, o.total, o.target = self.count, self.total, self.target
        o.inv_cards, o.handout = list(self.inv_cards), list(self.handout)
        o.ballots = [list(b) for b in self.ballots]
        o.stats = [list(s) for s in self.stats]
        o.result = self.result
        # The caches describe the map, which the copy shares until one of them changes it.
        o._grid, o._graph, o._escape, o._fit = self._grid, self._graph, self._escape, self._fit
        return o

    # -- text ----------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE and 0 <= action < A.MAX_CHANCE:
            step = self.step
            if step == S_ROLES:
                role = "Alien" if ALIEN not in self.roles else "Hunter"
                return f"{role} is player {action}"
            if step == S_ROLL:
                return f"die shows {action + 1}"
            if step == S_TILE:
                return f"draw tile {tile_name(action)}"
            if action < NUM_TYPES:
                name = TYPE_NAMES[action]
                if step == S_DEAL:
                    return f"deal {name} to player {self.deal_seat()}"
                if step == S_ROW:
                    return f"{name} face up"
                if step == S_INV_DRAW:
                    return f"player {self.cur} draws {name}"
                if step == S_GIVE_DRAW:
                    return f"player {self.target} receives {name}"
                if step == S_SHARE:
                    return f"player {self.queue[0] if self.queue else -1} receives {name}"
            return f"outcome {action}"
        try:
            return A.action_name(action)
        except ValueError:
            return f"action {action}"

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """What ``viewer`` sees of a move (the move log of a seat; :meth:`view` is the position).

        Spec "Information": roles, hands, the tile stacks and the discard pool,
        an investigation's kept card and the set-up keeps are hidden. So the
        others do not see who is dealt a role, which card a seat is dealt,
        draws, keeps or puts face down on the Refresh stack, nor which tiles a
        scout draws and keeps. The map, dice, votes, strikes and every card
        discarded face up onto the Discard Stack are public.
        """
        mover = self._current_player()
        if mover == CHANCE:
            step = self.step
            if step == S_ROLES:
                role = "Alien" if ALIEN not in self.roles else "Hunter"
                return None if action == viewer else f"the {role} role is dealt"
            if step == S_DEAL:
                seat = self.deal_seat()
                return None if seat == viewer else f"deal a card to player {seat}"
            if step == S_TILE:
                return None if self.turn == viewer else f"player {self.turn} draws a tile"
            if step == S_INV_DRAW:
                return None if self.cur == viewer else f"player {self.cur} draws a card"
            if step in (S_GIVE_DRAW, S_SHARE):
                seat = self.target if step == S_GIVE_DRAW else (self.queue[0] if self.queue else -1)
                return None if seat == viewer else f"player {seat} receives a card"
            return None  # dice and the Discard Stack's face-up cards
        if mover == viewer or mover < 0:
            return None
        block, _ = A.decode(action)
        if block == "refresh":
            return "a card to the Refresh stack"
        if block == "keep":
            return "keep a card"
        if block == "keep_tile":
            return "keep a tile"
        return None

    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def _internal_view(self, player: int) -> Dict[str, Any]:
        """Everything ``player`` knows in the engine's arrays, JSON-ready (spec "Information").

        The view's ``"internal"`` part (for bots; unstable): :meth:`view` builds its readable
        fields from this alone.

        Public: the map, open/closed hazards, life tokens, hand sizes, the
        Discard Stack, every face-up discard, votes, revealed roles, the pile
        sizes (and the stack each pool tile and each scouted tile came from: the
        tiles' backs show it). Private to ``player``: its role, hand, set-up
        cards kept so far, the tiles it holds while scouting, the cards it drew
        while investigating, and its knowledge records.
        """
        n = self.n
        p = player
        in_deal = self.step in (S_ROLES, S_DEAL)
        scouting = self.step in (S_TILE, S_KEEP_TILE, S_PLACE)
        return {
            "observer": p,
            "current_player": self.current_player(),
            "step": self.step,
            "cur": self.cur,
            "turn": self.turn,
            "ap": self.ap,
            "half_called": self.half_called,
            "half_agreed": self.half_agreed,
            "result": self.result,
            "winners": self.winners() if self.step == S_OVER else [],
            "role": self.roles[p],
            "roles": [self.roles[q] if (q == p or self.revealed[q] or self.step == S_OVER) else None
                      for q in range(n)],
            "revealed": list(self.revealed),
            "alien_card": self.alien_card,
            "life": list(self.life),
            "hand": list(self.hands[p]),
            "hand_sizes": [sum(h) for h in self.hands],
            "kept": list(self.kept) if self.step == S_KEEP and self.cur == p else None,
            "kept_size": sum(self.kept),
            "dealt": self.dealt,
            # During the deal the deck shows its cards and the Alien's set-aside Recovery cards together.
            "deck_size": sum(self.deck) + (self._reserve() if in_deal else 0),
            "refresh_size": sum(self.refresh),
            "discard": list(self.discard),
            "recoveries": self.recoveries,
            "known": [list(k) for k in self.known],
            "deck_known": list(self.deck_known[p]),
            "refresh_known": list(self.refresh_known[p]),
            "pool_known": list(self.pool_known[p]),
            "stack_sizes": [len(s) for s in self.stacks],
            "pool_origins": _origins(self.pool),
            "held": list(self.held) if p == self.turn and scouting else None,
            "held_origins": _origins(self.held),
            "map": [list(t) for t in self.placed],
            "team": list(self.team),
            "team_from": list(self.team_from),
            "queue": list(self.queue),
            "count": self.count,
            "total": self.total,
            "target": self.target,
            "inv_cards": list(self.inv_cards) if p == self.cur and self.step in (S_INV_DRAW, S_INV_KEEP) else None,
            "inv_size": sum(self.inv_cards),
            "handout_size": sum(self.handout),
            "ballots": [list(b) for b in self.ballots],
            "stats": [list(s) for s in self.stats],
        }

    def _reserve(self) -> int:
        """The Alien's set-up Recovery cards not dealt yet (0 outside the deal)."""
        a = self.alien_seat()
        if a < 0:
            return FIRST_DEAL
        given = sum(1 for k in range(min(self.dealt, FIRST_DEAL * self.n)) if k % self.n == a)
        return FIRST_DEAL - given

    def information_state_string(self, player: int) -> str:
        """The canonical text of :meth:`_internal_view` (what ``player`` knows; not the move history)."""
        return json.dumps(self._internal_view(player), sort_keys=True, separators=(",", ":"))

    def role_name(self, p: int) -> str:
        """Seat ``p``'s role name ("?" before the deal)."""
        return ROLE_NAMES[self.roles[p]] if self.roles[p] >= 0 else "?"

    def to_dict(self) -> Dict[str, Any]:
        return {
            "roles": list(self.roles), "revealed": list(self.revealed), "life": list(self.life),
            "alien_card": self.alien_card, "hands": [list(h) for h in self.hands], "deck": list(self.deck),
            "refresh": list(self.refresh), "discard": list(self.discard), "recoveries": self.recoveries,
            "dealt": self.dealt, "kept": list(self.kept), "known": [list(k) for k in self.known],
            "deck_known": [list(k) for k in self.deck_known],
            "refresh_known": [list(k) for k in self.refresh_known],
            "pool_known": [list(k) for k in self.pool_known], "stacks": [list(s) for s in self.stacks],
            "pool": list(self.pool), "map": [list(t) for t in self.placed], "team": list(self.team),
            "team_from": list(self.team_from), "held": list(self.held), "turn": self.turn, "ap": self.ap,
            "half_called": self.half_called, "half_agreed": self.half_agreed, "step": self.step, "cur": self.cur,
            "queue": list(self.queue), "count": self.count, "total": self.total, "target": self.target,
            "inv_cards": list(self.inv_cards), "handout": list(self.handout),
            "ballots": [list(b) for b in self.ballots], "stats": [list(s) for s in self.stats],
            "result": self.result,
        }


def _weighted(counts: List[int]) -> List[Tuple[int, float]]:
    """Chance outcomes drawing one card from a count vector (each card equally likely)."""
    total = sum(counts)
    return [(t, c / total) for t, c in enumerate(counts) if c]


def _origins(tiles: List[int]) -> List[int]:
    """How many of ``tiles`` come from each stack (their backs are public)."""
    out = [0] * NUM_STACKS
    for t in tiles:
        out[TILES[t].stack] += 1
    return out


__all__ = ["ACTIONS_PER_TURN", "ALIEN_WINS", "NO_RESULT", "RulesState", "STEPS", "TEAM_ESCAPES", "empty_counts"]
