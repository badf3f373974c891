# cython: language_level=3
"""Native kernel of Area 51; the rules are those of ``games/area51/rules.py``.

Every rule mirrors the reference engine step for step (same action ids and
order, same chance pools, same automatic steps in ``_settle``); the
differential test checks it move by move. Hands, known/soft cards, pools, the
row and the discards are count vectors per card type (16 types). Hangar cards
are one byte each: ``type | face_up << 4 | seat << 5``. Unused slots (queue,
hangars, used bunkers, absent vehicles and spaces) are kept zeroed (spaces and
vehicles: colour/route -1), so a state's bytes are fully determined by the
position and a reload gives the same bytes.

Knowledge records (``known``/``soft``/``linked_from``/``deck_bound``/``start_seen``/``anyc``)
follow ``games/area51/rules.py`` step for step. Determinization is a C port of
the reference sampler (``games/area51/knowledge.py``, ``_sample``, step for
step, with its counting checks) followed by ``knowledge_violations`` in C and a
redraw on failure: nogil, exact (every record holds) and canonical (it reads
only what the observer sees, and the Rng). Its worlds differ from the reference
engine's for the same seed (different generators). After ``DET_TRIES`` dead
ends (never seen on states reached by play) the reference sampler runs under
the GIL; ``det_fallbacks`` counts that.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.math cimport tanh

from aiplay._ext.kernel cimport (K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, NativeState, Rng, hash_bytes, mix64,
                                 rng_below, rng_next, rng_uniform)
from aiplay._ext.load_checks cimport _choice, _ival, _lst

from random import Random as _Random

from aiplay.errors import InvalidStateError
from aiplay.game import require_field as _get
from aiplay.games.area51.rules import state_from_dict_trusted as _trusted

from aiplay.games.area51 import components as _C

cdef enum:
    NT = 16
    NR = 3
    MAXS = 8
    MAXH = 3
    NV = 8
    NROUTES = 6
    MAXP = 6
    HCAP = 104
    QCAP = 32
    UCAP = 24
    NCTX = 9
    DET_TRIES = 64      # native determinization: redraws before the reference sampler
    DET_POS = 128       # hidden face-down cards (104 cards in all)
    # phases (phases.PHASES order)
    PH_SETUP = 0
    PH_PLAY = 1
    PH_LAST = 2
    PH_PICKUP = 3
    PH_OVER = 4
    # steps (phases.STEPS order)
    S_DEAL = 0
    S_KIND = 1
    S_BUILD = 2
    S_ROUTE = 3
    S_NUMBER = 4
    S_PICK = 5
    S_COLLECT = 6
    S_FACE_UP = 7
    S_FACE_DOWN = 8
    S_LOAD = 9
    S_REFILL = 10
    # queue destinations
    Q_DEAL = 0
    Q_DRAW = 1
    Q_ROW = 2
    # context keys
    C_BUILD = 0
    C_COLOUR = 1
    C_REGION = 2
    C_OWNER = 3
    C_SPACE = 4
    C_DOWN = 5
    C_VEHICLE = 6
    C_ROUTE = 7
    C_NUMBER = 8
    # actions (actions.py)
    A_PASS = 4
    A_CREATE = 5
    A_UPGRADE = 29
    A_ROUTE = 53
    A_NUMBER = 101
    A_PICK = 109
    A_REFRESH = 118
    A_TAKE_UP = 134
    A_TAKE_DECK = 150
    A_FACE_UP = 151
    A_FACE_DOWN = 199
    A_STORE = 247
    NUM_ACTIONS = 631

PHASE_NAMES = ("setup", "play", "last_turns", "pickup_only", "over")
STEP_NAMES = ("deal", "kind", "build_target", "vehicle_route", "vehicle_number", "pick_target", "collect",
              "play_face_up", "play_face_down", "load", "refill")
QUEUE_NAMES = ("deal", "draw", "row")
CTX_NAMES = ("build", "colour", "region", "owner", "space", "down", "vehicle", "route", "number")

cdef int START[NT]
cdef int MAIN[NT]
cdef int ROUTE_FROM[NROUTES]
cdef int ROUTE_TO[NROUTES]
cdef int MARKER_COPIES[4]
cdef int HIGHEST[3]
cdef int _i
for _i in range(NT):
    START[_i] = _C.START_COUNTS[_i]
    MAIN[_i] = _C.MAIN_COUNTS[_i]
for _i in range(NROUTES):
    ROUTE_FROM[_i] = _C.ROUTES[_i][0]
    ROUTE_TO[_i] = _C.ROUTES[_i][1]
for _i in range(4):
    MARKER_COPIES[_i] = _C.MARKER_COPIES[_i]
for _i in range(3):
    HIGHEST[_i] = _C.HIGHEST_BUNKER_POINTS[_i]
assert _C.NUM_TYPES == NT and _C.FACE_UP == 6 and _C.TAKE_PER_COLLECT == 3 and _C.HAND_START == 5


cdef struct A51:
    int32_t turn
    int16_t scores[MAXP]
    int16_t bonus[MAXP]
    uint8_t hands[MAXP][NT]
    uint8_t known[MAXP][NT]
    uint8_t soft[MAXP][NT]
    uint8_t linked_from[MAXP][NR][MAXH] # soft[p]'s linked face-down cards start at this index
    uint8_t deck_bound[NT]              # bound of a reshuffled deck (all 0: none)
    uint8_t start_seen[NT]              # public cards known to be start cards (lower bound)
    uint8_t anyc[MAXP]
    uint8_t row[NT]
    uint8_t discards[NT]
    uint8_t top_pool[NT]
    uint8_t main_pool[NT]
    uint8_t pile[NT]
    uint8_t hlen[NR][MAXH]
    uint8_t hcards[NR][MAXH][HCAP]      # type | up << 4 | seat << 5
    int8_t sp_colour[NR][MAXS]          # -1: no bunker (owner and level 0)
    int8_t sp_owner[NR][MAXS]
    int8_t sp_level[NR][MAXS]
    uint8_t markers[NR]
    uint8_t towers[4]
    uint8_t caps[MAXP]
    uint8_t supply[4]
    int8_t veh_route[NV]                # -1: not in play
    int8_t veh_n[NV]
    int8_t veh_kind[NV][2]
    int8_t veh_val[NV][2]
    int8_t q_dest[QCAP]
    int8_t q_seat[QCAP]
    uint8_t qlen
    uint8_t used_r[UCAP]
    uint8_t used_s[UCAP]
    uint8_t nused
    int8_t pile_region
    int8_t top_left
    int8_t phase
    int8_t step
    int8_t cur
    int8_t extra_left
    int8_t taken
    int8_t refreshed
    uint16_t ctx_mask
    int8_t ctx[NCTX]


cdef inline int _sum16(const uint8_t* a) noexcept nogil:
    cdef int t, s = 0
    for t in range(NT):
        s += a[t]
    return s


cdef inline bint _any16(const uint8_t* a) noexcept nogil:
    cdef int t
    for t in range(NT):
        if a[t]:
            return True
    return False


cdef extern from *:
    int __builtin_ctz(unsigned int) nogil


cdef inline int _built(const int8_t* colour, int spaces) noexcept nogil:
    """Bit s: space s (of the first ``spaces``) holds a bunker (colour >= 0). Eight spaces read
    as one word: a space's sign bit is clear exactly when it is built."""
    cdef uint64_t w
    memcpy(&w, colour, 8)
    w = (~w & <uint64_t>0x8080808080808080ULL) >> 7
    return <int>((w * <uint64_t>0x0102040810204080ULL) >> 56) & ((1 << spaces) - 1)


cdef inline int _markers_for(int k, const int* supply, int* kinds, int* vals) noexcept nogil:
    """rules.markers_for: how many markers (0: None) and which."""
    cdef int kind = (k - 1) // 2
    cdef int a, b, ka, kb
    if supply[kind] > 0:
        kinds[0] = kind
        vals[0] = k
        return 1
    a = k - 1
    while a > (k + 1) // 2 - 1:
        b = k - a
        if b >= 1:
            ka = (a - 1) // 2
            kb = (b - 1) // 2
            if (ka != kb and supply[ka] > 0 and supply[kb] > 0) or (ka == kb and supply[ka] > 1):
                kinds[0] = ka
                vals[0] = a
                kinds[1] = kb
                vals[1] = b
                return 2
        a -= 1
    return 0


cdef inline int _sample_counts(Rng* rng, int* pool, int k, int* out) noexcept nogil:
    """Draw min(k, total) cards without replacement from the counts ``pool`` (consumed), in order."""
    cdef int total = 0, t, n = 0, r
    for t in range(NT):
        total += pool[t]
    while n < k and total > 0:
        r = rng_below(rng, total)
        for t in range(NT):
            if r < pool[t]:
                break
            r -= pool[t]
        pool[t] -= 1
        total -= 1
        out[n] = t
        n += 1
    return n


# -- determinization helpers (knowledge.py in C) ---------------------------------------------
cdef int TOTAL[NT]
cdef bint MAIN_ONLY[NT]                 # types without start copies (the 4s)
cdef int START_TYPES = 0                # bit t: type t has start copies
for _i in range(NT):
    TOTAL[_i] = _C.TOTAL_COUNTS[_i]
    MAIN_ONLY[_i] = _C.TOTAL_COUNTS[_i] > 0 and _C.START_COUNTS[_i] == 0
    if _C.START_COUNTS[_i]:
        START_TYPES |= 1 << _i


cdef inline int _isum16(const int* a) noexcept nogil:
    cdef int t, s = 0
    for t in range(NT):
        s += a[t]
    return s


cdef inline int _imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int _type_mask(int colours) noexcept nogil:
    """The card types (bits) of a colour mask (bits)."""
    cdef int c, m = 0
    for c in range(4):
        if (colours >> c) & 1:
            m |= 0xF << (4 * c)
    return m


cdef inline bint _has_types(const uint8_t* a, int mask) noexcept nogil:
    cdef int t
    for t in range(NT):
        if a[t] and (mask >> t) & 1:
            return True
    return False


