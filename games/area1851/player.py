"""One Area 1851 player's block of the state, and the snapshot taken when a simultaneous phase starts.

Everything a player owns or did this turn lives in :class:`Player` (small integer arrays and
bounded lists, ready for a fixed-size C port): hand and junkyard as count vectors over the 54
Tinker types, gadgets, dice, assistants, feats, per-turn counters, and the knowledge records
*about* this player (what others know is in its hand or junkyard; :mod:`.knowledge`).

Spec ruling "Simultaneous phases are played as a fixed seat-order sequence in which a player does
not see the other players' choices of the same phase until the phase ends": the state keeps a
:class:`Snapshot` of every block (and the shared piles) taken at the start of such a phase; while
it lasts, an observer sees the other players as in the snapshot, and the shared piles as in the
snapshot plus their own changes (``disc_add``, ``drawn``, ``fdrawn``).

Bounds for the C port (every list is bounded): hand, junk, kept, pj, phj, disc_add and each
known[x]: 54 counts of at most 108 (uint8); gadgets: at most ``MAX_GADGETS`` (10) rows of 4 int8
(type, three sockets, -1 empty/absent); dice/used/tweaks: 3; wait/active/loc_used: 5; down: 22
counts <= 2; up: <= 33 feat types; todo: <= 12 event choices (two events a turn ask at most 4).
The state adds: queue <= 8n + 8 chance items of 3 small ints, events <= 21, turn_events <= 3,
phase and step as enums, ctx as the fixed keys of ``rules.CTX_KEYS`` (+ ``ret``), and the snapshot
(n more blocks, the discard pile and two deck sizes).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .cards import ASSISTANTS, DICE, NUM_FEAT_TYPES, NUM_LOCATIONS, NUM_TINKER_TYPES, TINKER

#: Player fields, in serialization order, with their kind: "vec" (54 counts), "int", "ints" (fixed
#: short list), "gadgets", "feats_up", "records" (n vectors of 54), "todo".
PLAYER_FIELDS = (
    "hand", "junk", "gadgets", "dice", "used", "wait", "active", "reserve", "score", "down", "up",
    "ap", "ap_base", "loc_used", "free_tweak", "bonus_draws", "no_draw", "skip", "tweaks", "scraps",
    "delivered", "flare", "ach_mask", "todo", "kept", "known", "pj", "phj", "disc_add", "drawn", "fdrawn",
)


class Player:
    """The block of one seat (see the module docstring)."""

    __slots__ = PLAYER_FIELDS

    def __init__(self, n: int):
        self.hand: List[int] = [0] * NUM_TINKER_TYPES
        self.junk: List[int] = [0] * NUM_TINKER_TYPES
        # gadgets: [type, mod in socket 0, ...] with -1 for an empty socket (one entry per socket).
        self.gadgets: List[List[int]] = []
        self.dice: List[int] = [1] * DICE
        self.used: List[int] = [0] * DICE
        self.wait: List[int] = [0] * NUM_LOCATIONS  # assistants on each location's waiting space
        self.active: List[int] = [0] * NUM_LOCATIONS  # assistants on each location's effect space
        self.reserve = ASSISTANTS  # assistants not on the board
        self.score = 0
        self.down: List[int] = [0] * NUM_FEAT_TYPES  # face-down feats (owner only)
        self.up: List[int] = []  # revealed feat types, in order of reveal
        self.ap = 0
        self.ap_base = 2
        self.loc_used: List[int] = [0] * NUM_LOCATIONS  # one effect per location per turn
        self.free_tweak = 0  # Workshop Level 1 token for this action phase
        self.bonus_draws = 0  # Draw! / Casino Night 1
        self.no_draw = 0  # Risky Deal 2
        self.skip = 0  # skipped this turn's preparation (Just Sittin' Round)
        self.tweaks: List[int] = [0] * DICE  # tweaks per die this turn (Fiddlin')
        self.scraps = 0  # Scrap actions this action phase (I Need More Junk)
        self.delivered = 0  # gadgets delivered this turn (Learn by Watching)
        self.flare = -1  # Solar Flare: the one die used this turn
        self.ach_mask = 0  # Action feat types achieved this turn (one copy per type and turn)
        self.todo: List[int] = []  # event choices still to make this turn
        self.kept: List[int] = [0] * NUM_TINKER_TYPES  # Hold Some Back
        # Knowledge records about this player (knowledge.py): known[x] = cards seat x passed here and
        # knows to be in this hand or junkyard; pj = cards everyone saw enter the junkyard (still
        # there); phj = cards everyone knows are in hand or junkyard.
        self.known: List[List[int]] = [[0] * NUM_TINKER_TYPES for _ in range(n)]
        self.pj: List[int] = [0] * NUM_TINKER_TYPES
        self.phj: List[int] = [0] * NUM_TINKER_TYPES
        # Own changes to the shared piles in the current simultaneous phase.
        self.disc_add: List[int] = [0] * NUM_TINKER_TYPES
        self.drawn = 0
        self.fdrawn = 0

    def clone(self) -> "Player":
        """An independent copy."""
        o = Player.__new__(Player)
        o.hand = self.hand[:]
        o.junk = self.junk[:]
        o.gadgets = [g[:] for g in self.gadgets]
        o.dice = self.dice[:]
        o.used = self.used[:]
        o.wait = self.wait[:]
        o.active = self.active[:]
        o.reserve = self.reserve
        o.score = self.score
        o.down = self.down[:]
        o.up = self.up[:]
        o.ap = self.ap
        o.ap_base = self.ap_base
        o.loc_used = self.loc_used[:]
        o.free_tweak = self.free_tweak
        o.bonus_draws = self.bonus_draws
        o.no_draw = self.no_draw
        o.skip = self.skip
        o.tweaks = self.tweaks[:]
        o.scraps = self.scraps
        o.delivered = self.delivered
        o.flare = self.flare
        o.ach_mask = self.ach_mask
        o.todo = self.todo[:]
        o.kept = self.kept[:]
        o.known = [k[:] for k in self.known]
        o.pj = self.pj[:]
        o.phj = self.phj[:]
        o.disc_add = self.disc_add[:]
        o.drawn = self.drawn
        o.fdrawn = self.fdrawn
        return o

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready data (every field)."""
        return {
            "hand": self.hand[:], "junk": self.junk[:], "gadgets": [g[:] for g in self.gadgets],
            "dice": self.dice[:], "used": self.used[:], "wait": self.wait[:], "active": self.active[:],
            "reserve": self.reserve, "score": self.score, "down": self.down[:], "up": self.up[:], "ap": self.ap,
            "ap_base": self.ap_base, "loc_used": self.loc_used[:], "free_tweak": self.free_tweak,
            "bonus_draws": self.bonus_draws, "no_draw": self.no_draw, "skip": self.skip, "tweaks": self.tweaks[:],
            "scraps": self.scraps, "delivered": self.delivered, "flare": self.flare, "ach_mask": self.ach_mask,
            "todo": self.todo[:], "kept": self.kept[:], "known": [k[:] for k in self.known], "pj": self.pj[:],
            "phj": self.phj[:], "disc_add": self.disc_add[:], "drawn": self.drawn, "fdrawn": self.fdrawn,
        }

    # -- small queries --------------------------------------------------------------------------
    def hand_size(self) -> int:
        return sum(self.hand)

    def junk_size(self) -> int:
        return sum(self.junk)

    def on_board(self) -> int:
        return sum(self.wait) + sum(self.active)

    def junk_rating(self) -> int:
        """Total rating of the junkyard's cards (the first tie-break)."""
        return sum(c * TINKER[t].rating for t, c in enumerate(self.junk))


class Snapshot:
    """Every block, the discard pile and the deck sizes at the start of a simultaneous phase.

    Only the sizes of the decks are kept: nobody sees their order or contents.
    """

    __slots__ = ("players", "discard", "deck_size", "feat_size")

    def __init__(self, players: List[Player], discard: List[int], deck_size: int, feat_size: int):
        self.players = players
        self.discard = discard
        self.deck_size = deck_size
        self.feat_size = feat_size

    def clone(self) -> "Snapshot":
        return Snapshot([p.clone() for p in self.players], self.discard[:], self.deck_size, self.feat_size)

    def to_dict(self) -> Dict[str, Any]:
        return {"players": [p.to_dict() for p in self.players], "discard": self.discard[:],
                "deck_size": self.deck_size, "feat_size": self.feat_size}


def clone_snapshot(snap: Optional[Snapshot]) -> Optional[Snapshot]:
    """A copy of ``snap`` (None stays None)."""
    return None if snap is None else snap.clone()
