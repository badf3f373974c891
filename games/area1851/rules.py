"""Area 1851: the reference engine's state and rules (2-5 players).

Sources: the Japanese rulebook summary and the spec area1851.md (English rendering, rulings and
card data), which takes precedence. Citations: ``# Rulebook "<section>"`` for the summary's
sections, ``# spec "<section>"`` for the spec.

Turn structure (spec "A turn: six phases"): Event, Preparation, Action, Delivery, Assistants,
Rotation. The simultaneous phases are played in seat order (spec "Rulings for the engine"), each
player's part a series of atomic decisions (:mod:`.actions`); a :class:`~.player.Snapshot` taken at
the phase start hides the others' same-phase choices (view, information state, determinization).

Engine rulings (the spec is silent; chosen here and documented):

* Event reveals are chance nodes at each deck position: the fixed cards sit at positions ``B``,
  ``2B+1`` and ``3B+2`` (block size ``B``); any other position is uniform over the random events
  not yet revealed (by exchangeability this equals the shuffled block deck). Missing Time
  reveals the next position too, so that game ends a turn early ("after the turn that reveals
  The End").
* A draw from an empty Tinker deck: in the set-up and preparation phases the discard pile is
  shuffled into a new deck first; in other phases nothing is drawn.
* Paying dice: only dice showing 1 or more are paid (a 0 adds nothing); each die chosen keeps the
  exact sum reachable. Solar Flare: at most one distinct die may be used (paid or placed on the
  Town Hall) in the turn.
* Level 2 under Just the Basics: activating two or more assistants at once is not allowed.
* An activated location whose effect cannot be used is wasted; every optional sub-step offers
  ``done``.
* Harsh Requirement: choosing a gadget moves it with its modifications.
* Action feats are revealed automatically when achieved, at most one copy of a type per turn.
  Synchronized Roll needs at least two unused dice, all equal, during the action phase.
* Final feats: conditional ones (A Little Bit Of It All, I'm Unique, Single Minded, A Legend Is
  Born) are revealed if their condition holds, the others always; A Legend Is Born is checked
  after the others, Just A Drop More last and strictly to the next multiple of 5.
* Casino Night and Risky Deal "start the turn with N AP": the base AP is set (the later event
  wins).
* A gadget left full at the end of the delivery phase (possible only in sampled worlds, never in
  play: ``done`` needs none left) is delivered then without a feat.
* Nosey Neighbor with two players counts the one neighbour once; Teamwork needs another player's
  Teamwork (one player's two copies score 0); Ooh! and Secret Duplication take the best Action feat.
* Just Sittin' Round: the holder decides before the draws (its own sub-phase, in which every seat
  is asked while the card is unrevealed, the others having only ``done``); a skipping player
  neither draws nor rolls, and its dice keep their faces and become unused.
* Learn by Watching counts Recycler Level 2 deliveries; the Level 1 mod delivery is not a gadget.
* Engine bound: at most :data:`~.cards.MAX_GADGETS` gadgets face up per player.

* One chance node after every decision of the event-choice and action phases (spec "Rulings for
  the engine": the others do not see a seat's choices until the phase ends, and draws and rolls
  are chance nodes). A choice that draws (take a feat, draw a card, Smell My Feat) or rolls
  (Risky Deal) is followed by its draw or roll; every other choice by a chance node with the one
  outcome "nothing" (``Q_NONE``). Had only drawing choices been followed by a chance node, its
  existence would tell the seats who wait which choice the actor made (issue 37: "take a feat"
  against "activate 1 at Replicator"). A choice that draws or rolls more than once draws one
  card or rolls one die, and the actor then makes forced moves, one per further card or die:
  the Replicator's second card (step ``repldraw``, "draw a card") and the Workshop re-roll's
  further dice (step ``rolling``, "die d"; the dice are chosen before any is rolled). The rules
  are the same; only the engine's order of nodes changes.

Hidden information within a simultaneous phase: the legal actions of the seat to act depend on the
true decks (a draw or a feat needs a card), so a seat may notice that an earlier seat emptied a
deck in the same phase; everything else the earlier seats did is hidden until the phase ends.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

from aiplay.game import CHANCE, TERMINAL, ReferenceState

from . import actions as A
from .cards import (
    DICE, E_AUDIT, E_BASICS, E_CASINO, E_CHEAT, E_DRAW, E_DUST, E_END, E_HARSH, E_HOLD, E_LEARN, E_LEFT,
    E_MISSING, E_NODELIV, E_NOTSOFAST, E_RIGHT, E_RISKY, E_ROTATE, E_SMELL, E_SOLAR, E_STRIKE, E_TRASH, EVENTS,
    F_DIVERSITY, F_DOUBLE, F_DROP, F_FIDDLIN, F_LEGEND, F_LITTLE, F_LONER, F_MOREJUNK, F_NOSEY, F_OOH, F_PACKRAT,
    F_SECRET, F_SINGLE, F_SITTIN, F_SNAKE, F_STORIN, F_STRENGTH, F_SYNC, F_TEAMWORK, F_TIME, F_UNIQUE, F_WHONEEDS,
    FEAT_COUNTS, FEAT_NAMES, FEATS, HAND_SIZE, L_RECYCLER, L_REPLICATOR, L_STOREHOUSE, L_TOWNHALL,
    LOCATIONS, MAX_FACE, MAX_GADGETS, MIN_FACE, NUM_FEAT_TYPES, NUM_LOCATIONS, NUM_TINKER_TYPES, RANDOM_EVENTS,
    TINKER, TINKER_COUNTS, TINKER_NAMES, ACTION,
)
from . import value_model as VM
from .heuristic import static_values
from .knowledge import determinize_state, violations
from .player import Player, Snapshot, clone_snapshot
from .render import gadget_text, render_text
from .view import build as build_view

# Phases. The simultaneous ones (SIM_PHASES) have an actor; the others are chance stages.
SETUP_DEAL, SETUP_PLACE, EVENT, EVENT_CHOICE, PREP_SKIP, PREP_DRAW, PREP_CHEAT, ACTION_PH, DELIVERY_PH, ASSIST, \
    ROTATION, OVER = ("setup_deal", "setup_place", "event", "event_choice", "prep_skip", "prep_draw", "prep_cheat",
                      "action", "delivery", "assistants", "rotation", "over")
PHASES = (SETUP_DEAL, SETUP_PLACE, EVENT, EVENT_CHOICE, PREP_SKIP, PREP_DRAW, PREP_CHEAT, ACTION_PH, DELIVERY_PH,
          ASSIST, ROTATION, OVER)
SIM_PHASES = (SETUP_PLACE, EVENT_CHOICE, PREP_SKIP, PREP_CHEAT, ACTION_PH, DELIVERY_PH, ASSIST, ROTATION)
# Decision steps of the actor.
STEPS = ("place", "todo", "skip", "cheat", "main", "pay", "target", "tweakpay", "townhall", "reroll", "repl",
         "swap1", "swap2", "sh2a", "sh2b", "recy1", "recy2", "dfeat", "deliver", "move", "keep", "repldraw", "rolling")
# Event choices (Player.todo), in the order the events ask them.
T_HARSH, T_CASINO2, T_CASINO3, T_RISKY, T_SMELL, T_PLACE, T_TL2, T_TR4, T_FREE = range(9)
TODO_NAMES = ("harsh", "casino2", "casino3", "risky", "smell", "place", "tl2", "tr4", "free")
# Chance items (queue entries [kind, player, arg]).
Q_EVENT, Q_CARD, Q_FEAT, Q_DIE, Q_PDIE, Q_GDIE, Q_DUST, Q_NONE = ("event", "card", "feat", "die", "pdie", "gdie", "dust",
                                                                  "none")
QUEUE_KINDS = (Q_EVENT, Q_CARD, Q_FEAT, Q_DIE, Q_PDIE, Q_GDIE, Q_DUST, Q_NONE)
#: Simultaneous phases in which a decision can start a chance event (a draw, a roll). In them every
#: decision is followed by exactly one chance node, a draw or roll or else "nothing" (Q_NONE), so
#: that whether a chance node follows does not tell the others which choice was made (see
#: ``_pad``).
PADDED_PHASES = (EVENT_CHOICE, ACTION_PH)
#: Turn flags (all small ints, reset at each turn's start).
FLAG_NAMES = ("basics", "nodeliv", "audit", "solar", "strike", "hold", "learn", "cheat", "no_tweak", "junk_bonus",
              "end_mod", "end_gadget")
#: Player fields packed as hex in information strings (counts 0..255).
PACKED = frozenset(("hand", "junk", "kept", "known_by_me", "pj", "phj", "disc_add", "down"))
CTX_KEYS = ("card", "src", "owed", "level", "sel", "die", "up", "gtype", "own", "nmods", "fmods", "tmods", "empty")


def drop_to_five(score: int) -> int:
    """Not So Fast!: the next lower multiple of 5 (a multiple of 5 drops by 5), never below 0."""
    return max(0, (score - 1) // 5 * 5) if score > 0 else 0


def rise_to_five(score: int) -> int:
    """Just A Drop More: the next multiple of 5 above ``score`` (engine ruling: strictly above)."""
    return (score // 5 + 1) * 5


def can_pay(values: List[int], owed: int) -> bool:
    """Whether some subset of ``values`` (dice faces >= 1) sums exactly to ``owed`` (0: the empty set)."""
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return owed in sums


def event_at(position: int, block: int) -> int:
    """The fixed event at a deck position, or -1 for a random one (spec "Set-up" 3)."""
    if position == block:
        return E_RIGHT
    if position == 2 * block + 1:
        return E_LEFT
    if position == 3 * block + 2:
        return E_END
    return -1


class Area1851State(ReferenceState):
    """An Area 1851 position (see the module docstring)."""

    __slots__ = ("game", "turn", "phase", "actor", "actor_done", "step", "ctx", "queue", "events", "turn_events",
                 "flags", "direction", "deck", "discard", "feat_deck", "players", "snap")

    def __init__(self, game: Any):
        n = game.num_players
        self.game = game
        self.turn = 0
        self.phase = SETUP_DEAL
        self.actor = -1
        self.actor_done = False
        self.step = ""
        self.ctx: Dict[str, int] = {}
        # Rulebook "Set-up": deal 5 Tinker cards to each player, then 1 feat each.
        self.queue: List[List[int]] = [[Q_CARD, p, 0] for _ in range(HAND_SIZE) for p in range(n)]
        self.queue += [[Q_FEAT, p, 0] for p in range(n)]
        self.events: List[int] = []
        self.turn_events: List[int] = []
        self.flags: Dict[str, int] = {k: 0 for k in FLAG_NAMES}
        self.direction = 1  # +1: pass to the left (seat + 1); -1: to the right
        self.deck: List[int] = list(TINKER_COUNTS)
        self.discard: List[int] = [0] * NUM_TINKER_TYPES
        self.feat_deck: List[int] = list(FEAT_COUNTS)
        self.players: List[Player] = [Player(n) for _ in range(n)]
        self.snap: Optional[Snapshot] = None

    def clone(self) -> "Area1851State":
        o = Area1851State.__new__(Area1851State)
        o.game = self.game
        o.turn = self.turn
        o.phase = self.phase
        o.actor = self.actor
        o.actor_done = self.actor_done
        o.step = self.step
        o.ctx = dict(self.ctx)
        o.queue = [q[:] for q in self.queue]
        o.events = self.events[:]
        o.turn_events = self.turn_events[:]
        o.flags = dict(self.flags)
        o.direction = self.direction
        o.deck = self.deck[:]
        o.discard = self.discard[:]
        o.feat_deck = self.feat_deck[:]
        o.players = [p.clone() for p in self.players]
        o.snap = clone_snapshot(self.snap)
        return o

    # -- the contract -----------------------------------------------------------------------------
    def _current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.actor

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self.phase == OVER or not self.queue:
            return []
        kind, p, _ = self.queue[0]
        if kind == Q_EVENT:
            fixed = event_at(len(self.events), self.game.block)
            if fixed >= 0:
                return [(fixed, 1.0)]
            left = [e for e in RANDOM_EVENTS if e not in self.events]
            return [(e, 1.0 / len(left)) for e in left]
        if kind in (Q_DIE, Q_PDIE, Q_GDIE):
            return [(f, 0.25) for f in range(4)]
        if kind == Q_NONE:
            return [(0, 1.0)]
        pool = self.deck if kind == Q_CARD else self.feat_deck if kind == Q_FEAT else self.players[p].junk
        total = sum(pool)
        return [(t, c / total) for t, c in enumerate(pool) if c]

    def returns(self) -> List[float]:
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        keys = [self._rank_key(p) for p in range(n)]
        best = max(keys)
        winners = [p for p in range(n) if keys[p] == best]
        if len(winners) == n:
            return [0.0] * n
        return [1.0 / len(winners) if p in winners else -1.0 / (n - len(winners)) for p in range(n)]

    def _rank_key(self, p: int) -> Tuple[int, int, int]:
        # Rulebook "Game end": most reputation; ties: lowest junkyard rating, then most achieved feats.
        pl = self.players[p]
        return (pl.score, -pl.junk_rating(), len(pl.up))

    def scores(self) -> List[float]:
        return [float(p.score) for p in self.players]

    def heuristic_values(self) -> List[float]:
        # The learned evaluation where it is in use (value_model.IN_USE_PLAYERS: two and three players, a
        # model each, fitted on the search's games and winning at equal time, issue 41), else the old
        # static evaluation; the kernel's evaluate follows the same switch.
        if self.phase == OVER:
            return self.returns()
        return VM.learned_values(self) if VM.in_use(self.game.num_players) else static_values(self)

    # -- chance ------------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.queue:
            self._resolve(action)
        else:
            padded = self.phase in PADDED_PHASES
            actor = self.actor
            self._decide(action)
            if padded:
                self._pad(actor)
        self._settle()

    def _pad(self, p: int) -> None:
        """After a decision of an event-choice or action phase: exactly one chance node (module docstring).

        The decision queued at most one draw or roll; one that cannot happen (an empty deck outside
        the preparation) is dropped, and "nothing" takes the place of a missing one.
        """
        while self.queue and not self._chance_possible(self.queue[0]):
            self.queue.pop(0)
        assert len(self.queue) <= 1, self.queue
        if not self.queue:
            self.queue.append([Q_NONE, p, 0])

    def _resolve(self, outcome: int) -> None:
        kind, p, arg = self.queue.pop(0)
        if kind == Q_EVENT:
            self._apply_event(outcome)
        elif kind == Q_CARD:
            pl = self.players[p]
            self.deck[outcome] -= 1
            pl.hand[outcome] += 1
            pl.drawn += 1
        elif kind == Q_FEAT:
            pl = self.players[p]
            self.feat_deck[outcome] -= 1
            pl.down[outcome] += 1
            pl.fdrawn += 1
            self._check_feats(p)
        elif kind == Q_DIE:
            pl = self.players[p]
            pl.dice[arg] = outcome + 1
            pl.used[arg] = 0
            if self.phase == ACTION_PH:
                self._check_feats(p)
        elif kind == Q_PDIE:
            self._personal_die(p, arg, outcome + 1)
        elif kind == Q_GDIE:
            self._global_die(arg, outcome + 1)
        elif kind == Q_DUST:
            # Dust Storm: a random junkyard card goes to the discard pile (its type is then seen).
            self._junk_to_discard(p, outcome)
        # Q_NONE: nothing happens (the chance node after a choice that neither draws nor rolls).

    def _chance_possible(self, item: List[Any]) -> bool:
        kind, p, _ = item
        if kind == Q_CARD:
            if not any(self.deck) and self.phase in (SETUP_DEAL, PREP_DRAW) and any(self.discard):
                # Engine ruling: an empty deck is replaced by the shuffled discard pile in set-up/preparation.
                self.deck = self.discard
                self.discard = [0] * NUM_TINKER_TYPES
            return any(self.deck)
        if kind == Q_FEAT:
            return any(self.feat_deck)
        if kind == Q_DUST:
            return any(self.players[p].junk)
        return True

    # -- the flow ----------------------------------------------------------------------------------
    def _settle(self) -> None:
        """Advance through automatic steps until a decision or a chance node (or the end)."""
        while True:
            while self.queue and not self._chance_possible(self.queue[0]):
                self.queue.pop(0)
            if self.queue or self.phase == OVER:
                return
            if self.phase in SIM_PHASES:
                if self.actor >= 0 and not self.actor_done:
                    if self.phase == EVENT_CHOICE:
                        self._skip_todo()
                        if not self.actor_done:
                            return
                    else:
                        return
                nxt = self._next_participant(self.actor + 1)
                if nxt >= 0:
                    self.actor = nxt
                    self.actor_done = False
                    self._begin_actor()
                    continue
                self._end_sim()
                continue
            if self.phase == SETUP_DEAL:
                self._start_sim(SETUP_PLACE)
            elif self.phase == EVENT:
                self._start_sim(EVENT_CHOICE)
            elif self.phase == PREP_DRAW:
                if self.flags["cheat"]:
                    self._start_sim(PREP_CHEAT)
                else:
                    self._start_sim(ACTION_PH)

    def _start_sim(self, phase: str) -> None:
        self.phase = phase
        for pl in self.players:
            pl.disc_add = [0] * NUM_TINKER_TYPES
            pl.drawn = 0
            pl.fdrawn = 0
        self.snap = Snapshot([p.clone() for p in self.players], self.discard[:], sum(self.deck), sum(self.feat_deck))
        self.actor = -1
        self.actor_done = True
        self.step = ""
        self.ctx = {}

    def _participates(self, p: int) -> bool:
        pl = self.players[p]
        ph = self.phase
        if ph == EVENT_CHOICE:
            return bool(pl.todo)
        if ph == DELIVERY_PH:
            return bool(pl.gadgets)
        if ph == ASSIST:
            return sum(pl.wait) > 0
        if ph == ROTATION:
            return pl.hand_size() > 2
        return True

    def _next_participant(self, start: int) -> int:
        for p in range(start, self.game.num_players):
            if self._participates(p):
                return p
        return -1

    def _begin_actor(self) -> None:
        p, pl = self.actor, self.players[self.actor]
        self.ctx = {}
        ph = self.phase
        if ph == SETUP_PLACE:
            self.step = "place"
        elif ph == EVENT_CHOICE:
            self.step = "todo"
        elif ph == PREP_SKIP:
            self.step = "skip"
        elif ph == PREP_CHEAT:
            self.step = "cheat"
        elif ph == ACTION_PH:
            # Rulebook "3. Action": 2 AP, changed by some effects.
            pl.ap = pl.ap_base
            pl.scraps = 0
            pl.free_tweak = 0
            self.step = "main"
            self._check_feats(p)
        elif ph == DELIVERY_PH:
            self.step = "deliver"
        elif ph == ASSIST:
            self.step = "move"
        elif ph == ROTATION:
            pl.kept = [0] * NUM_TINKER_TYPES
            self.step = "keep"

    def _finish_actor(self) -> None:
        self.actor_done = True
        self.step = ""
        self.ctx = {}

    def _end_sim(self) -> None:
        ph = self.phase
        self.snap = None
        self.actor = -1
        self.actor_done = False
        self.step = ""
        self.ctx = {}
        for pl in self.players:
            pl.disc_add = [0] * NUM_TINKER_TYPES
            pl.drawn = 0
            pl.fdrawn = 0
        if ph == SETUP_PLACE:
            self._begin_turn()
        elif ph == EVENT_CHOICE:
            self._begin_prep()
        elif ph == PREP_SKIP:
            self._prep_draws()
        elif ph == PREP_CHEAT:
            self._start_sim(ACTION_PH)
        elif ph == ACTION_PH:
            for pl in self.players:
                pl.free_tweak = 0
            if self.flags["nodeliv"]:
                # Event "No Deliveries Today": skip the delivery phase (full gadgets wait).
                self._end_delivery()
            else:
                self._start_sim(DELIVERY_PH)
        elif ph == DELIVERY_PH:
            self._end_delivery()
        elif ph == ASSIST:
            if E_END in self.turn_events:
                # Rulebook "Game end": after the Assistant phase of the turn that revealed The End.
                self._final_scoring()
            elif self.flags["hold"]:
                self._start_sim(ROTATION)
            else:
                self._pass_hands(keep=False)
                self._begin_turn()
        elif ph == ROTATION:
            self._pass_hands(keep=True)
            self._begin_turn()

    def _begin_turn(self) -> None:
        self.turn += 1
        self.phase = EVENT
        self.turn_events = []
        self.flags = {k: 0 for k in FLAG_NAMES}
        for pl in self.players:
            pl.ap_base = 2
            pl.ap = 0
            pl.loc_used = [0] * NUM_LOCATIONS
            pl.free_tweak = 0
            pl.bonus_draws = 0
            pl.no_draw = 0
            pl.skip = 0
            pl.tweaks = [0] * DICE
            pl.scraps = 0
            pl.delivered = 0
            pl.flare = -1
            pl.ach_mask = 0
            pl.todo = []
            pl.kept = [0] * NUM_TINKER_TYPES
        # Rulebook "1. Event phase": reveal the top event.
        self.queue.append([Q_EVENT, -1, 0])

    def _begin_prep(self) -> None:
        # Feat "Just Sittin' Round": its holder may skip the preparation phase. Every seat is asked
        # while the card is not revealed, so that being asked does not tell who holds it.
        if not any(F_SITTIN in pl.up for pl in self.players):
            self._start_sim(PREP_SKIP)
        else:
            self._prep_draws()

    def _prep_draws(self) -> None:
        # Rulebook "2. Preparation": draw up to 5, then roll the 3 dice.
        self.phase = PREP_DRAW
        for p, pl in enumerate(self.players):
            if pl.skip:
                pl.used = [0] * DICE
                continue
            if not pl.no_draw:
                self.queue += [[Q_CARD, p, 0] for _ in range(max(0, HAND_SIZE - pl.hand_size()))]
        for p, pl in enumerate(self.players):
            if not pl.skip:
                self.queue += [[Q_DIE, p, d] for d in range(DICE)]

    def _end_delivery(self) -> None:
        for p, pl in enumerate(self.players):
            if self.flags["nodeliv"]:
                break  # full gadgets wait (No Deliveries Today)
            g = 0
            while g < len(pl.gadgets):
                if self._full(pl.gadgets[g]):
                    self._deliver(p, g, to_junk=False)  # engine safeguard (module docstring)
                else:
                    g += 1
        if self.flags["learn"]:
            # Event "Learn by Watching": after all deliveries.
            total = sum(pl.delivered for pl in self.players)
            for pl in self.players:
                if pl.delivered == 0:
                    pl.score += 3 * total
        # Rulebook "5. Assistants": activated assistants return to their location's waiting space.
        for pl in self.players:
            for loc in range(NUM_LOCATIONS):
                pl.wait[loc] += pl.active[loc]
                pl.active[loc] = 0
        self._start_sim(ASSIST)

    def _pass_hands(self, keep: bool) -> None:
        """Rulebook "6. Rotation": every hand goes to the neighbour in the current direction."""
        n = self.game.num_players
        passed = []
        for pl in self.players:
            cards = [h - (k if keep else 0) for h, k in zip(pl.hand, pl.kept)]
            passed.append(cards)
        for p in range(n):
            r = (p + self.direction) % n
            rec = self.players[r]
            base = rec.kept if keep else [0] * NUM_TINKER_TYPES
            rec.hand = [b + c for b, c in zip(base, passed[p])]
        old = [[k[:] for k in pl.known] for pl in self.players]
        for p in range(n):
            r = (p + self.direction) % n
            rec = self.players[r]
            # Knowledge (spec "Rulings": a player knows the cards they passed). Older hand records
            # about the receiver are dropped: its old hand left (knowledge.py, relaxations) --
            # unless that hand came to the passer itself (two players): then the passer saw it,
            # and its older passed cards not in it are still in the receiver's junkyard.
            rec.known = [[0] * NUM_TINKER_TYPES for _ in range(n)]
            rec.phj = [0] * NUM_TINKER_TYPES
            if r != p:
                rec.known[p] = passed[p][:]
                if (r + self.direction) % n == p:
                    rec.known[p] = [a + max(0, b - c) for a, b, c in zip(passed[p], old[r][p], passed[r])]
            rec.kept = [0] * NUM_TINKER_TYPES

    # -- events --------------------------------------------------------------------------------------
    def _apply_event(self, e: int) -> None:
        # spec "Events (each once in the deck)": "now" effects here, turn-long ones as flags, player
        # choices as event choices (todo) made in seat order after all reveals.
        self.events.append(e)
        self.turn_events.append(e)
        players = self.players
        f = self.flags
        if e == E_HARSH:
            for pl in players:
                if pl.gadgets:
                    pl.todo.append(T_HARSH)
        elif e == E_CASINO:
            self.queue += [[Q_PDIE, p, E_CASINO] for p in range(len(players))]
        elif e == E_DRAW:
            for pl in players:
                pl.bonus_draws += 1
        elif e == E_DUST:
            self.queue += [[Q_DUST, p, 0] for p, pl in enumerate(players) if any(pl.junk)]
        elif e == E_HOLD:
            f["hold"] = 1
        elif e == E_BASICS:
            f["basics"] = 1
        elif e == E_LEARN:
            f["learn"] = 1
        elif e == E_MISSING:
            # Event "Missing Time": reveal the next event as well and apply both.
            self.queue.append([Q_EVENT, -1, 0])
        elif e == E_NODELIV:
            f["nodeliv"] = 1
        elif e == E_CHEAT:
            f["cheat"] = 1
        elif e == E_NOTSOFAST:
            top = max(pl.score for pl in players)
            for pl in players:
                pl.score = drop_to_five(pl.score) if pl.score == top else pl.score + 1
        elif e == E_RISKY:
            for pl in players:
                pl.todo.append(T_RISKY)
        elif e == E_ROTATE:
            self._pass_hands(keep=False)
        elif e == E_AUDIT:
            f["audit"] = 1
        elif e == E_SMELL:
            for pl in players:
                pl.todo.append(T_SMELL)
        elif e == E_SOLAR:
            f["solar"] = 1
        elif e == E_STRIKE:
            f["strike"] = 1
        elif e == E_TRASH:
            low = min(pl.score for pl in players)
            for pl in players:
                if pl.score == low:
                    pl.score += 2 * pl.junk_size()
        elif e in (E_END, E_LEFT, E_RIGHT):
            if e == E_LEFT:
                self.direction = 1
            elif e == E_RIGHT:
                self.direction = -1
            if e != E_END:
                for pl in players:
                    if pl.reserve > 0:
                        pl.todo.append(T_PLACE)
            # One die is rolled for everyone.
            self.queue.append([Q_GDIE, -1, e])

    def _global_die(self, e: int, face: int) -> None:
        players = self.players
        if e == E_END:
            if face == 3:
                self.flags["end_mod"] = 1
            elif face == 4:
                self.flags["end_gadget"] = 1
        elif e == E_LEFT:
            if face == 2:
                for pl in players:
                    pl.todo.append(T_TL2)
            elif face == 3:
                self.flags["no_tweak"] = 1
            elif face == 4:
                self.flags["junk_bonus"] = 1
        else:
            if face == 2:
                for pl in players:
                    pl.score += pl.junk_size()
            elif face == 3:
                for pl in players:
                    pl.score = drop_to_five(pl.score)
            elif face == 4:
                for pl in players:
                    pl.todo.append(T_TR4)

    def _personal_die(self, p: int, e: int, face: int) -> None:
        pl = self.players[p]
        if e == E_CASINO:
            if face == 1:
                pl.bonus_draws += 2
            elif face == 2:
                pl.todo.append(T_CASINO2)
            elif face == 3:
                pl.todo.append(T_CASINO3)
            else:
                pl.ap_base = 3
        else:  # Risky Deal
            if face == 1:
                pl.ap_base = 1
            elif face == 2:
                pl.no_draw = 1
            elif face == 4:
                pl.todo.insert(0, T_FREE)

    # -- small helpers -----------------------------------------------------------------------------
    @staticmethod
    def _full(gadget: List[int]) -> bool:
        return all(m >= 0 for m in gadget[1:])

    def _empty_socket(self, gadget: List[int], socket: int) -> int:
        sockets = TINKER[gadget[0]].sockets
        for i, s in enumerate(sockets):
            if s == socket and gadget[1 + i] < 0:
                return i
        return -1

    def _targets(self, p: int, t: int) -> List[int]:
        socket = TINKER[t].sockets[0]
        return [g for g, gad in enumerate(self.players[p].gadgets) if self._empty_socket(gad, socket) >= 0]

    def _can_place(self, p: int, t: int) -> bool:
        """A card of type ``t`` could be put into play (room for a gadget, a socket for a mod)."""
        if TINKER[t].is_gadget:
            return len(self.players[p].gadgets) < MAX_GADGETS
        return bool(self._targets(p, t))

    def _usable_dice(self, p: int) -> List[int]:
        pl = self.players[p]
        out = [d for d in range(DICE) if not pl.used[d]]
        if self.flags["solar"] and pl.flare >= 0:
            out = [d for d in out if d == pl.flare]
        return out

    def _payable(self, p: int, cost: int) -> bool:
        pl = self.players[p]
        dice = [d for d in self._usable_dice(p) if pl.dice[d] >= 1]
        if self.flags["solar"]:
            return any(pl.dice[d] == cost for d in dice)
        return can_pay([pl.dice[d] for d in dice], cost)

    def _payable_sum(self, p: int, owed: int) -> bool:
        """The unpaid rest ``owed`` of a cost can still be paid exactly (used by the loader)."""
        return self._payable(p, owed)

    def _use_die(self, p: int, d: int) -> None:
        pl = self.players[p]
        pl.used[d] = 1
        if self.flags["solar"]:
            pl.flare = d

    def _to_discard(self, p: int, t: int) -> None:
        self.discard[t] += 1
        self.players[p].disc_add[t] += 1

    def _seen_leaving(self, p: int, t: int, from_junk: bool) -> None:
        """A card of type ``t`` visibly left p's hand or junkyard: the records shrink (knowledge.py)."""
        pl = self.players[p]
        for rec in pl.known:
            if rec[t]:
                rec[t] -= 1
        if pl.phj[t]:
            pl.phj[t] -= 1
        if from_junk and pl.pj[t]:
            pl.pj[t] -= 1
        elif not from_junk and pl.pj[t] > pl.junk[t]:
            pl.pj[t] = pl.junk[t]

    def _junk_to_discard(self, p: int, t: int) -> None:
        pl = self.players[p]
        pl.junk[t] -= 1
        self._seen_leaving(p, t, True)
        self._to_discard(p, t)
        if self.flags["junk_bonus"]:
            # To the Left! 4: 2 per junkyard card moved to the discard pile this turn.
            pl.score += 2

    def _hand_to_junk(self, p: int, t: int) -> None:
        pl = self.players[p]
        pl.hand[t] -= 1
        pl.junk[t] += 1
        self._check_feats(p)

    def _public_to_junk(self, p: int, t: int) -> None:
        """A face-up card goes to p's junkyard: everyone saw it enter."""
        pl = self.players[p]
        pl.junk[t] += 1
        pl.pj[t] += 1

    def _reveal(self, p: int, f: int, points: int) -> None:
        pl = self.players[p]
        pl.down[f] -= 1
        pl.up.append(f)
        pl.score += points

    def _check_feats(self, p: int) -> None:
        """Action feats are revealed when achieved (spec "Feats"), one copy per type and turn."""
        pl = self.players[p]
        if self.phase in (OVER, SETUP_DEAL):
            return

        def hit(f: int) -> None:
            if pl.down[f] and not pl.ach_mask >> f & 1:
                pl.ach_mask |= 1 << f
                self._reveal(p, f, FEATS[f].value)

        if pl.junk_size() >= 6:
            hit(F_STORIN)
        if self.phase == ACTION_PH and self.actor == p:
            free = [pl.dice[d] for d in range(DICE) if not pl.used[d]]
            if len(free) >= 2 and len(set(free)) == 1:
                hit(F_SYNC)
            if pl.scraps >= 2:
                hit(F_MOREJUNK)
        if max(pl.tweaks) >= 3:
            hit(F_FIDDLIN)

    def _deliver(self, p: int, g: int, to_junk: bool) -> None:
        """Score gadget ``g`` of p (Rulebook "4. Delivery"); its cards go to the discard pile or junkyard."""
        pl = self.players[p]
        gadget = pl.gadgets.pop(g)
        gt = TINKER[gadget[0]]
        mods = [m for m in gadget[1:] if m >= 0]
        full = len(mods) == len(gadget) - 1
        own = gt.rating + self.flags["end_gadget"]
        fmods = sum(1 for m in mods if TINKER[m].faction == gt.faction)
        if full and fmods == len(mods):
            own *= 2  # faction double: the gadget's rating, not the mods'
        points = own + sum(TINKER[m].rating + self.flags["end_mod"] for m in mods)
        pl.score += points
        pl.delivered += 1
        for t in [gadget[0]] + mods:
            if to_junk:
                self._public_to_junk(p, t)
            else:
                self._to_discard(p, t)
        if to_junk:
            self._check_feats(p)
        self.ctx = {"gtype": gadget[0], "own": own, "nmods": len(mods), "fmods": fmods,
                    "tmods": sum(1 for m in mods if TINKER[m].sockets[0] == 0), "empty": len(gadget) - 1 - len(mods)}

    def _delivery_feats(self, p: int) -> List[Tuple[int, int]]:
        """Delivery feats of p that the gadget just delivered (``ctx``) achieves: (feat type, points)."""
        pl, c = self.players[p], self.ctx
        out = []
        for f in (F_DIVERSITY, F_TIME, F_DOUBLE, F_SNAKE, F_STRENGTH):
            if not pl.down[f]:
                continue
            if f == F_DIVERSITY and c["nmods"] and c["fmods"] == c["nmods"]:
                out.append((f, 2 * c["nmods"]))
            elif f == F_TIME and c["tmods"]:
                out.append((f, 5))
            elif f == F_DOUBLE:
                out.append((f, c["own"]))  # Make It A Double: the gadget's own rating again (x4 with the faction double)
            elif f == F_SNAKE and c["empty"]:
                out.append((f, 4 * c["empty"]))
            elif f == F_STRENGTH and not c["empty"] and c["fmods"] == 0:
                out.append((f, 5))
        return out

    # -- legal decisions ------------------------------------------------------------------------
    def _legal_actions(self) -> List[int]:
        p = self.actor
        pl = self.players[p]
        step = self.step
        f = self.flags
        out: List[int] = []
        if step == "place":
            return [A.LOCATION + loc for loc in range(NUM_LOCATIONS)]
        if step == "todo":
            return self._todo_actions(p)
        if step == "skip":
            return [A.DONE, A.YES] if pl.down[F_SITTIN] else [A.DONE]
        if step == "cheat":
            return [A.DONE] + [A.set_die(d, v) for d in range(DICE) for v in range(1, 5) if pl.dice[d] != v]
        if step == "main":
            out.append(A.DONE)
            if pl.ap >= 1 and any(self.feat_deck):
                out.append(A.TAKE_FEAT)
            if pl.bonus_draws and any(self.deck):
                out.append(A.DRAW_CARD)
            for t in range(NUM_TINKER_TYPES):
                if pl.hand[t] and pl.ap >= 1 and self._can_place(p, t) and self._payable(p, TINKER[t].cost):
                    out.append(A.HAND + t)
            if pl.ap >= 1 and not f["audit"]:
                out += [A.SCRAP + t for t in range(NUM_TINKER_TYPES) if pl.hand[t]]
            free = self._usable_dice(p)
            for d in range(DICE):
                if pl.used[d]:
                    continue
                for up in (True, False):
                    v = pl.dice[d] + (1 if up else -1)
                    if not MIN_FACE <= v <= MAX_FACE or f["no_tweak"]:
                        continue
                    if any(pl.junk):
                        out.append(A.tweak(d, up))
                    if pl.free_tweak:
                        out.append(A.free_tweak(d, up))
            del free
            if not f["strike"]:
                for loc in range(NUM_LOCATIONS):
                    if pl.loc_used[loc]:
                        continue
                    for k in range(1, pl.wait[loc] + 1):
                        if k == 1 or not f["basics"]:
                            out.append(A.activate(loc, k))
            return sorted(out)
        if step == "pay":
            # spec "A turn" 3, Build: unused dice summing exactly to the cost, chosen one at a time.
            owed = self.ctx["owed"]
            dice = [d for d in self._usable_dice(p) if pl.dice[d] >= 1]
            for d in dice:
                v = pl.dice[d]
                if f["solar"]:
                    if v == owed:
                        out.append(A.DIE + d)
                elif v <= owed and can_pay([pl.dice[e] for e in dice if e != d], owed - v):
                    out.append(A.DIE + d)
            return out
        if step == "target":
            return [A.GADGET + g for g in self._targets(p, self.ctx["card"])]
        if step == "tweakpay":
            return [A.JUNK + t for t in range(NUM_TINKER_TYPES) if pl.junk[t]]
        if step == "townhall":
            return [A.DONE] + [A.DIE + d for d in self._usable_dice(p)]
        if step == "reroll":
            return [A.DONE] + [A.DIE + d for d in range(DICE) if not self.ctx["sel"] >> d & 1]
        if step == "repl":
            return [A.DONE] + [A.HAND + t for t in range(NUM_TINKER_TYPES) if pl.hand[t]]
        if step == "repldraw":
            return [A.DRAW_CARD]  # forced: the Replicator's second card (module docstring)
        if step == "rolling":
            sel = self.ctx["sel"]
            return [A.DIE + next(d for d in range(DICE) if sel >> d & 1)]  # forced: the next die of the re-roll
        if step == "swap1":
            return [A.DONE] + ([A.HAND + t for t in range(NUM_TINKER_TYPES) if pl.hand[t]] if any(pl.junk) else [])
        if step == "swap2":
            return [A.JUNK + t for t in range(NUM_TINKER_TYPES) if pl.junk[t]]
        if step == "sh2a":
            return [A.DONE] + [A.JUNK + t for t in range(NUM_TINKER_TYPES) if pl.junk[t]]
        if step == "sh2b":
            if pl.ap < 1:
                return [A.DONE]
            return [A.DONE] + [A.JUNK + t for t in range(NUM_TINKER_TYPES) if pl.junk[t] and self._can_place(p, t)]
        if step == "recy1":
            return [A.DONE] + [A.mod(g, s) for g, gad in enumerate(pl.gadgets) for s in range(len(gad) - 1)
                               if gad[1 + s] >= 0]
        if step == "recy2":
            return [A.DONE] + [A.GADGET + g for g in range(len(pl.gadgets))]
        if step == "dfeat":
            return [A.DONE] + [A.FEAT + ft for ft, _ in self._delivery_feats(p)]
        if step == "deliver":
            if not any(self._full(g) for g in pl.gadgets):
                out.append(A.DONE)
            return out + [A.GADGET + g for g in range(len(pl.gadgets))]
        if step == "move":
            return [A.DONE] + [A.move(a, b) for a in range(NUM_LOCATIONS) if pl.wait[a]
                               for b in range(NUM_LOCATIONS) if b != a]
        if step == "keep":
            return [A.HAND + t for t in range(NUM_TINKER_TYPES) if pl.hand[t] > pl.kept[t]]
        raise AssertionError(f"no decision at step {step!r}")

    def _todo_actions(self, p: int) -> List[int]:
        pl = self.players[p]
        item = pl.todo[0]
        if item == T_HARSH:
            # Event "A Harsh Requirement": a face-up gadget (with its mods) or one attached mod.
            return ([A.GADGET + g for g in range(len(pl.gadgets))]
                    + [A.mod(g, s) for g, gad in enumerate(pl.gadgets) for s in range(len(gad) - 1) if gad[1 + s] >= 0])
        if item in (T_CASINO2, T_TL2):
            return [A.DONE] + [A.HAND + t for t in range(NUM_TINKER_TYPES) if pl.hand[t]]
        if item == T_CASINO3:
            return [A.DONE] + [A.move(a, b) for a in range(NUM_LOCATIONS) if pl.wait[a]
                               for b in range(NUM_LOCATIONS) if b != a]
        if item in (T_RISKY, T_SMELL, T_TR4):
            return [A.DONE, A.YES]
        if item == T_PLACE:
            return [A.LOCATION + loc for loc in range(NUM_LOCATIONS)]
        if item == T_FREE:
            if "card" in self.ctx:
                return [A.GADGET + g for g in self._targets(p, self.ctx["card"])]
            return [A.DONE] + [A.HAND + t for t in range(NUM_TINKER_TYPES) if pl.hand[t] and self._can_place(p, t)]
        raise AssertionError(f"unknown event choice {item}")

    def _skip_todo(self) -> None:
        """Drop event choices the actor cannot make; the actor is done when none is left."""
        pl = self.players[self.actor]
        while pl.todo:
            item = pl.todo[0]
            possible = {
                T_HARSH: bool(pl.gadgets), T_CASINO2: pl.hand_size() > 0, T_TL2: pl.hand_size() > 0,
                T_CASINO3: sum(pl.wait) > 0, T_SMELL: any(self.feat_deck), T_PLACE: pl.reserve > 0,
                T_TR4: pl.hand_size() > 0, T_RISKY: True,
                T_FREE: "card" in self.ctx or any(pl.hand[t] and self._can_place(self.actor, t)
                                                  for t in range(NUM_TINKER_TYPES)),
            }[item]
            if possible:
                return
            pl.todo.pop(0)
        self._finish_actor()

    # -- applying decisions ----------------------------------------------------------------------
    def _decide(self, action: int) -> None:
        p = self.actor
        pl = self.players[p]
        step = self.step
        block, i, j = A.decode(action)
        if step == "place":
            pl.wait[i] += 1
            pl.reserve -= 1
            self._finish_actor()
        elif step == "todo":
            self._decide_todo(p, block, i, j)
        elif step == "skip":
            if action == A.YES:
                pl.skip = 1
                self._reveal(p, F_SITTIN, FEATS[F_SITTIN].value)
            self._finish_actor()
        elif step == "cheat":
            if block == "SET_DIE":
                pl.dice[i] = j
            self._finish_actor()
        elif step == "main":
            self._decide_main(p, action, block, i, j)
        elif step == "pay":
            self._use_die(p, i)
            self.ctx["owed"] -= pl.dice[i]
            if self.ctx["owed"] == 0:
                self.step = "main"
                self.ctx = {}
            self._check_feats(p)
        elif step == "target":
            t, src = self.ctx["card"], self.ctx["src"]
            self._attach(p, t, i, src)
            if src == 0:  # from hand, in the action phase: pay its dice
                self.ctx = {"owed": TINKER[t].cost}
                self.step = "pay"
            else:
                self.ctx = {}
                self.step = "main"
        elif step == "tweakpay":
            self._junk_to_discard(p, i)
            d, up = self.ctx["die"], self.ctx["up"]
            self._tweak(p, d, up)
            self.ctx = {}
            self.step = "main"
        elif step == "townhall":
            if action == A.DONE:
                self._back_to_main()
            else:
                # Town Hall: 1 (Level 1) or 2 (Level 2) reputation per die placed; the die is used.
                self._use_die(p, i)
                pl.score += self.ctx["level"]
                self._check_feats(p)
        elif step == "reroll":
            if action == A.DONE:
                # Workshop Level 2: the chosen dice are rolled one at a time, one chance node after
                # each move (module docstring): the first now, the others after forced moves.
                self._roll_next(p, self.ctx["sel"])
            else:
                self.ctx["sel"] |= 1 << i
        elif step == "rolling":
            self._roll_next(p, self.ctx["sel"])
        elif step == "repl":
            if action != A.DONE:
                # Replicator Level 1: discard a card from hand, then draw 2.
                pl.hand[i] -= 1
                self._seen_leaving(p, i, False)
                self._to_discard(p, i)
                # The first card now, the second after the forced "draw a card" (module docstring).
                self.queue.append([Q_CARD, p, 0])
                self.step = "repldraw"
                self.ctx = {}
            else:
                self._back_to_main()
        elif step == "repldraw":
            self.queue.append([Q_CARD, p, 0])
            self._back_to_main()
        elif step == "swap1":
            if action == A.DONE:
                self._back_to_main()
            else:
                self.ctx = {"card": i}
                self.step = "swap2"
        elif step == "swap2":
            # Storehouse Level 1: swap a hand card with a junkyard card (unseen by others).
            t = self.ctx["card"]
            pl.hand[t] -= 1
            pl.junk[t] += 1
            pl.junk[i] -= 1
            pl.hand[i] += 1
            pl.phj = [max(a, b) for a, b in zip(pl.phj, pl.pj)]
            pl.pj = [0] * NUM_TINKER_TYPES
            self._back_to_main()
        elif step == "sh2a":
            if action == A.DONE:
                self._back_to_main()
            else:
                self._junk_to_discard(p, i)
                self.step = "sh2b"
        elif step == "sh2b":
            if action == A.DONE:
                self._back_to_main()
            else:
                # Storehouse Level 2: build or modify from the junkyard, no dice, the AP still paid.
                pl.ap -= 1
                if TINKER[i].is_gadget:
                    pl.junk[i] -= 1
                    self._seen_leaving(p, i, True)
                    pl.gadgets.append([i] + [-1] * len(TINKER[i].sockets))
                    self._back_to_main()
                else:
                    self.ctx = {"card": i, "src": 1}
                    self.step = "target"
        elif step == "recy1":
            if action != A.DONE:
                # Recycler Level 1: a modification comes off and is delivered alone.
                t = pl.gadgets[i][1 + j]
                pl.gadgets[i][1 + j] = -1
                pl.score += TINKER[t].rating + self.flags["end_mod"]
                self._to_discard(p, t)
            self._back_to_main()
        elif step == "recy2":
            if action == A.DONE:
                self._back_to_main()
            else:
                # Recycler Level 2: deliver a gadget now; its cards go to the junkyard.
                self._deliver(p, i, to_junk=True)
                self.ctx["ret"] = 1
                self._after_delivery(p)
        elif step == "dfeat":
            if action != A.DONE:
                pts = dict(self._delivery_feats(p))[i]
                self._reveal(p, i, pts)
            ret = self.ctx.get("ret", 0)
            self.ctx = {}
            self.step = "main" if ret else "deliver"
        elif step == "deliver":
            if action == A.DONE:
                self._finish_actor()
            else:
                self._deliver(p, i, to_junk=False)
                self.ctx["ret"] = 0
                self._after_delivery(p)
        elif step == "move":
            if action != A.DONE:
                pl.wait[i] -= 1
                pl.wait[j] += 1
            self._finish_actor()
        elif step == "keep":
            pl.kept[i] += 1
            if sum(pl.kept) >= 2:
                self._finish_actor()

    def _after_delivery(self, p: int) -> None:
        if self._delivery_feats(p):
            self.step = "dfeat"
        else:
            ret = self.ctx.get("ret", 0)
            self.ctx = {}
            self.step = "main" if ret else "deliver"

    def _back_to_main(self) -> None:
        self.ctx = {}
        self.step = "main"

    def _roll_next(self, p: int, sel: int) -> None:
        """Roll the lowest die of the set ``sel`` (none: nothing); step ``rolling`` while dice are left."""
        if sel:
            d = next(d for d in range(DICE) if sel >> d & 1)
            self.queue.append([Q_DIE, p, d])
            sel &= ~(1 << d)
        if sel:
            self.ctx = {"sel": sel}
            self.step = "rolling"
        else:
            self._back_to_main()

    def _attach(self, p: int, t: int, g: int, src: int) -> None:
        """Put modification ``t`` (from hand: src 0, junkyard: 1, free build: 2) on gadget ``g``."""
        pl = self.players[p]
        if src == 1:
            pl.junk[t] -= 1
            self._seen_leaving(p, t, True)
        else:
            pl.hand[t] -= 1
            self._seen_leaving(p, t, False)
            if src == 0:
                pl.ap -= 1
        gad = pl.gadgets[g]
        gad[1 + self._empty_socket(gad, TINKER[t].sockets[0])] = t

    def _tweak(self, p: int, d: int, up: bool) -> None:
        # spec "A turn" 3, Tweak dice: +1 or -1 on an unused die; 0 and 5 are allowed values.
        pl = self.players[p]
        pl.dice[d] += 1 if up else -1
        pl.tweaks[d] += 1
        self._check_feats(p)

    def _decide_main(self, p: int, action: int, block: str, i: int, j: int) -> None:
        pl = self.players[p]
        if action == A.DONE:
            self._finish_actor()
        elif action == A.TAKE_FEAT:
            pl.ap -= 1
            self.queue.append([Q_FEAT, p, 0])
        elif action == A.DRAW_CARD:
            pl.bonus_draws -= 1
            self.queue.append([Q_CARD, p, 0])
        elif block == "HAND":
            if TINKER[i].is_gadget:
                # Build a gadget: 1 AP + dice summing exactly to its cost.
                pl.ap -= 1
                pl.hand[i] -= 1
                self._seen_leaving(p, i, False)
                pl.gadgets.append([i] + [-1] * len(TINKER[i].sockets))
                self.ctx = {"owed": TINKER[i].cost}
                self.step = "pay"
            else:
                self.ctx = {"card": i, "src": 0}
                self.step = "target"
        elif block == "SCRAP":
            pl.ap -= 1
            pl.scraps += 1
            self._hand_to_junk(p, i)
        elif block in ("TWEAK", "FREE_TWEAK"):
            up = j == 0
            if block == "TWEAK":
                self.ctx = {"die": i, "up": int(up)}
                self.step = "tweakpay"
            else:
                pl.free_tweak = 0
                self._tweak(p, i, up)
        elif block == "ACTIVATE":
            self._activate(p, i, j)

    def _activate(self, p: int, loc: int, k: int) -> None:
        # spec "Locations": Level 1 = exactly one assistant, Level 2 = two or more at once; one
        # effect per location per turn; activated assistants move to the effect space.
        pl = self.players[p]
        pl.wait[loc] -= k
        pl.active[loc] += k
        pl.loc_used[loc] = 1
        level = 1 if k == 1 else 2
        if loc == L_RECYCLER:
            if level == 1:
                self.step = "recy1" if any(m >= 0 for g in pl.gadgets for m in g[1:]) else "main"
            else:
                self.step = "recy2" if pl.gadgets else "main"
        elif loc == L_REPLICATOR:
            if level == 1:
                self.step = "repl" if pl.hand_size() else "main"
            else:
                pl.ap += 1
        elif loc == L_STOREHOUSE:
            if level == 1:
                self.step = "swap1" if pl.hand_size() and pl.junk_size() else "main"
            else:
                self.step = "sh2a" if pl.junk_size() else "main"
        elif loc == L_TOWNHALL:
            self.ctx = {"level": level}
            self.step = "townhall"
        else:
            if level == 1:
                pl.free_tweak = 1
            else:
                self.ctx = {"sel": 0}
                self.step = "reroll"

    def _decide_todo(self, p: int, block: str, i: int, j: int) -> None:
        pl = self.players[p]
        item = pl.todo[0]
        done = True
        if item == T_HARSH:
            if block == "GADGET":
                gad = pl.gadgets.pop(i)
                for t in gad[:1] + [m for m in gad[1:] if m >= 0]:
                    self._public_to_junk(p, t)
            else:
                t = pl.gadgets[i][1 + j]
                pl.gadgets[i][1 + j] = -1
                self._public_to_junk(p, t)
            self._check_feats(p)
        elif item in (T_CASINO2, T_TL2):
            if block == "HAND":
                self._hand_to_junk(p, i)
        elif item == T_CASINO3:
            if block == "MOVE":
                pl.wait[i] -= 1
                pl.wait[j] += 1
        elif item == T_RISKY:
            if block == "YES":
                pl.todo.pop(0)
                self.queue.append([Q_PDIE, p, E_RISKY])
                return
        elif item == T_SMELL:
            if block == "YES":
                self.queue.append([Q_FEAT, p, 0])
        elif item == T_PLACE:
            pl.wait[i] += 1
            pl.reserve -= 1
        elif item == T_TR4:
            if block == "YES":
                # To the Right! 4: discard the whole hand (all or nothing).
                for t in range(NUM_TINKER_TYPES):
                    for _ in range(pl.hand[t]):
                        pl.hand[t] -= 1
                        self._seen_leaving(p, t, False)
                        self._to_discard(p, t)
        elif item == T_FREE:
            # Risky Deal 4: build or modify at once, free of AP and dice.
            if block == "HAND":
                if TINKER[i].is_gadget:
                    pl.hand[i] -= 1
                    self._seen_leaving(p, i, False)
                    pl.gadgets.append([i] + [-1] * len(TINKER[i].sockets))
                else:
                    self.ctx = {"card": i, "src": 2}
                    done = False
            elif block == "GADGET":
                self._attach(p, self.ctx["card"], i, 2)
                self.ctx = {}
        if done:
            pl.todo.pop(0)

    # -- final scoring --------------------------------------------------------------------------
    def _final_scoring(self) -> None:
        """Reveal and score Final feats (spec "Feats"), in the order of the module docstring."""
        n = self.game.num_players
        players = self.players
        self.phase = OVER
        self.actor = -1

        def action_values(pl: Player) -> List[int]:
            return [FEATS[f].value for f in pl.up if FEATS[f].timing == ACTION]

        team_holders = [p for p in range(n) if players[p].down[F_TEAMWORK]]
        for p, pl in enumerate(players):
            mine = [a for a in range(NUM_LOCATIONS) if pl.wait[a] + pl.active[a]]
            others = [sum(players[q].wait[a] + players[q].active[a] for q in range(n) if q != p)
                      for a in range(NUM_LOCATIONS)]
            for f in (F_LITTLE, F_UNIQUE, F_LONER, F_OOH, F_PACKRAT, F_SECRET, F_SINGLE, F_TEAMWORK):
                for _ in range(pl.down[f]):
                    pts = -1
                    if f == F_LITTLE and len(mine) >= 3:
                        pts = 5
                    elif f == F_UNIQUE and any(others[a] == 0 for a in mine):
                        pts = 10
                    elif f == F_LONER:
                        pts = 10  # nobody else can reveal the single Loner
                    elif f == F_OOH:
                        pts = max([v for q in range(n) if q != p for v in action_values(players[q])], default=0)
                    elif f == F_PACKRAT:
                        pts = min(20, 2 * pl.junk_size())
                    elif f == F_SECRET:
                        pts = max(action_values(pl), default=0)
                    elif f == F_SINGLE and pl.reserve == 0 and len(mine) == 1:
                        pts = 5
                    elif f == F_TEAMWORK:
                        pts = 10 if any(q != p for q in team_holders) else 0
                    if pts >= 0:
                        self._reveal(p, f, pts)
            for _ in range(pl.down[F_WHONEEDS]):
                pl.down[F_WHONEEDS] -= 1
                pl.up.append(F_WHONEEDS)
            for _ in range(pl.down[F_NOSEY]):
                pl.down[F_NOSEY] -= 1
                pl.up.append(F_NOSEY)
        for pl in players:
            if pl.down[F_LEGEND] and len(pl.up) >= 3:
                pl.down[F_LEGEND] -= 1
                pl.up.append(F_LEGEND)
            if pl.down[F_DROP]:
                pl.down[F_DROP] -= 1
                pl.up.append(F_DROP)
        counts = [len(pl.up) for pl in players]
        for p, pl in enumerate(players):
            for f in pl.up:
                if f == F_LEGEND:
                    pl.score += 5 * (counts[p] // 4)  # this card and later-revealed ones count
                elif f == F_WHONEEDS:
                    pl.score += max(0, 25 - 5 * (counts[p] - 1))
                elif f == F_NOSEY:
                    pl.score += sum(counts[q] for q in {(p - 1) % n, (p + 1) % n} if q != p)
        for pl in players:
            if F_DROP in pl.up:
                pl.score = rise_to_five(pl.score)  # revealed last

    # -- text ---------------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.queue and self.phase != OVER:
            kind, p, arg = self.queue[0]
            if kind == Q_EVENT and action < len(EVENTS):
                return f"reveal {EVENTS[action]}"
            if kind in (Q_DIE, Q_PDIE, Q_GDIE) and action < 4:
                who = "everyone's die" if kind == Q_GDIE else f"p{p} die {arg}" if kind == Q_DIE else f"p{p} event die"
                return f"{who} shows {action + 1}"
            if kind in (Q_CARD, Q_DUST) and action < NUM_TINKER_TYPES:
                verb = "draws" if kind == Q_CARD else "dust storm takes"
                return f"p{p} {verb} {TINKER_NAMES[action]}"
            if kind == Q_FEAT and action < NUM_FEAT_TYPES:
                return f"p{p} draws feat {FEAT_NAMES[action]}"
            if kind == Q_NONE and action == 0:
                return f"p{p} draws and rolls nothing"
            return f"outcome {action}"
        return action_name(action)

    def information_state_string(self, player: int) -> str:
        # Exactly the view's content (built in a fixed key order, ctx sorted), with the long count
        # vectors packed as hex: equal strings exactly when the views are equal.
        view = self._internal_view(player)
        players = view.pop("players")
        parts = [repr(view)]
        for b in players:
            parts.append("|".join(f"{k}={bytes(v).hex() if k in PACKED and isinstance(v, list) else v!r}"
                                  for k, v in b.items()))
        return "\n".join(parts)

    def __str__(self) -> str:
        return render_text(self)

    # -- hidden information -------------------------------------------------------------------
    def visible_block(self, observer: int, q: int) -> Player:
        """Seat q's block as ``observer`` sees it: the phase-start snapshot for others in a simultaneous phase."""
        if self.snap is not None and q != observer:
            return self.snap.players[q]
        return self.players[q]

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """What ``viewer`` sees of a move (the move log of a seat; :meth:`view` is the position).

        Hidden from the others: the Tinker card or feat a seat draws (its hand
        and face-down feats are its own), and, within a simultaneous phase,
        everything another seat does, its dice and dust-storm losses included
        (spec "Rulings for the engine": the phase is played in seat order with
        the others' choices hidden until it ends). Those moves stay unnamed in
        the log after the phase too: the phase's outcome shows in the view,
        but the order and the exact choices (which die paid, say) never do.
        Events and everyone's dice are public. Within the event-choice and action phases, every
        chance node of another seat has one name, whether it draws, rolls or does nothing: which
        it is would tell the choice before it (module docstring).
        """
        if self.queue and self.phase != OVER:
            kind, p, _ = self.queue[0]
            if kind in (Q_EVENT, Q_GDIE) or p == viewer:
                return None
            if self.phase in PADDED_PHASES and self.snap is not None:
                return "a hidden chance event"
            if kind == Q_CARD:
                return f"p{p} draws a card"
            if kind == Q_FEAT:
                return f"p{p} draws a feat"
            if self.snap is None:
                return None
            return f"p{p} rolls a die" if kind in (Q_DIE, Q_PDIE) else f"dust storm takes a card from p{p}"
        mover = self.current_player()
        if mover == viewer or mover < 0:
            return None
        return "a hidden choice"

    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def _internal_view(self, player: int) -> Dict[str, Any]:
        """Everything ``player`` knows in the engine's arrays, JSON-ready (the view's ``"internal"``
        part, for bots; unstable): :meth:`view` builds its readable fields from this alone."""
        o = player
        snap = self.snap
        me = self.players[o]
        if snap is None:
            discard = self.discard[:]
            deck_size = sum(self.deck)
            feat_size = sum(self.feat_deck)
        else:
            discard = [a + b for a, b in zip(snap.discard, me.disc_add)]
            deck_size = snap.deck_size - me.drawn
            feat_size = snap.feat_size - me.fdrawn
        hidden_turn = snap is not None and self.actor != o
        players = []
        for q in range(self.game.num_players):
            b = self.visible_block(o, q)
            d = b.to_dict()
            del d["known"]
            d["known_by_me"] = b.known[o][:]
            d["tableau"] = [gadget_text(g) for g in b.gadgets]
            if q != o:
                d["hand"] = b.hand_size()
                d["junk"] = b.junk_size()
                d["down"] = sum(b.down)
                d["kept"] = sum(b.kept)
                for k in ("disc_add", "drawn", "fdrawn"):
                    del d[k]
            players.append(d)
        queue = [q[:] for q in self.queue if not (snap is not None and q[1] >= 0 and q[1] != o)]
        return {
            "observer": o, "turn": self.turn, "phase": self.phase, "actor": self.actor,
            "to_move": None if hidden_turn else self.current_player(),
            "step": "" if hidden_turn else self.step, "ctx": {} if hidden_turn else dict(sorted(self.ctx.items())),
            "actor_done": None if hidden_turn else self.actor_done,
            "queue": queue, "events": [EVENTS[e] for e in self.events],
            "turn_events": [EVENTS[e] for e in self.turn_events], "flags": dict(self.flags),
            "direction": "left" if self.direction == 1 else "right", "deck_size": deck_size,
            "feat_deck_size": feat_size, "discard": discard, "players": players,
            "hand_names": {TINKER_NAMES[t]: c for t, c in enumerate(me.hand) if c},
            "feat_names": [FEAT_NAMES[f] for f in range(NUM_FEAT_TYPES) for _ in range(me.down[f])],
        }

    def knowledge_violations(self, observer: int) -> List[str]:
        return violations(self, observer)

    def determinize(self, observer: int, rng: random.Random) -> "Area1851State":
        return determinize_state(self, observer, rng)

    # -- serialization ----------------------------------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "actor": self.actor, "actor_done": self.actor_done,
            "step": self.step, "ctx": dict(self.ctx), "queue": [q[:] for q in self.queue],
            "events": self.events[:], "turn_events": self.turn_events[:], "flags": dict(self.flags),
            "direction": self.direction, "deck": self.deck[:], "discard": self.discard[:],
            "feat_deck": self.feat_deck[:], "players": [p.to_dict() for p in self.players],
            "snap": None if self.snap is None else self.snap.to_dict(),
        }


