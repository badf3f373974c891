# cython: language_level=3
"""Native kernel of Template Race, the example game (``aiplay.games._template.rules``).

Copy this file with the game folder (docs/adding_a_game.md). Every rule here
mirrors the reference engine step for step; the differential test checks it
move by move, and tests/test_template_game.py checks that ``policy_action``
is the reference ``heuristic_policy`` exactly. The whole position is a few
bytes; ``init_state`` zeroes it, padding included, because ``state_hash``
hashes the raw bytes.
"""

from libc.stdint cimport int8_t, int32_t, uint64_t
from libc.string cimport memset

from aiplay._ext.kernel cimport K_CHANCE, K_TERMINAL, Kernel, NativeState, Rng, hash_bytes, rng_below

from aiplay.errors import InvalidStateError
from aiplay.game import check_int as _int

cdef enum:
    WALK = 0
    ROLL = 1
    BOOST = 2
    DIE_FACES = 3
    MAX_SEATS = 4           # the game's option allows 2-4 players
    MAX_CARDS = MAX_SEATS + 1


cdef struct RaceC:
    int8_t cards[MAX_SEATS]       # card ids, -1 until dealt
    int8_t positions[MAX_SEATS]
    int8_t boosted[MAX_SEATS]     # 1 once the seat boosted (its card is public)
    int8_t dealt                  # seats 0..dealt-1 have their card
    int8_t rolling                # a roll was chosen; the die is not resolved yet
    int32_t moves                 # decisions made (the horizon counts these)


cdef struct InfoC:
    # What one seat knows, packed for info_hash: its own card and every public
    # fact; exactly what TemplateRaceState.information_state_string shows.
    int8_t player
    int8_t own
    int8_t positions[MAX_SEATS]
    int8_t revealed[MAX_SEATS]    # card of a seat that boosted, else -1
    int8_t dealt
    int8_t rolling
    int32_t moves


