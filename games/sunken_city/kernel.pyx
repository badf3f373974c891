# cython: language_level=3
"""Native kernel of Sunken City; the rules are those of ``aiplay.games.sunken_city.rules``.

Every rule here mirrors the reference engine line for line (the differential
test checks it move by move); see that module for the rule statements, the
action-space table and the rulings (automatic end of turn, frozen lake, ...).

The whole position is one ``SunkenC`` struct of int8 fields, the same fields
as the reference state (``cover``, ``building_cell``, ``cell_building``, the
treasure statuses, ...). Every byte is determined by the position: the seats
beyond the player count stay zero, and played cards are a bit mask, so the
default byte hash is a canonical key (``load_dict`` rebuilds identical bytes).
The lake's fixed data comes from ``board.static_arrays()``, copied into C
arrays on the kernel (read only, so the kernel stays reentrant).
"""

from libc.math cimport exp
from libc.stdint cimport int8_t, uint64_t
from libc.string cimport memcpy, memset

from aiplay._ext.kernel cimport K_CHANCE, K_TERMINAL, Kernel, NativeState, Rng, rng_below

from aiplay.errors import InvalidStateError
from aiplay.game import check_int as _int, require_bool, require_field as _get
from aiplay.games.sunken_city import board as B
from aiplay.games.sunken_city import rules as R
from aiplay.games.sunken_city import value_model as VM

cdef enum:
    NCELLS = 81
    SIZE = 9
    CENTRE = 40
    NSITES = 25
    NSLOTS = 162
    NPILES = 6
    NCARDS = 6
    NBUILD = 10
    CHEST = 12
    NCHIPS = 8
    MAXP = 4
    # Actions (rules.py).
    A_RAISE = 6
    A_MOVE = 7
    A_NEPTUNE = 8
    A_END_TURN = 9
    A_USE_CHIP = 10
    A_STOP_MOVE = 11
    A_ENTER_VILLAGE = 12
    A_NEPTUNE_STOP = 13
    STREET_BASE = 14
    BUILD_BASE = 176
    STEP_BASE = 426
    NEPTUNE_STEP_BASE = 507
    NUM_ACTIONS = 588
    # Phases.
    PH_CARD = 0
    PH_CHOOSE = 1
    PH_RAISE = 2
    PH_MOVE = 3
    PH_NEPTUNE = 4
    PH_ROLL = 5
    PH_OVER = 6
    # Treasure status.
    ROOF = 0
    CARRIED = 1
    SECURED = 2
    ABSENT = -1
    EMPTY = -1
    VILLAGE = -1
    # Policy: graph nodes (anchors 0..80, then the villages by board seat).
    VNODE = 81
    NNODES = 85
    EXPECTED_ROLL = 2   # the die roll the policy counts on outside its territory
    # Solver bounds: at most this many cells of new pieces, and steps, in the relaxed walk.
    MAXBUDGET = 16
    MAXSTEPS = 24
    RELAX_POOL = 8192
    NFEAT = 21          # value_model.FEATURES

_PHASE_NAMES = ("card", "choose", "raise", "move", "neptune", "roll", "over")


cdef struct SunkenC:
    int8_t cover[NCELLS]            # anchor of the piece on each cell, or -1
    int8_t cell_building[NCELLS]    # building number on a cell (its anchor), 0 for none
    int8_t building_cell[NBUILD + 1]  # cell of building b, -1 in its grotto (index 0 unused: -1)
    int8_t adventurer[MAXP]         # anchor of his piece, or -1 at home (unused seats 0)
    int8_t treasure[MAXP][CHEST + 1]  # ROOF/CARRIED/SECURED/ABSENT (unused seats 0)
    int8_t chips[MAXP]
    int8_t played[MAXP]             # bit k: card k played this cycle
    int8_t piles[NPILES]
    int8_t neptune                  # anchor of Neptune's piece
    int8_t draw
    int8_t turn
    int8_t phase
    int8_t card                     # -1 when none
    int8_t raise_left
    int8_t move_left
    int8_t neptune_left
    int8_t raised
    int8_t moved
    int8_t neptune_moved
    int8_t building_raised
    int8_t chip_used
    int8_t end_triggered


# -- the lake as a bit set (the playout policy's searches) ------------------------------
# Bit c is cell c: the 81 cells fit one 128-bit word (GCC and Clang on 64-bit targets,
# which the kernels' __builtin_ctzll already assume). A breadth-first search over the
# pieces then advances a whole layer with a few shifts instead of visiting every
# piece's cells and neighbours one by one.
cdef extern from *:
    """
    typedef unsigned __int128 sc_bits;
    static inline int sc_lowest(sc_bits x) {  /* x != 0 */
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    /* Bit i set when byte i of the 8 bytes at p equals byte i of want (8 cells at once). */
    static inline unsigned sc_equal_bytes(const unsigned char* p, uint64_t want) {
        const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
        uint64_t x;
        memcpy(&x, p, 8);
        x ^= want;
        x = ~(((x & low7) + low7) | x | low7);   /* high bit of each zero byte */
        return (unsigned)(((x >> 7) * 0x0102040810204080ULL) >> 56);
    }
    """
    ctypedef unsigned long long sc_bits   # unsigned __int128 in C; Cython only passes it on
    int sc_lowest(sc_bits x) noexcept nogil
    int __builtin_ctzll(unsigned long long x) noexcept nogil
    unsigned sc_equal_bytes(const unsigned char* p, uint64_t want) noexcept nogil

cdef sc_bits B_ALL = 0      # the 81 cells
cdef sc_bits B_NOTCOL0 = 0  # cells with a western neighbour
cdef sc_bits B_NOTCOL8 = 0  # cells with an eastern neighbour


cdef void _init_masks() noexcept:
    global B_ALL, B_NOTCOL0, B_NOTCOL8
    cdef int c
    for c in range(NCELLS):
        B_ALL |= (<sc_bits>1) << c
        if c % SIZE:
            B_NOTCOL0 |= (<sc_bits>1) << c
        if c % SIZE != SIZE - 1:
            B_NOTCOL8 |= (<sc_bits>1) << c


_init_masks()


cdef inline sc_bits _bit(int c) noexcept nogil:
    return (<sc_bits>1) << c


cdef inline bint _has(sc_bits x, int c) noexcept nogil:
    return <bint>((x >> c) & 1)


cdef inline sc_bits _touching(sc_bits x) noexcept nogil:
    """The cells orthogonally next to a cell of ``x``."""
    return (((x & B_NOTCOL8) << 1) | ((x & B_NOTCOL0) >> 1) | (x << SIZE) | (x >> SIZE)) & B_ALL


cdef struct Lake:
    sc_bits occ       # cells under a piece
    sc_bits anchors   # the piece anchors (node numbers of the piece graph)
    sc_bits right     # anchors of streets lying rightward (second cell: anchor + 1)
    sc_bits down      # anchors of streets lying downward (second cell: anchor + SIZE)


cdef inline sc_bits _whole(const Lake* L, sc_bits x) noexcept nogil:
    """``x`` (cells under pieces) grown to the whole pieces."""
    return (x | ((x & L.right) << 1) | ((x >> 1) & L.right)
            | ((x & L.down) << SIZE) | ((x >> SIZE) & L.down))


cdef inline sc_bits _join(uint64_t lo, uint64_t hi) noexcept nogil:
    return (<sc_bits>hi) << 64 | lo


cdef inline sc_bits _occupied(const int8_t* cover) noexcept nogil:
    """The cells under a piece, eight a step (bytes other than EMPTY)."""
    cdef const unsigned char* b = <const unsigned char*>cover
    cdef uint64_t lo = 0, hi = 0
    cdef int c
    # Cells 0..63 and 64..79 in plain words (a shift of the 128-bit word costs more).
    for c in range(0, 64, 8):
        lo |= (<uint64_t>(sc_equal_bytes(b + c, 0xFFFFFFFFFFFFFFFFULL) ^ 0xFF)) << c
    for c in range(64, NCELLS - 1, 8):
        hi |= (<uint64_t>(sc_equal_bytes(b + c, 0xFFFFFFFFFFFFFFFFULL) ^ 0xFF)) << (c - 64)
    if cover[NCELLS - 1] != EMPTY:
        hi |= (<uint64_t>1) << (NCELLS - 1 - 64)
    return _join(lo, hi)


