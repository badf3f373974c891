"""What each Area 51 player knows, and sampling worlds consistent with it (determinization).

Knowledge is tracked in the state itself (see ``Area51State``): the face-up row,
discards, face-up hangar cards and the pile being loaded are public; each hand's
size is public, and so are the cards everyone saw entering it (``known``: taken
from the face-up row or left over after a pick-up). When the hand's owner plays
a card face down, it may have been a known one: the known cards become
``soft``, of which the hand still holds all but ``slack`` (one per face-down
card since); a card played face up leaves the known (else soft) record, which
keeps it exact. ``anyc`` bounds how many unseen hand cards may be main-deck cards (the
rest were dealt or drawn from the start cards on top of the deck). A player
also knows the face-down cards they played. Nobody knows the deck order or the
split of the start remainder between the top layer and the main deck.

:func:`determinize` deals every card the observer cannot see afresh:

* the unseen multiset is the true one (the observer can compute it: every card
  minus what they see), so deck sizes, hand sizes and hangar piles keep their
  sizes and the card total stays 104;
* each other hand keeps its known cards and all but ``slack`` of its soft ones;
* slots that must hold start cards (the start remainder of the deck, and the
  unseen hand cards beyond ``anyc``) are filled first, from types that exist
  as start cards, at most the number of start copies of each type;
* known hand cards and the observer's own cards never move.

One exception, a known limit: when another seat is to act, its hand is kept.
Mid-turn, that seat has committed to an action it must be able to finish (a
bunker of a colour it must pay for, say), which constrains its hand in ways
not tracked here; a fresh deal could leave it no legal decision. Searchers
determinize for the player to act, so no search sees a hand it should not; a
caller determinizing for another observer does see the acting seat's hand.

Limits (documented relaxations: samples never contradict the tracked
knowledge, but the tracked knowledge is coarser than perfect recall): after
several face-down plays the soft record keeps only "all but k of these"; the
composition of a deck rebuilt from the discards is not tracked; and start
cards are told apart only in the deck's top layer and in hands (``anyc``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, List

from .components import NUM_TYPES, START_COUNTS

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Area51State

#: Random redraws of the soft cards before falling back on the ones actually held.
MAX_TRIES = 20


def unseen_counts(state: "Area51State", observer: int, kept: int = -1) -> List[int]:
    """The multiset of cards ``observer`` cannot see (excluding seat ``kept``'s hand)."""
    out = [0] * NUM_TYPES
    for p in range(state.game.players):
        if p in (observer, kept):
            continue
        for t in range(NUM_TYPES):
            out[t] += state.hands[p][t] - state.known[p][t]
    for reg in state.hangars:
        for h in reg:
            for t, up, by in h:
                if not up and by != observer:
                    out[t] += 1
    for t in range(NUM_TYPES):
        out[t] += state.top_pool[t] + state.main_pool[t]
    return out


def _sample_counts(rng: random.Random, pool: List[int], k: int) -> List[int]:
    """``k`` cards drawn without replacement from the multiset ``pool`` (counts), as a list of types."""
    cards = [t for t in range(NUM_TYPES) for _ in range(pool[t])]
    return rng.sample(cards, min(k, len(cards)))


def determinize(state: "Area51State", observer: int, rng: random.Random) -> "Area51State":
    """A full state ``observer`` cannot tell from ``state``, its unseen cards dealt from ``rng``.

    Order of the deal: for each other hand, the soft cards it must still hold
    (all but ``slack`` of them, chosen at random); then the slots that must
    hold start cards (the start remainder of the deck, the unseen hand cards
    beyond ``anyc``); then everything else, uniformly. Each step takes only
    what is still unseen and unassigned, so the card total never changes; the
    true deal is always one possible outcome.
    """
    world = state.clone()
    n = state.game.players
    acting = state.current_player()
    kept = acting if 0 <= acting < n and acting != observer else -1
    unseen = unseen_counts(state, observer, kept)
    seats = [p for p in range(n) if p not in (observer, kept)]

    # 1. Soft cards still in each hand. Hands can compete for the same unseen
    # copies, so a random choice can fall short; it is redrawn, and after
    # MAX_TRIES the soft cards actually held are chosen from (always possible).
    for attempt in range(MAX_TRIES + 1):
        left = list(unseen)
        hands = {p: list(state.known[p]) for p in seats}
        ok = True
        for p in rng.sample(seats, len(seats)):
            soft = state.soft[p]
            must = max(0, sum(soft) - state.slack[p])
            if attempt < MAX_TRIES:
                avail = [min(soft[t], left[t]) for t in range(NUM_TYPES)]
            else:
                avail = [min(soft[t], state.hands[p][t] - state.known[p][t]) for t in range(NUM_TYPES)]
            chosen = _sample_counts(rng, avail, must)
            # Soft cards are unseen hand cards too: main-deck-only ones count against ``anyc``.
            ok = ok and len(chosen) == must and sum(1 for t in chosen if not START_COUNTS[t]) <= state.anyc[p]
            for t in chosen:
                hands[p][t] += 1
                left[t] -= 1
        if ok:
            break
    unseen = left
    free = {p: state.hand_size(p) - sum(hands[p]) for p in seats}  # unseen hand slots still to fill

    # 2. Start-class slots, from the unseen cards that can be start cards.
    # The unseen cards beyond ``anyc`` must be start cards; the soft cards chosen
    # above that can only be main-deck cards already use part of ``anyc``.
    main_only_soft = {p: sum(hands[p][t] - state.known[p][t] for t in range(NUM_TYPES) if not START_COUNTS[t])
                      for p in seats}
    need_start = {p: max(0, free[p] - (state.anyc[p] - main_only_soft[p])) for p in seats}
    start_demand = sum(state.top_pool) + sum(need_start.values())
    eligible = [min(unseen[t], START_COUNTS[t]) for t in range(NUM_TYPES)]
    # Never short for a state reached by play; a hand-made position may ask
    # too much, and then the rest is filled freely.
    start_cards = _sample_counts(rng, eligible, start_demand)
    for t in start_cards:
        unseen[t] -= 1

    # 3. Everything else: only hand and hangar slots need cards one by one; the
    # main deck is whatever is left (a multiset).
    hidden_hangar = sum(1 for reg in state.hangars for h in reg for _, up, by in h if not up and by != observer)
    slots = sum(free.values()) - sum(need_start.values()) + hidden_hangar + start_demand - len(start_cards)
    rest = _sample_counts(rng, unseen, slots)
    for t in rest:
        unseen[t] -= 1
    start_cards.reverse()  # popped from the end, in sampled order

    def deal(start_class: bool) -> int:
        return start_cards.pop() if start_class and start_cards else rest.pop()

    top_pool = [0] * NUM_TYPES
    for _ in range(sum(state.top_pool)):
        top_pool[deal(True)] += 1
    for p in seats:
        hand = hands[p]
        for i in range(free[p]):
            hand[deal(i < need_start[p])] += 1
        world.hands[p] = hand
    for reg in world.hangars:
        for h in reg:
            for card in h:
                if not card[1] and card[2] != observer:
                    card[0] = rest.pop()
    main_pool = list(unseen)
    for t in rest + start_cards:  # only left over when a hand-made position over-asked
        main_pool[t] += 1
    assert sum(main_pool) == sum(state.main_pool)
    world.top_pool, world.main_pool = top_pool, main_pool
    return world
