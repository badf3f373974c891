"""Area 51 (Stefan Alexander, Mücke Spiele): the reference engine, 2 to 6 players.

Sources (paths relative to the repository root): the rulebook
(``../shared/seeds/000_8e8bfcec0eb24bec.txt``; the French
``../shared/seeds/002_f043b478ed6e364d.txt`` says the same) and the rulings in
``../shared/spec/area51.md``, which take precedence. Section names below ("Collect", "End of the game"...) are the
rulebook's; "spec:" cites a ruling.

How the turn is cut into atomic decisions (action numbers: :mod:`.actions`):

* **kind**: collect, build (create or upgrade a bunker), vehicle, pick up; a
  kind is offered only when it can be completed, so no decision is a dead end;
  ``pass`` only when no kind can be played (spec: "passes");
* **collect**: optionally ``refresh`` first (discard one card type and the row,
  reveal six; once per turn, before taking), then three ``take`` decisions (a
  face-up type, or the deck top); the row is refilled after the third card
  (spec) or as soon as nothing more can be taken;
* **build**: the target (``create`` colour/region/cap or ``upgrade`` a bunker),
  then one ``face_up`` card of the bunker's colour and the ``face_down`` cards
  one by one, each into a hangar of the region of play (rulebook: "split the
  artifacts any way");
* **vehicle**: the vehicle and its route (``route``), its ``number`` k, then the
  face-up card and k face-down cards into hangars of the departure region;
* **pick up**: the hangar (``pick``), then ``store`` decisions (artifact type,
  bunker; a re-route through a vehicle is implied by the bunker's region) until
  nothing left fits a bunker that has not taken one: the loader may stop only
  then (spec), so the end of loading is automatic, not an action.

Chance: every draw is a chance node whose outcomes are card *types*, each with
probability proportional to its copies in the pile drawn from. The deck is
two layers (spec set-up): the start cards left after dealing, of which only
``top_left`` lie on top (the others were shuffled into the main deck), and the
main deck. By exchangeability, a card drawn from the top layer is a uniform
draw from the whole start remainder, and when the top layer is used up the
start remainder joins the main deck; no chance node is needed to choose which
start cards were shuffled in. An empty deck is replaced at once by the discards
(spec), a multiset, so a reshuffle needs no chance node either.

Returns: the winners (highest score, then most cards in hand; spec) share +1
and the others share -1, so returns add up to zero; if everyone ties, all get
0. ``scores()`` are the game scores (two players: the lower of the seat's two
colour scores).

Rulings settled here (beyond the spec's):

* there is no "stop" action: loading may stop only when nothing left fits
  (spec), which is then the only choice, so the engine ends it itself;
* the rulebook's upgrade picture shows one face-down card for a level 2, the
  text and the spec say "face-down artifacts equal to the level you're
  building": the text is followed (two for level 2);
* a vehicle's replaced markers return to the supply before its new number is
  shown, so they can show it again; when two markers are needed the engine
  picks the pair (:func:`markers_for`);
* re-numbering a vehicle in place is choosing its current route again;
* the refresh needs a card in hand to discard and comes before any take; the
  row is refilled as soon as nothing more can be taken;
* ``collect`` is offered while any card can be taken or the row refreshed
  from the deck or discards.

Engine safeguard (not a rule): a game could stall with markers left only
where nobody can build; after ``max_turns`` regular turns the end is triggered
as if two regions were empty.

Hidden information and determinization: :mod:`.knowledge`; JSON validation:
:mod:`.serialize`; text: :mod:`.render`; the action numbering: :mod:`.actions`.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from aiplay.game import CHANCE, TERMINAL, Game, ReferenceState, int_option

from aiplay.errors import InvalidPlayerError

from . import actions as A
from .components import (
    CAPS_PER_OWNER, COLOURS, FACE_UP, HAND_START, HIGHEST_BUNKER_POINTS, MAIN_COUNTS, MARKER_COPIES,
    MAX_VEHICLE_NUMBER, NUM_COLOURS, NUM_REGIONS, NUM_TYPES, NUM_VEHICLES, OWNER_NAMES, OWNER_NAMES_2P,
    REGION_SIDES, ROUTES, START_COUNTS, START_TO_MAIN, TAKE_PER_COLLECT, markers_for, region_name, shown_number, towers_available, type_colour, type_name, type_value, vehicle_name,
)
from .heuristic import policy, static_values
from .knowledge import determinize as _determinize, knowledge_violations as _knowledge_violations
from .phases import (
    LAST, OVER, PICKUP, PLAY, Q_DEAL, Q_DRAW, Q_ROW, S_BUILD, S_COLLECT, S_DEAL, S_FACE_DOWN, S_FACE_UP,
    S_KIND, S_LOAD, S_NUMBER, S_PICK, S_REFILL, S_ROUTE, SETUP,
)
from .render import render as _render
from .serialize import load_state as _load_state, load_state_trusted as _load_state_trusted
from .view import build as build_view


def _named_counts(counts: Sequence[int]) -> Dict[str, int]:
    """A count vector by card type as ``{type name: count}``, types with a count only."""
    return {type_name(t): c for t, c in enumerate(counts) if c}


def _hex(values: Sequence[int]) -> str:
    """Small non-negative counts packed one byte each (counts here never reach 256)."""
    return bytes(values).hex()


class Area51Game(Game):
    """Area 51 for 2 to 6 players (2 players: the two-colour variant)."""

    name = "area51"
    title = "Area 51 (Mücke Spiele), 2-6 players"
    option_spec = {
        "players": int_option(4, 2, 6, "number of players (2 = the two-player variant)"),
        "max_turns": int_option(300, 1, 100_000,
                                "engine safeguard: regular turns after which the end is triggered"),
    }

    def _check_options(self) -> None:
        self.players: int = self._options["players"]
        self.max_turns: int = self._options["max_turns"]
        self.sides = REGION_SIDES[self.players]
        self.spaces_in = [s[0] for s in self.sides]
        self.hangars_in = [s[1] for s in self.sides]
        self.markers_in = [s[2] for s in self.sides]
        self.towers = towers_available(self.players)
        # Cap colours ("owners"): one per seat, two per seat with two players.
        self.num_owners = 4 if self.players == 2 else self.players
        self.owner_names = OWNER_NAMES_2P if self.players == 2 else OWNER_NAMES[:self.players]
        self.owners_of = [[2 * p, 2 * p + 1] for p in range(2)] if self.players == 2 else [
            [p] for p in range(self.players)]
        self.seat_of = [o // 2 if self.players == 2 else o for o in range(self.num_owners)]
        self.start_to_main = START_TO_MAIN[self.players]
        # Start cards on top of the deck after the set-up (spec "Artifact cards").
        self.top_after_setup = sum(START_COUNTS) - HAND_START * self.players - self.start_to_main

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return NUM_TYPES

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def zero_sum(self) -> bool:
        return True

    #: The greedy baseline (see :mod:`.heuristic`): public information only.
    heuristic_policy = staticmethod(policy)
    #: ISMCTS plays out with the kernel's port of that policy, cut after 80
    #: moves and scored by the static evaluation: random Area 51 games last
    #: ~1,000 decisions and say little (benchmarks/RESULTS.md, "Strength").
    #: The cutoff and the exploration constant were tuned by NTBEA at 0.02 s a
    #: move; this setting beat the old one (cutoff 60, uct_c 2.0) in 84 % of 120
    #: games (benchmarks/RESULTS.md, "Issue 41 Build 4").
    bot_presets = {"ismcts": {"rollout": "policy", "rollout_cutoff": 80, "uct_c": 0.3}}
    #: The coach's search here (aiplay.review, by convention): the preset with the exploration of
    #: before the tuning. At uct_c 0.3 a few hundred iterations leave most moves with a visit or
    #: two, so a move the search did not pick is priced by one playout: the coach then called the
    #: top level's moves blunders (19 a game) and level 1's good (benchmarks/RESULTS.md, "The coach's
    #: level reviews measured again, and Area 51's coach").
    review_search = {"uct_c": 2.0}

    def new_initial_state(self) -> "Area51State":
        return Area51State(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> "Area51State":
        # One concept per module: the validation lives in .serialize, which fills a blank state.
        return _load_state(Area51State(self), data)


class Area51State(ReferenceState):
    """An Area 51 position: board, cards (with who knows what), and the decision in progress."""

    __slots__ = ("game", "phase", "step", "cur", "turn", "extra_left", "markers", "spaces", "hangars",
                 "towers", "caps", "vehicles", "supply", "row", "discards", "top_left", "top_pool",
                 "main_pool", "hands", "known", "soft", "linked_from", "deck_bound", "start_seen", "anyc", "scores_",
                 "queue", "ctx", "taken",
                 "refreshed", "pile", "pile_region", "used", "bonus", "_public")

    def __init__(self, game: Area51Game):
        n = game.players
        self.game = game
        self.phase = SETUP
        self.step = S_DEAL
        self.cur = 0
        self.turn = 0  # regular turns completed
        self.extra_left = 0  # regular turns left after the end trigger
        self.markers: List[int] = list(game.markers_in)
        # spaces[r][s]: None or [colour, owner, level]
        self.spaces: List[List[Optional[List[int]]]] = [[None] * game.spaces_in[r] for r in range(NUM_REGIONS)]
        # hangars[r][h]: cards as [type, face_up (0/1), seat that played it]
        self.hangars: List[List[List[List[int]]]] = [[[] for _ in range(game.hangars_in[r])]
                                                     for r in range(NUM_REGIONS)]
        self.towers: List[int] = list(game.towers)
        self.caps: List[int] = [CAPS_PER_OWNER] * game.num_owners
        # vehicles[v]: None or [route index, [[marker kind, shown value], ...]]
        self.vehicles: List[Optional[list]] = [None] * NUM_VEHICLES
        self.supply: List[int] = list(MARKER_COPIES)
        self.row: List[int] = [0] * NUM_TYPES
        self.discards: List[int] = [0] * NUM_TYPES
        self.top_left = game.top_after_setup
        self.top_pool: List[int] = list(START_COUNTS)
        self.main_pool: List[int] = list(MAIN_COUNTS)
        self.hands: List[List[int]] = [[0] * NUM_TYPES for _ in range(n)]
        # Public knowledge of each hand: cards everyone saw entering it and that
        # cannot have left it unseen; ``anyc`` bounds how many of the other
        # (unseen) cards may be main-deck cards (the rest are start cards).
        self.known: List[List[int]] = [[0] * NUM_TYPES for _ in range(n)]
        # Cards once known that may have left unseen, face down: ``soft`` is
        # contained in the unseen hand plus the seat's *linked* face-down cards
        # (those at index >= linked_from[p][r][h] in each hangar); see knowledge.py.
        self.soft: List[List[int]] = [[0] * NUM_TYPES for _ in range(n)]
        self.linked_from: List[List[List[int]]] = [[[0] * game.hangars_in[r] for r in range(NUM_REGIONS)]
                                                   for _ in range(n)]
        # Upper bound of the deck's composition after a reshuffle (all zero: none).
        self.deck_bound: List[int] = [0] * NUM_TYPES
        # Public cards of each type known to be start cards (a lower bound; knowledge.py).
        self.start_seen: List[int] = [0] * NUM_TYPES
        self.anyc: List[int] = [0] * n
        self.scores_: List[int] = [0] * game.num_owners
        self.bonus: List[int] = [0] * game.num_owners  # highest-bunker points (end of game)
        self.queue: List[List[Any]] = [[Q_DEAL, p] for _ in range(HAND_START) for p in range(n)]
        self.ctx: Dict[str, int] = {}
        self.taken = 0
        self.refreshed = False
        self.pile: List[int] = [0] * NUM_TYPES
        self.pile_region = -1
        self.used: List[List[int]] = []
        self._public: Optional[str] = None  # cache of the public information text

    # -- small queries -----------------------------------------------------
    def deck_size(self) -> int:
        """Cards in the deck (both layers)."""
        # The start remainder (top layer plus the start cards shuffled below) and the main deck.
        return sum(self.top_pool) + sum(self.main_pool)

    def hand_size(self, p: int) -> int:
        """Cards in seat ``p``'s hand (public)."""
        return sum(self.hands[p])

    def seat_scores(self) -> List[int]:
        """Each seat's score now (two players: the lower of the seat's two colours)."""
        g = self.game
        total = [s + b for s, b in zip(self.scores_, self.bonus)]
        return [min(total[o] for o in g.owners_of[p]) for p in range(g.players)]

    def _bunkers(self):
        """Yield ``(region, space, [colour, owner, level])`` for every bunker."""
        for r in range(NUM_REGIONS):
            for s, b in enumerate(self.spaces[r]):
                if b is not None:
                    yield r, s, b

    def _draw_pool(self) -> List[int]:
        """The multiset the next draw comes from (spec: two layers)."""
        if self.queue and self.queue[0][0] == Q_DEAL:
            return self.top_pool
        return self.top_pool if self.top_left > 0 else self.main_pool

    def _reshuffle_if_empty(self) -> None:
        """Spec: an empty deck is replaced by the shuffled discards at once."""
        if self.phase == SETUP:
            return
        if self.top_left == 0 and not any(self.main_pool) and any(self.discards):
            self.main_pool = self.discards
            self.discards = [0] * NUM_TYPES
            # Everyone saw the discards: the new deck's composition is public.
            self.deck_bound = list(self.main_pool)
            self._forget_start_marks()

    def _can_draw(self) -> bool:
        return any(self._draw_pool())

    # -- the contract -------------------------------------------------------
    def _current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.cur

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if self.phase == OVER or not self.queue:
            return []
        pool = self._draw_pool()
        total = sum(pool)
        return [(t, c / total) for t, c in enumerate(pool) if c]

    def _legal_actions(self) -> List[int]:
        step, p = self.step, self.cur
        if step == S_KIND:
            kinds = [k for k, ok in enumerate((self._collect_ok(), bool(self._build_targets(p)),
                                               bool(self._route_targets(p)), bool(self._pick_targets())))
                     if ok]
            return kinds or [A.PASS]
        if step == S_BUILD:
            return self._build_targets(p)
        if step == S_ROUTE:
            return self._route_targets(p)
        if step == S_NUMBER:
            return [A.number(k) for k in self._numbers(p, self.ctx["vehicle"])]
        if step == S_PICK:
            return self._pick_targets()
        if step == S_COLLECT:
            return self._collect_actions(p)
        if step in (S_FACE_UP, S_FACE_DOWN):
            hangars = range(self.game.hangars_in[self.ctx["region"]])
            hand = self.hands[p]
            if step == S_FACE_UP:
                c = self.ctx["colour"]
                return [A.face_up(t, h) for t in range(c * 4, c * 4 + 4) if hand[t] for h in hangars]
            return [A.face_down(t, h) for t in range(NUM_TYPES) if hand[t] for h in hangars]
        if step == S_LOAD:
            return self._store_targets()
        raise AssertionError(f"no decision at step {step}")

    # -- what can be done ------------------------------------------------------
    def _collect_ok(self) -> bool:
        return any(self.row) or self.deck_size() > 0 or any(self.discards)

    def _build_targets(self, p: int) -> List[int]:
        """Create/upgrade targets the player can complete (rulebook "Create one New Bunker", "Add one Additional Level")."""
        g, hand = self.game, self.hands[p]
        size = sum(hand)
        colours = [any(hand[c * 4:c * 4 + 4]) for c in range(NUM_COLOURS)]
        out = []
        if size >= 2:
            for c in range(NUM_COLOURS):
                if not colours[c] or not self.towers[c]:
                    continue
                for r in range(NUM_REGIONS):
                    if self.markers[r] and None in self.spaces[r]:
                        for j, o in enumerate(g.owners_of[p]):
                            if self.caps[o]:
                                out.append(A.create(c, r, j))
        for r, s, (c, o, level) in self._bunkers():
            if g.seat_of[o] == p and self.markers[r] and colours[c] and size >= level + 2:
                out.append(A.upgrade(r, s))
        return sorted(out)

    def _numbers(self, p: int, v: int) -> List[int]:
        """Numbers k the player can give vehicle ``v`` (rulebook "Move an Existing Train or Truck")."""
        size = sum(self.hands[p])
        old = self.vehicles[v]
        low = 1
        supply = list(self.supply)
        if old is not None:
            low = shown_number(old[1]) + 1  # "must raise the numbered marker by at least one"
            for kind, _ in old[1]:
                supply[kind] += 1  # the replaced marker returns to the supply (spec)
        return [k for k in range(low, min(MAX_VEHICLE_NUMBER, size - 1) + 1) if markers_for(k, supply)]

    def _route_targets(self, p: int) -> List[int]:
        hand = self.hands[p]
        out = []
        for v in range(NUM_VEHICLES):
            c = v // 2
            if any(hand[c * 4:c * 4 + 4]) and self._numbers(p, v):
                # Any route: a new place, or the same one to re-number it in place.
                out.extend(A.route(v, i) for i in range(len(ROUTES)))
        return out

    def _pick_targets(self) -> List[int]:
        return [A.pick(r, h) for r in range(NUM_REGIONS) for h, cards in enumerate(self.hangars[r]) if cards]

    def _collect_actions(self, p: int) -> List[int]:
        out = []
        if not self.refreshed and self.taken == 0:
            out.extend(A.refresh(t) for t in range(NUM_TYPES) if self.hands[p][t])
        out.extend(A.take_up(t) for t in range(NUM_TYPES) if self.row[t])
        if self.deck_size() > 0:
            out.append(A.TAKE_DECK)
        return out

    def _reachable(self, colour: int, src: int) -> List[int]:
        """Regions an artifact of ``colour`` picked up in ``src`` can go to (rule 5: one re-route at most)."""
        out = [src]
        for v in (2 * colour, 2 * colour + 1):
            veh = self.vehicles[v]
            if veh is not None:
                a, b = ROUTES[veh[0]]
                if a == src and b not in out:
                    out.append(b)
        return out

    def _store_targets(self) -> List[int]:
        """Rules 1-5 of loading: same colour, level >= value, one artifact per bunker per action."""
        out = []
        src = self.pile_region
        used = {(r, s) for r, s in self.used}
        for t in range(NUM_TYPES):
            if not self.pile[t]:
                continue
            c, value = type_colour(t), type_value(t)
            for r in self._reachable(c, src):
                for s, b in enumerate(self.spaces[r]):
                    if b is not None and b[0] == c and b[2] >= value and (r, s) not in used:
                        out.append(A.store(t, r, s))
        return sorted(out)

    # -- playing -----------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._public = None  # every action changes what everyone sees
        if self.queue:
            self._draw(action)
        else:
            self._decide(action)
        self._settle()

    def _draw(self, t: int) -> None:
        dest, p = self.queue.pop(0)
        pool = self._draw_pool()
        pool[t] -= 1
        from_main = False
        if dest == Q_ROW and self.top_left > 0:
            self.start_seen[t] += 1  # revealed from the top layer: a start card, in public view
        if dest != Q_DEAL:
            if self.top_left > 0:
                self.top_left -= 1
                if self.top_left == 0:
                    # The start cards below the top were shuffled into the main deck (set-up).
                    self.main_pool = [a + b for a, b in zip(self.main_pool, self.top_pool)]
                    self.top_pool = [0] * NUM_TYPES
            else:
                from_main = True
        if from_main and any(self.deck_bound):
            if dest == Q_ROW:
                self.deck_bound[t] -= 1  # revealed: that copy surely left the deck
            if not any(self.main_pool):
                self.deck_bound = [0] * NUM_TYPES  # an empty deck needs no bound (canonical)
        if dest == Q_ROW:
            self.row[t] += 1
        else:
            self.hands[p][t] += 1
            if from_main:
                self.anyc[p] += 1  # a blind card that may come from the main deck

    def _decide(self, action: int) -> None:
        kind, args = A.decode(action)
        p = self.cur
        if kind == "kind":
            self.step = (S_COLLECT, S_BUILD, S_ROUTE, S_PICK)[args[0]]
            if self.step == S_COLLECT:
                self.taken, self.refreshed = 0, False
        elif kind == "pass":
            self._end_action()
        elif kind == "create":
            c, r, j = args
            self.ctx = {"build": 0, "colour": c, "region": r, "owner": self.game.owners_of[p][j], "down": 1}
            self.step = S_FACE_UP
        elif kind == "upgrade":
            r, s = args
            c, _, level = self.spaces[r][s]
            # "face-down artifacts equal to the level you're building"
            self.ctx = {"build": 1, "colour": c, "region": r, "space": s, "down": level + 1}
            self.step = S_FACE_UP
        elif kind == "route":
            v, i = args
            # Cards are played in the departure region (rulebook "Create a New Train or Truck").
            self.ctx = {"build": 2, "vehicle": v, "route": i, "colour": v // 2, "region": ROUTES[i][0]}
            self.step = S_NUMBER
        elif kind == "number":
            self.ctx["down"] = args[0]
            self.ctx["number"] = args[0]
            self.step = S_FACE_UP
        elif kind == "face_up":
            t, h = args
            self._play_card(p, t, h, True)
            self.step = S_FACE_DOWN
        elif kind == "face_down":
            t, h = args
            self._play_card(p, t, h, False)
            self.ctx["down"] -= 1
            if self.ctx["down"] == 0:
                self._complete_build(p)
        elif kind == "pick":
            r, h = args
            self._reveal_hangar(r, h)
            for t, _, _ in self.hangars[r][h]:
                self.pile[t] += 1
            self.hangars[r][h] = []
            self.pile_region = r
            self.used = []
            self.step = S_LOAD
        elif kind == "store":
            t, r, s = args
            self.pile[t] -= 1
            self.discards[t] += 1  # "Stored artifacts are discarded face-up"
            self.used.append([r, s])
            self.scores_[self.spaces[r][s][1]] += type_value(t)
        elif kind == "refresh":
            t = args[0]
            self._lose_card(p, t, True)
            self.discards[t] += 1
            for u in range(NUM_TYPES):
                self.discards[u] += self.row[u]
            self.row = [0] * NUM_TYPES
            self.refreshed = True
            self._reshuffle_if_empty()
            self.queue.extend([Q_ROW, -1] for _ in range(FACE_UP))
        elif kind == "take_up":
            t = args[0]
            self.row[t] -= 1
            self.hands[p][t] += 1
            self.known[p][t] += 1  # everyone saw it enter the hand
            self.taken += 1
        elif kind == "take_deck":
            self.queue.append([Q_DRAW, p])
            self.taken += 1

    def _lose_card(self, p: int, t: int, face_up: bool) -> None:
        """Remove a card from ``p``'s hand and update what the others know of that hand.

        The others know ``known`` is in the hand, and that ``soft`` is contained
        in the unseen rest of the hand plus the seat's linked face-down cards
        (knowledge.py). Face up, everyone sees the type: a known (else soft)
        card of that type leaves the record, which stays exact. Face down,
        nobody sees it: the known cards become soft and the card is linked.
        """
        hand, known, soft = self.hands[p], self.known[p], self.soft[p]
        hand[t] -= 1
        if face_up and known[t]:
            known[t] -= 1
            return
        if face_up:
            if soft[t]:
                soft[t] -= 1
                if not any(soft):
                    self._clear_links(p)
            if START_COUNTS[t] == 0 and self.anyc[p]:
                self.anyc[p] -= 1  # certainly a main-deck card left the unseen part
        else:
            if any(known) and not any(soft):
                # The record starts: this card (appended next) and later ones are linked.
                self.linked_from[p] = [[len(h) for h in reg] for reg in self.hangars]
            self.anyc[p] += sum(known)  # the known cards join the unseen ones, of any deck
            for u in range(NUM_TYPES):
                soft[u] += known[u]
                known[u] = 0
            self._forget_start_marks()
        self.anyc[p] = min(self.anyc[p], sum(hand) - sum(known))

    def public_counts(self) -> List[int]:
        """Cards of each type in everyone's view: row, discards, pile, face-up hangar cards, known hand cards."""
        out = [a + b + c for a, b, c in zip(self.row, self.discards, self.pile)]
        for reg in self.hangars:
            for h in reg:
                for t, up, _ in h:
                    out[t] += up
        for k in self.known:
            for t in range(NUM_TYPES):
                out[t] += k[t]
        return out

    def _forget_start_marks(self) -> None:
        """Cards left everyone's view: the start cards still seen are at most the cards still seen."""
        public = self.public_counts()
        self.start_seen = [min(a, b) for a, b in zip(self.start_seen, public)]

    def _clear_links(self, p: int) -> None:
        self.linked_from[p] = [[0] * len(reg) for reg in self.hangars]

    def _reveal_hangar(self, r: int, h: int) -> None:
        """A picked-up hangar shows its cards: linked ones leave the soft records (knowledge.py)."""
        for p in range(self.game.players):
            soft = self.soft[p]
            if any(soft):
                for t, up, by in self.hangars[r][h][self.linked_from[p][r][h]:]:
                    if by == p and not up and soft[t]:
                        soft[t] -= 1  # soft <= unseen + linked + {t}  <=>  soft - {t} <= unseen + linked
                if not any(soft):
                    self._clear_links(p)
            self.linked_from[p][r][h] = 0

    def _play_card(self, p: int, t: int, h: int, face_up: bool) -> None:
        self._lose_card(p, t, face_up)
        self.hangars[self.ctx["region"]][h].append([t, int(face_up), p])

    def _complete_build(self, p: int) -> None:
        ctx = self.ctx
        r = ctx["region"]
        if ctx["build"] == 0:
            # "Place them on the highest-numbered empty space in the region."
            s = max(i for i, b in enumerate(self.spaces[r]) if b is None)
            self.spaces[r][s] = [ctx["colour"], ctx["owner"], 1]
            self.towers[ctx["colour"]] -= 1
            self.caps[ctx["owner"]] -= 1
            self.markers[r] -= 1
        elif ctx["build"] == 1:
            self.spaces[r][ctx["space"]][2] += 1
            self.markers[r] -= 1
        else:
            v = ctx["vehicle"]
            old = self.vehicles[v]
            if old is not None:
                for kind, _ in old[1]:
                    self.supply[kind] += 1
            shown = markers_for(ctx["number"], self.supply)
            for kind, _ in shown:
                self.supply[kind] -= 1
            self.vehicles[v] = [ctx["route"], shown]
        self._end_action()

    def _finish_loading(self) -> None:
        """Artifacts that cannot be stored join the loader's hand, face up to everyone (spec)."""
        p = self.cur
        for t in range(NUM_TYPES):
            self.hands[p][t] += self.pile[t]
            self.known[p][t] += self.pile[t]
        self.pile = [0] * NUM_TYPES
        self.pile_region = -1
        self.used = []
        self._end_action()

    def _end_action(self) -> None:
        """Close the turn: end trigger, last regular turns, then the next seat (rulebook "End of the game")."""
        g = self.game
        self.ctx = {}
        self.taken, self.refreshed = 0, False
        if self.phase in (PLAY, LAST):
            self.turn += 1
            if self.phase == LAST:
                self.extra_left -= 1
                if self.extra_left == 0:
                    self.phase = PICKUP
            elif sum(1 for m in self.markers if m == 0) >= 2 or self.turn >= g.max_turns:
                # Everyone gets one more regular turn, the trigger player last.
                self.phase = LAST
                self.extra_left = g.players
        self.cur = (self.cur + 1) % g.players
        self.step = S_KIND

    def _settle(self) -> None:
        """Run the automatic steps until a decision or a draw is due."""
        while True:
            self._reshuffle_if_empty()
            while self.queue and not self._can_draw():
                self.queue.pop(0)  # spec: "if deck and discards are both empty, take what there is"
            if self.queue:
                return
            if self.phase == SETUP:
                if self.step == S_DEAL:
                    self.step = S_REFILL
                    self.queue.extend([Q_ROW, -1] for _ in range(FACE_UP))
                    # Deals come from the start deck; the top layer is what the set-up leaves.
                    continue
                self.phase, self.step, self.cur = PLAY, S_KIND, 0
                continue
            if self.step == S_COLLECT and (self.taken >= TAKE_PER_COLLECT or not self._collect_actions_take()):
                self.step = S_REFILL
                self.queue.extend([Q_ROW, -1] for _ in range(FACE_UP - sum(self.row)))
                continue
            if self.step == S_REFILL:
                self._end_action()
                continue
            if self.step == S_LOAD and not self._store_targets():
                self._finish_loading()
                continue
            if self.step == S_KIND and self.phase == PICKUP:
                if not self._pick_targets():
                    self._final_scoring()
                    return
                self.step = S_PICK  # "each player only able to take the fourth action"
            return

    def _collect_actions_take(self) -> bool:
        """True while a card can still be taken (from the row, or the deck with the discards behind it)."""
        return any(self.row) or self.deck_size() > 0

    def _final_scoring(self) -> None:
        """Rulebook "End of the game": per region the highest bunkers score 5, 3, 2; ties to the higher space."""
        for r in range(NUM_REGIONS):
            ranked = sorted(((b[2], s, b[1]) for s, b in enumerate(self.spaces[r]) if b is not None),
                            reverse=True)
            for points, (_, _, owner) in zip(HIGHEST_BUNKER_POINTS, ranked):
                self.bonus[owner] += points
        self.phase = OVER
        self.step = S_KIND

    # -- results -------------------------------------------------------------
    def winners(self) -> List[int]:
        """Seats that win: highest score, then most cards in hand; a remaining tie is shared (spec)."""
        scores = self.seat_scores()
        keys = [(scores[p], self.hand_size(p)) for p in range(self.game.players)]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def returns(self) -> List[float]:
        n = self.game.players
        if self.phase != OVER:
            return [0.0] * n
        won = self.winners()
        if len(won) == n:
            return [0.0] * n
        return [1.0 / len(won) if p in won else -1.0 / (n - len(won)) for p in range(n)]

    def scores(self) -> List[float]:
        return [float(s) for s in self.seat_scores()]

    def heuristic_values(self) -> List[float]:
        """The static evaluation of :mod:`.heuristic`: public information only, within (-1, 1)."""
        return static_values(self)

    def clone(self) -> "Area51State":
        o = Area51State.__new__(Area51State)
        o.game = self.game
        o.phase, o.step, o.cur, o.turn, o.extra_left = self.phase, self.step, self.cur, self.turn, self.extra_left
        o.markers = list(self.markers)
        o.spaces = [[None if b is None else list(b) for b in reg] for reg in self.spaces]
        o.hangars = [[[list(c) for c in h] for h in reg] for reg in self.hangars]
        o.towers, o.caps, o.supply = list(self.towers), list(self.caps), list(self.supply)
        o.vehicles = [None if v is None else [v[0], [list(m) for m in v[1]]] for v in self.vehicles]
        o.row, o.discards = list(self.row), list(self.discards)
        o.top_left, o.top_pool, o.main_pool = self.top_left, list(self.top_pool), list(self.main_pool)
        o.hands = [list(h) for h in self.hands]
        o.known = [list(k) for k in self.known]
        o.soft = [list(k) for k in self.soft]
        o.linked_from = [[list(reg) for reg in lf] for lf in self.linked_from]
        o.deck_bound = list(self.deck_bound)
        o.start_seen = list(self.start_seen)
        o.anyc = list(self.anyc)
        o.scores_, o.bonus = list(self.scores_), list(self.bonus)
        o.queue = [list(q) for q in self.queue]
        o.ctx = dict(self.ctx)
        o.taken, o.refreshed = self.taken, self.refreshed
        o.pile, o.pile_region, o.used = list(self.pile), self.pile_region, [list(u) for u in self.used]
        o._public = self._public
        return o

    # -- text --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if self.queue and self.phase != OVER and 0 <= action < NUM_TYPES:
            dest, p = self.queue[0]
            name = type_name(action)
            if dest == Q_ROW:
                return f"reveal {name}"
            return f"deal {name} to player {p}" if dest == Q_DEAL else f"draw {name} for player {p}"
        try:
            kind, args = A.decode(action)
        except ValueError:
            return f"action {action}"
        g = self.game
        if kind == "kind":
            return A.KIND_NAMES[args[0]]
        if kind == "pass":
            return "pass"
        if kind == "create":
            c, r, j = args
            text = f"create {COLOURS[c]} bunker in {region_name(r)}"
            if g.players == 2:
                text += f" for {OWNER_NAMES_2P[2 * self.cur + j]}"
            return text
        if kind == "upgrade":
            return f"upgrade bunker {region_name(args[0])}/{args[1] + 1}"
        if kind == "route":
            a, b = ROUTES[args[1]]
            return f"{vehicle_name(args[0])} {region_name(a)}->{region_name(b)}"
        if kind == "number":
            return f"number {args[0]}"
        if kind == "pick":
            return f"pick up {region_name(args[0])} hangar {args[1] + 1}"
        if kind == "refresh":
            return f"refresh discarding {type_name(args[0])}"
        if kind == "take_up":
            return f"take face-up {type_name(args[0])}"
        if kind == "take_deck":
            return "take deck top"
        if kind in ("face_up", "face_down"):
            return f"{kind.replace('_', '-')} {type_name(args[0])} to hangar {args[1] + 1}"
        t, r, s = args
        return f"store {type_name(t)} in {region_name(r)}/{s + 1}"

    def __str__(self) -> str:
        return _render(self, None)

    # -- hidden information ------------------------------------------------
    def _seat(self, player: Any) -> int:
        """``player`` if it is a seat (0..n-1), else :class:`InvalidPlayerError` (never Python's negative indexing)."""
        n = self.game.players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise InvalidPlayerError(f"player {player!r} does not exist; seats are 0..{n - 1}")
        return player

    def view(self, player: int) -> Dict[str, Any]:
        """Seat ``player``'s view (documented in view.md beside this module, shaped by ``view.SCHEMA``)."""
        return build_view(self, player)

    def _internal_view(self, player: int) -> Dict[str, Any]:
        """Everything ``player`` knows in the engine's arrays, JSON-ready: hidden cards are ``None``.

        The view's ``"internal"`` part (for bots; unstable): :meth:`view` builds its readable
        fields from this alone.

        Hands show their size, the cards everyone knows are in them and, for
        ``player``, every card; face-down hangar cards show their type only to
        the seat that played them; the deck shows only its layer sizes.
        """
        g = self.game
        player = self._seat(player)
        return {
            "observer": player,
            "players": g.players,
            "owners_of_seat": g.owners_of,
            "phase": self.phase,
            "step": self.step,
            "current_player": self.current_player(),
            "turn": self.turn,
            "extra_left": self.extra_left,
            "context": dict(sorted(self.ctx.items())),
            "taken": self.taken,
            "refreshed": self.refreshed,
            "queue": [list(q) for q in self.queue],
            "row": list(self.row),
            "discards": list(self.discards),
            "deck": {"top": self.top_left, "start_remainder": sum(self.top_pool), "main": sum(self.main_pool)},
            "markers": list(self.markers),
            "spaces": [[None if b is None else list(b) for b in reg] for reg in self.spaces],
            "hangars": [[[[t if (up or by == player) else None, up, by] for t, up, by in h] for h in reg]
                        for reg in self.hangars],
            "towers": list(self.towers),
            "caps": list(self.caps),
            "vehicles": [None if v is None else [v[0], [list(m) for m in v[1]]] for v in self.vehicles],
            "supply": list(self.supply),
            "scores": list(self.scores_),
            "bonus": list(self.bonus),
            "seat_scores": self.seat_scores(),
            "hand_sizes": [self.hand_size(p) for p in range(g.players)],
            "known": [list(k) for k in self.known],
            "soft": [list(k) for k in self.soft],
            "linked_from": [[list(reg) for reg in lf] for lf in self.linked_from],
            "deck_bound": list(self.deck_bound),
            "start_seen": list(self.start_seen),
            "anyc": list(self.anyc),
            "hand": list(self.hands[player]),
            "pile": list(self.pile),
            "pile_region": self.pile_region,
            "used": [list(u) for u in self.used],
            "names": self._view_names(player),
        }

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """What ``viewer`` sees of a move (the move log of a seat; :meth:`view` is the position).

        Hidden from the others: the type of a card dealt or drawn into a hand
        (Rulebook "Collect": the deck top goes to the hand unseen), and the
        type of a card played face down into a hangar (rulebook "Build": the
        face-down artifacts). Everything else happens face up: the row, the
        refresh discard, cards taken from the row, picked-up hangars and
        stored artifacts ("Stored artifacts are discarded face-up").
        """
        if self.queue and self.phase != OVER:
            dest, p = self.queue[0]
            if dest == Q_ROW or p == viewer:
                return None
            return f"deal a card to player {p}" if dest == Q_DEAL else f"draw a card for player {p}"
        if self.current_player() == viewer:
            return None
        try:
            kind, args = A.decode(action)
        except ValueError:
            return None
        if kind == "face_down":
            return f"face-down card to hangar {args[1] + 1}"
        return None

    def _view_names(self, player: int) -> Dict[str, Any]:
        """The view's cards, regions, vehicles and owners by name, beside the ids of the other keys.

        Count vectors become ``{"blue 3": 2, ...}`` (types with a count only);
        hangar cards become their type's name, or None where ``player`` cannot
        see it; bunkers become ``{"colour", "owner", "level"}``.
        """
        g = self.game
        owner_names = g.owner_names
        return {
            "card_types": [type_name(t) for t in range(NUM_TYPES)],
            "regions": [region_name(r) for r in range(NUM_REGIONS)],
            "owners": list(owner_names),
            "hand": _named_counts(self.hands[player]),
            "row": _named_counts(self.row),
            "discards": _named_counts(self.discards),
            "pile": _named_counts(self.pile),
            "known": [_named_counts(k) for k in self.known],
            "hangars": [[[type_name(t) if (up or by == player) else None for t, up, by in h] for h in reg]
                        for reg in self.hangars],
            "bunkers": [[None if b is None else
                         {"colour": COLOURS[b[0]], "owner": owner_names[b[1]], "level": b[2]}
                         for b in reg] for reg in self.spaces],
            "vehicles": [None if v is None else {
                "vehicle": vehicle_name(i), "route": [region_name(r) for r in ROUTES[v[0]]]}
                for i, v in enumerate(self.vehicles)],
        }

    def information_state_string(self, player: int) -> str:
        """A compact canonical text of exactly what :meth:`view` shows ``player``.

        Not the move history: two positions that look the same to ``player``
        get the same text. The public part (the same for every seat) is built
        once per position and cached until the next action, because searchers
        and tests ask for it for every seat; count vectors are hex-packed.
        """
        player = self._seat(player)
        public = self._public
        if public is None:
            public = self._public = self._public_text()
        # Per seat: its hand, and the types of the face-down cards it played.
        own = [t for reg in self.hangars for h in reg for t, up, by in h if by == player and not up]
        return f"o{player};{public};{_hex(self.hands[player])};{_hex(own)}"

    def _public_text(self) -> str:
        """Everything every seat sees, canonically (face-down types excluded)."""
        hexed = _hex
        # Hangars: per hangar its size, then per card (type, or 99 face down; face_up * 16 + seat).
        flat: List[int] = []
        for reg in self.hangars:
            for h in reg:
                flat.append(len(h))
                for t, up, by in h:
                    flat.append(t if up else 99)
                    flat.append(up * 16 + by)
        spaces = "|".join(",".join("-" if b is None else f"{b[0]}.{b[1]}.{b[2]}" for b in reg)
                          for reg in self.spaces)
        vehicles = ",".join("-" if v is None else f"{v[0]}:{'+'.join(str(x) for _, x in v[1])}"
                            for v in self.vehicles)
        return ";".join((
            self.phase, self.step, str(self.current_player()), str(self.turn), str(self.extra_left),
            ",".join(f"{k}={v}" for k, v in sorted(self.ctx.items())), str(self.taken), str(int(self.refreshed)),
            ",".join(f"{d}{q}" for d, q in self.queue), hexed(self.row), hexed(self.discards),
            f"{self.top_left}/{sum(self.top_pool)}/{sum(self.main_pool)}", hexed(self.markers), spaces,
            hexed(flat), hexed(self.towers), hexed(self.caps), vehicles, hexed(self.supply),
            ",".join(map(str, self.scores_)), ",".join(map(str, self.bonus)),
            ",".join(str(sum(h)) for h in self.hands), ",".join(hexed(k) for k in self.known),
            ",".join(hexed(k) for k in self.soft),
            ",".join(hexed([x for reg in lf for x in reg]) for lf in self.linked_from), hexed(self.deck_bound),
            hexed(self.start_seen), hexed(self.anyc),
            hexed(self.pile), str(self.pile_region), ",".join(f"{r}.{x}" for r, x in self.used)))

    def determinize(self, observer: int, rng: random.Random) -> "Area51State":
        """A world ``observer`` cannot tell from this one (see :mod:`.knowledge` for the exact model)."""
        return _determinize(self, self._seat(observer), rng)

    def knowledge_violations(self, observer: int) -> List[str]:
        """Every knowledge record the actual cards contradict (see :mod:`.knowledge`); ``[]`` when none."""
        return [text for _, text in _knowledge_violations(self, self._seat(observer))]

    # -- serialization -----------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        return {
            "phase": self.phase,
            "step": self.step,
            "current": self.cur,
            "turn": self.turn,
            "extra_left": self.extra_left,
            "context": dict(self.ctx),
            "taken": self.taken,
            "refreshed": self.refreshed,
            "queue": [list(q) for q in self.queue],
            "row": list(self.row),
            "discards": list(self.discards),
            "deck_top_left": self.top_left,
            "deck_start_pool": list(self.top_pool),
            "deck_main_pool": list(self.main_pool),
            "markers": list(self.markers),
            "spaces": [[None if b is None else list(b) for b in reg] for reg in self.spaces],
            "hangars": [[[list(c) for c in h] for h in reg] for reg in self.hangars],
            "towers": list(self.towers),
            "caps": list(self.caps),
            "vehicles": [None if v is None else [v[0], [list(m) for m in v[1]]] for v in self.vehicles],
            "supply": list(self.supply),
            "scores": list(self.scores_),
            "bonus": list(self.bonus),
            "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "soft": [list(k) for k in self.soft],
            "linked_from": [[list(reg) for reg in lf] for lf in self.linked_from],
            "deck_bound": list(self.deck_bound),
            "start_seen": list(self.start_seen),
            "anyc": list(self.anyc),
            "pile": list(self.pile),
            "pile_region": self.pile_region,
            "used": [list(u) for u in self.used],
        }


def state_from_dict_trusted(game: Area51Game, data: Mapping[str, Any]) -> Area51State:
    """The state of ``data`` *without* validation: only for dicts the engines wrote themselves
    (the native kernel's ``to_dict`` of a state it reached from a validated one)."""
    return _load_state_trusted(Area51State(game), data)
