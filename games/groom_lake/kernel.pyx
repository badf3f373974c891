# cython: language_level=3
"""Native kernel of Unleashed From Groom Lake!; the rules are those of ``games/groom_lake/rules.py``.

Every rule mirrors the reference engine step for step (same action ids and
order, same chance pools, the same automatic steps in ``_settle``); the
differential test checks it move by move. Cards are count vectors over the 13
supply types; the Discard Stack is a list of types (top last). Tile sets whose
order is not state (the three stacks, the discard pool, each player's
``pool_known``) are 64-bit masks over the 49 tile ids (their lists are sorted
in the reference engine). The map is the placed-tile list plus the 97 x 97
cell lookup of ``components.py`` (index + 1 of the placed tile, 0 for empty)
and, per placed tile, the tile (or none) on each side; these come last in the
struct, after the seat over its hand limit (cached): all are functions of the
rest, so ``state_hash`` and ``info_hash`` hash the bytes before the grid. The
distance from Groom Lake, the walkable region and the escape test are
breadth-first searches over the neighbour table (networkx is never called here).

Determinization is a C port of ``games/groom_lake/knowledge.py`` (``_sample``
then ``knowledge_violations``, redrawn on failure): it reads only what the
observer sees and the Rng, so twin states give equal worlds; its worlds differ
from the reference sampler's for the same seed (a different generator).

The static evaluation (``evaluate``) is ``value_model.learned_values``: the
weights are copied from ``value_model.WEIGHTS`` when a kernel is made, and
``evaluate_for`` (a search's cutoff) uses those of the searching seat's role,
``value_model.searcher_weights``, copied then too.

The playout policy is the reference ``heuristic.policy`` exactly (it draws no
random numbers; its thresholds are read from that module); ``tests/test_policy_agreement.py``
compares them. The first policy, ``heuristic.policy_v1``, has no port.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.math cimport exp

from aiplay._ext.kernel cimport (K_CHANCE, K_TERMINAL, Kernel, NativeState, Rng, hash_bytes, mix64, rng_below)
from aiplay._ext.load_checks cimport _choice, _ival, _lst

from aiplay.errors import InvalidStateError
from aiplay.game import require_field as _get

from aiplay.games.groom_lake import actions as _A
from aiplay.games.groom_lake import components as _C
from aiplay.games.groom_lake import heuristic as _H
from aiplay.games.groom_lake import rules as _R
from aiplay.games.groom_lake import value_model as _VM

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    MAXP = 6
    NT = 13
    NTILES = 49
    RADIUS = 48
    GSIZE = 97
    NCELLS = 9409
    DCAP = 64            # Discard Stack (64 cards in all)
    QCAP = 64            # queue of seats (a share of at most 64 cards)
    MAXENT = 1024        # placement entries (cell * 4 + rotation)
    NESC = 23            # value_model.ESCAPE_FEATURES
    NRACE = 3            # value_model.RACE_FEATURES
    DET_TRIES = 64
    EMPTY = -1           # GL.nbr: an empty cell in the grid
    OFF_GRID = -2        # GL.nbr: beyond the grid
    MARK_WORDS = 148     # 64-bit words of one bit per grid cell
    # card types
    WATER = 0
    ROPE = 1
    SHOVEL = 2
    COMPASS = 3
    RECOVERY = 4
    # roles
    HUMAN = 0
    ALIEN = 1
    HUNTER = 2
    # terrain
    DESERT = 0
    MOUNTAIN = 1
    CANYON = 2
    CIVILIZATION = 3
    # hazards
    CRASH = 7
    # results
    NO_RESULT = 0
    ALIEN_WINS = 1
    TEAM_ESCAPES = 2
    # steps (rules.STEPS order)
    S_ROLES = 0
    S_DEAL = 1
    S_KEEP = 2
    S_ROW = 3
    S_ACTION = 4
    S_TILE = 5
    S_KEEP_TILE = 6
    S_PLACE = 7
    S_CONTRIB = 8
    S_ROLL = 9
    S_ASSIGN = 10
    S_INV_DRAW = 11
    S_INV_KEEP = 12
    S_VOTE = 13
    S_GIVE = 14
    S_GIVE_DRAW = 15
    S_SHARE = 16
    S_TURN_DISCARD = 17
    S_HALF_VOTE = 18
    S_OVER = 19
    # actions (actions.py)
    A_END = 0
    A_RECOVER = 1
    A_SCOUT = 2
    A_MOVE = 3
    A_VOTE = 7
    A_STRIKE = 13
    A_HALF = 19
    A_YES = 20
    A_NO = 21
    A_LIFE = 22
    A_DONE = 23
    A_CONTRIB = 24
    A_KEEP = 37
    A_REFRESH = 50
    A_ASSIGN = 63
    A_GIVE = 69
    A_KEEP_TILE = 75
    A_PLACE = 124
    NUM_ACTIONS = 37760
    # placement classes
    CLS_NONE = 0
    CLS_A = 1
    CLS_B = 2
    CLS_C = 3

STEP_NAMES = tuple(_R.STEPS)
assert STEP_NAMES[S_OVER] == "over" and STEP_NAMES[S_HALF_VOTE] == "half_vote" and len(STEP_NAMES) == 20
assert (_A.VOTE, _A.STRIKE, _A.HALF, _A.LIFE, _A.CONTRIB, _A.KEEP, _A.REFRESH, _A.ASSIGN, _A.GIVE, _A.KEEP_TILE,
        _A.PLACE, _A.NUM_ACTIONS) == (A_VOTE, A_STRIKE, A_HALF, A_LIFE, A_CONTRIB, A_KEEP, A_REFRESH, A_ASSIGN,
                                      A_GIVE, A_KEEP_TILE, A_PLACE, NUM_ACTIONS)
assert _C.NUM_TYPES == NT and _C.NUM_TILES == NTILES and _C.GRID_RADIUS == RADIUS and _C.MAX_PLAYERS == MAXP
assert _C.CRASH == CRASH and _C.RECOVERY == RECOVERY and _C.CIVILIZATION == CIVILIZATION and _C.CANYON == CANYON
assert (_C.KEEP, _C.FIRST_DEAL, _C.SECOND_DEAL, _C.DISCARD_STACK_SIZE, _C.SCOUT_DRAW, _C.INVESTIGATION_DRAW,
        _C.ACTIONS_PER_TURN, _C.ALIEN_CARD_AP, _C.ALIEN_WEAPON_AP) == (3, 2, 10, 6, 2, 2, 2, 50, 50)

cdef int AP_VALUE[NT]
cdef int TYPE_COUNT[NT]
cdef bint IS_TECH[NT]
cdef int HELPS_MASK[8]
cdef int T_TERRAIN[NTILES]
cdef int T_HAZARD[NTILES]
cdef int T_NUMBER[NTILES]
cdef int T_STACK[NTILES]
cdef int ROT_EDGES[NTILES][4]       # bit d: a red dot on edge d (N, E, S, W) after r quarter turns
cdef int NDIST[NTILES]
cdef int DIST_ROT[NTILES][4]
cdef uint64_t STACK_MASK[3]
cdef int MOVE_COST[4]
cdef int DX[4]
cdef int DY[4]
cdef int GX[4]
cdef int GY[4]
# The playout policy's thresholds: the reference heuristic's, read once.
cdef int GL_MIN_ROUNDS = _H.MIN_ROUNDS
cdef int GL_LOW_LIFE = _H.LOW_LIFE
cdef int GL_SCOUT_MIN_LIFE = _H.SCOUT_MIN_LIFE
cdef int GL_STRIKE_WEIGHT = _H.STRIKE_WEIGHT
cdef int GL_VOTE_WEIGHT = _H.VOTE_WEIGHT
cdef int GL_YES_WEIGHT = _H.YES_WEIGHT
cdef int GL_LEAD = _H.LEAD
cdef int GL_STRIKE_LEAD = _H.STRIKE_LEAD
cdef int GL_RATIO = _H.RATIO
cdef int GL_LIFE_WHEN_SHORT = _H.LIFE_WHEN_SHORT
cdef int GL_LIFE_ALIBI = _H.LIFE_ALIBI
cdef int GL_LIFE_WHEN_SHORT_FULL = _H.LIFE_WHEN_SHORT_FULL
cdef int GL_TOOL_VALUE = _H.TOOL_VALUE
cdef int GL_ALIEN_TOKEN_DEFICIT = _H.ALIEN_TOKEN_DEFICIT
cdef int KEEP_NEW[2][NT]            # the policy's card values: [the Alien or not][type]
cdef int _i, _r, _d
for _i in range(NT):
    AP_VALUE[_i] = _C.AP_VALUE[_i]
    TYPE_COUNT[_i] = _C.TYPE_COUNTS[_i]
    IS_TECH[_i] = _i in _C.TECH
for _i in range(8):
    HELPS_MASK[_i] = 0
    for _r in _C.HELPS.get(_i, ()):
        HELPS_MASK[_i] |= 1 << _r
for _i in range(NTILES):
    _tile = _C.TILES[_i]
    T_TERRAIN[_i] = _tile.terrain
    T_HAZARD[_i] = _tile.hazard
    T_NUMBER[_i] = _tile.number
    T_STACK[_i] = _tile.stack
    for _r in range(4):
        ROT_EDGES[_i][_r] = 0
        for _d in range(4):
            if _C.ROTATED[_i][_r][_d]:
                ROT_EDGES[_i][_r] |= 1 << _d
    NDIST[_i] = len(_C.DISTINCT_ROTATIONS[_i])
    for _r in range(4):
        DIST_ROT[_i][_r] = _C.DISTINCT_ROTATIONS[_i][_r] if _r < NDIST[_i] else 0
for _i in range(3):
    STACK_MASK[_i] = 0
    for _r in _C.STACK_TILES[_i]:
        STACK_MASK[_i] |= (<uint64_t>1) << _r
for _i in range(4):
    MOVE_COST[_i] = -1 if _C.MOVE_COST[_i] is None else _C.MOVE_COST[_i]
    DX[_i], DY[_i] = _C.DIRS[_i]
    GX[_i], GY[_i] = _C.DIAGONALS[_i]


cdef int _keep_value_new(int t, int role) noexcept nogil:
    """heuristic._keep_value_new (read from KEEP_NEW, filled at import like the thresholds)."""
    if role == ALIEN:
        if IS_TECH[t]:
            return 3 * AP_VALUE[t]
        return 25 if t == RECOVERY else AP_VALUE[t] // 2 + 1
    if t == RECOVERY:
        return 60
    if AP_VALUE[t]:
        return 2 * AP_VALUE[t]
    return GL_TOOL_VALUE + (1 if (t == WATER or t == COMPASS) else 0)


for _i in range(NT):
    KEEP_NEW[0][_i] = _keep_value_new(_i, HUMAN)
    KEEP_NEW[1][_i] = _keep_value_new(_i, ALIEN)


cdef struct GL:
    int32_t stats[MAXP][2]              # hazard rounds joined, items contributed
    int16_t count
    int16_t total
    int8_t roles[MAXP]
    uint8_t revealed[MAXP]
    uint8_t life[MAXP]
    uint8_t alien_card
    uint8_t hands[MAXP][NT]
    uint8_t deck[NT]
    uint8_t refresh[NT]
    uint8_t discard[DCAP]
    uint8_t ndiscard
    uint8_t recoveries
    uint8_t dealt
    uint8_t kept[NT]
    uint8_t known[MAXP][NT]
    uint8_t deck_known[MAXP][NT]
    uint8_t refresh_known[MAXP][NT]
    uint8_t inv_cards[NT]
    uint8_t handout[NT]
    uint64_t pool_known[MAXP]
    uint64_t stacks[3]
    uint64_t pool
    uint8_t nplaced
    uint8_t pl_tile[NTILES]
    int8_t pl_x[NTILES]
    int8_t pl_y[NTILES]
    uint8_t pl_rot[NTILES]
    uint8_t pl_open[NTILES]
    int8_t team[2]
    int8_t team_from[2]
    uint8_t held[2]
    uint8_t nheld
    int8_t turn
    int8_t ap
    uint8_t half_called
    uint8_t half_agreed
    int8_t step
    int8_t cur
    int8_t target
    uint8_t result
    uint8_t qlen
    uint8_t queue[QCAP]
    uint8_t nballots
    uint8_t bal_seat[MAXP]
    uint8_t bal_vote[MAXP]
    uint8_t grid[NCELLS]                # a function of the placed list (not hashed)
    # Derived data, not hashed either: set wherever a state is made or changed as a whole
    # (init_state, apply, determinize, load_dict).
    int8_t lim                          # _limit_seat of the state (a seat over its hand limit, or -1)
    int8_t nbr[NTILES][4]               # per placed tile and direction: the tile there, EMPTY or OFF_GRID


cdef inline int _alien_weight(const GL* st, int seat) noexcept nogil:
    """knowledge.alien_weight: 1 plus the hazard rounds ``seat`` joined beyond the items it gave."""
    return 1 + (st.stats[seat][0] - st.stats[seat][1] if st.stats[seat][0] > st.stats[seat][1] else 0)


cdef inline int _sum(const uint8_t* a) noexcept nogil:
    # The 13 counts summed as bytes of two words (every count vector holds at most 64
    # cards, so no byte sum overflows): the hand-limit scan runs at every move. The second
    # word is the 8 bytes from a + 5 (whole loads: a 5-byte copy into a word stalled every
    # call on store forwarding), so counts 5, 6 and 7 are in both words and are taken off.
    cdef uint64_t lo, hi
    memcpy(&lo, a, 8)
    memcpy(&hi, a + 5, 8)
    return <int>(((lo * <uint64_t>0x0101010101010101) >> 56) + ((hi * <uint64_t>0x0101010101010101) >> 56)
                 - a[5] - a[6] - a[7])


cdef inline bint _any(const uint8_t* a) noexcept nogil:
    cdef int t
    for t in range(NT):
        if a[t]:
            return True
    return False


cdef inline int _tech_ap(const uint8_t* h) noexcept nogil:
    return 5 * h[9] + 10 * h[10] + 15 * h[11] + 20 * h[12]


cdef inline int _total_ap(const uint8_t* h) noexcept nogil:
    cdef int t, s = 0
    for t in range(5, NT):
        s += h[t] * AP_VALUE[t]
    return s


cdef inline bint _in_grid(int x, int y) noexcept nogil:
    return -RADIUS <= x <= RADIUS and -RADIUS <= y <= RADIUS


cdef inline int _cell(int x, int y) noexcept nogil:
    return (y + RADIUS) * GSIZE + (x + RADIUS)


cdef inline int _at(const GL* st, int x, int y) noexcept nogil:
    """Index of the placed tile at (x, y), or -1."""
    if not _in_grid(x, y):
        return -1
    return <int>st.grid[_cell(x, y)] - 1


cdef inline void _link(GL* st, int i) noexcept nogil:
    """Fill placed tile ``i``'s neighbours from the grid, and point them back at it."""
    cdef int d, x, y, j
    for d in range(4):
        x = st.pl_x[i] + DX[d]
        y = st.pl_y[i] + DY[d]
        if not _in_grid(x, y):
            st.nbr[i][d] = OFF_GRID
            continue
        j = <int>st.grid[_cell(x, y)] - 1
        st.nbr[i][d] = <int8_t>j
        if j >= 0:
            st.nbr[j][(d + 2) & 3] = <int8_t>i


