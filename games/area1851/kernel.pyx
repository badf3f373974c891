# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Native kernel of Area 1851 (``aiplay.games.area1851``), 2-5 players.

Every rule mirrors the reference engine (games/area1851/rules.py) step for step; the
differential test checks it move by move, and the generic tests check serialization,
information keys and determinization. The whole position (live player blocks, the
simultaneous-phase snapshot, the chance queue, the decks as count vectors) is one fixed-size
struct, ``St``; ``init_state`` zeroes it, padding included, because ``state_hash`` hashes the
raw bytes, and every helper that empties a list zeroes the slots it frees.

Names follow the reference: ``pl.hand``, ``_deliver``, ``_check_feats``... become
``hand``, ``deliver``, ``check_feats`` here, one C function per reference method.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset
from libc.math cimport exp, tanh

from aiplay._ext.kernel cimport K_CHANCE, K_TERMINAL, Kernel, NativeState, Rng, mix64, rng_below, rng_next
from aiplay._ext.load_checks cimport _choice, _ival, _lst

from aiplay.errors import InvalidOptionError, InvalidStateError
from aiplay.games.area1851 import cards as _C
from aiplay.games.area1851 import actions as _A
from aiplay.games.area1851 import heuristic as _H
from aiplay.games.area1851 import value_model as _VM

cdef enum:
    NT = 54          # Tinker types
    NF = 22          # feat types
    NE = 21          # events
    NL = 5           # locations
    ND = 3           # dice
    MAXP = 5
    MAXG = 10        # cards.MAX_GADGETS
    QCAP = 64        # chance queue (the loader allows 8n + 8 <= 48)
    NTODO = 12
    NUP = 33
    NCTX = 14
    NFLAGS = 12
    NA = 295
    NFEAT = 22       # value_model.FEATURES

# Phases (rules.PHASES order).
cdef enum:
    SETUP_DEAL = 0
    SETUP_PLACE = 1
    EVENT = 2
    EVENT_CHOICE = 3
    PREP_SKIP = 4
    PREP_DRAW = 5
    PREP_CHEAT = 6
    ACTION_PH = 7
    DELIVERY_PH = 8
    ASSIST = 9
    ROTATION = 10
    OVER = 11

# Steps: 0 is "" and 1 + the index in rules.STEPS.
cdef enum:
    S_NONE = 0
    S_PLACE = 1
    S_TODO = 2
    S_SKIP = 3
    S_CHEAT = 4
    S_MAIN = 5
    S_PAY = 6
    S_TARGET = 7
    S_TWEAKPAY = 8
    S_TOWNHALL = 9
    S_REROLL = 10
    S_REPL = 11
    S_SWAP1 = 12
    S_SWAP2 = 13
    S_SH2A = 14
    S_SH2B = 15
    S_RECY1 = 16
    S_RECY2 = 17
    S_DFEAT = 18
    S_DELIVER = 19
    S_MOVE = 20
    S_KEEP = 21
    S_REPLDRAW = 22
    S_ROLLING = 23

# Event choices (rules.T_*).
cdef enum:
    T_HARSH = 0
    T_CASINO2 = 1
    T_CASINO3 = 2
    T_RISKY = 3
    T_SMELL = 4
    T_PLACE = 5
    T_TL2 = 6
    T_TR4 = 7
    T_FREE = 8

# Chance items (rules.QUEUE_KINDS order).
cdef enum:
    Q_EVENT = 0
    Q_CARD = 1
    Q_FEAT = 2
    Q_DIE = 3
    Q_PDIE = 4
    Q_GDIE = 5
    Q_DUST = 6
    Q_NONE = 7

# ctx keys (rules.CTX_KEYS order, then "ret").
cdef enum:
    C_CARD = 0
    C_SRC = 1
    C_OWED = 2
    C_LEVEL = 3
    C_SEL = 4
    C_DIE = 5
    C_UP = 6
    C_GTYPE = 7
    C_OWN = 8
    C_NMODS = 9
    C_FMODS = 10
    C_TMODS = 11
    C_EMPTY = 12
    C_RET = 13

# Turn flags (rules.FLAG_NAMES order).
cdef enum:
    FL_BASICS = 0
    FL_NODELIV = 1
    FL_AUDIT = 2
    FL_SOLAR = 3
    FL_STRIKE = 4
    FL_HOLD = 5
    FL_LEARN = 6
    FL_CHEAT = 7
    FL_NO_TWEAK = 8
    FL_JUNK_BONUS = 9
    FL_END_MOD = 10
    FL_END_GADGET = 11

# Events (cards.E_*).
cdef enum:
    E_HARSH = 0
    E_CASINO = 1
    E_DRAW = 2
    E_DUST = 3
    E_HOLD = 4
    E_BASICS = 5
    E_LEARN = 6
    E_MISSING = 7
    E_NODELIV = 8
    E_CHEAT = 9
    E_NOTSOFAST = 10
    E_RISKY = 11
    E_ROTATE = 12
    E_AUDIT = 13
    E_SMELL = 14
    E_SOLAR = 15
    E_STRIKE = 16
    E_TRASH = 17
    E_END = 18
    E_LEFT = 19
    E_RIGHT = 20

# Feats (cards.F_*).
cdef enum:
    F_LEGEND = 0
    F_LITTLE = 1
    F_DIVERSITY = 2
    F_WHONEEDS = 3
    F_FIDDLIN = 4
    F_MOREJUNK = 5
    F_UNIQUE = 6
    F_TIME = 7
    F_DROP = 8
    F_SITTIN = 9
    F_LONER = 10
    F_DOUBLE = 11
    F_NOSEY = 12
    F_OOH = 13
    F_PACKRAT = 14
    F_SECRET = 15
    F_SINGLE = 16
    F_SNAKE = 17
    F_STORIN = 18
    F_STRENGTH = 19
    F_SYNC = 20
    F_TEAMWORK = 21

cdef enum:
    L_RECYCLER = 0
    L_REPLICATOR = 1
    L_STOREHOUSE = 2
    L_TOWNHALL = 3
    L_WORKSHOP = 4

# Action blocks (actions.py).
cdef enum:
    A_DONE = 0
    A_TAKE_FEAT = 1
    A_DRAW_CARD = 2
    A_YES = 3
    A_HAND = 4
    A_SCRAP = 58
    A_JUNK = 112
    A_GADGET = 166
    A_MOD = 176
    A_DIE = 206
    A_TWEAK = 209
    A_FREE_TWEAK = 215
    A_SET_DIE = 221
    A_ACTIVATE = 233
    A_LOCATION = 248
    A_MOVE = 253
    A_FEAT = 273

cdef enum:
    B_DONE = 0
    B_TAKE_FEAT = 1
    B_DRAW_CARD = 2
    B_YES = 3
    B_HAND = 4
    B_SCRAP = 5
    B_JUNK = 6
    B_GADGET = 7
    B_MOD = 8
    B_DIE = 9
    B_TWEAK = 10
    B_FREE_TWEAK = 11
    B_SET_DIE = 12
    B_ACTIVATE = 13
    B_LOCATION = 14
    B_MOVE = 15
    B_FEAT = 16


cdef struct PB:
    # One seat's block (player.Player), every list bounded.
    uint8_t hand[NT]
    uint8_t junk[NT]
    uint8_t kept[NT]
    uint8_t pj[NT]
    uint8_t phj[NT]
    uint8_t disc_add[NT]
    uint8_t known[MAXP][NT]
    int8_t gad[MAXG][4]          # [type, socket 0, 1, 2]; -1 empty (and past the gadget's sockets)
    uint8_t ngad
    uint8_t dice[ND]
    uint8_t used[ND]
    uint8_t wait[NL]
    uint8_t active[NL]
    uint8_t loc_used[NL]
    uint8_t reserve
    uint8_t down[NF]
    uint8_t up[NUP]
    uint8_t nup
    uint8_t ap
    uint8_t ap_base
    uint8_t free_tweak
    uint8_t bonus_draws
    uint8_t no_draw
    uint8_t skip
    uint8_t delivered
    uint8_t drawn
    uint8_t fdrawn
    int8_t flare
    uint8_t todo[NTODO]
    uint8_t ntodo
    int16_t score
    int16_t tweaks[ND]
    int16_t scraps
    int32_t ach_mask


cdef struct SnapC:
    PB players[MAXP]
    uint8_t discard[NT]
    uint8_t deck_size
    uint8_t feat_size


cdef struct St:
    int8_t n
    int8_t block
    int8_t turn
    int8_t phase
    int8_t actor
    int8_t actor_done
    int8_t step
    int8_t direction
    int8_t qlen
    int8_t nevents
    int8_t nte
    int8_t has_snap
    uint16_t ctx_mask
    int16_t ctx[NCTX]
    int8_t q[QCAP][3]
    int8_t events[NE]
    int8_t turn_events[3]
    uint8_t flags[NFLAGS]
    uint8_t deck[NT]
    uint8_t discard[NT]
    uint8_t feat_deck[NF]
    PB players[MAXP]
    SnapC snap


# -- component tables (filled from cards.py at import) ------------------------------------
cdef int T_GADGET[NT]
cdef int T_FACTION[NT]
cdef int T_NSOCK[NT]
cdef int T_SOCK[NT][3]
cdef int T_COST[NT]
cdef int T_RATING[NT]
cdef int T_COUNT[NT]
cdef int F_VALUE[NF]
cdef int F_COUNT[NF]
cdef int F_ISACTION[NF]
cdef int F_ISFINAL[NF]
cdef int RANDOM_EV[NE]
cdef int N_RANDOM_EV = 0


def _fill_tables():
    global N_RANDOM_EV
    cdef int t, s, f
    assert _C.NUM_TINKER_TYPES == NT and _C.NUM_FEAT_TYPES == NF and _C.NUM_EVENTS == NE
    assert _A.NUM_ACTIONS == NA and _A.FEAT == A_FEAT and _A.MOVE == A_MOVE and _C.MAX_GADGETS == MAXG
    for t in range(NT):
        info = _C.TINKER[t]
        T_GADGET[t] = 1 if info.is_gadget else 0
        T_FACTION[t] = info.faction
        T_NSOCK[t] = len(info.sockets) if info.is_gadget else 0
        for s in range(3):
            T_SOCK[t][s] = info.sockets[s] if s < len(info.sockets) else -1
        T_COST[t] = info.cost
        T_RATING[t] = info.rating
        T_COUNT[t] = info.copies
    for f in range(NF):
        F_VALUE[f] = _C.FEATS[f].value
        F_COUNT[f] = _C.FEATS[f].copies
        F_ISACTION[f] = 1 if _C.FEATS[f].timing == _C.ACTION else 0
        F_ISFINAL[f] = 1 if f in _VM.FINAL_FEATS else 0
    N_RANDOM_EV = len(_C.RANDOM_EVENTS)
    for t in range(N_RANDOM_EV):
        RANDOM_EV[t] = _C.RANDOM_EVENTS[t]


_fill_tables()

PHASE_NAMES = ("setup_deal", "setup_place", "event", "event_choice", "prep_skip", "prep_draw", "prep_cheat",
               "action", "delivery", "assistants", "rotation", "over")
STEP_NAMES = ("", "place", "todo", "skip", "cheat", "main", "pay", "target", "tweakpay", "townhall", "reroll",
              "repl", "swap1", "swap2", "sh2a", "sh2b", "recy1", "recy2", "dfeat", "deliver", "move", "keep", "repldraw", "rolling")
QUEUE_NAMES = ("event", "card", "feat", "die", "pdie", "gdie", "dust", "none")
CTX_NAMES = ("card", "src", "owed", "level", "sel", "die", "up", "gtype", "own", "nmods", "fmods", "tmods", "empty",
             "ret")
FLAG_NAMES = ("basics", "nodeliv", "audit", "solar", "strike", "hold", "learn", "cheat", "no_tweak", "junk_bonus",
              "end_mod", "end_gadget")


# -- small queries ---------------------------------------------------------------------------
cdef inline int sum54(const uint8_t* v) noexcept nogil:
    # Eight counts at a time: 16-bit lanes (each at most 6 * 2 * 255), then the lanes summed.
    cdef uint64_t w, acc = 0
    cdef int i, s
    for i in range(6):
        memcpy(&w, v + 8 * i, 8)
        acc += (w & <uint64_t>0x00FF00FF00FF00FFULL) + ((w >> 8) & <uint64_t>0x00FF00FF00FF00FFULL)
    s = <int>((acc * <uint64_t>0x0001000100010001ULL) >> 48)
    for i in range(48, NT):
        s += v[i]
    return s


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int nonzero54(const uint8_t* v, int* out) noexcept nogil:
    """The indices of the nonzero counts, in increasing order (zero words skipped; little-endian)."""
    cdef uint64_t w
    cdef int i, b, m = 0
    for i in range(6):
        memcpy(&w, v + 8 * i, 8)
        while w:
            b = __builtin_ctzll(w) >> 3
            out[m] = 8 * i + b
            m += 1
            w &= ~(<uint64_t>0xFF << (8 * b))
    for i in range(48, NT):
        if v[i]:
            out[m] = i
            m += 1
    return m


cdef inline bint any54(const uint8_t* v) noexcept nogil:
    cdef uint64_t w, acc = 0
    cdef int i
    for i in range(6):
        memcpy(&w, v + 8 * i, 8)
        acc |= w
    for i in range(48, NT):
        acc |= v[i]
    return acc != 0


cdef inline int sum22(const uint8_t* v) noexcept nogil:
    cdef int i, s = 0
    for i in range(NF):
        s += v[i]
    return s


cdef inline bint any22(const uint8_t* v) noexcept nogil:
    cdef int i
    for i in range(NF):
        if v[i]:
            return True
    return False


cdef inline int sum5(const uint8_t* v) noexcept nogil:
    return v[0] + v[1] + v[2] + v[3] + v[4]


cdef inline bint is_sim(int ph) noexcept nogil:
    return (ph == SETUP_PLACE or ph == EVENT_CHOICE or ph == PREP_SKIP or ph == PREP_CHEAT or ph == ACTION_PH
            or ph == DELIVERY_PH or ph == ASSIST or ph == ROTATION)


cdef inline int event_at(int position, int block) noexcept nogil:
    if position == block:
        return E_RIGHT
    if position == 2 * block + 1:
        return E_LEFT
    if position == 3 * block + 2:
        return E_END
    return -1


cdef inline int drop_to_five(int score) noexcept nogil:
    cdef int v
    if score <= 0:
        return 0
    v = (score - 1) // 5 * 5
    return v if v > 0 else 0


