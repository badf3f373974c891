# cython: language_level=3
"""Native expectimax over any kernel: max^n, paranoid, Star1 and Star2 pruning.

Depth counts decisions only; chance nodes are expanded exactly and do not use
depth (OpenSpiel's ``expectiminimax`` does the same, so values compare). Runs of
consecutive chance nodes are bounded by ``chance_run`` (-1: no bound): a chance
node with that many chance nodes in a row above it is a leaf, evaluated as at
the depth limit, so that a game which deals many cards in a row after one
decision cannot make a shallow depth enumerate them all (the reference
``aiplay.search.expectimax`` explains the rule; both paths cut at the same
nodes). The table keys a chance node by its run too. At the
depth limit the kernel's ``evaluate`` gives the value; or, with
``leaf_playout=k``, the kernel's playout policy first plays up to ``k`` more
moves (chance sampled from a generator seeded by the leaf's hash, so a leaf
always gets the same value and the table stays consistent) and ``evaluate``
(or the returns, if the game ended) scores where it stops. In games whose
turns are long series of small decisions this lets a shallow search see the
rest of the turn played sensibly instead of judging a half-made move.

Two value models:

* **max^n** (N players, ``paranoid=False`` with more than two players): every
  player maximizes their own component of a value vector. No pruning applies.
* **paranoid / two-player zero-sum**: one scalar, the searching player's value;
  the searching player maximizes it and every other player minimizes it. Here
  alpha-beta runs at decision nodes and, at chance nodes, Ballard's Star1
  (windows derived from the utility bounds ``[L, U]``) or Star2 (Star1 after a
  probing pass that searches one move of each successor to bound it). The root
  value is exactly the plain expectimax value; only the work differs.

The transposition table is keyed by the kernel's full-state hash. An entry is
reused only at the same remaining depth (or when its subtree never reached the
depth limit and the remaining depth is at least as large), so a search to a
fixed depth returns the same value as one without the table.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int8_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from aiplay._ext.cancel cimport Cancellation
from aiplay._ext.kernel cimport K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, NativeState, Rng

from aiplay.errors import BotBusyError, InvalidOptionError, NotDecisionNodeError
from aiplay.limits import check_count, check_tt_bits

#: The largest leaf playout, in moves (a C int; far beyond any game's length).
MAX_LEAF_PLAYOUT = 1_000_000
#: The deepest ExpectimaxSearch.run (its recursion scratch is 2 levels per depth).
MAX_SEARCH_DEPTH = 100_000
#: The longest line the solver follows, in plies (its recursion scratch is sized by it).
MAX_SOLVER_PLIES = 1_000_000

cdef enum:
    PRUNE_NONE = 0
    PRUNE_STAR1 = 1
    PRUNE_STAR2 = 2
    FLAG_EXACT = 0
    FLAG_LOWER = 1     # the true value is >= the stored one
    FLAG_UPPER = 2     # the true value is <= the stored one
    EXTRA_LEVELS = 64  # recursion levels beyond 2*depth for runs of chance nodes
    MAX_LEVELS = 1000000  # the most recursion levels ExpectimaxSearch allocates
    POLL_TICKS = 64  # work units (nodes, leaf playout moves) between two stop/deadline checks (a clock read)

PRUNING = {"none": PRUNE_NONE, "star1": PRUNE_STAR1, "star2": PRUNE_STAR2}


cdef struct TTEntry:
    uint64_t key
    int32_t depth
    int32_t best_action
    int8_t flag
    int8_t exact        # the subtree never reached the depth limit
    uint32_t generation # the search that wrote it (0: never written)


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class ExpectimaxSearch:
    """Depth-limited expectimax with iterative deepening over one kernel."""

    cdef Kernel kernel
    cdef int pruning
    cdef bint paranoid
    cdef bint use_tt
    cdef public bint narrow_root    # prune at the root too (non-best values become upper bounds)
    cdef int n                      # players
    cdef int root_player
    cdef double lo, hi              # utility bounds
    # recursion scratch, one slot per level
    cdef int levels
    cdef char* states
    cdef int* actions
    cdef int* outcomes
    cdef double* probs
    cdef double* vectors            # levels x K_MAX_PLAYERS (max^n)
    cdef double* bounds             # levels x 2 x max_legal (per-outcome low/high bounds)
    # transposition table
    cdef TTEntry* tt
    cdef double* tt_values          # tt_size x n
    cdef uint64_t tt_mask
    cdef uint32_t generation        # entries of older generations are stale
    # counters and budget
    cdef long nodes
    cdef long tt_hits
    cdef long node_limit
    cdef double deadline
    cdef bint aborted
    cdef long ticks                 # work done (nodes + leaf playout moves), for polling
    cdef long poll_at               # ticks of the next stop/deadline check
    cdef bint hit_limit             # set when a leaf was cut by the depth limit
    cdef bint budget_on             # off during depth 1, which always completes
    cdef int max_level              # deepest ply visited (chance counted)
    # leaf playouts
    cdef int leaf_playout           # policy moves before the static evaluation (0: none)
    cdef int chance_run             # longest run of chance nodes expanded (-1: no bound)
    cdef void* leaf_state
    cdef int* leaf_actions
    cdef bint busy                  # a run() is in progress (one search at a time)
    cdef readonly Cancellation cancel

    def __init__(self, Kernel kernel, str pruning="star2", bint paranoid=False, bint use_tt=True,
                 object tt_bits=18, object leaf_playout=0, Cancellation cancel=None, int chance_run=-1):
        cdef size_t entries
        if pruning not in PRUNING:
            raise InvalidOptionError(f"pruning={pruning!r} is invalid; it accepts one of {sorted(PRUNING)}")
        # Checked before any allocation, in size_t: 2**29 entries x 8 players once wrapped a C int to 0.
        tt_bits = check_tt_bits(tt_bits, sizeof(TTEntry) + <size_t>kernel.num_players * sizeof(double))
        leaf_playout = check_count("leaf_playout", leaf_playout, 0, MAX_LEAF_PLAYOUT)
        if leaf_playout > 0 and not kernel.has_policy:
            raise InvalidOptionError(
                f"leaf_playout needs a playout policy, and {type(kernel).__name__} has none")
        if chance_run < -1 or chance_run == 0:
            raise InvalidOptionError(f"chance_run={chance_run} is invalid; it accepts an integer >= 1 or -1 (no bound)")
        self.cancel = cancel if cancel is not None else Cancellation()
        self.kernel = kernel
        self.leaf_playout = leaf_playout
        self.chance_run = chance_run
        self.leaf_state = malloc(kernel.state_size)
        self.leaf_actions = <int*>malloc(<size_t>kernel.max_legal * sizeof(int))
        if self.leaf_state == NULL or self.leaf_actions == NULL:
            raise MemoryError()
        self.n = kernel.num_players
        # Two-player zero-sum games are best searched as paranoid (the same
        # values as max^n there); the caller decides, knowing the game.
        self.paranoid = paranoid
        # Pruning needs the scalar paranoid value; max^n gets none.
        self.pruning = PRUNING[pruning] if self.paranoid else PRUNE_NONE
        self.use_tt = use_tt
        self.lo = kernel.min_utility
        self.hi = kernel.max_utility
        self.levels = 0
        entries = (<size_t>1) << <int>tt_bits
        self.tt = <TTEntry*>calloc(entries, sizeof(TTEntry))
        self.tt_values = <double*>malloc(entries * <size_t>self.n * sizeof(double))
        self.tt_mask = entries - 1
        self.generation = 1
        if self.tt == NULL or self.tt_values == NULL:
            raise MemoryError()

    def __dealloc__(self):
        self._free_levels()
        free(self.leaf_state)
        free(self.leaf_actions)
        free(self.tt)
        free(self.tt_values)

    cdef void _free_levels(self):
        free(self.states); free(self.actions); free(self.outcomes); free(self.probs)
        free(self.vectors); free(self.bounds)
        self.states = NULL; self.actions = NULL; self.outcomes = NULL; self.probs = NULL
        self.vectors = NULL; self.bounds = NULL

    cdef void _ensure_levels(self, int levels) except *:
        cdef Kernel k = self.kernel
        if levels <= self.levels:
            return
        if levels < 1 or levels > MAX_LEVELS:  # bounded by MAX_DEPTH; the products below stay far from size_t's edge
            raise MemoryError()
        self._free_levels()
        self.states = <char*>malloc(<size_t>levels * k.state_size)
        self.actions = <int*>malloc(<size_t>levels * k.max_legal * sizeof(int))
        self.outcomes = <int*>malloc(<size_t>levels * k.max_legal * sizeof(int))
        self.probs = <double*>malloc(<size_t>levels * k.max_legal * sizeof(double))
        self.vectors = <double*>malloc(<size_t>levels * K_MAX_PLAYERS * sizeof(double))
        self.bounds = <double*>malloc(<size_t>levels * 2 * k.max_legal * sizeof(double))
        if (self.states == NULL or self.actions == NULL or self.outcomes == NULL or self.probs == NULL
                or self.vectors == NULL or self.bounds == NULL):
            self._free_levels()
            raise MemoryError()
        self.levels = levels

    cdef bint _budget_spent(self) noexcept nogil:
        return ((self.node_limit >= 0 and self.nodes >= self.node_limit)
                or (self.deadline >= 0 and now_seconds() >= self.deadline))

    cdef void _leaf_value(self, const void* s, double* out) noexcept nogil:
        """The value vector of a non-terminal leaf at the depth limit."""
        cdef void* w = self.leaf_state
        cdef Rng rng
        cdef int moves, player, n
        if self.leaf_playout == 0:
            self.kernel.evaluate(s, out)
            return
        self.kernel.clone_into(s, w)
        rng.s = self.kernel.state_hash(s) ^ <uint64_t>0x5DEECE66D
        for moves in range(self.leaf_playout):
            self.ticks += 1  # a playout move is work too: _count_node polls by it
            player = self.kernel.current_player(w)
            if player == K_TERMINAL:
                self.kernel.returns(w, out)
                return
            if player == K_CHANCE:
                self.kernel.apply(w, self.kernel.sample_chance(w, &rng))
            else:
                n = self.kernel.legal_actions(w, self.leaf_actions)
                self.kernel.apply(w, self.kernel.policy_action(w, self.leaf_actions, n, &rng))
        if self.kernel.current_player(w) == K_TERMINAL:
            self.kernel.returns(w, out)
        else:
            self.kernel.evaluate(w, out)

    def clear_table(self):
        """Empty the transposition table (in O(1): older entries become stale)."""
        cdef uint64_t i
        self.generation += 1
        if self.generation == 0:  # wrapped after 2^32 clears: really wipe it
            for i in range(self.tt_mask + 1):
                self.tt[i].generation = 0
            self.generation = 1

    # -- budget ------------------------------------------------------------
    cdef inline bint _count_node(self) noexcept nogil:
        """Count a node; True when the budget ran out (the iteration is then abandoned)."""
        cdef bint poll
        self.nodes += 1
        self.ticks += 1
        # The clock and the stop flag are read every POLL_TICKS units of work, not nodes:
        # with leaf playouts one node can cost a hundred moves (issue 27: 66 ms to stop).
        poll = self.ticks >= self.poll_at
        if poll:
            self.poll_at = self.ticks + POLL_TICKS
            if self._cancelled():
                return True
        if not self.budget_on:
            return False
        if self.node_limit >= 0 and self.nodes > self.node_limit:
            self.aborted = True
        elif poll and self.deadline >= 0 and now_seconds() >= self.deadline:
            self.aborted = True
        return self.aborted

    cdef inline bint _cancelled(self) noexcept nogil:
        """True when the search must end now (stop request, or Ctrl-C); polled by _count_node.

        A stop request keeps the first depth, which a move needs; an interrupt
        ends even that (the caller raises instead of answering).
        """
        if not self.cancel.should_stop():
            return False
        if self.budget_on or self.cancel.interrupted:
            self.aborted = True
        return self.aborted

    # -- transposition table -------------------------------------------------
    cdef inline TTEntry* _probe(self, uint64_t key) noexcept nogil:
        cdef TTEntry* e = &self.tt[key & self.tt_mask]
        if e.generation == self.generation and e.key == key:
            return e
        return NULL

    cdef inline bint _usable(self, TTEntry* e, int depth) noexcept nogil:
        return e.depth == depth or (e.exact and depth >= e.depth)

    cdef inline void _store(self, uint64_t key, int depth, int best, int flag, bint exact,
                            const double* values) noexcept nogil:
        cdef TTEntry* e = &self.tt[key & self.tt_mask]
        cdef int p
        e.key = key
        e.depth = depth
        e.best_action = best
        e.flag = flag
        e.exact = exact
        e.generation = self.generation
        for p in range(self.n):
            self.tt_values[(key & self.tt_mask) * self.n + p] = values[p]

    cdef inline void* _state(self, int level) noexcept nogil:
        return self.states + <size_t>level * self.kernel.state_size

    # -- paranoid / two-player: alpha-beta with Star1 / Star2 -----------------
    cdef inline bint _run_cut(self, int player, int run) noexcept nogil:
        """True at a chance node that would lengthen a run of chance nodes beyond ``chance_run``."""
        return player == K_CHANCE and self.chance_run >= 0 and run >= self.chance_run

    cdef inline uint64_t _key(self, const void* s, int player, int run) noexcept nogil:
        """The table key: the state's hash, and for a chance node inside a run, the run too."""
        cdef uint64_t key = self.kernel.state_hash(s)
        if player == K_CHANCE and run > 0:
            key ^= <uint64_t>run * <uint64_t>0x9E3779B97F4A7C15
        return key

    cdef double _scalar(self, int level, int depth, double alpha, double beta, int run) noexcept nogil:
        """Value of the state at ``level`` for the root player, with fail-soft bounds.

        ``run``: how many chance nodes come in a row right above this one.
        """
        cdef void* s = self._state(level)
        cdef int player, n, i, a, best_action = -1, flag
        cdef double v, best, a0 = alpha, b0 = beta
        cdef double values[K_MAX_PLAYERS]
        cdef TTEntry* e
        cdef uint64_t key = 0
        cdef bint was_limited, exact
        cdef int* acts
        if self._count_node():
            return 0.0
        if level > self.max_level:
            self.max_level = level
        player = self.kernel.current_player(s)
        if player == K_TERMINAL:
            self.kernel.returns(s, values)
            return values[self.root_player]
        if depth == 0 or level + 2 >= self.levels or self._run_cut(player, run):
            self.hit_limit = True
            self._leaf_value(s, values)
            return values[self.root_player]
        if self.use_tt:
            key = self._key(s, player, run)
            e = self._probe(key)
            if e != NULL and self._usable(e, depth):
                v = self.tt_values[(key & self.tt_mask) * self.n]
                if (e.flag == FLAG_EXACT or (e.flag == FLAG_LOWER and v >= beta)
                        or (e.flag == FLAG_UPPER and v <= alpha)):
                    self.tt_hits += 1
                    if not e.exact:
                        self.hit_limit = True
                    return v
                best_action = e.best_action
        was_limited = self.hit_limit
        self.hit_limit = False
        if player == K_CHANCE:
            v = self._chance(level, depth, alpha, beta, run)
        else:
            acts = self.actions + <size_t>level * self.kernel.max_legal
            n = self.kernel.legal_actions(s, acts)
            # Try the table's best move first: it makes cutoffs come early.
            if best_action >= 0:
                for i in range(1, n):
                    if acts[i] == best_action:
                        acts[i] = acts[0]
                        acts[0] = best_action
                        break
            best = -INFINITY if player == self.root_player else INFINITY
            for i in range(n):
                a = acts[i]
                self.kernel.clone_into(s, self._state(level + 1))
                self.kernel.apply(self._state(level + 1), a)
                if player == self.root_player:
                    v = self._scalar(level + 1, depth - 1, alpha if alpha > best else best, beta, 0)
                    if v > best:
                        best = v
                        best_action = a
                    if self.pruning != PRUNE_NONE and best >= beta:
                        break
                else:
                    v = self._scalar(level + 1, depth - 1, alpha, beta if beta < best else best, 0)
                    if v < best:
                        best = v
                        best_action = a
                    if self.pruning != PRUNE_NONE and best <= alpha:
                        break
                if self.aborted:
                    return 0.0
            v = best
        if self.aborted:
            return 0.0
        exact = not self.hit_limit
        self.hit_limit = was_limited or self.hit_limit
        if self.use_tt:
            flag = FLAG_EXACT
            if self.pruning != PRUNE_NONE:
                if v <= a0:
                    flag = FLAG_UPPER
                elif v >= b0:
                    flag = FLAG_LOWER
            values[0] = v
            self._store(key, depth, best_action, flag, exact, values)
        return v

    cdef double _probe_bound(self, int level, int depth, int child_player, double window_lo,
                             double window_hi) noexcept nogil:
        """Star2's probe: one move of a decision successor, as a bound on its value.

        For a successor where the root player moves, any one move's value is a
        lower bound on the successor's value; elsewhere, an upper bound. The
        state is at ``level``; returns the bound (``lo``/``hi`` when none).
        """
        cdef void* s = self._state(level)
        cdef int* acts = self.actions + <size_t>level * self.kernel.max_legal
        cdef int n = self.kernel.legal_actions(s, acts)
        cdef int first = acts[0]
        cdef TTEntry* e
        cdef double v
        if self.use_tt:
            e = self._probe(self.kernel.state_hash(s))
            if e != NULL and e.best_action >= 0:
                first = e.best_action
        self.kernel.clone_into(s, self._state(level + 1))
        self.kernel.apply(self._state(level + 1), first)
        v = self._scalar(level + 1, depth - 1, window_lo, window_hi, 0)
        if child_player == self.root_player:
            # A fail-low result only bounds from above: no lower bound learned.
            return v if v > window_lo else self.lo
        return v if v < window_hi else self.hi

    cdef bint _probing_can_cut(self, int level, int n, double alpha, double beta) noexcept nogil:
        """Whether Star2's probes could prove a cutoff here even if each came out at its best.

        Probes bound decision successors from one side only (from below where
        the root player moves, from above elsewhere); with the other outcomes at
        their utility bounds, a cutoff may be impossible, and probing wasted.
        """
        cdef void* s = self._state(level)
        cdef void* child = self._state(level + 1)
        cdef int* outs = self.outcomes + <size_t>level * self.kernel.max_legal
        cdef double* ps = self.probs + <size_t>level * self.kernel.max_legal
        cdef double best_low = 0.0, best_high = 0.0
        cdef int i, child_player
        for i in range(n):
            self.kernel.clone_into(s, child)
            self.kernel.apply(child, outs[i])
            child_player = self.kernel.current_player(child)
            if child_player == self.root_player:
                best_low += ps[i] * self.hi
                best_high += ps[i] * self.hi
            elif child_player >= 0:
                best_low += ps[i] * self.lo
                best_high += ps[i] * self.lo
            else:
                best_low += ps[i] * self.lo
                best_high += ps[i] * self.hi
        return best_low >= beta or best_high <= alpha

    cdef double _chance(self, int level, int depth, double alpha, double beta, int run) noexcept nogil:
        """Expected value over the outcomes, with Star1/Star2 windows when pruning."""
        cdef void* s = self._state(level)
        cdef void* child = self._state(level + 1)
        cdef int* outs = self.outcomes + <size_t>level * self.kernel.max_legal
        cdef double* ps = self.probs + <size_t>level * self.kernel.max_legal
        # Per-outcome bounds on the successor's value: [lo, hi] unless a Star2
        # probe tightened one side.
        cdef double* low = self.bounds + <size_t>level * 2 * self.kernel.max_legal
        cdef double* high = low + self.kernel.max_legal
        cdef int n = self.kernel.chance_outcomes(s, outs, ps)
        cdef int i, child_player
        cdef double acc = 0.0, v, wlo, whi, lo_rest = 0.0, hi_rest = 0.0, b
        if self.pruning == PRUNE_NONE:
            for i in range(n):
                self.kernel.clone_into(s, child)
                self.kernel.apply(child, outs[i])
                acc += ps[i] * self._scalar(level + 1, depth, self.lo, self.hi, run + 1)
                if self.aborted:
                    return 0.0
            return acc

        for i in range(n):
            low[i] = self.lo
            high[i] = self.hi
        if self.pruning == PRUNE_STAR2 and depth > 0 and self._probing_can_cut(level, n, alpha, beta):
            for i in range(n):
                self.kernel.clone_into(s, child)
                self.kernel.apply(child, outs[i])
                child_player = self.kernel.current_player(child)
                if child_player < 0 or depth == 0:
                    continue
                b = self._probe_bound(level + 1, depth, child_player, self.lo, self.hi)
                if self.aborted:
                    return 0.0
                if child_player == self.root_player:
                    low[i] = b
                else:
                    high[i] = b
        for i in range(n):
            lo_rest += ps[i] * low[i]
            hi_rest += ps[i] * high[i]
        if lo_rest >= beta:      # Star2: the probes alone prove a fail high
            return lo_rest
        if hi_rest <= alpha:     # ... or a fail low
            return hi_rest

        # Star1: search the outcomes in turn with windows that account for
        # the exact values found so far and the bounds of those not searched yet.
        for i in range(n):
            lo_rest -= ps[i] * low[i]
            hi_rest -= ps[i] * high[i]
            wlo = (alpha - acc - hi_rest) / ps[i]
            whi = (beta - acc - lo_rest) / ps[i]
            self.kernel.clone_into(s, child)
            self.kernel.apply(child, outs[i])
            v = self._scalar(level + 1, depth, wlo if wlo > self.lo else self.lo,
                             whi if whi < self.hi else self.hi, run + 1)
            if self.aborted:
                return 0.0
            if v <= wlo:
                return acc + ps[i] * v + hi_rest      # the expectation is <= alpha
            if v >= whi:
                return acc + ps[i] * v + lo_rest      # the expectation is >= beta
            acc += ps[i] * v
        return acc

    # -- max^n ---------------------------------------------------------------
    cdef void _vector(self, int level, int depth, double* out, int run) noexcept nogil:
        """Value vector of the state at ``level``: every player maximizes their own component.

        ``run``: how many chance nodes come in a row right above this one.
        """
        cdef void* s = self._state(level)
        cdef int player, n, i, p, best_action = -1
        cdef double* child = self.vectors + <size_t>(level + 1) * K_MAX_PLAYERS
        cdef TTEntry* e
        cdef uint64_t key = 0
        cdef bint was_limited, exact, first
        cdef int* acts
        cdef int* outs
        cdef double* ps
        if self._count_node():
            return
        if level > self.max_level:
            self.max_level = level
        player = self.kernel.current_player(s)
        if player == K_TERMINAL:
            self.kernel.returns(s, out)
            return
        if depth == 0 or level + 2 >= self.levels or self._run_cut(player, run):
            self.hit_limit = True
            self._leaf_value(s, out)
            return
        if self.use_tt:
            key = self._key(s, player, run)
            e = self._probe(key)
            if e != NULL and self._usable(e, depth):
                self.tt_hits += 1
                for p in range(self.n):
                    out[p] = self.tt_values[(key & self.tt_mask) * self.n + p]
                if not e.exact:
                    self.hit_limit = True
                return
        was_limited = self.hit_limit
        self.hit_limit = False
        if player == K_CHANCE:
            outs = self.outcomes + <size_t>level * self.kernel.max_legal
            ps = self.probs + <size_t>level * self.kernel.max_legal
            n = self.kernel.chance_outcomes(s, outs, ps)
            for p in range(self.n):
                out[p] = 0.0
            for i in range(n):
                self.kernel.clone_into(s, self._state(level + 1))
                self.kernel.apply(self._state(level + 1), outs[i])
                self._vector(level + 1, depth, child, run + 1)
                if self.aborted:
                    return
                for p in range(self.n):
                    out[p] += ps[i] * child[p]
        else:
            acts = self.actions + <size_t>level * self.kernel.max_legal
            n = self.kernel.legal_actions(s, acts)
            first = True
            for i in range(n):
                self.kernel.clone_into(s, self._state(level + 1))
                self.kernel.apply(self._state(level + 1), acts[i])
                self._vector(level + 1, depth - 1, child, 0)
                if self.aborted:
                    return
                if first or child[player] > out[player]:
                    first = False
                    best_action = acts[i]
                    for p in range(self.n):
                        out[p] = child[p]
        exact = not self.hit_limit
        self.hit_limit = was_limited or self.hit_limit
        if self.use_tt:
            self._store(key, depth, best_action, FLAG_EXACT, exact, out)

    # -- driver --------------------------------------------------------------
    cdef bint _search_root(self, int depth, int* acts, int n, double* action_values,
                           bint* exact) noexcept nogil:
        """Search every root action to ``depth``; False if the budget ran out.

        ``exact`` tells whether no leaf was cut by the depth limit (the root
        is solved, and deeper searches would change nothing).
        """
        cdef int i
        cdef double best = self.lo
        cdef double vec[K_MAX_PLAYERS]
        cdef bint limited = False
        self._count_node()
        for i in range(n):
            self.kernel.clone_into(self._state(0), self._state(1))
            self.kernel.apply(self._state(1), acts[i])
            self.hit_limit = False
            if self.paranoid:
                # With pruning, later actions only need to be shown worse than
                # the best so far: their values are then upper bounds.
                if self.pruning != PRUNE_NONE and self.narrow_root and i > 0:
                    action_values[i] = self._scalar(1, depth - 1, best, self.hi, 0)
                else:
                    action_values[i] = self._scalar(1, depth - 1, self.lo, self.hi, 0)
                if i == 0 or action_values[i] > best:
                    best = action_values[i]
            else:
                self._vector(1, depth - 1, vec, 0)
                action_values[i] = vec[self.root_player]
            if self.aborted:
                return False
            limited = limited or self.hit_limit
        exact[0] = not limited
        return True

    def run(self, NativeState root, object max_depth, double seconds=-1.0, long nodes=-1):
        """Iterative deepening from depth 1 to ``max_depth`` within the budget.

        Returns a dict with the root player's value of every legal action at
        the last completed depth, the chosen action (the first best in legal
        order, as OpenSpiel breaks ties), the principal variation and counters.

        ``cancel.request_stop()`` (from another thread) ends the search after
        the first depth; a signal handler's exception (Ctrl-C) ends it at once
        and is re-raised here. One search at a time: a second concurrent call
        raises :class:`~aiplay.errors.BotBusyError`.
        """
        if root.kernel is not self.kernel:
            raise InvalidOptionError("the state belongs to another kernel than this search's")
        if self.kernel.current_player(root.data) < 0:
            raise NotDecisionNodeError(
                "search needs a state where a player is to move (not chance, not terminal)")
        max_depth = check_count("max_depth", max_depth, 1, MAX_SEARCH_DEPTH)
        if seconds != seconds:  # NaN would never reach the deadline
            raise InvalidOptionError("seconds=nan is invalid; it accepts a number (negative: no limit)")
        # Checked and set with the GIL held, so two threads cannot both pass.
        if self.busy:
            raise BotBusyError("this native search is already running in another thread")
        self.busy = True
        try:
            return self._run(root, max_depth, seconds, nodes)
        finally:
            self.busy = False

    cdef object _run(self, NativeState root, int max_depth, double seconds, long nodes):
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(root.data)
        cdef int n, i, depth, completed = 0, best
        cdef double started
        cdef bint ok, exact = False
        self._ensure_levels(2 * max_depth + EXTRA_LEVELS)
        self.root_player = player
        k.clone_into(root.data, self._state(0))
        cdef int* acts = <int*>malloc(<size_t>k.max_legal * sizeof(int))
        cdef double* values = <double*>malloc(<size_t>k.max_legal * sizeof(double))
        cdef double* done_values = <double*>malloc(<size_t>k.max_legal * sizeof(double))
        if acts == NULL or values == NULL or done_values == NULL:
            free(acts); free(values); free(done_values)
            raise MemoryError()
        n = k.legal_actions(root.data, acts)
        self.nodes = 0
        self.ticks = 0
        self.poll_at = 0  # poll at the first node (a stop may already be asked)
        self.tt_hits = 0
        self.max_level = 0
        self.aborted = False
        self.node_limit = nodes
        started = now_seconds()
        self.deadline = started + seconds if seconds >= 0 else -1.0
        depth_nodes = []
        with nogil:
            for depth in range(1, max_depth + 1):
                self.budget_on = depth > 1
                if depth > 1 and (self._budget_spent() or self.cancel.stop_requested):
                    break
                ok = self._search_root(depth, acts, n, values, &exact)
                if not ok:
                    break
                completed = depth
                for i in range(n):
                    done_values[i] = values[i]
                with gil:
                    depth_nodes.append(self.nodes)
                if exact:
                    break  # solved: deeper searches would change nothing
        elapsed = now_seconds() - started
        pending = self.cancel.take_pending()
        if pending is not None:
            free(acts); free(values); free(done_values)
            raise pending  # Ctrl-C
        best = 0
        for i in range(1, n):
            if done_values[i] > done_values[best]:
                best = i
        result = {
            "player": player,
            "actions": [acts[i] for i in range(n)],
            "values": [done_values[i] for i in range(n)],
            "action": acts[best],
            "value": done_values[best],
            "principal_variation": self._principal_variation(root, acts[best], completed),
            "counters": {
                "iterations": None,
                "nodes": self.nodes,
                "tt_hits": self.tt_hits,
                "seconds": elapsed,
                "completed_depth": completed,
                "max_depth": self.max_level,
                "nodes_per_depth": depth_nodes,
                "pruning": ["none", "star1", "star2"][self.pruning],
                "model": "paranoid" if self.paranoid else "maxn",
            },
        }
        free(acts); free(values); free(done_values)
        return result

    cdef list _principal_variation(self, NativeState root, int first, int depth):
        """Decisions along the table's best moves (through each chance node's likeliest outcome)."""
        cdef Kernel k = self.kernel
        cdef void* s = self._state(0)
        cdef int player, n, i, best
        cdef TTEntry* e
        cdef int decisions = 1
        pv = [first]
        k.clone_into(root.data, s)
        k.apply(s, first)
        while decisions < depth:
            player = k.current_player(s)
            if player == K_TERMINAL:
                break
            if player == K_CHANCE:
                n = k.chance_outcomes(s, self.outcomes, self.probs)
                best = 0
                for i in range(1, n):
                    if self.probs[i] > self.probs[best]:
                        best = i
                pv.append(self.outcomes[best])
                k.apply(s, self.outcomes[best])
                continue
            if not self.use_tt:
                break
            e = self._probe(k.state_hash(s))
            if e == NULL or e.best_action < 0:
                break
            pv.append(e.best_action)
            k.apply(s, e.best_action)
            decisions += 1
        return pv


