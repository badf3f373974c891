"""What each Area 1851 player knows, and sampling worlds consistent with it (determinization).

Spec "Rulings for the engine": hidden are hands (size public), face-down feats, junkyard
contents (count public), deck orders and the other players' same-phase choices; public are the
tableaus, dice, discard pile, assistants, scores, revealed feats and events. "A sampled world must
not contradict what the observer saw: the cards a player passed are known to be in the receiver's
hand or junkyard, unless they were visibly played."

Records (kept in the block of the player they are *about*, :class:`~.player.Player`):

* ``known[x]`` -- cards seat x passed to this player at the last rotation that x knows are still in
  this player's hand or junkyard: a visible play of a type (build, modification, a card to the
  discard pile) removes one of that type, since it may have been one of them.
* ``pj`` -- cards everyone saw enter the junkyard face up (A Harsh Requirement, Recycler Level 2)
  that are still there; ``phj`` -- such cards after a Storehouse swap hid which card left the
  junkyard: they are in hand or junkyard.

Relaxations (the records are coarser than perfect recall; samples satisfy all of them): when a
player passes its hand on, the hand records about it (``known``, ``phj``) are dropped (which of
the passed cards went on, and which sat in the junkyard, is not tracked), except with two players,
where the hand comes back to the passer, who then knows its other passed cards are in the
junkyard; Action feats whose
condition was visibly met are not excluded from the sampled face-down feats, except Storin' Up For
Winter with six or more junkyard cards.

:func:`determinize_state` works from the observer's information only: during a simultaneous phase
every other player is rewound to the phase-start snapshot (the observer saw none of their choices;
in the world they made none), a later actor's decision in progress restarts at its entry step,
the other seats' records (hidden from the observer) keep their sizes but are redrawn from the
sampled cards, and the hidden cards (other hands and junkyards, other face-down feats, the decks) are redealt from
what the observer cannot see, the records' cards first.
"""

from __future__ import annotations

import random
from typing import Any, List

from aiplay.errors import DeterminizationError

from .cards import F_STORIN, FEAT_COUNTS, NUM_FEAT_TYPES, NUM_TINKER_TYPES, TINKER_COUNTS

#: The state (rules.Area1851State, which sits above this module): typed loosely to keep the import tree.
State = Any


def _contains(big: List[int], small: List[int]) -> bool:
    return all(b >= s for b, s in zip(big, small))


def violations(state: State, observer: int) -> List[str]:
    """The records of ``observer`` (and the public ones) that the hidden contents of ``state`` contradict."""
    out: List[str] = []
    for q, b in enumerate(state.players):
        if q == observer:
            continue
        hj = [h + j for h, j in zip(b.hand, b.junk)]
        if not _contains(b.junk, b.pj):
            out.append(f"seat {q}: cards seen entering the junkyard are missing from it")
        if not _contains(hj, b.phj):
            out.append(f"seat {q}: publicly known cards are missing from hand and junkyard")
        if not _contains(hj, b.known[observer]):
            out.append(f"seat {q}: cards seat {observer} passed are missing from hand and junkyard")
    return out


def _expand(counts: List[int]) -> List[int]:
    return [t for t, c in enumerate(counts) for _ in range(c)]


def _resample_records(b: Any, o: int, rng: random.Random) -> None:
    """Other seats' records about ``b`` are hidden from ``o``: keep their sizes, redraw their cards from b's."""
    cards = _expand([h + j for h, j in zip(b.hand, b.junk)])
    for x, rec in enumerate(b.known):
        if x == o or not any(rec):
            continue
        k = min(sum(rec), len(cards))
        new = [0] * NUM_TINKER_TYPES
        for t in rng.sample(cards, k):
            new[t] += 1
        b.known[x] = new


def determinize_state(state: State, observer: int, rng: random.Random) -> State:
    """A world ``observer`` cannot tell from ``state``, its hidden part sampled from ``rng`` (module docstring)."""
    o = observer
    w = state.clone()
    n = len(w.players)
    snap = w.snap
    me = w.players[o]
    if snap is not None:
        for q in range(n):
            if q != o:
                w.players[q] = snap.players[q].clone()
        w.discard = [a + b for a, b in zip(snap.discard, me.disc_add)]
    # The Tinker cards o cannot see.
    pool = list(TINKER_COUNTS)
    for t in range(NUM_TINKER_TYPES):
        pool[t] -= me.hand[t] + me.junk[t] + w.discard[t]
    for b in w.players:
        for gad in b.gadgets:
            for t in gad[:1] + [m for m in gad[1:] if m >= 0]:
                pool[t] -= 1
    forced = {}
    for q in range(n):
        if q == o:
            continue
        b = w.players[q]
        need = [max(a, c, d) for a, c, d in zip(b.known[o], b.phj, b.pj)]
        forced[q] = need
        for t in range(NUM_TINKER_TYPES):
            pool[t] -= need[t]
    if min(pool) < 0:
        raise DeterminizationError("the records ask for more cards than the observer cannot see")
    free = _expand(pool)
    rng.shuffle(free)
    for q in range(n):
        if q == o:
            continue
        b = w.players[q]
        hs, js = b.hand_size(), b.junk_size()
        need = forced[q]
        rest = [t for t, c in enumerate(need) for _ in range(c - b.pj[t])]
        take = hs + js - sum(need)
        if take < 0 or take > len(free):
            raise DeterminizationError(f"seat {q}'s hand and junkyard cannot hold its records")
        cards = rest + free[:take]
        del free[:take]
        rng.shuffle(cards)
        junk = b.pj[:]
        room = js - sum(junk)
        for t in cards[:room]:
            junk[t] += 1
        hand = [0] * NUM_TINKER_TYPES
        for t in cards[room:]:
            hand[t] += 1
        b.hand, b.junk = hand, junk
        b.kept = [0] * NUM_TINKER_TYPES
    deck = [0] * NUM_TINKER_TYPES
    for t in free:
        deck[t] += 1
    w.deck = deck
    # Feats: every face-down feat but o's own, and the feat deck.
    fpool = list(FEAT_COUNTS)
    for f in range(NUM_FEAT_TYPES):
        fpool[f] -= me.down[f]
    for b in w.players:
        for f in b.up:
            fpool[f] -= 1
    feats = _expand(fpool)
    rng.shuffle(feats)
    for q in range(n):
        if q == o:
            continue
        b = w.players[q]
        k = sum(b.down)
        # Storin' Up For Winter is revealed at once with 6+ junkyard cards (unless a copy was this turn).
        barred = b.junk_size() >= 6 and not b.ach_mask >> F_STORIN & 1
        down = [0] * NUM_FEAT_TYPES
        for _ in range(k):
            pick = next((i for i, f in enumerate(feats) if not (barred and f == F_STORIN)), 0)
            down[feats.pop(pick)] += 1
        b.down = down
    fdeck = [0] * NUM_FEAT_TYPES
    for f in feats:
        fdeck[f] += 1
    w.feat_deck = fdeck
    for b in w.players:
        _resample_records(b, o, rng)
    if snap is not None:
        for q in range(n):
            if q != o:
                snap.players[q] = w.players[q].clone()
        _resample_records(snap.players[o], o, rng)
        if w.actor >= 0 and w.actor != o:
            # A later actor's decision in progress restarts at its entry step (its choices are rewound).
            w.actor_done = False
            w._begin_actor()
    return w
