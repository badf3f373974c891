# cython: language_level=3
"""Native kernel of Liar's Dice; the rules are those of ``aiplay.games.liars_dice.rules``.

Every rule here mirrors the reference engine (``games/liars_dice/rules.py``,
itself OpenSpiel's ``liars_dice``) step for step, options included
(``players``, ``numdice``, ``dice_sides``, ``bidding_rule``); the differential
test checks it move by move. See that module for the rule statements.

Bids are strictly increasing, so the bid sequence is the set of bids made: one
bit per action id (the last bid and the count are kept beside it for speed).
The k-th bid was made by seat ``k % players``, since seat 0 bids first.
"""

from libc.stdint cimport int8_t, int16_t, int64_t, uint64_t
from libc.string cimport memcpy, memset

from aiplay._ext.kernel cimport K_CHANCE, K_TERMINAL, Kernel, mix64, NativeState, Rng, rng_below

from math import comb

from aiplay.errors import InvalidStateError
from aiplay.game import require_list

cdef enum:
    MAX_PLAYERS = 4                   # rules.MAX_PLAYERS
    MAX_DICE = 5                      # rules.MAX_DICE (per player)
    MAX_SIDES = 8                     # rules.MAX_SIDES
    MAX_ALL_DICE = MAX_PLAYERS * MAX_DICE
    BID_WORDS = 3                     # 64 * 3 > MAX_ALL_DICE * MAX_SIDES + 1 action ids
    UNROLLED = -1


cdef struct LiarsC:
    uint64_t bids[BID_WORDS]          # bit b: action id b was played (Liar included)
    int16_t last_bid                  # the last bid's id, -1 before the first bid
    int16_t num_bids                  # bids so far, Liar included
    int8_t dice[MAX_ALL_DICE]         # seat p's slot d at p * numdice + d: face 1..sides, UNROLLED
    int8_t rolled                     # dice rolled so far, seat by seat
    int8_t winner                     # -1 until Liar is called
    int8_t loser


