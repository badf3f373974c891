"""What each Groom Lake player knows, and sampling worlds consistent with it (determinization).

What is hidden (spec groom_lake.md "Information"): roles (each player knows
its own; a Hunter's strike reveals the Hunter's and the victim's; a player
killed by vote keeps it hidden), hands (sizes are public), the supply deck and
the Refresh stack (sizes public), the tile stacks and the tile discard pool
(sizes public, and the stack each pool tile came from: the backs show it), the
tiles a scout holds, the cards an investigator drew, the face-down cards being
handed out, and the cards each player keeps at set-up.

The records kept in the state (:class:`~.rules.RulesState`), each a fact every
state reached by play satisfies (:func:`knowledge_violations` lists the ones a
state contradicts):

* ``known[p]`` (public): cards everyone saw entering p's hand (the Discard
  Stack's top card taken at a turn's end) that cannot have left it unseen: it
  is cleared as soon as p puts any card face down, and shrinks when p
  discards that type face up. They are in p's hand.
* ``deck_known[o]`` (private to o): cards o knows are in the supply deck: o's
  nine set-up cards going back, and the Refresh stack's cards o put there once
  it becomes the deck. A face-up draw of a type lowers the count of that type;
  a hidden draw (an investigation) clears it for everyone but the investigator.
* ``refresh_known[o]`` (private): cards o put face down on the Refresh stack
  since it was last shuffled into the deck. They are on the Refresh stack.
* ``pool_known[o]`` (private): tiles o put in the discard pool and not placed
  since; they are in the pool or in the hands of a scout who drew them.
* The Alien's set-up: during the deal and until the Alien has kept its 3
  cards, its hand holds its two set-up Recovery cards (those dealt so far);
  during play a living Alien holds less than 50 Technology AP (else it would
  have won); a scout about to place holds a tile that fits somewhere.

Documented relaxations (the records are coarser than perfect recall): a world
sampled for o gives the other players empty private records (theirs are
hidden from o, so keeping them would leak, and an invented one could be
false); which of
o's set-up cards were drawn back out of the deck by hidden draws, the other
players' set-up hands (the Alien's twelve cards held two Recovery cards), and
the past fit of a tile that went to the pool are not tracked.

:func:`determinize` samples as a function of the observer's information (its
:meth:`~.rules.RulesState.view`) and the generator only -- never the true
hidden contents -- so twins give equal worlds: roles among the assignments
consistent with o's role, the revealed roles and the game still being on,
each weighted by the public evidence against its Alien (:func:`alien_weight`;
uniformly while the roles are dealt); then every hidden card (all cards
minus those o sees) is dealt to the hidden places, the records' cards first, the Alien's hand drawn card by
card below its weapon; then each stack's unaccounted tiles to the stack, the
pool and the scout's hand, o's known pool tiles first.
"""

from __future__ import annotations

import random
from typing import List

from aiplay.errors import DeterminizationError

from .board import placements
from .components import (
    ALIEN, ALIEN_WEAPON_AP, AP_VALUE, FIRST_DEAL, HUMAN, HUNTER, NUM_STACKS, NUM_TYPES, RECOVERY, STACK_TILES,
    TECH, TILES, TYPE_COUNTS, has_hunter, tech_ap,
)
from .rules import S_DEAL, S_INV_DRAW, S_INV_KEEP, S_KEEP, S_KEEP_TILE, S_OVER, S_PLACE, S_ROLES, S_TILE, RulesState


def forced_recovery(state: RulesState, seat: int) -> int:
    """Recovery cards the hand of ``seat`` must hold if it is the Alien (its set-up cards, until it has kept)."""
    first = FIRST_DEAL * state.n
    if state.step == S_ROLES or (state.step == S_DEAL and (state.dealt <= first or state.deal_together())):
        return sum(1 for k in range(min(state.dealt, first)) if k % state.n == seat)
    if state.step == S_DEAL and seat >= state.deal_seat():
        return FIRST_DEAL
    if state.step == S_KEEP and seat > state.cur:
        return FIRST_DEAL
    return 0


