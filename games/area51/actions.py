"""The Area 51 action space: one fixed, bounded numbering of atomic decisions.

A turn of Area 51 is a chain of small decisions (which action, which target,
which card into which hangar...). Each is one integer below
:data:`NUM_ACTIONS`; identical cards (same colour and value) are one action.

=============  =====  ===========================================  =====
block          base   meaning                                      size
=============  =====  ===========================================  =====
KIND             0    collect / build / vehicle / pick up              4
PASS             4    no legal action at all (spec: "passes")          1
CREATE           5    new bunker: colour c, region r, cap slot j      24
UPGRADE         29    add a level to the bunker at region r, space s  24
ROUTE           53    vehicle v (colour*2+truck/train), route i       48
NUMBER         101    the vehicle's new number k = 1..8                8
PICK           109    pick up the pile of hangar h of region r         9
REFRESH        118    refresh the face-up row, discarding type t      16
TAKE_UP        134    take a face-up card of type t                   16
TAKE_DECK      150    take the top card of the deck                    1
FACE_UP        151    play type t face up into hangar h               48
FACE_DOWN      199    play type t face down into hangar h             48
STORE          247    store type t in the bunker at (r, s)           384
=============  =====  ===========================================  =====

Chance outcomes are card types ``0..15`` (see :mod:`components`).
"""

from __future__ import annotations

from typing import Tuple

from .components import MAX_HANGARS, MAX_SPACES, NUM_COLOURS, NUM_REGIONS, NUM_TYPES, NUM_VEHICLES, ROUTES

KIND_COLLECT, KIND_BUILD, KIND_VEHICLE, KIND_PICKUP = 0, 1, 2, 3
KIND_NAMES = ("collect", "build", "vehicle", "pick up")
PASS = 4
CREATE = 5
UPGRADE = CREATE + NUM_COLOURS * NUM_REGIONS * 2
ROUTE = UPGRADE + NUM_REGIONS * MAX_SPACES
NUMBER = ROUTE + NUM_VEHICLES * len(ROUTES)
PICK = NUMBER + 8
REFRESH = PICK + NUM_REGIONS * MAX_HANGARS
TAKE_UP = REFRESH + NUM_TYPES
TAKE_DECK = TAKE_UP + NUM_TYPES
FACE_UP = TAKE_DECK + 1
FACE_DOWN = FACE_UP + NUM_TYPES * MAX_HANGARS
STORE = FACE_DOWN + NUM_TYPES * MAX_HANGARS
NUM_ACTIONS = STORE + NUM_TYPES * NUM_REGIONS * MAX_SPACES
assert (UPGRADE, ROUTE, NUMBER, PICK, REFRESH, TAKE_UP, TAKE_DECK, FACE_UP, FACE_DOWN, STORE, NUM_ACTIONS) == (
    29, 53, 101, 109, 118, 134, 150, 151, 199, 247, 631)


def create(colour: int, region: int, slot: int) -> int:
    """New bunker of ``colour`` in ``region`` with the player's cap colour ``slot`` (0; 0/1 with 2 players)."""
    return CREATE + (colour * NUM_REGIONS + region) * 2 + slot


def upgrade(region: int, space: int) -> int:
    """One more level for the bunker on ``space`` (0-based) of ``region``."""
    return UPGRADE + region * MAX_SPACES + space


def route(vehicle: int, route_index: int) -> int:
    """Vehicle ``vehicle`` placed (or kept) on route ``ROUTES[route_index]``."""
    return ROUTE + vehicle * len(ROUTES) + route_index


def number(k: int) -> int:
    """The vehicle's number ``k`` (1..8): also the number of face-down cards to play."""
    return NUMBER + k - 1


def pick(region: int, hangar: int) -> int:
    """Pick up the pile of ``hangar`` (0-based) in ``region``."""
    return PICK + region * MAX_HANGARS + hangar


def refresh(t: int) -> int:
    """Discard one card of type ``t`` and the face-up row, then reveal a new row."""
    return REFRESH + t


def take_up(t: int) -> int:
    """Take a face-up card of type ``t``."""
    return TAKE_UP + t


def face_up(t: int, hangar: int) -> int:
    """Play a card of type ``t`` face up into ``hangar``."""
    return FACE_UP + t * MAX_HANGARS + hangar


def face_down(t: int, hangar: int) -> int:
    """Play a card of type ``t`` face down into ``hangar``."""
    return FACE_DOWN + t * MAX_HANGARS + hangar


def store(t: int, region: int, space: int) -> int:
    """Store a type-``t`` artifact of the pile in the bunker on (``region``, ``space``)."""
    return STORE + (t * NUM_REGIONS + region) * MAX_SPACES + space


def decode(action: int) -> Tuple[str, Tuple[int, ...]]:
    """``(block name, arguments)`` of a decision action, e.g. ``("store", (t, r, s))``."""
    if action < PASS:
        return "kind", (action,)
    if action == PASS:
        return "pass", ()
    if action < UPGRADE:
        x = action - CREATE
        return "create", (x // 2 // NUM_REGIONS, x // 2 % NUM_REGIONS, x % 2)
    if action < ROUTE:
        x = action - UPGRADE
        return "upgrade", (x // MAX_SPACES, x % MAX_SPACES)
    if action < NUMBER:
        x = action - ROUTE
        return "route", (x // len(ROUTES), x % len(ROUTES))
    if action < PICK:
        return "number", (action - NUMBER + 1,)
    if action < REFRESH:
        x = action - PICK
        return "pick", (x // MAX_HANGARS, x % MAX_HANGARS)
    if action < TAKE_UP:
        return "refresh", (action - REFRESH,)
    if action < TAKE_DECK:
        return "take_up", (action - TAKE_UP,)
    if action == TAKE_DECK:
        return "take_deck", ()
    if action < FACE_DOWN:
        x = action - FACE_UP
        return "face_up", (x // MAX_HANGARS, x % MAX_HANGARS)
    if action < STORE:
        x = action - FACE_DOWN
        return "face_down", (x // MAX_HANGARS, x % MAX_HANGARS)
    if action < NUM_ACTIONS:
        x = action - STORE
        return "store", (x // MAX_SPACES // NUM_REGIONS, x // MAX_SPACES % NUM_REGIONS, x % MAX_SPACES)
    raise ValueError(f"{action} is not an Area 51 action (0..{NUM_ACTIONS - 1})")
