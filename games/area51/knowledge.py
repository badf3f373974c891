"""What each Area 51 player knows, and sampling worlds consistent with it (determinization).

Sources: the rulebook (``../shared/seeds/000_8e8bfcec0eb24bec.txt``, English) and the
spec's rulings (``../shared/spec/area51.md``; paths relative to the repository root),
whose "Information" section lists what is hidden: every hand (its size is
public), the face-down hangar cards (known to the seat that played them) and
the deck order. Everything below is *public*: kept in the state, shown by
``view`` and part of every information state, so two states one observer cannot
tell apart hold the same records.

The records, each a fact that every state reached by play satisfies
(:func:`knowledge_violations` lists the ones a state contradicts):

* **Seen cards.** The face-up row, the discards, the pile being loaded (rulebook
  000, "Pick up a pile of artifacts and load them": "Turn all the artifacts
  facing up"), the face-up hangar cards, and the cards everyone saw entering a
  hand are public; each seat also sees its own hand and the face-down cards it
  played. Sizes of hands and deck layers, and the place of every hangar card,
  are public.
* **known[p]** -- cards everyone saw entering p's hand (taken from the row, or
  left over after loading: spec, "Pick up and load", "face up to everyone").
  They are in the hand. A face-up play of a known type is matched to a known
  card (copies of a type are interchangeable).
* **soft[p], linked face-down cards.** A face-down play hides which card left:
  the known cards become ``soft``. Record: soft is contained, as a multiset, in
  p's unseen hand cards plus p's *linked* face-down cards -- p's face-down cards
  at index >= ``linked_from[p][r][h]`` in hangar (r, h), i.e. played since the
  record started. This is exact for the plays it describes: S <= X + D before a
  face-down play of d with known K gives S + K <= X' + (D + d). A face-up play
  of a soft type t removes one t (S <= X + {t} iff S - {t} <= X); a picked-up
  hangar reveals its cards and each revealed linked card leaves the record the
  same way. So a face-down card from a hand the observer fully knew is always
  one of that hand's cards, and once revealed it tells which cards remain.
* **anyc[p]** -- at most ``anyc[p]`` of p's unseen hand cards may be main-deck
  cards; the others are start cards (dealt, or drawn blind from the top layer:
  rulebook 000, "Artifact cards" set-up; spec, "Artifact cards"). A blind draw
  from the main deck and known cards turning unseen raise it; a face-up play of
  a type with no start copies (the 4s) lowers it. Hence the unseen 4s in a hand
  are at most ``anyc``.
* **start_seen[t]** -- public cards of type t known to be start cards: a card
  revealed from the top layer is one (+1); when cards leave everyone's view (a
  face-down play, a reshuffle) it is cut to the public count, so it stays a
  lower bound. With the hands' start cards (unseen minus anyc) and the start
  remainder of the deck, they never exceed a type's start copies (checked
  exactly as a transportation problem).
* **Deck layers** (spec, "Artifact cards": the start remainder on top of the
  main deck). While start cards remain on top (``deck_top_left > 0``) nothing
  was drawn from the main deck, so its composition is public: exactly the 64
  main cards, and every card elsewhere is a start card. When the top layer is
  used up, the start remainder joins the main deck (rules.py module docstring).
* **deck_bound** -- after a reshuffle (rulebook 000, "Collect three new artifacts": "If the deck runs
  out, shuffle the discards"; spec: at once) the new deck's composition is
  public; cards revealed from it leave the bound, blind draws do not, so the
  deck is contained in ``deck_bound``. Cleared (all 0) when the deck is empty.
* **The acting seat's commitment.** A kind is offered only when it can be
  completed (rules.py), so mid-turn the seat to act holds a card of the colour it
  must play face up (steps play_face_up and vehicle_number: the context's
  colour) or, at build_target and vehicle_route, of a colour for which some
  target exists on the public board (:func:`commitment_colours`).

Documented relaxations (samples satisfy every record above; the records are
coarser than perfect recall): which hands drew blind from a reshuffled deck is
not tracked (only the deck's bound); whether a face-down card or a card in the
discards is a start card is not tracked once it leaves view (``start_seen`` is
a lower bound); and face-up plays are matched to known cards first.

:func:`determinize` deals every card observer o cannot see, as a function of
o's information set and the rng only -- it never reads the true hidden cards,
so twins (equal ``information_state_key(o)``) give equal worlds. The hidden
multiset is every card minus what o sees. Every other seat, the acting one
included, is redealt. In order: the main deck is fixed while the top layer
lasts; each hand's start slots are drawn from start types within the start
copies left (soft cards that fit nowhere else first; o's own start cards are
counted, o choosing the least constraining; a soft card of the seat's stands in
a start slot when the free cards cannot fill it and the deck together -- it is
in the hand either way); a reshuffled deck is drawn within
its bound (the start slots are drawn only while the deck stays fillable, a
two-sink transportation check); each seat's remaining unseen slots and linked
cards receive its soft cards, then free cards (the acting seat's committed
colour first when no other card provides it); then the other face-down cards,
the top layer, and the rest of the deck. Every step checks feasibility by
counting; the world is still checked with :func:`knowledge_violations` and,
should a step ever reach a dead end, redrawn (at most ``MAX_TRIES`` times)
before a :class:`DeterminizationError` (an :class:`~aiplay.errors.AiplayError`).
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from aiplay.errors import DeterminizationError  # re-exported: the sampler raises it

from .components import MAIN_COUNTS, NUM_REGIONS, NUM_TYPES, START_COUNTS, TOTAL_COUNTS, type_name
from .phases import S_BUILD, S_FACE_UP, S_NUMBER, S_ROUTE

#: An ``Area51State`` (``.rules`` sits above this module, which only reads and clones states).
Area51State = Any

#: Redraws of a whole world before giving up (the sampler is exact by counting; this is a safety net).
MAX_TRIES = 50

#: Types without start copies ("main-only": blue, brown and orange 4).
MAIN_ONLY: Tuple[int, ...] = tuple(t for t in range(NUM_TYPES) if TOTAL_COUNTS[t] and not START_COUNTS[t])


# -- the records ---------------------------------------------------------------------
def linked_positions(state: Area51State, p: int) -> List[Tuple[int, int, int]]:
    """(region, hangar, index) of seat ``p``'s linked face-down cards (empty without a soft record)."""
    if not any(state.soft[p]):
        return []
    out = []
    for r in range(NUM_REGIONS):
        for h, pile in enumerate(state.hangars[r]):
            for i in range(state.linked_from[p][r][h], len(pile)):
                _, up, by = pile[i]
                if by == p and not up:
                    out.append((r, h, i))
    return out