cdef inline bint _open_beside(const GL* st, int i) noexcept nogil:
    """heuristic._open_cell orthogonally around placed tile ``i``: an empty in-grid cell next to it."""
    return st.nbr[i][0] == EMPTY or st.nbr[i][1] == EMPTY or st.nbr[i][2] == EMPTY or st.nbr[i][3] == EMPTY


cdef inline void _sort_ints(int* a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef inline int _draw_weighted(Rng* rng, const int* pool, int mask) noexcept nogil:
    cdef int t, total = 0, x
    for t in range(NT):
        if (mask >> t) & 1:
            total += pool[t]
    if total <= 0:
        return -1
    x = rng_below(rng, total)
    for t in range(NT):
        if (mask >> t) & 1:
            if x < pool[t]:
                return t
            x -= pool[t]
    return -1


# Final: its own methods are then called directly (no virtual call through the method table),
# so the C compiler can inline the small ones into the per-move paths. Searches still reach the
# contract methods through Kernel's table.
@cython.final
cdef class GroomLakeKernel(Kernel):
    """Groom Lake with fixed options (players 3-6, half_win)."""

    cdef int n, start_life
    cdef bint half_win
    cdef public long long det_calls     # native determinizations (statistics; racy under parallel threads)
    cdef public long long det_redraws   # worlds redrawn after a dead end or a failed check
    cdef public long long det_failures  # determinizations that found no world (returned False)
    cdef double value_weights[NESC + NRACE]  # value_model.WEIGHTS (escape, then race), copied when made
    cdef double alien_weights[NESC + NRACE]  # value_model.searcher_weights(n, "alien"): the Alien's search
    cdef double human_weights[NESC + NRACE]  # value_model.searcher_weights(n, "human"): a Human's or the Hunter's

    def __init__(self, reference_game):
        g = reference_game
        if not 3 <= g.players <= MAXP:
            raise ValueError("players must be from 3 to 6")
        self.n = g.players
        self.start_life = g.start_life
        self.half_win = bool(g.half_win)
        self.state_size = sizeof(GL)
        self.num_players = g.num_players
        self.num_distinct_actions = g.num_distinct_actions
        self.max_chance_outcomes = g.max_chance_outcomes
        self.min_utility = g.min_utility
        self.max_utility = g.max_utility
        self.perfect_information = g.perfect_information
        assert self.num_distinct_actions == NUM_ACTIONS and self.max_chance_outcomes == NTILES
        self.has_policy = True
        # The learned evaluation's weights, read now (a control may replace value_model.WEIGHTS first).
        assert len(_VM.ESCAPE_FEATURES) == NESC and len(_VM.RACE_FEATURES) == NRACE
        alien = _VM.searcher_weights(self.n, "alien")
        human = _VM.searcher_weights(self.n, "human")
        for i in range(NESC + NRACE):
            self.value_weights[i] = _VM.WEIGHTS[i]
            self.alien_weights[i] = alien[i]
            self.human_weights[i] = human[i]
        self._allocate_scratch()

    # -- small queries ------------------------------------------------------------------
    cdef inline bint _deal_together(self) noexcept nogil:
        return 12 * self.n <= 64

    cdef inline int _deal_seat(self, const GL* st) noexcept nogil:
        cdef int first = 2 * self.n
        if st.dealt < first or self._deal_together():
            return st.dealt % self.n
        return (st.dealt - first) // 10

    cdef inline int _alien_seat(self, const GL* st) noexcept nogil:
        cdef int p
        for p in range(self.n):
            if st.roles[p] == ALIEN:
                return p
        return -1

    cdef inline bint _forced_recovery(self, const GL* st) noexcept nogil:
        return st.dealt < 2 * self.n and st.roles[st.dealt % self.n] == ALIEN

    cdef inline int _reserve(self, const GL* st) noexcept nogil:
        cdef int a = self._alien_seat(st), k, given = 0, m
        if a < 0:
            return 2
        m = st.dealt if st.dealt < 2 * self.n else 2 * self.n
        for k in range(m):
            if k % self.n == a:
                given += 1
        return 2 - given

    cdef inline int _limit_seat(self, const GL* st) noexcept nogil:
        cdef int step = st.step, start, i, p
        if step == S_ROLES or step == S_DEAL or step == S_KEEP or step == S_TURN_DISCARD or step == S_OVER:
            return -1
        # Seats from the turn player on (no division: this scan runs several times per move).
        p = st.turn if st.turn > 0 else 0
        for i in range(self.n):
            if st.life[p] > 0 and _sum(st.hands[p]) > st.life[p]:
                return p
            p += 1
            if p == self.n:
                p = 0
        return -1

    cdef inline bint _tiles_remain(self, const GL* st) noexcept nogil:
        return (st.stacks[0] | st.stacks[1] | st.stacks[2] | st.pool) != 0 or st.nheld > 0

    cdef inline int _draw_source(self, const GL* st) noexcept nogil:
        cdef int s
        for s in range(st.target, 3):
            if st.stacks[s]:
                return s
        return 3 if st.pool else -1

    cdef inline int _team_index(self, const GL* st) noexcept nogil:
        return _at(st, st.team[0], st.team[1])

    # -- the map ----------------------------------------------------------------------------
    cdef int _fitting(self, const GL* st, const int* xs, const int* ys, int ncells, int tile, int* out) noexcept nogil:
        """Entries cell * 4 + rot of ``tile`` over the cells (out may be NULL: stop at the first).

        A rotation fits an empty in-grid cell with at least one placed neighbour when its red
        dots match the facing edges of all of them: the neighbours are read once per cell,
        as a mask of the sides they touch and the dots they require there.
        """
        cdef int i, k, d, j, rot, x, y, touch, need, m = 0
        for i in range(ncells):
            x = xs[i]
            y = ys[i]
            if not _in_grid(x, y) or st.grid[_cell(x, y)]:
                continue
            touch = 0
            need = 0
            for d in range(4):
                j = _at(st, x + DX[d], y + DY[d])
                if j >= 0:
                    touch |= 1 << d
                    need |= ((ROT_EDGES[st.pl_tile[j]][st.pl_rot[j]] >> ((d + 2) & 3)) & 1) << d
            if not touch:
                continue
            for k in range(NDIST[tile]):
                rot = DIST_ROT[tile][k]
                if (ROT_EDGES[tile][rot] & touch) == need:
                    if out == NULL:
                        return 1
                    out[m] = 4 * _cell(x, y) + rot
                    m += 1
        return m

    cdef int _placements(self, const GL* st, int tile, int* out, int* nout) noexcept nogil:
        """board.placements: the class (CLS_*) and, when ``out`` is given, its sorted entries."""
        cdef int xs[4 * NTILES]
        cdef int ys[4 * NTILES]
        cdef uint64_t marks[MARK_WORDS]
        cdef uint64_t bits
        cdef int tx = st.team[0], ty = st.team[1], d, i, j, m, c, x, y, nc = 0
        for d in range(4):
            xs[d] = tx + DX[d]
            ys[d] = ty + DY[d]
        m = self._fitting(st, xs, ys, 4, tile, out)
        if m:
            if out != NULL:
                _sort_ints(out, m)
                nout[0] = m
            return CLS_A
        for d in range(4):
            xs[d] = tx + GX[d]
            ys[d] = ty + GY[d]
        m = self._fitting(st, xs, ys, 4, tile, out)
        if m:
            if out != NULL:
                _sort_ints(out, m)
                nout[0] = m
            return CLS_B
        # Class C: the frontier, in increasing cell order (a bit per cell, read back word by word).
        memset(marks, 0, sizeof(marks))
        for i in range(st.nplaced):
            for d in range(4):
                if st.nbr[i][d] == EMPTY:
                    c = _cell(st.pl_x[i] + DX[d], st.pl_y[i] + DY[d])
                    marks[c >> 6] |= (<uint64_t>1) << (c & 63)
        for j in range(MARK_WORDS):
            bits = marks[j]
            while bits:
                c = (j << 6) + __builtin_ctzll(bits)
                bits &= bits - 1
                xs[nc] = c % GSIZE - RADIUS
                ys[nc] = c // GSIZE - RADIUS
                nc += 1
        m = self._fitting(st, xs, ys, nc, tile, out)
        if m:
            if out != NULL:
                nout[0] = m
            return CLS_C
        if out != NULL:
            nout[0] = 0
        return CLS_NONE

    cdef int _distance(self, const GL* st) noexcept nogil:
        """Orthogonal steps over placed tiles from Groom Lake (index 0) to the Team."""
        cdef int dist[NTILES]
        cdef int q[NTILES]
        cdef int head = 0, tail = 1, i, d, j, goal = self._team_index(st)
        for i in range(st.nplaced):
            dist[i] = -1
        dist[0] = 0
        q[0] = 0
        while head < tail:
            i = q[head]
            head += 1
            if i == goal:
                return dist[i]
            for d in range(4):
                j = st.nbr[i][d]
                if j >= 0 and dist[j] < 0:
                    dist[j] = dist[i] + 1
                    q[tail] = j
                    tail += 1
        return 0

    cdef bint _escape_possible(self, const GL* st) noexcept nogil:
        cdef bint seen[NTILES]
        cdef int q[NTILES]
        cdef int head = 0, tail = 1, i, d, j, x, y, start = self._team_index(st)
        for i in range(st.nplaced):
            seen[i] = False
        seen[start] = True
        q[0] = start
        while head < tail:
            i = q[head]
            head += 1
            if T_TERRAIN[st.pl_tile[i]] == CIVILIZATION:
                return True
            for d in range(4):
                j = st.nbr[i][d]
                if j >= 0 and not seen[j] and T_TERRAIN[st.pl_tile[j]] != CANYON:
                    seen[j] = True
                    q[tail] = j
                    tail += 1
        if not self._tiles_remain(st):
            return False
        for head in range(tail):
            i = q[head]
            for d in range(4):
                if st.nbr[i][d] == EMPTY:
                    return True
        return False

    # -- the contract -----------------------------------------------------------------------
    cdef void init_state(self, void* s) noexcept nogil:
        cdef GL* st = <GL*>s
        cdef int p, t
        memset(s, 0, sizeof(GL))
        for p in range(self.n):
            st.roles[p] = -1
            st.life[p] = <uint8_t>self.start_life
        for t in range(NT):
            st.deck[t] = <uint8_t>TYPE_COUNT[t]
        st.deck[RECOVERY] -= 2
        for t in range(3):
            st.stacks[t] = STACK_MASK[t]
        st.nplaced = 1
        st.grid[_cell(0, 0)] = 1
        _link(st, 0)
        st.turn = -1
        st.step = S_ROLES
        st.cur = -1
        st.target = -1
        st.lim = <int8_t>self._limit_seat(st)

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const GL* st = <const GL*>s
        cdef int seat, step = st.step
        if step == S_OVER:
            return K_TERMINAL
        seat = st.lim
        if seat >= 0:
            return seat
        if (step == S_ROLES or step == S_DEAL or step == S_ROW or step == S_TILE or step == S_ROLL
                or step == S_INV_DRAW or step == S_GIVE_DRAW or step == S_SHARE):
            return K_CHANCE
        return st.cur

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const GL* st = <const GL*>s
        cdef int lim = st.lim, step = st.step, n = 0, t, q, m, i, mask
        cdef int p = lim if lim >= 0 else st.cur   # the player to move (a decision node)
        cdef const uint8_t* hand
        if p < 0 or step == S_OVER:
            return 0  # not a decision node (the contract never asks; no seat to index)
        hand = st.hands[p]
        # The card lists without a branch per type (a hand's types are a coin toss to the branch
        # predictor): every type is written and kept when held. The last write is at index 12
        # at most, within any list that can hold the 13 actions of a hand of every type.
        if lim >= 0 or step == S_TURN_DISCARD:
            for t in range(NT):
                out[n] = A_REFRESH + t
                n += hand[t] != 0
            return n
        if step == S_KEEP:
            for t in range(NT):
                out[n] = A_KEEP + t
                n += hand[t] != 0
            return n
        if step == S_ACTION:
            return self._turn_actions(st, p, out)
        if step == S_KEEP_TILE:
            if st.held[0] <= st.held[1]:
                out[0] = A_KEEP_TILE + st.held[0]
                out[1] = A_KEEP_TILE + st.held[1]
            else:
                out[0] = A_KEEP_TILE + st.held[1]
                out[1] = A_KEEP_TILE + st.held[0]
            return 1 if st.held[0] == st.held[1] else 2
        if step == S_PLACE:
            self._placements(st, st.held[0], out, &m)
            for i in range(m):
                out[i] += A_PLACE
            return m
        if step == S_CONTRIB:
            if st.life[p] >= 2:
                out[n] = A_LIFE
                n += 1
            out[n] = A_DONE
            n += 1
            mask = HELPS_MASK[T_HAZARD[st.pl_tile[st.target]]]
            for t in range(NT):
                if (mask >> t) & 1 and hand[t]:
                    out[n] = A_CONTRIB + t
                    n += 1
            return n
        if step == S_ASSIGN or step == S_GIVE:
            for q in range(self.n):
                if st.life[q] > 0:
                    out[n] = (A_ASSIGN if step == S_ASSIGN else A_GIVE) + q
                    n += 1
            return n
        if step == S_INV_KEEP:
            for t in range(NT):
                if st.inv_cards[t]:
                    out[n] = A_KEEP + t
                    n += 1
            return n
        if step == S_VOTE or step == S_HALF_VOTE:
            out[0] = A_YES
            out[1] = A_NO
            return 2
        return 0

    cdef int _turn_actions(self, const GL* st, int p, int* out) noexcept nogil:
        cdef int n = 0, ap = st.ap, d, i, j, cost, q
        out[n] = A_END
        n += 1
        if ap >= 1 and st.hands[p][RECOVERY]:
            out[n] = A_RECOVER
            n += 1
        if ap >= 1 and (st.stacks[0] | st.stacks[1] | st.stacks[2] | st.pool):
            out[n] = A_SCOUT
            n += 1
        i = self._team_index(st)
        for d in range(4):
            j = st.nbr[i][d]
            if j >= 0:
                cost = MOVE_COST[T_TERRAIN[st.pl_tile[j]]]
                if cost >= 0 and cost <= ap:
                    out[n] = A_MOVE + d
                    n += 1
        if ap >= 2:
            for q in range(self.n):
                if st.life[q] > 0 and q != p:
                    out[n] = A_VOTE + q
                    n += 1
            if st.roles[p] == HUNTER and not st.revealed[p]:
                for q in range(self.n):
                    if st.life[q] > 0 and q != p:
                        out[n] = A_STRIKE + q
                        n += 1
        if self.half_win and not st.half_agreed and not st.half_called:
            out[n] = A_HALF
            n += 1
        return n

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef const GL* st = <const GL*>s
        cdef int step = st.step, n = 0, p, t, total
        cdef const uint8_t* pool
        cdef uint64_t m
        if step == S_ROLES:
            if self._alien_seat(st) < 0:
                for p in range(self.n):
                    outcomes[p] = p
                    probs[p] = 1.0 / self.n
                return self.n
            for p in range(self.n):
                if st.roles[p] < 0:
                    outcomes[n] = p
                    n += 1
            for p in range(n):
                probs[p] = 1.0 / n
            return n
        if step == S_DEAL and self._forced_recovery(st):
            outcomes[0] = RECOVERY
            probs[0] = 1.0
            return 1
        if step == S_DEAL or step == S_ROW or step == S_INV_DRAW or step == S_GIVE_DRAW or step == S_SHARE:
            pool = &st.handout[0] if (step == S_GIVE_DRAW or step == S_SHARE) else &st.deck[0]
            total = _sum(pool)
            for t in range(NT):
                if pool[t]:
                    outcomes[n] = t
                    probs[n] = <double>pool[t] / total
                    n += 1
            return n
        if step == S_TILE:
            t = self._draw_source(st)
            m = st.pool if t == 3 else (st.stacks[t] if t >= 0 else 0)
            while m:
                outcomes[n] = __builtin_ctzll(m)
                m &= m - 1
                n += 1
            for p in range(n):
                probs[p] = 1.0 / n
            return n
        if step == S_ROLL:
            for t in range(6):
                outcomes[t] = t
                probs[t] = 1.0 / 6
            return 6
        return 0

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        cdef int outcomes[NTILES]
        cdef double probs[NTILES]
        cdef const GL* st = <const GL*>s
        cdef int n, r, i, t, step = st.step
        cdef const uint8_t* pool
        cdef uint64_t m
        # The common draws without chance_outcomes' probabilities (a division per outcome): the
        # same outcome from the same random number as the general path below.
        if (step == S_DEAL and not self._forced_recovery(st)) or step == S_ROW or step == S_INV_DRAW \
                or step == S_GIVE_DRAW or step == S_SHARE:
            pool = &st.handout[0] if (step == S_GIVE_DRAW or step == S_SHARE) else &st.deck[0]
            n = _sum(pool)
            if n > 0:
                r = rng_below(rng, n)
                for t in range(NT):
                    if r < pool[t]:
                        return t
                    r -= pool[t]
        elif step == S_TILE:
            t = self._draw_source(st)
            m = st.pool if t == 3 else (st.stacks[t] if t >= 0 else 0)
            n = __builtin_popcountll(m)
            if n > 0:
                for r in range(rng_below(rng, n)):
                    m &= m - 1
                return __builtin_ctzll(m)
        n = self.chance_outcomes(s, outcomes, probs)
        if (step == S_DEAL and not self._forced_recovery(st)) or step == S_ROW or step == S_INV_DRAW \
                or step == S_GIVE_DRAW or step == S_SHARE:
            # One card drawn from a count vector: each card equally likely.
            pool = &st.handout[0] if (step == S_GIVE_DRAW or step == S_SHARE) else &st.deck[0]
            r = rng_below(rng, _sum(pool))
            for i in range(n):
                if r < pool[outcomes[i]]:
                    return outcomes[i]
                r -= pool[outcomes[i]]
            return outcomes[n - 1]
        return outcomes[rng_below(rng, n)]

    # -- applying moves ---------------------------------------------------------------------
    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef GL* st = <GL*>s
        cdef int step = st.step, lim = st.lim
        if lim >= 0:
            self._apply_decision(st, lim, action)
        elif (step == S_ROLES or step == S_DEAL or step == S_ROW or step == S_TILE or step == S_ROLL
                or step == S_INV_DRAW or step == S_GIVE_DRAW or step == S_SHARE):
            self._apply_chance(st, action)
        else:
            self._apply_decision(st, st.cur, action)
        self._settle(st)

    cdef inline void _pop_queue(self, GL* st) noexcept nogil:
        if st.qlen:
            memmove(&st.queue[0], &st.queue[1], st.qlen - 1)
            st.qlen -= 1
            st.queue[st.qlen] = 0

    cdef void _apply_chance(self, GL* st, int x) noexcept nogil:
        cdef int step = st.step, p, src
        if step == S_ROLES:
            if self._alien_seat(st) < 0:
                st.roles[x] = ALIEN
                if self.n < 5:
                    self._roles_done(st)
            else:
                st.roles[x] = HUNTER
                self._roles_done(st)
        elif step == S_DEAL:
            p = self._deal_seat(st)
            if not self._forced_recovery(st):
                self._draw_hidden(st, p, x)
            st.hands[p][x] += 1
            st.dealt += 1
            st.count -= 1
        elif step == S_ROW:
            self._draw_face_up(st, x)
            st.discard[st.ndiscard] = <uint8_t>x
            st.ndiscard += 1
            st.count -= 1
        elif step == S_TILE:
            src = self._draw_source(st)
            if src == 3:
                st.pool &= ~((<uint64_t>1) << x)
            else:
                st.stacks[src] &= ~((<uint64_t>1) << x)
            st.held[st.nheld] = <uint8_t>x
            st.nheld += 1
            st.count -= 1
        elif step == S_ROLL:
            st.total += x + 1
            st.count -= 1
        elif step == S_INV_DRAW:
            self._draw_hidden(st, st.cur, x)
            st.inv_cards[x] += 1
            st.total -= 1
        elif step == S_GIVE_DRAW:
            st.handout[x] -= 1
            st.hands[st.target][x] += 1
            st.step = S_GIVE
        elif step == S_SHARE:
            st.handout[x] -= 1
            p = st.queue[0]
            self._pop_queue(st)
            st.hands[p][x] += 1

    cdef void _roles_done(self, GL* st) noexcept nogil:
        cdef int p
        for p in range(self.n):
            if st.roles[p] < 0:
                st.roles[p] = HUMAN
        st.step = S_DEAL
        st.count = 2 * self.n

    cdef void _draw_hidden(self, GL* st, int p, int t) noexcept nogil:
        cdef int q
        st.deck[t] -= 1
        for q in range(self.n):
            if q == p:
                if st.deck_known[q][t]:
                    st.deck_known[q][t] -= 1
            else:
                memset(st.deck_known[q], 0, NT)

    cdef void _draw_face_up(self, GL* st, int t) noexcept nogil:
        cdef int q
        st.deck[t] -= 1
        for q in range(self.n):
            if st.deck_known[q][t]:
                st.deck_known[q][t] -= 1

    cdef void _to_refresh(self, GL* st, int p, int t) noexcept nogil:
        st.hands[p][t] -= 1
        st.refresh[t] += 1
        st.refresh_known[p][t] += 1
        memset(st.known[p], 0, NT)

    cdef void _discard_face_up(self, GL* st, int p, int t) noexcept nogil:
        st.hands[p][t] -= 1
        st.discard[st.ndiscard] = <uint8_t>t
        st.ndiscard += 1
        if st.known[p][t]:
            st.known[p][t] -= 1

    cdef void _to_pool(self, GL* st, int p, int tile) noexcept nogil:
        st.pool |= (<uint64_t>1) << tile
        st.pool_known[p] |= (<uint64_t>1) << tile

    cdef void _apply_decision(self, GL* st, int p, int action) noexcept nogil:
        cdef int step = st.step, arg, t, k, other, yes
        if A_REFRESH <= action < A_REFRESH + NT:
            self._to_refresh(st, p, action - A_REFRESH)
            if step == S_TURN_DISCARD:
                self._after_advance(st)
            return
        if step == S_KEEP:
            arg = action - A_KEEP
            st.hands[p][arg] -= 1
            st.kept[arg] += 1
            if _sum(st.kept) == 3:
                for t in range(NT):
                    st.deck[t] += st.hands[p][t]
                    st.deck_known[p][t] += st.hands[p][t]
                memcpy(st.hands[p], st.kept, NT)
                memset(st.kept, 0, NT)
                if p + 1 < self.n and self._deal_together():
                    st.cur = p + 1
                elif p + 1 < self.n:
                    st.step = S_DEAL
                    st.cur = -1
                    st.count = 10
                else:
                    st.step = S_ROW
                    st.cur = -1
                    st.count = 6
            return
        if step == S_ACTION:
            self._turn_action(st, p, action)
        elif step == S_KEEP_TILE:
            arg = action - A_KEEP_TILE
            other = st.held[1] if st.held[0] == arg else st.held[0]
            self._to_pool(st, p, other)
            st.held[0] = <uint8_t>arg
            st.held[1] = 0
            st.nheld = 1
            self._start_placement(st)
        elif step == S_PLACE:
            arg = action - A_PLACE
            self._place(st, arg // 4, arg % 4)
        elif step == S_CONTRIB:
            if action == A_DONE:
                self._pop_queue(st)
                st.cur = st.queue[0] if st.qlen else -1
            else:
                if action == A_LIFE:
                    st.life[p] -= 1
                else:
                    self._discard_face_up(st, p, action - A_CONTRIB)
                st.count += 1
                st.stats[p][1] += 1
        elif step == S_ASSIGN:
            st.cur = action - A_ASSIGN
            st.count -= 1
            st.step = S_INV_DRAW
            st.total = 2
        elif step == S_INV_KEEP:
            arg = action - A_KEEP
            st.inv_cards[arg] -= 1
            st.hands[p][arg] += 1
            for t in range(NT):
                for k in range(st.inv_cards[t]):
                    st.discard[st.ndiscard] = <uint8_t>t
                    st.ndiscard += 1
            memset(st.inv_cards, 0, NT)
            st.step = S_ASSIGN
            st.cur = st.turn
        elif step == S_VOTE:
            yes = 1 if action == A_YES else 0
            st.bal_seat[st.nballots] = <uint8_t>p
            st.bal_vote[st.nballots] = <uint8_t>yes
            st.nballots += 1
            st.total += yes
            self._pop_queue(st)
            if st.qlen:
                st.cur = st.queue[0]
            else:
                self._resolve_vote(st)
        elif step == S_HALF_VOTE:
            yes = 1 if action == A_YES else 0
            st.bal_seat[st.nballots] = <uint8_t>p
            st.bal_vote[st.nballots] = <uint8_t>yes
            st.nballots += 1
            self._pop_queue(st)
            if not yes or not st.qlen:
                st.half_agreed = yes
                self._back_to_action(st)
            else:
                st.cur = st.queue[0]
        elif step == S_GIVE:
            st.target = action - A_GIVE
            st.step = S_GIVE_DRAW

    cdef void _queue_from(self, GL* st, int start, int skip) noexcept nogil:
        """The living seats in seat order from ``start`` (``skip`` left out) as the queue."""
        cdef int i, q
        memset(st.queue, 0, QCAP)
        st.qlen = 0
        for i in range(self.n):
            q = (start + i) % self.n
            if st.life[q] > 0 and q != skip:
                st.queue[st.qlen] = <uint8_t>q
                st.qlen += 1

    cdef void _turn_action(self, GL* st, int p, int action) noexcept nogil:
        cdef int arg, x, y, j, tile, i
        if action == A_END:
            st.ap = 0
        elif action == A_RECOVER:
            st.ap -= 1
            st.hands[p][RECOVERY] -= 1
            if st.known[p][RECOVERY]:
                st.known[p][RECOVERY] -= 1
            st.recoveries += 1
            st.life[p] += st.recoveries
        elif action == A_SCOUT:
            st.ap -= 1
            st.step = S_TILE
            st.nheld = 0
            st.held[0] = st.held[1] = 0
            st.count = 2
            i = self._distance(st)
            st.target = 0 if i <= 3 else (1 if i <= 6 else 2)
        elif A_MOVE <= action < A_MOVE + 4:
            arg = action - A_MOVE
            x = st.team[0] + DX[arg]
            y = st.team[1] + DY[arg]
            j = _at(st, x, y)
            tile = st.pl_tile[j]
            st.ap -= MOVE_COST[T_TERRAIN[tile]]
            st.team_from[0] = st.team[0]
            st.team_from[1] = st.team[1]
            st.team[0] = <int8_t>x
            st.team[1] = <int8_t>y
            if st.pl_open[j] and T_HAZARD[tile] != CRASH:
                st.step = S_CONTRIB
                st.target = <int8_t>j
                st.count = 0
                st.total = 0
                self._queue_from(st, p, -1)
                st.cur = <int8_t>p
                for i in range(st.qlen):
                    st.stats[st.queue[i]][0] += 1
            elif st.pl_open[j]:
                st.step = S_ASSIGN
                st.target = <int8_t>j
                st.count = <int16_t>T_NUMBER[tile]
                st.cur = <int8_t>p
            else:
                self._arrived(st)
        elif A_VOTE <= action < A_VOTE + MAXP:
            st.ap -= 2
            arg = action - A_VOTE
            st.step = S_VOTE
            st.target = <int8_t>arg
            st.total = 0
            st.nballots = 0
            memset(st.bal_seat, 0, MAXP)
            memset(st.bal_vote, 0, MAXP)
            self._queue_from(st, p, arg)
            st.cur = st.queue[0]
        elif A_STRIKE <= action < A_STRIKE + MAXP:
            st.ap -= 2
            self._strike(st, p, action - A_STRIKE)
        elif action == A_HALF:
            st.half_called = 1
            self._queue_from(st, p, p)
            st.nballots = 0
            memset(st.bal_seat, 0, MAXP)
            memset(st.bal_vote, 0, MAXP)
            if st.qlen:
                st.step = S_HALF_VOTE
                st.cur = st.queue[0]
            else:
                st.half_agreed = 1

    cdef void _back_to_action(self, GL* st) noexcept nogil:
        st.step = S_ACTION
        st.cur = st.turn
        st.target = -1
        st.count = 0
        st.total = 0
        st.qlen = 0
        memset(st.queue, 0, QCAP)
        st.nballots = 0
        memset(st.bal_seat, 0, MAXP)
        memset(st.bal_vote, 0, MAXP)

    cdef void _arrived(self, GL* st) noexcept nogil:
        cdef int j = self._team_index(st)
        self._back_to_action(st)
        if T_TERRAIN[st.pl_tile[j]] == CIVILIZATION and not st.pl_open[j]:
            st.result = TEAM_ESCAPES
            st.step = S_OVER
            st.cur = -1

    cdef void _start_placement(self, GL* st) noexcept nogil:
        if self._placements(st, st.held[0], NULL, NULL) == CLS_NONE:
            st.nheld -= 1
            self._to_pool(st, st.turn, st.held[st.nheld])
            st.held[st.nheld] = 0
            self._back_to_action(st)
        else:
            st.step = S_PLACE
            st.cur = st.turn

    cdef void _place(self, GL* st, int cell, int rot) noexcept nogil:
        cdef int tile, x, y, i, p
        cdef bint far
        st.nheld -= 1
        tile = st.held[st.nheld]
        st.held[st.nheld] = 0
        x = cell % GSIZE - RADIUS
        y = cell // GSIZE - RADIUS
        # The placement's class without listing them again: the legal placements are all of one
        # class, class A ones are next to the Team, class B ones diagonal to it, and class C ones
        # neither (a fit there would have made the class A or B).
        far = abs(x - st.team[0]) > 1 or abs(y - st.team[1]) > 1
        i = st.nplaced
        st.pl_tile[i] = <uint8_t>tile
        st.pl_x[i] = <int8_t>x
        st.pl_y[i] = <int8_t>y
        st.pl_rot[i] = <uint8_t>rot
        st.pl_open[i] = 1 if T_HAZARD[tile] else 0
        st.nplaced += 1
        st.grid[cell] = <uint8_t>(i + 1)
        _link(st, i)
        for p in range(self.n):
            st.pool_known[p] &= ~((<uint64_t>1) << tile)
        self._back_to_action(st)
        if far:
            self._lose_life(st, st.turn)

    cdef void _lose_life(self, GL* st, int p) noexcept nogil:
        cdef int t
        if st.life[p] > 0:
            st.life[p] -= 1
        if st.life[p] == 0:
            for t in range(NT):
                while st.hands[p][t]:
                    self._to_refresh(st, p, t)

    cdef void _strike(self, GL* st, int hunter, int victim) noexcept nogil:
        cdef int t, i, k, share, nothers = 0, total
        cdef int others[MAXP]
        st.revealed[hunter] = 1
        st.revealed[victim] = 1
        memcpy(st.handout, st.hands[victim], NT)
        memset(st.hands[victim], 0, NT)
        memset(st.known[victim], 0, NT)
        st.life[victim] = 0
        if st.roles[victim] == ALIEN:
            st.alien_card = 1
            st.step = S_GIVE
            st.cur = <int8_t>hunter
            return
        for t in range(NT):
            st.handout[t] += st.hands[hunter][t]
        memset(st.hands[hunter], 0, NT)
        memset(st.known[hunter], 0, NT)
        st.life[hunter] = 0
        for i in range(self.n):
            k = (hunter + i) % self.n
            if st.life[k] > 0:
                others[nothers] = k
                nothers += 1
        total = _sum(st.handout)
        share = total // nothers if nothers else 0
        memset(st.queue, 0, QCAP)
        st.qlen = 0
        for k in range(share):
            for i in range(nothers):
                st.queue[st.qlen] = <uint8_t>others[i]
                st.qlen += 1
        st.step = S_SHARE
        st.cur = -1

    cdef void _resolve_vote(self, GL* st) noexcept nogil:
        cdef int target = st.target
        if 2 * st.total > st.nballots:
            memcpy(st.handout, st.hands[target], NT)
            memset(st.hands[target], 0, NT)
            memset(st.known[target], 0, NT)
            st.life[target] = 0
            self._back_to_action(st)
            st.step = S_GIVE
        else:
            self._back_to_action(st)

    cdef void _finish_actions(self, GL* st) noexcept nogil:
        cdef int p = st.turn, t
        if st.life[p] > 0 and st.ndiscard:
            st.ndiscard -= 1
            t = st.discard[st.ndiscard]
            st.discard[st.ndiscard] = 0
            st.hands[p][t] += 1
            st.known[p][t] += 1
            st.step = S_TURN_DISCARD
            st.cur = <int8_t>p
        else:
            self._after_advance(st)

    cdef void _after_advance(self, GL* st) noexcept nogil:
        cdef int p
        cdef bint alive[MAXP]
        if not st.ndiscard:
            for p in range(self.n):
                alive[p] = st.life[p] > 0
            for p in range(self.n):
                if alive[p]:
                    self._lose_life(st, p)
            self._back_to_action(st)
            st.step = S_ROW
            st.cur = -1
            st.count = 6
        else:
            self._next_turn(st)

    cdef void _next_turn(self, GL* st) noexcept nogil:
        cdef int i, q
        for i in range(1, self.n + 1):
            q = (st.turn + i) % self.n
            if st.life[q] > 0:
                self._start_turn(st, q)
                return
        self._back_to_action(st)

    cdef void _start_turn(self, GL* st, int p) noexcept nogil:
        st.turn = <int8_t>p
        st.ap = 2
        st.half_called = 0
        self._back_to_action(st)

    cdef void _reshuffle(self, GL* st) noexcept nogil:
        cdef int p
        memcpy(st.deck, st.refresh, NT)
        memset(st.refresh, 0, NT)
        for p in range(self.n):
            memcpy(st.deck_known[p], st.refresh_known[p], NT)
            memset(st.refresh_known[p], 0, NT)

    cdef bint _game_over(self, GL* st) noexcept nogil:
        cdef int a = self._alien_seat(st), p
        cdef bint team_alive = False
        for p in range(self.n):
            if st.life[p] > 0 and st.roles[p] != ALIEN:
                team_alive = True
        if a >= 0 and st.life[a] > 0 and _tech_ap(st.hands[a]) >= 50:
            st.revealed[a] = 1
            st.result = ALIEN_WINS
        elif not team_alive:
            st.result = ALIEN_WINS
        elif st.step == S_ACTION and not self._escape_possible(st):
            st.result = ALIEN_WINS
        else:
            return False
        st.step = S_OVER
        st.cur = -1
        return True

    cdef void _settle(self, GL* st) noexcept nogil:
        """The automatic steps; also sets ``st.lim``.

        Every way out below, but the one for a seat over its hand limit, leaves a state
        whose limit seat is -1: the game is over, or the loop has just found no seat over
        its limit and changed no hand, life or turn since (a ``return`` follows at most a
        change of step, current seat, deck or counter). The differential test checks it
        against the reference engine's current player at every move.
        """
        cdef int step, tough, j, lim
        st.lim = -1
        while True:
            step = st.step
            if step == S_OVER:
                return
            if st.turn >= 0 and self._game_over(st):
                return
            lim = self._limit_seat(st)
            if lim >= 0:
                st.lim = <int8_t>lim
                return
            if (step == S_ROW or step == S_INV_DRAW) and not _any(st.deck) and _any(st.refresh):
                self._reshuffle(st)
            if step == S_DEAL:
                if st.count > 0:
                    return
                if st.dealt == 2 * self.n:
                    st.count = 10 * (self.n if self._deal_together() else 1)
                elif self._deal_together():
                    st.step = S_KEEP
                    st.cur = 0
                else:
                    st.step = S_KEEP
                    st.cur = <int8_t>(self._deal_seat(st) - 1)
                continue
            if step == S_ROW:
                if st.count > 0 and _any(st.deck):
                    return
                if st.turn < 0:
                    self._start_turn(st, 0)
                else:
                    self._next_turn(st)
                continue
            if step == S_ACTION:
                if st.life[st.turn] == 0 or st.ap == 0:
                    self._finish_actions(st)
                    continue
                return
            if step == S_TILE:
                if st.count > 0 and self._draw_source(st) >= 0:
                    return
                if st.nheld == 2:
                    st.step = S_KEEP_TILE
                    st.cur = st.turn
                    return
                self._start_placement(st)
                continue
            if step == S_CONTRIB:
                if st.qlen:
                    st.cur = st.queue[0]
                    return
                st.step = S_ROLL
                st.cur = -1
                continue
            if step == S_ROLL:
                tough = T_NUMBER[st.pl_tile[st.target]]
                if st.total > tough:
                    st.pl_open[st.target] = 0
                    self._arrived(st)
                    continue
                if st.total + 6 * st.count <= tough:
                    st.team[0] = st.team_from[0]
                    st.team[1] = st.team_from[1]
                    self._back_to_action(st)
                    continue
                return
            if step == S_ASSIGN:
                if st.count > 0:
                    return
                st.pl_open[st.target] = 0
                self._arrived(st)
                continue
            if step == S_INV_DRAW:
                if st.total > 0 and _any(st.deck):
                    return
                st.total = 0
                if _any(st.inv_cards):
                    st.step = S_INV_KEEP
                    return
                st.step = S_ASSIGN
                st.cur = st.turn
                continue
            if step == S_GIVE or step == S_GIVE_DRAW:
                if _any(st.handout):
                    return
                self._back_to_action(st)
                continue
            if step == S_SHARE:
                if st.qlen and _any(st.handout):
                    return
                for j in range(NT):
                    st.refresh[j] += st.handout[j]
                memset(st.handout, 0, NT)
                self._back_to_action(st)
                continue
            return

    # -- results ------------------------------------------------------------------------
    cdef inline int _ap_of(self, const GL* st, int p) noexcept nogil:
        return _total_ap(st.hands[p]) + (50 if st.alien_card and st.roles[p] == HUNTER else 0)

    cdef int _winners(self, const GL* st) noexcept nogil:
        """The winners as a bit mask of seats (0 before the end)."""
        cdef int p, best = -1, v, mask = 0
        if st.result == ALIEN_WINS:
            p = self._alien_seat(st)
            return (1 << p) if p >= 0 else 0
        if st.result != TEAM_ESCAPES:
            return 0
        for p in range(self.n):
            if st.life[p] > 0 and st.roles[p] != ALIEN:
                v = self._ap_of(st, p)
                if st.half_agreed:
                    mask |= 1 << p
                elif v > best:
                    best = v
                    mask = 1 << p
                elif v == best:
                    mask |= 1 << p
        return mask

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const GL* st = <const GL*>s
        cdef int p, mask, k
        if st.step != S_OVER:
            for p in range(self.n):
                out[p] = 0.0
            return
        mask = self._winners(st)
        k = __builtin_popcountll(mask)
        for p in range(self.n):
            if (mask >> p) & 1:
                out[p] = 1.0 / k
            else:
                out[p] = -1.0 / (self.n - k)

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        self._evaluate_with(s, self.value_weights, out)

    cdef void evaluate_for(self, const void* s, int searcher, double* out) noexcept nogil:
        # value_model.learned_values(state, searcher=...): the weights of the searching seat's role.
        cdef const GL* st = <const GL*>s
        if searcher < 0 or searcher >= self.n:
            self._evaluate_with(s, self.value_weights, out)
        elif st.roles[searcher] == ALIEN:
            self._evaluate_with(s, self.alien_weights, out)
        else:
            self._evaluate_with(s, self.human_weights, out)

    cdef void _evaluate_with(self, const void* s, const double* w, double* out) noexcept nogil:
        # value_model.learned_values: the same features, float operations and order.
        cdef const GL* st = <const GL*>s
        cdef int i, p, t, clear = -1, hazard = 0, dist, members = 0, life = 0, cards = 0, alien_alive = 0, lake
        cdef int tech = 0, fewest = 0, recovery = 0, empty = 0, left = 0, civ = 0, x, y, k, winners, c
        cdef int starters = self.n - 1
        cdef uint64_t m
        cdef double z, escape, total, win, lost_escape, lost_alien, v, best = 0.0
        cdef double f[NESC]
        cdef double r[NRACE]
        cdef double share[MAXP]
        if st.step == S_OVER:
            self.returns(s, out)
            return
        # heuristic.escape_inputs
        for i in range(st.nplaced):
            if T_TERRAIN[st.pl_tile[i]] == CIVILIZATION:
                if st.pl_open[i]:
                    hazard = 1
                else:
                    dist = abs(st.pl_x[i] - st.team[0]) + abs(st.pl_y[i] - st.team[1])
                    if clear < 0 or dist < clear:
                        clear = dist
        for p in range(self.n):
            if st.roles[p] == ALIEN:
                alien_alive = 1 if st.life[p] > 0 else 0
                tech = _tech_ap(st.hands[p])
            elif st.life[p] > 0:
                members += 1
                life += st.life[p]
                for t in range(NT):
                    if AP_VALUE[t] == 0:
                        cards += st.hands[p][t]
                if fewest == 0 or st.life[p] < fewest:
                    fewest = st.life[p]
                recovery += st.hands[p][RECOVERY]
        for i in range(4):
            x = st.team[0] + DX[i]
            y = st.team[1] + DY[i]
            if _in_grid(x, y) and _at(st, x, y) < 0:
                empty += 1
        for k in range(3):
            m = st.stacks[k]
            left += __builtin_popcountll(m)
            while m:
                t = __builtin_ctzll(m)
                m &= m - 1
                if T_TERRAIN[t] == CIVILIZATION:
                    civ += 1
        lake = abs(<int>st.team[0]) + abs(<int>st.team[1])
        f[0] = 1.0
        f[1] = 1.0 if self.n == 4 else 0.0
        f[2] = 1.0 if self.n == 5 else 0.0
        f[3] = 1.0 if self.n == 6 else 0.0
        f[4] = 1.0 if clear == 1 else 0.0
        f[5] = 1.0 if clear >= 0 else 0.0
        c = clear if clear > 0 else 0
        f[6] = <double>(c if c < 8 else 8)
        f[7] = 1.0 if hazard else 0.0
        f[8] = <double>(lake if lake < 8 else 8)
        f[9] = st.nplaced / 10.0
        f[10] = members / <double>starters
        f[11] = life / <double>starters
        f[12] = cards / <double>starters
        f[13] = <double>alien_alive
        f[14] = tech / 10.0
        f[15] = <double>st.ndiscard
        f[16] = <double>fewest
        f[17] = <double>empty
        f[18] = left / 10.0
        f[19] = <double>civ
        f[20] = <double>recovery
        f[21] = <double>st.recoveries
        f[22] = members / <double>starters if self.n == 3 else 0.0
        z = 0.0
        for i in range(NESC):
            z += w[i] * f[i]
        escape = 1.0 / (1.0 + exp(-z))
        # value_model.race_shares: a softmax of the race score over the living Team (seat order),
        # less the best score; equal shares once a Half-Win is agreed.
        k = 0  # living Team members scored so far
        for p in range(self.n):
            if st.roles[p] != ALIEN and st.life[p] > 0:
                if st.half_agreed:
                    share[p] = 1.0 / members
                    continue
                c = 0
                for t in range(NT):
                    if AP_VALUE[t] == 0:
                        c += st.hands[p][t]
                r[0] = self._ap_of(st, p) / 10.0
                r[1] = <double>st.life[p]
                r[2] = <double>c
                z = 0.0
                for i in range(NRACE):
                    z += w[NESC + i] * r[i]
                share[p] = z
                if k == 0 or z > best:
                    best = z
                k += 1
        if k:
            total = 0.0
            for p in range(self.n):
                if st.roles[p] != ALIEN and st.life[p] > 0:
                    share[p] = exp(share[p] - best)
                    total += share[p]
            for p in range(self.n):
                if st.roles[p] != ALIEN and st.life[p] > 0:
                    share[p] = share[p] / total
        winners = members if st.half_agreed else 1
        lost_escape = -1.0 / (self.n - winners)
        lost_alien = -1.0 / (self.n - 1)
        for p in range(self.n):
            if st.roles[p] == ALIEN:
                v = (1.0 - escape) + escape * lost_escape
            elif st.life[p] > 0:
                if st.half_agreed:
                    v = escape * share[p] + (1.0 - escape) * lost_alien
                else:
                    win = escape * share[p]
                    v = win + (1.0 - win) * lost_alien
            else:
                v = escape * lost_escape + (1.0 - escape) * lost_alien
            out[p] = v

    cdef uint64_t state_hash(self, const void* s) noexcept nogil:
        return hash_bytes(s, <Py_ssize_t>(<size_t>&(<GL*>s).grid[0] - <size_t>s), <uint64_t>0x67726f6f6d)

    cdef void clone_into(self, const void* src, void* dst) noexcept nogil:
        memcpy(dst, src, sizeof(GL))

    # -- information ----------------------------------------------------------------------
    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # The reference information string is the JSON of view(player): every field of the
        # state, except what the view hides, which is replaced here by exactly what it shows:
        # other players' roles (unless revealed or over), their hands (sizes), their private
        # records (nothing), the kept cards of another keeper (size), the deck (size, with the
        # Alien's set-aside cards during the deal), the Refresh stack (size), the stacks (sizes),
        # the pool (origins), another scout's held tiles (origins), another investigator's
        # cards (size), the hand-out (size); plus the winners, which the view lists at the end.
        cdef GL tmp
        cdef const GL* st = <const GL*>s
        cdef int q, a, i, step = st.step
        cdef uint64_t m
        cdef int origins[3]
        cdef Py_ssize_t size = <Py_ssize_t>(<size_t>&tmp.grid[0] - <size_t>&tmp)
        memcpy(&tmp, s, size)
        for q in range(self.n):
            if q != player:
                if not st.revealed[q] and step != S_OVER:
                    tmp.roles[q] = 99
                a = _sum(tmp.hands[q])
                memset(tmp.hands[q], 0, NT)
                tmp.hands[q][0] = <uint8_t>a
                memset(tmp.deck_known[q], 0, NT)
                memset(tmp.refresh_known[q], 0, NT)
                tmp.pool_known[q] = 0
        if not (step == S_KEEP and st.cur == player):
            a = _sum(tmp.kept)
            memset(tmp.kept, 0, NT)
            tmp.kept[0] = <uint8_t>a
        a = _sum(tmp.deck) + (self._reserve(st) if (step == S_ROLES or step == S_DEAL) else 0)
        memset(tmp.deck, 0, NT)
        tmp.deck[0] = <uint8_t>a
        a = _sum(tmp.refresh)
        memset(tmp.refresh, 0, NT)
        tmp.refresh[0] = <uint8_t>a
        for i in range(3):
            tmp.stacks[i] = <uint64_t>__builtin_popcountll(st.stacks[i])
            origins[i] = 0
        m = st.pool
        while m:
            origins[T_STACK[__builtin_ctzll(m)]] += 1
            m &= m - 1
        tmp.pool = <uint64_t>origins[0] | (<uint64_t>origins[1] << 16) | (<uint64_t>origins[2] << 32)
        if not (player == st.turn and (step == S_TILE or step == S_KEEP_TILE or step == S_PLACE)):
            for i in range(st.nheld):
                tmp.held[i] = <uint8_t>T_STACK[st.held[i]]
            if st.nheld == 2 and tmp.held[0] > tmp.held[1]:
                tmp.held[0], tmp.held[1] = tmp.held[1], tmp.held[0]
        if not (player == st.cur and (step == S_INV_DRAW or step == S_INV_KEEP)):
            a = _sum(tmp.inv_cards)
            memset(tmp.inv_cards, 0, NT)
            tmp.inv_cards[0] = <uint8_t>a
        a = _sum(tmp.handout)
        memset(tmp.handout, 0, NT)
        tmp.handout[0] = <uint8_t>a
        m = hash_bytes(&tmp, size, <uint64_t>0x67726f6f6d6c)
        if step == S_OVER:
            m ^= mix64(<uint64_t>(self._winners(st) + 1) * <uint64_t>0x9E3779B97F4A7C15)
        return mix64(m ^ (<uint64_t>player + 1))

    # -- determinization (knowledge.py in C) ------------------------------------------------
    cdef int _forced_recovery_of(self, const GL* st, int seat) noexcept nogil:
        cdef int first = 2 * self.n, k, m, c = 0
        if st.step == S_ROLES or (st.step == S_DEAL and (st.dealt <= first or self._deal_together())):
            m = st.dealt if st.dealt < first else first
            for k in range(m):
                if k % self.n == seat:
                    c += 1
            return c
        if st.step == S_DEAL and seat >= self._deal_seat(st):
            return 2
        if st.step == S_KEEP and seat > st.cur:
            return 2
        return 0

    cdef bint _violations(self, const GL* st, int o) noexcept nogil:
        """True when knowledge.knowledge_violations(state, o) is not empty."""
        cdef int p, t, a, need
        cdef uint64_t held_mask = 0
        for p in range(self.n):
            for t in range(NT):
                if st.known[p][t] > st.hands[p][t]:
                    return True
        for t in range(NT):
            if st.deck_known[o][t] > st.deck[t] or st.refresh_known[o][t] > st.refresh[t]:
                return True
        for p in range(st.nheld):
            held_mask |= (<uint64_t>1) << st.held[p]
        if st.pool_known[o] & ~(st.pool | held_mask):
            return True
        a = self._alien_seat(st)
        if a >= 0:
            need = self._forced_recovery_of(st, a)
            if need and st.hands[a][RECOVERY] < need:
                return True
            if st.turn >= 0 and st.step != S_OVER and st.life[a] > 0 and _tech_ap(st.hands[a]) >= 50:
                return True
        if st.step == S_PLACE and st.nheld and self._placements(st, st.held[0], NULL, NULL) == CLS_NONE:
            return True
        return False

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # The world is drawn in place, from a copy of the bytes before the map's grid (a
        # world never changes the map; the grid is 9 KB of the state's 10): ``orig`` has no
        # grid, so _det_try reads the map from the world.
        cdef GL* st = <GL*>s
        cdef GL orig
        cdef size_t head = <size_t>&orig.grid[0] - <size_t>&orig
        cdef int k
        if st.step == S_OVER:
            return True
        memcpy(&orig, s, head)
        for k in range(DET_TRIES):
            if k:
                memcpy(s, &orig, head)
            if self._det_try(st, &orig, observer, rng) and not self._violations(st, observer):
                st.lim = <int8_t>self._limit_seat(st)
                self.det_calls += 1  # statistics only (racy under root-parallel threads)
                self.det_redraws += k
                return True
        memcpy(s, &orig, head)
        self.det_failures += 1
        return False

    cdef bint _det_try(self, GL* w, const GL* st, int o, Rng* rng) noexcept nogil:
        cdef int n = self.n, p, t, a, h, i, j, k, x, nw = 0, keeper, investigator, in_deal, reserve, total, draw
        cdef int public_deck, deck_slots, first, need, room, pos, ncards, scouter, step = st.step
        cdef int hidden[NT]
        cdef int seen[NT]
        cdef int weights[NT]
        cdef int hand_slots[MAXP]
        cdef int hands[MAXP][NT]
        cdef int cards[64]
        cdef int roles[MAXP]
        cdef int world_alien[MAXP * MAXP]
        cdef int world_hunter[MAXP * MAXP]
        cdef int known_tiles[NTILES]
        cdef int free_tiles[NTILES]
        cdef int new_held[2]
        cdef int pool_origins[3]
        cdef int held_origins[3]
        cdef int nfree, nknown, nheld_new = 0, npool_s, need_held, need_pool, fit_n, nstack, tile
        cdef uint64_t placed_mask = 0, o_held = 0, new_pool = 0, m
        cdef bint ok, in_setup = st.turn < 0, team_alive

        # -- roles (knowledge._role_worlds and _pick_roles) -----------------------------------
        if step == S_ROLES:
            a = self._alien_seat(st)
            if a >= 0 and st.roles[o] != ALIEN:
                # The Alien is any seat but o's.
                x = rng_below(rng, n - 1)
                a = x if x < o else x + 1
                for p in range(n):
                    w.roles[p] = ALIEN if p == a else -1
        else:
            # List the consistent assignments (Alien, Hunter or -1), in order, then pick one.
            for a in range(n):
                for h in range(-1 if n < 5 else 0, n if n >= 5 else 0):
                    if h == a:
                        continue
                    for p in range(n):
                        roles[p] = ALIEN if p == a else (HUNTER if p == h else HUMAN)
                    ok = True
                    for p in range(n):
                        if (p == o or st.revealed[p]) and roles[p] != st.roles[p]:
                            ok = False
                    if ok and not in_setup:
                        team_alive = False
                        for p in range(n):
                            if st.life[p] > 0 and roles[p] != ALIEN:
                                team_alive = True
                        ok = team_alive
                    if ok:
                        world_alien[nw] = a
                        world_hunter[nw] = h
                        nw += 1
            if nw == 0:
                return False
            # knowledge._pick_roles: each assignment weighted by knowledge.alien_weight of its Alien.
            total = 0
            for x in range(nw):
                total += _alien_weight(st, world_alien[x])
            draw = rng_below(rng, total)
            for x in range(nw):
                draw -= _alien_weight(st, world_alien[x])
                if draw < 0:
                    break
            for p in range(n):
                w.roles[p] = ALIEN if p == world_alien[x] else (HUNTER if p == world_hunter[x] else HUMAN)
        a = self._alien_seat(w)

        # -- cards ------------------------------------------------------------------------------
        keeper = st.cur if step == S_KEEP else -1
        investigator = st.cur if (step == S_INV_DRAW or step == S_INV_KEEP) else -1
        for t in range(NT):
            hidden[t] = TYPE_COUNT[t]
            seen[t] = st.hands[o][t]
            for p in range(n):
                if p != o:
                    seen[t] += st.known[p][t]
            if keeper == o:
                seen[t] += st.kept[t]
            if investigator == o:
                seen[t] += st.inv_cards[t]
        hidden[RECOVERY] -= st.recoveries
        for i in range(st.ndiscard):
            seen[st.discard[i]] += 1
        for t in range(NT):
            hidden[t] -= seen[t]
            if hidden[t] < 0:
                return False
        in_deal = step == S_ROLES or step == S_DEAL
        reserve = 0
        if in_deal:
            first = 2 * n
            reserve = 2
            if a >= 0:
                for k in range(st.dealt if st.dealt < first else first):
                    if k % n == a:
                        reserve -= 1
        public_deck = _sum(st.deck) + (self._reserve(st) if in_deal else 0)
        deck_slots = public_deck - reserve
        for p in range(n):
            hand_slots[p] = _sum(st.hands[p]) - _sum(st.known[p]) if p != o else 0
            for t in range(NT):
                hands[p][t] = st.known[p][t] if p != o else st.hands[o][t]
        for t in range(NT):
            hidden[t] -= st.refresh_known[o][t] + st.deck_known[o][t]
            if hidden[t] < 0:
                return False
        hidden[RECOVERY] -= reserve
        if hidden[RECOVERY] < 0:
            return False
        if a >= 0 and a != o:
            need = self._forced_recovery_of(st, a)
            if need:
                if hand_slots[a] < need or hidden[RECOVERY] < need:
                    return False
                hidden[RECOVERY] -= need
                hands[a][RECOVERY] += need
                hand_slots[a] -= need
            if not in_setup and step != S_OVER and st.life[a] > 0:
                # The Alien's hand card by card, never reaching its weapon's 50 Technology AP.
                for k in range(hand_slots[a]):
                    room = 49 - (5 * hands[a][9] + 10 * hands[a][10] + 15 * hands[a][11] + 20 * hands[a][12])
                    for t in range(NT):
                        weights[t] = hidden[t] if (not IS_TECH[t] or AP_VALUE[t] <= room) else 0
                    t = _draw_weighted(rng, weights, 0x1FFF)
                    if t < 0:
                        return False
                    hidden[t] -= 1
                    hands[a][t] += 1
                hand_slots[a] = 0
        ncards = 0
        for t in range(NT):
            for k in range(hidden[t]):
                if ncards >= 64:
                    return False
                cards[ncards] = t
                ncards += 1
        for i in range(ncards - 1, 0, -1):
            j = rng_below(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        pos = 0
        for p in range(n):
            if p == o:
                continue
            if hand_slots[p] < 0 or pos + hand_slots[p] > ncards:
                return False
            for k in range(hand_slots[p]):
                hands[p][cards[pos]] += 1
                pos += 1
        if keeper >= 0 and keeper != o:
            k = _sum(st.kept)
            if pos + k > ncards:
                return False
            memset(w.kept, 0, NT)
            for i in range(k):
                w.kept[cards[pos]] += 1
                pos += 1
        if investigator >= 0 and investigator != o:
            k = _sum(st.inv_cards)
            if pos + k > ncards:
                return False
            memset(w.inv_cards, 0, NT)
            for i in range(k):
                w.inv_cards[cards[pos]] += 1
                pos += 1
        k = _sum(st.handout)
        if pos + k > ncards:
            return False
        memset(w.handout, 0, NT)
        for i in range(k):
            w.handout[cards[pos]] += 1
            pos += 1
        k = _sum(st.refresh) - _sum(st.refresh_known[o])
        if k < 0 or pos + k > ncards:
            return False
        memcpy(w.refresh, st.refresh_known[o], NT)
        for i in range(k):
            w.refresh[cards[pos]] += 1
            pos += 1
        k = deck_slots - _sum(st.deck_known[o])
        if k < 0 or pos + k > ncards:
            return False
        memcpy(w.deck, st.deck_known[o], NT)
        for i in range(k):
            w.deck[cards[pos]] += 1
            pos += 1
        if pos != ncards:
            return False
        for p in range(n):
            if p != o:
                for t in range(NT):
                    if hands[p][t] > 255:
                        return False
                    w.hands[p][t] = <uint8_t>hands[p][t]

        # -- tiles -------------------------------------------------------------------------------
        scouter = st.turn if (step == S_TILE or step == S_KEEP_TILE or step == S_PLACE) else -1
        for i in range(st.nplaced):
            placed_mask |= (<uint64_t>1) << st.pl_tile[i]
        if scouter == o:
            for i in range(st.nheld):
                o_held |= (<uint64_t>1) << st.held[i]
        pool_origins[0] = pool_origins[1] = pool_origins[2] = 0
        held_origins[0] = held_origins[1] = held_origins[2] = 0
        m = st.pool
        while m:
            pool_origins[T_STACK[__builtin_ctzll(m)]] += 1
            m &= m - 1
        for i in range(st.nheld):
            held_origins[T_STACK[st.held[i]]] += 1
        if scouter == o:
            nheld_new = st.nheld
            for i in range(st.nheld):
                new_held[i] = st.held[i]
        for k in range(3):
            nfree = 0
            nknown = 0
            m = STACK_MASK[k] & ~placed_mask & ~o_held
            while m:
                tile = __builtin_ctzll(m)
                m &= m - 1
                if (st.pool_known[o] >> tile) & 1:
                    known_tiles[nknown] = tile
                    nknown += 1
                else:
                    free_tiles[nfree] = tile
                    nfree += 1
            for i in range(nknown - 1, 0, -1):
                j = rng_below(rng, i + 1)
                known_tiles[i], known_tiles[j] = known_tiles[j], known_tiles[i]
            npool_s = nknown if nknown < pool_origins[k] else pool_origins[k]
            for i in range(npool_s):
                new_pool |= (<uint64_t>1) << known_tiles[i]
            need_held = 0
            if scouter != o:
                # The known tiles beyond the pool's share were drawn by the scout in progress.
                for i in range(npool_s, nknown):
                    if nheld_new >= 2:
                        return False
                    new_held[nheld_new] = known_tiles[i]
                    nheld_new += 1
                need_held = held_origins[k] - (nknown - npool_s)
            elif nknown > npool_s:
                return False  # known tiles with nowhere to go
            if need_held < 0:
                return False
            if step == S_PLACE and scouter != o and need_held == 1:
                # The scout is placing: its tile fits somewhere (the state offers a placement).
                fit_n = 0
                for i in range(nfree):
                    if self._placements(w, free_tiles[i], NULL, NULL) != CLS_NONE:  # st has no grid
                        known_tiles[fit_n] = i  # reuse: indices of fitting free tiles
                        fit_n += 1
                if fit_n == 0:
                    return False
                i = known_tiles[rng_below(rng, fit_n)]
                if nheld_new >= 2:
                    return False
                new_held[nheld_new] = free_tiles[i]
                nheld_new += 1
                nfree -= 1
                for j in range(i, nfree):
                    free_tiles[j] = free_tiles[j + 1]
                need_held = 0
            for i in range(nfree - 1, 0, -1):
                j = rng_below(rng, i + 1)
                free_tiles[i], free_tiles[j] = free_tiles[j], free_tiles[i]
            need_pool = pool_origins[k] - npool_s
            nstack = __builtin_popcountll(st.stacks[k])
            if need_pool < 0 or need_pool + need_held + nstack != nfree:
                return False
            for i in range(need_pool):
                new_pool |= (<uint64_t>1) << free_tiles[i]
            for i in range(need_pool, need_pool + need_held):
                if nheld_new >= 2:
                    return False
                new_held[nheld_new] = free_tiles[i]
                nheld_new += 1
            w.stacks[k] = 0
            for i in range(need_pool + need_held, nfree):
                w.stacks[k] |= (<uint64_t>1) << free_tiles[i]
        w.pool = new_pool
        if scouter != o:
            if nheld_new != st.nheld:
                return False
            if nheld_new == 2 and new_held[0] > new_held[1]:
                new_held[0], new_held[1] = new_held[1], new_held[0]
            w.held[0] = w.held[1] = 0
            for i in range(nheld_new):
                w.held[i] = <uint8_t>new_held[i]
        for p in range(n):
            if p != o:
                memset(w.deck_known[p], 0, NT)
                memset(w.refresh_known[p], 0, NT)
                w.pool_known[p] = 0
        return True

    # -- the playout policy: heuristic.policy ----------------------------------------------
    cdef bint _feasible(self, const GL* st, int me, int j) noexcept nogil:
        cdef int tile = st.pl_tile[j], hz = T_HAZARD[tile], items = 0, c, q
        if not st.pl_open[j] or hz == CRASH:
            return True
        for c in range(5):
            if (HELPS_MASK[hz] >> c) & 1:
                items += st.hands[me][c]
        if st.life[me] > 2:
            items += st.life[me] - 2
        for q in range(self.n):
            if q != me and st.life[q] > 0:
                items += 1
        return 3.5 * items > T_NUMBER[tile] + 1

    cdef int _route(self, const GL* st, int me, bint* reachable) noexcept nogil:
        """heuristic._route: (first direction towards the nearest Civilization, whether one is in reach)."""
        cdef int q[NTILES]
        cdef int first[NTILES]      # -2: not reached; -1: the start
        cdef int head = 0, tail = 1, i, d, j, start = self._team_index(st)
        for i in range(st.nplaced):
            first[i] = -2
        first[start] = -1
        q[0] = start
        while head < tail:
            i = q[head]
            head += 1
            if T_TERRAIN[st.pl_tile[i]] == CIVILIZATION:
                reachable[0] = True
                return first[i]
            for d in range(4):
                j = st.nbr[i][d]
                if j >= 0 and first[j] == -2 and T_TERRAIN[st.pl_tile[j]] != CANYON and self._feasible(st, me, j):
                    first[j] = d if first[i] == -1 else first[i]
                    q[tail] = j
                    tail += 1
        reachable[0] = False
        return -1

    cdef inline int _keep_new(self, int t, int role) noexcept nogil:
        return KEEP_NEW[1 if role == ALIEN else 0][t]

    cdef void _suspicion(self, const GL* st, int me, int* w) noexcept nogil:
        """heuristic.suspicion."""
        cdef int q, d
        for q in range(self.n):
            if q == me or st.revealed[q] or st.step == S_OVER or st.life[q] == 0:
                w[q] = 0
            else:
                d = st.stats[q][0] - st.stats[q][1]
                w[q] = 1 + (d if d > 0 else 0)

    cdef int _suspect(self, const int* w, int* top, int* second) noexcept nogil:
        """heuristic._suspect: the most suspect seat (or -1), its weight and the next one."""
        cdef int q, best = -1
        top[0] = 0
        second[0] = 0
        for q in range(self.n):
            if w[q] > top[0]:
                best = q
                second[0] = top[0]
                top[0] = w[q]
            elif w[q] > second[0]:
                second[0] = w[q]
        return best

    cdef void _lake_all(self, const GL* st, int* dist) noexcept nogil:
        """heuristic._lake_distances, per placed tile (Groom Lake is tile 0)."""
        cdef int q[NTILES]
        cdef int head = 0, tail = 1, i, d, j
        for i in range(st.nplaced):
            dist[i] = -1
        dist[0] = 0
        q[0] = 0
        while head < tail:
            i = q[head]
            head += 1
            for d in range(4):
                j = st.nbr[i][d]
                if j >= 0 and dist[j] < 0:
                    dist[j] = dist[i] + 1
                    q[tail] = j
                    tail += 1

    cdef bint _open_cell(self, const GL* st, int x, int y, bint diagonal) noexcept nogil:
        """heuristic._open_cell: an empty in-grid cell next to (x, y) (orthogonally, or diagonally)."""
        cdef int d, nx, ny
        for d in range(4):
            nx = x + (GX[d] if diagonal else DX[d])
            ny = y + (GY[d] if diagonal else DY[d])
            if _in_grid(nx, ny) and _at(st, nx, ny) < 0:
                return True
        return False

    cdef bint _beatable(self, const GL* st, int me, int j) noexcept nogil:
        """heuristic._beatable."""
        cdef int tile = st.pl_tile[j], hz = T_HAZARD[tile], items = 0, others = 0, c, q
        if not st.pl_open[j] or hz == CRASH:
            return True
        for c in range(5):
            if (HELPS_MASK[hz] >> c) & 1:
                items += st.hands[me][c]
        if st.life[me] > 2:
            items += st.life[me] - 2
        for q in range(self.n):
            if q != me and st.life[q] > 0:
                others += 1
        return 7 * (items + (others + 1) // 2) > 2 * (T_NUMBER[tile] + 2)

    cdef int _explore(self, const GL* st, int me) noexcept nogil:
        """heuristic._explore: -1 scout here, 0..3 walk that way, -2 no tile will do."""
        cdef int lake[NTILES]
        cdef int first[NTILES]      # -2: not reached; -1: the start
        cdef int cost[NTILES]
        cdef int q[NTILES]
        cdef int head = 0, tail = 1, i, d, j, score, best = -2, best_score = 0, start = self._team_index(st)
        cdef bint found = False
        self._lake_all(st, lake)
        for i in range(st.nplaced):
            first[i] = -2
        first[start] = -1
        cost[start] = 0
        q[0] = start
        while head < tail:
            i = q[head]
            head += 1
            if _open_beside(st, i):
                score = 2 * lake[i] - cost[i]
                if not found or score > best_score:
                    found = True
                    best = first[i]
                    best_score = score
            for d in range(4):
                j = st.nbr[i][d]
                if j >= 0 and first[j] == -2 and T_TERRAIN[st.pl_tile[j]] != CANYON and self._beatable(st, me, j):
                    first[j] = d if first[i] == -1 else first[i]
                    cost[j] = cost[i] + (3 if (st.pl_open[j] and T_HAZARD[st.pl_tile[j]] != CRASH) else 1)
                    q[tail] = j
                    tail += 1
        return best

    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        cdef const GL* st = <const GL*>s
        cdef int me = self.current_player(s), role, a, i, best_a, t, v, best, x, y, near, far, sc
        cdef int top, second, q, tx, ty
        cdef int w[MAXP]
        cdef bint good
        if n_legal == 1:
            return legal[0]
        role = st.roles[me]
        a = legal[0]
        if A_REFRESH <= a < A_REFRESH + NT:
            best_a = -1
            best = 0
            for i in range(n_legal):
                v = self._keep_new(legal[i] - A_REFRESH, role)
                if best_a < 0 or v < best or (v == best and legal[i] < best_a):
                    best = v
                    best_a = legal[i]
            return best_a
        if A_KEEP <= a < A_KEEP + NT:
            best_a = -1
            best = 0
            for i in range(n_legal):
                v = self._keep_new(legal[i] - A_KEEP, role)
                if best_a < 0 or v > best or (v == best and legal[i] < best_a):
                    best = v
                    best_a = legal[i]
            return best_a
        if A_KEEP_TILE <= a < A_PLACE:
            best_a = -1
            best = 0
            for i in range(n_legal):
                t = legal[i] - A_KEEP_TILE
                if T_TERRAIN[t] == CIVILIZATION:
                    v = 120 - T_NUMBER[t]
                elif T_TERRAIN[t] == CANYON:
                    v = 0
                else:
                    v = 40 if T_TERRAIN[t] == DESERT else 25
                    v += 2 * T_NUMBER[t] if T_HAZARD[t] == CRASH else -T_NUMBER[t]
                if role == ALIEN:
                    v = -v
                elif self._placements(st, t, NULL, NULL) == CLS_C:
                    v -= 200 if st.life[me] <= GL_LOW_LIFE else 30
                if best_a < 0 or v > best or (v == best and legal[i] < best_a):
                    best = v
                    best_a = legal[i]
            return best_a
        if a >= A_PLACE:
            tx = st.team[0]
            ty = st.team[1]
            # The held tile is the scout's own (its view shows it).
            t = st.held[0] if (me == st.turn and st.nheld) else 0
            good = T_TERRAIN[t] != CANYON
            best_a = -1
            best = 0
            for i in range(n_legal):
                x = (legal[i] - A_PLACE) // 4
                y = x // GSIZE - RADIUS
                x = x % GSIZE - RADIUS
                near = abs(x - tx) + abs(y - ty)
                far = abs(x) + abs(y)
                if role == ALIEN:
                    sc = near if good else -near
                elif good:
                    sc = 2 * far - 3 * near
                else:
                    sc = 3 * near - 2 * far
                if best_a < 0 or sc > best or (sc == best and legal[i] < best_a):
                    best = sc
                    best_a = legal[i]
            return best_a
        if A_ASSIGN <= a < A_ASSIGN + MAXP:
            return A_ASSIGN + me
        if A_GIVE <= a < A_GIVE + MAXP:
            return A_GIVE + me
        if a == A_YES:
            if st.step == S_HALF_VOTE:
                return A_NO if role == ALIEN else A_YES
            if st.target == me:
                return A_NO
            if role == ALIEN:
                return A_YES
            self._suspicion(st, me, w)
            q = self._suspect(w, &top, &second)
            if q == st.target and top >= GL_YES_WEIGHT and second > 0 and top >= GL_RATIO * second:
                return A_YES
            return A_NO
        if self._has(legal, n_legal, A_DONE):
            return self._contribute(st, me, role, legal, n_legal)
        return self._turn(st, me, role, legal, n_legal)

    cdef int _contribute(self, const GL* st, int me, int role, const int* legal, int n_legal) noexcept nogil:
        cdef int tile = st.pl_tile[st.target], i, t, best_a = -1, best_h = 0
        cdef int rounds = st.stats[me][0], items = st.stats[me][1], held = 0, floor
        cdef bint short
        for i in range(n_legal):
            t = legal[i] - A_CONTRIB
            if 0 <= t < NT and AP_VALUE[t] == 0:
                if best_a < 0 or st.hands[me][t] > best_h or (st.hands[me][t] == best_h and legal[i] < best_a):
                    best_h = st.hands[me][t]
                    best_a = legal[i]
        if role == ALIEN:
            if best_a >= 0 and best_h >= 2 and rounds - items >= GL_ALIEN_TOKEN_DEFICIT:
                return best_a
            return A_DONE
        short = 7 * (st.count + st.qlen // 2) <= 2 * (T_NUMBER[tile] + 2)
        if not short and items >= rounds:
            return A_DONE
        if best_a >= 0:
            return best_a
        # A life given from a full hand also costs a card: a full hand gives only from higher life.
        if short:
            for t in range(NT):
                held += st.hands[me][t]
            floor = GL_LIFE_WHEN_SHORT_FULL if held >= st.life[me] else GL_LIFE_WHEN_SHORT
        else:
            floor = GL_LIFE_ALIBI
        if self._has(legal, n_legal, A_LIFE) and st.life[me] >= floor:
            return A_LIFE
        return A_DONE

    cdef inline bint _has(self, const int* legal, int n_legal, int action) noexcept nogil:
        cdef int i
        for i in range(n_legal):
            if legal[i] == action:
                return True
        return False

    cdef int _turn(self, const GL* st, int me, int role, const int* legal, int n_legal) noexcept nogil:
        cdef int w[MAXP]
        cdef int q, top, second, direction, target, life = st.life[me], mine
        cdef bint reachable, safe
        safe = _open_beside(st, self._team_index(st)) or self._open_cell(st, st.team[0], st.team[1], True)
        if role == ALIEN:
            for q in range(self.n):
                if st.life[q] > 0 and (q == me or not (st.revealed[q] or st.step == S_OVER)):
                    w[q] = st.stats[q][0] - st.stats[q][1]
                    w[q] = 1 + (w[q] if w[q] > 0 else 0)
                else:
                    w[q] = 0
            mine = w[me]
            w[me] = 0
            q = self._suspect(w, &top, &second)
            if q >= 0 and top >= GL_VOTE_WEIGHT and top - second >= GL_LEAD and top - mine >= GL_LEAD \
                    and self._has(legal, n_legal, A_VOTE + q):
                return A_VOTE + q
            if self._has(legal, n_legal, A_RECOVER) and life <= GL_LOW_LIFE:
                return A_RECOVER
            if self._has(legal, n_legal, A_SCOUT):
                return A_SCOUT
            return A_END
        self._suspicion(st, me, w)
        q = self._suspect(w, &top, &second)
        if q >= 0 and second > 0 and st.stats[q][0] >= GL_MIN_ROUNDS:
            if role == HUNTER and top >= GL_STRIKE_WEIGHT and top - second >= GL_STRIKE_LEAD \
                    and self._has(legal, n_legal, A_STRIKE + q):
                return A_STRIKE + q
            if top >= GL_VOTE_WEIGHT and top - second >= GL_LEAD and top >= GL_RATIO * second \
                    and self._has(legal, n_legal, A_VOTE + q):
                return A_VOTE + q
        if self._has(legal, n_legal, A_RECOVER) and life <= GL_LOW_LIFE:
            return A_RECOVER
        direction = self._route(st, me, &reachable)
        if direction >= 0 and self._has(legal, n_legal, A_MOVE + direction):
            return A_MOVE + direction
        if reachable:
            return A_END
        target = self._explore(st, me)
        if target >= 0 and self._has(legal, n_legal, A_MOVE + target):
            return A_MOVE + target
        if self._has(legal, n_legal, A_SCOUT) and life > GL_SCOUT_MIN_LIFE \
                and (target == -1 or safe or (target == -2 and life > GL_LOW_LIFE)):
            return A_SCOUT
        return A_END

    # -- the reference engine's dict form ------------------------------------------------------
    cpdef dict to_dict(self, NativeState state):
        cdef GL* st = <GL*>state.data
        cdef int p, i, k
        n = self.n

        return {
            "roles": [st.roles[p] for p in range(n)],
            "revealed": [bool(st.revealed[p]) for p in range(n)],
            "life": [st.life[p] for p in range(n)],
            "alien_card": bool(st.alien_card),
            "hands": [[st.hands[p][i] for i in range(NT)] for p in range(n)],
            "deck": [st.deck[i] for i in range(NT)],
            "refresh": [st.refresh[i] for i in range(NT)],
            "discard": [st.discard[i] for i in range(st.ndiscard)],
            "recoveries": st.recoveries,
            "dealt": st.dealt,
            "kept": [st.kept[i] for i in range(NT)],
            "known": [[st.known[p][i] for i in range(NT)] for p in range(n)],
            "deck_known": [[st.deck_known[p][i] for i in range(NT)] for p in range(n)],
            "refresh_known": [[st.refresh_known[p][i] for i in range(NT)] for p in range(n)],
            "pool_known": [_tiles(st.pool_known[p]) for p in range(n)],
            "stacks": [_tiles(st.stacks[k]) for k in range(3)],
            "pool": _tiles(st.pool),
            "map": [[st.pl_tile[i], st.pl_x[i], st.pl_y[i], st.pl_rot[i], st.pl_open[i]] for i in range(st.nplaced)],
            "team": [st.team[0], st.team[1]],
            "team_from": [st.team_from[0], st.team_from[1]],
            "held": [st.held[i] for i in range(st.nheld)],
            "turn": st.turn,
            "ap": st.ap,
            "half_called": bool(st.half_called),
            "half_agreed": bool(st.half_agreed),
            "step": STEP_NAMES[st.step],
            "cur": st.cur,
            "queue": [st.queue[i] for i in range(st.qlen)],
            "count": st.count,
            "total": st.total,
            "target": st.target,
            "inv_cards": [st.inv_cards[i] for i in range(NT)],
            "handout": [st.handout[i] for i in range(NT)],
            "ballots": [[st.bal_seat[i], st.bal_vote[i]] for i in range(st.nballots)],
            "stats": [[st.stats[p][0], st.stats[p][1]] for p in range(n)],
            "result": st.result,
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        """Load the reference engine's dict form (validated there first).

        Defence in depth: every value is checked against the C array it is
        written to (type, range, size) before it is written, so no dict can
        write out of bounds; a bad one raises InvalidStateError naming the
        field. The state is built in a scratch copy and copied in when whole.
        """
        cdef GL tmp
        cdef GL* st = &tmp
        cdef int p, i, k, t, n = self.n, x, y, c
        self.init_state(st)
        st.grid[_cell(0, 0)] = 0
        st.nplaced = 0
        for k in range(3):
            st.stacks[k] = 0
        roles = _lst(_get(data, "roles"), "roles", n)
        revealed = _lst(_get(data, "revealed"), "revealed", n)
        life = _lst(_get(data, "life"), "life", n)
        for p in range(n):
            st.roles[p] = <int8_t>_ival(roles[p], f"roles[{p}]", -1, 2)
            st.revealed[p] = _bval(revealed[p], f"revealed[{p}]")
            st.life[p] = <uint8_t>_ival(life[p], f"life[{p}]", 0, self.start_life + 21)
        st.alien_card = _bval(_get(data, "alien_card"), "alien_card")
        hands = _lst(_get(data, "hands"), "hands", n)
        known = _lst(_get(data, "known"), "known", n)
        deck_known = _lst(_get(data, "deck_known"), "deck_known", n)
        refresh_known = _lst(_get(data, "refresh_known"), "refresh_known", n)
        pool_known = _lst(_get(data, "pool_known"), "pool_known", n)
        for p in range(n):
            _counts_into(st.hands[p], hands[p], f"hands[{p}]")
            _counts_into(st.known[p], known[p], f"known[{p}]")
            _counts_into(st.deck_known[p], deck_known[p], f"deck_known[{p}]")
            _counts_into(st.refresh_known[p], refresh_known[p], f"refresh_known[{p}]")
            st.pool_known[p] = _tile_mask(pool_known[p], f"pool_known[{p}]")
        _counts_into(st.deck, _get(data, "deck"), "deck")
        _counts_into(st.refresh, _get(data, "refresh"), "refresh")
        _counts_into(st.kept, _get(data, "kept"), "kept")
        _counts_into(st.inv_cards, _get(data, "inv_cards"), "inv_cards")
        _counts_into(st.handout, _get(data, "handout"), "handout")
        discard = _lst(_get(data, "discard"), "discard", -1)
        if len(discard) > DCAP:
            raise InvalidStateError("state.discard", f"at most {DCAP} cards")
        for i, v in enumerate(discard):
            st.discard[i] = <uint8_t>_ival(v, f"discard[{i}]", 0, NT - 1)
        st.ndiscard = len(discard)
        st.recoveries = <uint8_t>_ival(_get(data, "recoveries"), "recoveries", 0, TYPE_COUNT[RECOVERY])
        st.dealt = <uint8_t>_ival(_get(data, "dealt"), "dealt", 0, 12 * n)
        stacks = _lst(_get(data, "stacks"), "stacks", 3)
        for k in range(3):
            st.stacks[k] = _tile_mask(stacks[k], f"stacks[{k}]")
        st.pool = _tile_mask(_get(data, "pool"), "pool")
        placed = _lst(_get(data, "map"), "map", -1)
        if not 1 <= len(placed) <= NTILES:
            raise InvalidStateError("state.map", f"from 1 to {NTILES} placed tiles")
        for i, entry in enumerate(placed):
            entry = _lst(entry, f"map[{i}]", 5)
            x = _ival(entry[1], f"map[{i}][1]", -RADIUS, RADIUS)
            y = _ival(entry[2], f"map[{i}][2]", -RADIUS, RADIUS)
            c = _cell(x, y)
            if st.grid[c]:
                raise InvalidStateError(f"state.map[{i}]", "two tiles on one cell")
            st.pl_tile[i] = <uint8_t>_ival(entry[0], f"map[{i}][0]", 0, NTILES - 1)
            st.pl_x[i] = <int8_t>x
            st.pl_y[i] = <int8_t>y
            st.pl_rot[i] = <uint8_t>_ival(entry[3], f"map[{i}][3]", 0, 3)
            st.pl_open[i] = <uint8_t>_ival(entry[4], f"map[{i}][4]", 0, 1)
            st.grid[c] = <uint8_t>(i + 1)
        st.nplaced = len(placed)
        for i in range(st.nplaced):
            _link(st, i)
        if st.pl_tile[0] != 0 or st.pl_x[0] != 0 or st.pl_y[0] != 0:
            raise InvalidStateError("state.map[0]", "Groom Lake comes first, at (0, 0)")
        for key in ("team", "team_from"):
            pos = _lst(_get(data, key), key, 2)
            x = _ival(pos[0], f"{key}[0]", -RADIUS, RADIUS)
            y = _ival(pos[1], f"{key}[1]", -RADIUS, RADIUS)
            if not st.grid[_cell(x, y)]:
                raise InvalidStateError(f"state.{key}", "the Team stands on a placed tile")
            if key == "team":
                st.team[0] = <int8_t>x
                st.team[1] = <int8_t>y
            else:
                st.team_from[0] = <int8_t>x
                st.team_from[1] = <int8_t>y
        held = _lst(_get(data, "held"), "held", -1)
        if len(held) > 2:
            raise InvalidStateError("state.held", "at most 2 tiles")
        for i, v in enumerate(held):
            st.held[i] = <uint8_t>_ival(v, f"held[{i}]", 0, NTILES - 1)
        st.nheld = len(held)
        st.turn = <int8_t>_ival(_get(data, "turn"), "turn", -1, n - 1)
        st.ap = <int8_t>_ival(_get(data, "ap"), "ap", 0, 2)
        st.half_called = _bval(_get(data, "half_called"), "half_called")
        st.half_agreed = _bval(_get(data, "half_agreed"), "half_agreed")
        st.step = <int8_t>_choice(_get(data, "step"), STEP_NAMES, "step")
        st.cur = <int8_t>_ival(_get(data, "cur"), "cur", -1, n - 1)
        queue = _lst(_get(data, "queue"), "queue", -1)
        if len(queue) > QCAP:
            raise InvalidStateError("state.queue", f"at most {QCAP} seats")
        for i, v in enumerate(queue):
            st.queue[i] = <uint8_t>_ival(v, f"queue[{i}]", 0, n - 1)
        st.qlen = len(queue)
        st.count = <int16_t>_ival(_get(data, "count"), "count", 0, 32767)
        st.total = <int16_t>_ival(_get(data, "total"), "total", 0, 32767)
        st.target = <int8_t>_ival(_get(data, "target"), "target", -1, NTILES - 1)
        ballots = _lst(_get(data, "ballots"), "ballots", -1)
        if len(ballots) > n:
            raise InvalidStateError("state.ballots", f"at most {n} votes")
        for i, b in enumerate(ballots):
            b = _lst(b, f"ballots[{i}]", 2)
            st.bal_seat[i] = <uint8_t>_ival(b[0], f"ballots[{i}][0]", 0, n - 1)
            st.bal_vote[i] = <uint8_t>_ival(b[1], f"ballots[{i}][1]", 0, 1)
        st.nballots = len(ballots)
        stats = _lst(_get(data, "stats"), "stats", n)
        for p in range(n):
            pair = _lst(stats[p], f"stats[{p}]", 2)
            st.stats[p][0] = _ival(pair[0], f"stats[{p}][0]", 0, 1_000_000)
            st.stats[p][1] = _ival(pair[1], f"stats[{p}][1]", 0, 1_000_000)
        st.result = <uint8_t>_ival(_get(data, "result"), "result", 0, 2)
        # Indices the rules follow must point into the arrays.
        if st.step in (S_CONTRIB, S_ROLL, S_ASSIGN, S_INV_DRAW, S_INV_KEEP) and not 0 <= st.target < st.nplaced:
            raise InvalidStateError("state.target", "the hazard's index on the map")
        if st.step in (S_GIVE_DRAW, S_VOTE) and not 0 <= st.target < n:
            raise InvalidStateError("state.target", "a seat")
        if st.step in (S_KEEP_TILE,) and st.nheld != 2 or st.step == S_PLACE and st.nheld != 1:
            raise InvalidStateError("state.held", "the scout's tiles")
        if st.step == S_TILE and not 0 <= st.target <= 2:
            raise InvalidStateError("state.target", "the stack a scout draws from")
        st.lim = <int8_t>self._limit_seat(st)
        memcpy(state.data, st, sizeof(GL))


cdef uint8_t _bval(object value, str field) except 255:
    if not isinstance(value, bool):
        raise InvalidStateError(f"state.{field}", f"must be true or false, got {value!r}")
    return 1 if value else 0


cdef int _counts_into(uint8_t* out, object value, str field) except -1:
    cdef int t
    value = _lst(value, field, NT)
    for t in range(NT):
        out[t] = <uint8_t>_ival(value[t], f"{field}[{t}]", 0, TYPE_COUNT[t])
    return 0


cdef uint64_t _tile_mask(object value, str field) except? 0xFFFFFFFFFFFFFFFF:
    """A sorted list of distinct tile ids as a mask (the reference lists are sorted)."""
    cdef uint64_t m = 0
    cdef int i, t, last = -1
    value = _lst(value, field, -1)
    for i in range(len(value)):
        t = _ival(value[i], f"{field}[{i}]", 0, NTILES - 1)
        if t <= last:
            raise InvalidStateError(f"state.{field}", "must be sorted, without repeats")
        last = t
        m |= (<uint64_t>1) << t
    return m


cdef list _tiles(uint64_t m):
    """The tile ids of a mask, in increasing order."""
    out = []
    while m:
        out.append(__builtin_ctzll(m))
        m &= m - 1
    return out


def make_kernel(reference_game):
    """The kernel for a reference ``GroomLakeGame`` (same options)."""
    return GroomLakeKernel(reference_game)