def _alien_limited(state: RulesState) -> bool:
    """True when a living Alien must hold less than its weapon's Technology AP (play, not over)."""
    return not state.in_setup() and state.step != S_OVER


def knowledge_violations(state: RulesState, observer: int) -> List[str]:
    """One readable line per record (public, or ``observer``'s own) that the actual contents contradict."""
    out: List[str] = []
    o = observer
    for p in range(state.n):
        for t in range(NUM_TYPES):
            if state.known[p][t] > state.hands[p][t]:
                out.append(f"known[{p}][{t}]: seat {p} is known to hold {state.known[p][t]} of type {t}")
    for t in range(NUM_TYPES):
        if state.deck_known[o][t] > state.deck[t]:
            out.append(f"deck_known[{o}][{t}]: the deck holds fewer than the {state.deck_known[o][t]} seen going in")
        if state.refresh_known[o][t] > state.refresh[t]:
            out.append(f"refresh_known[{o}][{t}]: the Refresh stack holds fewer than the {state.refresh_known[o][t]} "
                       f"put there")
    for tile in state.pool_known[o]:
        if tile not in state.pool and tile not in state.held:
            out.append(f"pool_known[{o}]: tile {tile} was put in the pool and never placed")
    a = state.alien_seat()
    if a >= 0:
        need = forced_recovery(state, a)
        if need and state.hands[a][RECOVERY] < need:
            out.append(f"hands[{a}]: the Alien holds its {need} set-up Recovery cards")
        if _alien_limited(state) and state.alive(a) and tech_ap(state.hands[a]) >= ALIEN_WEAPON_AP:
            out.append(f"hands[{a}]: a living Alien with 50 Technology AP would have won")
    if state.step == S_PLACE and state.held and placements(
            state.placed, state.grid(), (state.team[0], state.team[1]), state.held[0])[0] is None:
        out.append("held: the scout holds a tile that fits nowhere, yet is placing it")
    return out


def _role_worlds(state: RulesState, o: int) -> List[List[int]]:
    """Every role assignment ``o`` cannot rule out, sorted (as lists of roles by seat)."""
    n = state.n
    known = {q: state.roles[q] for q in range(n) if q == o or state.revealed[q]}
    if state.step == S_ROLES:
        # Dealing the roles: only the Alien's seat may exist so far.
        if ALIEN not in state.roles:
            return [list(state.roles)]
        if state.roles[o] == ALIEN:
            return [list(state.roles)]
        return [[ALIEN if q == a else -1 for q in range(n)] for q in [0] for a in range(n) if a != o]
    worlds = []
    hunters = range(n) if has_hunter(n) else [-1]
    for a in range(n):
        for h in hunters:
            if h == a:
                continue
            roles = [ALIEN if q == a else HUNTER if q == h else HUMAN for q in range(n)]
            if any(roles[q] != r for q, r in known.items()):
                continue
            if not state.in_setup() and not any(state.life[q] > 0 and roles[q] != ALIEN for q in range(n)):
                continue  # the game would be over
            worlds.append(roles)
    return worlds


def determinize(state: RulesState, observer: int, rng: random.Random) -> RulesState:
    """A full state ``observer`` cannot tell from ``state``, its hidden parts dealt from ``rng``."""
    if state.step == S_OVER:
        return state.clone()  # the end reveals the roles and the winners' Alien Proof
    for _ in range(20):
        world = _sample(state, observer, rng)
        if world is not None:
            return world
    raise DeterminizationError(f"no world consistent with seat {observer}'s knowledge found")


def _expand(counts: List[int]) -> List[int]:
    return [t for t in range(NUM_TYPES) for _ in range(counts[t])]


def _take(pool: List[int], counts: List[int]) -> bool:
    """Remove ``counts`` from ``pool`` (False if it does not hold them)."""
    for t in range(NUM_TYPES):
        if pool[t] < counts[t]:
            return False
    for t in range(NUM_TYPES):
        pool[t] -= counts[t]
    return True