# ---------------------------------------------------------------------------
# The endgame solver (aiplay.solve): exact max^n with shallow pruning.
# ---------------------------------------------------------------------------

cdef enum:
    SOLVE_EXACT = -1      # _solve's return: the vector at res[level] is the node's value
    TT_NO_BOUND = -1      # an exact entry (no fail-low player)
    UNLIMITED = -1        # remaining depth of an unlimited (exact) pass: never decremented

#: Values closer than this count as equal (a tie goes to the lowest action id).
#: Pruning proofs keep this margin, so float noise (~1e-16) never changes a choice.
TIE_EPS = 1e-12
cdef double TIE = 1e-12

ORDERINGS = {"none": 0, "table": 1, "heuristic": 2}


cdef struct SolveEntry:
    uint64_t key
    int32_t depth        # remaining depth it was searched with (UNLIMITED for exact passes)
    int32_t best_action  # the best move found (-1: none), tried first next time
    int8_t low_player    # TT_NO_BOUND: the values are exact; else that player's value is <= ub
    int8_t whole         # the subtree never reached the depth limit (valid at any depth)
    uint32_t generation
    double ub            # the upper bound of a fail-low entry


cdef class Solver:
    """Max^n expectimax for exact solving: pruned, with a table, optionally depth-limited.

    The value of a node is the plain full-width max^n expectimax value: terminal
    returns; at a chance node the probability-weighted sum over every outcome,
    in outcome order; at a decision node the child vector that maximizes the
    mover's component, ties (values closer than :data:`TIE_EPS`) going to the
    lowest action id. Pruning and the table change the work, never that value:

    * a node is searched with per-player bounds ``B[r]``: the caller does not
      need the node's vector when ``v[r] <= B[r]``; the node may then return
      "fail-low for r" instead of its vector;
    * at a decision node of ``p``, after an exact child with ``v[p] = x``, any
      other player's value is at most ``S - x - (N-2)*L`` when the game is
      constant-sum with sum ``S`` (learned from the first terminal reached)
      and utilities ``>= L``: shallow pruning (Sturtevant & Korf), which in a
      two-player game, with the bounds of both players carried down, is
      alpha-beta;
    * later children of ``p`` only need to be shown unable to replace the
      best, and ``p``'s bound is inherited through ``p``'s own consecutive
      moves and through chance nodes (with more than two players nothing
      else may be inherited: deep pruning is unsound in max^n);
    * chance nodes pass the bounds on with Ballard's Star1 windows (the
      outcomes not searched yet bounded by the maximum utility); Star2 first
      probes one move of every outcome where another player than the bounded
      one moves, which bounds the bounded player's value from above;
    * children are ordered by the table's best move (from an earlier pass of
      iterative deepening, or an earlier visit), then the mover's history
      move (the action that most often ended a node of this player early:
      a cut-off, or reaching his bound), then in legal order
      (``ordering="table"``, the default) or by the kernel's ``evaluate`` for
      the mover (``ordering="heuristic"``; measured no better on the games
      here, and each child's evaluation costs an extra move);
    * where the kernel proves per-state bounds on the returns still
      reachable (``Kernel.utility_bounds``, with ``bounds=True``), a node
      whose bounds meet is answered at once (every line from it ends with
      the same returns, so every child ties and the lowest action is best),
      a node fails low for r when its bound for r is at or below ``B[r]``,
      the mover stops as soon as one child reaches his bound, and Star1
      bounds the outcomes not searched yet by the node's bounds instead of
      the utility range.

    ``depth`` (decisions, chance not counted) limits a pass; its leaves take
    the kernel's ``evaluate``. Entries searched without reaching the limit
    ("whole" subtrees) are reused at any depth. Nothing bounds the depth of
    an unlimited pass but ``max_plies``; a pass that reaches it is reported as
    not exact.
    """

    cdef Kernel kernel
    cdef int n
    cdef int pruning
    cdef int ordering
    cdef double lo, hi
    cdef bint constant_sum         # the game says its returns always add up to one constant
    cdef bint sum_known
    cdef double total
    cdef int levels
    cdef char* states
    cdef int* actions
    cdef int* outcomes
    cdef double* probs
    cdef double* keys          # per level x max_legal: ordering keys / probe bounds
    cdef double* res           # per level x K_MAX_PLAYERS: the node's result
    cdef double* acc           # per level x K_MAX_PLAYERS: best / running sum
    cdef double* bnd           # per level x K_MAX_PLAYERS: the bounds B[r] (-inf: none)
    cdef double* nhi           # per level x K_MAX_PLAYERS: the node's upper bound on each return
    cdef bint use_bounds       # ask the kernel for per-state bounds (Kernel.utility_bounds)
    cdef unsigned int* history  # per player x action: how often it ended a node early (ordering only)
    cdef int n_actions
    cdef SolveEntry* tt
    cdef double* tt_values
    cdef uint64_t tt_mask
    cdef uint32_t generation
    cdef readonly long nodes
    cdef readonly long tt_hits
    cdef readonly long cutoffs
    cdef readonly long decided     # nodes answered by the kernel's bounds alone
    cdef long node_limit
    cdef double deadline
    cdef bint aborted
    cdef bint hit_limit
    cdef bint capped
    cdef int max_level
    cdef bint busy
    cdef readonly Cancellation cancel

    def __init__(self, Kernel kernel, bint constant_sum, str pruning="star2", str ordering="table",
                 object tt_bits=20, object max_plies=4096, Cancellation cancel=None, bint bounds=True):
        cdef size_t entries, L, m
        if pruning not in PRUNING:
            raise InvalidOptionError(f"pruning={pruning!r} is invalid; it accepts one of {sorted(PRUNING)}")
        if ordering not in ORDERINGS:
            raise InvalidOptionError(f"ordering={ordering!r} is invalid; it accepts one of {sorted(ORDERINGS)}")
        tt_bits = check_tt_bits(tt_bits, sizeof(SolveEntry) + <size_t>kernel.num_players * sizeof(double))
        # The scratch of every level: a state, four action-sized arrays and four value vectors.
        max_plies = check_count("max_plies", max_plies, 8, MAX_SOLVER_PLIES,
                                kernel.state_size + <size_t>kernel.max_legal * (2 * sizeof(int) + 2 * sizeof(double))
                                + 4 * K_MAX_PLAYERS * sizeof(double))
        self.kernel = kernel
        self.n = kernel.num_players
        self.constant_sum = constant_sum
        self.pruning = PRUNING[pruning]
        self.ordering = ORDERINGS[ordering]
        self.lo = kernel.min_utility
        self.hi = kernel.max_utility
        self.use_bounds = bounds
        self.cancel = cancel if cancel is not None else Cancellation()
        self.levels = max_plies + 2
        L = <size_t>self.levels
        m = <size_t>kernel.max_legal
        self.states = <char*>malloc(L * kernel.state_size)
        self.actions = <int*>malloc(L * m * sizeof(int))
        self.outcomes = <int*>malloc(L * m * sizeof(int))
        self.probs = <double*>malloc(L * m * sizeof(double))
        self.keys = <double*>malloc(L * m * sizeof(double))
        self.res = <double*>malloc(L * K_MAX_PLAYERS * sizeof(double))
        self.acc = <double*>malloc(L * K_MAX_PLAYERS * sizeof(double))
        self.bnd = <double*>malloc(L * K_MAX_PLAYERS * sizeof(double))
        self.nhi = <double*>malloc(L * K_MAX_PLAYERS * sizeof(double))
        self.n_actions = kernel.num_distinct_actions
        self.history = <unsigned int*>calloc(<size_t>self.n * self.n_actions, sizeof(unsigned int))
        entries = (<size_t>1) << <int>tt_bits
        self.tt = <SolveEntry*>calloc(entries, sizeof(SolveEntry))
        self.tt_values = <double*>malloc(entries * <size_t>self.n * sizeof(double))
        self.tt_mask = entries - 1
        self.generation = 1
        if (self.states == NULL or self.actions == NULL or self.outcomes == NULL or self.probs == NULL
                or self.keys == NULL or self.res == NULL or self.acc == NULL or self.bnd == NULL or self.nhi == NULL
                or self.history == NULL
                or self.tt == NULL or self.tt_values == NULL):
            raise MemoryError()

    def __dealloc__(self):
        free(self.states); free(self.actions); free(self.outcomes); free(self.probs); free(self.keys)
        free(self.res); free(self.acc); free(self.bnd); free(self.nhi); free(self.tt); free(self.tt_values)
        free(self.history)

    def clear_table(self):
        """Forget every table entry (O(1): older generations are stale)."""
        cdef uint64_t i
        self.generation += 1
        if self.generation == 0:
            for i in range(self.tt_mask + 1):
                self.tt[i].generation = 0
            self.generation = 1

    # -- helpers -------------------------------------------------------------
    cdef inline void* _st(self, int level) noexcept nogil:
        return self.states + <size_t>level * self.kernel.state_size

    cdef inline double* _res(self, int level) noexcept nogil:
        return self.res + <size_t>level * K_MAX_PLAYERS

    cdef inline double* _acc(self, int level) noexcept nogil:
        return self.acc + <size_t>level * K_MAX_PLAYERS

    cdef inline double* _bnd(self, int level) noexcept nogil:
        return self.bnd + <size_t>level * K_MAX_PLAYERS

    cdef inline double* _nhi(self, int level) noexcept nogil:
        return self.nhi + <size_t>level * K_MAX_PLAYERS

    cdef inline bint _count(self) noexcept nogil:
        self.nodes += 1
        if (self.nodes & 1023) == 0:
            if self.cancel.should_stop():
                self.aborted = True
            elif self.deadline >= 0 and now_seconds() >= self.deadline:
                self.aborted = True
        if self.node_limit >= 0 and self.nodes > self.node_limit:
            self.aborted = True
        return self.aborted

    cdef inline void _store(self, uint64_t key, int depth, int best, int low_player, double ub,
                            bint whole, const double* values) noexcept nogil:
        cdef SolveEntry* e = &self.tt[key & self.tt_mask]
        cdef int p
        # An exact whole entry of the same position is not replaced by a bound.
        if (e.generation == self.generation and e.key == key and e.whole and e.low_player == TT_NO_BOUND
                and not (whole and low_player == TT_NO_BOUND)):
            return
        e.key = key
        e.depth = depth
        e.best_action = best
        e.low_player = low_player
        e.ub = ub
        e.whole = whole
        e.generation = self.generation
        if low_player == TT_NO_BOUND:
            for p in range(self.n):
                self.tt_values[(key & self.tt_mask) * self.n + p] = values[p]

    cdef inline void _set_child_bounds_none(self, int level) noexcept nogil:
        cdef double* b = self._bnd(level)
        cdef int r
        for r in range(self.n):
            b[r] = -INFINITY

    cdef inline double _cap_for_others(self, double x) noexcept nogil:
        """An upper bound on any other player's value when one player has ``x`` (constant-sum)."""
        return self.total - x - (self.n - 2) * self.lo

    # -- the search ------------------------------------------------------------
    cdef int _solve(self, int level, int depth) noexcept nogil:
        """Solve the state at ``level`` under the bounds ``bnd[level]``.

        Returns SOLVE_EXACT (the vector is in ``res[level]``) or a player r:
        the node's value for r is at most ``bnd[level][r]`` (fail-low).
        """
        cdef void* s = self._st(level)
        cdef double* out = self._res(level)
        cdef double* B = self._bnd(level)
        cdef int player, r, i, p
        cdef SolveEntry* e
        cdef uint64_t key = 0
        cdef int hint = -1, result
        cdef bint was_limited, whole
        if self._count():
            return SOLVE_EXACT
        if level > self.max_level:
            self.max_level = level
        player = self.kernel.current_player(s)
        if player == K_TERMINAL:
            self.kernel.returns(s, out)
            if self.constant_sum and not self.sum_known:
                self.total = 0.0
                for p in range(self.n):
                    self.total += out[p]
                self.sum_known = True
            return SOLVE_EXACT
        if depth == 0 or level + 2 >= self.levels:
            if depth != 0:
                self.capped = True
            self.hit_limit = True
            self.kernel.evaluate(s, out)
            return SOLVE_EXACT
        key = self.kernel.state_hash(s)
        e = &self.tt[key & self.tt_mask]
        if e.generation == self.generation and e.key == key:
            if e.whole or e.depth == depth:
                if e.low_player == TT_NO_BOUND:
                    self.tt_hits += 1
                    if player >= 0:  # the best move, where _decision would have left it
                        self.outcomes[<size_t>level * self.kernel.max_legal] = e.best_action
                    for p in range(self.n):
                        out[p] = self.tt_values[(key & self.tt_mask) * self.n + p]
                    if not e.whole:
                        self.hit_limit = True
                    return SOLVE_EXACT
                if B[e.low_player] >= e.ub:
                    self.tt_hits += 1
                    out[e.low_player] = e.ub  # fail-soft: the bound it was proved with
                    if not e.whole:
                        self.hit_limit = True
                    return e.low_player
            hint = e.best_action
        if self._apply_bounds(level, player, key, depth, &result):
            return result
        was_limited = self.hit_limit
        self.hit_limit = False
        if player == K_CHANCE:
            result = self._chance(level, depth)
            hint = -1
        else:
            result = self._decision(level, depth, player, hint)
            hint = self.outcomes[<size_t>level * self.kernel.max_legal]  # the best action, set by _decision
        if self.aborted:
            return SOLVE_EXACT
        whole = not self.hit_limit
        self.hit_limit = was_limited or self.hit_limit
        if result == SOLVE_EXACT:
            self._store(key, depth, hint, TT_NO_BOUND, 0.0, whole, out)
        else:
            self._store(key, depth, hint, result, out[result], whole, out)
        return result

    cdef bint _apply_bounds(self, int level, int player, uint64_t key, int depth, int* result) noexcept nogil:
        """Set the node's upper bounds ``nhi[level]``; answer the node from them when they suffice.

        Returns True with ``result`` set (SOLVE_EXACT, or the player it fails low for)
        when the kernel's bounds decide the node, else False.
        """
        cdef void* s = self._st(level)
        cdef double* H = self._nhi(level)
        cdef double* B = self._bnd(level)
        cdef double* out = self._res(level)
        cdef double L[K_MAX_PLAYERS]
        cdef int p, r, m = self.kernel.max_legal
        cdef bint met = True
        if not (self.use_bounds and self.kernel.utility_bounds(s, L, H)):
            for p in range(self.n):
                H[p] = self.hi
            return False
        for p in range(self.n):
            if H[p] - L[p] > TIE:
                met = False
        if met:
            # Every line ends with the same returns: every child ties, the lowest action is best.
            self.decided += 1
            for p in range(self.n):
                out[p] = L[p]
            if player >= 0:
                self.kernel.legal_actions(s, self.actions + <size_t>level * m)
                self.outcomes[<size_t>level * m] = self.actions[<size_t>level * m]
                self._store(key, depth, self.outcomes[<size_t>level * m], TT_NO_BOUND, 0.0, True, out)
            else:
                self._store(key, depth, -1, TT_NO_BOUND, 0.0, True, out)
            result[0] = SOLVE_EXACT
            return True
        if self.pruning != PRUNE_NONE:
            for r in range(self.n):
                if B[r] > -INFINITY and H[r] + TIE <= B[r]:
                    self.cutoffs += 1
                    out[r] = H[r] + TIE
                    self._store(key, depth, -1, r, out[r], True, out)
                    result[0] = r
                    return True
        return False

    cdef inline void _credit(self, int player, int action) noexcept nogil:
        if 0 <= action < self.n_actions and self.history[player * self.n_actions + action] < 1000000000:
            self.history[player * self.n_actions + action] += 1

    cdef bint _bounded(self, const double* B) noexcept nogil:
        cdef int r
        for r in range(self.n):
            if B[r] > -INFINITY:
                return True
        return False

    cdef int _chance(self, int level, int depth) noexcept nogil:
        cdef void* s = self._st(level)
        cdef double* out = self._res(level)
        cdef double* B = self._bnd(level)
        cdef double* CB = self._bnd(level + 1)
        cdef double* child = self._res(level + 1)
        cdef int m = self.kernel.max_legal
        cdef int* outs = self.outcomes + <size_t>level * m
        cdef double* ps = self.probs + <size_t>level * m
        cdef double* ub = self.keys + <size_t>level * m   # per outcome: upper bound on the bounded value
        cdef double* H = self._nhi(level)                  # the node's bounds bound every outcome
        cdef int k = self.kernel.chance_outcomes(s, outs, ps)
        cdef int i, p, r, code, cp
        cdef double rest, w, total_ub
        cdef bint bounded = self.pruning != PRUNE_NONE and self._bounded(B)
        for p in range(self.n):
            out[p] = 0.0
        if not bounded:
            for i in range(k):
                self.kernel.clone_into(s, self._st(level + 1))
                self.kernel.apply(self._st(level + 1), outs[i])
                self._set_child_bounds_none(level + 1)
                self._solve(level + 1, depth)
                if self.aborted:
                    return SOLVE_EXACT
                for p in range(self.n):
                    out[p] += ps[i] * child[p]
            return SOLVE_EXACT
        # Star1 runs for every bounded player, each with its own windows.
        for i in range(k):
            ub[i] = self.hi
            self.actions[<size_t>level * m + i] = -1   # no Star2 bound yet
        if self.pruning == PRUNE_STAR2 and depth != 0:
            self._star2_probes(level, depth, k)
            if self.aborted:
                return SOLVE_EXACT
        for i in range(k):
            # Fail low for any bounded r whose best case is already <= B[r].
            for r in range(self.n):
                if B[r] == -INFINITY:
                    continue
                total_ub = out[r]
                for cp in range(i, k):
                    total_ub += ps[cp] * (ub[cp] if self._probe_player(level, cp) == r else H[r])
                if total_ub + TIE <= B[r]:
                    self.cutoffs += 1
                    out[r] = total_ub + TIE  # fail-soft: the tightest bound proved
                    return r
            self.kernel.clone_into(s, self._st(level + 1))
            self.kernel.apply(self._st(level + 1), outs[i])
            for r in range(self.n):
                if B[r] == -INFINITY:
                    CB[r] = -INFINITY
                    continue
                rest = 0.0
                for cp in range(i + 1, k):
                    rest += ps[cp] * (ub[cp] if self._probe_player(level, cp) == r else H[r])
                w = (B[r] - TIE - out[r] - rest) / ps[i]
                CB[r] = w if w >= self.lo else -INFINITY
            code = self._solve(level + 1, depth)
            if self.aborted:
                return SOLVE_EXACT
            if code != SOLVE_EXACT:
                self.cutoffs += 1
                rest = 0.0
                for cp in range(i + 1, k):
                    rest += ps[cp] * (ub[cp] if self._probe_player(level, cp) == code else H[code])
                w = out[code] + ps[i] * child[code] + rest + TIE
                out[code] = w if w < B[code] else B[code]
                return code
            for p in range(self.n):
                out[p] += ps[i] * child[p]
        return SOLVE_EXACT

    cdef inline int _probe_player(self, int level, int i) noexcept nogil:
        """Which player outcome i's Star2 probe bounds (-1: none): stored in the outcome's action slot."""
        return self.actions[<size_t>level * self.kernel.max_legal + i]

    cdef void _star2_probes(self, int level, int depth, int k) noexcept nogil:
        """Star2: bound each outcome by one searched move of its successor.

        Where player p moves next, one move's exact value x for p shows that
        every other player gets at most ``S - x - (N-2)L`` there (constant-sum),
        a tighter bound than the maximum utility when ``x`` is large. Only the
        single bounded player of a max^n node (or either in two-player games)
        benefits; the bound is kept per outcome in ``keys``, and the player it
        bounds in the outcome's ``actions`` slot.
        """
        cdef void* s = self._st(level)
        cdef int m = self.kernel.max_legal
        cdef int* outs = self.outcomes + <size_t>level * m
        cdef int* who = self.actions + <size_t>level * m
        cdef double* ub = self.keys + <size_t>level * m
        cdef double* B = self._bnd(level)
        cdef int i, p, r, first, nl, bounded_r
        cdef SolveEntry* e
        cdef int* acts
        cdef double x
        cdef uint64_t h
        if not self.sum_known:
            return
        for i in range(k):
            self.kernel.clone_into(s, self._st(level + 1))
            self.kernel.apply(self._st(level + 1), outs[i])
            p = self.kernel.current_player(self._st(level + 1))
            if p < 0:
                continue
            bounded_r = -1
            for r in range(self.n):
                if r != p and B[r] > -INFINITY:
                    bounded_r = r
                    break
            if bounded_r < 0:
                continue
            acts = self.actions + <size_t>(level + 1) * m
            nl = self.kernel.legal_actions(self._st(level + 1), acts)
            first = acts[0]
            h = self.kernel.state_hash(self._st(level + 1))
            e = &self.tt[h & self.tt_mask]
            if e.generation == self.generation and e.key == h and e.best_action >= 0:
                first = e.best_action
            self.kernel.clone_into(self._st(level + 1), self._st(level + 2))
            self.kernel.apply(self._st(level + 2), first)
            self._set_child_bounds_none(level + 2)
            self._solve(level + 2, depth - 1 if depth > 0 else depth)
            if self.aborted:
                return
            x = self._res(level + 2)[p]
            who[i] = bounded_r
            ub[i] = self._cap_for_others(x) + TIE
            if ub[i] > self.hi:
                ub[i] = self.hi

    cdef int _decision(self, int level, int depth, int player, int hint) noexcept nogil:
        cdef void* s = self._st(level)
        cdef void* c = self._st(level + 1)
        cdef double* out = self._res(level)
        cdef double* best = self._acc(level)
        cdef double* B = self._bnd(level)
        cdef double* CB = self._bnd(level + 1)
        cdef double* child = self._res(level + 1)
        cdef int m = self.kernel.max_legal
        cdef int* acts = self.actions + <size_t>level * m
        cdef double* keys = self.keys + <size_t>level * m
        cdef double top = self._nhi(level)[player]   # no child gives the mover more
        cdef unsigned int top_score
        cdef int first, top_i
        cdef int k = self.kernel.legal_actions(s, acts)
        cdef int i, j, a, p, r, code, best_action = -1, child_depth
        cdef double key, thr, bb
        cdef bint inherited_low = False, two = self.n == 2 and self.constant_sum
        cdef double maxub = -INFINITY   # the largest value (or bound) of any child for the mover
        cdef bint prune = self.pruning != PRUNE_NONE
        child_depth = depth - 1 if depth > 0 else depth
        # Order: the table's move first, then by the mover's static evaluation.
        if self.ordering == 2 and k > 1:
            for i in range(k):
                self.kernel.clone_into(s, c)
                self.kernel.apply(c, acts[i])
                if self.kernel.current_player(c) == K_TERMINAL:
                    self.kernel.returns(c, child)
                else:
                    self.kernel.evaluate(c, child)
                keys[i] = child[player]
            for i in range(1, k):  # insertion sort, stable: equal keys stay in id order
                a = acts[i]
                key = keys[i]
                j = i - 1
                while j >= 0 and keys[j] < key:
                    acts[j + 1] = acts[j]
                    keys[j + 1] = keys[j]
                    j -= 1
                acts[j + 1] = a
                keys[j + 1] = key
        if self.ordering >= 1 and hint >= 0:
            for i in range(1, k):
                if acts[i] == hint:
                    for j in range(i, 0, -1):
                        acts[j] = acts[j - 1]
                    acts[0] = hint
                    break
        if self.ordering >= 1 and k > 1:
            # The history move next: the one of this player's actions that most often
            # ended a node early (the killer and history heuristics of game-tree search).
            first = 1 if (hint >= 0 and acts[0] == hint) else 0
            top_score = 0
            top_i = -1
            for i in range(first, k):
                if acts[i] < self.n_actions and self.history[player * self.n_actions + acts[i]] > top_score:
                    top_score = self.history[player * self.n_actions + acts[i]]
                    top_i = i
            if top_i > first:
                a = acts[top_i]
                for j in range(top_i, first, -1):
                    acts[j] = acts[j - 1]
                    keys[j] = keys[j - 1]
                acts[first] = a
        for i in range(k):
            a = acts[i]
            # The child's bounds: the mover only needs to know whether it
            # beats the best so far; with two players the other bound is kept
            # (alpha-beta); with more, nothing else may be inherited.
            for r in range(self.n):
                CB[r] = B[r] if (two and prune) else -INFINITY
            bb = B[player] if prune else -INFINITY
            if best_action >= 0 and prune:
                thr = best[player] + TIE if a > best_action else best[player] - 2 * TIE
                if thr > bb:
                    bb = thr
                if bb >= top + TIE:
                    # Cannot beat the best (or is below the inherited bound): skipped.
                    if thr < bb:
                        inherited_low = True
                    if top > maxub:
                        maxub = top
                    continue
            CB[player] = bb
            self.kernel.clone_into(s, c)
            self.kernel.apply(c, a)
            code = self._solve(level + 1, child_depth)
            if self.aborted:
                return SOLVE_EXACT
            if child[player] > maxub:
                maxub = child[player]   # exact, or the child's fail-soft bound
            if code == SOLVE_EXACT:
                if best_action < 0 or child[player] > best[player] + TIE or (
                        a < best_action and child[player] >= best[player] - TIE):
                    best_action = a
                    for p in range(self.n):
                        best[p] = child[p]
                # Shallow (and, with two players, alpha-beta) cut-off: every other
                # player gets at most S - best[player] - (N-2)L here.
                if prune and self.sum_known:
                    for r in range(self.n):
                        if r != player and B[r] > -INFINITY and self._cap_for_others(best[player]) + TIE <= B[r]:
                            self.outcomes[<size_t>level * m] = best_action
                            self._credit(player, a)
                            self.cutoffs += 1
                            out[r] = self._cap_for_others(best[player]) + TIE
                            return r
            elif code == player:
                # Cannot replace the best; or, when the inherited bound decided,
                # is at most B[player] (then so may be the node).
                if CB[player] == B[player]:
                    inherited_low = True
            else:
                # Two players only: the child fails low for the other player r,
                # so the mover gets at least S - B[r] there, and so does the node.
                self.outcomes[<size_t>level * m] = best_action if best_action >= 0 else a
                self._credit(player, a)
                self.cutoffs += 1
                out[code] = child[code] if child[code] < B[code] else B[code]
                return code
        self.outcomes[<size_t>level * m] = best_action
        if best_action >= 0 and best[player] >= top - TIE:
            self._credit(player, best_action)   # the mover got all he can here
        if best_action < 0 or (inherited_low and best[player] <= B[player] + TIE):
            out[player] = maxub if maxub < B[player] else B[player]
            return player
        for p in range(self.n):
            out[p] = best[p]
        return SOLVE_EXACT

    # -- driver --------------------------------------------------------------------
    def solve(self, NativeState root, int depth=-1, double seconds=-1.0, long nodes=-1):
        """Solve ``root`` (any node: decision, chance or terminal) without bounds.

        ``depth``: decisions before the kernel's evaluation takes over (-1:
        unlimited). Returns a dict: ``values`` (one per player), ``action`` (the
        best action at a decision node, else None), ``exact`` (no leaf was
        cut by the depth limit or ``max_plies``, and the budget lasted),
        ``complete`` (the pass finished within the budget), ``capped`` (a
        line was longer than ``max_plies``) and counters. The table is kept
        between calls (``clear_table`` empties it), so solving the nodes of a
        principal variation after the root is mostly table hits.
        """
        if root.kernel is not self.kernel:
            raise InvalidOptionError("the state belongs to another kernel than this solver's")
        if self.busy:
            raise BotBusyError("this solver is already running in another thread")
        self.busy = True
        try:
            return self._run(root, depth, seconds, nodes)
        finally:
            self.busy = False

    cdef object _run(self, NativeState root, int depth, double seconds, long nodes):
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(root.data)
        cdef double started = now_seconds()
        cdef int code
        cdef long nodes0 = self.nodes, hits0 = self.tt_hits, cuts0 = self.cutoffs, decided0 = self.decided
        self.node_limit = -1 if nodes < 0 else self.nodes + nodes
        self.deadline = started + seconds if seconds >= 0 else -1.0
        self.aborted = False
        self.hit_limit = False
        self.capped = False
        self.max_level = 0
        k.clone_into(root.data, self._st(0))
        self._set_child_bounds_none(0)
        with nogil:
            code = self._solve(0, depth if depth > 0 else UNLIMITED)
        pending = self.cancel.take_pending()
        if pending is not None:
            raise pending
        complete = not self.aborted
        action = None
        if complete and player >= 0:
            action = self.outcomes[0]
        return {
            "player": player,
            "values": [self._res(0)[i] for i in range(self.n)],
            "action": action,
            "complete": complete,
            "exact": complete and not self.hit_limit,
            "capped": self.capped,
            "nodes": self.nodes - nodes0,
            "tt_hits": self.tt_hits - hits0,
            "cutoffs": self.cutoffs - cuts0,
            "decided": self.decided - decided0,
            "max_ply": self.max_level,
            "seconds": now_seconds() - started,
        }