def commitment_colours(state: Area51State) -> Optional[Set[int]]:
    """Colours of which the seat to act must hold a card to finish its decision, or None.

    Derived from public data only (the step, the context, hand sizes and the
    board): the rules offer a kind only when it can be completed.
    """
    if state.queue or state.phase == "over":
        return None
    step, p, ctx = state.step, state.cur, state.ctx
    if step in (S_FACE_UP, S_NUMBER):
        return {ctx["colour"]}
    if step not in (S_BUILD, S_ROUTE):
        return None
    # Which colours would give a target if the hand held them (the rest of the test is public).
    probe = state.clone()
    out: Set[int] = set()
    size = state.hand_size(p)
    for c in range(4):
        hand = [0] * NUM_TYPES
        hand[4 * c] = size  # a hand of that size holding colour c
        probe.hands[p] = hand
        if (probe._build_targets(p) if step == S_BUILD else probe._route_targets(p)):
            out.add(c)
    return out


def _has_colour(counts: Sequence[int], colours: Set[int]) -> bool:
    return any(counts[t] for t in range(NUM_TYPES) if t // 4 in colours)


def _max_flow(cap: List[List[int]], src: int, sink: int) -> int:
    """Maximum flow on a small dense graph (augmenting paths; the graphs here have < 30 nodes)."""
    n = len(cap)
    flow = 0
    while True:
        parent = [-1] * n
        parent[src] = src
        queue = [src]
        for u in queue:
            for v in range(n):
                if parent[v] < 0 and cap[u][v] > 0:
                    parent[v] = u
                    queue.append(v)
        if parent[sink] < 0:
            return flow
        push, v = 1 << 30, sink
        while v != src:
            push = min(push, cap[parent[v]][v])
            v = parent[v]
        v = sink
        while v != src:
            cap[parent[v]][v] -= push
            cap[v][parent[v]] += push
            v = parent[v]
        flow += push


def start_capacity(state: Area51State) -> List[int]:
    """Start copies of each type that may still fill hidden start places: all, minus the top layer and those seen."""
    return [START_COUNTS[t] - state.top_pool[t] - state.start_seen[t] for t in range(NUM_TYPES)]


def _start_feasible(state: Area51State) -> bool:
    """Each hand's unseen cards include ``unseen - anyc`` start cards, within the start copies left."""
    n = state.game.players
    cap_t = start_capacity(state)
    if min(cap_t) < 0:
        return False
    size = 2 + n + NUM_TYPES
    src, sink = 0, size - 1
    cap = [[0] * size for _ in range(size)]
    demand = 0
    for p in range(n):
        unseen = [state.hands[p][t] - state.known[p][t] for t in range(NUM_TYPES)]
        need = max(0, sum(unseen) - state.anyc[p])
        demand += need
        cap[src][1 + p] = need
        for t in range(NUM_TYPES):
            if START_COUNTS[t]:
                cap[1 + p][1 + n + t] = max(0, unseen[t])
    for t in range(NUM_TYPES):
        cap[1 + n + t][sink] = cap_t[t]
    return _max_flow(cap, src, sink) == demand


def knowledge_violations(state: Area51State, observer: int) -> List[Tuple[str, str]]:
    """(field, readable line) for every record that the actual cards contradict.

    The records are public, so the answer is the same for every observer; the
    observer's own cards are the contents themselves and cannot contradict it.
    """
    out: List[Tuple[str, str]] = []
    n = state.game.players
    for p in range(n):
        hand, known, soft = state.hands[p], state.known[p], state.soft[p]
        for t in range(NUM_TYPES):
            if known[t] > hand[t]:
                out.append((f"known[{p}][{t}]", f"seat {p} is known to hold {known[t]} {type_name(t)} but holds "
                                                f"{hand[t]}"))
        unseen = [max(0, hand[t] - known[t]) for t in range(NUM_TYPES)]
        m = sum(unseen[t] for t in MAIN_ONLY)
        if m > state.anyc[p]:
            out.append((f"anyc[{p}]", f"seat {p} holds {m} unseen cards without start copies, more than the "
                                      f"{state.anyc[p]} it can have drawn from the main deck"))
        linked = list(unseen)
        for r, h, i in linked_positions(state, p):
            linked[state.hangars[r][h][i][0]] += 1
        for t in range(NUM_TYPES):
            if soft[t] > linked[t]:
                out.append((f"soft[{p}][{t}]", f"seat {p}'s hand and linked face-down cards hold {linked[t]} "
                                               f"{type_name(t)}, fewer than the {soft[t]} known to be there"))
    if not _start_feasible(state):
        out.append(("anyc", "the hands' start cards (unseen cards beyond anyc), the deck's start remainder and "
                            "the start cards seen exceed the start copies of some type"))
    if state.top_left > 0 and state.main_pool != MAIN_COUNTS:
        out.append(("deck_main_pool", "while start cards remain on top, nothing was drawn from the main deck: "
                                      "it must hold exactly the 64 main cards"))
    if state.top_left == 0 and any(state.top_pool):
        out.append(("deck_start_pool", "with no start card left on top, the start remainder is in the main deck"))
    if any(state.deck_bound):
        for t in range(NUM_TYPES):
            if state.main_pool[t] > state.deck_bound[t]:
                out.append((f"deck_main_pool[{t}]", f"the reshuffled deck can hold at most {state.deck_bound[t]} "
                                                    f"{type_name(t)}, not {state.main_pool[t]}"))
    colours = commitment_colours(state)
    if colours is not None and not _has_colour(state.hands[state.cur], colours):
        out.append((f"hands[{state.cur}]", f"seat {state.cur} is mid-turn and must hold a card of colour "
                                           f"{sorted(colours)}"))
    return out


# -- sampling ---------------------------------------------------------------------------
def _draw(rng: random.Random, pool: List[int], allowed) -> int:
    """A type drawn from ``pool`` (counts) weighted by copies, among types for which ``allowed(t)``."""
    weights = [pool[t] if pool[t] > 0 and allowed(t) else 0 for t in range(NUM_TYPES)]
    total = sum(weights)
    if total <= 0:
        raise DeterminizationError("no card type fits the knowledge records here")
    x = rng.randrange(total)
    for t in range(NUM_TYPES):
        if x < weights[t]:
            return t
        x -= weights[t]
    raise AssertionError("unreachable")  # pragma: no cover


def determinize(state: Area51State, observer: int, rng: random.Random) -> Area51State:
    """A full state ``observer`` cannot tell from ``state``, its unseen cards dealt from ``rng``.

    A function of the observer's information set and ``rng`` only (see the
    module docstring for the model and the order of the deal).
    """
    for _ in range(MAX_TRIES):
        try:
            world = _sample(state, observer, rng)
        except DeterminizationError:
            world = None  # a draw found no fitting card: redraw (never seen for states reached by play)
        if world is not None and not knowledge_violations(world, observer):
            return world
    raise DeterminizationError(f"no world consistent with seat {observer}'s knowledge after {MAX_TRIES} tries")


def _sample(state: Area51State, o: int, rng: random.Random) -> Optional[Area51State]:
    g = state.game
    n = g.players
    # What o sees; the hidden multiset is everything else.
    seen = [0] * NUM_TYPES
    for t in range(NUM_TYPES):
        seen[t] = state.row[t] + state.discards[t] + state.pile[t] + state.hands[o][t]
        for p in range(n):
            if p != o:
                seen[t] += state.known[p][t]
    free_hangar: List[Tuple[int, int, int]] = []
    linked_of: Dict[int, List[Tuple[int, int, int]]] = {p: [] for p in range(n) if p != o}
    linked_set = {p: set(linked_positions(state, p)) for p in linked_of}
    for r in range(NUM_REGIONS):
        for h, pile in enumerate(state.hangars[r]):
            for i, (t, up, by) in enumerate(pile):
                if up or by == o:
                    seen[t] += 1
                elif (r, h, i) in linked_set[by]:
                    linked_of[by].append((r, h, i))
                else:
                    free_hangar.append((r, h, i))
    hidden = [TOTAL_COUNTS[t] - seen[t] for t in range(NUM_TYPES)]
    acting = state.cur if not state.queue and state.phase != "over" else -1
    seats = sorted((p for p in range(n) if p != o), key=lambda p: (p != acting, p))  # acting seat first
    colours = commitment_colours(state) if acting in seats else None
    if colours is not None and _has_colour(state.known[acting], colours):
        colours = None  # a known card already fulfils it

    # Slots: each hand's unseen cards are ``must`` start cards plus ``maybe`` cards of any deck
    # (anyc); the group of a seat is its maybe slots plus its linked face-down cards.
    reserved = [0] * NUM_TYPES
    maybe, must = {}, {}
    for p in seats:
        for t in range(NUM_TYPES):
            reserved[t] += state.soft[p][t]
        unseen = state.hand_size(p) - sum(state.known[p])
        maybe[p] = min(state.anyc[p], unseen)
        must[p] = unseen - maybe[p]
    free = [hidden[t] - reserved[t] for t in range(NUM_TYPES)]
    if min(free) < 0:
        raise DeterminizationError("the soft records ask for more cards than are hidden")
    top_slots = sum(state.top_pool)
    other_slots = len(free_hangar) + top_slots  # take anything
    main: List[int]
    if state.top_left > 0:
        main = list(MAIN_COUNTS)  # nothing drawn from the main deck yet: public
        free = [free[t] - main[t] for t in range(NUM_TYPES)]
        if min(free) < 0:
            raise DeterminizationError("the main deck is not intact while start cards remain on top")

    # Where the acting seat's committed card goes: a start slot if it has no other slot.
    # (In a start slot when the hand has no other unseen slot, or when its soft cards fill
    # those and provide no card of the colour; else a free card or a soft one.)
    soft_has_c = colours is not None and any(state.soft[acting][t] for t in range(NUM_TYPES) if t // 4 in colours)
    commit_in_must = colours is not None and (maybe[acting] == 0 or (
        not soft_has_c and maybe[acting] + len(linked_of[acting]) - sum(state.soft[acting]) <= 0))
    commit_in_group = colours is not None and not commit_in_must and not soft_has_c
    k_free: Dict[int, int] = {}

    # 1. The start slots of every hand, within the start copies left.
    # (The top layer's own start cards are not subtracted: its composition is hidden, and while
    # it exists every card outside the main deck is a start card, which the pool already says.)
    # The observer's own unseen-to-others cards beyond its anyc are start cards too and use
    # start copies. Which of them is o's to choose (its hand is part of its information):
    # first where a type has more start copies left than hidden cards (it costs nothing).
    cap_t = [START_COUNTS[t] - state.start_seen[t] for t in range(NUM_TYPES)]
    own_need = max(0, sum(state.hands[o]) - sum(state.known[o]) - state.anyc[o])
    for t in sorted((u for u in range(NUM_TYPES) if START_COUNTS[u]), key=lambda u: (free[u] - cap_t[u], u)):
        take = min(own_need, state.hands[o][t] - state.known[o][t], max(0, cap_t[t]))
        cap_t[t] -= take
        own_need -= take
    if own_need:
        return None
    # The deck, once the top layer is gone, competes with the start slots for the free cards:
    # both demands are checked together (a two-sink transportation problem: for each set of
    # sinks, the cards that can reach it must cover its demand).
    deck_need = sum(state.main_pool) if state.top_left == 0 else 0
    bound = state.deck_bound if state.top_left == 0 and any(state.deck_bound) else None
    demand = sum(must.values()) - sum(min(must[p], max(0, sum(state.soft[p]) - maybe[p] - len(linked_of[p])))
                                      for p in seats)

    def start_room(skip: int, from_free: bool = True, soft_help: int = 0) -> bool:
        """After one more start card of type ``skip``, can the other start slots and the deck still be filled?

        ``soft_help``: how many of the other start slots soft cards may fill instead of free cards.
        """
        demand_left = max(0, demand - soft_help)
        a_sum = b_sum = ab_sum = 0
        for u in range(NUM_TYPES):
            fr = free[u] - (u == skip and from_free)
            a = min(fr, cap_t[u] - (u == skip)) if START_COUNTS[u] else 0
            b = min(fr, bound[u]) if bound else fr
            a_sum += max(0, a)
            b_sum += max(0, b)
            ab_sum += max(0, min(fr, a + b))
        return a_sum >= demand_left and b_sum >= deck_need and ab_sum >= demand_left + deck_need

    # Soft cards go to the maybe slots and linked cards; only those that cannot fit there
    # take start slots, and they are placed first (they can only be of their own types).
    soft_left = {p: list(state.soft[p]) for p in seats}  # soft cards not placed yet
    ys = {p: [0] * NUM_TYPES for p in seats}
    forced = {p: min(must[p], max(0, sum(state.soft[p]) - maybe[p] - len(linked_of[p]))) for p in seats}
    order = [(p, from_soft) for from_soft in (True, False) for p in seats]
    for idx, (p, from_soft) in enumerate(order):
        y = ys[p]
        slots = forced[p] if from_soft else must[p] - forced[p]
        for j in range(slots):
            if not from_soft:
                demand -= 1
            force = commit_in_must and p == acting and sum(y) == 0

            def ok(t: int, force=force, from_soft=from_soft, help_=0) -> bool:
                if not START_COUNTS[t] or cap_t[t] <= 0 or (force and t // 4 not in colours):
                    return False
                return start_room(t, not from_soft, help_)

            pool = soft_left[p] if from_soft else free
            if from_soft or any(pool[t] > 0 and ok(t) for t in range(NUM_TYPES)):
                t = _draw(rng, pool, ok)
            else:
                # The free cards cannot fill this start slot and the rest (with the deck): a soft
                # card of the seat's own start types may stand in it (it is in the hand either
                # way), and the maybe slot it leaves takes a free card of any type. Soft cards of
                # the seats still to come may fill their later slots (a counting relaxation: the
                # world is checked, and redrawn at a dead end).
                def help_after(q: int, later: int, mine: bool) -> int:
                    eligible = sum(soft_left[q][u] for u in range(NUM_TYPES) if START_COUNTS[u] and cap_t[u] > 0)
                    return max(0, min(later, eligible - mine))

                helped = sum(help_after(q, must[q] - forced[q], False) for q, soft in order[idx + 1:] if not soft)
                helped += help_after(p, slots - j - 1, True)
                pool = soft_left[p]
                t = _draw(rng, pool, lambda u: ok(u, from_soft=True, help_=helped))
            pool[t] -= 1
            cap_t[t] -= 1
            y[t] += 1
    for p in seats:
        k_free[p] = maybe[p] + len(linked_of[p]) - sum(soft_left[p])
        if k_free[p] < 0:
            return None  # more soft cards than places: not a state reached by play

    # 2. A reshuffled deck, within its bound (before the groups, which can take anything), leaving
    #    room for the committed card when it must come from the free cards.
    if bound:  # else the deck is simply what is left at the end
        m = sum(state.main_pool)
        avail = [min(free[t], bound[t]) for t in range(NUM_TYPES)]
        main = [0] * NUM_TYPES
        pool = list(avail)
        if sum(pool) < m:
            raise DeterminizationError("the reshuffled deck's bound leaves too few cards")
        c_left = sum(free[t] for t in range(NUM_TYPES) if t // 4 in colours) if commit_in_group else 0
        for _ in range(m):
            # Leave one card of the committed colour outside the deck when it must come from the free cards.
            t = _draw(rng, pool, lambda u: not (commit_in_group and u // 4 in colours and c_left <= 1))
            pool[t] -= 1
            main[t] += 1
            if commit_in_group and t // 4 in colours:
                c_left -= 1
        free = [free[t] - main[t] for t in range(NUM_TYPES)]

    # 3. Each group: its soft cards, then free cards (the committed card first).
    world = state.clone()

    def hand_slots_of(p: int) -> int:
        return state.hand_size(p) - sum(state.known[p])

    for p in seats:
        cnt = list(soft_left[p])
        for j in range(k_free[p]):
            force = commit_in_group and p == acting and j == 0
            t = _draw(rng, free, lambda u, force=force: not force or u // 4 in colours)
            free[t] -= 1
            cnt[t] += 1
        # Split: the committed card (if any) to the hand, linked cards at random, the rest to the hand.
        hand = [a + b for a, b in zip(state.known[p], ys[p])]
        if p == acting and colours is not None and not _has_colour(hand, colours):
            if not _has_colour(cnt, colours) or sum(hand) - sum(state.known[p]) >= hand_slots_of(p):
                return None  # the committed card went elsewhere: redraw
            t = _draw(rng, cnt, lambda u: u // 4 in colours)
            cnt[t] -= 1
            hand[t] += 1
        for r, h, i in linked_of[p]:
            t = _draw(rng, cnt, lambda u: True)
            cnt[t] -= 1
            world.hangars[r][h][i][0] = t
        world.hands[p] = [a + b for a, b in zip(hand, cnt)]

    # 4. The other face-down cards, then the top layer: the rest.
    for r, h, i in free_hangar:
        t = _draw(rng, free, lambda u: True)
        free[t] -= 1
        world.hangars[r][h][i][0] = t
    if state.top_left == 0 and not bound:
        main, free = free, [0] * NUM_TYPES  # the deck: the rest
    if sum(free) != top_slots or sum(main) != sum(state.main_pool):
        raise DeterminizationError("the hidden cards do not fill the hidden places")
    world.top_pool = list(free) if top_slots else [0] * NUM_TYPES
    world.main_pool = main
    return world


