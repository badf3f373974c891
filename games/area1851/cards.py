"""Area 1851 component data: all 162 cards in one table, and the card *types* the engine counts.

Source: spec area1851.md "Tinker cards (108) — our chosen data", "Events" and "Feats" (the
spec wins over the Japanese rulebook summary). :data:`CARDS` lists every physical card once;
the engine stores hands, junkyards, decks and piles as count vectors over *types* (identical
copies are interchangeable), so a later C port keeps small fixed-size integer arrays.

Tinker types (``NUM_TINKER_TYPES`` = 54): per faction ``f`` (0 Alien, 1 Pioneer, 2 Native),
types ``18 f + 0..8`` are the gadget types (socket patterns T, P, F, TP, PF, FT, TPF, TTP, PFF)
and ``18 f + 9 + 3 s + r`` the modification of socket ``s`` (0 Time, 1 Power, 2 Frame) and
rating ``r + 1`` (cost ``r + 2``). Feat types are ``0..21`` (:data:`FEATS`), events ``0..20``.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Tuple

FACTIONS = ("Alien", "Pioneer", "Native")
SOCKETS = ("Time", "Power", "Frame")
SOCKET_LETTERS = "TPF"
#: Modification names per socket type and faction (spec "Tinker cards").
MOD_NAMES = (("Futuristic", "Modern", "Ancient"), ("Crystal", "Steam", "Spirit"), ("Alloy", "Iron", "Bone"))
#: Gadget socket patterns, with copies per faction, cost and rating (spec "Tinker cards").
GADGET_PATTERNS: Tuple[Tuple[str, int, int, int], ...] = (
    ("T", 2, 3, 2), ("P", 1, 3, 2), ("F", 1, 3, 2),
    ("TP", 2, 5, 4), ("PF", 1, 5, 4), ("FT", 1, 5, 4),
    ("TPF", 2, 7, 6), ("TTP", 1, 7, 6), ("PFF", 1, 7, 6),
)
#: Modification levels: (copies per socket type and faction, cost, rating) (spec "Tinker cards").
MOD_LEVELS = ((3, 2, 1), (3, 3, 2), (2, 4, 3))

NUM_FACTIONS = 3
TYPES_PER_FACTION = 18
NUM_TINKER_TYPES = NUM_FACTIONS * TYPES_PER_FACTION


class TinkerType(NamedTuple):
    """One kind of Tinker card (all copies alike)."""
    name: str
    faction: int
    is_gadget: bool
    sockets: Tuple[int, ...]  # gadget: socket types in order; modification: (its socket type,)
    cost: int
    rating: int
    copies: int


def _tinker_types() -> List[TinkerType]:
    out: List[TinkerType] = []
    for f in range(NUM_FACTIONS):
        for pattern, copies, cost, rating in GADGET_PATTERNS:
            sockets = tuple(SOCKET_LETTERS.index(c) for c in pattern)
            out.append(TinkerType(f"{FACTIONS[f]} {pattern} gadget", f, True, sockets, cost, rating, copies))
        for s in range(3):
            for copies, cost, rating in MOD_LEVELS:
                out.append(TinkerType(f"{MOD_NAMES[s][f]} {SOCKETS[s]} mod {rating}", f, False, (s,), cost,
                                      rating, copies))
    return out


TINKER: Tuple[TinkerType, ...] = tuple(_tinker_types())
TINKER_COUNTS: Tuple[int, ...] = tuple(t.copies for t in TINKER)
GADGET_TYPES: Tuple[int, ...] = tuple(i for i, t in enumerate(TINKER) if t.is_gadget)
MOD_TYPES: Tuple[int, ...] = tuple(i for i, t in enumerate(TINKER) if not t.is_gadget)
TINKER_NAMES: Tuple[str, ...] = tuple(t.name for t in TINKER)


def tinker_type(faction: int, index: int) -> int:
    """Type id of the ``index``-th type (0..17) of ``faction``."""
    return faction * TYPES_PER_FACTION + index


def mod_type(faction: int, socket: int, level: int) -> int:
    """Type id of the modification of ``faction``, ``socket`` and level ``0..2`` (rating ``level + 1``)."""
    return faction * TYPES_PER_FACTION + 9 + 3 * socket + level


# -- events (spec "Events") ---------------------------------------------------------------
EVENTS: Tuple[str, ...] = (
    "A Harsh Requirement", "Casino Night", "Draw!", "Dust Storm", "Hold Some Back", "Just the Basics",
    "Learn by Watching", "Missing Time", "No Deliveries Today", "Not Cheatin' If Everybody Does It!",
    "Not So Fast!", "Risky Deal", "Rotate Again", "Scrap Audit", "Smell My Feat", "Solar Flare",
    "Worker Strike", "Trash To Treasure", "The End", "To the Left!", "To the Right!",
)
(E_HARSH, E_CASINO, E_DRAW, E_DUST, E_HOLD, E_BASICS, E_LEARN, E_MISSING, E_NODELIV, E_CHEAT, E_NOTSOFAST,
 E_RISKY, E_ROTATE, E_AUDIT, E_SMELL, E_SOLAR, E_STRIKE, E_TRASH, E_END, E_LEFT, E_RIGHT) = range(21)
NUM_EVENTS = len(EVENTS)
#: What each event does, in a few words (spec "Events"), for the text a person reads: a name
#: alone does not say that Solar Flare leaves one die a player this turn.
EVENT_EFFECTS: Tuple[str, ...] = (
    "now: each player moves a face-up gadget or modification to their junkyard",
    "now: each player rolls a die: 1 draw 2 in the action phase, 2 junk a card, 3 move an assistant, 4 start with 3 AP",
    "action phase: each player may draw 1 Tinker card",
    "now: each player loses a random junkyard card",
    "rotation: each player keeps 2 cards and passes the rest",
    "this turn: no Level 2 effects",
    "delivery: a player who delivered nothing scores 3 per gadget the others delivered",
    "now: the next event is revealed as well",
    "this turn: no delivery phase",
    "preparation: after rolling, each player may set one die to any face",
    "now: the leaders drop to the next lower multiple of 5, everyone else scores 1",
    "now: each player may roll a die: 1 one AP, 2 no draw, 3 nothing, 4 a free build or modification",
    "now: everyone passes their hand again",
    "this turn: nobody may scrap",
    "now: each player may draw 1 feat",
    "this turn: each player may use only 1 of their dice",
    "this turn: no assistant may be activated",
    "now: the lowest score(s) gain 2 per junkyard card",
    "the game ends after this turn's assistant phase",
    "from now on pass left; one more assistant each",
    "from now on pass right; one more assistant each",
)
assert len(EVENT_EFFECTS) == NUM_EVENTS
#: The 18 events shuffled into the blocks (spec "Set-up" 3).
RANDOM_EVENTS: Tuple[int, ...] = tuple(e for e in range(NUM_EVENTS) if e not in (E_END, E_LEFT, E_RIGHT))

# -- feats (spec "Feats") -----------------------------------------------------------------
ACTION, DELIVERY, FINAL = "Action", "Delivery", "Final"


class FeatType(NamedTuple):
    """One kind of Feat card."""
    name: str
    timing: str
    copies: int
    limited: bool
    value: int  # fixed points for Action feats (0 where the points depend on the position)


FEATS: Tuple[FeatType, ...] = (
    FeatType("A Legend Is Born", FINAL, 1, False, 0),
    FeatType("A Little Bit Of It All", FINAL, 1, False, 5),
    FeatType("Diversity Is Overrated", DELIVERY, 2, False, 0),
    FeatType("Feats? Who Needs Feats?", FINAL, 1, False, 0),
    FeatType("Fiddlin'", ACTION, 2, False, 6),
    FeatType("I Need More Junk", ACTION, 2, False, 6),
    FeatType("I'm Unique", FINAL, 1, True, 10),
    FeatType("I've Got Time", DELIVERY, 1, True, 5),
    FeatType("Just A Drop More", FINAL, 1, False, 0),
    FeatType("Just Sittin' Round", ACTION, 1, True, 6),
    FeatType("Loner", FINAL, 1, True, 10),
    FeatType("Make It A Double", DELIVERY, 2, False, 0),
    FeatType("Nosey Neighbor", FINAL, 1, False, 0),
    FeatType("Ooh! That Looks Nice...", FINAL, 1, False, 0),
    FeatType("Packrat", FINAL, 2, False, 0),
    FeatType("Secret Duplication", FINAL, 1, False, 0),
    FeatType("Single Minded", FINAL, 2, False, 5),
    FeatType("Snake Oil Salesman", DELIVERY, 2, False, 0),
    FeatType("Storin' Up For Winter", ACTION, 2, False, 10),
    FeatType("Strength In Diversity", DELIVERY, 2, False, 5),
    FeatType("Synchronized Roll", ACTION, 2, False, 5),
    FeatType("Teamwork", FINAL, 2, False, 10),
)
(F_LEGEND, F_LITTLE, F_DIVERSITY, F_WHONEEDS, F_FIDDLIN, F_MOREJUNK, F_UNIQUE, F_TIME, F_DROP, F_SITTIN, F_LONER,
 F_DOUBLE, F_NOSEY, F_OOH, F_PACKRAT, F_SECRET, F_SINGLE, F_SNAKE, F_STORIN, F_STRENGTH, F_SYNC,
 F_TEAMWORK) = range(22)
NUM_FEAT_TYPES = len(FEATS)
FEAT_COUNTS: Tuple[int, ...] = tuple(f.copies for f in FEATS)
FEAT_NAMES: Tuple[str, ...] = tuple(f.name for f in FEATS)

# -- the one table of all 162 cards ---------------------------------------------------------


class Card(NamedTuple):
    """One physical card: its id (0..161), deck ("Tinker", "Event", "Feat") and type within that deck."""
    id: int
    deck: str
    type: int
    name: str


def _all_cards() -> Tuple[Card, ...]:
    cards: List[Card] = []
    for t, info in enumerate(TINKER):
        for _ in range(info.copies):
            cards.append(Card(len(cards), "Tinker", t, info.name))
    for e, name in enumerate(EVENTS):
        cards.append(Card(len(cards), "Event", e, name))
    for f, info in enumerate(FEATS):
        for _ in range(info.copies):
            cards.append(Card(len(cards), "Feat", f, info.name))
    return tuple(cards)


#: Every card of the game, one row each (162 rows).
CARDS: Tuple[Card, ...] = _all_cards()


def card_counts() -> Dict[str, int]:
    """Cards per deck, read from :data:`CARDS` (spec: 108 Tinker, 21 Event, 33 Feat)."""
    out: Dict[str, int] = {}
    for card in CARDS:
        out[card.deck] = out.get(card.deck, 0) + 1
    return out


# -- board ----------------------------------------------------------------------------------
LOCATIONS = ("Recycler", "Replicator", "Storehouse", "Town Hall", "Workshop")
L_RECYCLER, L_REPLICATOR, L_STOREHOUSE, L_TOWNHALL, L_WORKSHOP = range(5)
NUM_LOCATIONS = 5
DICE = 3
ASSISTANTS = 3
HAND_SIZE = 5
#: Die faces reachable by tweaking (spec "Tweak dice": 0 and 5 are allowed values).
MIN_FACE, MAX_FACE = 0, 5
#: Engine bound (not a rule): gadgets face up in front of one player, for the fixed action space.
MAX_GADGETS = 10