cdef inline int rise_to_five(int score) noexcept nogil:
    return (score // 5 + 1) * 5


cdef inline bint can_pay(const int* values, int m, int owed) noexcept nogil:
    cdef uint64_t sums = 1
    cdef int i
    if owed < 0 or owed > 60:
        return False
    for i in range(m):
        sums |= sums << values[i]
    return (sums >> owed) & 1


# -- ctx and queue -----------------------------------------------------------------------------
cdef inline void ctx_clear(St* st) noexcept nogil:
    st.ctx_mask = 0
    memset(st.ctx, 0, sizeof(st.ctx))


cdef inline void ctx_set(St* st, int k, int v) noexcept nogil:
    st.ctx_mask |= <uint16_t>(1 << k)
    st.ctx[k] = <int16_t>v


cdef inline bint ctx_has(const St* st, int k) noexcept nogil:
    return (st.ctx_mask >> k) & 1


cdef inline int ctx_get(const St* st, int k) noexcept nogil:
    return st.ctx[k] if (st.ctx_mask >> k) & 1 else 0


cdef inline void q_push(St* st, int kind, int p, int arg) noexcept nogil:
    if st.qlen < QCAP:
        st.q[st.qlen][0] = <int8_t>kind
        st.q[st.qlen][1] = <int8_t>p
        st.q[st.qlen][2] = <int8_t>arg
        st.qlen += 1


cdef inline void q_pop(St* st) noexcept nogil:
    if st.qlen > 1:
        memmove(&st.q[0][0], &st.q[1][0], 3 * (st.qlen - 1))
    st.qlen -= 1
    st.q[st.qlen][0] = 0
    st.q[st.qlen][1] = 0
    st.q[st.qlen][2] = 0


cdef inline void todo_pop(PB* pl) noexcept nogil:
    if pl.ntodo > 1:
        memmove(&pl.todo[0], &pl.todo[1], pl.ntodo - 1)
    pl.ntodo -= 1
    pl.todo[pl.ntodo] = 0


cdef inline void todo_push(PB* pl, int item) noexcept nogil:
    if pl.ntodo < NTODO:
        pl.todo[pl.ntodo] = <uint8_t>item
        pl.ntodo += 1


cdef inline void todo_insert0(PB* pl, int item) noexcept nogil:
    if pl.ntodo < NTODO:
        memmove(&pl.todo[1], &pl.todo[0], pl.ntodo)
        pl.todo[0] = <uint8_t>item
        pl.ntodo += 1


cdef inline void gadget_append(PB* pl, int t) noexcept nogil:
    cdef int s
    if pl.ngad < MAXG:
        pl.gad[pl.ngad][0] = <int8_t>t
        for s in range(3):
            pl.gad[pl.ngad][1 + s] = -1
        pl.ngad += 1


cdef inline void gadget_pop(PB* pl, int g, int8_t* out) noexcept nogil:
    cdef int i
    for i in range(4):
        out[i] = pl.gad[g][i]
    for i in range(g, pl.ngad - 1):
        memcpy(&pl.gad[i][0], &pl.gad[i + 1][0], 4)
    pl.ngad -= 1
    pl.gad[pl.ngad][0] = 0
    for i in range(3):
        pl.gad[pl.ngad][1 + i] = 0


cdef inline void player_init(PB* pl) noexcept nogil:
    memset(pl, 0, sizeof(PB))
    pl.dice[0] = 1
    pl.dice[1] = 1
    pl.dice[2] = 1
    pl.reserve = 3
    pl.ap_base = 2
    pl.flare = -1


cdef inline bint gad_full(const int8_t* gad) noexcept nogil:
    cdef int s
    for s in range(T_NSOCK[gad[0]]):
        if gad[1 + s] < 0:
            return False
    return True


cdef inline int empty_socket(const int8_t* gad, int socket) noexcept nogil:
    cdef int i, t = gad[0]
    for i in range(T_NSOCK[t]):
        if T_SOCK[t][i] == socket and gad[1 + i] < 0:
            return i
    return -1


cdef inline bint can_place(const PB* pl, int t) noexcept nogil:
    cdef int g, socket
    if T_GADGET[t]:
        return pl.ngad < MAXG
    socket = T_SOCK[t][0]
    for g in range(pl.ngad):
        if empty_socket(pl.gad[g], socket) >= 0:
            return True
    return False


cdef inline int usable_dice(const St* st, const PB* pl, int* out) noexcept nogil:
    cdef int d, m = 0
    for d in range(ND):
        if pl.used[d]:
            continue
        if st.flags[FL_SOLAR] and pl.flare >= 0 and d != pl.flare:
            continue
        out[m] = d
        m += 1
    return m


cdef bint payable(const St* st, const PB* pl, int cost) noexcept nogil:
    cdef int dice[ND]
    cdef int vals[ND]
    cdef int m = usable_dice(st, pl, dice)
    cdef int i, k = 0
    for i in range(m):
        if pl.dice[dice[i]] >= 1:
            vals[k] = pl.dice[dice[i]]
            k += 1
    if st.flags[FL_SOLAR]:
        for i in range(k):
            if vals[i] == cost:
                return True
        return False
    return can_pay(vals, k, cost)


cdef inline uint64_t pay_mask(const St* st, const PB* pl) noexcept nogil:
    """Bit c set exactly when ``payable(st, pl, c)`` (for 0 < c < 64)."""
    cdef int dice[ND]
    cdef int m = usable_dice(st, pl, dice)
    cdef int i, v
    cdef uint64_t sums = 1, faces = 0
    for i in range(m):
        v = pl.dice[dice[i]]
        if v >= 1:
            sums |= sums << v
            faces |= (<uint64_t>1) << v
    return faces if st.flags[FL_SOLAR] else sums


cdef inline int free_sockets(const PB* pl) noexcept nogil:
    """Bit s set when some gadget has an empty socket of type s (where a modification can go)."""
    cdef int g, i, t, mask = 0
    for g in range(pl.ngad):
        t = pl.gad[g][0]
        for i in range(T_NSOCK[t]):
            if pl.gad[g][1 + i] < 0:
                mask |= 1 << T_SOCK[t][i]
    return mask


cdef inline int junk_rating(const PB* pl) noexcept nogil:
    cdef int t, s = 0
    for t in range(NT):
        s += pl.junk[t] * T_RATING[t]
    return s


# -- state changes (rules.py helpers) -----------------------------------------------------------
cdef inline void use_die(St* st, PB* pl, int d) noexcept nogil:
    pl.used[d] = 1
    if st.flags[FL_SOLAR]:
        pl.flare = <int8_t>d


cdef inline void to_discard(St* st, PB* pl, int t) noexcept nogil:
    st.discard[t] += 1
    pl.disc_add[t] += 1


cdef void seen_leaving(St* st, PB* pl, int t, bint from_junk) noexcept nogil:
    cdef int x
    for x in range(st.n):
        if pl.known[x][t]:
            pl.known[x][t] -= 1
    if pl.phj[t]:
        pl.phj[t] -= 1
    if from_junk and pl.pj[t]:
        pl.pj[t] -= 1
    elif not from_junk and pl.pj[t] > pl.junk[t]:
        pl.pj[t] = pl.junk[t]


cdef void junk_to_discard(St* st, int p, int t) noexcept nogil:
    cdef PB* pl = &st.players[p]
    pl.junk[t] -= 1
    seen_leaving(st, pl, t, True)
    to_discard(st, pl, t)
    if st.flags[FL_JUNK_BONUS]:
        pl.score += 2


cdef void hand_to_junk(St* st, int p, int t) noexcept nogil:
    cdef PB* pl = &st.players[p]
    pl.hand[t] -= 1
    pl.junk[t] += 1
    check_feats(st, p)


cdef inline void public_to_junk(St* st, PB* pl, int t) noexcept nogil:
    pl.junk[t] += 1
    pl.pj[t] += 1


cdef inline void reveal(PB* pl, int f, int points) noexcept nogil:
    pl.down[f] -= 1
    if pl.nup < NUP:
        pl.up[pl.nup] = <uint8_t>f
        pl.nup += 1
    pl.score += points


cdef inline void hit(PB* pl, int f) noexcept nogil:
    if pl.down[f] and not ((pl.ach_mask >> f) & 1):
        pl.ach_mask |= (1 << f)
        reveal(pl, f, F_VALUE[f])


cdef void check_feats(St* st, int p) noexcept nogil:
    # Action feats are revealed when achieved (spec "Feats"), one copy per type and turn.
    cdef PB* pl = &st.players[p]
    cdef int d, m = 0, first = -1
    cdef bint same = True
    if st.phase == OVER or st.phase == SETUP_DEAL:
        return
    if sum54(pl.junk) >= 6:
        hit(pl, F_STORIN)
    if st.phase == ACTION_PH and st.actor == p:
        for d in range(ND):
            if not pl.used[d]:
                if m == 0:
                    first = pl.dice[d]
                elif pl.dice[d] != first:
                    same = False
                m += 1
        if m >= 2 and same:
            hit(pl, F_SYNC)
        if pl.scraps >= 2:
            hit(pl, F_MOREJUNK)
    if pl.tweaks[0] >= 3 or pl.tweaks[1] >= 3 or pl.tweaks[2] >= 3:
        hit(pl, F_FIDDLIN)


cdef void deliver(St* st, int p, int g, bint to_junk) noexcept nogil:
    # Rulebook "4. Delivery": score gadget g; its cards go to the discard pile or the junkyard.
    cdef PB* pl = &st.players[p]
    cdef int8_t gad[4]
    cdef int mods[3]
    cdef int nm = 0, s, t, gt, nsock, own, fmods = 0, tmods = 0, points, i
    gadget_pop(pl, g, gad)
    gt = gad[0]
    nsock = T_NSOCK[gt]
    for s in range(nsock):
        if gad[1 + s] >= 0:
            mods[nm] = gad[1 + s]
            nm += 1
    own = T_RATING[gt] + st.flags[FL_END_GADGET]
    for i in range(nm):
        if T_FACTION[mods[i]] == T_FACTION[gt]:
            fmods += 1
        if T_SOCK[mods[i]][0] == 0:
            tmods += 1
    if nm == nsock and fmods == nm:
        own *= 2
    points = own
    for i in range(nm):
        points += T_RATING[mods[i]] + st.flags[FL_END_MOD]
    pl.score += points
    pl.delivered += 1
    if to_junk:
        public_to_junk(st, pl, gt)
    else:
        to_discard(st, pl, gt)
    for i in range(nm):
        if to_junk:
            public_to_junk(st, pl, mods[i])
        else:
            to_discard(st, pl, mods[i])
    if to_junk:
        check_feats(st, p)
    ctx_clear(st)
    ctx_set(st, C_GTYPE, gt)
    ctx_set(st, C_OWN, own)
    ctx_set(st, C_NMODS, nm)
    ctx_set(st, C_FMODS, fmods)
    ctx_set(st, C_TMODS, tmods)
    ctx_set(st, C_EMPTY, nsock - nm)


cdef int delivery_feats(const St* st, int p, int* feats, int* pts) noexcept nogil:
    """Delivery feats of p that the gadget just delivered (ctx) achieves, in type order."""
    cdef const PB* pl = &st.players[p]
    cdef int k = 0
    cdef int nmods = ctx_get(st, C_NMODS), fmods = ctx_get(st, C_FMODS), tmods = ctx_get(st, C_TMODS)
    cdef int empty = ctx_get(st, C_EMPTY), own = ctx_get(st, C_OWN)
    if pl.down[F_DIVERSITY] and nmods and fmods == nmods:
        feats[k] = F_DIVERSITY
        pts[k] = 2 * nmods
        k += 1
    if pl.down[F_TIME] and tmods:
        feats[k] = F_TIME
        pts[k] = 5
        k += 1
    if pl.down[F_DOUBLE]:
        feats[k] = F_DOUBLE
        pts[k] = own
        k += 1
    if pl.down[F_SNAKE] and empty:
        feats[k] = F_SNAKE
        pts[k] = 4 * empty
        k += 1
    if pl.down[F_STRENGTH] and not empty and fmods == 0:
        feats[k] = F_STRENGTH
        pts[k] = 5
        k += 1
    return k


cdef void attach(St* st, int p, int t, int g, int src) noexcept nogil:
    cdef PB* pl = &st.players[p]
    cdef int s
    if src == 1:
        pl.junk[t] -= 1
        seen_leaving(st, pl, t, True)
    else:
        pl.hand[t] -= 1
        seen_leaving(st, pl, t, False)
        if src == 0:
            pl.ap -= 1
    s = empty_socket(pl.gad[g], T_SOCK[t][0])
    if s >= 0:
        pl.gad[g][1 + s] = <int8_t>t


cdef void tweak(St* st, int p, int d, bint up) noexcept nogil:
    # spec "A turn" 3, Tweak dice: +1 or -1 on an unused die.
    cdef PB* pl = &st.players[p]
    if up:
        pl.dice[d] += 1
    else:
        pl.dice[d] -= 1
    pl.tweaks[d] += 1
    check_feats(st, p)


# -- the flow -------------------------------------------------------------------------------
cdef void start_sim(St* st, int phase) noexcept nogil:
    cdef int p
    st.phase = <int8_t>phase
    for p in range(st.n):
        memset(st.players[p].disc_add, 0, NT)
        st.players[p].drawn = 0
        st.players[p].fdrawn = 0
    memcpy(st.snap.players, st.players, st.n * sizeof(PB))
    memcpy(st.snap.discard, st.discard, NT)
    st.snap.deck_size = <uint8_t>sum54(st.deck)
    st.snap.feat_size = <uint8_t>sum22(st.feat_deck)
    st.has_snap = 1
    st.actor = -1
    st.actor_done = 1
    st.step = S_NONE
    ctx_clear(st)


cdef bint participates(const St* st, int p) noexcept nogil:
    cdef const PB* pl = &st.players[p]
    cdef int ph = st.phase
    if ph == EVENT_CHOICE:
        return pl.ntodo > 0
    if ph == DELIVERY_PH:
        return pl.ngad > 0
    if ph == ASSIST:
        return sum5(pl.wait) > 0
    if ph == ROTATION:
        return sum54(pl.hand) > 2
    return True


cdef int next_participant(const St* st, int start) noexcept nogil:
    cdef int p
    for p in range(start, st.n):
        if participates(st, p):
            return p
    return -1


cdef void begin_actor(St* st) noexcept nogil:
    cdef int p = st.actor
    cdef PB* pl = &st.players[p]
    cdef int ph = st.phase
    ctx_clear(st)
    if ph == SETUP_PLACE:
        st.step = S_PLACE
    elif ph == EVENT_CHOICE:
        st.step = S_TODO
    elif ph == PREP_SKIP:
        st.step = S_SKIP
    elif ph == PREP_CHEAT:
        st.step = S_CHEAT
    elif ph == ACTION_PH:
        # Rulebook "3. Action": 2 AP, changed by some effects.
        pl.ap = pl.ap_base
        pl.scraps = 0
        pl.free_tweak = 0
        st.step = S_MAIN
        check_feats(st, p)
    elif ph == DELIVERY_PH:
        st.step = S_DELIVER
    elif ph == ASSIST:
        st.step = S_MOVE
    elif ph == ROTATION:
        memset(pl.kept, 0, NT)
        st.step = S_KEEP


cdef inline void finish_actor(St* st) noexcept nogil:
    st.actor_done = 1
    st.step = S_NONE
    ctx_clear(st)


cdef inline void back_to_main(St* st) noexcept nogil:
    ctx_clear(st)
    st.step = S_MAIN


cdef void roll_next(St* st, int p, int sel) noexcept nogil:
    """rules._roll_next: roll the lowest die of ``sel``; step ``rolling`` while dice are left."""
    cdef int d
    for d in range(ND):
        if (sel >> d) & 1:
            q_push(st, Q_DIE, p, d)
            sel &= ~(1 << d)
            break
    if sel:
        ctx_clear(st)
        ctx_set(st, C_SEL, sel)
        st.step = S_ROLLING
    else:
        back_to_main(st)


cdef void end_sim(St* st) noexcept nogil:
    cdef int ph = st.phase, p, i
    st.has_snap = 0
    memset(st.snap.players, 0, st.n * sizeof(PB))  # the blocks past n stay zero throughout
    memset(st.snap.discard, 0, NT)
    st.snap.deck_size = 0
    st.snap.feat_size = 0
    st.actor = -1
    st.actor_done = 0
    st.step = S_NONE
    ctx_clear(st)
    for p in range(st.n):
        memset(st.players[p].disc_add, 0, NT)
        st.players[p].drawn = 0
        st.players[p].fdrawn = 0
    if ph == SETUP_PLACE:
        begin_turn(st)
    elif ph == EVENT_CHOICE:
        begin_prep(st)
    elif ph == PREP_SKIP:
        prep_draws(st)
    elif ph == PREP_CHEAT:
        start_sim(st, ACTION_PH)
    elif ph == ACTION_PH:
        for p in range(st.n):
            st.players[p].free_tweak = 0
        if st.flags[FL_NODELIV]:
            # Event "No Deliveries Today": skip the delivery phase (full gadgets wait).
            end_delivery(st)
        else:
            start_sim(st, DELIVERY_PH)
    elif ph == DELIVERY_PH:
        end_delivery(st)
    elif ph == ASSIST:
        for i in range(st.nte):
            if st.turn_events[i] == E_END:
                # Rulebook "Game end": after the Assistant phase of the turn that revealed The End.
                final_scoring(st)
                return
        if st.flags[FL_HOLD]:
            start_sim(st, ROTATION)
        else:
            pass_hands(st, False)
            begin_turn(st)
    elif ph == ROTATION:
        pass_hands(st, True)
        begin_turn(st)


cdef void begin_turn(St* st) noexcept nogil:
    cdef int p
    cdef PB* pl
    st.turn += 1
    st.phase = EVENT
    st.nte = 0
    memset(st.turn_events, 0, sizeof(st.turn_events))
    memset(st.flags, 0, NFLAGS)
    for p in range(st.n):
        pl = &st.players[p]
        pl.ap_base = 2
        pl.ap = 0
        memset(pl.loc_used, 0, NL)
        pl.free_tweak = 0
        pl.bonus_draws = 0
        pl.no_draw = 0
        pl.skip = 0
        pl.tweaks[0] = 0
        pl.tweaks[1] = 0
        pl.tweaks[2] = 0
        pl.scraps = 0
        pl.delivered = 0
        pl.flare = -1
        pl.ach_mask = 0
        pl.ntodo = 0
        memset(pl.todo, 0, NTODO)
        memset(pl.kept, 0, NT)
    # Rulebook "1. Event phase": reveal the top event.
    q_push(st, Q_EVENT, -1, 0)


cdef void begin_prep(St* st) noexcept nogil:
    # Feat "Just Sittin' Round": every seat is asked while the card is not revealed.
    cdef int p, i
    for p in range(st.n):
        for i in range(st.players[p].nup):
            if st.players[p].up[i] == F_SITTIN:
                prep_draws(st)
                return
    start_sim(st, PREP_SKIP)


cdef void prep_draws(St* st) noexcept nogil:
    # Rulebook "2. Preparation": draw up to 5, then roll the 3 dice.
    cdef int p, k, d
    cdef PB* pl
    st.phase = PREP_DRAW
    for p in range(st.n):
        pl = &st.players[p]
        if pl.skip:
            memset(pl.used, 0, ND)
            continue
        if not pl.no_draw:
            for k in range(5 - sum54(pl.hand)):
                q_push(st, Q_CARD, p, 0)
    for p in range(st.n):
        if not st.players[p].skip:
            for d in range(ND):
                q_push(st, Q_DIE, p, d)


cdef void end_delivery(St* st) noexcept nogil:
    cdef int p, g, total, loc
    cdef PB* pl
    for p in range(st.n):
        if st.flags[FL_NODELIV]:
            break
        pl = &st.players[p]
        g = 0
        while g < pl.ngad:
            if gad_full(pl.gad[g]):
                deliver(st, p, g, False)
            else:
                g += 1
    if st.flags[FL_LEARN]:
        # Event "Learn by Watching": after all deliveries.
        total = 0
        for p in range(st.n):
            total += st.players[p].delivered
        for p in range(st.n):
            if st.players[p].delivered == 0:
                st.players[p].score += 3 * total
    # Rulebook "5. Assistants": activated assistants return to their waiting space.
    for p in range(st.n):
        pl = &st.players[p]
        for loc in range(NL):
            pl.wait[loc] += pl.active[loc]
            pl.active[loc] = 0
    start_sim(st, ASSIST)


cdef void pass_hands(St* st, bint keep) noexcept nogil:
    """Rulebook "6. Rotation": every hand goes to the neighbour in the current direction."""
    cdef int n = st.n, p, r, t, x
    cdef uint8_t passed[MAXP][NT]
    cdef uint8_t old[MAXP][MAXP][NT]
    cdef uint8_t base[NT]
    cdef PB* rec
    cdef int b, c
    for p in range(n):
        for t in range(NT):
            passed[p][t] = st.players[p].hand[t] - (st.players[p].kept[t] if keep else 0)
    for p in range(n):
        r = (p + st.direction + n) % n
        rec = &st.players[r]
        for t in range(NT):
            rec.hand[t] = (rec.kept[t] if keep else 0) + passed[p][t]
    for p in range(n):
        memcpy(old[p], st.players[p].known, MAXP * NT)
    for p in range(n):
        r = (p + st.direction + n) % n
        rec = &st.players[r]
        memset(rec.known, 0, MAXP * NT)
        memset(rec.phj, 0, NT)
        if r != p:
            if (r + st.direction + n) % n == p:
                for t in range(NT):
                    b = old[r][p][t]
                    c = passed[r][t]
                    rec.known[p][t] = passed[p][t] + (b - c if b > c else 0)
            else:
                memcpy(rec.known[p], passed[p], NT)
        memset(rec.kept, 0, NT)


cdef void apply_event(St* st, int e) noexcept nogil:
    # spec "Events (each once in the deck)".
    cdef int n = st.n, p, top, low
    cdef PB* pl
    if st.nevents < NE:
        st.events[st.nevents] = <int8_t>e
        st.nevents += 1
    if st.nte < 3:
        st.turn_events[st.nte] = <int8_t>e
        st.nte += 1
    if e == E_HARSH:
        for p in range(n):
            if st.players[p].ngad:
                todo_push(&st.players[p], T_HARSH)
    elif e == E_CASINO:
        for p in range(n):
            q_push(st, Q_PDIE, p, E_CASINO)
    elif e == E_DRAW:
        for p in range(n):
            st.players[p].bonus_draws += 1
    elif e == E_DUST:
        for p in range(n):
            if any54(st.players[p].junk):
                q_push(st, Q_DUST, p, 0)
    elif e == E_HOLD:
        st.flags[FL_HOLD] = 1
    elif e == E_BASICS:
        st.flags[FL_BASICS] = 1
    elif e == E_LEARN:
        st.flags[FL_LEARN] = 1
    elif e == E_MISSING:
        q_push(st, Q_EVENT, -1, 0)
    elif e == E_NODELIV:
        st.flags[FL_NODELIV] = 1
    elif e == E_CHEAT:
        st.flags[FL_CHEAT] = 1
    elif e == E_NOTSOFAST:
        top = st.players[0].score
        for p in range(n):
            if st.players[p].score > top:
                top = st.players[p].score
        for p in range(n):
            pl = &st.players[p]
            if pl.score == top:
                pl.score = <int16_t>drop_to_five(pl.score)
            else:
                pl.score += 1
    elif e == E_RISKY:
        for p in range(n):
            todo_push(&st.players[p], T_RISKY)
    elif e == E_ROTATE:
        pass_hands(st, False)
    elif e == E_AUDIT:
        st.flags[FL_AUDIT] = 1
    elif e == E_SMELL:
        for p in range(n):
            todo_push(&st.players[p], T_SMELL)
    elif e == E_SOLAR:
        st.flags[FL_SOLAR] = 1
    elif e == E_STRIKE:
        st.flags[FL_STRIKE] = 1
    elif e == E_TRASH:
        low = st.players[0].score
        for p in range(n):
            if st.players[p].score < low:
                low = st.players[p].score
        for p in range(n):
            pl = &st.players[p]
            if pl.score == low:
                pl.score += 2 * sum54(pl.junk)
    elif e == E_END or e == E_LEFT or e == E_RIGHT:
        if e == E_LEFT:
            st.direction = 1
        elif e == E_RIGHT:
            st.direction = -1
        if e != E_END:
            for p in range(n):
                if st.players[p].reserve > 0:
                    todo_push(&st.players[p], T_PLACE)
        q_push(st, Q_GDIE, -1, e)


cdef void global_die(St* st, int e, int face) noexcept nogil:
    cdef int p
    if e == E_END:
        if face == 3:
            st.flags[FL_END_MOD] = 1
        elif face == 4:
            st.flags[FL_END_GADGET] = 1
    elif e == E_LEFT:
        if face == 2:
            for p in range(st.n):
                todo_push(&st.players[p], T_TL2)
        elif face == 3:
            st.flags[FL_NO_TWEAK] = 1
        elif face == 4:
            st.flags[FL_JUNK_BONUS] = 1
    else:
        if face == 2:
            for p in range(st.n):
                st.players[p].score += sum54(st.players[p].junk)
        elif face == 3:
            for p in range(st.n):
                st.players[p].score = <int16_t>drop_to_five(st.players[p].score)
        elif face == 4:
            for p in range(st.n):
                todo_push(&st.players[p], T_TR4)


cdef void personal_die(St* st, int p, int e, int face) noexcept nogil:
    cdef PB* pl = &st.players[p]
    if e == E_CASINO:
        if face == 1:
            pl.bonus_draws += 2
        elif face == 2:
            todo_push(pl, T_CASINO2)
        elif face == 3:
            todo_push(pl, T_CASINO3)
        else:
            pl.ap_base = 3
    else:  # Risky Deal
        if face == 1:
            pl.ap_base = 1
        elif face == 2:
            pl.no_draw = 1
        elif face == 4:
            todo_insert0(pl, T_FREE)


cdef void final_scoring(St* st) noexcept nogil:
    """Reveal and score Final feats (spec "Feats"), in the reference order."""
    cdef int n = st.n, p, q, a, i, k, f, fi, pts, cnt, best, nmine, v
    cdef int team[MAXP]
    cdef int others[NL]
    cdef int counts[MAXP]
    cdef int order[8]
    cdef PB* pl
    order[0] = F_LITTLE
    order[1] = F_UNIQUE
    order[2] = F_LONER
    order[3] = F_OOH
    order[4] = F_PACKRAT
    order[5] = F_SECRET
    order[6] = F_SINGLE
    order[7] = F_TEAMWORK
    st.phase = OVER
    st.actor = -1
    for p in range(n):
        team[p] = 1 if st.players[p].down[F_TEAMWORK] else 0
    for p in range(n):
        pl = &st.players[p]
        nmine = 0
        for a in range(NL):
            if pl.wait[a] + pl.active[a]:
                nmine += 1
            others[a] = 0
            for q in range(n):
                if q != p:
                    others[a] += st.players[q].wait[a] + st.players[q].active[a]
        for fi in range(8):
            f = order[fi]
            cnt = pl.down[f]
            for k in range(cnt):
                pts = -1
                if f == F_LITTLE and nmine >= 3:
                    pts = 5
                elif f == F_UNIQUE:
                    for a in range(NL):
                        if (pl.wait[a] + pl.active[a]) and others[a] == 0:
                            pts = 10
                            break
                elif f == F_LONER:
                    pts = 10
                elif f == F_OOH:
                    best = 0
                    for q in range(n):
                        if q != p:
                            for i in range(st.players[q].nup):
                                v = st.players[q].up[i]
                                if F_ISACTION[v] and F_VALUE[v] > best:
                                    best = F_VALUE[v]
                    pts = best
                elif f == F_PACKRAT:
                    pts = 2 * sum54(pl.junk)
                    if pts > 20:
                        pts = 20
                elif f == F_SECRET:
                    best = 0
                    for i in range(pl.nup):
                        v = pl.up[i]
                        if F_ISACTION[v] and F_VALUE[v] > best:
                            best = F_VALUE[v]
                    pts = best
                elif f == F_SINGLE and pl.reserve == 0 and nmine == 1:
                    pts = 5
                elif f == F_TEAMWORK:
                    pts = 0
                    for q in range(n):
                        if q != p and team[q]:
                            pts = 10
                if pts >= 0:
                    reveal(pl, f, pts)
        cnt = pl.down[F_WHONEEDS]
        for k in range(cnt):
            reveal(pl, F_WHONEEDS, 0)
        cnt = pl.down[F_NOSEY]
        for k in range(cnt):
            reveal(pl, F_NOSEY, 0)
    for p in range(n):
        pl = &st.players[p]
        if pl.down[F_LEGEND] and pl.nup >= 3:
            reveal(pl, F_LEGEND, 0)
        if pl.down[F_DROP]:
            reveal(pl, F_DROP, 0)
    for p in range(n):
        counts[p] = st.players[p].nup
    for p in range(n):
        pl = &st.players[p]
        for i in range(pl.nup):
            f = pl.up[i]
            if f == F_LEGEND:
                pl.score += 5 * (counts[p] // 4)
            elif f == F_WHONEEDS:
                v = 25 - 5 * (counts[p] - 1)
                pl.score += v if v > 0 else 0
            elif f == F_NOSEY:
                a = (p - 1 + n) % n
                q = (p + 1) % n
                if a != p:
                    pl.score += counts[a]
                if q != p and q != a:
                    pl.score += counts[q]
    for p in range(n):
        pl = &st.players[p]
        for i in range(pl.nup):
            if pl.up[i] == F_DROP:
                pl.score = <int16_t>rise_to_five(pl.score)
                break


# -- chance -----------------------------------------------------------------------------------
cdef bint chance_possible(St* st) noexcept nogil:
    cdef int kind = st.q[0][0], p = st.q[0][1]
    if kind == Q_CARD:
        if not any54(st.deck) and (st.phase == SETUP_DEAL or st.phase == PREP_DRAW) and any54(st.discard):
            # Engine ruling: an empty deck is replaced by the shuffled discard pile in set-up/preparation.
            memcpy(st.deck, st.discard, NT)
            memset(st.discard, 0, NT)
        return any54(st.deck)
    if kind == Q_FEAT:
        return any22(st.feat_deck)
    if kind == Q_DUST:
        return any54(st.players[p].junk)
    return True


cdef void pad(St* st, int p) noexcept nogil:
    """rules._pad: after a decision of an event-choice or action phase, exactly one chance node."""
    while st.qlen and not chance_possible(st):
        q_pop(st)
    if not st.qlen:
        q_push(st, Q_NONE, p, 0)


cdef void settle(St* st) noexcept nogil:
    """Advance through automatic steps until a decision or a chance node (or the end)."""
    cdef int nxt
    while True:
        while st.qlen and not chance_possible(st):
            q_pop(st)
        if st.qlen or st.phase == OVER:
            return
        if is_sim(st.phase):
            if st.actor >= 0 and not st.actor_done:
                if st.phase == EVENT_CHOICE:
                    skip_todo(st)
                    if not st.actor_done:
                        return
                else:
                    return
            nxt = next_participant(st, st.actor + 1)
            if nxt >= 0:
                st.actor = <int8_t>nxt
                st.actor_done = 0
                begin_actor(st)
                continue
            end_sim(st)
            continue
        if st.phase == SETUP_DEAL:
            start_sim(st, SETUP_PLACE)
        elif st.phase == EVENT:
            start_sim(st, EVENT_CHOICE)
        elif st.phase == PREP_DRAW:
            if st.flags[FL_CHEAT]:
                start_sim(st, PREP_CHEAT)
            else:
                start_sim(st, ACTION_PH)
        else:
            return


cdef bint free_possible(const St* st, const PB* pl) noexcept nogil:
    cdef int t
    if ctx_has(st, C_CARD):
        return True
    for t in range(NT):
        if pl.hand[t] and can_place(pl, t):
            return True
    return False


cdef void skip_todo(St* st) noexcept nogil:
    """Drop event choices the actor cannot make; the actor is done when none is left."""
    cdef PB* pl = &st.players[st.actor]
    cdef int item
    cdef bint possible
    while pl.ntodo:
        item = pl.todo[0]
        if item == T_HARSH:
            possible = pl.ngad > 0
        elif item == T_CASINO2 or item == T_TL2 or item == T_TR4:
            possible = any54(pl.hand)
        elif item == T_CASINO3:
            possible = sum5(pl.wait) > 0
        elif item == T_SMELL:
            possible = any22(st.feat_deck)
        elif item == T_PLACE:
            possible = pl.reserve > 0
        elif item == T_RISKY:
            possible = True
        else:
            possible = free_possible(st, pl)
        if possible:
            return
        todo_pop(pl)
    finish_actor(st)


cdef void resolve(St* st, int outcome) noexcept nogil:
    cdef int kind = st.q[0][0], p = st.q[0][1], arg = st.q[0][2]
    cdef PB* pl
    q_pop(st)
    if kind == Q_EVENT:
        apply_event(st, outcome)
    elif kind == Q_CARD:
        pl = &st.players[p]
        st.deck[outcome] -= 1
        pl.hand[outcome] += 1
        pl.drawn += 1
    elif kind == Q_FEAT:
        pl = &st.players[p]
        st.feat_deck[outcome] -= 1
        pl.down[outcome] += 1
        pl.fdrawn += 1
        check_feats(st, p)
    elif kind == Q_DIE:
        pl = &st.players[p]
        pl.dice[arg] = <uint8_t>(outcome + 1)
        pl.used[arg] = 0
        if st.phase == ACTION_PH:
            check_feats(st, p)
    elif kind == Q_PDIE:
        personal_die(st, p, arg, outcome + 1)
    elif kind == Q_GDIE:
        global_die(st, arg, outcome + 1)
    elif kind == Q_DUST:
        # Dust Storm: a random junkyard card goes to the discard pile.
        junk_to_discard(st, p, outcome)
    # Q_NONE: nothing happens (the chance node after a choice that neither draws nor rolls).


# -- decisions ----------------------------------------------------------------------------------
cdef inline int decode(int a, int* i, int* j) noexcept nogil:
    j[0] = 0
    if a < A_HAND:
        i[0] = 0
        return a
    if a < A_SCRAP:
        i[0] = a - A_HAND
        return B_HAND
    if a < A_JUNK:
        i[0] = a - A_SCRAP
        return B_SCRAP
    if a < A_GADGET:
        i[0] = a - A_JUNK
        return B_JUNK
    if a < A_MOD:
        i[0] = a - A_GADGET
        return B_GADGET
    if a < A_DIE:
        i[0] = (a - A_MOD) // 3
        j[0] = (a - A_MOD) % 3
        return B_MOD
    if a < A_TWEAK:
        i[0] = a - A_DIE
        return B_DIE
    if a < A_FREE_TWEAK:
        i[0] = (a - A_TWEAK) // 2
        j[0] = (a - A_TWEAK) % 2
        return B_TWEAK
    if a < A_SET_DIE:
        i[0] = (a - A_FREE_TWEAK) // 2
        j[0] = (a - A_FREE_TWEAK) % 2
        return B_FREE_TWEAK
    if a < A_ACTIVATE:
        i[0] = (a - A_SET_DIE) // 4
        j[0] = (a - A_SET_DIE) % 4 + 1
        return B_SET_DIE
    if a < A_LOCATION:
        i[0] = (a - A_ACTIVATE) // 3
        j[0] = (a - A_ACTIVATE) % 3 + 1
        return B_ACTIVATE
    if a < A_MOVE:
        i[0] = a - A_LOCATION
        return B_LOCATION
    if a < A_FEAT:
        i[0] = (a - A_MOVE) // 4
        j[0] = (a - A_MOVE) % 4
        if j[0] >= i[0]:
            j[0] += 1
        return B_MOVE
    i[0] = a - A_FEAT
    return B_FEAT


cdef inline int move_id(int a, int b) noexcept nogil:
    return A_MOVE + 4 * a + (b if b < a else b - 1)


cdef int moves_list(const PB* pl, int* out, int m) noexcept nogil:
    cdef int a, b
    for a in range(NL):
        if pl.wait[a]:
            for b in range(NL):
                if b != a:
                    out[m] = move_id(a, b)
                    m += 1
    return m


cdef int legal(const St* st, int* out) noexcept nogil:
    cdef int p = st.actor
    cdef const PB* pl = &st.players[p]
    cdef int step = st.step
    cdef int m = 0, t, d, v, g, s, loc, k, item, owed, nd, i, e, nv, nz
    cdef uint64_t paymask = 0
    cdef int sockmask = 0
    cdef bint placeable
    cdef int idx[NT]
    cdef int dice[ND]
    cdef int vals[ND]
    cdef int feats[5]
    cdef int pts[5]
    cdef bint anyjunk, found
    if p < 0 or st.qlen or st.phase == OVER:
        return 0  # not a decision node: nothing to choose (and no seat -1 to read)
    if step == S_PLACE:
        for loc in range(NL):
            out[m] = A_LOCATION + loc
            m += 1
        return m
    if step == S_TODO:
        return todo_actions(st, p, out)
    if step == S_SKIP:
        out[0] = A_DONE
        if pl.down[F_SITTIN]:
            out[1] = A_YES
            return 2
        return 1
    if step == S_CHEAT:
        out[m] = A_DONE
        m += 1
        for d in range(ND):
            for v in range(1, 5):
                if pl.dice[d] != v:
                    out[m] = A_SET_DIE + 4 * d + v - 1
                    m += 1
        return m
    if step == S_MAIN:
        out[m] = A_DONE
        m += 1
        if pl.ap >= 1 and any22(st.feat_deck):
            out[m] = A_TAKE_FEAT
            m += 1
        if pl.bonus_draws and any54(st.deck):
            out[m] = A_DRAW_CARD
            m += 1
        if pl.ap >= 1:
            nz = nonzero54(pl.hand, idx)
            if nz:
                # Computed once: the costs the usable dice can pay (payable) and the socket types
                # with a free socket (can_place), instead of once per card type.
                paymask = pay_mask(st, pl)
                sockmask = free_sockets(pl)
            for i in range(nz):
                t = idx[i]
                if T_GADGET[t]:
                    placeable = pl.ngad < MAXG
                else:
                    placeable = (sockmask >> T_SOCK[t][0]) & 1
                if placeable and (paymask >> T_COST[t]) & 1:
                    out[m] = A_HAND + t
                    m += 1
            if not st.flags[FL_AUDIT]:
                for i in range(nz):
                    out[m] = A_SCRAP + idx[i]
                    m += 1
        if not st.flags[FL_NO_TWEAK]:
            anyjunk = any54(pl.junk)
            if anyjunk:
                for d in range(ND):
                    if pl.used[d]:
                        continue
                    if pl.dice[d] + 1 <= 5:
                        out[m] = A_TWEAK + 2 * d
                        m += 1
                    if pl.dice[d] - 1 >= 0:
                        out[m] = A_TWEAK + 2 * d + 1
                        m += 1
            if pl.free_tweak:
                for d in range(ND):
                    if pl.used[d]:
                        continue
                    if pl.dice[d] + 1 <= 5:
                        out[m] = A_FREE_TWEAK + 2 * d
                        m += 1
                    if pl.dice[d] - 1 >= 0:
                        out[m] = A_FREE_TWEAK + 2 * d + 1
                        m += 1
        if not st.flags[FL_STRIKE]:
            for loc in range(NL):
                if pl.loc_used[loc]:
                    continue
                for k in range(1, pl.wait[loc] + 1):
                    if k == 1 or not st.flags[FL_BASICS]:
                        out[m] = A_ACTIVATE + 3 * loc + k - 1
                        m += 1
        return m
    if step == S_PAY:
        # spec "A turn" 3, Build: unused dice summing exactly to the cost, chosen one at a time.
        owed = ctx_get(st, C_OWED)
        k = usable_dice(st, pl, dice)
        nd = 0
        for i in range(k):
            if pl.dice[dice[i]] >= 1:
                dice[nd] = dice[i]
                nd += 1
        for i in range(nd):
            d = dice[i]
            v = pl.dice[d]
            if st.flags[FL_SOLAR]:
                if v == owed:
                    out[m] = A_DIE + d
                    m += 1
            elif v <= owed:
                nv = 0
                for e in range(nd):
                    if e != i:
                        vals[nv] = pl.dice[dice[e]]
                        nv += 1
                if can_pay(vals, nv, owed - v):
                    out[m] = A_DIE + d
                    m += 1
        return m
    if step == S_TARGET:
        t = ctx_get(st, C_CARD)
        s = T_SOCK[t][0]
        for g in range(pl.ngad):
            if empty_socket(pl.gad[g], s) >= 0:
                out[m] = A_GADGET + g
                m += 1
        return m
    if step == S_TWEAKPAY or step == S_SWAP2:
        nz = nonzero54(pl.junk, idx)
        for i in range(nz):
            out[i] = A_JUNK + idx[i]
        return nz
    if step == S_TOWNHALL:
        out[m] = A_DONE
        m += 1
        k = usable_dice(st, pl, dice)
        for i in range(k):
            out[m] = A_DIE + dice[i]
            m += 1
        return m
    if step == S_REROLL:
        out[m] = A_DONE
        m += 1
        for d in range(ND):
            if not ((ctx_get(st, C_SEL) >> d) & 1):
                out[m] = A_DIE + d
                m += 1
        return m
    if step == S_REPLDRAW:
        out[0] = A_DRAW_CARD  # forced: the Replicator's second card
        return 1
    if step == S_ROLLING:
        for d in range(ND):
            if (ctx_get(st, C_SEL) >> d) & 1:
                out[0] = A_DIE + d  # forced: the next die of the re-roll
                return 1
        return 0
    if step == S_REPL or (step == S_SWAP1 and any54(pl.junk)):
        out[m] = A_DONE
        m += 1
        nz = nonzero54(pl.hand, idx)
        for i in range(nz):
            out[m] = A_HAND + idx[i]
            m += 1
        return m
    if step == S_SWAP1:
        out[0] = A_DONE
        return 1
    if step == S_SH2A:
        out[m] = A_DONE
        m += 1
        nz = nonzero54(pl.junk, idx)
        for i in range(nz):
            out[m] = A_JUNK + idx[i]
            m += 1
        return m
    if step == S_SH2B:
        out[m] = A_DONE
        m += 1
        if pl.ap < 1:
            return m
        nz = nonzero54(pl.junk, idx)
        for i in range(nz):
            if can_place(pl, idx[i]):
                out[m] = A_JUNK + idx[i]
                m += 1
        return m
    if step == S_RECY1:
        out[m] = A_DONE
        m += 1
        for g in range(pl.ngad):
            for s in range(T_NSOCK[pl.gad[g][0]]):
                if pl.gad[g][1 + s] >= 0:
                    out[m] = A_MOD + 3 * g + s
                    m += 1
        return m
    if step == S_RECY2:
        out[m] = A_DONE
        m += 1
        for g in range(pl.ngad):
            out[m] = A_GADGET + g
            m += 1
        return m
    if step == S_DFEAT:
        out[m] = A_DONE
        m += 1
        k = delivery_feats(st, p, feats, pts)
        for i in range(k):
            out[m] = A_FEAT + feats[i]
            m += 1
        return m
    if step == S_DELIVER:
        found = False
        for g in range(pl.ngad):
            if gad_full(pl.gad[g]):
                found = True
                break
        if not found:
            out[m] = A_DONE
            m += 1
        for g in range(pl.ngad):
            out[m] = A_GADGET + g
            m += 1
        return m
    if step == S_MOVE:
        out[m] = A_DONE
        m += 1
        return moves_list(pl, out, m)
    if step == S_KEEP:
        nz = nonzero54(pl.hand, idx)
        for i in range(nz):
            t = idx[i]
            if pl.hand[t] > pl.kept[t]:
                out[m] = A_HAND + t
                m += 1
        return m
    return 0


cdef int todo_actions(const St* st, int p, int* out) noexcept nogil:
    cdef const PB* pl = &st.players[p]
    cdef int item = pl.todo[0]
    cdef int m = 0, g, s, t, loc
    if item == T_HARSH:
        # Event "A Harsh Requirement": a face-up gadget (with its mods) or one attached mod.
        for g in range(pl.ngad):
            out[m] = A_GADGET + g
            m += 1
        for g in range(pl.ngad):
            for s in range(T_NSOCK[pl.gad[g][0]]):
                if pl.gad[g][1 + s] >= 0:
                    out[m] = A_MOD + 3 * g + s
                    m += 1
        return m
    if item == T_CASINO2 or item == T_TL2:
        out[m] = A_DONE
        m += 1
        for t in range(NT):
            if pl.hand[t]:
                out[m] = A_HAND + t
                m += 1
        return m
    if item == T_CASINO3:
        out[m] = A_DONE
        m += 1
        return moves_list(pl, out, m)
    if item == T_RISKY or item == T_SMELL or item == T_TR4:
        out[0] = A_DONE
        out[1] = A_YES
        return 2
    if item == T_PLACE:
        for loc in range(NL):
            out[m] = A_LOCATION + loc
            m += 1
        return m
    if item == T_FREE:
        if ctx_has(st, C_CARD):
            t = ctx_get(st, C_CARD)
            s = T_SOCK[t][0]
            for g in range(pl.ngad):
                if empty_socket(pl.gad[g], s) >= 0:
                    out[m] = A_GADGET + g
                    m += 1
            return m
        out[m] = A_DONE
        m += 1
        for t in range(NT):
            if pl.hand[t] and can_place(pl, t):
                out[m] = A_HAND + t
                m += 1
        return m
    return 0


cdef void after_delivery(St* st, int p) noexcept nogil:
    cdef int feats[5]
    cdef int pts[5]
    cdef int ret
    if delivery_feats(st, p, feats, pts):
        st.step = S_DFEAT
    else:
        ret = ctx_get(st, C_RET)
        ctx_clear(st)
        st.step = S_MAIN if ret else S_DELIVER


cdef void activate(St* st, int p, int loc, int k) noexcept nogil:
    # spec "Locations": Level 1 = exactly one assistant, Level 2 = two or more at once.
    cdef PB* pl = &st.players[p]
    cdef int level = 1 if k == 1 else 2
    cdef int g, s
    cdef bint anymod
    pl.wait[loc] -= k
    pl.active[loc] += k
    pl.loc_used[loc] = 1
    if loc == L_RECYCLER:
        if level == 1:
            anymod = False
            for g in range(pl.ngad):
                for s in range(T_NSOCK[pl.gad[g][0]]):
                    if pl.gad[g][1 + s] >= 0:
                        anymod = True
            st.step = S_RECY1 if anymod else S_MAIN
        else:
            st.step = S_RECY2 if pl.ngad else S_MAIN
    elif loc == L_REPLICATOR:
        if level == 1:
            st.step = S_REPL if any54(pl.hand) else S_MAIN
        else:
            pl.ap += 1
    elif loc == L_STOREHOUSE:
        if level == 1:
            st.step = S_SWAP1 if (any54(pl.hand) and any54(pl.junk)) else S_MAIN
        else:
            st.step = S_SH2A if any54(pl.junk) else S_MAIN
    elif loc == L_TOWNHALL:
        ctx_clear(st)
        ctx_set(st, C_LEVEL, level)
        st.step = S_TOWNHALL
    else:
        if level == 1:
            pl.free_tweak = 1
        else:
            ctx_clear(st)
            ctx_set(st, C_SEL, 0)
            st.step = S_REROLL


cdef void decide_main(St* st, int p, int action, int block, int i, int j) noexcept nogil:
    cdef PB* pl = &st.players[p]
    if action == A_DONE:
        finish_actor(st)
    elif action == A_TAKE_FEAT:
        pl.ap -= 1
        q_push(st, Q_FEAT, p, 0)
    elif action == A_DRAW_CARD:
        pl.bonus_draws -= 1
        q_push(st, Q_CARD, p, 0)
    elif block == B_HAND:
        if T_GADGET[i]:
            # Build a gadget: 1 AP + dice summing exactly to its cost.
            pl.ap -= 1
            pl.hand[i] -= 1
            seen_leaving(st, pl, i, False)
            gadget_append(pl, i)
            ctx_clear(st)
            ctx_set(st, C_OWED, T_COST[i])
            st.step = S_PAY
        else:
            ctx_clear(st)
            ctx_set(st, C_CARD, i)
            ctx_set(st, C_SRC, 0)
            st.step = S_TARGET
    elif block == B_SCRAP:
        pl.ap -= 1
        pl.scraps += 1
        hand_to_junk(st, p, i)
    elif block == B_TWEAK:
        ctx_clear(st)
        ctx_set(st, C_DIE, i)
        ctx_set(st, C_UP, 1 if j == 0 else 0)
        st.step = S_TWEAKPAY
    elif block == B_FREE_TWEAK:
        pl.free_tweak = 0
        tweak(st, p, i, j == 0)
    elif block == B_ACTIVATE:
        activate(st, p, i, j)


cdef void decide_todo(St* st, int p, int block, int i, int j) noexcept nogil:
    cdef PB* pl = &st.players[p]
    cdef int item = pl.todo[0]
    cdef bint done = True
    cdef int8_t gad[4]
    cdef int s, t, c
    if item == T_HARSH:
        if block == B_GADGET:
            gadget_pop(pl, i, gad)
            public_to_junk(st, pl, gad[0])
            for s in range(T_NSOCK[gad[0]]):
                if gad[1 + s] >= 0:
                    public_to_junk(st, pl, gad[1 + s])
        else:
            t = pl.gad[i][1 + j]
            pl.gad[i][1 + j] = -1
            public_to_junk(st, pl, t)
        check_feats(st, p)
    elif item == T_CASINO2 or item == T_TL2:
        if block == B_HAND:
            hand_to_junk(st, p, i)
    elif item == T_CASINO3:
        if block == B_MOVE:
            pl.wait[i] -= 1
            pl.wait[j] += 1
    elif item == T_RISKY:
        if block == B_YES:
            todo_pop(pl)
            q_push(st, Q_PDIE, p, E_RISKY)
            return
    elif item == T_SMELL:
        if block == B_YES:
            q_push(st, Q_FEAT, p, 0)
    elif item == T_PLACE:
        pl.wait[i] += 1
        pl.reserve -= 1
    elif item == T_TR4:
        if block == B_YES:
            # To the Right! 4: discard the whole hand.
            for t in range(NT):
                c = pl.hand[t]
                while c > 0:
                    pl.hand[t] -= 1
                    seen_leaving(st, pl, t, False)
                    to_discard(st, pl, t)
                    c -= 1
    elif item == T_FREE:
        # Risky Deal 4: build or modify at once, free of AP and dice.
        if block == B_HAND:
            if T_GADGET[i]:
                pl.hand[i] -= 1
                seen_leaving(st, pl, i, False)
                gadget_append(pl, i)
            else:
                ctx_clear(st)
                ctx_set(st, C_CARD, i)
                ctx_set(st, C_SRC, 2)
                done = False
        elif block == B_GADGET:
            attach(st, p, ctx_get(st, C_CARD), i, 2)
            ctx_clear(st)
    if done:
        todo_pop(pl)


cdef void decide(St* st, int action) noexcept nogil:
    cdef int p = st.actor
    cdef PB* pl = &st.players[p]
    cdef int step = st.step
    cdef int i, j, block, t, src, d, sel, ret, k, x
    cdef int feats[5]
    cdef int pts[5]
    block = decode(action, &i, &j)
    if step == S_PLACE:
        pl.wait[i] += 1
        pl.reserve -= 1
        finish_actor(st)
    elif step == S_TODO:
        decide_todo(st, p, block, i, j)
    elif step == S_SKIP:
        if action == A_YES:
            pl.skip = 1
            reveal(pl, F_SITTIN, F_VALUE[F_SITTIN])
        finish_actor(st)
    elif step == S_CHEAT:
        if block == B_SET_DIE:
            pl.dice[i] = <uint8_t>j
        finish_actor(st)
    elif step == S_MAIN:
        decide_main(st, p, action, block, i, j)
    elif step == S_PAY:
        use_die(st, pl, i)
        ctx_set(st, C_OWED, ctx_get(st, C_OWED) - pl.dice[i])
        if ctx_get(st, C_OWED) == 0:
            st.step = S_MAIN
            ctx_clear(st)
        check_feats(st, p)
    elif step == S_TARGET:
        t = ctx_get(st, C_CARD)
        src = ctx_get(st, C_SRC)
        attach(st, p, t, i, src)
        ctx_clear(st)
        if src == 0:
            ctx_set(st, C_OWED, T_COST[t])
            st.step = S_PAY
        else:
            st.step = S_MAIN
    elif step == S_TWEAKPAY:
        junk_to_discard(st, p, i)
        d = ctx_get(st, C_DIE)
        k = ctx_get(st, C_UP)
        tweak(st, p, d, k != 0)
        ctx_clear(st)
        st.step = S_MAIN
    elif step == S_TOWNHALL:
        if action == A_DONE:
            back_to_main(st)
        else:
            # Town Hall: 1 (Level 1) or 2 (Level 2) reputation per die placed.
            use_die(st, pl, i)
            pl.score += ctx_get(st, C_LEVEL)
            check_feats(st, p)
    elif step == S_REROLL:
        if action == A_DONE:
            # Workshop Level 2: the chosen dice are rolled one at a time (rules._roll_next).
            roll_next(st, p, ctx_get(st, C_SEL))
        else:
            ctx_set(st, C_SEL, ctx_get(st, C_SEL) | (1 << i))
    elif step == S_ROLLING:
        roll_next(st, p, ctx_get(st, C_SEL))
    elif step == S_REPL:
        if action != A_DONE:
            # Replicator Level 1: discard a card from hand, then draw 2: the first card now, the
            # second after the forced "draw a card".
            pl.hand[i] -= 1
            seen_leaving(st, pl, i, False)
            to_discard(st, pl, i)
            q_push(st, Q_CARD, p, 0)
            ctx_clear(st)
            st.step = S_REPLDRAW
        else:
            back_to_main(st)
    elif step == S_REPLDRAW:
        q_push(st, Q_CARD, p, 0)
        back_to_main(st)
    elif step == S_SWAP1:
        if action == A_DONE:
            back_to_main(st)
        else:
            ctx_clear(st)
            ctx_set(st, C_CARD, i)
            st.step = S_SWAP2
    elif step == S_SWAP2:
        # Storehouse Level 1: swap a hand card with a junkyard card (unseen by others).
        t = ctx_get(st, C_CARD)
        pl.hand[t] -= 1
        pl.junk[t] += 1
        pl.junk[i] -= 1
        pl.hand[i] += 1
        for x in range(NT):
            if pl.pj[x] > pl.phj[x]:
                pl.phj[x] = pl.pj[x]
        memset(pl.pj, 0, NT)
        back_to_main(st)
    elif step == S_SH2A:
        if action == A_DONE:
            back_to_main(st)
        else:
            junk_to_discard(st, p, i)
            st.step = S_SH2B
    elif step == S_SH2B:
        if action == A_DONE:
            back_to_main(st)
        else:
            # Storehouse Level 2: build or modify from the junkyard, no dice, the AP still paid.
            pl.ap -= 1
            if T_GADGET[i]:
                pl.junk[i] -= 1
                seen_leaving(st, pl, i, True)
                gadget_append(pl, i)
                back_to_main(st)
            else:
                ctx_clear(st)
                ctx_set(st, C_CARD, i)
                ctx_set(st, C_SRC, 1)
                st.step = S_TARGET
    elif step == S_RECY1:
        if action != A_DONE:
            # Recycler Level 1: a modification comes off and is delivered alone.
            t = pl.gad[i][1 + j]
            pl.gad[i][1 + j] = -1
            pl.score += T_RATING[t] + st.flags[FL_END_MOD]
            to_discard(st, pl, t)
        back_to_main(st)
    elif step == S_RECY2:
        if action == A_DONE:
            back_to_main(st)
        else:
            # Recycler Level 2: deliver a gadget now; its cards go to the junkyard.
            deliver(st, p, i, True)
            ctx_set(st, C_RET, 1)
            after_delivery(st, p)
    elif step == S_DFEAT:
        if action != A_DONE:
            k = delivery_feats(st, p, feats, pts)
            for x in range(k):
                if feats[x] == i:
                    reveal(pl, i, pts[x])
                    break
        ret = ctx_get(st, C_RET)
        ctx_clear(st)
        st.step = S_MAIN if ret else S_DELIVER
    elif step == S_DELIVER:
        if action == A_DONE:
            finish_actor(st)
        else:
            deliver(st, p, i, False)
            ctx_set(st, C_RET, 0)
            after_delivery(st, p)
    elif step == S_MOVE:
        if action != A_DONE:
            pl.wait[i] -= 1
            pl.wait[j] += 1
        finish_actor(st)
    elif step == S_KEEP:
        pl.kept[i] += 1
        if sum54(pl.kept) >= 2:
            finish_actor(st)


# -- information keys ---------------------------------------------------------------------------
# The key hashes eight bytes a step instead of one (the byte-wise FNV chain was a third of a
# presets iteration: 4.7 us a call). Each step is a bijection of the running value for a fixed
# word and of the word for a fixed running value, so two views whose word streams differ in a
# single word never collide; the rotation feeds the high bits, which a multiply never carries
# down, back into the low ones. Every list is fed after its length, and its padding words are
# zero-filled, so the stream stays an injective encoding of the view.
cdef inline uint64_t hstep(uint64_t h, uint64_t w) noexcept nogil:
    return (((h << 29) | (h >> 35)) ^ w) * <uint64_t>0x9FB21C651E98DF25ULL


cdef inline uint64_t pack4(int a, int b, int c, int d) noexcept nogil:
    # Four values in [-32768, 32767], one 16-bit lane each.
    return (<uint64_t>(<uint16_t>(<int16_t>a)) | (<uint64_t>(<uint16_t>(<int16_t>b)) << 16)
            | (<uint64_t>(<uint16_t>(<int16_t>c)) << 32) | (<uint64_t>(<uint16_t>(<int16_t>d)) << 48))


cdef inline uint64_t hbytes(uint64_t h, const void* data, int n) noexcept nogil:
    # n bytes, eight at a time; the last partial word is zero-filled (read as the
    # overlapping final eight bytes, shifted, so that nothing past the array is read).
    cdef const uint8_t* v = <const uint8_t*>data
    cdef uint64_t w
    cdef int i = 0, k
    while i + 8 <= n:
        memcpy(&w, v + i, 8)
        h = hstep(h, w)
        i += 8
    if i < n:
        if n >= 8:
            memcpy(&w, v + n - 8, 8)
            w >>= 8 * (8 - (n - i))
        else:
            w = 0
            for k in range(n):
                w |= <uint64_t>v[k] << (8 * k)
        h = hstep(h, w)
    return h


cdef uint64_t hash_block(uint64_t h, const PB* b, int o, bint own) noexcept nogil:
    """A block as ``o`` sees it (the reference view's player entry)."""
    if own:
        # hand, junk and kept are adjacent byte arrays (checked at import).
        h = hbytes(h, b.hand, 3 * NT)
        h = hbytes(h, b.disc_add, NT)
        h = hbytes(h, b.down, NF)
        h = hstep(h, pack4(b.drawn, b.fdrawn, 0, 0))
    else:
        h = hstep(h, pack4(sum54(b.hand), sum54(b.junk), sum22(b.down), sum54(b.kept)))
    h = hstep(h, pack4(b.ngad, b.nup, b.ntodo, b.score))
    h = hbytes(h, b.gad, 4 * b.ngad)
    # dice, used, wait, active, loc_used and reserve: adjacent bytes (checked at import).
    h = hbytes(h, b.dice, 2 * ND + 3 * NL + 1)
    h = hbytes(h, b.up, b.nup)
    h = hbytes(h, b.todo, b.ntodo)
    h = hstep(h, <uint64_t>b.ap | (<uint64_t>b.ap_base << 8) | (<uint64_t>b.free_tweak << 16)
              | (<uint64_t>b.bonus_draws << 24) | (<uint64_t>b.no_draw << 32) | (<uint64_t>b.skip << 40)
              | (<uint64_t>b.delivered << 48) | (<uint64_t>(<uint8_t>b.flare) << 56))
    h = hstep(h, pack4(b.tweaks[0], b.tweaks[1], b.tweaks[2], b.scraps))
    h = hstep(h, <uint64_t>(<uint32_t>b.ach_mask))
    h = hbytes(h, b.known[o], NT)
    # pj and phj: adjacent (checked at import).
    h = hbytes(h, b.pj, 2 * NT)
    return h


def _check_layout():
    # The key hashes runs of adjacent byte fields in one call; a reordered PB would
    # silently hash the wrong bytes.
    cdef PB b
    assert <const uint8_t*>b.junk - <const uint8_t*>b.hand == NT
    assert <const uint8_t*>b.kept - <const uint8_t*>b.junk == NT
    assert <const uint8_t*>b.phj - <const uint8_t*>b.pj == NT
    assert <const uint8_t*>b.used - <const uint8_t*>b.dice == ND
    assert <const uint8_t*>b.wait - <const uint8_t*>b.used == ND
    assert <const uint8_t*>b.active - <const uint8_t*>b.wait == NL
    assert <const uint8_t*>b.loc_used - <const uint8_t*>b.active == NL
    assert <const uint8_t*>&b.reserve - <const uint8_t*>b.loc_used == NL


_check_layout()


cdef int cur_player(const St* st) noexcept nogil:
    if st.phase == OVER:
        return K_TERMINAL
    if st.qlen:
        return K_CHANCE
    return st.actor


# -- evaluation -------------------------------------------------------------------------------------
cdef double estimate(const PB* b) noexcept nogil:
    cdef double value = <double>b.score
    cdef int g, s, ms
    for g in range(b.ngad):
        ms = 0
        for s in range(T_NSOCK[b.gad[g][0]]):
            if b.gad[g][1 + s] >= 0:
                ms += T_RATING[b.gad[g][1 + s]]
        value += 0.7 * <double>T_RATING[b.gad[g][0]] + <double>ms
    value += 2.0 * <double>sum22(b.down)
    return value


cdef int table_value(const PB* b) noexcept nogil:
    # value_model.table_value: every gadget's rating plus its modifications'.
    cdef int g, s, v = 0
    for g in range(b.ngad):
        v += T_RATING[b.gad[g][0]]
        for s in range(T_NSOCK[b.gad[g][0]]):
            if b.gad[g][1 + s] >= 0:
                v += T_RATING[b.gad[g][1 + s]]
    return v


cdef void old_values(const St* st, double* out) noexcept nogil:
    # heuristic.static_values (the evaluation before the learned one), same float operations.
    cdef double est[MAXP]
    cdef double total = 0.0, others
    cdef int p, n = st.n
    for p in range(n):
        est[p] = estimate(&st.players[p])
    for p in range(n):
        total += est[p]
    for p in range(n):
        others = (total - est[p]) / (n - 1)
        out[p] = tanh((est[p] - others) / 20.0) * 0.999


cdef void final_returns(const St* st, double* out) noexcept nogil:
    cdef int n = st.n, p, nw = 0
    cdef int sc[MAXP]
    cdef int jr[MAXP]
    cdef int nu[MAXP]
    cdef int bs, bj, bu
    cdef bint win[MAXP]
    for p in range(n):
        sc[p] = st.players[p].score
        jr[p] = -junk_rating(&st.players[p])
        nu[p] = st.players[p].nup
    bs = sc[0]
    bj = jr[0]
    bu = nu[0]
    for p in range(1, n):
        if (sc[p] > bs or (sc[p] == bs and (jr[p] > bj or (jr[p] == bj and nu[p] > bu)))):
            bs = sc[p]
            bj = jr[p]
            bu = nu[p]
    for p in range(n):
        win[p] = sc[p] == bs and jr[p] == bj and nu[p] == bu
        if win[p]:
            nw += 1
    for p in range(n):
        if nw == n:
            out[p] = 0.0
        elif win[p]:
            out[p] = 1.0 / nw
        else:
            out[p] = -1.0 / (n - nw)


cdef class Area1851Kernel(Kernel):
    """Area 1851 with fixed options (players 2-5, block 1-6)."""

    cdef int n, block
    cdef object _ref_game
    cdef double value_weights[NFEAT]  # value_model.default_weights(n), in FEATURES order, when given
    cdef bint old_evaluation          # heuristic.static_values instead (by default where value_model.in_use is False)

    def __init__(self, reference_game):
        g = reference_game
        self._ref_game = g
        self.n = g.num_players
        self.block = g.block
        if not 2 <= self.n <= MAXP:
            raise ValueError(f"players must be from 2 to {MAXP}")
        self.state_size = sizeof(St)
        self.num_players = g.num_players
        self.num_distinct_actions = g.num_distinct_actions
        self.max_chance_outcomes = g.max_chance_outcomes
        self.min_utility = g.min_utility
        self.max_utility = g.max_utility
        self.perfect_information = g.perfect_information
        assert self.num_distinct_actions == NA and self.max_chance_outcomes == NT
        self.has_policy = True
        assert len(_VM.FEATURES) == NFEAT
        self.set_value_weights(_VM.default_weights(self.n))  # None: the old static evaluation
        self._allocate_scratch()

    def set_value_weights(self, weights):
        """The evaluation's weights (value_model.FEATURES order), or None for the old static evaluation.

        For benchmarks and controls (``benchmarks/area1851_value_match.py``): the reference engine keeps
        reading ``value_model.WEIGHTS_BY_PLAYERS``, so after a change the two engines no longer agree.
        """
        cdef int i
        if weights is None:
            self.old_evaluation = True
            return
        values = list(weights)
        if len(values) != NFEAT:
            raise InvalidOptionError(f"set_value_weights needs {NFEAT} weights (value_model.FEATURES), "
                                     f"got {len(values)}")
        for i in range(NFEAT):
            self.value_weights[i] = float(values[i])
        self.old_evaluation = False

    cdef void init_state(self, void* s) noexcept nogil:
        cdef St* st = <St*>s
        cdef int p, k
        memset(s, 0, sizeof(St))  # padding too: state_hash reads raw bytes
        st.n = <int8_t>self.n
        st.block = <int8_t>self.block
        st.phase = SETUP_DEAL
        st.actor = -1
        st.direction = 1
        for p in range(self.n):
            player_init(&st.players[p])
        for k in range(NT):
            st.deck[k] = <uint8_t>T_COUNT[k]
        for k in range(NF):
            st.feat_deck[k] = <uint8_t>F_COUNT[k]
        # Rulebook "Set-up": deal 5 Tinker cards to each player, then 1 feat each.
        for k in range(5):
            for p in range(self.n):
                q_push(st, Q_CARD, p, 0)
        for p in range(self.n):
            q_push(st, Q_FEAT, p, 0)

    cdef int current_player(self, const void* s) noexcept nogil:
        return cur_player(<const St*>s)

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        return legal(<const St*>s, out)

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef const St* st = <const St*>s
        cdef int kind = st.q[0][0], p = st.q[0][1]
        cdef int fixed, k, m = 0, i, total
        cdef bint seen
        cdef const uint8_t* pool
        cdef int size
        if kind == Q_EVENT:
            fixed = event_at(st.nevents, st.block)
            if fixed >= 0:
                outcomes[0] = fixed
                probs[0] = 1.0
                return 1
            for k in range(N_RANDOM_EV):
                seen = False
                for i in range(st.nevents):
                    if st.events[i] == RANDOM_EV[k]:
                        seen = True
                        break
                if not seen:
                    outcomes[m] = RANDOM_EV[k]
                    m += 1
            for i in range(m):
                probs[i] = 1.0 / m
            return m
        if kind == Q_DIE or kind == Q_PDIE or kind == Q_GDIE:
            for i in range(4):
                outcomes[i] = i
                probs[i] = 0.25
            return 4
        if kind == Q_NONE:
            outcomes[0] = 0
            probs[0] = 1.0
            return 1
        if kind == Q_CARD:
            pool = st.deck
            size = NT
        elif kind == Q_FEAT:
            pool = st.feat_deck
            size = NF
        else:
            pool = st.players[p].junk
            size = NT
        total = 0
        for i in range(size):
            total += pool[i]
        for i in range(size):
            if pool[i]:
                outcomes[m] = i
                probs[m] = <double>pool[i] / <double>total
                m += 1
        return m

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        # The chance_outcomes distribution drawn with integers (no division per outcome):
        # a uniform event among those left, a fair die, a card or feat by its count.
        cdef const St* st = <const St*>s
        cdef int kind = st.q[0][0], p = st.q[0][1]
        cdef int outcomes[NE]
        cdef double probs[NE]
        cdef int m, i, k, total
        cdef const uint8_t* pool
        cdef int size
        if kind == Q_EVENT:
            m = self.chance_outcomes(s, outcomes, probs)
            return outcomes[rng_below(rng, m)] if m > 1 else outcomes[0]
        if kind == Q_DIE or kind == Q_PDIE or kind == Q_GDIE:
            return rng_below(rng, 4)
        if kind == Q_NONE:
            return 0
        if kind == Q_CARD:
            pool = st.deck
            size = NT
            total = sum54(pool)
        elif kind == Q_FEAT:
            pool = st.feat_deck
            size = NF
            total = sum22(pool)
        else:
            pool = st.players[p].junk
            size = NT
            total = sum54(pool)
        k = rng_below(rng, total)
        for i in range(size):
            k -= pool[i]
            if k < 0:
                return i
        for i in range(size - 1, -1, -1):
            if pool[i]:
                return i
        return 0

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef St* st = <St*>s
        cdef bint padded
        cdef int actor
        if st.qlen:
            resolve(st, action)
        else:
            padded = st.phase == EVENT_CHOICE or st.phase == ACTION_PH
            actor = st.actor
            decide(st, action)
            if padded:
                pad(st, actor)
        settle(st)

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const St* st = <const St*>s
        cdef int p
        if st.phase != OVER:
            for p in range(st.n):
                out[p] = 0.0
            return
        final_returns(st, out)

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        # heuristic.static_values by default (old_evaluation), else value_model.learned_values: the same
        # features, float operations and order.
        cdef const St* st = <const St*>s
        cdef const PB* me
        cdef double old[MAXP]
        cdef double x[NFEAT]
        cdef int tab[MAXP]
        cdef int p, q, i, g, best, opp_table, full, empty, holes, finals, board, total_turns, played
        cdef int n = st.n, who
        cdef double lt, lead, table, z, total = 0.0
        if st.phase == OVER:
            final_returns(st, out)
            return
        old_values(st, old)
        if self.old_evaluation:
            for p in range(n):
                out[p] = old[p]
            return
        for p in range(n):
            tab[p] = table_value(&st.players[p])
        total_turns = 3 * st.block + 3
        played = st.nevents if st.nevents < total_turns else total_turns
        lt = <double>played / <double>total_turns
        who = cur_player(st)
        for p in range(n):
            me = &st.players[p]
            best = -32768
            opp_table = -1
            for q in range(n):
                if q != p:
                    if st.players[q].score > best:
                        best = st.players[q].score
                    if tab[q] > opp_table:
                        opp_table = tab[q]
            lead = <double>(me.score - best) / 10.0
            table = <double>tab[p] / 10.0
            full = empty = 0
            for g in range(me.ngad):
                holes = 0
                for i in range(T_NSOCK[me.gad[g][0]]):
                    if me.gad[g][1 + i] < 0:
                        holes += 1
                empty += holes
                if holes == 0:
                    full += 1
            finals = 0
            for i in range(NF):
                if F_ISFINAL[i]:
                    finals += me.down[i]
            board = 0
            for i in range(NL):
                board += me.wait[i] + me.active[i]
            x[0] = 1.0
            x[1] = lead
            x[2] = lead * lt
            x[3] = lead * lt * lt
            x[4] = old[p]
            x[5] = table
            x[6] = table * lt
            x[7] = <double>opp_table / 10.0
            x[8] = <double>full
            x[9] = <double>empty / 3.0
            x[10] = <double>sum22(me.down)
            x[11] = <double>finals
            x[12] = <double>me.nup
            x[13] = <double>sum54(me.hand) / 5.0
            x[14] = <double>sum54(me.junk) / 5.0
            x[15] = <double>(me.wait[L_TOWNHALL] + me.active[L_TOWNHALL])
            x[16] = <double>board
            x[17] = lt
            x[18] = 1.0 if n == 3 else 0.0
            x[19] = 1.0 if n == 4 else 0.0
            x[20] = 1.0 if n == 5 else 0.0
            x[21] = 1.0 if who == p else 0.0
            z = 0.0
            for i in range(NFEAT):
                z += self.value_weights[i] * x[i]
            out[p] = 1.0 / (1.0 + exp(-z))
            total += out[p]
        for p in range(n):
            out[p] = (<double>n * (out[p] / total) - 1.0) / <double>(n - 1)

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # Exactly the content of the reference view (information_state_string): equal keys
        # exactly when the strings are equal (up to 64-bit collisions).
        cdef const St* st = <const St*>s
        cdef int o = player, q, i
        cdef uint64_t h = <uint64_t>14695981039346656037ULL ^ <uint64_t>0x61726561313835
        cdef uint64_t w, d
        cdef bint snap = st.has_snap
        cdef bint hidden = snap and st.actor != o
        cdef const PB* me = &st.players[o]
        cdef const PB* b
        cdef int nq = 0
        for i in range(st.qlen):
            if not (snap and st.q[i][1] >= 0 and st.q[i][1] != o):
                nq += 1
        h = hstep(h, pack4(o, st.turn, st.phase, st.actor))
        h = hstep(h, pack4(hidden, nq, st.nevents, st.nte))
        if not hidden:
            h = hstep(h, pack4(cur_player(st), st.step, st.ctx_mask, st.actor_done))
            h = hbytes(h, st.ctx, NCTX * sizeof(int16_t))
        for i in range(st.qlen):
            if snap and st.q[i][1] >= 0 and st.q[i][1] != o:
                continue
            h = hstep(h, pack4(st.q[i][0], st.q[i][1], st.q[i][2], 0))
        h = hbytes(h, st.events, st.nevents)
        h = hbytes(h, st.turn_events, st.nte)
        h = hbytes(h, st.flags, NFLAGS)
        if snap:
            h = hstep(h, pack4(st.direction, st.snap.deck_size - me.drawn, st.snap.feat_size - me.fdrawn, 0))
            # The discard pile as this seat sees it, eight counts a step: each sum is at most
            # twice a card's copies, far below 256, so the byte lanes never carry.
            for i in range(0, NT - 8 + 1, 8):
                memcpy(&w, st.snap.discard + i, 8)
                memcpy(&d, me.disc_add + i, 8)
                h = hstep(h, w + d)
            memcpy(&w, st.snap.discard + NT - 8, 8)
            memcpy(&d, me.disc_add + NT - 8, 8)
            h = hstep(h, (w + d) >> (8 * (8 - NT % 8)))
        else:
            h = hstep(h, pack4(st.direction, sum54(st.deck), sum22(st.feat_deck), 0))
            h = hbytes(h, st.discard, NT)
        for q in range(st.n):
            if snap and q != o:
                b = &st.snap.players[q]
            else:
                b = &st.players[q]
            h = hash_block(h, b, o, q == o)
        return mix64(h)

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # knowledge.determinize_state, step for step, from the observer's information only.
        cdef St* st = <St*>s
        cdef int o = observer, n = st.n, q, t, f, i, j, k, c, tmp, nfree, nc, take, room, hs, js, sneed, spj, dealt
        cdef int pool[NT]
        cdef int free[108]
        cdef int cards[108]
        cdef uint8_t need[MAXP][NT]
        cdef int fpool[NF]
        cdef int feats[40]
        cdef int nfeats, kdown, pick
        cdef bint barred
        cdef PB* me = &st.players[o]
        cdef PB* b
        if st.has_snap:
            for q in range(n):
                if q != o:
                    memcpy(&st.players[q], &st.snap.players[q], sizeof(PB))
            for t in range(NT):
                st.discard[t] = st.snap.discard[t] + me.disc_add[t]
        for t in range(NT):
            pool[t] = T_COUNT[t] - me.hand[t] - me.junk[t] - st.discard[t]
        for q in range(n):
            b = &st.players[q]
            for i in range(b.ngad):
                pool[b.gad[i][0]] -= 1
                for j in range(T_NSOCK[b.gad[i][0]]):
                    if b.gad[i][1 + j] >= 0:
                        pool[b.gad[i][1 + j]] -= 1
        for q in range(n):
            if q == o:
                continue
            b = &st.players[q]
            for t in range(NT):
                c = b.known[o][t]
                if b.phj[t] > c:
                    c = b.phj[t]
                if b.pj[t] > c:
                    c = b.pj[t]
                need[q][t] = <uint8_t>c
                pool[t] -= c
        nfree = 0
        for t in range(NT):
            if pool[t] < 0:
                return False
            for k in range(pool[t]):
                if nfree >= 108:
                    return False
                free[nfree] = t
                nfree += 1
        # Only the first ``dealt`` cards of the shuffled pool go to hands; the rest become the
        # deck's counts, whose multiset the tail's swaps never change. So shuffle that prefix
        # alone and step the generator past the draws the tail would have taken: the same
        # worlds and the same draws afterwards as shuffling it all. If a seat's count does
        # not add up, shuffle it all and let the loop below fail where it always did.
        dealt = 0
        for q in range(n):
            if q == o:
                continue
            b = &st.players[q]
            sneed = sum54(need[q])
            take = sum54(b.hand) + sum54(b.junk) - sneed
            if take < 0 or take > nfree - dealt or sneed - sum54(b.pj) + take > 108:
                dealt = nfree
                break
            dealt += take
        shuffle_prefix(free, nfree, dealt, rng)
        i = 0  # next free card
        for q in range(n):
            if q == o:
                continue
            b = &st.players[q]
            hs = sum54(b.hand)
            js = sum54(b.junk)
            sneed = 0
            spj = 0
            nc = 0
            for t in range(NT):
                sneed += need[q][t]
                spj += b.pj[t]
                for k in range(need[q][t] - b.pj[t]):
                    cards[nc] = t
                    nc += 1
            take = hs + js - sneed
            if take < 0 or take > nfree - i or nc + take > 108:
                return False
            for k in range(take):
                cards[nc] = free[i]
                nc += 1
                i += 1
            shuffle(cards, nc, rng)
            room = js - spj
            memcpy(b.junk, b.pj, NT)
            memset(b.hand, 0, NT)
            for k in range(nc):
                if k < room:
                    b.junk[cards[k]] += 1
                else:
                    b.hand[cards[k]] += 1
            memset(b.kept, 0, NT)
        memset(st.deck, 0, NT)
        for k in range(i, nfree):
            st.deck[free[k]] += 1
        # Feats: every face-down feat but o's own, and the feat deck.
        for f in range(NF):
            fpool[f] = F_COUNT[f] - me.down[f]
        for q in range(n):
            b = &st.players[q]
            for k in range(b.nup):
                fpool[b.up[k]] -= 1
        nfeats = 0
        for f in range(NF):
            if fpool[f] < 0:
                return False
            for k in range(fpool[f]):
                if nfeats >= 40:
                    return False
                feats[nfeats] = f
                nfeats += 1
        shuffle(feats, nfeats, rng)
        for q in range(n):
            if q == o:
                continue
            b = &st.players[q]
            kdown = sum22(b.down)
            barred = sum54(b.junk) >= 6 and not ((b.ach_mask >> F_STORIN) & 1)
            memset(b.down, 0, NF)
            for k in range(kdown):
                if nfeats == 0:
                    return False
                pick = 0
                for j in range(nfeats):
                    if not (barred and feats[j] == F_STORIN):
                        pick = j
                        break
                b.down[feats[pick]] += 1
                for j in range(pick, nfeats - 1):
                    feats[j] = feats[j + 1]
                nfeats -= 1
        memset(st.feat_deck, 0, NF)
        for k in range(nfeats):
            st.feat_deck[feats[k]] += 1
        for q in range(n):
            resample_records(&st.players[q], o, n, rng)
        if st.has_snap:
            for q in range(n):
                if q != o:
                    memcpy(&st.snap.players[q], &st.players[q], sizeof(PB))
            resample_records(&st.snap.players[o], o, n, rng)
            if st.actor >= 0 and st.actor != o:
                # A later actor's decision in progress restarts at its entry step.
                st.actor_done = 0
                begin_actor(st)
        return True

    cdef int policy_action(self, const void* s, const int* legal_, int n_legal, Rng* rng) noexcept nogil:
        return policy(<const St*>s, legal_, n_legal, rng)

    # -- the JSON bridge ------------------------------------------------------------------------
    cpdef dict to_dict(self, NativeState state):
        cdef St* st = <St*>state.data
        cdef int i
        return {
            "turn": st.turn, "phase": PHASE_NAMES[st.phase], "actor": st.actor, "actor_done": bool(st.actor_done),
            "step": STEP_NAMES[st.step],
            "ctx": {CTX_NAMES[i]: st.ctx[i] for i in range(NCTX) if (st.ctx_mask >> i) & 1},
            "queue": [[QUEUE_NAMES[st.q[i][0]], st.q[i][1], st.q[i][2]] for i in range(st.qlen)],
            "events": [st.events[i] for i in range(st.nevents)],
            "turn_events": [st.turn_events[i] for i in range(st.nte)],
            "flags": {FLAG_NAMES[i]: st.flags[i] for i in range(NFLAGS)},
            "direction": st.direction,
            "deck": [st.deck[i] for i in range(NT)],
            "discard": [st.discard[i] for i in range(NT)],
            "feat_deck": [st.feat_deck[i] for i in range(NF)],
            "players": [_block_dict(&st.players[i], st.n) for i in range(st.n)],
            "snap": None if not st.has_snap else {
                "players": [_block_dict(&st.snap.players[i], st.n) for i in range(st.n)],
                "discard": [st.snap.discard[i] for i in range(NT)],
                "deck_size": st.snap.deck_size, "feat_size": st.snap.feat_size},
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        """Load the reference engine's dict form.

        The reference loader validates the document first (every rule-level check, so no
        loaded position can lead the C code astray); then every value is range-checked
        against the C array it goes to before it is written, into a scratch state that is
        copied in only when whole. Problems raise InvalidStateError naming the field.
        """
        self._ref_game.state_from_dict(data)
        self.load_validated(state, data)

    cpdef void load_validated(self, NativeState state, dict data) except *:
        """load_dict for a dict the reference loader has just accepted (``NativeGame.state_from_dict``
        validates the document once, not twice: the rule-level checks deal a world per seat); the
        range checks against the C arrays still run."""
        cdef St tmp
        cdef St* st = &tmp
        cdef int i, k, n = self.n
        memset(st, 0, sizeof(St))
        st.n = <int8_t>n
        st.block = <int8_t>self.block
        st.turn = _ival(data.get("turn"), "turn", 0, 3 * self.block + 3)
        st.phase = _choice(data.get("phase"), PHASE_NAMES, "phase")
        st.actor = _ival(data.get("actor"), "actor", -1, n - 1)
        if not isinstance(data.get("actor_done"), bool):
            raise InvalidStateError("state.actor_done", "must be true or false")
        st.actor_done = 1 if data["actor_done"] else 0
        st.step = _choice(data.get("step"), STEP_NAMES, "step")
        ctx = data.get("ctx")
        if not isinstance(ctx, dict):
            raise InvalidStateError("state.ctx", "must be an object")
        for key, value in ctx.items():
            k = _choice(key, CTX_NAMES, f"ctx.{key}")
            ctx_set(st, k, _ival(value, f"ctx.{key}", -1, 64))
        queue = _lst(data.get("queue"), "queue", -1)
        if len(queue) > 8 * n + 8:
            raise InvalidStateError("state.queue", f"at most {8 * n + 8} items")
        for i, item in enumerate(queue):
            item = _lst(item, f"queue[{i}]", 3)
            q_push(st, _choice(item[0], QUEUE_NAMES, f"queue[{i}][0]"), _ival(item[1], f"queue[{i}][1]", -1, n - 1),
                   _ival(item[2], f"queue[{i}][2]", 0, NE - 1))
        events = _lst(data.get("events"), "events", -1)
        if len(events) > NE:
            raise InvalidStateError("state.events", f"at most {NE} events")
        for i, e in enumerate(events):
            st.events[i] = _ival(e, f"events[{i}]", 0, NE - 1)
        st.nevents = len(events)
        tev = _lst(data.get("turn_events"), "turn_events", -1)
        if len(tev) > 3:
            raise InvalidStateError("state.turn_events", "at most 3 events")
        for i, e in enumerate(tev):
            st.turn_events[i] = _ival(e, f"turn_events[{i}]", 0, NE - 1)
        st.nte = len(tev)
        flags = data.get("flags")
        if not isinstance(flags, dict) or len(flags) != NFLAGS:
            raise InvalidStateError("state.flags", "must be an object of the turn flags")
        for i in range(NFLAGS):
            st.flags[i] = _ival(flags.get(FLAG_NAMES[i]), f"flags.{FLAG_NAMES[i]}", 0, 1)
        st.direction = _ival(data.get("direction"), "direction", -1, 1)
        if st.direction == 0:
            raise InvalidStateError("state.direction", "must be 1 or -1")
        _vec(st.deck, data.get("deck"), "deck", NT, 108)
        _vec(st.discard, data.get("discard"), "discard", NT, 108)
        _vec(st.feat_deck, data.get("feat_deck"), "feat_deck", NF, 2)
        players = _lst(data.get("players"), "players", n)
        for i in range(n):
            _load_block(&st.players[i], players[i], f"players[{i}]", n)
        snap = data.get("snap")
        if snap is not None:
            if not isinstance(snap, dict):
                raise InvalidStateError("state.snap", "must be an object or null")
            st.has_snap = 1
            sp = _lst(snap.get("players"), "snap.players", n)
            for i in range(n):
                _load_block(&st.snap.players[i], sp[i], f"snap.players[{i}]", n)
            _vec(st.snap.discard, snap.get("discard"), "snap.discard", NT, 108)
            st.snap.deck_size = _ival(snap.get("deck_size"), "snap.deck_size", 0, 108)
            st.snap.feat_size = _ival(snap.get("feat_size"), "snap.feat_size", 0, 33)
        memcpy(state.data, st, sizeof(St))


cdef inline void shuffle(int* a, int m, Rng* rng) noexcept nogil:
    cdef int i, j, tmp
    for i in range(m - 1):
        j = i + rng_below(rng, m - i)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline void rng_skip(Rng* rng, uint64_t draws) noexcept nogil:
    # splitmix64 (kernel.pxd's rng_next) advances its state by a constant a draw, so
    # skipping draws is one multiply-add; checked against rng_next at import.
    rng.s += draws * <uint64_t>0x9E3779B97F4A7C15ULL


cdef inline void shuffle_prefix(int* a, int m, int prefix, Rng* rng) noexcept nogil:
    # shuffle(a, m, rng)'s first ``prefix`` positions and its generator state after it;
    # the rest of ``a`` keeps its multiset, unshuffled.
    cdef int i, j, tmp, steps = m - 1
    if prefix < steps:
        steps = prefix
    for i in range(steps):
        j = i + rng_below(rng, m - i)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
    if m - 1 > steps:
        rng_skip(rng, <uint64_t>(m - 1 - steps))


def _check_rng_skip():
    cdef Rng a, b
    cdef int k, skip
    for skip in (0, 1, 7, 100):
        a.s = 12345
        b.s = 12345
        for k in range(skip):
            rng_next(&a)
        rng_skip(&b, skip)
        assert rng_next(&a) == rng_next(&b), "rng_skip no longer matches kernel.pxd's rng_next"


_check_rng_skip()


cdef void resample_records(PB* b, int o, int n, Rng* rng) noexcept nogil:
    """Other seats' records about ``b`` are hidden from ``o``: keep their sizes, redraw their cards."""
    cdef int cards[108]
    cdef int nc = -1, t, k, x, size, i, j, tmp
    for x in range(n):
        if x == o or not any54(b.known[x]):
            continue
        if nc < 0:
            # Listed on first need: most blocks have no record to redraw.
            nc = 0
            for t in range(NT):
                for k in range(b.hand[t] + b.junk[t]):
                    if nc < 108:
                        cards[nc] = t
                        nc += 1
        size = sum54(b.known[x])
        if size > nc:
            size = nc
        memset(b.known[x], 0, NT)
        # A sample without replacement: a partial Fisher-Yates shuffle.
        for i in range(size):
            j = i + rng_below(rng, nc - i)
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
            b.known[x][cards[i]] += 1


# -- the heuristic policy v2 (heuristic.policy_v2, branch for branch; policy_v1 has no port) -----------
# Its thresholds are the reference module's, read once.
cdef int A1851_FEAT_TURNS = _H.FEAT_TURNS
cdef int A1851_FEATS_HELD = _H.FEATS_HELD
cdef inline bint has(const int* legal_, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if legal_[i] == a:
            return True
    return False


cdef inline int move_action(int a, int b) noexcept nogil:
    return A_MOVE + 4 * a + (b if b < a else b - 1)


cdef int to_town_hall(const PB* pl, const int* legal_, int n) noexcept nogil:
    """heuristic._to_town_hall."""
    cdef int loc
    for loc in range(NL):
        if loc != L_TOWNHALL and pl.wait[loc] and has(legal_, n, move_action(loc, L_TOWNHALL)):
            return move_action(loc, L_TOWNHALL)
    return A_DONE if has(legal_, n, A_DONE) else legal_[0]


cdef int policy_v2(const St* st, const int* legal_, int n, Rng* rng) noexcept nogil:
    """heuristic.policy_v2 (the Town Hall policy)."""
    cdef int me = st.actor
    cdef const PB* pl = &st.players[me]
    cdef int step = st.step
    cdef int i, a, t, best, bt, g, s, blk, bi, bj, w, bw, ms, card, low
    cdef bint last, full, has_yes, has_mod, has_gadget, has_done, level2
    if n <= 0 or me < 0:
        return A_DONE if n <= 0 else legal_[0]  # not a decision node (callers never ask there)
    if n == 1:
        return legal_[0]
    if step == S_MAIN:
        level2 = has(legal_, n, A_ACTIVATE + 3 * L_TOWNHALL + 1)
        best = -1
        for i in range(n):
            a = legal_[i]
            if A_HAND <= a < A_SCRAP:
                t = a - A_HAND
                if level2 and T_RATING[t] < 2:
                    continue
                if best < 0:
                    best = a
                else:
                    bt = best - A_HAND
                    # max by (rating, -cost, a)
                    if (T_RATING[t] > T_RATING[bt] or (T_RATING[t] == T_RATING[bt] and (
                            T_COST[t] < T_COST[bt] or (T_COST[t] == T_COST[bt] and a > best)))):
                        best = a
        if best >= 0:
            return best
        if level2:
            return A_ACTIVATE + 3 * L_TOWNHALL + 1
        if has(legal_, n, A_ACTIVATE + 3 * L_TOWNHALL):
            return A_ACTIVATE + 3 * L_TOWNHALL
        if has(legal_, n, A_DRAW_CARD):
            return A_DRAW_CARD
        if has(legal_, n, A_TAKE_FEAT) and st.turn <= A1851_FEAT_TURNS:
            w = 0
            for i in range(NF):
                w += pl.down[i]
            if w < A1851_FEATS_HELD:
                return A_TAKE_FEAT
        return A_DONE
    if step == S_PAY:
        best = -1
        bw = 0
        for i in range(n):
            a = legal_[i]
            w = pl.dice[a - A_DIE]
            if best < 0 or w > bw or (w == bw and a < best):
                best = a
                bw = w
        return best
    if step == S_TARGET:
        card = st.ctx[C_CARD]
        best = -1
        bw = 0
        for i in range(n):
            a = legal_[i]
            g = a - A_GADGET
            w = 4 if T_FACTION[pl.gad[g][0]] == T_FACTION[card] else 0
            for s in range(T_NSOCK[pl.gad[g][0]]):
                if pl.gad[g][1 + s] >= 0:
                    w += 1
            if best < 0 or w > bw or (w == bw and a < best):
                best = a
                bw = w
        return best
    if step == S_PLACE:
        return A_LOCATION + L_TOWNHALL
    if step == S_MOVE:
        return to_town_hall(pl, legal_, n)
    if step == S_CHEAT:
        low = 0
        for i in range(1, ND):
            if pl.dice[i] < pl.dice[low]:
                low = i
        return A_SET_DIE + 4 * low + 3 if has(legal_, n, A_SET_DIE + 4 * low + 3) else A_DONE
    if step == S_KEEP:
        best = -1
        for i in range(n):
            a = legal_[i]
            if best < 0 or T_RATING[a - A_HAND] > T_RATING[best - A_HAND] or (
                    T_RATING[a - A_HAND] == T_RATING[best - A_HAND] and a < best):
                best = a
        return best
    if step == S_TODO:
        if has(legal_, n, A_LOCATION + L_TOWNHALL):
            return A_LOCATION + L_TOWNHALL
        for i in range(n):
            if A_MOVE <= legal_[i] < A_FEAT:
                return to_town_hall(pl, legal_, n)
    if step == S_DELIVER:
        last = False
        for i in range(st.nte):
            if st.turn_events[i] == E_END:
                last = True
        for i in range(n):
            a = legal_[i]
            if A_GADGET <= a < A_MOD:
                if last or gad_full(pl.gad[a - A_GADGET]):
                    return a
        return A_DONE if has(legal_, n, A_DONE) else legal_[n - 1]
    if step == S_DFEAT:
        return legal_[n - 1]
    if step == S_TOWNHALL or step == S_SWAP2 or step == S_TWEAKPAY:
        for i in range(n):
            if legal_[i] != A_DONE:
                return legal_[i]
        return A_DONE
    if step == S_TODO:
        has_yes = False
        has_mod = False
        has_gadget = False
        has_done = False
        for i in range(n):
            blk = decode(legal_[i], &bi, &bj)
            if blk == B_YES:
                has_yes = True
            elif blk == B_MOD:
                has_mod = True
            elif blk == B_GADGET:
                has_gadget = True
            elif blk == B_DONE:
                has_done = True
        if has_yes and has_done:
            return A_DONE
        if has_mod or (has_gadget and not has_done):
            # A Harsh Requirement: give up the least valuable piece.
            best = -1
            bw = 0
            for i in range(n):
                a = legal_[i]
                if not (A_GADGET <= a < A_DIE):
                    continue
                blk = decode(a, &g, &s)
                if blk == B_MOD:
                    w = T_RATING[pl.gad[g][1 + s]]
                else:
                    ms = 0
                    for bj in range(T_NSOCK[pl.gad[g][0]]):
                        if pl.gad[g][1 + bj] >= 0:
                            ms += T_RATING[pl.gad[g][1 + bj]]
                    w = 10 + T_RATING[pl.gad[g][0]] + ms
                if best < 0 or w < bw:
                    best = a
                    bw = w
            return best
        if has_done:
            for i in range(n):
                a = legal_[i]
                if a != A_DONE and A_HAND <= a < A_SCRAP and T_GADGET[a - A_HAND]:
                    break
            else:
                return A_DONE
        for i in range(n):
            if legal_[i] != A_DONE:
                return legal_[i]
        return A_DONE
    if step == S_RECY1 or step == S_RECY2:
        return legal_[n - 1]
    return A_DONE if has(legal_, n, A_DONE) else legal_[0]


# -- the heuristic policy v3 (heuristic.policy, branch for branch) ---------------------------------
# Its tables are the reference module's, read once.
cdef int H_LAYOUT[NL][2]
cdef int H_STORE_JUNK[2]
cdef int H_PLACE_ORDER[NL]
cdef int H_LAYOUT_FEAT = _H.LAYOUT_FEAT
cdef int H_MOVE_GAIN = _H.MOVE_GAIN


def _fill_policy_tables():
    cdef int loc, k
    for loc in range(NL):
        for k in range(2):
            H_LAYOUT[loc][k] = _H.LAYOUT[loc][k]
        H_PLACE_ORDER[loc] = _H.PLACE_ORDER[loc]
    for k in range(2):
        H_STORE_JUNK[k] = _H.STOREHOUSE_JUNK[k]


_fill_policy_tables()


cdef int layout_value(const PB* pl, const int* counts) noexcept nogil:
    """heuristic._layout_value."""
    cdef int junk = sum54(pl.junk)
    cdef int value = 0, loc, k, occupied = 0, most = 0
    for loc in range(NL):
        for k in range(counts[loc] if counts[loc] < 2 else 2):
            if loc == L_STOREHOUSE:
                value += H_STORE_JUNK[k] if junk > k else 0
            else:
                value += H_LAYOUT[loc][k]
        if counts[loc]:
            occupied += 1
        if counts[loc] > most:
            most = counts[loc]
    if pl.down[F_LITTLE] and occupied >= 3:
        value += H_LAYOUT_FEAT
    if pl.down[F_SINGLE] and most >= 3:
        value += H_LAYOUT_FEAT
    return value


cdef int place_choice(const PB* pl) noexcept nogil:
    """heuristic._place."""
    cdef int counts[NL]
    cdef int i, loc, value, best = -1, best_value = 0
    for i in range(NL):
        counts[i] = pl.wait[i] + pl.active[i]
    for i in range(NL):
        loc = H_PLACE_ORDER[i]
        counts[loc] += 1
        value = layout_value(pl, counts)
        counts[loc] -= 1
        if best < 0 or value > best_value:
            best = loc
            best_value = value
    return A_LOCATION + best


cdef int move_choice(const PB* pl, const int* legal_, int n) noexcept nogil:
    """heuristic._move."""
    cdef int counts[NL]
    cdef int i, a, src, dst, base, gain, best = -1, best_gain = 0
    for i in range(NL):
        counts[i] = pl.wait[i] + pl.active[i]
    base = layout_value(pl, counts)
    for i in range(n):
        a = legal_[i]
        if not (A_MOVE <= a < A_FEAT):
            continue
        decode(a, &src, &dst)
        counts[src] -= 1
        counts[dst] += 1
        gain = layout_value(pl, counts) - base
        counts[src] += 1
        counts[dst] -= 1
        if best < 0 or gain > best_gain:
            best = a
            best_gain = gain
    if best >= 0 and best_gain >= H_MOVE_GAIN:
        return best
    return A_DONE if has(legal_, n, A_DONE) else legal_[0]


cdef bint placeable(const PB* pl, int t) noexcept nogil:
    """heuristic._placeable (rules' can_place)."""
    return can_place(pl, t)


cdef bint payable_with(const St* st, const PB* pl, int cost, int die, int delta) noexcept nogil:
    """heuristic._payable: ``cost`` from the usable dice, die ``die`` changed by ``delta``."""
    cdef int vals[ND]
    cdef int d, v, k = 0, i
    cdef bint solar = st.flags[FL_SOLAR] != 0
    for d in range(ND):
        if pl.used[d] or (solar and pl.flare >= 0 and d != pl.flare):
            continue
        v = pl.dice[d] + (delta if d == die else 0)
        if v >= 1:
            vals[k] = v
            k += 1
    if solar:
        for i in range(k):
            if vals[i] == cost:
                return True
        return False
    return can_pay(vals, k, cost)


cdef int helpful_tweak(const St* st, const PB* pl) noexcept nogil:
    """heuristic._helpful_tweak."""
    cdef int t, d, u, v, cost, best = -1, best_rating = 0
    if st.flags[FL_NO_TWEAK]:
        return -1
    for t in range(NT):
        if not pl.hand[t] or T_RATING[t] <= best_rating or not placeable(pl, t):
            continue
        cost = T_COST[t]
        if payable_with(st, pl, cost, -1, 0):
            continue
        for d in range(ND):
            if pl.used[d]:
                continue
            for u in range(2):
                v = pl.dice[d] + (1 if u == 0 else -1)
                if 0 <= v <= 5 and payable_with(st, pl, cost, d, 1 if u == 0 else -1):
                    best = A_FREE_TWEAK + 2 * d + u
                    best_rating = T_RATING[t]
                    break
            if best_rating == T_RATING[t]:
                break
    return best


cdef int recycle_mod(const PB* pl) noexcept nogil:
    """heuristic._recycle_mod."""
    cdef int g, s, m, best = -1, best_rating = 0
    for g in range(pl.ngad):
        for s in range(T_NSOCK[pl.gad[g][0]]):
            m = pl.gad[g][1 + s]
            if m >= 0 and T_FACTION[m] != T_FACTION[pl.gad[g][0]] and T_RATING[m] > best_rating:
                best = A_MOD + 3 * g + s
                best_rating = T_RATING[m]
    return best


cdef int full_gadget(const PB* pl) noexcept nogil:
    """heuristic._full_gadget."""
    cdef int g
    for g in range(pl.ngad):
        if gad_full(pl.gad[g]):
            return g
    return -1


cdef int best_junk(const PB* pl, bint only_placeable) noexcept nogil:
    """heuristic._best_junk."""
    cdef int t, best = -1
    for t in range(NT):
        if pl.junk[t] and (not only_placeable or placeable(pl, t)) and (best < 0 or T_RATING[t] > T_RATING[best]):
            best = t
    return best


cdef int worst_card(const uint8_t* counts, int keep) noexcept nogil:
    """heuristic._worst."""
    cdef int t, c, worst = -1
    for t in range(NT):
        c = counts[t] - (1 if t == keep else 0)
        if c > 0 and (worst < 0 or T_RATING[t] < T_RATING[worst]):
            worst = t
    return worst


cdef int policy_main(const St* st, const PB* pl, const int* legal_, int n, Rng* rng) noexcept nogil:
    """heuristic._main; the rest is policy_v2's main step."""
    cdef int hand = sum54(pl.hand)
    cdef int junk = sum54(pl.junk)
    cdef int i, best, worst, tw
    cdef bint any_hand = False
    if has(legal_, n, A_ACTIVATE + 3 * L_REPLICATOR) and hand:
        return A_ACTIVATE + 3 * L_REPLICATOR
    if has(legal_, n, A_ACTIVATE + 3 * L_RECYCLER + 1) and full_gadget(pl) >= 0:
        return A_ACTIVATE + 3 * L_RECYCLER + 1
    if has(legal_, n, A_ACTIVATE + 3 * L_RECYCLER) and recycle_mod(pl) >= 0:
        return A_ACTIVATE + 3 * L_RECYCLER
    if has(legal_, n, A_ACTIVATE + 3 * L_STOREHOUSE + 1) and junk >= 2 and pl.ap >= 1:
        best = best_junk(pl, True)
        if best >= 0 and T_RATING[best] >= 2 and worst_card(pl.junk, best) >= 0:
            return A_ACTIVATE + 3 * L_STOREHOUSE + 1
    if has(legal_, n, A_ACTIVATE + 3 * L_STOREHOUSE) and hand and junk:
        worst = worst_card(pl.hand, -1)
        if T_RATING[best_junk(pl, False)] > T_RATING[worst]:
            return A_ACTIVATE + 3 * L_STOREHOUSE
    if pl.ap >= 1:
        for i in range(n):
            if A_HAND <= legal_[i] < A_SCRAP:
                any_hand = True
                break
        if not any_hand:
            tw = helpful_tweak(st, pl)
            if tw >= 0:
                if has(legal_, n, tw):
                    return tw
                if has(legal_, n, A_ACTIVATE + 3 * L_WORKSHOP):
                    return A_ACTIVATE + 3 * L_WORKSHOP
    return policy_v2(st, legal_, n, rng)


cdef int policy(const St* st, const int* legal_, int n, Rng* rng) noexcept nogil:
    """heuristic.policy (the third policy), branch for branch."""
    cdef int me = st.actor
    cdef const PB* pl
    cdef int step = st.step
    cdef int i, a, g, t, worst
    if n <= 0 or me < 0:
        return A_DONE if n <= 0 else legal_[0]  # not a decision node (callers never ask there)
    if n == 1:
        return legal_[0]
    pl = &st.players[me]
    if step == S_MAIN:
        return policy_main(st, pl, legal_, n, rng)
    if step == S_PLACE:
        return place_choice(pl)
    if step == S_MOVE:
        return move_choice(pl, legal_, n)
    if step == S_TODO:
        if has(legal_, n, A_LOCATION + L_TOWNHALL):
            return place_choice(pl)
        for i in range(n):
            if A_MOVE <= legal_[i] < A_FEAT:
                return move_choice(pl, legal_, n)
    if step == S_REPL:
        return A_HAND + worst_card(pl.hand, -1)
    if step == S_RECY1:
        a = recycle_mod(pl)
        return a if a >= 0 and has(legal_, n, a) else A_DONE
    if step == S_RECY2:
        g = full_gadget(pl)
        return A_GADGET + g if g >= 0 else A_DONE
    if step == S_SWAP1:
        return A_HAND + worst_card(pl.hand, -1)
    if step == S_SWAP2:
        return A_JUNK + best_junk(pl, False)
    if step == S_SH2A:
        worst = worst_card(pl.junk, best_junk(pl, True))
        return A_JUNK + (worst if worst >= 0 else worst_card(pl.junk, -1))
    if step == S_SH2B:
        t = best_junk(pl, True)
        return A_JUNK + t if t >= 0 and has(legal_, n, A_JUNK + t) else A_DONE
    return policy_v2(st, legal_, n, rng)


# -- dict helpers (with the GIL) -------------------------------------------------------------------
cdef dict _block_dict(const PB* b, int n):
    cdef int i, g, s, x
    return {
        "hand": [b.hand[i] for i in range(NT)], "junk": [b.junk[i] for i in range(NT)],
        "gadgets": [[b.gad[g][0]] + [b.gad[g][1 + s] for s in range(T_NSOCK[b.gad[g][0]])] for g in range(b.ngad)],
        "dice": [b.dice[i] for i in range(ND)], "used": [b.used[i] for i in range(ND)],
        "wait": [b.wait[i] for i in range(NL)], "active": [b.active[i] for i in range(NL)],
        "reserve": b.reserve, "score": b.score, "down": [b.down[i] for i in range(NF)],
        "up": [b.up[i] for i in range(b.nup)], "ap": b.ap, "ap_base": b.ap_base,
        "loc_used": [b.loc_used[i] for i in range(NL)], "free_tweak": b.free_tweak, "bonus_draws": b.bonus_draws,
        "no_draw": b.no_draw, "skip": b.skip, "tweaks": [b.tweaks[i] for i in range(ND)], "scraps": b.scraps,
        "delivered": b.delivered, "flare": b.flare, "ach_mask": b.ach_mask,
        "todo": [b.todo[i] for i in range(b.ntodo)], "kept": [b.kept[i] for i in range(NT)],
        "known": [[b.known[x][i] for i in range(NT)] for x in range(n)], "pj": [b.pj[i] for i in range(NT)],
        "phj": [b.phj[i] for i in range(NT)], "disc_add": [b.disc_add[i] for i in range(NT)],
        "drawn": b.drawn, "fdrawn": b.fdrawn,
    }


cdef void _vec(uint8_t* out, object value, str field, int length, int high) except *:
    cdef int i
    items = _lst(value, field, length)
    for i in range(length):
        out[i] = <uint8_t>_ival(items[i], f"{field}[{i}]", 0, high)


cdef void _load_block(PB* b, object data, str field, int n) except *:
    cdef int i, g, s, t, m, x
    if not isinstance(data, dict):
        raise InvalidStateError(f"state.{field}", "must be an object")
    player_init(b)
    _vec(b.hand, data.get("hand"), f"{field}.hand", NT, 108)
    _vec(b.junk, data.get("junk"), f"{field}.junk", NT, 108)
    gadgets = _lst(data.get("gadgets"), f"{field}.gadgets", -1)
    if len(gadgets) > MAXG:
        raise InvalidStateError(f"state.{field}.gadgets", f"at most {MAXG} gadgets")
    memset(b.gad, 0, sizeof(b.gad))
    for g, gad in enumerate(gadgets):
        gad = _lst(gad, f"{field}.gadgets[{g}]", -1)
        if not gad:
            raise InvalidStateError(f"state.{field}.gadgets[{g}]", "must start with the gadget's type")
        t = _ival(gad[0], f"{field}.gadgets[{g}][0]", 0, NT - 1)
        if not T_GADGET[t]:
            raise InvalidStateError(f"state.{field}.gadgets[{g}][0]", "must be a gadget type")
        _lst(gad, f"{field}.gadgets[{g}]", 1 + T_NSOCK[t])
        b.gad[g][0] = <int8_t>t
        for s in range(3):
            b.gad[g][1 + s] = -1
        for s in range(T_NSOCK[t]):
            m = _ival(gad[1 + s], f"{field}.gadgets[{g}][{s + 1}]", -1, NT - 1)
            if m >= 0 and (T_GADGET[m] or T_SOCK[m][0] != T_SOCK[t][s]):
                raise InvalidStateError(f"state.{field}.gadgets[{g}][{s + 1}]", "does not fit the socket")
            b.gad[g][1 + s] = <int8_t>m
    b.ngad = len(gadgets)
    _vec(b.dice, data.get("dice"), f"{field}.dice", ND, 5)
    _vec(b.used, data.get("used"), f"{field}.used", ND, 1)
    _vec(b.wait, data.get("wait"), f"{field}.wait", NL, 3)
    _vec(b.active, data.get("active"), f"{field}.active", NL, 3)
    b.reserve = _ival(data.get("reserve"), f"{field}.reserve", 0, 3)
    b.score = _ival(data.get("score"), f"{field}.score", 0, 10_000)
    _vec(b.down, data.get("down"), f"{field}.down", NF, 2)
    up = _lst(data.get("up"), f"{field}.up", -1)
    if len(up) > NUP:
        raise InvalidStateError(f"state.{field}.up", f"at most {NUP} feats")
    for i, f in enumerate(up):
        b.up[i] = <uint8_t>_ival(f, f"{field}.up[{i}]", 0, NF - 1)
    b.nup = len(up)
    b.ap = _ival(data.get("ap"), f"{field}.ap", 0, 20)
    b.ap_base = _ival(data.get("ap_base"), f"{field}.ap_base", 1, 3)
    _vec(b.loc_used, data.get("loc_used"), f"{field}.loc_used", NL, 1)
    b.free_tweak = _ival(data.get("free_tweak"), f"{field}.free_tweak", 0, 1)
    b.bonus_draws = _ival(data.get("bonus_draws"), f"{field}.bonus_draws", 0, 6)
    b.no_draw = _ival(data.get("no_draw"), f"{field}.no_draw", 0, 1)
    b.skip = _ival(data.get("skip"), f"{field}.skip", 0, 1)
    tw = _lst(data.get("tweaks"), f"{field}.tweaks", ND)
    for i in range(ND):
        b.tweaks[i] = _ival(tw[i], f"{field}.tweaks[{i}]", 0, 10_000)
    b.scraps = _ival(data.get("scraps"), f"{field}.scraps", 0, 10_000)
    b.delivered = _ival(data.get("delivered"), f"{field}.delivered", 0, 108)
    b.flare = _ival(data.get("flare"), f"{field}.flare", -1, ND - 1)
    b.ach_mask = _ival(data.get("ach_mask"), f"{field}.ach_mask", 0, (1 << NF) - 1)
    todo = _lst(data.get("todo"), f"{field}.todo", -1)
    if len(todo) > NTODO:
        raise InvalidStateError(f"state.{field}.todo", f"at most {NTODO} choices")
    for i, v in enumerate(todo):
        b.todo[i] = <uint8_t>_ival(v, f"{field}.todo[{i}]", 0, 8)
    b.ntodo = len(todo)
    _vec(b.kept, data.get("kept"), f"{field}.kept", NT, 2)
    known = _lst(data.get("known"), f"{field}.known", n)
    for x in range(n):
        _vec(b.known[x], known[x], f"{field}.known[{x}]", NT, 108)
    _vec(b.pj, data.get("pj"), f"{field}.pj", NT, 108)
    _vec(b.phj, data.get("phj"), f"{field}.phj", NT, 108)
    _vec(b.disc_add, data.get("disc_add"), f"{field}.disc_add", NT, 108)
    b.drawn = _ival(data.get("drawn"), f"{field}.drawn", 0, 108)
    b.fdrawn = _ival(data.get("fdrawn"), f"{field}.fdrawn", 0, 33)


def make_kernel(reference_game):
    """The kernel for a reference ``Area1851Game`` (same options)."""
    return Area1851Kernel(reference_game)