def alien_weight(state: RulesState, seat: int) -> int:
    """How strongly the public record points at ``seat`` being the Alien: 1 plus the hazard rounds
    it joined beyond the items it gave (``stats``), the heuristic's suspicion.

    A world sampled for a search gives the Alien's role to a seat in proportion to this weight
    (among the assignments the observer cannot rule out). Uniform roles made a searching Human
    blind to the record: in a three-player game, asked to vote on a seat that had given to
    every hazard, it searched worlds where that seat was the Alien half the time. The Alien,
    which gives nothing to hazards unless it plays at looking busy, builds the record; a Human
    gives what it can. (Beside the static evaluation of the same change it added 6 Human
    wins in 134 games, within the noise: benchmarks/RESULTS.md, "Groom Lake's static
    evaluation and the role belief".)
    """
    rounds, items = state.stats[seat]
    return 1 + max(0, rounds - items)


def _pick_roles(state: RulesState, o: int, rng: random.Random) -> List[int]:
    """One role assignment for a world of ``o``'s: by :func:`alien_weight` of its Alien, uniform during the role deal."""
    worlds = _role_worlds(state, o)
    if state.step == S_ROLES:
        return rng.choice(worlds)
    weights = [alien_weight(state, roles.index(ALIEN)) for roles in worlds]
    draw = rng.randrange(sum(weights))
    for roles, weight in zip(worlds, weights):
        draw -= weight
        if draw < 0:
            return roles
    raise AssertionError("unreachable: the draw is below the total weight")  # pragma: no cover