cdef class TemplateRaceKernel(Kernel):
    """Template Race with fixed options (players 2-4, goal, horizon)."""

    cdef int players, num_cards, goal, horizon

    def __init__(self, int players, int goal, int horizon):
        if not 2 <= players <= MAX_SEATS:
            raise ValueError(f"players must be from 2 to {MAX_SEATS}")
        self.state_size = sizeof(RaceC)
        self.num_players = players
        self.num_distinct_actions = 3
        self.max_chance_outcomes = max(players + 1, <int>DIE_FACES)  # as the reference
        self.min_utility = -1.0
        self.max_utility = 1.0
        self.perfect_information = False
        self.has_policy = True  # policy_action below is the game's heuristic policy
        self.players = players
        self.num_cards = players + 1
        self.goal = goal
        self.horizon = horizon
        self._allocate_scratch()

    cdef void init_state(self, void* s) noexcept nogil:
        cdef RaceC* st = <RaceC*>s
        cdef int p
        memset(s, 0, sizeof(RaceC))  # padding bytes too: state_hash reads raw bytes
        for p in range(MAX_SEATS):
            st.cards[p] = -1

    cdef inline int _turn(self, const RaceC* st) noexcept nogil:
        return ((st.moves - 1) if st.rolling else st.moves) % self.players

    cdef inline int _winner(self, const RaceC* st) noexcept nogil:
        cdef int p
        for p in range(self.players):
            if st.positions[p] == self.goal:
                return p
        return -1

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const RaceC* st = <const RaceC*>s
        if st.dealt < self.players:
            return K_CHANCE
        if self._winner(st) >= 0 or (st.moves >= self.horizon and not st.rolling):
            return K_TERMINAL
        return K_CHANCE if st.rolling else self._turn(st)

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const RaceC* st = <const RaceC*>s
        out[0] = WALK
        out[1] = ROLL
        if st.boosted[self._turn(st)]:
            return 2
        out[2] = BOOST
        return 3

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef const RaceC* st = <const RaceC*>s
        cdef double p
        cdef int card, seat, n = 0
        cdef bint used
        if st.dealt < self.players:
            p = 1.0 / <double>(self.num_cards - st.dealt)  # the reference's expression
            for card in range(self.num_cards):
                used = False
                for seat in range(st.dealt):
                    used = used or st.cards[seat] == card
                if not used:
                    outcomes[n] = card
                    probs[n] = p
                    n += 1
            return n
        for card in range(DIE_FACES):
            outcomes[card] = card
            probs[card] = 1.0 / DIE_FACES
        return DIE_FACES

    cdef inline void _advance(self, RaceC* st, int seat, int squares) noexcept nogil:
        cdef int pos = st.positions[seat] + squares
        st.positions[seat] = <int8_t>(pos if pos <= self.goal else 2 * self.goal - pos)

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef RaceC* st = <RaceC*>s
        cdef int seat
        if st.dealt < self.players:
            st.cards[st.dealt] = <int8_t>action
            st.dealt += 1
            return
        seat = self._turn(st)
        if st.rolling:
            st.rolling = 0
            self._advance(st, seat, action + 1)
            return
        st.moves += 1
        if action == ROLL:
            st.rolling = 1
        elif action == WALK:
            self._advance(st, seat, 1)
        else:
            st.boosted[seat] = 1
            self._advance(st, seat, st.cards[seat] + 1)

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const RaceC* st = <const RaceC*>s
        cdef int p, winner = self._winner(st)
        for p in range(self.players):
            if winner < 0:
                out[p] = 0.0  # still on, or a draw at the horizon
            else:
                out[p] = 1.0 if p == winner else -1.0 / (self.players - 1)

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        # TemplateRaceState.heuristic_values: the lead over the field, same float operations.
        cdef const RaceC* st = <const RaceC*>s
        cdef int p, total = 0, n = self.players
        if self.current_player(s) == K_TERMINAL:
            self.returns(s, out)
            return
        for p in range(n):
            total += st.positions[p]
        for p in range(n):
            out[p] = <double>(st.positions[p] * n - total) / <double>((n - 1) * self.goal)

    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        # heuristic_policy in games/_template/rules.py, branch for branch.
        cdef const RaceC* st = <const RaceC*>s
        cdef int me = self._turn(st)
        cdef int need = self.goal - st.positions[me]
        cdef bint can_boost = not st.boosted[me]
        cdef int value = st.cards[me] + 1
        if can_boost and value == need:
            return BOOST
        if need <= 2:
            return WALK
        if can_boost and need - value >= 3:
            return BOOST
        return ROLL

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # Hash of exactly what the reference information string shows: equal
        # keys <=> equal strings (up to 64-bit collisions).
        cdef const RaceC* st = <const RaceC*>s
        cdef InfoC info
        cdef int p
        memset(&info, 0, sizeof(InfoC))
        info.player = <int8_t>player
        info.own = st.cards[player]
        for p in range(MAX_SEATS):
            info.positions[p] = st.positions[p]
            info.revealed[p] = st.cards[p] if st.boosted[p] else -1
        info.dealt = st.dealt
        info.rolling = st.rolling
        info.moves = st.moves
        return hash_bytes(&info, sizeof(InfoC), <uint64_t>0x74656D706C617465)

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # TemplateRaceState.determinize: the cards the observer has not seen
        # (not its own, not revealed by a boost) are redealt, an ordered sample
        # by partial Fisher-Yates, to the dealt seats that have not boosted.
        # Only public facts and the observer's card decide the sample.
        cdef RaceC* st = <RaceC*>s
        cdef int unseen[MAX_CARDS]
        cdef int m = 0, i = 0, j, card, p, tmp
        cdef bint seen
        for card in range(self.num_cards):
            seen = st.cards[observer] == card
            for p in range(st.dealt):
                seen = seen or (st.boosted[p] and st.cards[p] == card)
            if not seen:
                unseen[m] = card
                m += 1
        for p in range(st.dealt):
            if p != observer and not st.boosted[p]:
                j = i + rng_below(rng, m - i)
                tmp = unseen[i]
                unseen[i] = unseen[j]
                unseen[j] = tmp
                st.cards[p] = <int8_t>unseen[i]
                i += 1
        return True

    cpdef dict to_dict(self, NativeState state):
        cdef RaceC* st = <RaceC*>state.data
        cdef int p
        return {
            "boosted": [bool(st.boosted[p]) for p in range(self.players)],
            "cards": [st.cards[p] if p < st.dealt else None for p in range(self.players)],
            "moves": st.moves,
            "positions": [st.positions[p] for p in range(self.players)],
            "rolling": bool(st.rolling),
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # The data comes validated by TemplateRaceGame.state_from_dict; defence in
        # depth, every value is range-checked before it is stored, so no dict can
        # index past the arrays. Problems raise InvalidStateError.
        cdef RaceC* st = <RaceC*>state.data
        cdef int p
        self.init_state(state.data)
        cards = _list(data, "cards", self.players)
        positions = _list(data, "positions", self.players)
        boosted = _list(data, "boosted", self.players)
        for p in range(self.players):
            if cards[p] is not None:
                if p != st.dealt:
                    raise InvalidStateError(f"state.cards[{p}]", "cards are dealt in seat order")
                st.cards[p] = _int(cards[p], 0, self.num_cards - 1, f"state.cards[{p}]")
                st.dealt += 1
            st.positions[p] = _int(positions[p], 0, self.goal, f"state.positions[{p}]")
            if not isinstance(boosted[p], bool):
                raise InvalidStateError(f"state.boosted[{p}]", "must be true or false")
            if boosted[p] and cards[p] is None:
                raise InvalidStateError(f"state.boosted[{p}]", "a seat without a card cannot boost")
            st.boosted[p] = 1 if boosted[p] else 0
        if not isinstance(data.get("rolling"), bool):
            raise InvalidStateError("state.rolling", "must be true or false")
        st.rolling = 1 if data["rolling"] else 0
        st.moves = _int(data.get("moves"), 0, self.horizon, "state.moves")


def _list(dict data, str key, int length):
    value = data.get(key)
    if not isinstance(value, list) or len(value) != length:
        raise InvalidStateError(f"state.{key}", f"must be a list of {length} entries")
    return value


def make_kernel(reference_game):
    """The kernel for a reference ``TemplateRaceGame`` (same options)."""
    opts = reference_game.options
    return TemplateRaceKernel(opts["players"], opts["goal"], opts["horizon"])
