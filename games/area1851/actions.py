"""The Area 1851 action space: one fixed, bounded numbering of atomic decisions.

Every decision is one integer below :data:`NUM_ACTIONS`. Which block an id means depends on the
decision in progress (the state's step), e.g. ``HAND t`` builds or modifies with a card of type
``t`` in the action phase's main step, and keeps it in Hold Some Back. Names parse back
(``action_to_string`` / ``string_to_action``).

=============  =====  ===================================================  =====
block          base   meaning                                              size
=============  =====  ===================================================  =====
DONE             0    end the phase's turn / skip an optional effect          1
TAKE_FEAT        1    Take a feat (1 AP)                                      1
DRAW_CARD        2    a Tinker draw granted by an event (Draw!, Casino 1)     1
YES              3    accept an optional effect (roll, skip, draw, discard)   1
HAND             4    a Tinker card of type t from hand                      54
SCRAP           58    Scrap a card of type t from hand (1 AP)                54
JUNK           112    a Tinker card of type t from the junkyard              54
GADGET         166    your face-up gadget number g                           10
MOD            176    the modification in socket s of gadget g               30
DIE            206    die d (pay with it, Town Hall, choose to re-roll)       3
TWEAK          209    tweak die d by +1 / -1 paying a junkyard card           6
FREE_TWEAK     215    tweak die d by +1 / -1 with the Workshop (free)         6
SET_DIE        221    set die d to face v (1..4)                             12
ACTIVATE       233    activate k (1..3) assistants at location l             15
LOCATION       248    place an assistant at location l                        5
MOVE           253    move an assistant from location a to location b        20
FEAT           273    reveal the Delivery feat of type f                     22
=============  =====  ===================================================  =====

Chance outcomes (``0..53``): a Tinker type at a draw, a feat type at a feat draw, an event at an
event reveal, ``face - 1`` at a die roll.
"""

from __future__ import annotations

from typing import Tuple

from .cards import DICE, MAX_GADGETS, NUM_FEAT_TYPES, NUM_LOCATIONS, NUM_TINKER_TYPES

DONE, TAKE_FEAT, DRAW_CARD, YES = 0, 1, 2, 3
HAND = 4
SCRAP = HAND + NUM_TINKER_TYPES
JUNK = SCRAP + NUM_TINKER_TYPES
GADGET = JUNK + NUM_TINKER_TYPES
MOD = GADGET + MAX_GADGETS
DIE = MOD + 3 * MAX_GADGETS
TWEAK = DIE + DICE
FREE_TWEAK = TWEAK + 2 * DICE
SET_DIE = FREE_TWEAK + 2 * DICE
ACTIVATE = SET_DIE + 4 * DICE
LOCATION = ACTIVATE + 3 * NUM_LOCATIONS
MOVE = LOCATION + NUM_LOCATIONS
FEAT = MOVE + NUM_LOCATIONS * (NUM_LOCATIONS - 1)
NUM_ACTIONS = FEAT + NUM_FEAT_TYPES
assert (SCRAP, JUNK, GADGET, MOD, DIE, TWEAK, FREE_TWEAK, SET_DIE, ACTIVATE, LOCATION, MOVE, FEAT, NUM_ACTIONS) == (
    58, 112, 166, 176, 206, 209, 215, 221, 233, 248, 253, 273, 295)
#: Chance outcomes: the largest space is the Tinker types.
NUM_CHANCE = NUM_TINKER_TYPES


def mod(g: int, s: int) -> int:
    """The modification in socket ``s`` of gadget ``g``."""
    return MOD + 3 * g + s


def tweak(d: int, up: bool) -> int:
    """Tweak die ``d`` by +1 (``up``) or -1, paying a junkyard card."""
    return TWEAK + 2 * d + (0 if up else 1)


def free_tweak(d: int, up: bool) -> int:
    """Tweak die ``d`` by +1 or -1 with the Workshop Level 1 effect."""
    return FREE_TWEAK + 2 * d + (0 if up else 1)


def set_die(d: int, face: int) -> int:
    """Set die ``d`` to ``face`` (1..4): Not Cheatin' If Everybody Does It!."""
    return SET_DIE + 4 * d + face - 1


def activate(loc: int, k: int) -> int:
    """Activate ``k`` (1..3) waiting assistants at location ``loc``."""
    return ACTIVATE + 3 * loc + k - 1


def move(a: int, b: int) -> int:
    """Move an assistant from location ``a`` to location ``b`` (``a != b``)."""
    return MOVE + 4 * a + (b if b < a else b - 1)


def decode(action: int) -> Tuple[str, int, int]:
    """``(block, i, j)`` of an action id: the block name and its indices (``j`` 0 if unused)."""
    if action < HAND:
        return (("DONE", "TAKE_FEAT", "DRAW_CARD", "YES")[action], 0, 0)
    if action < SCRAP:
        return ("HAND", action - HAND, 0)
    if action < JUNK:
        return ("SCRAP", action - SCRAP, 0)
    if action < GADGET:
        return ("JUNK", action - JUNK, 0)
    if action < MOD:
        return ("GADGET", action - GADGET, 0)
    if action < DIE:
        return ("MOD", (action - MOD) // 3, (action - MOD) % 3)
    if action < TWEAK:
        return ("DIE", action - DIE, 0)
    if action < FREE_TWEAK:
        return ("TWEAK", (action - TWEAK) // 2, (action - TWEAK) % 2)
    if action < SET_DIE:
        return ("FREE_TWEAK", (action - FREE_TWEAK) // 2, (action - FREE_TWEAK) % 2)
    if action < ACTIVATE:
        return ("SET_DIE", (action - SET_DIE) // 4, (action - SET_DIE) % 4 + 1)
    if action < LOCATION:
        return ("ACTIVATE", (action - ACTIVATE) // 3, (action - ACTIVATE) % 3 + 1)
    if action < MOVE:
        return ("LOCATION", action - LOCATION, 0)
    if action < FEAT:
        a, r = divmod(action - MOVE, 4)
        return ("MOVE", a, r if r < a else r + 1)
    return ("FEAT", action - FEAT, 0)