def _sample(state: RulesState, o: int, rng: random.Random):
    n = state.n
    world = state.clone()
    roles = _pick_roles(state, o, rng)
    world.roles = roles
    a = roles.index(ALIEN) if ALIEN in roles else -1

    # -- cards: everything o does not see is hidden ------------------------------------
    keeper = state.cur if state.step == S_KEEP else -1
    investigator = state.cur if state.step in (S_INV_DRAW, S_INV_KEEP) else -1
    hidden = list(TYPE_COUNTS)
    hidden[RECOVERY] -= state.recoveries
    seen = [0] * NUM_TYPES
    for t in state.discard:
        seen[t] += 1
    for t in range(NUM_TYPES):
        seen[t] += state.hands[o][t] + sum(state.known[p][t] for p in range(n) if p != o)
        if keeper == o:
            seen[t] += state.kept[t]
        if investigator == o:
            seen[t] += state.inv_cards[t]
    if not _take(hidden, seen):
        return None
    # The hidden places and their sizes (public).
    in_deal = state.step in (S_ROLES, S_DEAL)
    reserve = 0
    if in_deal:
        # The Alien's set-up Recovery cards not dealt yet (all of them before its seat is known).
        first = FIRST_DEAL * n
        reserve = FIRST_DEAL - (sum(1 for k in range(min(state.dealt, first)) if k % n == a) if a >= 0 else 0)
    public_deck = sum(state.deck) + (state._reserve() if in_deal else 0)
    deck_slots = public_deck - reserve
    hand_slots = {p: state.hand_size(p) - sum(state.known[p]) for p in range(n) if p != o}
    world.deck = [0] * NUM_TYPES
    world.refresh = list(state.refresh_known[o])
    if not _take(hidden, state.refresh_known[o]):
        return None
    deck_fixed = list(state.deck_known[o])
    if not _take(hidden, deck_fixed):
        return None
    # Reserve Recovery cards (the Alien's set-up cards not dealt yet) and the Alien's dealt ones.
    rec = [0] * NUM_TYPES
    rec[RECOVERY] = reserve
    if not _take(hidden, rec):
        return None
    hands = {p: list(state.known[p]) for p in hand_slots}
    if a >= 0 and a != o:
        need = forced_recovery(state, a)
        if need:
            if hand_slots[a] < need or hidden[RECOVERY] < need:
                return None
            hidden[RECOVERY] -= need
            hands[a][RECOVERY] += need
            hand_slots[a] -= need
        if _alien_limited(state) and state.life[a] > 0:
            # The Alien's hand card by card, never reaching its weapon's 50 Technology AP.
            for _ in range(hand_slots[a]):
                room = ALIEN_WEAPON_AP - 1 - tech_ap(hands[a])
                weights = [hidden[t] if (t not in TECH or AP_VALUE[t] <= room) else 0 for t in range(NUM_TYPES)]
                total = sum(weights)
                if total == 0:
                    return None
                x = rng.randrange(total)
                for t in range(NUM_TYPES):
                    if x < weights[t]:
                        break
                    x -= weights[t]
                hidden[t] -= 1
                hands[a][t] += 1
            hand_slots[a] = 0
    cards = _expand(hidden)
    rng.shuffle(cards)
    pos = 0

    def deal(k: int) -> List[int]:
        nonlocal pos
        out = [0] * NUM_TYPES
        for t in cards[pos:pos + k]:
            out[t] += 1
        pos += k
        return out

    for p in sorted(hand_slots):
        got = deal(hand_slots[p])
        hands[p] = [x + y for x, y in zip(hands[p], got)]
    if keeper >= 0 and keeper != o:
        world.kept = deal(sum(state.kept))
    if investigator >= 0 and investigator != o:
        world.inv_cards = deal(sum(state.inv_cards))
    world.handout = deal(sum(state.handout))
    world.refresh = [x + y for x, y in zip(world.refresh, deal(sum(state.refresh) - sum(state.refresh_known[o])))]
    world.deck = [x + y for x, y in zip(deck_fixed, deal(deck_slots - sum(deck_fixed)))]
    if pos != len(cards):
        return None
    for p, h in hands.items():
        world.hands[p] = h

    # -- tiles ------------------------------------------------------------------------------
    scouter = state.turn if state.step in (S_TILE, S_KEEP_TILE, S_PLACE) else -1
    placed = {t[0] for t in state.placed}
    o_held = set(state.held) if scouter == o else set()
    pool_origins = [0] * NUM_STACKS
    for t in state.pool:
        pool_origins[TILES[t].stack] += 1
    held_origins = [TILES[t].stack for t in state.held]
    new_stacks: List[List[int]] = []
    new_pool: List[int] = []
    new_held: List[int] = list(state.held) if scouter == o else []
    for s in range(NUM_STACKS):
        free = [t for t in STACK_TILES[s] if t not in placed and t not in o_held]
        known = [t for t in state.pool_known[o] if TILES[t].stack == s and t in free]
        free = [t for t in free if t not in known]
        rng.shuffle(known)
        pool_s = known[:pool_origins[s]]
        extra_known = known[pool_origins[s]:]  # drawn from the pool by the scout in progress
        held_s = list(extra_known) if scouter != o else []
        need_held = (held_origins.count(s) if scouter != o else 0) - len(held_s)
        if need_held < 0:
            return None
        if state.step == S_PLACE and scouter != o and need_held == 1:
            # The scout is placing: its tile fits somewhere (the state offers a placement).
            fitting = [t for t in sorted(free) if placements(state.placed, state.grid(),
                                                              (state.team[0], state.team[1]), t)[0] is not None]
            if not fitting:
                return None
            pick = rng.choice(fitting)
            free.remove(pick)
            held_s.append(pick)
            need_held = 0
        rng.shuffle(free)
        need_pool = pool_origins[s] - len(pool_s)
        if need_pool < 0 or need_pool + need_held + len(state.stacks[s]) != len(free):
            return None
        pool_s += free[:need_pool]
        held_s += free[need_pool:need_pool + need_held]
        new_stacks.append(sorted(free[need_pool + need_held:]))
        new_pool += pool_s
        new_held += held_s
    world.stacks = new_stacks
    world.pool = sorted(new_pool)
    if scouter != o and len(state.held) == 2:
        new_held.sort()
    world.held = new_held if scouter != o else list(state.held)
    # The other players' private records are hidden from o: the world gives them none (a
    # record may only be dropped, never invented; their truth would leak what o cannot see).
    for p in range(n):
        if p != o:
            world.deck_known[p] = [0] * NUM_TYPES
            world.refresh_known[p] = [0] * NUM_TYPES
            world.pool_known[p] = []
    if knowledge_violations(world, o):
        return None
    return world