def action_name(action: int) -> str:
    """The readable name of a decision id (unique per id, so names parse back)."""
    block, i, j = A.decode(action)
    if block in ("DONE", "TAKE_FEAT", "DRAW_CARD", "YES"):
        return {"DONE": "done", "TAKE_FEAT": "take a feat", "DRAW_CARD": "draw a card", "YES": "yes"}[block]
    if block == "HAND":
        return f"hand: {TINKER_NAMES[i]}"
    if block == "SCRAP":
        return f"scrap {TINKER_NAMES[i]}"
    if block == "JUNK":
        return f"junkyard: {TINKER_NAMES[i]}"
    if block == "GADGET":
        return f"gadget {i}"
    if block == "MOD":
        return f"gadget {i} socket {j}"
    if block == "DIE":
        return f"die {i}"
    if block in ("TWEAK", "FREE_TWEAK"):
        how = "tweak" if block == "TWEAK" else "workshop tweak"
        return f"{how} die {i} {'+1' if j == 0 else '-1'}"
    if block == "SET_DIE":
        return f"set die {i} to {j}"
    if block == "ACTIVATE":
        return f"activate {j} at {LOCATIONS[i]}"
    if block == "LOCATION":
        return f"place assistant at {LOCATIONS[i]}"
    if block == "MOVE":
        return f"move assistant {LOCATIONS[i]} -> {LOCATIONS[j]}"
    return f"reveal feat {FEAT_NAMES[i]}"