cdef class LiarsDiceKernel(Kernel):
    """Liar's Dice with fixed options (players, numdice, dice_sides, bidding_rule)."""

    cdef int players, numdice, sides, total, liar, unseen
    cdef bint reset_face
    # The heuristic's chances (heuristic.bid_chance) as integers over sides ** unseen:
    # tail[h][m] = ways for at least m of the unseen dice to match, each die having h
    # matching faces (h = 1 for the wild face, 2 otherwise); a bid needs m <= total.
    cdef int64_t tail[3][MAX_ALL_DICE + 2]
    cdef int64_t worlds                # sides ** unseen

    def __init__(self, int players, int numdice, int sides, bint reset_face):
        if not (2 <= players <= MAX_PLAYERS and 1 <= numdice <= MAX_DICE and 2 <= sides <= MAX_SIDES):
            raise ValueError("options outside the kernel's arrays")  # the game's options refuse them first
        self.state_size = sizeof(LiarsC)
        self.num_players = players
        self.players = players
        self.numdice = numdice
        self.sides = sides
        self.total = players * numdice
        self.liar = self.total * sides
        self.reset_face = reset_face
        self.num_distinct_actions = self.liar + 1
        self.max_chance_outcomes = sides
        self.min_utility = -1.0
        self.max_utility = 1.0
        self.perfect_information = False
        self.unseen = self.total - numdice
        self._fill_tails()
        self.has_policy = True
        self._allocate_scratch()

    def _fill_tails(self):
        """Fill ``tail`` and ``worlds`` with Python integers (exact: at most 8 ** 15 < 2 ** 63)."""
        cdef int h, m
        u, sides = self.unseen, self.sides
        self.worlds = sides ** u
        for h in (1, 2):
            for m in range(MAX_ALL_DICE + 2):  # beyond u: no way (an empty sum)
                self.tail[h][m] = sum(comb(u, i) * h ** i * (sides - h) ** (u - i) for i in range(m, u + 1))

    # -- helpers (LiarsDiceState's private methods) ---------------------------
    cdef inline void _sort_seats(self, LiarsC* st) noexcept nogil:
        """Sort each seat's dice (OpenSpiel does it once the last die is rolled): insertion sort."""
        cdef int p, i, j, v, base
        for p in range(self.players):
            base = p * self.numdice
            for i in range(1, self.numdice):
                v = st.dice[base + i]
                j = i - 1
                while j >= 0 and st.dice[base + j] > v:
                    st.dice[base + j + 1] = st.dice[base + j]
                    j -= 1
                st.dice[base + j + 1] = <int8_t>v

    cdef inline void _resolve(self, LiarsC* st) noexcept nogil:
        """Settle the call: the last bid against every die (the highest face is wild)."""
        cdef int quantity, face, d, matches = 0
        cdef int calls = st.num_bids - 1
        if self.reset_face:
            quantity = st.last_bid // self.sides + 1
            face = st.last_bid % self.sides + 1
        else:
            quantity = st.last_bid % self.total + 1
            face = st.last_bid // self.total + 1
        for d in range(self.total):
            if st.dice[d] == face or st.dice[d] == self.sides:
                matches += 1
        if matches >= quantity:
            st.winner = <int8_t>((calls - 1) % self.players)
            st.loser = <int8_t>(calls % self.players)
        else:
            st.winner = <int8_t>(calls % self.players)
            st.loser = <int8_t>((calls - 1) % self.players)

    # -- the kernel interface -------------------------------------------------
    cdef void init_state(self, void* s) noexcept nogil:
        cdef LiarsC* st = <LiarsC*>s
        cdef int d
        memset(s, 0, sizeof(LiarsC))  # padding bytes too: state_hash reads raw bytes
        for d in range(MAX_ALL_DICE):
            st.dice[d] = UNROLLED
        st.last_bid = -1
        st.winner = -1
        st.loser = -1

    cdef void clone_into(self, const void* src, void* dst) noexcept nogil:
        # A constant size: copied inline, where the generic memcpy of state_size bytes is a libc call.
        memcpy(dst, src, sizeof(LiarsC))

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const LiarsC* st = <const LiarsC*>s
        if st.winner >= 0:
            return K_TERMINAL
        if st.rolled < self.total:
            return K_CHANCE
        return st.num_bids % self.players

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const LiarsC* st = <const LiarsC*>s
        cdef int b, n = 0
        for b in range(st.last_bid + 1, self.liar):
            out[n] = b
            n += 1
        if st.num_bids > 0:
            out[n] = self.liar
            n += 1
        return n

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef double p = 1.0 / <double>self.sides  # the reference's (OpenSpiel's) expression
        cdef int face
        for face in range(self.sides):
            outcomes[face] = face
            probs[face] = p
        return self.sides

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        return rng_below(rng, self.sides)

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef LiarsC* st = <LiarsC*>s
        if st.rolled < self.total:
            st.dice[st.rolled] = <int8_t>(action + 1)
            st.rolled += 1
            if st.rolled == self.total:
                self._sort_seats(st)
            return
        st.bids[action >> 6] |= (<uint64_t>1) << (action & 63)
        st.num_bids += 1
        if action == self.liar:
            self._resolve(st)
        else:
            st.last_bid = <int16_t>action

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const LiarsC* st = <const LiarsC*>s
        cdef int p
        for p in range(self.players):
            out[p] = 0.0
        if st.winner >= 0:
            out[st.winner] = 1.0
            out[st.loser] = -1.0

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # The reference information state is the seat's dice as they lie
        # (roll order, unrolled ones, sorted once all are rolled) and every
        # bid: the seat's dice slots and the bid set, nothing else (how far
        # the other seats' rolls are is not in it). Packed injectively: the
        # seat (2 bits) and each slot's face + 1 (0..8, 4 bits each, 5 slots),
        # then the bid words chained through the bijective mix.
        cdef const LiarsC* st = <const LiarsC*>s
        cdef uint64_t head = <uint64_t>player
        cdef uint64_t h
        cdef int d, w
        for d in range(self.numdice):
            head |= (<uint64_t>(st.dice[player * self.numdice + d] + 1)) << (2 + 4 * d)
        h = mix64(head ^ <uint64_t>0x6C69617273646963)  # a salt: head 0 must not map to 0
        for w in range(BID_WORDS):
            h = mix64(h ^ st.bids[w])
        return h

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # LiarsDiceState.determinize: every other seat's rolled dice are
        # rolled afresh (uniform faces; the number rolled is public, so the
        # draws never depend on the hidden faces), sorted if every die is
        # rolled, and a finished game is settled again with the new dice.
        cdef LiarsC* st = <LiarsC*>s
        cdef int d
        for d in range(st.rolled):
            if d // self.numdice != observer:
                st.dice[d] = <int8_t>(rng_below(rng, self.sides) + 1)
        if st.rolled == self.total:
            self._sort_seats(st)  # the observer's dice are sorted already: sorting them again keeps them
        if st.winner >= 0:
            self._resolve(st)
        return True

    cdef inline int64_t _bid_chance(self, const LiarsC* st, int player, int bid) noexcept nogil:
        """heuristic.bid_chance: sides ** unseen times the chance that ``bid`` holds for ``player``."""
        cdef int quantity, face, d, need, v
        if self.reset_face:
            quantity = bid // self.sides + 1
            face = bid % self.sides + 1
        else:
            quantity = bid % self.total + 1
            face = bid // self.total + 1
        need = quantity
        for d in range(self.numdice):
            v = st.dice[player * self.numdice + d]
            if v == face or v == self.sides:
                need -= 1
        if need < 0:
            need = 0
        return self.tail[1 if face == self.sides else 2][need]

    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        # heuristic.probability_policy, draw for draw: Liar when the last bid is likelier
        # false than the best bid is true, else the k-th of the likeliest bids in legal
        # order, k = rng_below(count) (random.choice).
        cdef const LiarsC* st = <const LiarsC*>s
        cdef int player = st.num_bids % self.players
        cdef int i, count = 0, k
        cdef int64_t c, best = -1
        cdef int n_bids = n_legal - 1 if legal[n_legal - 1] == self.liar else n_legal
        if n_bids == 0:
            return self.liar
        for i in range(n_bids):
            c = self._bid_chance(st, player, legal[i])
            if c > best:
                best = c
                count = 1
            elif c == best:
                count += 1
        if n_bids < n_legal and self.worlds - self._bid_chance(st, player, legal[0] - 1) > best:
            return self.liar
        k = rng_below(rng, count)
        for i in range(n_bids):
            if self._bid_chance(st, player, legal[i]) == best:
                if k == 0:
                    return legal[i]
                k -= 1
        return legal[0]  # unreachable: count bids have the best chance

    cpdef dict to_dict(self, NativeState state):
        cdef LiarsC* st = <LiarsC*>state.data
        return {
            "dice": [[None if st.dice[p * self.numdice + d] == UNROLLED else st.dice[p * self.numdice + d]
                      for d in range(self.numdice)] for p in range(self.players)],
            "bids": [b for b in range(self.liar + 1) if (st.bids[b >> 6] >> (b & 63)) & 1],
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # Replay the rolls and the bids in order, as LiarsDiceGame.state_from_dict
        # does. The data normally comes validated; defence in depth, every
        # replayed move is checked to be legal where it is played (a face in
        # range, the next die in roll order, a bid above the last one), so no
        # dict can make apply() write past the dice or the bid words.
        # Problems raise InvalidStateError.
        cdef LiarsC* st = <LiarsC*>state.data
        cdef int p, d
        self.init_state(state.data)
        dice = require_list(data, "dice")
        if len(dice) != self.players:
            raise InvalidStateError("state.dice", f"must have {self.players} entries")
        for p, seat_dice in enumerate(dice):
            if not isinstance(seat_dice, list) or len(seat_dice) != self.numdice:
                raise InvalidStateError(f"state.dice[{p}]", f"must be a list of {self.numdice} dice")
            for d, face in enumerate(seat_dice):
                if face is None:
                    continue
                field = f"state.dice[{p}][{d}]"
                if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= self.sides:
                    raise InvalidStateError(field, f"must be a face from 1 to {self.sides} or null")
                if p * self.numdice + d != st.rolled:
                    raise InvalidStateError(field, "dice are rolled in seat and slot order")
                self.apply(state.data, face - 1)
        if st.rolled == self.total and self.to_dict(state)["dice"] != dice:
            raise InvalidStateError("state.dice", "once every die is rolled each seat's dice are sorted")
        for i, bid in enumerate(require_list(data, "bids")):
            field = f"state.bids[{i}]"
            if self.current_player(state.data) < 0:
                raise InvalidStateError(field, "no bid is possible here")
            if isinstance(bid, bool) or not isinstance(bid, int) or not st.last_bid < bid <= self.liar:
                raise InvalidStateError(field, f"{bid!r} is not a bid above the last one")
            if bid == self.liar and st.num_bids == 0:
                raise InvalidStateError(field, "Liar needs a bid to call")
            self.apply(state.data, bid)


def make_kernel(reference_game):
    """The kernel for a reference ``LiarsDiceGame`` (same options)."""
    opts = reference_game.options
    return LiarsDiceKernel(opts["players"], opts["numdice"], opts["dice_sides"],
                           opts["bidding_rule"] == "reset-face")