cdef void _read_lake(const int8_t* cover, Lake* L) noexcept nogil:
    # Eight cells a step, without branches: cell c is an anchor when cover[c] == c, and
    # the anchor of a street lying right (down) when cover[c + 1] (cover[c + SIZE]) == c.
    # Every read stays in ``cover``: the last row has no street lying down, and the last
    # cell (80) can only be a building's.
    cdef const unsigned char* b = <const unsigned char*>cover
    cdef int c
    cdef uint64_t cells
    cdef uint64_t anchors[2]
    cdef uint64_t right[2]
    cdef uint64_t down[2]
    anchors[0] = anchors[1] = right[0] = right[1] = down[0] = down[1] = 0
    for c in range(0, NCELLS - 1, 8):
        cells = <uint64_t>c * 0x0101010101010101ULL + 0x0706050403020100ULL   # bytes c .. c + 7
        anchors[c // 64] |= (<uint64_t>sc_equal_bytes(b + c, cells)) << (c % 64)
        right[c // 64] |= (<uint64_t>sc_equal_bytes(b + c + 1, cells)) << (c % 64)
        if c + SIZE + 8 <= NCELLS:
            down[c // 64] |= (<uint64_t>sc_equal_bytes(b + c + SIZE, cells)) << (c % 64)
    if cover[NCELLS - 1] == NCELLS - 1:
        anchors[1] |= (<uint64_t>1) << (NCELLS - 1 - 64)
    L.occ = _occupied(cover)
    L.anchors = _join(anchors[0], anchors[1])
    L.right = _join(right[0], right[1])
    L.down = _join(down[0], down[1])


cdef inline int _popcount6(int m) noexcept nogil:
    cdef int c = 0
    while m:
        c += m & 1
        m >>= 1
    return c


cdef class SunkenCityKernel(Kernel):
    """Sunken City with fixed options (players, short, no_neptune_chips)."""

    cdef int n, chips_enabled, short_game, reach, total_streets, first_pile
    cdef int seats[MAXP]
    cdef int game_treasure[CHEST + 1]   # 1 when treasure t is in this game
    cdef int game_building[NBUILD + 1]  # 1 when building b is in this game
    cdef int cell_nb[NCELLS][4]
    cdef int territory[NCELLS]
    cdef int sites[NSITES]
    cdef int slot_a[NSLOTS]
    cdef int slot_b[NSLOTS]
    cdef sc_bits site_bits     # the building sites
    cdef sc_bits right_slots   # cells c whose street slot 2c (lying right) is valid
    cdef sc_bits down_slots    # cells c whose street slot 2c + 1 (lying down) is valid
    cdef int corner[4]
    cdef int card_pieces[NCARDS]
    cdef int card_points[NCARDS]
    cdef int faces[6]
    cdef int n_outcomes
    cdef int outcome_value[6]
    cdef double outcome_prob[6]
    cdef double value_weights[NFEAT]  # value_model.WEIGHTS, in FEATURES order

    def __init__(self, int players, bint short, bint chips_enabled):
        cdef int i, j
        self.state_size = sizeof(SunkenC)
        self.num_players = players
        self.num_distinct_actions = R.NUM_ACTIONS
        self.max_chance_outcomes = R.MAX_DIE + 1
        self.min_utility = 0.0
        self.max_utility = 1.0
        self.perfect_information = True
        assert R.NUM_ACTIONS == NUM_ACTIONS and R.STEP_BASE == STEP_BASE and R.BUILD_BASE == BUILD_BASE
        assert B.NUM_CELLS == NCELLS and B.CENTRE == CENTRE and B.NUM_SITES == NSITES
        assert R.NUM_PILES == NPILES and R.NUM_CHIPS == NCHIPS and R.CHEST == CHEST
        self.n = players
        self.short_game = short
        self.chips_enabled = chips_enabled
        self.reach = 4 if players == 2 else 3
        self.first_pile = R.FIRST_PILE[players]
        self.total_streets = self.first_pile + 4
        seats = B.SEATS_BY_PLAYERS[players]
        for i in range(MAXP):
            self.seats[i] = seats[i] if i < players else 0
        for i in range(CHEST + 1):
            self.game_treasure[i] = 0
        for t in R.ALL_TREASURES:
            if not (short and t == 1):
                self.game_treasure[t] = 1
        for i in range(NBUILD + 1):
            self.game_building[i] = 1 if i >= 1 and not (short and i == 1) else 0
        arrays = B.static_arrays()
        nb = arrays["cell_neighbours"]
        for i in range(NCELLS):
            for j in range(4):
                self.cell_nb[i][j] = int(nb[i, j])
            self.territory[i] = int(arrays["territory"][i])
        self.site_bits = 0
        for i in range(NSITES):
            self.sites[i] = int(arrays["building_sites"][i])
            self.site_bits |= _bit(self.sites[i])
        slots = arrays["street_slots"]
        self.right_slots = 0
        self.down_slots = 0
        for i in range(NSLOTS):
            self.slot_a[i] = int(slots[i, 0])
            self.slot_b[i] = int(slots[i, 1])
            if self.slot_a[i] >= 0:
                # The bit sets below rely on slot 2c + d being the street from cell c.
                assert self.slot_a[i] == i // 2 and self.slot_b[i] == i // 2 + (1 if i % 2 == 0 else SIZE)
                if i % 2 == 0:
                    self.right_slots |= _bit(i // 2)
                else:
                    self.down_slots |= _bit(i // 2)
        for i in range(4):
            self.corner[i] = int(arrays["village_corner"][i])
        for i in range(NCARDS):
            self.card_pieces[i] = R.CARDS[i][0]
            self.card_points[i] = R.CARDS[i][1]
        dice = R.DICE[players]
        for i in range(6):
            self.faces[i] = dice[i]
        outcomes = R._die_outcomes(players)
        self.n_outcomes = len(outcomes)
        for i in range(self.n_outcomes):
            self.outcome_value[i] = outcomes[i][0]
            self.outcome_prob[i] = outcomes[i][1]
        assert len(VM.FEATURES) == NFEAT
        for i in range(NFEAT):
            self.value_weights[i] = VM.WEIGHTS[i]
        self.has_policy = True
        self._allocate_scratch()

    # -- board helpers ---------------------------------------------------------
    cdef inline int _cells(self, const SunkenC* s, int anchor, int* out) noexcept nogil:
        """The cells of the piece at ``anchor`` (board.piece_cells)."""
        cdef int row = anchor // SIZE, col = anchor % SIZE
        out[0] = anchor
        if col < SIZE - 1 and s.cover[anchor + 1] == anchor:
            out[1] = anchor + 1
            return 2
        if row < SIZE - 1 and s.cover[anchor + SIZE] == anchor:
            out[1] = anchor + SIZE
            return 2
        return 1

    cdef int _neighbours(self, const SunkenC* s, int anchor, int* out) noexcept nogil:
        """Sorted anchors of the pieces adjacent to ``anchor`` (board.piece_neighbours)."""
        cdef int cells[2]
        cdef int nc = self._cells(s, anchor, cells)
        cdef int cnt = 0, i, j, k, c, other
        cdef bint dup
        for i in range(nc):
            c = cells[i]
            for j in range(4):
                if self.cell_nb[c][j] < 0:
                    break
                other = s.cover[self.cell_nb[c][j]]
                if other == EMPTY or other == anchor:
                    continue
                dup = False
                for k in range(cnt):
                    if out[k] == other:
                        dup = True
                        break
                if dup:
                    continue
                k = cnt
                while k > 0 and out[k - 1] > other:
                    out[k] = out[k - 1]
                    k -= 1
                out[k] = other
                cnt += 1
        return cnt

    cdef bint _has_neighbour(self, const SunkenC* s, int anchor) noexcept nogil:
        cdef int cells[2]
        cdef int nc = self._cells(s, anchor, cells)
        cdef int i, j, c, other
        for i in range(nc):
            c = cells[i]
            for j in range(4):
                if self.cell_nb[c][j] < 0:
                    break
                other = s.cover[self.cell_nb[c][j]]
                if other != EMPTY and other != anchor:
                    return True
        return False

    cdef inline bint _neptune_can_move(self, const SunkenC* s) noexcept nogil:
        return self._has_neighbour(s, s.neptune)

    cdef bint _neptune_in_territory(self, const SunkenC* s, int player) noexcept nogil:
        cdef int cells[2]
        cdef int nc = self._cells(s, s.neptune, cells)
        cdef int seat = self.seats[player], i
        for i in range(nc):
            if self.territory[cells[i]] == seat:
                return True
        return False

    cdef inline int _roofs(self, const SunkenC* s, int player) noexcept nogil:
        cdef int t, c = 0
        for t in range(CHEST + 1):
            if s.treasure[player][t] == ROOF and self.game_treasure[t]:
                c += 1
        return c

    cdef bint _free_building_and_site(self, const SunkenC* s) noexcept nogil:
        cdef int b, i
        cdef bint free = False
        for b in range(1, NBUILD + 1):
            if self.game_building[b] and s.building_cell[b] < 0:
                free = True
                break
        if not free:
            return False
        for i in range(NSITES):
            if s.cover[self.sites[i]] == EMPTY:
                return True
        return False

    cdef bint _street_fits(self, const SunkenC* s) noexcept nogil:
        # On a crowded lake a scan of the slots would run long before failing.
        cdef sc_bits free = ~_occupied(s.cover) & B_ALL
        return ((free & (free >> 1) & self.right_slots) | (free & (free >> SIZE) & self.down_slots)) != 0

    cdef bint _can_raise(self, const SunkenC* s) noexcept nogil:
        if not s.building_raised and self._free_building_and_site(s):
            return True
        if s.piles[s.draw] <= 0:
            return False
        return self._street_fits(s)

    cdef bint _has_steps(self, const SunkenC* s) noexcept nogil:
        """True when _adventurer_steps() is not empty."""
        cdef int player = s.turn
        cdef int pos = s.adventurer[player]
        cdef int corner = self.corner[self.seats[player]]
        if pos == VILLAGE:
            return s.cover[corner] != EMPTY
        return self._has_neighbour(s, pos) or s.cover[corner] == pos

    cdef inline bint _chip_usable(self, const SunkenC* s) noexcept nogil:
        cdef int p = s.turn
        return (self.chips_enabled and not s.chip_used and s.chips[p] > 0
                and self._roofs(s, p) > 0)

    cdef int _choose_actions(self, const SunkenC* s, int* out) noexcept nogil:
        cdef int k = 0
        cdef bint can_raise = not s.raised and self._can_raise(s)
        if can_raise:
            out[k] = A_RAISE
            k += 1
        if not s.moved and (self._has_steps(s) or self._chip_usable(s)):
            out[k] = A_MOVE
            k += 1
        if not s.neptune_moved and self._neptune_can_move(s):
            out[k] = A_NEPTUNE
            k += 1
        if not can_raise:
            out[k] = A_END_TURN
            k += 1
        return k

    cdef bint _board_frozen(self, const SunkenC* s) noexcept nogil:
        if self._neptune_can_move(s):
            return False
        if self._free_building_and_site(s):
            return False
        if s.piles[s.draw] > 0 and self._street_fits(s):
            return False
        return True

    # -- the interface ---------------------------------------------------------
    cdef void init_state(self, void* state) noexcept nogil:
        cdef SunkenC* s = <SunkenC*>state
        cdef int p, t, c
        memset(s, 0, sizeof(SunkenC))
        for c in range(NCELLS):
            s.cover[c] = EMPTY
        for t in range(NBUILD + 1):
            s.building_cell[t] = -1
        for p in range(self.n):
            s.adventurer[p] = VILLAGE
            for t in range(CHEST + 1):
                s.treasure[p][t] = ROOF if self.game_treasure[t] else ABSENT
        s.piles[0] = self.first_pile
        s.piles[1] = 1
        s.piles[2] = 1
        s.piles[3] = 1
        s.piles[4] = 1
        s.piles[5] = 0
        s.card = -1
        s.phase = PH_CARD
        # Building 10 with Neptune on the centre.
        s.cover[CENTRE] = CENTRE
        s.building_cell[10] = CENTRE
        s.cell_building[CENTRE] = 10
        s.neptune = CENTRE

    cdef int current_player(self, const void* state) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        if s.phase == PH_OVER:
            return K_TERMINAL
        if s.phase == PH_ROLL:
            return K_CHANCE
        return s.turn

    cdef int legal_actions(self, const void* state, int* out) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int phase = s.phase
        cdef int k = 0, i, slot, b, pos, corner, piece, cnt
        cdef int nbrs[8]
        cdef int free_sites[NSITES]
        cdef int nfree = 0
        cdef sc_bits free, right, down
        cdef uint64_t r, d, both, low
        cdef int half
        if phase == PH_CARD:
            for i in range(NCARDS):
                if not (s.played[s.turn] >> i) & 1:
                    out[k] = i
                    k += 1
            return k
        if phase == PH_CHOOSE:
            return self._choose_actions(s, out)
        if phase == PH_RAISE:
            if s.piles[s.draw] > 0:
                # Slot 2c + d holds a street from cell c: the free slots in slot order are
                # the cells, in order, where one fits rightward (d = 0) or downward (d = 1).
                free = ~_occupied(s.cover) & B_ALL
                right = free & (free >> 1) & self.right_slots
                down = free & (free >> SIZE) & self.down_slots
                for half in range(2):   # 64 cells at a time: plain words are cheaper
                    r = <uint64_t>(right >> (64 * half))
                    d = <uint64_t>(down >> (64 * half))
                    both = r | d
                    while both:
                        low = both & (~both + 1)
                        slot = STREET_BASE + 2 * (64 * half + __builtin_ctzll(both))
                        # Written always, kept when it fits (no branch to mispredict); the
                        # caller's ``out`` holds num_distinct_actions ints, far more than this.
                        out[k] = slot
                        k += (r & low) != 0
                        out[k] = slot + 1
                        k += (d & low) != 0
                        both ^= low
            if not s.building_raised:
                for i in range(NSITES):
                    free_sites[nfree] = BUILD_BASE + i
                    nfree += s.cover[self.sites[i]] == EMPTY
                for b in range(1, NBUILD + 1):
                    if self.game_building[b] and s.building_cell[b] < 0:
                        for i in range(nfree):
                            out[k + i] = free_sites[i] + (b - 1) * NSITES
                        k += nfree
            return k
        if phase == PH_MOVE:
            if self._chip_usable(s):
                out[k] = A_USE_CHIP
                k += 1
            out[k] = A_STOP_MOVE
            k += 1
            if s.move_left > 0:
                pos = s.adventurer[s.turn]
                corner = self.corner[self.seats[s.turn]]
                if pos == VILLAGE:
                    piece = s.cover[corner]
                    if piece != EMPTY:
                        out[k] = STEP_BASE + piece
                        k += 1
                else:
                    if s.cover[corner] == pos:
                        out[k] = A_ENTER_VILLAGE
                        k += 1
                    cnt = self._neighbours(s, pos, nbrs)
                    for i in range(cnt):
                        out[k] = STEP_BASE + nbrs[i]
                        k += 1
            return k
        if phase == PH_NEPTUNE:
            out[0] = A_NEPTUNE_STOP
            cnt = self._neighbours(s, s.neptune, nbrs)
            for i in range(cnt):
                out[i + 1] = NEPTUNE_STEP_BASE + nbrs[i]
            return cnt + 1
        return 0

    cdef int chance_outcomes(self, const void* state, int* outcomes, double* probs) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int i
        if s.phase != PH_ROLL:
            return 0
        for i in range(self.n_outcomes):
            outcomes[i] = self.outcome_value[i]
            probs[i] = self.outcome_prob[i]
        return self.n_outcomes

    cdef int sample_chance(self, const void* state, Rng* rng) noexcept nogil:
        # One face of the six-sided Neptune die: the merged outcomes' exact probabilities.
        return self.faces[rng_below(rng, 6)]

    # -- changing the board ------------------------------------------------------
    cdef inline void _draw_street(self, SunkenC* s) noexcept nogil:
        s.piles[s.draw] -= 1
        if s.piles[s.draw] == 0 and s.draw < NPILES - 1:
            s.draw += 1
            if s.draw == NPILES - 1:
                s.end_triggered = 1  # the Sand Timer shows

    cdef void _send_home(self, SunkenC* s, int player) noexcept nogil:
        cdef int t, p, total = 0
        s.adventurer[player] = VILLAGE
        for t in range(CHEST + 1):
            if s.treasure[player][t] == CARRIED:
                s.treasure[player][t] = ROOF
        if self.chips_enabled and player != s.turn:
            for p in range(self.n):
                total += s.chips[p]
            if total < NCHIPS:
                s.chips[player] += 1

    cdef void _sink(self, SunkenC* s, int anchor) noexcept nogil:
        cdef int cells[2]
        cdef int nc = self._cells(s, anchor, cells)
        cdef int b = s.cell_building[anchor], i, p, discard
        if b:
            s.building_cell[b] = -1
            s.cell_building[anchor] = 0
        else:
            discard = s.draw + 1
            if discard > NPILES - 1:
                discard = NPILES - 1
            s.piles[discard] += 1
        for i in range(nc):
            s.cover[cells[i]] = EMPTY
        for p in range(self.n):
            if s.adventurer[p] == anchor:
                self._send_home(s, p)

    cdef void _enter(self, SunkenC* s, int anchor) noexcept nogil:
        cdef int player = s.turn
        cdef int b = s.cell_building[anchor]
        s.adventurer[player] = anchor
        if b:
            if s.treasure[player][b] == ROOF:
                s.treasure[player][b] = CARRIED
            if anchor == CENTRE and s.treasure[player][CHEST] == ROOF:
                s.treasure[player][CHEST] = CARRIED

    cdef void _enter_village(self, SunkenC* s) noexcept nogil:
        cdef int player = s.turn, t
        cdef bint all_secured = True
        s.adventurer[player] = VILLAGE
        for t in range(CHEST + 1):
            if s.treasure[player][t] == CARRIED:
                s.treasure[player][t] = SECURED
        for t in range(CHEST + 1):
            if self.game_treasure[t] and s.treasure[player][t] != SECURED:
                all_secured = False
                break
        if all_secured:
            s.end_triggered = 1

    cdef void _end_turn(self, SunkenC* s) noexcept nogil:
        cdef int player = s.turn
        if not s.end_triggered and self._board_frozen(s):
            s.end_triggered = 1
        if _popcount6(s.played[player]) == NCARDS:
            s.played[player] = 0
        s.turn = (player + 1) % self.n
        s.card = -1
        s.raise_left = 0
        s.move_left = 0
        s.neptune_left = 0
        s.raised = 0
        s.moved = 0
        s.neptune_moved = 0
        s.building_raised = 0
        s.chip_used = 0
        s.phase = PH_OVER if (s.end_triggered and s.turn == 0) else PH_CARD

    cdef void _back_to_choose(self, SunkenC* s) noexcept nogil:
        cdef int acts[4]
        s.phase = PH_CHOOSE
        s.raise_left = 0
        if self._choose_actions(s, acts) == 1 and acts[0] == A_END_TURN:
            self._end_turn(s)

    cdef inline void _end_move(self, SunkenC* s) noexcept nogil:
        s.moved = 1
        s.move_left = 0
        self._back_to_choose(s)

    cdef inline void _end_neptune(self, SunkenC* s) noexcept nogil:
        s.neptune_moved = 1
        s.neptune_left = 0
        self._back_to_choose(s)

    cdef void apply(self, void* state, int action) noexcept nogil:
        cdef SunkenC* s = <SunkenC*>state
        cdef int phase = s.phase
        cdef int slot, a, b, site, cell, start
        if phase == PH_ROLL:
            if action == 0:
                self._end_neptune(s)
            else:
                s.phase = PH_NEPTUNE
                s.neptune_left = action
        elif phase == PH_CARD:
            s.card = action
            s.played[s.turn] |= (1 << action)
            s.phase = PH_CHOOSE
            s.raised = 1 if self.card_pieces[action] == 0 else 0
            self._back_to_choose(s)
        elif phase == PH_CHOOSE:
            if action == A_RAISE:
                s.phase = PH_RAISE
                s.raise_left = self.card_pieces[s.card]
            elif action == A_MOVE:
                s.phase = PH_MOVE
                s.move_left = self.card_points[s.card]
            elif action == A_NEPTUNE:
                if self._neptune_in_territory(s, s.turn):
                    s.phase = PH_NEPTUNE
                    s.neptune_left = self.reach
                else:
                    s.phase = PH_ROLL
            else:
                self._end_turn(s)
        elif phase == PH_RAISE:
            if action < BUILD_BASE:
                slot = action - STREET_BASE
                a = self.slot_a[slot]
                s.cover[a] = a
                s.cover[self.slot_b[slot]] = a
                self._draw_street(s)
            else:
                b = (action - BUILD_BASE) // NSITES + 1
                site = (action - BUILD_BASE) % NSITES
                cell = self.sites[site]
                s.cover[cell] = cell
                s.building_cell[b] = cell
                s.cell_building[cell] = b
                s.building_raised = 1
            s.raise_left -= 1
            if s.raise_left == 0 or not self._can_raise(s):
                s.raised = 1
                self._back_to_choose(s)
        elif phase == PH_MOVE:
            if action == A_STOP_MOVE:
                self._end_move(s)
                return
            if action == A_USE_CHIP:
                s.chips[s.turn] -= 1
                s.chip_used = 1
                s.move_left += self._roofs(s, s.turn)
            elif action == A_ENTER_VILLAGE:
                s.move_left -= 1
                self._enter_village(s)
            else:
                s.move_left -= 1
                self._enter(s, action - STEP_BASE)
            if not self._chip_usable(s) and (s.move_left == 0 or not self._has_steps(s)):
                self._end_move(s)
        elif phase == PH_NEPTUNE:
            if action == A_NEPTUNE_STOP:
                self._end_neptune(s)
                return
            start = s.neptune
            s.neptune = action - NEPTUNE_STEP_BASE
            self._sink(s, start)
            s.neptune_left -= 1
            if s.neptune_left == 0 or not self._neptune_can_move(s):
                self._end_neptune(s)

    # -- results -------------------------------------------------------------------
    cdef inline void _keys(self, const SunkenC* s, int* count, int* value) noexcept nogil:
        cdef int p, t
        for p in range(self.n):
            count[p] = 0
            value[p] = 0
            for t in range(CHEST + 1):
                if s.treasure[p][t] == SECURED:
                    count[p] += 1
                    value[p] += t

    cdef void returns(self, const void* state, double* out) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int count[MAXP]
        cdef int value[MAXP]
        cdef int p, best_c = -1, best_v = -1, winners = 0
        for p in range(self.n):
            out[p] = 0.0
        if s.phase != PH_OVER:
            return
        self._keys(s, count, value)
        for p in range(self.n):
            if count[p] > best_c or (count[p] == best_c and value[p] > best_v):
                best_c = count[p]
                best_v = value[p]
        for p in range(self.n):
            if count[p] == best_c and value[p] == best_v:
                winners += 1
        for p in range(self.n):
            if count[p] == best_c and value[p] == best_v:
                out[p] = 1.0 / <double>winners

    cdef int _distance_home(self, const SunkenC* s, int p) noexcept nogil:
        # value_model.distance_home: row plus column steps from the nearest cell of his piece
        # to the village's corner cell, plus one to enter; 0 at home.
        cdef int cells[2]
        cdef int pos = s.adventurer[p], corner, nc, i, d, best = 99
        if pos == VILLAGE:
            return 0
        corner = self.corner[self.seats[p]]
        nc = self._cells(s, pos, cells)
        for i in range(nc):
            d = abs(cells[i] // SIZE - corner // SIZE) + abs(cells[i] % SIZE - corner % SIZE)
            if d < best:
                best = d
        return best + 1

    cdef void evaluate(self, const void* state, double* out) noexcept nogil:
        # value_model.learned_values: the same features, float operations and order.
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int sec[MAXP]
        cdef int secv[MAXP]
        cdef int car[MAXP]
        cdef int carv[MAXP]
        cdef int roof[MAXP]
        cdef double x[NFEAT]
        cdef int p, q, t, st, streets = 0, start, opp_sec, tied_secv, opp_car
        cdef double late, no_turn, lead, c, z, total = 0.0
        if s.phase == PH_OVER:
            self.returns(state, out)
            return
        for p in range(self.n):
            sec[p] = secv[p] = car[p] = carv[p] = roof[p] = 0
            for t in range(CHEST + 1):
                st = s.treasure[p][t]
                if st == SECURED:
                    sec[p] += 1
                    secv[p] += t
                elif st == CARRIED:
                    car[p] += 1
                    carv[p] += t
                elif st == ROOF and self.game_treasure[t]:
                    roof[p] += 1
        for t in range(s.draw, NPILES - 1):
            streets += s.piles[t]
        start = self.first_pile + 4
        late = 1.0 - <double>(streets if streets < start else start) / <double>start
        for p in range(self.n):
            opp_sec = tied_secv = opp_car = -1
            for q in range(self.n):
                if q != p:
                    if sec[q] > opp_sec:
                        opp_sec = sec[q]
                    if sec[q] == sec[p] and secv[q] > tied_secv:
                        tied_secv = secv[q]
                    if car[q] > opp_car:
                        opp_car = car[q]
            no_turn = 1.0 if (s.end_triggered and p < s.turn) else 0.0
            lead = <double>(sec[p] - opp_sec)
            c = <double>car[p]
            x[0] = 1.0
            x[1] = lead
            x[2] = <double>(secv[p] - tied_secv) / 10.0 if tied_secv >= 0 else 0.0
            x[3] = lead * late
            x[4] = lead * late * late
            x[5] = lead if s.end_triggered else 0.0
            x[6] = <double>sec[p]
            x[7] = c
            x[8] = <double>carv[p] / 10.0
            x[9] = c * <double>self._distance_home(s, p) / 8.0
            x[10] = c * late
            x[11] = c * no_turn
            x[12] = <double>opp_car
            x[13] = late
            x[14] = 1.0 if s.end_triggered else 0.0
            x[15] = no_turn
            x[16] = 1.0 if self.n == 3 else 0.0
            x[17] = 1.0 if self.n == 4 else 0.0
            x[18] = <double>s.chips[p]
            x[19] = 1.0 if s.turn == p else 0.0
            x[20] = <double>roof[p]
            z = 0.0
            for t in range(NFEAT):
                z += self.value_weights[t] * x[t]
            out[p] = 1.0 / (1.0 + exp(-z))
            total += out[p]
        for p in range(self.n):
            out[p] = out[p] / total

    # -- bounds for the exact solver (Kernel.utility_bounds) -------------------------
    # Facts of the rules that the bounds rest on (rules.py cites each):
    # * secured treasures never go back: sinking turns only carried ones face down
    #   (RB "Returning Adventurers"), and only the turn player's own walk secures
    #   anything (entering his village, spec "Adventurer movement");
    # * once the end is triggered the round is played out and the game ends when the
    #   turn would pass back to seat 0 (spec "End and scoring"): a seat before the
    #   turn player has no walk left, the turn player at most the rest of this one,
    #   a later seat at most one;
    # * a walk is one block of at most its points (+ one Neptune chip adding the
    #   roof-side-up treasures at that moment); each step enters one piece (at most
    #   two cells) or the village, and only a step into a building shows a new
    #   treasure (two for the centre building, whose chest comes with it).
    # * the board changes only by raising (at most the card's pieces, one building
    #   per turn) and by Neptune sinking what he leaves; a raised street covers two
    #   cells, a building one (spec "City pieces").
    # So each final key (count, value) lies between the secured key and that key
    # plus what one walk can still add, which _walk_gain over-estimates: on the
    # board itself for a walk under way, with a relaxed walk (_relaxed_costs) for
    # the turn player before his walk, and by distance in cells alone for a later
    # seat (every seat before him may raise and sink first; a relaxed walk with
    # all those pieces cut no node more on the benchmark set and cost time).
    # tests/test_sunken_city_bounds.py checks the bounds against every line of
    # small endgames and against the solver without them.
    cdef bint utility_bounds(self, const void* state, double* lo, double* hi) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int lc[MAXP]
        cdef int lv[MAXP]
        cdef int hc[MAXP]
        cdef int hv[MAXP]
        cdef double lo0[MAXP]
        cdef double hi0[MAXP]
        cdef int p, gv, gain, quick_gain, quick_value, t = s.turn
        cdef bint same = True
        if s.phase == PH_OVER:
            self.returns(state, lo)
            for p in range(self.n):
                hi[p] = lo[p]
            return True
        if not s.end_triggered:
            return False
        self._keys(s, lc, lv)
        for p in range(self.n):
            gv = 0
            hc[p] = lc[p] + self._walk_gain(s, p, &gv, True)
            hv[p] = lv[p] + gv
        self._settle(lc, lv, hc, hv, lo, hi)
        if hc[t] == lc[t] or s.phase == PH_MOVE:
            return True
        # The turn player before his walk got the quick bound (cells alone). The bounds
        # only move one way as his gain shrinks, so when a gain of 0 would give the same
        # bounds, so does the relaxed walk's gain, which lies between: it is not needed.
        quick_gain = hc[t] - lc[t]
        quick_value = hv[t] - lv[t]
        hc[t] = lc[t]
        hv[t] = lv[t]
        self._settle(lc, lv, hc, hv, lo0, hi0)
        for p in range(self.n):
            if lo0[p] != lo[p] or hi0[p] != hi[p]:
                same = False
        if same:
            return True
        gv = 0
        gain = self._walk_gain(s, t, &gv, False)
        if gain < quick_gain:   # both bounds hold: the smaller one is kept
            hc[t] = lc[t] + gain
            hv[t] = lv[t] + gv
        else:
            hc[t] = lc[t] + quick_gain
            hv[t] = lv[t] + quick_value
        self._settle(lc, lv, hc, hv, lo, hi)
        return True

    cdef void _settle(self, const int* lc, const int* lv, const int* hc, const int* hv, double* lo,
                      double* hi) noexcept nogil:
        """The return bounds from each seat's lowest key (``lc``, ``lv``) and highest (``hc``, ``hv``)."""
        cdef bint excluded[MAXP]
        cdef bint decided = True, alone
        cdef int p, q, best_c = -1, best_v = -1, winners = 0
        for p in range(self.n):
            # p cannot win when another's secured key already beats p's best key.
            excluded[p] = False
            for q in range(self.n):
                if q != p and (lc[q] > hc[p] or (lc[q] == hc[p] and lv[q] > hv[p])):
                    excluded[p] = True
            if not excluded[p] and hc[p] != lc[p]:
                decided = False
        if decided:
            # Every seat that can still win has a fixed key: the winners are known now.
            for p in range(self.n):
                if not excluded[p] and (lc[p] > best_c or (lc[p] == best_c and lv[p] > best_v)):
                    best_c = lc[p]
                    best_v = lv[p]
            for p in range(self.n):
                if not excluded[p] and lc[p] == best_c and lv[p] == best_v:
                    winners += 1
            for p in range(self.n):
                lo[p] = 1.0 / <double>winners if (not excluded[p] and lc[p] == best_c and lv[p] == best_v) else 0.0
                hi[p] = lo[p]
            return
        for p in range(self.n):
            alone = True   # p's secured key beats every other best key: p wins alone
            for q in range(self.n):
                if q != p and not (lc[p] > hc[q] or (lc[p] == hc[q] and lv[p] > hv[q])):
                    alone = False
            lo[p] = 1.0 if alone else 0.0
            hi[p] = 0.0 if excluded[p] else 1.0

    cdef int _walk_gain(self, const SunkenC* s, int p, int* gain_value, bint quick) noexcept nogil:
        """At most how many treasures ``p`` can still secure (the end is triggered), and their
        value bound in ``gain_value``: the top values among p's unsecured treasures. ``quick``:
        the turn player before his walk is bounded by cells alone, as a later seat is."""
        cdef int gain = 0, card, steps, t, n_open = 0, i, j, v, k, pieces, ncand
        cdef int cand_steps[NCARDS]
        cdef int cand_pieces[NCARDS]
        cdef int open_values[CHEST + 1]
        cdef bint chip
        gain_value[0] = 0
        if p < s.turn or (p == s.turn and s.moved):
            return 0
        if p == s.turn and s.phase == PH_MOVE:
            # Walking now: the board is fixed until the walk ends.
            steps = s.move_left + (self._roofs(s, p) if self._chip_usable(s) else 0)
            gain = self._gain_during_walk(s, p, steps)
        else:
            ncand = 0
            chip = False
            if p == s.turn:
                chip = self.chips_enabled and not s.chip_used and s.chips[p] > 0
            else:
                # A later seat may be sent home (and get a chip) before his turn.
                chip = self.chips_enabled and (s.chips[p] > 0 or s.adventurer[p] != VILLAGE)
            for card in range(NCARDS):
                if p == s.turn and s.card >= 0:
                    if card != s.card:
                        continue
                elif s.played[p] & (1 << card):
                    continue
                steps = self.card_points[card]
                if chip:
                    steps += self._roofs(s, p) + self._carried(s, p)
                if p != s.turn or quick:
                    # The seats before him may raise and sink anything first: cells alone.
                    k = self._gain_later_seat(s, p, steps)
                    if k > gain:
                        gain = k
                    continue
                if s.card < 0:
                    pieces = self.card_pieces[card]
                elif s.raised:
                    pieces = 0
                elif s.phase == PH_RAISE:
                    pieces = s.raise_left
                else:
                    pieces = self.card_pieces[card]
                cand_steps[ncand] = steps
                cand_pieces[ncand] = pieces
                ncand += 1
            # The turn player before his walk: his own raise may still add pieces, and Neptune
            # sink some (and send him home) until his Neptune block is done.
            if ncand:
                gain = self._gain_before_walk(s, p, ncand, cand_steps, cand_pieces, not s.neptune_moved)
        if gain == 0:
            return 0
        for t in range(CHEST + 1):
            if self.game_treasure[t] and s.treasure[p][t] != SECURED:
                v = t
                i = n_open
                while i > 0 and open_values[i - 1] < v:   # sorted, largest first
                    open_values[i] = open_values[i - 1]
                    i -= 1
                open_values[i] = v
                n_open += 1
        if gain > n_open:
            gain = n_open
        for j in range(gain):
            gain_value[0] += open_values[j]
        return gain

    cdef int _gain_during_walk(self, const SunkenC* s, int p, int steps) noexcept nogil:
        """Treasures the walking turn player ``p`` can still secure with ``steps`` steps left.

        The board does not change during a walk, so pieces are counted exactly: a
        building counts when the way there and the way back fit (the graph is
        undirected: the distance from the village is also the way back), the carried
        treasures when the village is within reach.
        """
        cdef int dist_a[NNODES]
        cdef int dist_v[NNODES]
        cdef Lake L
        cdef int seat = self.seats[p], pos = s.adventurer[p]
        cdef int vnode = VNODE + seat, b, c, da, new = 0, chest = 0, carried_ok = 0
        if steps <= 0:
            return 0
        _read_lake(s.cover, &L)
        self._bfs(s, &L, vnode, seat, -1, NNODES, 0, dist_v, NULL)
        if pos != VILLAGE:
            self._bfs(s, &L, pos, seat, -1, NNODES, 0, dist_a, NULL)
            if 0 <= dist_a[vnode] <= steps:
                carried_ok = 1
        for b in range(1, NBUILD + 1):
            if not self.game_building[b]:
                continue
            c = s.building_cell[b]
            if c < 0 or dist_v[c] < 0:
                continue
            if s.treasure[p][b] != ROOF and not (c == CENTRE and s.treasure[p][CHEST] == ROOF):
                continue
            da = dist_v[c] if pos == VILLAGE else dist_a[c]
            if da >= 0 and da + dist_v[c] <= steps:
                if s.treasure[p][b] == ROOF:
                    new += 1
                if c == CENTRE and s.treasure[p][CHEST] == ROOF and self.game_treasure[CHEST]:
                    chest = 1
        if new > steps - 1:
            new = steps - 1   # each building entered costs a step, the village one more
        if new < 0:
            new = 0
        return self._carried(s, p) * carried_ok + new + chest

    cdef int _gain_later_seat(self, const SunkenC* s, int p, int steps) noexcept nogil:
        """Treasures a seat after the turn player can secure in his walk of at most ``steps``
        steps, over-estimated by distance in cells alone: before his turn any piece may
        rise or sink, and he may be sent home. A step enters at most two cells, so each
        cell entered costs at least half a step, and the village a whole one. (It also
        serves as the quick bound of the turn player before his walk.)
        """
        cdef int cells[2]
        cdef int pos = s.adventurer[p], corner = self.corner[self.seats[p]], limit = 2 * steps
        cdef int nc = 0 if pos == VILLAGE else self._cells(s, pos, cells)
        cdef int b, c, i, d, new = 0, chest = 0, best_site = limit + 1, carried_ok = 0
        if steps <= 0:
            return 0
        for i in range(NSITES):
            d = self._cells_to(self.sites[i], cells, nc, corner) + self._manhattan(self.sites[i], corner) + 2
            if d < best_site:
                best_site = d
        if pos != VILLAGE and self._cells_to(corner, cells, nc, -1) + 2 <= limit:
            carried_ok = 1
        # Carried treasures count as findable too: sent home, he finds them again.
        for b in range(1, NBUILD + 1):
            if not self.game_building[b] or s.treasure[p][b] == SECURED or s.treasure[p][b] == ABSENT:
                continue
            if best_site <= limit:
                new += 1   # where it stands now, or risen (again) on any site within reach
            else:
                c = s.building_cell[b]
                if c >= 0 and self._cells_to(c, cells, nc, corner) + self._manhattan(c, corner) + 2 <= limit:
                    new += 1
        if ((s.treasure[p][CHEST] == ROOF or s.treasure[p][CHEST] == CARRIED) and self.game_treasure[CHEST]
                and self._cells_to(CENTRE, cells, nc, corner) + self._manhattan(CENTRE, corner) + 2 <= limit):
            chest = 1
        if new > steps - 1:
            new = steps - 1   # each building entered costs a step, the village one more
        if new < 0:
            new = 0
        return self._carried(s, p) * carried_ok + new + chest

    cdef inline int _manhattan(self, int a, int b) noexcept nogil:
        cdef int dr = a // SIZE - b // SIZE, dc = a % SIZE - b % SIZE
        return (dr if dr >= 0 else -dr) + (dc if dc >= 0 else -dc)

    cdef inline int _cells_to(self, int target, const int* cells, int nc, int corner) noexcept nogil:
        """Cells entered on the way to ``target`` from the piece of ``cells``, or from the
        village through the corner cell (``corner``; -1: not from the village)."""
        cdef int i, d, best = 1000
        if corner >= 0:
            best = self._manhattan(corner, target) + 1
        for i in range(nc):
            d = self._manhattan(cells[i], target)
            if d < best:
                best = d
        return best

    cdef int _gain_before_walk(self, const SunkenC* s, int p, int ncards, const int* steps, const int* pieces,
                               bint sink_before) noexcept nogil:
        """Treasures the turn player ``p`` can secure in his walk, over-estimated: the most over
        his possible cards, card k giving at most ``steps[k]`` steps after at most ``pieces[k]``
        more raised pieces (and, if ``sink_before``, Neptune's move). Distances are those of
        :meth:`_relaxed_costs`, computed once for the largest budget and kept per budget level."""
        cdef int fwd_u[(MAXBUDGET + 1) * NCELLS]
        cdef int rev_u[(MAXBUDGET + 1) * NCELLS]
        cdef int fwd[NCELLS]
        cdef int rev[NCELLS]
        cdef int max_steps = 0, max_pieces = 0, k, u, c, new, limit, gain = 0, budget
        cdef int pos = s.adventurer[p], corner = self.corner[self.seats[p]], carried = self._carried(s, p)
        cdef bint home_start = pos == VILLAGE or sink_before
        for k in range(ncards):
            if steps[k] > max_steps:
                max_steps = steps[k]
            if pieces[k] > max_pieces:
                max_pieces = pieces[k]
        if max_steps <= 0:
            return 0
        if max_steps > MAXSTEPS or 2 * max_pieces > MAXBUDGET:
            return CHEST + 1   # beyond the tables (never with the cards and chips of the rules): no bound
        budget = 2 * max_pieces
        # From the adventurer's piece; and from the village, which also bounds every way back:
        # the way from cell c into the village enters the same pieces as a way out of the
        # village to c, read backwards, with c's own entry in place of the village's 2, so it
        # costs at least rev[c].
        self._relaxed_costs(s, pos, False, corner, budget, sink_before, 2 * max_steps, fwd_u)
        self._relaxed_costs(s, -1, True, corner, budget, sink_before, 2 * max_steps, rev_u)
        for k in range(ncards):
            if steps[k] <= 0:
                continue
            limit = 2 * steps[k]
            for c in range(NCELLS):
                fwd[c] = fwd_u[c]
                rev[c] = rev_u[c]
                for u in range(1, 2 * pieces[k] + 1):   # new cells beyond the card's pieces: not allowed
                    if fwd_u[u * NCELLS + c] < fwd[c]:
                        fwd[c] = fwd_u[u * NCELLS + c]
                    if rev_u[u * NCELLS + c] < rev[c]:
                        rev[c] = rev_u[u * NCELLS + c]
            # From his piece: the carried treasures if the village is within reach, and new ones.
            if pos != VILLAGE:
                new = self._new_treasures(s, p, fwd, rev, limit, steps[k], pieces[k], sink_before, False)
                if fwd[corner] + 2 <= limit:
                    new += carried
                if new > gain:
                    gain = new
            if home_start:
                # From the village (he is home, or Neptune sends him home first: his carried
                # treasures then turn back and must be found again).
                new = self._new_treasures(s, p, rev, rev, limit, steps[k], pieces[k], sink_before, True)
                if new > gain:
                    gain = new
        return gain

    cdef int _new_treasures(self, const SunkenC* s, int p, const int* fwd, const int* rev, int limit, int steps,
                            int pieces, bint sink_before, bint carried_too) noexcept nogil:
        """Treasures ``p`` can newly find and bring home in a walk of ``steps`` steps (``limit``
        half-steps): buildings whose way there (``fwd``) and way back (``rev``) fit, or that
        may rise on a site that fits; ``carried_too`` counts his carried ones as unfound."""
        cdef int b, c, i, new = 0, chest = 0
        cdef bint site_ok = False, wanted
        if pieces > 0:
            for i in range(NSITES):
                c = self.sites[i]
                if fwd[c] + rev[c] <= limit:
                    site_ok = True
                    break
        for b in range(1, NBUILD + 1):
            if not self.game_building[b]:
                continue
            wanted = s.treasure[p][b] == ROOF or (carried_too and s.treasure[p][b] == CARRIED)
            if not wanted:
                continue
            c = s.building_cell[b]
            if c >= 0 and fwd[c] + rev[c] <= limit:
                new += 1
            elif (c < 0 or sink_before) and site_ok:
                new += 1   # it may rise (again) on a site within reach
        wanted = s.treasure[p][CHEST] == ROOF or (carried_too and s.treasure[p][CHEST] == CARRIED)
        if (wanted and self.game_treasure[CHEST] and fwd[CENTRE] + rev[CENTRE] <= limit
                and (s.cell_building[CENTRE] or pieces > 0)):
            chest = 1
        if new > steps - 1:
            new = steps - 1   # each building entered costs a step, the village one more
        if new < 0:
            new = 0
        return new + chest

    cdef void _relaxed_costs(self, const SunkenC* s, int start, bint from_village, int corner, int budget,
                             bint sink_before, int limit, int* cost) noexcept nogil:
        """Least half-steps to stand on each cell having used exactly u new cells:
        ``cost[u * NCELLS + c]`` for u in 0..budget.

        A lower bound on any walk after at most ``budget`` cells of new pieces were
        raised (a street covers two cells, a building one) and, if ``sink_before``,
        any pieces sunk: entering an existing piece costs 2 half-steps (a step),
        moving on inside it 0; a cell of a new piece costs 1 (a new street is one
        step for two cells); the village (from the corner cell) is 2 more. The walk
        starts on the piece at ``start`` (cost 0) and/or in the village
        (``from_village``). Dial's buckets over (cell, new cells used, on an
        existing piece); costs above ``limit`` are not explored (reported as
        ``limit + 1``). Should the entry pool run out, every cost is reported as 0
        (no bound, still a lower bound). The caller keeps ``budget <= MAXBUDGET``
        and ``limit <= 2 * MAXSTEPS``.
        """
        cdef int dist[(MAXBUDGET + 1) * 2 * NCELLS]
        cdef int pool_state[RELAX_POOL]
        cdef int pool_next[RELAX_POOL]
        cdef int head[2 * MAXSTEPS + 1]
        cdef int cells[2]
        cdef int nstates, npool = 0, i, j, x, y, d, u, m, c, dd, nc, nd, w, big = limit + 1, anchor, e
        nstates = (budget + 1) * 2 * NCELLS
        for i in range(nstates):
            dist[i] = big
        for i in range(limit + 1):
            head[i] = -1
        if start >= 0:
            nc = self._cells(s, start, cells)
            for i in range(nc):
                x = NCELLS + cells[i]          # u = 0, on the existing piece
                dist[x] = 0
                pool_state[npool] = x
                pool_next[npool] = head[0]
                head[0] = npool
                npool += 1
        if from_village:
            # Out of the village into the corner cell: its piece (a step) or a new piece.
            if s.cover[corner] != EMPTY and 2 <= limit:
                x = NCELLS + corner
                dist[x] = 2
                pool_state[npool] = x
                pool_next[npool] = head[2]
                head[2] = npool
                npool += 1
            if budget > 0 and (s.cover[corner] == EMPTY or sink_before) and 1 <= limit:
                x = 2 * NCELLS + corner        # u = 1, on a new piece
                dist[x] = 1
                pool_state[npool] = x
                pool_next[npool] = head[1]
                head[1] = npool
                npool += 1
        for d in range(limit + 1):
            while head[d] >= 0:
                e = head[d]
                head[d] = pool_next[e]
                x = pool_state[e]
                if dist[x] != d:
                    continue   # stale: reached more cheaply since
                c = x % NCELLS
                m = (x // NCELLS) % 2
                u = x // (2 * NCELLS)
                anchor = s.cover[c]
                for j in range(4):
                    dd = self.cell_nb[c][j]
                    if dd < 0:
                        break
                    for w in range(2):
                        if w == 0:
                            # As the existing piece there (free inside the piece one stands on).
                            if s.cover[dd] == EMPTY:
                                continue
                            nd = d + (0 if (m == 1 and s.cover[dd] == anchor) else 2)
                            y = (u * 2 + 1) * NCELLS + dd
                        else:
                            # As a cell of a new piece.
                            if not (u < budget and (s.cover[dd] == EMPTY or sink_before)):
                                continue
                            nd = d + 1
                            y = ((u + 1) * 2 + 0) * NCELLS + dd
                        if nd <= limit and nd < dist[y]:
                            if npool == RELAX_POOL:
                                for i in range((budget + 1) * NCELLS):
                                    cost[i] = 0
                                return
                            dist[y] = nd
                            pool_state[npool] = y
                            pool_next[npool] = head[nd]
                            head[nd] = npool
                            npool += 1
        for u in range(budget + 1):
            for c in range(NCELLS):
                i = dist[(u * 2) * NCELLS + c]
                j = dist[(u * 2 + 1) * NCELLS + c]
                cost[u * NCELLS + c] = i if i < j else j

    # -- the playout policy (games/sunken_city/policy.py, in C) ---------------------
    # An exact port: the same choices and the same draws from the same stream
    # (tests/test_policy_agreement.py runs both with aiplay.kernel_rng.KernelRandom).
    # The piece graph is searched by BFS over the lake's bit sets (``Lake``, read from
    # ``cover`` once per decision): nodes 0..80 are piece anchors, VNODE + seat a
    # village. An adventurer's graph holds only his own village; Neptune's holds none.
    cdef int _bfs(self, const SunkenC* s, const Lake* L, int source, int home_seat, int blocked, int maxd,
                  sc_bits stop, int* dist, sc_bits* layers) noexcept nogil:
        """Breadth-first distances from ``source`` (-1: unreachable, or farther than ``maxd``);
        never enters ``blocked``. Stops after the layer where every cell of ``stop`` (0: none) is reached.
        ``layers`` (or NULL) receives the cells of the pieces at each distance; returns the
        last distance reached."""
        cdef sc_bits occ = L.occ, seen, layer, nxt, a
        cdef int d, c
        cdef int village = VNODE + home_seat
        cdef int home_piece = EMPTY
        memset(dist, -1, NNODES * sizeof(int))   # every int -1
        if blocked == source:
            blocked = -1
        if blocked >= 0:
            occ &= ~_whole(L, _bit(blocked))
        if home_seat >= 0:
            home_piece = s.cover[self.corner[home_seat]]
            if home_piece == blocked:
                home_piece = EMPTY   # the village's only way out is closed
        dist[source] = 0
        d = 0
        if source >= VNODE:
            layer = 0
            if home_seat >= 0 and source == village and home_piece != EMPTY and maxd >= 1:
                layer = _whole(L, _bit(home_piece))
                d = 1
            if layers != NULL:
                layers[0] = 0
        else:
            layer = _whole(L, _bit(source))
        seen = layer
        while layer:
            a = layer & L.anchors
            while a:
                c = sc_lowest(a)
                dist[c] = d
                a &= a - 1
            if layers != NULL:
                layers[d] = layer
            # The village hangs off its corner's piece only: a dead end one step further.
            if home_piece != EMPTY and dist[village] < 0 and d < maxd and _has(layer, home_piece):
                dist[village] = d + 1
            if d >= maxd or (stop and (seen & stop) == stop):
                break
            nxt = _whole(L, _touching(layer) & occ & ~seen)
            if not nxt:
                break
            seen |= nxt
            layer = nxt
            d += 1
        return d

    cdef inline int _adv_bfs(self, const SunkenC* s, const Lake* L, int me, int maxd, sc_bits stop, int* dist,
                             sc_bits* layers) noexcept nogil:
        cdef int seat = self.seats[me]
        cdef int pos = s.adventurer[me]
        return self._bfs(s, L, VNODE + seat if pos == VILLAGE else pos, seat, -1, maxd, stop, dist, layers)

    cdef inline sc_bits _targets(self, const SunkenC* s, int me, const int* wcells, int nw) noexcept nogil:
        """The cells whose distances a walk decision reads: the wanted buildings', and the
        home corner's piece (its distance gives the village's)."""
        cdef int i, home_piece = s.cover[self.corner[self.seats[me]]]
        cdef sc_bits out = 0
        for i in range(nw):
            out |= _bit(wcells[i])
        if home_piece != EMPTY:
            out |= _bit(home_piece)
        return out

    cdef sc_bits _reach(self, const SunkenC* s, const Lake* L, int me, bint* home) noexcept nogil:
        """The cells of the pieces ``me`` can walk to (any distance); ``home``: whether his
        village is reachable (the nodes where ``_adv_bfs`` gives a distance)."""
        cdef int seat = self.seats[me]
        cdef int pos = s.adventurer[me]
        cdef int home_piece = s.cover[self.corner[seat]]
        cdef sc_bits seen, layer
        if pos == VILLAGE:
            home[0] = True
            if home_piece == EMPTY:
                return 0
            layer = _whole(L, _bit(home_piece))
        else:
            layer = _whole(L, _bit(pos))
        seen = layer
        while layer:
            layer = _whole(L, _touching(layer) & L.occ & ~seen)
            seen |= layer
        if pos != VILLAGE:
            home[0] = home_piece != EMPTY and _has(seen, home_piece)
        return seen

    cdef int _wanted(self, const SunkenC* s, int me, int* cells, int* values) noexcept nogil:
        """Buildings whose entry would show ``me`` a new treasure: their cells and values."""
        cdef int b, c, v, k = 0
        for b in range(1, NBUILD + 1):
            c = s.building_cell[b]
            if c < 0:
                continue
            v = b if s.treasure[me][b] == ROOF else 0
            if c == CENTRE and s.treasure[me][CHEST] == ROOF:
                v += CHEST
            if v:
                cells[k] = c
                values[k] = v
                k += 1
        return k

    cdef inline int _carried(self, const SunkenC* s, int me) noexcept nogil:
        cdef int t, c = 0
        for t in range(CHEST + 1):
            if s.treasure[me][t] == CARRIED:
                c += 1
        return c

    cdef int _pol_card(self, const SunkenC* s, const Lake* L, int me, const int* legal,
                       int n_legal) noexcept nogil:
        cdef int dist[NNODES]
        cdef int wcells[NBUILD + 1]
        cdef int wvals[NBUILD + 1]
        cdef int nw, i, a, d, need = 99, best = -1, key, best_key
        cdef int home = VNODE + self.seats[me]
        nw = self._wanted(s, me, wcells, wvals)
        # Only targets within 7 steps count.
        self._adv_bfs(s, L, me, 7, self._targets(s, me, wcells, nw), dist, NULL)
        for i in range(nw):
            d = dist[wcells[i]]
            if 0 <= d <= 7 and d < need:
                need = d
        if self._carried(s, me) and 0 < dist[home] <= 7 and dist[home] < need:
            need = dist[home]
        if need < 99:
            # The cheapest card that gets there: fewest points, then most pieces.
            best_key = 1 << 30
            for i in range(n_legal):
                a = legal[i]
                if self.card_points[a] >= need:
                    key = self.card_points[a] * 64 - self.card_pieces[a] * 8 + a
                    if key < best_key:
                        best_key = key
                        best = a
            if best >= 0:
                return best
            best_key = -1
            for i in range(n_legal):
                a = legal[i]
                key = self.card_points[a] * 64 + self.card_pieces[a] * 8 + a
                if key > best_key:
                    best_key = key
                    best = a
            return best
        best_key = -1
        for i in range(n_legal):
            a = legal[i]
            key = self.card_pieces[a] * 64 + self.card_points[a] * 8 + a
            if key > best_key:
                best_key = key
                best = a
        return best

    cdef int _pol_raise(self, const SunkenC* s, const Lake* L, int me, const int* legal, int n_legal,
                        Rng* rng) noexcept nogil:
        cdef int wcells[NBUILD + 1]
        cdef int wvals[NBUILD + 1]
        cdef int tied[NUM_ACTIONS]
        cdef signed char near[NCELLS]    # -2 * the grid distance to the target
        cdef signed char touch40[NCELLS]  # 40 where the cell touches the reachable pieces
        cdef int bonus[NBUILD]           # by building - 1
        cdef int nw, a, i, j, c, target, score, best_score = -(1 << 30), ntied = 0, b, tr, tc, dr, x, y
        cdef uint64_t word
        cdef int seat = self.seats[me]
        cdef int corner = self.corner[seat]
        cdef bint home = False
        cdef sc_bits reach = self._reach(s, L, me, &home)
        cdef sc_bits origin, touch, grown, cand = 0
        if reach:
            origin = reach
            touch = _touching(reach)
        else:
            # At home with the corner empty: build from the corner, and "touching" means covering it.
            origin = _bit(corner)
            touch = origin
        # The target: home when carrying and cut off; else the nearest wanted
        # building out of reach; else the nearest free building site.
        if self._carried(s, me) and not home:
            target = corner
        else:
            nw = self._wanted(s, me, wcells, wvals)
            for i in range(nw):
                if not _has(reach, wcells[i]):
                    cand |= _bit(wcells[i])
            if not cand:   # a wanted building wins: the free sites are a fallback only
                cand = self.site_bits & ~L.occ
            if cand:
                # Nearest by grid steps from the origin cells (the Manhattan distance), then
                # the lowest cell: the first ring that meets a candidate, its lowest bit.
                grown = origin
                while not (grown & cand):
                    grown |= _touching(grown)
                target = sc_lowest(grown & cand)
            else:
                target = CENTRE
        # Doubled scores: -distance, +20 for touching the reachable pieces, a building
        # +6 + b/2 when its treasure is unfound, else -10. A street scores by its better
        # cell on each count. The per-cell parts are tabled once: the legal list is long.
        tr = target // SIZE
        tc = target % SIZE
        for y in range(SIZE):
            dr = abs(y - tr)
            for x in range(SIZE):
                near[y * SIZE + x] = -2 * (dr + abs(x - tc))
        word = <uint64_t>touch
        for c in range(64):
            touch40[c] = 40 * <int>((word >> c) & 1)
        word = <uint64_t>(touch >> 64)
        for c in range(64, NCELLS):
            touch40[c] = 40 * <int>((word >> (c - 64)) & 1)
        for b in range(NBUILD):
            bonus[b] = (13 + b) if s.treasure[me][b + 1] == ROOF else -20
        for i in range(n_legal):
            a = legal[i]
            if a < BUILD_BASE:
                c = self.slot_a[a - STREET_BASE]
                j = self.slot_b[a - STREET_BASE]
                score = (near[c] if near[c] > near[j] else near[j]) + (touch40[c] | touch40[j])
            else:
                b = (a - BUILD_BASE) // NSITES
                c = self.sites[a - BUILD_BASE - b * NSITES]
                score = near[c] + touch40[c] + bonus[b]
            if score > best_score:
                best_score = score
                ntied = 0
            if score == best_score:
                tied[ntied] = a
                ntied += 1
        # One uniform draw among the best, in the order of ``legal`` (policy: rng.choice).
        return tied[rng_below(rng, ntied)]

    cdef int _pol_move(self, const SunkenC* s, const Lake* L, int me, const int* legal,
                       int n_legal) noexcept nogil:
        cdef int dist[NNODES]
        cdef int hdist[NNODES]
        cdef sc_bits layers[NNODES]
        cdef sc_bits on
        cdef int wcells[NBUILD + 1]
        cdef int wvals[NBUILD + 1]
        cdef int nw, i, w, k, key, best_key, goal = -1, nxt, action, limit
        cdef int seat = self.seats[me]
        cdef int home = VNODE + seat
        cdef int points = s.move_left
        cdef int carried = self._carried(s, me)
        cdef int bonus = 0
        cdef int pos = s.adventurer[me]
        cdef int source = home if pos == VILLAGE else pos
        cdef sc_bits wanted = 0
        nw = self._wanted(s, me, wcells, wvals)
        self._bfs(s, L, source, seat, -1, NNODES, self._targets(s, me, wcells, nw), dist, layers)
        # Keep the wanted buildings reachable at a positive distance.
        i = 0
        while i < nw:
            if dist[wcells[i]] <= 0:
                nw -= 1
                wcells[i] = wcells[nw]
                wvals[i] = wvals[nw]
            else:
                i += 1
        for i in range(n_legal):
            if legal[i] == A_USE_CHIP:
                bonus = self._roofs(s, me)
        if nw:
            # Distances from home matter only for round trips, of at most points + bonus
            # steps, each at least one step out: farther ones are never read.
            limit = points + bonus - 1
            for i in range(nw):
                wanted |= _bit(wcells[i])
            self._bfs(s, L, home, seat, -1, limit if limit > 0 else 0, wanted, hdist, NULL)
        # 1. The most valuable wanted building from which home is reachable in time.
        goal = self._round_trip(wcells, wvals, nw, dist, hdist, points)
        # 2. Home with finds.
        if goal < 0 and carried and 0 < dist[home] <= points:
            goal = home
        # 3. A wanted building within reach, while carrying little.
        if goal < 0 and carried < 3:
            best_key = 1 << 30
            for i in range(nw):
                w = wcells[i]
                if dist[w] <= points:
                    key = (dist[w] * 20 - wvals[i]) * 128 + w
                    if key < best_key:
                        best_key = key
                        goal = w
        # 4. The chip when it brings a wanted building into reach.
        if goal < 0 and bonus:
            if self._round_trip(wcells, wvals, nw, dist, hdist, points + bonus) >= 0:
                return A_USE_CHIP
            for i in range(nw):
                if dist[wcells[i]] <= points + bonus:
                    return A_USE_CHIP
        # 5. Head home with finds, else toward the nearest wanted building.
        if goal < 0 and carried and dist[home] > 0:
            goal = home
        if goal < 0 and nw:
            best_key = 1 << 30
            for i in range(nw):
                w = wcells[i]
                key = (dist[w] * 20 - wvals[i]) * 128 + w
                if key < best_key:
                    best_key = key
                    goal = w
        if goal < 0:
            return A_STOP_MOVE
        # The first step of policy._shortest_path: the lowest-numbered neighbour of the
        # source one step closer to the goal, i.e. the lowest node at distance 1 on a
        # shortest path. Those paths are walked back from the goal through the BFS layers
        # (the village, a dead end, is on one only as its end).
        k = dist[goal]
        if k == 1:
            nxt = goal
        else:
            if goal == home:
                on = _whole(L, _bit(s.cover[self.corner[seat]]))   # the piece before the village
                k -= 2
            else:
                on = _whole(L, _bit(goal))
                k -= 1
            while k >= 1:
                on = _whole(L, _touching(on) & layers[k])
                k -= 1
            nxt = sc_lowest(on & L.anchors)
        action = A_ENTER_VILLAGE if nxt == home else STEP_BASE + nxt
        for i in range(n_legal):
            if legal[i] == action:
                return action
        return A_STOP_MOVE

    cdef inline int _round_trip(self, const int* wcells, const int* wvals, int nw, const int* dist,
                                const int* hdist, int budget) noexcept nogil:
        """The best wanted building (value, then shortest trip) to reach and get home from within ``budget``; -1 for none."""
        cdef int i, w, t, key, best_key = -(1 << 30), goal = -1
        for i in range(nw):
            w = wcells[i]
            if hdist[w] < 0:
                continue
            t = dist[w] + hdist[w]
            if t <= budget:
                key = (wvals[i] * 128 - t) * 128 - w
                if key > best_key:
                    best_key = key
                    goal = w
        return goal

    cdef int _neptune_step(self, const SunkenC* s, const Lake* L, int me, int steps) noexcept nogil:
        """The first step of a Neptune path that sinks an opponent within ``steps``, or -1 (policy._neptune_plan)."""
        cdef int dist[NNODES]
        cdef char on_path[NCELLS]
        cdef int nbrs[8]
        cdef int order[MAXP]
        cdef int loss[MAXP]
        cdef int nt = 0, p, q, i, j, k, tmp, cnt, goal, x, first, max_sec = 0, sec
        cdef int mine = s.adventurer[me]
        cdef int nep = s.neptune
        cdef bint has_exit
        if nep == mine:
            return -1  # leaving would sink me
        for p in range(self.n):
            sec = 0
            for k in range(CHEST + 1):
                if s.treasure[p][k] == SECURED:
                    sec += 1
            if sec > max_sec:
                max_sec = sec
        for p in range(self.n):
            if p == me or s.adventurer[p] == VILLAGE:
                continue
            sec = 0
            for k in range(CHEST + 1):
                if s.treasure[p][k] == SECURED:
                    sec += 1
            # Doubled: 3 per carried find, 2 for the leader, 0.5.
            loss[nt] = self._carried(s, p) * 6 + (4 if sec == max_sec else 0) + 1
            order[nt] = p
            j = nt
            while j > 0 and (loss[j - 1] < loss[j] or (loss[j - 1] == loss[j] and order[j - 1] < order[j])):
                tmp = loss[j - 1]; loss[j - 1] = loss[j]; loss[j] = tmp
                tmp = order[j - 1]; order[j - 1] = order[j]; order[j] = tmp
                j -= 1
            nt += 1
        for q in range(nt):
            goal = s.adventurer[order[q]]
            if goal == mine:
                continue  # sinking him would sink me too
            if goal == nep:
                # He stands under Neptune: any step away sinks him.
                cnt = self._neighbours(s, nep, nbrs)
                for i in range(cnt):
                    if nbrs[i] != mine:
                        return nbrs[i]
                continue
            # Distances to the victim's piece, never through mine (policy._shortest_path).
            # (Only up to Neptune's piece, and only within steps - 1 of the victim's.)
            self._bfs(s, L, goal, -1, mine, steps - 1, _bit(nep), dist, NULL)
            if dist[nep] < 0 or dist[nep] + 1 > steps:
                continue
            # The path: from Neptune, always the lowest-numbered neighbour one step closer.
            for i in range(NCELLS):
                on_path[i] = 0
            on_path[nep] = 1
            x = nep
            first = -1
            while x != goal:
                cnt = self._neighbours(s, x, nbrs)   # sorted
                for i in range(cnt):
                    if nbrs[i] != mine and dist[nbrs[i]] == dist[x] - 1:
                        x = nbrs[i]
                        break
                if first < 0:
                    first = x
                on_path[x] = 1
            cnt = self._neighbours(s, goal, nbrs)
            has_exit = False
            for i in range(cnt):
                if not on_path[nbrs[i]] and nbrs[i] != mine:
                    has_exit = True
                    break
            if has_exit:
                return first
        return -1

    cdef int policy_action(self, const void* state, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        cdef const SunkenC* s = <const SunkenC*>state
        cdef int me = s.turn
        cdef int phase = s.phase
        cdef int i, a, step, mine, nsafe, reach, steps, nw
        cdef int safe[8]
        cdef int wcells[NBUILD + 1]
        cdef int wvals[NBUILD + 1]
        cdef bint has_move = False, has_neptune = False, has_end = False, useful, home_ok = False
        cdef sc_bits walk
        cdef Lake L
        if n_legal == 1:
            return legal[0]
        _read_lake(s.cover, &L)
        if phase == PH_CARD:
            return self._pol_card(s, &L, me, legal, n_legal)
        if phase == PH_RAISE:
            return self._pol_raise(s, &L, me, legal, n_legal, rng)
        if phase == PH_MOVE:
            return self._pol_move(s, &L, me, legal, n_legal)
        mine = s.adventurer[me]
        if phase == PH_NEPTUNE:
            step = self._neptune_step(s, &L, me, s.neptune_left)
            if step >= 0:
                for i in range(n_legal):
                    if legal[i] == NEPTUNE_STEP_BASE + step:
                        return legal[i]
            if not s.raised and s.neptune != mine:
                # The lake is full: sink something (not under me) to keep streets flowing.
                nsafe = 0
                for i in range(n_legal):
                    a = legal[i]
                    if a >= NEPTUNE_STEP_BASE and a - NEPTUNE_STEP_BASE != mine and nsafe < 8:
                        safe[nsafe] = a
                        nsafe += 1
                if nsafe:
                    return safe[rng_below(rng, nsafe)]
            return A_NEPTUNE_STOP
        # Choosing the next block: raise first, then move when useful, then
        # Neptune when an attack is in reach.
        for i in range(n_legal):
            a = legal[i]
            if a == A_RAISE:
                return A_RAISE
            if a == A_MOVE:
                has_move = True
            elif a == A_NEPTUNE:
                has_neptune = True
            elif a == A_END_TURN:
                has_end = True
        if has_move:
            walk = self._reach(s, &L, me, &home_ok)
            useful = self._carried(s, me) > 0 and home_ok
            if not useful:
                nw = self._wanted(s, me, wcells, wvals)
                for i in range(nw):
                    if _has(walk, wcells[i]):
                        useful = True
                        break
            if useful:
                return A_MOVE
        if has_neptune:
            reach = self.reach if self._neptune_in_territory(s, me) else EXPECTED_ROLL
            steps = s.neptune_left if s.neptune_left > reach else reach
            if self._neptune_step(s, &L, me, steps) >= 0:
                return A_NEPTUNE
            if not s.raised and s.neptune != mine:
                return A_NEPTUNE  # nothing could rise: the lake is full, so make room
        if has_end:
            return A_END_TURN
        return legal[0]

    # -- the reference engine's dict form --------------------------------------------
    cpdef dict to_dict(self, NativeState state):
        cdef SunkenC* s = <SunkenC*>state.data
        cdef int c, p, t, b, anchor, n = self.n
        streets = []
        for c in range(NCELLS):
            if s.cover[c] != c:
                continue
            if c % SIZE < SIZE - 1 and s.cover[c + 1] == c:
                streets.append([c // SIZE, c % SIZE, "right"])
            elif c // SIZE < SIZE - 1 and s.cover[c + SIZE] == c:
                streets.append([c // SIZE, c % SIZE, "down"])
        buildings = []
        for b in range(1, NBUILD + 1):
            c = s.building_cell[b]
            buildings.append(None if c < 0 else [c // SIZE, c % SIZE])
        adventurers = []
        for p in range(n):
            c = s.adventurer[p]
            adventurers.append("village" if c == VILLAGE else [c // SIZE, c % SIZE])
        carried = [[t for t in range(CHEST + 1) if s.treasure[p][t] == CARRIED] for p in range(n)]
        secured = [[t for t in range(CHEST + 1) if s.treasure[p][t] == SECURED] for p in range(n)]
        return {
            "turn": s.turn,
            "phase": _PHASE_NAMES[s.phase],
            "card": None if s.card < 0 else s.card,
            "raise_left": s.raise_left,
            "move_left": s.move_left,
            "neptune_left": s.neptune_left,
            "raised": bool(s.raised),
            "moved": bool(s.moved),
            "neptune_moved": bool(s.neptune_moved),
            "building_raised": bool(s.building_raised),
            "chip_used": bool(s.chip_used),
            "end_triggered": bool(s.end_triggered),
            "streets": streets,
            "buildings": buildings,
            "neptune": [s.neptune // SIZE, s.neptune % SIZE],
            "adventurers": adventurers,
            "carried": carried,
            "secured": secured,
            "secured_values": [sum(x) for x in secured],
            "chips": [s.chips[p] for p in range(n)],
            "played": [[k for k in range(NCARDS) if (s.played[p] >> k) & 1] for p in range(n)],
            "street_piles": [s.piles[t] for t in range(NPILES)],
            "draw_pile": s.draw + 1,
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # The data normally comes validated by the reference engine
        # (serialize.state_from_dict). Defence in depth: every value is
        # range-checked here before it indexes or fills a C array, so no dict
        # whatever can make this write out of bounds, and the loaded bytes
        # keep the memory invariants the kernel relies on (every cover entry
        # is -1 or a cell, Neptune stands on a piece, a card is in play in
        # every phase that reads it). Problems raise InvalidStateError.
        cdef SunkenC* s = <SunkenC*>state.data
        cdef int c, p, t, b, a, other, k, n = self.n
        cdef int phase, card
        self.init_state(s)
        # Clear the initial building 10: the dict says where every piece is.
        s.cover[CENTRE] = EMPTY
        s.building_cell[10] = -1
        s.cell_building[CENTRE] = 0
        streets = _list(data, "streets", -1)
        if len(streets) > NSLOTS:
            raise InvalidStateError("state.streets", "more streets than the lake holds")
        for k, street in enumerate(streets):
            field = f"state.streets[{k}]"
            if not isinstance(street, list) or len(street) != 3 or street[2] not in ("right", "down"):
                raise InvalidStateError(field, f"must be [row, col, 'right'|'down'], got {street!r}")
            a = _cell(street[:2], field)
            if street[2] == "right":
                if a % SIZE == SIZE - 1:
                    raise InvalidStateError(field, "runs off the board")
                other = a + 1
            else:
                if a // SIZE == SIZE - 1:
                    raise InvalidStateError(field, "runs off the board")
                other = a + SIZE
            if s.cover[a] != EMPTY or s.cover[other] != EMPTY or a == CENTRE or other == CENTRE:
                raise InvalidStateError(field, "overlaps another piece or the centre")
            s.cover[a] = a
            s.cover[other] = a
        buildings = _list(data, "buildings", NBUILD)
        for b in range(1, NBUILD + 1):
            value = buildings[b - 1]
            if value is None:
                continue
            field = f"state.buildings[{b - 1}]"
            if not self.game_building[b]:
                raise InvalidStateError(field, f"building {b} is not in this game")
            c = _cell(value, field)
            if not self._is_site(c) or s.cover[c] != EMPTY:
                raise InvalidStateError(field, "not a free building site")
            s.cover[c] = c
            s.building_cell[b] = c
            s.cell_building[c] = b
        c = _cell(_get(data, "neptune"), "state.neptune")
        if s.cover[c] == EMPTY:
            raise InvalidStateError("state.neptune", "Neptune stands in the water")
        s.neptune = s.cover[c]
        adventurers = _list(data, "adventurers", n)
        carried = _list(data, "carried", n)
        secured = _list(data, "secured", n)
        chips = _list(data, "chips", n)
        played = _list(data, "played", n)
        for p in range(n):
            value = adventurers[p]
            if isinstance(value, str) and value == "village":
                s.adventurer[p] = VILLAGE
            else:
                c = _cell(value, f"state.adventurers[{p}]")
                if s.cover[c] == EMPTY:
                    raise InvalidStateError(f"state.adventurers[{p}]", "stands in the water")
                s.adventurer[p] = s.cover[c]
            for status, items, name in ((CARRIED, carried[p], "carried"), (SECURED, secured[p], "secured")):
                if not isinstance(items, list):
                    raise InvalidStateError(f"state.{name}[{p}]", "must be a list")
                for item in items:
                    t = _int(item, 1, CHEST, f"state.{name}[{p}]")
                    if not self.game_treasure[t] or s.treasure[p][t] != ROOF:
                        raise InvalidStateError(f"state.{name}[{p}]", f"treasure {t} is not in the game or listed twice")
                    s.treasure[p][t] = status
            s.chips[p] = _int(chips[p], 0, NCHIPS, f"state.chips[{p}]")
            if not isinstance(played[p], list):
                raise InvalidStateError(f"state.played[{p}]", "must be a list")
            s.played[p] = 0
            for item in played[p]:
                t = _int(item, 0, NCARDS - 1, f"state.played[{p}]")
                s.played[p] |= (1 << t)
        piles = _list(data, "street_piles", NPILES)
        for t in range(NPILES):
            s.piles[t] = _int(piles[t], 0, self.total_streets, f"state.street_piles[{t}]")
        s.draw = _int(_get(data, "draw_pile"), 1, NPILES, "state.draw_pile") - 1
        s.turn = _int(_get(data, "turn"), 0, n - 1, "state.turn")
        phase_name = _get(data, "phase")
        if not isinstance(phase_name, str) or phase_name not in _PHASE_NAMES:
            raise InvalidStateError("state.phase", f"unknown phase {phase_name!r}")
        phase = _PHASE_NAMES.index(phase_name)
        s.phase = phase
        value = _get(data, "card")
        if phase == PH_CARD or phase == PH_OVER:
            if value is not None:
                raise InvalidStateError("state.card", "no card is in play between turns")
            s.card = -1
        else:  # the blocks read the card's numbers
            s.card = _int(value, 0, NCARDS - 1, "state.card")
        s.raise_left = _int(_get(data, "raise_left"), 0, 4, "state.raise_left")
        s.move_left = _int(_get(data, "move_left"), 0, 7 + CHEST, "state.move_left")
        s.neptune_left = _int(_get(data, "neptune_left"), 0, 4, "state.neptune_left")
        s.raised = require_bool(data, "raised")
        s.moved = require_bool(data, "moved")
        s.neptune_moved = require_bool(data, "neptune_moved")
        s.building_raised = require_bool(data, "building_raised")
        s.chip_used = require_bool(data, "chip_used")
        s.end_triggered = require_bool(data, "end_triggered")

    cdef bint _is_site(self, int cell) noexcept nogil:
        cdef int i
        for i in range(NSITES):
            if self.sites[i] == cell:
                return True
        return False


# -- load_dict's checks (Python level: they run once per load) ------------------------

def _list(dict data, str key, int length):
    value = _get(data, key)
    if not isinstance(value, list) or (length >= 0 and len(value) != length):
        raise InvalidStateError(f"state.{key}", f"must be a list" + (f" of {length} entries" if length >= 0 else ""))
    return value


def _cell(value, str field):
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidStateError(field, f"must be [row, col], got {value!r}")
    return _int(value[0], 0, SIZE - 1, field) * SIZE + _int(value[1], 0, SIZE - 1, field)


def make_kernel(reference_game):
    """The kernel for a reference ``SunkenCityGame`` (same options)."""
    opts = reference_game.options
    return SunkenCityKernel(opts["players"], opts["short"], not opts["no_neptune_chips"])