cdef inline bint _ihas_types(const int* a, int mask) noexcept nogil:
    cdef int t
    for t in range(NT):
        if a[t] > 0 and (mask >> t) & 1:
            return True
    return False


cdef inline int _draw_mask(Rng* rng, const int* pool, int mask) noexcept nogil:
    """knowledge._draw: a type drawn from ``pool`` weighted by copies among the types in ``mask``; -1 if none."""
    cdef int t, total = 0, x
    for t in range(NT):
        if pool[t] > 0 and (mask >> t) & 1:
            total += pool[t]
    if total <= 0:
        return -1
    x = rng_below(rng, total)
    for t in range(NT):
        if pool[t] > 0 and (mask >> t) & 1:
            if x < pool[t]:
                return t
            x -= pool[t]
    return -1


cdef inline void _room_terms(int u, int fr, int capu, const uint8_t* bound, bint has_bound, int* out) noexcept nogil:
    """Type u's share of start_room's three sums (start slots, deck, both)."""
    cdef int a = 0, b = fr
    if START[u]:
        a = capu if capu < fr else fr
    if has_bound and bound[u] < b:
        b = bound[u]
    out[0] = a if a > 0 else 0
    out[1] = b if b > 0 else 0
    a = a + b if a + b < fr else fr
    out[2] = a if a > 0 else 0


cdef inline void _room_base(const int* free_, const int* cap_t, const uint8_t* bound, bint has_bound,
                            int* base) noexcept nogil:
    """start_room's three sums over every type, for _start_room_mask."""
    cdef int u
    cdef int terms[3]
    base[0] = base[1] = base[2] = 0
    for u in range(NT):
        _room_terms(u, free_[u], cap_t[u], bound, has_bound, terms)
        base[0] += terms[0]
        base[1] += terms[1]
        base[2] += terms[2]


cdef inline int _start_room_mask(int cand, bint from_free, const int* free_, const int* cap_t, const uint8_t* bound,
                                 bint has_bound, int demand, int deck_need, const int* base) noexcept nogil:
    """knowledge._sample's start_room for every type ``t`` in the mask ``cand``: after one more start card of
    type t, can the other start slots and the deck still be filled (a two-sink transportation check)?
    ``base`` holds the sums (_room_base, kept in step by the caller); each candidate changes one type's share."""
    cdef int u, out = 0
    cdef int old[3]
    cdef int new[3]
    while cand:
        u = __builtin_ctz(cand)  # the candidates in order
        cand &= cand - 1
        _room_terms(u, free_[u], cap_t[u], bound, has_bound, old)
        _room_terms(u, free_[u] - (1 if from_free else 0), cap_t[u] - 1, bound, has_bound, new)
        if (base[0] - old[0] + new[0] >= demand and base[1] - old[1] + new[1] >= deck_need
                and base[2] - old[2] + new[2] >= demand + deck_need):
            out |= 1 << u
    return out

cdef class Area51Kernel(Kernel):
    """Area 51 with fixed options (players, max_turns)."""

    cdef int n, max_turns, num_owners, top_after_setup
    cdef int spaces_in[NR]
    cdef int hangars_in[NR]
    cdef int markers_in[NR]
    cdef int towers_in[4]
    cdef int n_own                      # cap colours per seat (2 with two players)
    cdef int owner_of[MAXP][2]
    cdef int seat_of[MAXP]
    cdef object _ref_game               # the reference Area51Game (the determinization fallback)
    cdef public long long det_calls     # native determinizations (statistics; racy under parallel threads)
    cdef public long long det_redraws   # worlds redrawn after a dead end or a failed check
    cdef public long long det_fallbacks # determinizations handed to the reference sampler (GIL)
    cdef public long long det_failures  # ... that failed there too (determinize returned False)

    def __init__(self, reference_game):
        g = reference_game
        self._ref_game = g
        cdef int r, p, j
        self.state_size = sizeof(A51)
        self.n = g.players
        self.num_players = g.players
        self.num_distinct_actions = NUM_ACTIONS
        self.max_chance_outcomes = NT
        self.min_utility = -1.0
        self.max_utility = 1.0
        self.perfect_information = False
        self.max_turns = g.max_turns
        self.num_owners = g.num_owners
        self.top_after_setup = g.top_after_setup
        for r in range(NR):
            self.spaces_in[r] = g.spaces_in[r]
            self.hangars_in[r] = g.hangars_in[r]
            self.markers_in[r] = g.markers_in[r]
        for r in range(4):
            self.towers_in[r] = g.towers[r]
        self.n_own = len(g.owners_of[0])
        for p in range(self.n):
            for j in range(self.n_own):
                self.owner_of[p][j] = g.owners_of[p][j]
        for j in range(self.num_owners):
            self.seat_of[j] = g.seat_of[j]
        assert tuple(_C.ROUTES) == tuple((a, b) for a in range(3) for b in range(3) if a != b)
        self.has_policy = True
        self._allocate_scratch()

    # -- small queries ---------------------------------------------------------
    cdef inline int _deck_size(self, const A51* st) noexcept nogil:
        return _sum16(st.top_pool) + _sum16(st.main_pool)

    cdef inline uint8_t* _draw_pool(self, A51* st) noexcept nogil:
        if (st.qlen and st.q_dest[0] == Q_DEAL) or st.top_left > 0:
            return &st.top_pool[0]
        return &st.main_pool[0]

    cdef inline bint _has_colour(self, const A51* st, int p, int c) noexcept nogil:
        return (st.hands[p][4 * c] or st.hands[p][4 * c + 1] or st.hands[p][4 * c + 2]
                or st.hands[p][4 * c + 3])

    cdef inline int _numbers(self, const A51* st, int p, int v, int* out) noexcept nogil:
        cdef int size = _sum16(st.hands[p])
        cdef int low = 1, i, k, n = 0, hi
        cdef int supply[4]
        cdef int kinds[2]
        cdef int vals[2]
        for i in range(4):
            supply[i] = st.supply[i]
        if st.veh_route[v] >= 0:
            low = 1
            for i in range(st.veh_n[v]):
                low += st.veh_val[v][i]
                supply[st.veh_kind[v][i]] += 1
        hi = size - 1
        if hi > 8:
            hi = 8
        for k in range(low, hi + 1):
            if _markers_for(k, supply, kinds, vals):
                if out == NULL:
                    return 1  # asked only whether there is one
                out[n] = k
                n += 1
        return n

    cdef int _build_targets(self, const A51* st, int p, int* out) noexcept nogil:
        # With ``out`` NULL: 1 if there is any target, else 0 (every such caller only asks that).
        cdef int size = _sum16(st.hands[p])
        cdef int c, r, s, j, o, n = 0, open_regions = 0, free_owners = 0, built
        if size >= 2:
            # Which regions have a marker and an empty space, and which of p's owners a cap:
            # the same for every colour.
            for r in range(NR):
                if st.markers[r]:
                    for s in range(self.spaces_in[r]):
                        if st.sp_colour[r][s] < 0:
                            open_regions |= 1 << r
                            break
            for j in range(self.n_own):
                if st.caps[self.owner_of[p][j]]:
                    free_owners |= 1 << j
            if open_regions and free_owners:
                for c in range(4):
                    if not self._has_colour(st, p, c) or not st.towers[c]:
                        continue
                    if out == NULL:
                        return 1
                    for r in range(NR):
                        if not (open_regions >> r) & 1:
                            continue
                        for j in range(self.n_own):
                            if (free_owners >> j) & 1:
                                out[n] = A_CREATE + (c * NR + r) * 2 + j
                                n += 1
        for r in range(NR):
            if not st.markers[r]:
                continue
            built = _built(st.sp_colour[r], self.spaces_in[r])
            while built:
                s = __builtin_ctz(built)  # the built spaces in order
                built &= built - 1
                c = st.sp_colour[r][s]
                if (self.seat_of[st.sp_owner[r][s]] == p and self._has_colour(st, p, c)
                        and size >= st.sp_level[r][s] + 2):
                    if out == NULL:
                        return 1
                    out[n] = A_UPGRADE + r * MAXS + s
                    n += 1
        return n

    cdef int _route_targets(self, const A51* st, int p, int* out) noexcept nogil:
        cdef int v, i, n = 0
        for v in range(NV):
            if self._has_colour(st, p, v // 2) and self._numbers(st, p, v, NULL):
                if out == NULL:
                    return 1
                for i in range(NROUTES):
                    out[n] = A_ROUTE + v * NROUTES + i
                    n += 1
        return n

    cdef int _pick_targets(self, const A51* st, int* out) noexcept nogil:
        cdef int r, h, n = 0
        for r in range(NR):
            for h in range(self.hangars_in[r]):
                if st.hlen[r][h]:
                    if out != NULL:
                        out[n] = A_PICK + r * MAXH + h
                    n += 1
        return n

    cdef int _store_targets(self, const A51* st, int* out) noexcept nogil:
        cdef int src = st.pile_region
        cdef int t, c, value, r, s, v, i, n = 0
        cdef bint reach[NR]
        cdef bint used
        for t in range(NT):
            if not st.pile[t]:
                continue
            c = t // 4
            value = t % 4 + 1
            for r in range(NR):
                reach[r] = r == src
            for v in range(2 * c, 2 * c + 2):
                if st.veh_route[v] >= 0 and ROUTE_FROM[st.veh_route[v]] == src:
                    reach[ROUTE_TO[st.veh_route[v]]] = True
            for r in range(NR):
                if not reach[r]:
                    continue
                for s in range(self.spaces_in[r]):
                    if st.sp_colour[r][s] == c and st.sp_level[r][s] >= value:
                        used = False
                        for i in range(st.nused):
                            if st.used_r[i] == r and st.used_s[i] == s:
                                used = True
                                break
                        if not used:
                            if out == NULL:
                                return 1
                            out[n] = A_STORE + (t * NR + r) * MAXS + s
                            n += 1
        return n

    cdef inline bint _collect_ok(self, const A51* st) noexcept nogil:
        return _any16(st.row) or self._deck_size(st) > 0 or _any16(st.discards)

    # -- the kernel interface ------------------------------------------------------
    cdef void init_state(self, void* s) noexcept nogil:
        cdef A51* st = <A51*>s
        cdef int i, p, r
        memset(s, 0, sizeof(A51))
        st.phase = PH_SETUP
        st.step = S_DEAL
        for r in range(NR):
            st.markers[r] = <uint8_t>self.markers_in[r]
            for i in range(MAXS):
                st.sp_colour[r][i] = -1
        for i in range(4):
            st.towers[i] = <uint8_t>self.towers_in[i]
            st.supply[i] = <uint8_t>MARKER_COPIES[i]
        for i in range(self.num_owners):
            st.caps[i] = 5
        for i in range(NV):
            st.veh_route[i] = -1
        st.top_left = <int8_t>self.top_after_setup
        for i in range(NT):
            st.top_pool[i] = <uint8_t>START[i]
            st.main_pool[i] = <uint8_t>MAIN[i]
        st.qlen = 0
        for i in range(5):
            for p in range(self.n):
                st.q_dest[st.qlen] = Q_DEAL
                st.q_seat[st.qlen] = <int8_t>p
                st.qlen += 1
        st.pile_region = -1

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const A51* st = <const A51*>s
        if st.phase == PH_OVER:
            return K_TERMINAL
        if st.qlen:
            return K_CHANCE
        return st.cur

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const A51* st = <const A51*>s
        cdef int step = st.step, p = st.cur
        cdef int n = 0, t, h, c, nh, i
        cdef int nums[8]
        if step == S_KIND:
            if self._collect_ok(st):
                out[n] = 0
                n += 1
            if self._build_targets(st, p, NULL):
                out[n] = 1
                n += 1
            if self._route_targets(st, p, NULL):
                out[n] = 2
                n += 1
            if self._pick_targets(st, NULL):
                out[n] = 3
                n += 1
            if n == 0:
                out[0] = A_PASS
                n = 1
            return n
        if step == S_BUILD:
            return self._build_targets(st, p, out)
        if step == S_ROUTE:
            return self._route_targets(st, p, out)
        if step == S_NUMBER:
            n = self._numbers(st, p, st.ctx[C_VEHICLE], nums)
            for i in range(n):
                out[i] = A_NUMBER + nums[i] - 1
            return n
        if step == S_PICK:
            return self._pick_targets(st, out)
        if step == S_COLLECT:
            if not st.refreshed and st.taken == 0:
                for t in range(NT):
                    if st.hands[p][t]:
                        out[n] = A_REFRESH + t
                        n += 1
            for t in range(NT):
                if st.row[t]:
                    out[n] = A_TAKE_UP + t
                    n += 1
            if self._deck_size(st) > 0:
                out[n] = A_TAKE_DECK
                n += 1
            return n
        if step == S_FACE_UP or step == S_FACE_DOWN:
            nh = self.hangars_in[st.ctx[C_REGION]]
            if step == S_FACE_UP:
                c = st.ctx[C_COLOUR]
                for t in range(4 * c, 4 * c + 4):
                    if st.hands[p][t]:
                        for h in range(nh):
                            out[n] = A_FACE_UP + t * MAXH + h
                            n += 1
                return n
            for t in range(NT):
                if st.hands[p][t]:
                    for h in range(nh):
                        out[n] = A_FACE_DOWN + t * MAXH + h
                        n += 1
            return n
        if step == S_LOAD:
            return self._store_targets(st, out)
        return 0

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef A51* st = <A51*>s
        cdef uint8_t* pool
        cdef int total, t, n = 0
        if st.phase == PH_OVER or not st.qlen:
            return 0
        pool = self._draw_pool(st)
        total = _sum16(pool)
        for t in range(NT):
            if pool[t]:
                outcomes[n] = t
                probs[n] = <double>pool[t] / <double>total
                n += 1
        return n

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        cdef A51* st = <A51*>s
        cdef uint8_t* pool = self._draw_pool(st)
        cdef int r = rng_below(rng, _sum16(pool))
        cdef int t
        for t in range(NT):
            if r < pool[t]:
                return t
            r -= pool[t]
        return -1

    # -- playing ---------------------------------------------------------------------
    cdef inline void _pop_queue(self, A51* st) noexcept nogil:
        memmove(&st.q_dest[0], &st.q_dest[1], QCAP - 1)
        memmove(&st.q_seat[0], &st.q_seat[1], QCAP - 1)
        st.q_dest[QCAP - 1] = 0
        st.q_seat[QCAP - 1] = 0
        st.qlen -= 1

    cdef inline void _push_queue(self, A51* st, int dest, int seat) noexcept nogil:
        st.q_dest[st.qlen] = <int8_t>dest
        st.q_seat[st.qlen] = <int8_t>seat
        st.qlen += 1

    cdef inline void _clear_ctx(self, A51* st) noexcept nogil:
        st.ctx_mask = 0
        memset(st.ctx, 0, NCTX)

    cdef inline void _set_ctx(self, A51* st, int key, int value) noexcept nogil:
        st.ctx_mask |= <uint16_t>(1 << key)
        st.ctx[key] = <int8_t>value

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef A51* st = <A51*>s
        if st.qlen:
            self._draw(st, action)
        else:
            self._decide(st, action)
        self._settle(st)

    cdef void _draw(self, A51* st, int t) noexcept nogil:
        cdef int dest = st.q_dest[0], p = st.q_seat[0], u
        cdef uint8_t* pool
        cdef bint from_main = False
        self._pop_queue(st)
        pool = self._draw_pool(st)
        pool[t] -= 1
        if dest == Q_ROW and st.top_left > 0:
            st.start_seen[t] += 1
        if dest != Q_DEAL:
            if st.top_left > 0:
                st.top_left -= 1
                if st.top_left == 0:
                    for u in range(NT):
                        st.main_pool[u] += st.top_pool[u]
                        st.top_pool[u] = 0
            else:
                from_main = True
        if from_main and _any16(st.deck_bound):
            if dest == Q_ROW:
                st.deck_bound[t] -= 1
            if not _any16(st.main_pool):
                memset(st.deck_bound, 0, NT)
        if dest == Q_ROW:
            st.row[t] += 1
        else:
            st.hands[p][t] += 1
            if from_main:
                st.anyc[p] += 1

    cdef void _reshuffle_if_empty(self, A51* st) noexcept nogil:
        if st.phase == PH_SETUP:
            return
        if st.top_left == 0 and not _any16(st.main_pool) and _any16(st.discards):
            memcpy(st.main_pool, st.discards, NT)
            memset(st.discards, 0, NT)
            memcpy(st.deck_bound, st.main_pool, NT)
            self._forget_start_marks(st)

    cdef void _lose_card(self, A51* st, int p, int t, bint face_up) noexcept nogil:
        # rules._lose_card
        cdef uint8_t* hand = st.hands[p]
        cdef uint8_t* known = st.known[p]
        cdef uint8_t* soft = st.soft[p]
        cdef int u, a, r, h
        hand[t] -= 1
        if face_up and known[t]:
            known[t] -= 1
            return
        if face_up:
            if soft[t]:
                soft[t] -= 1
                if not _any16(soft):
                    memset(st.linked_from[p], 0, NR * MAXH)
            if START[t] == 0 and st.anyc[p]:
                st.anyc[p] -= 1
        else:
            if _any16(known) and not _any16(soft):
                for r in range(NR):
                    for h in range(MAXH):
                        st.linked_from[p][r][h] = st.hlen[r][h]
            st.anyc[p] = <uint8_t>(st.anyc[p] + _sum16(known))
            for u in range(NT):
                soft[u] += known[u]
                known[u] = 0
            self._forget_start_marks(st)
        a = _sum16(hand) - _sum16(known)
        if st.anyc[p] > a:
            st.anyc[p] = <uint8_t>a

    cdef void _forget_start_marks(self, A51* st) noexcept nogil:
        # rules._forget_start_marks: start_seen[t] <= cards of type t in everyone's view
        cdef int pub[NT]
        cdef int t, p, r, h, i, b
        cdef bint lower = False
        cdef uint64_t lanes[2]
        cdef uint64_t w
        cdef uint8_t* counts = <uint8_t*>lanes
        # Eight types a word: per type these are distinct cards (at most its copies, < 256),
        # so the byte lanes never carry.
        for i in range(2):
            memcpy(&lanes[i], st.row + 8 * i, 8)
            memcpy(&w, st.discards + 8 * i, 8)
            lanes[i] += w
            memcpy(&w, st.pile + 8 * i, 8)
            lanes[i] += w
            for p in range(self.n):
                memcpy(&w, st.known[p] + 8 * i, 8)
                lanes[i] += w
        for t in range(NT):
            pub[t] = counts[t]
            if st.start_seen[t] > pub[t]:
                lower = True
        if not lower:
            return  # the face-up hangar cards only add to pub: no mark can drop
        for r in range(NR):
            for h in range(MAXH):
                for i in range(st.hlen[r][h]):
                    b = st.hcards[r][h][i]
                    if b & 16:
                        pub[b & 15] += 1
        for t in range(NT):
            if st.start_seen[t] > pub[t]:
                st.start_seen[t] = <uint8_t>pub[t]

    cdef void _reveal_hangar(self, A51* st, int r, int h) noexcept nogil:
        # rules._reveal_hangar
        cdef int p, i, b
        for p in range(self.n):
            if _any16(st.soft[p]):
                for i in range(st.linked_from[p][r][h], st.hlen[r][h]):
                    b = st.hcards[r][h][i]
                    if (b >> 5) == p and not (b & 16) and st.soft[p][b & 15]:
                        st.soft[p][b & 15] -= 1
                if not _any16(st.soft[p]):
                    memset(st.linked_from[p], 0, NR * MAXH)
            st.linked_from[p][r][h] = 0

    cdef void _play_card(self, A51* st, int p, int t, int h, bint face_up) noexcept nogil:
        cdef int r = st.ctx[C_REGION]
        self._lose_card(st, p, t, face_up)
        st.hcards[r][h][st.hlen[r][h]] = <uint8_t>(t | ((1 if face_up else 0) << 4) | (p << 5))
        st.hlen[r][h] += 1

    cdef void _decide(self, A51* st, int action) noexcept nogil:
        cdef int p = st.cur, x, c, r, s, j, v, i, t, h, u
        if action < A_PASS:
            if action == 0:
                st.step = S_COLLECT
            elif action == 1:
                st.step = S_BUILD
            elif action == 2:
                st.step = S_ROUTE
            else:
                st.step = S_PICK
            if st.step == S_COLLECT:
                st.taken = 0
                st.refreshed = 0
        elif action == A_PASS:
            self._end_action(st)
        elif action < A_UPGRADE:
            x = action - A_CREATE
            c = x // 2 // NR
            r = x // 2 % NR
            j = x % 2
            self._clear_ctx(st)
            self._set_ctx(st, C_BUILD, 0)
            self._set_ctx(st, C_COLOUR, c)
            self._set_ctx(st, C_REGION, r)
            self._set_ctx(st, C_OWNER, self.owner_of[p][j])
            self._set_ctx(st, C_DOWN, 1)
            st.step = S_FACE_UP
        elif action < A_ROUTE:
            x = action - A_UPGRADE
            r = x // MAXS
            s = x % MAXS
            self._clear_ctx(st)
            self._set_ctx(st, C_BUILD, 1)
            self._set_ctx(st, C_COLOUR, st.sp_colour[r][s])
            self._set_ctx(st, C_REGION, r)
            self._set_ctx(st, C_SPACE, s)
            self._set_ctx(st, C_DOWN, st.sp_level[r][s] + 1)
            st.step = S_FACE_UP
        elif action < A_NUMBER:
            x = action - A_ROUTE
            v = x // NROUTES
            i = x % NROUTES
            self._clear_ctx(st)
            self._set_ctx(st, C_BUILD, 2)
            self._set_ctx(st, C_VEHICLE, v)
            self._set_ctx(st, C_ROUTE, i)
            self._set_ctx(st, C_COLOUR, v // 2)
            self._set_ctx(st, C_REGION, ROUTE_FROM[i])
            st.step = S_NUMBER
        elif action < A_PICK:
            self._set_ctx(st, C_DOWN, action - A_NUMBER + 1)
            self._set_ctx(st, C_NUMBER, action - A_NUMBER + 1)
            st.step = S_FACE_UP
        elif action < A_REFRESH:
            x = action - A_PICK
            r = x // MAXH
            h = x % MAXH
            self._reveal_hangar(st, r, h)
            for i in range(st.hlen[r][h]):
                st.pile[st.hcards[r][h][i] & 15] += 1
            memset(st.hcards[r][h], 0, HCAP)
            st.hlen[r][h] = 0
            st.pile_region = <int8_t>r
            st.nused = 0
            memset(st.used_r, 0, UCAP)
            memset(st.used_s, 0, UCAP)
            st.step = S_LOAD
        elif action < A_TAKE_UP:
            t = action - A_REFRESH
            self._lose_card(st, p, t, True)
            st.discards[t] += 1
            for u in range(NT):
                st.discards[u] += st.row[u]
                st.row[u] = 0
            st.refreshed = 1
            self._reshuffle_if_empty(st)
            for u in range(6):
                self._push_queue(st, Q_ROW, -1)
        elif action < A_TAKE_DECK:
            t = action - A_TAKE_UP
            st.row[t] -= 1
            st.hands[p][t] += 1
            st.known[p][t] += 1
            st.taken += 1
        elif action == A_TAKE_DECK:
            self._push_queue(st, Q_DRAW, p)
            st.taken += 1
        elif action < A_FACE_DOWN:
            x = action - A_FACE_UP
            self._play_card(st, p, x // MAXH, x % MAXH, True)
            st.step = S_FACE_DOWN
        elif action < A_STORE:
            x = action - A_FACE_DOWN
            self._play_card(st, p, x // MAXH, x % MAXH, False)
            st.ctx[C_DOWN] -= 1
            if st.ctx[C_DOWN] == 0:
                self._complete_build(st, p)
        else:
            x = action - A_STORE
            t = x // MAXS // NR
            r = x // MAXS % NR
            s = x % MAXS
            st.pile[t] -= 1
            st.discards[t] += 1
            st.used_r[st.nused] = <uint8_t>r
            st.used_s[st.nused] = <uint8_t>s
            st.nused += 1
            st.scores[st.sp_owner[r][s]] += t % 4 + 1

    cdef void _complete_build(self, A51* st, int p) noexcept nogil:
        cdef int r = st.ctx[C_REGION], s, i, v, o, k
        cdef int supply[4]
        cdef int kinds[2]
        cdef int vals[2]
        if st.ctx[C_BUILD] == 0:
            s = -1
            for i in range(self.spaces_in[r]):
                if st.sp_colour[r][i] < 0:
                    s = i
            o = st.ctx[C_OWNER]
            st.sp_colour[r][s] = st.ctx[C_COLOUR]
            st.sp_owner[r][s] = <int8_t>o
            st.sp_level[r][s] = 1
            st.towers[st.ctx[C_COLOUR]] -= 1
            st.caps[o] -= 1
            st.markers[r] -= 1
        elif st.ctx[C_BUILD] == 1:
            st.sp_level[r][st.ctx[C_SPACE]] += 1
            st.markers[r] -= 1
        else:
            v = st.ctx[C_VEHICLE]
            if st.veh_route[v] >= 0:
                for i in range(st.veh_n[v]):
                    st.supply[st.veh_kind[v][i]] += 1
            for i in range(4):
                supply[i] = st.supply[i]
            k = _markers_for(st.ctx[C_NUMBER], supply, kinds, vals)
            st.veh_kind[v][1] = 0
            st.veh_val[v][1] = 0
            for i in range(k):
                st.supply[kinds[i]] -= 1
                st.veh_kind[v][i] = <int8_t>kinds[i]
                st.veh_val[v][i] = <int8_t>vals[i]
            st.veh_n[v] = <int8_t>k
            st.veh_route[v] = st.ctx[C_ROUTE]
        self._end_action(st)

    cdef void _finish_loading(self, A51* st) noexcept nogil:
        cdef int p = st.cur, t
        for t in range(NT):
            st.hands[p][t] += st.pile[t]
            st.known[p][t] += st.pile[t]
            st.pile[t] = 0
        st.pile_region = -1
        st.nused = 0
        memset(st.used_r, 0, UCAP)
        memset(st.used_s, 0, UCAP)
        self._end_action(st)

    cdef void _end_action(self, A51* st) noexcept nogil:
        cdef int r, empty = 0
        self._clear_ctx(st)
        st.taken = 0
        st.refreshed = 0
        if st.phase == PH_PLAY or st.phase == PH_LAST:
            st.turn += 1
            if st.phase == PH_LAST:
                st.extra_left -= 1
                if st.extra_left == 0:
                    st.phase = PH_PICKUP
            else:
                for r in range(NR):
                    if st.markers[r] == 0:
                        empty += 1
                if empty >= 2 or st.turn >= self.max_turns:
                    st.phase = PH_LAST
                    st.extra_left = <int8_t>self.n
        st.cur = <int8_t>((st.cur + 1) % self.n)
        st.step = S_KIND

    cdef void _settle(self, A51* st) noexcept nogil:
        cdef int i, k
        while True:
            self._reshuffle_if_empty(st)
            while st.qlen and not _any16(self._draw_pool(st)):
                self._pop_queue(st)
            if st.qlen:
                return
            if st.phase == PH_SETUP:
                if st.step == S_DEAL:
                    st.step = S_REFILL
                    for i in range(6):
                        self._push_queue(st, Q_ROW, -1)
                    continue
                st.phase = PH_PLAY
                st.step = S_KIND
                st.cur = 0
                continue
            if st.step == S_COLLECT and (st.taken >= 3 or not (_any16(st.row) or self._deck_size(st) > 0)):
                st.step = S_REFILL
                k = 6 - _sum16(st.row)
                for i in range(k):
                    self._push_queue(st, Q_ROW, -1)
                continue
            if st.step == S_REFILL:
                self._end_action(st)
                continue
            if st.step == S_LOAD and not self._store_targets(st, NULL):
                self._finish_loading(st)
                continue
            if st.step == S_KIND and st.phase == PH_PICKUP:
                if not self._pick_targets(st, NULL):
                    self._final_scoring(st)
                    return
                st.step = S_PICK
            return

    cdef inline int _ranked(self, const A51* st, int r, int* order) noexcept nogil:
        """Bunkers of region r by (level, space) descending (spaces differ, so owner never decides)."""
        cdef int n = 0, s, i, j, tmp
        for s in range(self.spaces_in[r] - 1, -1, -1):
            if st.sp_colour[r][s] >= 0:
                order[n] = s
                n += 1
        # stable insertion sort by level descending keeps higher spaces first among equals
        for i in range(1, n):
            tmp = order[i]
            j = i - 1
            while j >= 0 and st.sp_level[r][order[j]] < st.sp_level[r][tmp]:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = tmp
        return n

    cdef void _final_scoring(self, A51* st) noexcept nogil:
        cdef int r, i, n
        cdef int order[MAXS]
        for r in range(NR):
            n = self._ranked(st, r, order)
            for i in range(min(n, 3)):
                st.bonus[st.sp_owner[r][order[i]]] += HIGHEST[i]
        st.phase = PH_OVER
        st.step = S_KIND

    # -- results ---------------------------------------------------------------------
    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const A51* st = <const A51*>s
        cdef int p, j, o, sc, best_s = -1, best_h = -1, k = 0
        cdef int score[MAXP]
        cdef int hsize[MAXP]
        if st.phase != PH_OVER:
            for p in range(self.n):
                out[p] = 0.0
            return
        for p in range(self.n):
            sc = 1 << 30
            for j in range(self.n_own):
                o = self.owner_of[p][j]
                if st.scores[o] + st.bonus[o] < sc:
                    sc = st.scores[o] + st.bonus[o]
            score[p] = sc
            hsize[p] = _sum16(st.hands[p])
            if sc > best_s or (sc == best_s and hsize[p] > best_h):
                best_s = sc
                best_h = hsize[p]
        for p in range(self.n):
            if score[p] == best_s and hsize[p] == best_h:
                k += 1
        for p in range(self.n):
            if k == self.n:
                out[p] = 0.0
            elif score[p] == best_s and hsize[p] == best_h:
                out[p] = 1.0 / <double>k
            else:
                out[p] = -1.0 / <double>(self.n - k)

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        cdef const A51* st = <const A51*>s
        cdef double total[MAXP]
        cdef double proj[MAXP]
        cdef double rival, x
        cdef int order[MAXS]
        cdef int r, i, n, o, p, q, j
        if st.phase == PH_OVER:
            self.returns(s, out)
            return
        for o in range(self.num_owners):
            total[o] = <double>(st.scores[o] + st.bonus[o])
        for r in range(NR):
            n = self._ranked(st, r, order)
            for i in range(min(n, 3)):
                total[st.sp_owner[r][order[i]]] += <double>HIGHEST[i]
            for i in range(self.spaces_in[r]):
                if st.sp_colour[r][i] >= 0:
                    total[st.sp_owner[r][i]] += 0.5 * <double>st.sp_level[r][i]
        for p in range(self.n):
            x = total[self.owner_of[p][0]]
            for j in range(1, self.n_own):
                if total[self.owner_of[p][j]] < x:
                    x = total[self.owner_of[p][j]]
            proj[p] = x
        for p in range(self.n):
            rival = -1e300
            for q in range(self.n):
                if q != p and proj[q] > rival:
                    rival = proj[q]
            out[p] = 0.99 * tanh((proj[p] - rival) / 15.0)

    # -- playout policy ---------------------------------------------------------------
    # An exact port of games/area51/heuristic.py's ``policy``: the same values, summed in
    # the same order, ties broken the same way (the first best in ``legal``), and the same
    # draws (tests/test_policy_agreement.py runs both with one random stream). It reads only the acting seat's own hand and public
    # information: other hands, the deck and other seats' face-down hangar cards are
    # never looked at, so it behaves the same on every determinization.

    cdef inline int _owned_colours(self, const A51* st, int me, int* n_bunkers) noexcept nogil:
        """Bit mask of the colours of ``me``'s bunkers; their number in ``n_bunkers``."""
        cdef int r, s, mask = 0, n = 0, built
        for r in range(NR):
            built = _built(st.sp_colour[r], self.spaces_in[r])
            while built:
                s = __builtin_ctz(built)
                built &= built - 1
                if self.seat_of[st.sp_owner[r][s]] == me:
                    mask |= 1 << st.sp_colour[r][s]
                    n += 1
        n_bunkers[0] = n
        return mask

    cdef inline double _pile_gains(self, const A51* st, int me, int r, double* gain) noexcept nogil:
        """Per card type: what one such card in a region-``r`` pile brings beyond its 0.6
        as a card (heuristic._pile_value). Returns the largest gain, or 0.0 if none is positive."""
        # Type t's gain comes from the first space (in order) of its colour whose level reaches
        # its value; walking the spaces once and filling each type at its first such space
        # gives the same gains as a search of the spaces per type (8 spaces, not 16 x 8).
        cdef int t, s, c, v, top, done = 0, built = _built(st.sp_colour[r], self.spaces_in[r])
        cdef bint mine
        cdef double best = 0.0
        for t in range(NT):
            gain[t] = 0.0
        while built:
            s = __builtin_ctz(built)  # the built spaces in order
            built &= built - 1
            c = st.sp_colour[r][s]
            top = st.sp_level[r][s]
            if top > 4:
                top = 4
            mine = self.seat_of[st.sp_owner[r][s]] == me
            for v in range(1, top + 1):
                t = 4 * c + v - 1
                if (done >> t) & 1:
                    continue
                done |= 1 << t
                if mine:
                    gain[t] = v
                    if v > best:
                        best = v
                else:
                    gain[t] = -0.3 * v
        return best

    cdef inline double _pile_value(self, const A51* st, int me, int r, int h, const double* gain) noexcept nogil:
        cdef double value = 0.0
        cdef int i, b
        for i in range(st.hlen[r][h]):
            b = st.hcards[r][h][i]
            # Added in the policy's order (0.6, then the gain): the same rounding.
            value += 0.6
            if (b & 16) or (b >> 5) == me:
                value += gain[b & 15]
            # else another seat's face-down card: a card, of unknown type
        return value

    cdef bint _pile_reaches(self, const A51* st, int me, double threshold) noexcept nogil:
        """Whether the best pile's value (``_policy_pick``'s best) is at least ``threshold``: the
        policy only compares it with one, so it stops at the first pile that reaches it and
        skips the piles that cannot (each card adds at most 0.6 and the region's best gain)."""
        cdef double gain[NT]
        cdef double top
        cdef int r, h, t, n, cards
        for r in range(NR):
            cards = 0
            for h in range(self.hangars_in[r]):
                cards += st.hlen[r][h]
            if not cards:
                continue
            top = self._pile_gains(st, me, r, gain)
            for h in range(self.hangars_in[r]):
                n = st.hlen[r][h]
                # The margin covers the rounding of the exact sum (far below 1e-6).
                if n == 0 or n * (0.6 + top) < threshold - 1e-6:
                    continue
                if self._pile_value(st, me, r, h, gain) >= threshold:
                    return True
        return False

    cdef int _policy_pick(self, const A51* st, int me, const int* legal, int n_legal, double* best_out) noexcept nogil:
        """The pick-up action (of ``legal``, or of all non-empty hangars if NULL) with the best pile."""
        cdef double gain[NT]
        cdef double value, best = -1e300
        cdef int r, h, i, a, best_a = -1, last_r = -1
        cdef int all_[NR * MAXH]
        if legal == NULL:
            n_legal = self._pick_targets(st, all_)
            legal = all_
        for i in range(n_legal):
            a = legal[i] - A_PICK
            r = a // MAXH
            h = a % MAXH
            if r != last_r:
                self._pile_gains(st, me, r, gain)
                last_r = r
            value = self._pile_value(st, me, r, h, gain)
            if value > best:
                best = value
                best_a = legal[i]
        best_out[0] = best if best_a >= 0 else 0.0
        return best_a

    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        cdef const A51* st = <const A51*>s
        cdef int me = st.cur, step = st.step
        cdef int i, a, x, t, c, v, r, sp, h, o, j, size, owned, n_bunkers, best_a, weakest
        cdef double value, best
        cdef bint has[5]
        if n_legal <= 1:
            return legal[0]
        best_a = legal[0]
        best = -1e300
        if step == S_KIND:
            for i in range(5):
                has[i] = False
            for i in range(n_legal):
                if legal[i] <= A_PASS:
                    has[legal[i]] = True
            size = _sum16(st.hands[me])
            if has[3] and self._pile_reaches(st, me, 2.5 if size < 4 else 4.0):
                return 3
            if has[1] and size >= 4 and rng_uniform(rng) < 0.8:
                return 1
            if has[0] and size < 10:
                return 0
            if has[1]:
                return 1
            if has[3]:
                return 3
            return legal[0]
        if step == S_LOAD:
            # Own bunkers first (the highest artifact); else the lowest artifact, to the weakest rival.
            weakest = 1 << 30
            for o in range(self.num_owners):
                if self.seat_of[o] != me and st.scores[o] < weakest:
                    weakest = st.scores[o]
            for i in range(n_legal):
                x = legal[i] - A_STORE
                t = x // MAXS // NR
                r = x // MAXS % NR
                sp = x % MAXS
                o = st.sp_owner[r][sp]
                v = t % 4 + 1
                if self.seat_of[o] == me:
                    value = 100.0 + v - 0.001 * st.scores[o]  # two owners (2 players): the poorer one
                else:
                    value = -10.0 * v - 0.1 * (st.scores[o] - weakest)
                if value > best:
                    best = value
                    best_a = legal[i]
            return best_a
        if step == S_COLLECT:
            owned = self._owned_colours(st, me, &n_bunkers)
            for i in range(n_legal):
                a = legal[i]
                if a < A_TAKE_UP:
                    continue  # never refresh
                if a == A_TAKE_DECK:
                    value = 1.5
                else:
                    t = a - A_TAKE_UP
                    c = t >> 2
                    value = (1.0 + (2.0 if (owned >> c) & 1 else 0.0) + 0.3 * ((t & 3) + 1)
                             - 0.2 * (st.hands[me][4 * c] + st.hands[me][4 * c + 1] + st.hands[me][4 * c + 2]
                                      + st.hands[me][4 * c + 3]))
                if value > best:
                    best = value
                    best_a = a
            return best_a
        if step == S_BUILD:
            owned = self._owned_colours(st, me, &n_bunkers)
            for i in range(n_legal):
                a = legal[i]
                if a >= A_UPGRADE:
                    x = a - A_UPGRADE
                    r = x // MAXS
                    sp = x % MAXS
                    v = st.sp_level[r][sp]
                    value = (3.0 - v) if v < (3 if st.sp_colour[r][sp] == 0 else 4) else -1.0
                else:
                    x = a - A_CREATE
                    c = x // 2 // NR
                    r = x // 2 % NR
                    j = x % 2
                    value = ((2.5 if n_bunkers < 3 else 0.0)
                             + 0.3 * (st.hands[me][4 * c] + st.hands[me][4 * c + 1] + st.hands[me][4 * c + 2]
                                      + st.hands[me][4 * c + 3])
                             + 0.1 * st.markers[r] - (1.0 if (owned >> c) & 1 else 0.0))
                    if self.n_own > 1:
                        value += 0.02 * st.caps[self.owner_of[me][j]]  # two owners: spread the bunkers
                value += 0.1 * rng_uniform(rng)
                if value > best:
                    best = value
                    best_a = a
            return best_a
        if step == S_PICK:
            best_a = self._policy_pick(st, me, legal, n_legal, &best)
            return best_a if best_a >= 0 else legal[0]
        if step == S_NUMBER:
            return legal[0]  # the cheapest vehicle
        if step == S_FACE_UP or step == S_FACE_DOWN:
            # Play the card we would least like to keep; small piles first.
            owned = self._owned_colours(st, me, &n_bunkers)
            r = st.ctx[C_REGION]
            best = 1e300
            for i in range(n_legal):
                x = legal[i] - (A_FACE_UP if step == S_FACE_UP else A_FACE_DOWN)
                t = x // MAXH
                h = x % MAXH
                value = (t & 3) + 1 + (3.0 if (owned >> (t >> 2)) & 1 else 0.0) + 0.05 * st.hlen[r][h]
                if value < best:
                    best = value
                    best_a = legal[i]
            return best_a
        return legal[rng_below(rng, n_legal)]  # vehicle routes, anything else

    # -- hidden information ---------------------------------------------------------
    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # The reference information state string shows everything but: other
        # hands (only their sizes), the types of face-down hangar cards played
        # by other seats, and the deck pools (only their sizes). Those fields
        # are replaced by exactly what is shown; the rest of the state is shown
        # in full (vehicle marker kinds follow from the values shown).
        cdef A51 tmp
        cdef int q, r, h, i, a, b
        memcpy(&tmp, s, sizeof(A51))
        for q in range(self.n):
            if q != player:
                a = _sum16(tmp.hands[q])
                memset(tmp.hands[q], 0, NT)
                tmp.hands[q][0] = <uint8_t>a
        for r in range(NR):
            for h in range(MAXH):
                for i in range(tmp.hlen[r][h]):
                    b = tmp.hcards[r][h][i]
                    if not (b & 16) and (b >> 5) != player:
                        tmp.hcards[r][h][i] = <uint8_t>(b & 0xF0)
        a = _sum16(tmp.top_pool)
        memset(tmp.top_pool, 0, NT)
        tmp.top_pool[0] = <uint8_t>a
        a = _sum16(tmp.main_pool)
        memset(tmp.main_pool, 0, NT)
        tmp.main_pool[0] = <uint8_t>a
        return mix64(hash_bytes(&tmp, sizeof(A51), <uint64_t>0x61726561353100) ^ (<uint64_t>player + 1))

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # A native port of knowledge.determinize: the sequential sampler (_det_try, counting
        # feasibility checks at every step), the world then checked against every record
        # (_det_ok, knowledge_violations in C) and redrawn on failure. Canonical: it reads only
        # what ``observer`` sees (public records, its own cards, sizes) and the Rng. After
        # DET_TRIES dead ends (never seen on states reached by play) the reference sampler runs
        # under the GIL (counted in det_fallbacks); should that fail too, False (counted in
        # det_failures): the state is then not a world and must not be used.
        cdef A51 w
        cdef int k
        cdef int cm = self._commit_colours(<const A51*>s)  # public: the same in every world
        for k in range(DET_TRIES):
            memcpy(&w, s, sizeof(A51))
            if self._det_try(&w, <const A51*>s, observer, rng, cm) and self._det_ok(&w, cm):
                memcpy(s, &w, sizeof(A51))
                self.det_calls += 1  # statistics only (racy under root-parallel threads)
                self.det_redraws += k
                return True
        with gil:
            self.det_calls += 1
            self.det_redraws += DET_TRIES
            self.det_fallbacks += 1
            if self._determinize_py(s, observer, rng_next(rng)):
                return True
            self.det_failures += 1
            return False

    cdef int _commit_colours(self, const A51* st) noexcept nogil:
        """knowledge.commitment_colours as a bit mask of colours; -1 for None."""
        cdef A51 probe
        cdef int p = st.cur, c, size, out = 0
        if st.qlen or st.phase == PH_OVER:
            return -1
        if st.step == S_FACE_UP or st.step == S_NUMBER:
            c = st.ctx[C_COLOUR]
            return (1 << c) if 0 <= c < 4 else 0  # (a colour outside 0..3 fits no card)
        if st.step != S_BUILD and st.step != S_ROUTE:
            return -1
        memcpy(&probe, st, sizeof(A51))
        size = _sum16(st.hands[p])
        for c in range(4):
            memset(probe.hands[p], 0, NT)
            probe.hands[p][4 * c] = <uint8_t>size
            if st.step == S_BUILD:
                if self._build_targets(&probe, p, NULL):
                    out |= 1 << c
            elif self._route_targets(&probe, p, NULL):
                out |= 1 << c
        return out

    cdef bint _start_feasible(self, const A51* st) noexcept nogil:
        """knowledge._start_feasible (a transportation problem), by its min-cut form: for every set A of
        seats, the start cards A's hands need fit in sum over t of min(cap_t, A's unseen cards of type t)."""
        cdef int n = self.n, p, t, a, lo, need_a, room, m = 0
        cdef int cap_t[NT]
        cdef int need[MAXP]
        cdef int who[MAXP]
        cdef int sums[1 << MAXP][NT]
        cdef int need_of[1 << MAXP]
        for t in range(NT):
            cap_t[t] = START[t] - st.top_pool[t] - st.start_seen[t]
            if cap_t[t] < 0:
                return False
        for p in range(n):
            a = _sum16(st.hands[p]) - _sum16(st.known[p]) - st.anyc[p]
            if a > 0:  # only seats that need start cards can tighten the bound
                need[m] = a
                who[m] = p
                m += 1
        memset(sums[0], 0, sizeof(sums[0]))
        need_of[0] = 0
        for a in range(1, 1 << m):
            lo = 0
            while not (a >> lo) & 1:
                lo += 1
            p = who[lo]
            need_a = need_of[a & (a - 1)] + need[lo]
            need_of[a] = need_a
            room = 0
            for t in range(NT):
                sums[a][t] = sums[a & (a - 1)][t]
                if START[t] and st.hands[p][t] > st.known[p][t]:
                    sums[a][t] += st.hands[p][t] - st.known[p][t]
                room += sums[a][t] if sums[a][t] < cap_t[t] else cap_t[t]
            if room < need_a:
                return False
        return True

    cdef bint _det_ok(self, const A51* st, int cm) noexcept nogil:
        """knowledge_violations(...) == [] (the records are public: no observer needed); ``cm`` is
        _commit_colours(st)."""
        cdef int p, t, r, h, i, b, m
        cdef int unseen[NT]
        for p in range(self.n):
            m = 0
            for t in range(NT):
                if st.known[p][t] > st.hands[p][t]:
                    return False
                unseen[t] = st.hands[p][t] - st.known[p][t]
                if MAIN_ONLY[t]:
                    m += unseen[t]
            if m > st.anyc[p]:
                return False
            if _any16(st.soft[p]):
                for r in range(NR):
                    for h in range(self.hangars_in[r]):
                        for i in range(st.linked_from[p][r][h], st.hlen[r][h]):
                            b = st.hcards[r][h][i]
                            if (b >> 5) == p and not (b & 16):
                                unseen[b & 15] += 1
                for t in range(NT):
                    if st.soft[p][t] > unseen[t]:
                        return False
        if not self._start_feasible(st):
            return False
        if st.top_left > 0:
            for t in range(NT):
                if st.main_pool[t] != MAIN[t]:
                    return False
        elif _any16(st.top_pool):
            return False
        if _any16(st.deck_bound):
            for t in range(NT):
                if st.main_pool[t] > st.deck_bound[t]:
                    return False
        if cm >= 0 and not _has_types(st.hands[st.cur], _type_mask(cm)):
            return False
        return True

    cdef bint _det_try(self, A51* w, const A51* st, int o, Rng* rng, int cm) noexcept nogil:
        """One pass of knowledge._sample, step for step, into ``w`` (a copy of ``st``); False at a dead end.
        ``cm`` is _commit_colours(st)."""
        cdef int n = self.n, t, u, p, r, h, i, b, j, k, npos = 0, nseats = 0, acting, tm, mask
        cdef int top_slots, own_need, take, deck_need, demand, m, c_left, a, x, y, ssum, total, tm2
        cdef bint has_bound, soft_has_c, commit_in_must, commit_in_group, force, from_soft
        cdef int seen[NT]
        cdef int free_[NT]
        cdef int main[NT]
        cdef int cap_t[NT]
        cdef int pool[NT]
        cdef int order[NT]
        cdef int hand[NT]
        cdef int cnt[NT]
        cdef int* src
        cdef int seats[MAXP]
        cdef int maybe[MAXP]
        cdef int must[MAXP]
        cdef int forced[MAXP]
        cdef int nlinked[MAXP]
        cdef int k_free[MAXP]
        cdef int soft_left[MAXP][NT]
        cdef int ys[MAXP][NT]
        cdef int pos_r[DET_POS]
        cdef int pos_h[DET_POS]
        cdef int pos_i[DET_POS]
        cdef int pos_g[DET_POS]
        cdef int room[3]
        cdef int before[3]
        cdef int after[3]
        # What o sees; the hidden multiset is everything else.
        for t in range(NT):
            seen[t] = st.row[t] + st.discards[t] + st.pile[t] + st.hands[o][t]
            for p in range(n):
                if p != o:
                    seen[t] += st.known[p][t]
        for p in range(n):
            nlinked[p] = 0
        for r in range(NR):
            for h in range(self.hangars_in[r]):
                for i in range(st.hlen[r][h]):
                    b = st.hcards[r][h][i]
                    p = b >> 5
                    if (b & 16) or p == o:
                        seen[b & 15] += 1
                        continue
                    if npos >= DET_POS:
                        return False
                    pos_r[npos] = r
                    pos_h[npos] = h
                    pos_i[npos] = i
                    if _any16(st.soft[p]) and i >= st.linked_from[p][r][h]:
                        pos_g[npos] = p
                        nlinked[p] += 1
                    else:
                        pos_g[npos] = -1
                    npos += 1
        acting = st.cur if (not st.qlen and st.phase != PH_OVER) else -1
        if acting >= 0 and acting != o:
            seats[nseats] = acting
            nseats += 1
        for p in range(n):
            if p != o and p != acting:
                seats[nseats] = p
                nseats += 1
        if acting < 0 or acting == o:
            cm = -1
        if cm >= 0 and _has_types(st.known[acting], _type_mask(cm)):
            cm = -1  # a known card already fulfils it
        tm = _type_mask(cm) if cm >= 0 else 0
        for t in range(NT):
            free_[t] = TOTAL[t] - seen[t]
        for k in range(nseats):
            p = seats[k]
            a = 0
            for t in range(NT):
                free_[t] -= st.soft[p][t]
                a += st.hands[p][t] - st.known[p][t]
            maybe[p] = st.anyc[p] if st.anyc[p] < a else a
            must[p] = a - maybe[p]
        for t in range(NT):
            if free_[t] < 0:
                return False
        top_slots = _sum16(st.top_pool)
        if st.top_left > 0:  # nothing drawn from the main deck yet: public
            for t in range(NT):
                main[t] = MAIN[t]
                free_[t] -= MAIN[t]
                if free_[t] < 0:
                    return False
        else:
            memset(main, 0, sizeof(main))
        # Where the acting seat's committed card goes.
        soft_has_c = cm >= 0 and _has_types(st.soft[acting], tm)
        commit_in_must = cm >= 0 and (maybe[acting] == 0 or (
            not soft_has_c and maybe[acting] + nlinked[acting] - _sum16(st.soft[acting]) <= 0))
        commit_in_group = cm >= 0 and not commit_in_must and not soft_has_c
        # 1. The start slots. The observer's own start cards first (least constraining types first).
        for t in range(NT):
            cap_t[t] = START[t] - st.start_seen[t]
        own_need = _sum16(st.hands[o]) - _sum16(st.known[o]) - st.anyc[o]
        if own_need < 0:
            own_need = 0
        m = 0
        for u in range(NT):
            if START[u]:
                # insertion sort by (free - cap, type)
                j = m
                while j > 0 and free_[order[j - 1]] - cap_t[order[j - 1]] > free_[u] - cap_t[u]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = u
                m += 1
        for k in range(m):
            t = order[k]
            take = own_need
            if st.hands[o][t] - st.known[o][t] < take:
                take = st.hands[o][t] - st.known[o][t]
            a = cap_t[t] if cap_t[t] > 0 else 0
            if a < take:
                take = a
            cap_t[t] -= take
            own_need -= take
        if own_need:
            return False
        deck_need = _sum16(st.main_pool) if st.top_left == 0 else 0
        has_bound = st.top_left == 0 and _any16(st.deck_bound)
        demand = 0
        for k in range(nseats):
            p = seats[k]
            a = _sum16(st.soft[p]) - maybe[p] - nlinked[p]
            if a < 0:
                a = 0
            forced[p] = must[p] if must[p] < a else a
            demand += must[p] - forced[p]
            for t in range(NT):
                soft_left[p][t] = st.soft[p][t]
                ys[p][t] = 0
        # start_room's sums, kept in step with each draw below (a draw changes one type's share).
        _room_base(free_, cap_t, st.deck_bound, has_bound, room)
        for x in range(2):
            from_soft = x == 0
            for k in range(nseats):
                p = seats[k]
                for j in range(forced[p] if from_soft else must[p] - forced[p]):
                    if not from_soft:
                        demand -= 1
                    force = commit_in_must and p == acting and _isum16(ys[p]) == 0
                    mask = 0
                    for t in range(NT):
                        if cap_t[t] > 0:
                            mask |= 1 << t
                    mask &= START_TYPES
                    if force:
                        mask &= tm
                    if from_soft:
                        src = &soft_left[p][0]
                    else:
                        src = &free_[0]
                    t = _draw_mask(rng, src, _start_room_mask(mask, not from_soft, free_, cap_t, st.deck_bound,
                                                              has_bound, demand, deck_need, room))
                    if t < 0 and not from_soft:
                        # knowledge._sample: the free cards cannot fill this start slot and the rest, so a
                        # soft card of the seat's start types stands in it; the soft cards of the seats
                        # still to come may fill their later slots (``help``, a counting relaxation).
                        a = 0
                        for y in range(k, nseats):
                            u = seats[y]
                            ssum = 0
                            for tm2 in range(NT):
                                if START[tm2] and cap_t[tm2] > 0:
                                    ssum += soft_left[u][tm2]
                            if u == p:
                                ssum = _imin(must[p] - forced[p] - j - 1, ssum - 1)
                            else:
                                ssum = _imin(must[u] - forced[u], ssum)
                            if ssum > 0:
                                a += ssum
                        src = &soft_left[p][0]
                        t = _draw_mask(rng, src, _start_room_mask(mask, False, free_, cap_t, st.deck_bound,
                                                                  has_bound, demand - a if demand > a else 0,
                                                                  deck_need, room))
                    if t < 0:
                        return False
                    _room_terms(t, free_[t], cap_t[t], st.deck_bound, has_bound, before)
                    src[t] -= 1
                    cap_t[t] -= 1
                    ys[p][t] += 1
                    _room_terms(t, free_[t], cap_t[t], st.deck_bound, has_bound, after)
                    for i in range(3):
                        room[i] += after[i] - before[i]
        for k in range(nseats):
            p = seats[k]
            k_free[p] = maybe[p] + nlinked[p] - _isum16(soft_left[p])
            if k_free[p] < 0:
                return False
        # 2. A reshuffled deck, within its bound.
        if has_bound:
            m = _sum16(st.main_pool)
            total = 0
            c_left = 0
            for t in range(NT):
                pool[t] = free_[t] if free_[t] < st.deck_bound[t] else st.deck_bound[t]
                total += pool[t]
                if commit_in_group and (tm >> t) & 1:
                    c_left += free_[t]
            if total < m:
                return False
            memset(main, 0, sizeof(main))
            for j in range(m):
                mask = 0xFFFF
                if commit_in_group and c_left <= 1:
                    mask &= ~tm
                t = _draw_mask(rng, pool, mask)
                if t < 0:
                    return False
                pool[t] -= 1
                main[t] += 1
                if commit_in_group and (tm >> t) & 1:
                    c_left -= 1
            for t in range(NT):
                free_[t] -= main[t]
        # 3. Each group: its soft cards, then free cards (the committed card first).
        for k in range(nseats):
            p = seats[k]
            for t in range(NT):
                cnt[t] = soft_left[p][t]
            for j in range(k_free[p]):
                force = commit_in_group and p == acting and j == 0
                t = _draw_mask(rng, free_, tm if force else 0xFFFF)
                if t < 0:
                    return False
                free_[t] -= 1
                cnt[t] += 1
            x = 0
            for t in range(NT):
                hand[t] = st.known[p][t] + ys[p][t]
                x += ys[p][t]
            if p == acting and cm >= 0 and not _ihas_types(hand, tm):
                if not _ihas_types(cnt, tm) or x >= _sum16(st.hands[p]) - _sum16(st.known[p]):
                    return False  # the committed card went elsewhere: redraw
                t = _draw_mask(rng, cnt, tm)
                cnt[t] -= 1
                hand[t] += 1
            for j in range(npos):
                if pos_g[j] == p:
                    t = _draw_mask(rng, cnt, 0xFFFF)
                    if t < 0:
                        return False
                    cnt[t] -= 1
                    r = pos_r[j]
                    h = pos_h[j]
                    w.hcards[r][h][pos_i[j]] = <uint8_t>((st.hcards[r][h][pos_i[j]] & 0xF0) | t)
            for t in range(NT):
                w.hands[p][t] = <uint8_t>(hand[t] + cnt[t])
        # 4. The other face-down cards, then the top layer and the deck: the rest.
        for j in range(npos):
            if pos_g[j] < 0:
                t = _draw_mask(rng, free_, 0xFFFF)
                if t < 0:
                    return False
                free_[t] -= 1
                r = pos_r[j]
                h = pos_h[j]
                w.hcards[r][h][pos_i[j]] = <uint8_t>((st.hcards[r][h][pos_i[j]] & 0xF0) | t)
        if st.top_left == 0 and not has_bound:
            for t in range(NT):
                main[t] = free_[t]
                free_[t] = 0
        if _isum16(free_) != top_slots or _isum16(main) != _sum16(st.main_pool):
            return False
        for t in range(NT):
            w.top_pool[t] = <uint8_t>(free_[t] if top_slots else 0)
            w.main_pool[t] = <uint8_t>main[t]
        return True

    cdef bint _determinize_py(self, void* s, int observer, uint64_t seed) noexcept:
        cdef NativeState tmp
        try:
            tmp = NativeState.create(self, None)
            memcpy(tmp.data, s, sizeof(A51))
            # Trusted load: the kernel only holds states validated on the way in and reached by play.
            world = _trusted(self._ref_game, self.to_dict(tmp)).determinize(observer, _Random(seed))
            self.load_dict(tmp, world.to_dict())
            memcpy(s, tmp.data, sizeof(A51))
            return True
        except Exception:  # nogil callers cannot take an exception: the caller reports the failure
            return False

    # -- the reference engine's dict form -----------------------------------------------
    cpdef dict to_dict(self, NativeState state):
        cdef A51* st = <A51*>state.data
        cdef int r, s, h, i, v, p, b
        n = self.n
        ctx = {}
        for i in range(NCTX):
            if (st.ctx_mask >> i) & 1:
                ctx[CTX_NAMES[i]] = st.ctx[i]
        spaces = []
        for r in range(NR):
            spaces.append([None if st.sp_colour[r][s] < 0 else [st.sp_colour[r][s], st.sp_owner[r][s],
                                                               st.sp_level[r][s]]
                           for s in range(self.spaces_in[r])])
        hangars = []
        for r in range(NR):
            reg = []
            for h in range(self.hangars_in[r]):
                cards = []
                for i in range(st.hlen[r][h]):
                    b = st.hcards[r][h][i]
                    cards.append([b & 15, (b >> 4) & 1, b >> 5])
                reg.append(cards)
            hangars.append(reg)
        vehicles = []
        for v in range(NV):
            if st.veh_route[v] < 0:
                vehicles.append(None)
            else:
                vehicles.append([st.veh_route[v], [[st.veh_kind[v][i], st.veh_val[v][i]] for i in range(st.veh_n[v])]])
        return {
            "phase": PHASE_NAMES[st.phase],
            "step": STEP_NAMES[st.step],
            "current": st.cur,
            "turn": st.turn,
            "extra_left": st.extra_left,
            "context": ctx,
            "taken": st.taken,
            "refreshed": bool(st.refreshed),
            "queue": [[QUEUE_NAMES[st.q_dest[i]], st.q_seat[i]] for i in range(st.qlen)],
            "row": [st.row[i] for i in range(NT)],
            "discards": [st.discards[i] for i in range(NT)],
            "deck_top_left": st.top_left,
            "deck_start_pool": [st.top_pool[i] for i in range(NT)],
            "deck_main_pool": [st.main_pool[i] for i in range(NT)],
            "markers": [st.markers[r] for r in range(NR)],
            "spaces": spaces,
            "hangars": hangars,
            "towers": [st.towers[i] for i in range(4)],
            "caps": [st.caps[i] for i in range(self.num_owners)],
            "vehicles": vehicles,
            "supply": [st.supply[i] for i in range(4)],
            "scores": [st.scores[i] for i in range(self.num_owners)],
            "bonus": [st.bonus[i] for i in range(self.num_owners)],
            "hands": [[st.hands[p][i] for i in range(NT)] for p in range(n)],
            "known": [[st.known[p][i] for i in range(NT)] for p in range(n)],
            "soft": [[st.soft[p][i] for i in range(NT)] for p in range(n)],
            "linked_from": [[[st.linked_from[p][r][h] for h in range(self.hangars_in[r])] for r in range(NR)]
                            for p in range(n)],
            "deck_bound": [st.deck_bound[i] for i in range(NT)],
            "start_seen": [st.start_seen[i] for i in range(NT)],
            "anyc": [st.anyc[p] for p in range(n)],
            "pile": [st.pile[i] for i in range(NT)],
            "pile_region": st.pile_region,
            "used": [[st.used_r[i], st.used_s[i]] for i in range(st.nused)],
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        """Load the reference engine's dict form (validated there first).

        Defence in depth: every value is checked against the C array it is
        written to (type, range, size) before it is written, so no dict can
        write out of bounds; a bad one raises InvalidStateError naming the field.
        The state is loaded into a scratch copy and only copied in when whole.
        """
        cdef A51 tmp
        cdef A51* st = &tmp
        cdef int r, s, h, i, v, p, t, n = self.n, owners = self.num_owners
        self.init_state(st)
        st.qlen = 0  # init_state queued the set-up deal
        memset(st.q_dest, 0, QCAP)
        memset(st.q_seat, 0, QCAP)
        st.phase = _choice(_get(data, "phase"), PHASE_NAMES, "phase")
        st.step = _choice(_get(data, "step"), STEP_NAMES, "step")
        st.cur = _ival(_get(data, "current"), "current", 0, n - 1)
        st.turn = _ival(_get(data, "turn"), "turn", 0, 2_000_000_000)
        st.extra_left = _ival(_get(data, "extra_left"), "extra_left", 0, n)
        ctx = _get(data, "context")
        if not isinstance(ctx, dict):
            raise InvalidStateError("state.context", "must be an object")
        for key, value in ctx.items():
            self._set_ctx(st, _choice(key, CTX_NAMES, f"context.{key}"), _ival(value, f"context.{key}", 0, 127))
        st.taken = _ival(_get(data, "taken"), "taken", 0, 3)
        st.refreshed = 1 if _get(data, "refreshed") is True else 0
        queue = _lst(_get(data, "queue"), "queue", -1)
        if len(queue) > QCAP:
            raise InvalidStateError("state.queue", f"at most {QCAP} pending draws")
        for i, item in enumerate(queue):
            item = _lst(item, f"queue[{i}]", 2)
            t = _choice(item[0], QUEUE_NAMES, f"queue[{i}][0]")
            self._push_queue(st, t, _ival(item[1], f"queue[{i}][1]", -1 if t == Q_ROW else 0,
                                          -1 if t == Q_ROW else n - 1))
        _counts_into(st.row, _get(data, "row"), "row")
        _counts_into(st.discards, _get(data, "discards"), "discards")
        _counts_into(st.top_pool, _get(data, "deck_start_pool"), "deck_start_pool")
        _counts_into(st.main_pool, _get(data, "deck_main_pool"), "deck_main_pool")
        _counts_into(st.pile, _get(data, "pile"), "pile")
        _counts_into(st.deck_bound, _get(data, "deck_bound"), "deck_bound")
        _counts_into(st.start_seen, _get(data, "start_seen"), "start_seen")
        st.top_left = _ival(_get(data, "deck_top_left"), "deck_top_left", 0, 40)
        markers = _lst(_get(data, "markers"), "markers", NR)
        spaces = _lst(_get(data, "spaces"), "spaces", NR)
        hangars = _lst(_get(data, "hangars"), "hangars", NR)
        for r in range(NR):
            st.markers[r] = _ival(markers[r], f"markers[{r}]", 0, self.markers_in[r])
            reg = _lst(spaces[r], f"spaces[{r}]", self.spaces_in[r])
            for s in range(self.spaces_in[r]):
                b = reg[s]
                if b is not None:
                    b = _lst(b, f"spaces[{r}][{s}]", 3)
                    st.sp_colour[r][s] = _ival(b[0], f"spaces[{r}][{s}][0]", 0, 3)
                    st.sp_owner[r][s] = _ival(b[1], f"spaces[{r}][{s}][1]", 0, owners - 1)
                    st.sp_level[r][s] = _ival(b[2], f"spaces[{r}][{s}][2]", 1, self.markers_in[r])
            reg = _lst(hangars[r], f"hangars[{r}]", self.hangars_in[r])
            for h in range(self.hangars_in[r]):
                cards = _lst(reg[h], f"hangars[{r}][{h}]", -1)
                if len(cards) > HCAP:
                    raise InvalidStateError(f"state.hangars[{r}][{h}]", f"at most {HCAP} cards")
                for i, card in enumerate(cards):
                    card = _lst(card, f"hangars[{r}][{h}][{i}]", 3)
                    st.hcards[r][h][i] = <uint8_t>(_ival(card[0], f"hangars[{r}][{h}][{i}][0]", 0, NT - 1)
                                                   | (_ival(card[1], f"hangars[{r}][{h}][{i}][1]", 0, 1) << 4)
                                                   | (_ival(card[2], f"hangars[{r}][{h}][{i}][2]", 0, n - 1) << 5))
                st.hlen[r][h] = len(cards)
        towers = _lst(_get(data, "towers"), "towers", 4)
        supply = _lst(_get(data, "supply"), "supply", 4)
        for i in range(4):
            st.towers[i] = _ival(towers[i], f"towers[{i}]", 0, 5)
            st.supply[i] = _ival(supply[i], f"supply[{i}]", 0, MARKER_COPIES[i])
        caps = _lst(_get(data, "caps"), "caps", owners)
        scores = _lst(_get(data, "scores"), "scores", owners)
        bonus = _lst(_get(data, "bonus"), "bonus", owners)
        for i in range(owners):
            st.caps[i] = _ival(caps[i], f"caps[{i}]", 0, 5)
            st.scores[i] = _ival(scores[i], f"scores[{i}]", 0, 32767)
            st.bonus[i] = _ival(bonus[i], f"bonus[{i}]", 0, 32767)
        vehicles = _lst(_get(data, "vehicles"), "vehicles", NV)
        for v in range(NV):
            veh = vehicles[v]
            if veh is not None:
                veh = _lst(veh, f"vehicles[{v}]", 2)
                st.veh_route[v] = _ival(veh[0], f"vehicles[{v}][0]", 0, NROUTES - 1)
                ms = _lst(veh[1], f"vehicles[{v}][1]", -1)
                if not 1 <= len(ms) <= 2:
                    raise InvalidStateError(f"state.vehicles[{v}][1]", "one or two markers")
                st.veh_n[v] = len(ms)
                for i, m in enumerate(ms):
                    m = _lst(m, f"vehicles[{v}][1][{i}]", 2)
                    st.veh_kind[v][i] = _ival(m[0], f"vehicles[{v}][1][{i}][0]", 0, 3)
                    st.veh_val[v][i] = _ival(m[1], f"vehicles[{v}][1][{i}][1]", 1, 8)
        hands = _lst(_get(data, "hands"), "hands", n)
        known = _lst(_get(data, "known"), "known", n)
        soft = _lst(_get(data, "soft"), "soft", n)
        linked = _lst(_get(data, "linked_from"), "linked_from", n)
        anyc = _lst(_get(data, "anyc"), "anyc", n)
        for p in range(n):
            _counts_into(st.hands[p], hands[p], f"hands[{p}]")
            _counts_into(st.known[p], known[p], f"known[{p}]")
            _counts_into(st.soft[p], soft[p], f"soft[{p}]")
            st.anyc[p] = _ival(anyc[p], f"anyc[{p}]", 0, 104)
            lf = _lst(linked[p], f"linked_from[{p}]", NR)
            for r in range(NR):
                reg = _lst(lf[r], f"linked_from[{p}][{r}]", self.hangars_in[r])
                for h in range(self.hangars_in[r]):
                    st.linked_from[p][r][h] = _ival(reg[h], f"linked_from[{p}][{r}][{h}]", 0, st.hlen[r][h])
        st.pile_region = _ival(_get(data, "pile_region"), "pile_region", -1, NR - 1)
        used = _lst(_get(data, "used"), "used", -1)
        if len(used) > UCAP:
            raise InvalidStateError("state.used", f"at most {UCAP} bunkers")
        for i, u in enumerate(used):
            u = _lst(u, f"used[{i}]", 2)
            r = _ival(u[0], f"used[{i}][0]", 0, NR - 1)
            st.used_r[i] = r
            st.used_s[i] = _ival(u[1], f"used[{i}][1]", 0, self.spaces_in[r] - 1)
        st.nused = len(used)
        memcpy(state.data, st, sizeof(A51))


cdef int _counts_into(uint8_t* out, object value, str field) except -1:
    cdef int t
    value = _lst(value, field, NT)
    for t in range(NT):
        out[t] = <uint8_t>_ival(value[t], f"{field}[{t}]", 0, 104)
    return 0


def make_kernel(reference_game):
    """The kernel for a reference ``Area51Game`` (same options)."""
    return Area51Kernel(reference_game)
