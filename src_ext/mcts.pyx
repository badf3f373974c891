# cython: language_level=3
"""Native tree search over any kernel: MCTS with chance nodes, SO-ISMCTS and MO-ISMCTS.

The whole iteration loop runs without the GIL: nodes live in one preallocated
array, states in fixed buffers, and the kernel is called through its cdef
interface. The Python bots in ``aiplay.search`` call :class:`TreeSearch` when
the state has a kernel and fall back to their pure-Python loop otherwise.

One node layout serves the three algorithms. A node is reached by a move of
``mover`` (a seat, or ``K_CHANCE``); ``key`` tells its siblings apart:

* MCTS (perfect information): decision children are keyed by action, chance
  children by outcome.
* SO-ISMCTS (Cowling, Powley & Whitehouse 2012): one tree for the searching
  player. Decision children are keyed by action; a chance child is keyed by the
  searching player's information-set hash after the outcome, so outcomes the
  player cannot see share one child. Selection uses availability counts.
* MO-ISMCTS: one tree per player. In player q's tree, q's own moves are keyed
  by action, and every other move (a rival's or chance's) by q's information-set
  hash after it: q cannot tell apart moves that q does not observe.

``value_sum`` holds returns of the player who selects among the node and its
siblings (the mover in MCTS/SO-ISMCTS, the tree's owner in MO-ISMCTS).

Rollouts (``aiplay.search.rollout`` describes the options) play uniformly
random moves or the kernel's ``policy_action`` (with an ``epsilon`` share of
random moves), to the end or to ``cutoff`` moves, where ``evaluate_for`` (the
static evaluation as the searching seat scores it) stands in for the returns.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from aiplay._ext.cancel cimport Cancellation
from aiplay._ext.kernel cimport (
    K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, NativeState, Rng, rng_below, rng_uniform,
)

from aiplay.errors import BotBusyError, InvalidOptionError, NotDecisionNodeError
from aiplay.limits import check_count

# The profile build (benchmarks/profile_search.py compiles this file once more with
# AIPLAY_PROFILE_SEARCH defined): per-phase time stamps of every iteration. In the release
# build PROF_ON is the constant 0, so the C compiler drops every timed block: the release
# loop is the same machine code as without them.
cdef extern from *:
    """
    #ifdef AIPLAY_PROFILE_SEARCH
    #define AIPLAY_PROF_ON 1
    #if defined(__x86_64__) || defined(__i386__)
    #include <x86intrin.h>
    static inline unsigned long long aiplay_prof_now(void) { return __rdtsc(); }
    #else
    #include <time.h>
    static inline unsigned long long aiplay_prof_now(void) {
        struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
        return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
    }
    #endif
    #else
    #define AIPLAY_PROF_ON 0
    static inline unsigned long long aiplay_prof_now(void) { return 0; }
    #endif
    """
    const bint PROF_ON "AIPLAY_PROF_ON"
    unsigned long long prof_now "aiplay_prof_now"() noexcept nogil

#: The largest node cap: node indices are C ints (the machine's memory usually binds first).
MAX_NODES = 2 ** 31 - 1

cdef enum:
    MODE_MCTS = 0
    MODE_SO_ISMCTS = 1
    MODE_MO_ISMCTS = 2
    MAX_TREE_DEPTH = 2048    # deeper paths end the descent and roll out
    DET_REDRAWS = 16         # failed determinizations before an iteration is skipped
    NO_NODE = -1
    UNOBSERVED = -3          # MO-ISMCTS: a move the tree's owner does not make

# Profile phases (ticks) and event counts; the names are PROFILE_PHASES / PROFILE_COUNTS.
cdef enum:
    PH_CLONE = 0         # copy the root state into the iteration's state
    PH_DETERMINIZE = 1   # determinize (and its redraws, with their clones)
    PH_TREE_LEGAL = 2    # legal_actions in the tree walk
    PH_SELECT = 3        # _decide: stamps, availability, expansion pick, UCB1
    PH_TREE_APPLY = 4    # apply and sample_chance in the tree walk
    PH_TREE_NODES = 5    # find or create the child in every tree (info_hash keys included)
    PH_TREE_OTHER = 6    # the walk's current_player calls and loop
    PH_ROLL_LEGAL = 7    # legal_actions in the rollout
    PH_ROLL_CHOOSE = 8   # the rollout's move choice (policy_action or uniform)
    PH_ROLL_APPLY = 9    # apply and sample_chance in the rollout
    PH_ROLL_END = 10     # returns / evaluate at the rollout's end
    PH_ROLL_OTHER = 11   # the rollout's current_player calls, stop polls and loop
    PH_BACKUP = 12       # back-propagation
    PH_LOOP = 13         # run()'s loop between iterations: budget checks and stop-flag polls
    N_PHASES = 14
    CT_REDRAWS = 0       # failed determinizations redrawn
    CT_TREE_STEPS = 1    # moves applied in the tree walk
    CT_ROLL_STEPS = 2    # moves applied in rollouts
    CT_EXPANSIONS = 3    # nodes created
    CT_POLLS = 4         # stop-flag polls (should_stop calls)
    CT_INFO_HASHES = 5   # info_hash calls in the tree walk (chance/unobserved keys, tree-reuse keys)
    CT_NEW_CHANCE = 6    # chance (or unobserved) nodes created
    N_COUNTS = 7

#: True in the profile build (the run report then has a ``profile`` entry).
PROFILE_BUILD = bool(PROF_ON)
PROFILE_PHASES = ("clone", "determinize", "tree_legal", "select", "tree_apply", "tree_nodes", "tree_other",
                  "rollout_legal", "rollout_choose", "rollout_apply", "rollout_end", "rollout_other",
                  "backup", "loop")
PROFILE_COUNTS = ("redraws", "tree_steps", "rollout_steps", "expansions", "polls", "info_hashes",
                  "new_chance_nodes")

MODES = {"mcts": MODE_MCTS, "so-ismcts": MODE_SO_ISMCTS, "mo-ismcts": MODE_MO_ISMCTS}
ROLLOUTS = ("random", "policy")
#: How the other players move inside the tree: by their own UCB ("search", the textbook
#: algorithm) or by the kernel's playout policy ("policy": a best response to that policy).
OPPONENTS = ("search", "policy")


cdef struct Node:
    uint64_t key            # action, outcome or information-set hash (see module docstring)
    uint64_t root_info      # the searching player's information-set hash here (for tree reuse)
    double value_sum
    int32_t visits
    int32_t avail           # times this node was available when its parent selected
    int32_t first_child
    int32_t next_sibling
    int32_t action          # the move that leads here (decision action or chance outcome)
    int32_t mover           # who made that move: a seat or K_CHANCE
    int32_t to_move         # who moves next from here (-1 chance, -4 terminal, -2 unknown)


# Smooth UCT's schedule (Heinrich & Silver 2015): the share of UCB decisions starts near
# SMOOTH_ETA and decays with the node's visits, never below SMOOTH_GAMMA.
cdef double SMOOTH_ETA = 0.9
cdef double SMOOTH_GAMMA = 0.1

# log(n) for the small counts UCB1 reads at every child: the same libm results as calling log()
# (the table is filled by it), without a libm call per child.
cdef enum:
    LOG_TABLE_SIZE = 4096
    FEW_LEGAL = 8            # _decide_few below this many legal moves
cdef double LOG_TABLE[LOG_TABLE_SIZE]
cdef int _i
for _i in range(LOG_TABLE_SIZE):
    LOG_TABLE[_i] = log(<double>_i)


cdef inline double count_log(int32_t n) noexcept nogil:
    """``log(n)`` for a visit or availability count."""
    if 0 <= n < LOG_TABLE_SIZE:
        return LOG_TABLE[n]
    return log(<double>n)


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


#: Bytes of one tree node (the memory check multiplies max_nodes by it).
NODE_BYTES = sizeof(Node)


cdef class TreeSearch:
    """One search tree (or one per player for MO-ISMCTS) over a kernel.

    Keep an instance between moves to reuse the tree: :meth:`run` re-roots it
    at the new position when that position lies in the tree.
    """

    cdef Kernel kernel
    cdef int mode
    cdef double uct_c
    cdef Node* nodes
    cdef int size
    cdef int capacity            # memory cap in nodes
    cdef int _allocated          # nodes allocated so far (grows up to capacity)
    cdef int num_trees
    cdef int roots[K_MAX_PLAYERS]
    cdef int owner               # the searching player (root player)
    cdef bint has_tree
    # per-iteration scratch
    cdef void* state
    cdef void* root_state
    cdef int* actions
    cdef int* stamp              # per action: == tick legal, == tick+1 legal with a child
    cdef int* child_of           # per action: its child at the current node (valid with stamp)
    cdef int tick
    cdef bint expanding          # the last _decide chose an untried action
    cdef int chosen_child        # the last _decide's child for its action (NO_NODE when expanding)
    cdef int* paths              # num_trees x MAX_TREE_DEPTH node indices
    cdef int path_len[K_MAX_PLAYERS]
    cdef int max_depth_seen
    cdef long steps              # states stepped into (tree and rollouts): the nodes budget
    # rollouts
    cdef bint use_policy         # the kernel's policy_action instead of uniform moves
    cdef double epsilon          # with use_policy: chance of a uniform move instead
    cdef int cutoff              # rollout moves before the static evaluation stops it (-1: none)
    cdef bint policy_opponents   # in the tree, the other players move by policy_action (no UCB)
    # Smooth UCT (see _smooth_pick): a share of the decisions follows the average policy
    cdef bint smooth
    cdef double smooth_decay
    # Self-determinization (MO-ISMCTS only, see _iterate): the share of iterations whose world
    # also resamples the searching player's hidden information as a rival sees it; with it every
    # tree starts with an edge by its owner's information, and the searching player's real
    # information set is the node real_root, one level below its tree's root.
    cdef double self_det
    cdef int real_root
    # threads and cancellation
    # profile build only (see PROF_ON): ticks per phase and event counts of the last run()
    cdef unsigned long long prof[N_PHASES]
    cdef long long prof_count[N_COUNTS]
    cdef bint busy               # a run() is in progress (one search at a time)
    cdef readonly Cancellation cancel

    def __init__(self, Kernel kernel, str mode="mcts", double uct_c=2.0, object max_nodes=1_000_000,
                 str rollout="random", double rollout_epsilon=0.0, int rollout_cutoff=-1,
                 Cancellation cancel=None, str opponents="search", bint smooth=False,
                 double smooth_decay=0.002, double self_determinize=0.0):
        if mode not in MODES:
            raise InvalidOptionError(f"mode {mode!r} is invalid; it accepts one of {sorted(MODES)}")
        num_trees = kernel.num_players if MODES[mode] == MODE_MO_ISMCTS else 1
        # Every tree needs its root and room for at least one child.
        if not isinstance(max_nodes, bool) and isinstance(max_nodes, int) and max_nodes < num_trees + 1:
            raise InvalidOptionError(
                f"max_nodes={max_nodes} is too small: {mode} with {kernel.num_players} players keeps "
                f"{num_trees} tree(s) and needs at least {num_trees + 1} nodes")
        # The cap is checked against the machine's memory before the first node exists.
        max_nodes = check_count("max_nodes", max_nodes, num_trees + 1, MAX_NODES, sizeof(Node))
        if rollout not in ROLLOUTS:
            raise InvalidOptionError(f"rollout {rollout!r} is invalid; it accepts one of {list(ROLLOUTS)}")
        if not 0.0 <= rollout_epsilon <= 1.0:
            raise InvalidOptionError(
                f"rollout_epsilon={rollout_epsilon} is invalid; it accepts a number in [0, 1]")
        if rollout_cutoff < -1:
            raise InvalidOptionError(
                f"rollout_cutoff={rollout_cutoff} is invalid; it accepts -1 (none) or an integer >= 0")
        if opponents not in OPPONENTS:
            raise InvalidOptionError(f"opponents {opponents!r} is invalid; it accepts one of {list(OPPONENTS)}")
        if opponents == "policy" and not kernel.has_policy:
            raise InvalidOptionError("opponents='policy' needs the kernel's playout policy, and this kernel has none")
        if not (smooth_decay >= 0.0 and smooth_decay < 1e300):  # NaN fails both
            raise InvalidOptionError(f"smooth_decay={smooth_decay} is invalid; it accepts a finite number >= 0")
        self.smooth = smooth
        self.smooth_decay = smooth_decay
        if not 0.0 <= self_determinize <= 1.0:
            raise InvalidOptionError(
                f"self_determinize={self_determinize} is invalid; it accepts a number in [0, 1]")
        if self_determinize > 0.0 and MODES[mode] != MODE_MO_ISMCTS:
            raise InvalidOptionError(f"self_determinize needs mode 'mo-ismcts', not {mode!r}")
        self.self_det = self_determinize
        self.real_root = NO_NODE
        # Shared by a bot's workers, so that one stop request reaches them all.
        self.cancel = cancel if cancel is not None else Cancellation()
        self.use_policy = rollout == "policy"
        self.policy_opponents = opponents == "policy"
        self.epsilon = rollout_epsilon
        self.cutoff = rollout_cutoff
        self.kernel = kernel
        self.mode = MODES[mode]
        self.uct_c = uct_c
        self.capacity = max_nodes
        self.num_trees = num_trees
        # Grow the node array on demand up to the cap, so small searches stay small.
        # libc allocation (not PyMem): the node array grows inside nogil loops.
        self._allocated = min(max_nodes, 4096)
        self.nodes = <Node*>malloc(<size_t>self._allocated * sizeof(Node))
        self.state = malloc(kernel.state_size)
        self.root_state = malloc(kernel.state_size)
        self.actions = <int*>malloc(<size_t>kernel.max_legal * sizeof(int))
        self.stamp = <int*>malloc(<size_t>kernel.num_distinct_actions * sizeof(int))
        self.child_of = <int*>malloc(<size_t>kernel.num_distinct_actions * sizeof(int))
        self.paths = <int*>malloc(<size_t>self.num_trees * MAX_TREE_DEPTH * sizeof(int))
        if (self.nodes == NULL or self.state == NULL or self.root_state == NULL or self.actions == NULL
                or self.stamp == NULL or self.child_of == NULL or self.paths == NULL):
            raise MemoryError()
        memset(self.stamp, 0, <size_t>kernel.num_distinct_actions * sizeof(int))
        self.tick = 0
        self.size = 0
        self.has_tree = False

    def __dealloc__(self):
        free(self.nodes)
        free(self.state)
        free(self.root_state)
        free(self.actions)
        free(self.stamp)
        free(self.child_of)
        free(self.paths)

    # -- node storage ----------------------------------------------------------
    cdef int _new_node(self, int parent, uint64_t key, int action, int mover) noexcept nogil:
        """Append a child of ``parent``; NO_NODE when the memory cap is reached."""
        cdef Node* grown
        cdef int idx
        cdef size_t n
        if self.size >= self.capacity:
            return NO_NODE
        if self.size >= self._allocated:
            # In size_t: doubling an int past 2**30 nodes would wrap.
            n = <size_t>self._allocated * 2
            if n > <size_t>self.capacity:
                n = <size_t>self.capacity
            grown = <Node*>realloc(self.nodes, n * sizeof(Node))
            if grown == NULL:
                self.capacity = self.size  # out of memory: behave as if the cap was reached
                return NO_NODE
            self.nodes = grown
            self._allocated = <int>n
        idx = self.size
        self.size += 1
        self.nodes[idx].key = key
        self.nodes[idx].root_info = 0
        self.nodes[idx].value_sum = 0.0
        self.nodes[idx].visits = 0
        self.nodes[idx].avail = 0
        self.nodes[idx].first_child = NO_NODE
        self.nodes[idx].action = action
        self.nodes[idx].mover = mover
        self.nodes[idx].to_move = -2
        if parent != NO_NODE:
            self.nodes[idx].next_sibling = self.nodes[parent].first_child
            self.nodes[parent].first_child = idx
        else:
            self.nodes[idx].next_sibling = NO_NODE
        return idx

    cdef inline int _find_child(self, int parent, uint64_t key, int mover) noexcept nogil:
        cdef int c = self.nodes[parent].first_child
        while c != NO_NODE:
            if self.nodes[c].key == key and self.nodes[c].mover == mover:
                return c
            c = self.nodes[c].next_sibling
        return NO_NODE

    cdef inline void _push(self, int tree, int node) noexcept nogil:
        cdef int d = self.path_len[tree]
        self.paths[tree * MAX_TREE_DEPTH + d] = node
        self.path_len[tree] = d + 1

    # -- one iteration -----------------------------------------------------------
    cdef int _decide(self, int node, int player, int n_legal, Rng* rng, bint availability) noexcept nogil:
        """The action taken at a decision node, by the reference bots' rules.

        An untried legal action (uniformly among them) if any; else UCB1 over
        the legal actions in legal order, ties to the first. Availability
        counts (ISMCTS) grow for every legal child, at expansion too.
        Returns the action; ``self.expanding`` tells whether it is untried.
        """
        # Locals, not attributes: Python's -fno-strict-aliasing makes the compiler reload every
        # attribute after each store through a pointer.
        if n_legal <= FEW_LEGAL:
            return self._decide_few(node, player, n_legal, rng, availability)
        cdef Node* nodes = self.nodes
        cdef const int* actions = self.actions
        cdef int* stamp = self.stamp
        cdef int* child_of = self.child_of
        cdef double uct_c = self.uct_c
        cdef int c = nodes[node].first_child
        cdef int i, a, untried = 0, pick, best = -1
        cdef double score, best_score = -1e300, log_n
        cdef Node* ch
        cdef int tick
        # Stamps: tick = legal without a child here, tick + 1 = legal with one.
        self.tick += 2
        if self.tick > 2000000000:  # wrap the stamps long before int overflow
            memset(stamp, 0, self.kernel.num_distinct_actions * sizeof(int))
            self.tick = 2
        tick = self.tick
        for i in range(n_legal):
            stamp[actions[i]] = tick
        while c != NO_NODE:
            ch = &nodes[c]
            if ch.mover == player and stamp[ch.action] == tick:
                stamp[ch.action] = tick + 1
                child_of[ch.action] = c
            c = ch.next_sibling
        # One pass: count the untried actions and raise the availability of the others.
        for i in range(n_legal):
            a = actions[i]
            if stamp[a] == tick:
                untried += 1
            elif availability:
                nodes[child_of[a]].avail += 1
        if untried > 0:
            pick = rng_below(rng, untried)
            for i in range(n_legal):
                a = actions[i]
                if stamp[a] == tick:
                    if pick == 0:
                        self.expanding = True
                        self.chosen_child = NO_NODE
                        return a
                    pick -= 1
        self.expanding = False
        if self.smooth:
            pick = self._smooth_pick(n_legal, child_of, NULL, rng)
            if pick >= 0:
                self.chosen_child = child_of[actions[pick]]
                return actions[pick]
        if not availability:
            log_n = count_log(nodes[node].visits)
        for i in range(n_legal):
            a = actions[i]
            ch = &nodes[child_of[a]]
            if availability:
                score = ch.value_sum / ch.visits + uct_c * sqrt(count_log(ch.avail) / ch.visits)
            else:
                score = ch.value_sum / ch.visits + uct_c * sqrt(log_n / ch.visits)
            if score > best_score:
                best_score = score
                best = a
        self.chosen_child = child_of[best]
        return best

    cdef int _decide_few(self, int node, int player, int n_legal, Rng* rng, bint availability) noexcept nogil:
        """:meth:`_decide` for a short legal list: the same choice and the same counts.

        Each child is matched to its slot in the legal list by a scan of at most
        FEW_LEGAL entries, held in a local array, instead of the per-action stamps: a
        leduc decision has at most 3 moves, and the stamps' stores and dependent loads
        cost more than the scan.
        """
        cdef Node* nodes = self.nodes
        cdef const int* actions = self.actions
        cdef double uct_c = self.uct_c
        cdef int slot[FEW_LEGAL]
        cdef int c = nodes[node].first_child
        cdef int i, a, untried = n_legal, pick, best = 0
        cdef double score, best_score = -1e300, log_n
        cdef Node* ch
        for i in range(n_legal):
            slot[i] = NO_NODE
        while c != NO_NODE:
            ch = &nodes[c]
            if ch.mover == player:
                a = ch.action
                for i in range(n_legal):
                    if actions[i] == a:
                        slot[i] = c
                        untried -= 1
                        break
            c = ch.next_sibling
        if untried > 0:
            if availability:
                for i in range(n_legal):
                    if slot[i] != NO_NODE:
                        nodes[slot[i]].avail += 1
            pick = rng_below(rng, untried)
            for i in range(n_legal):
                if slot[i] == NO_NODE:
                    if pick == 0:
                        self.expanding = True
                        self.chosen_child = NO_NODE
                        return actions[i]
                    pick -= 1
        self.expanding = False
        if self.smooth:
            pick = self._smooth_pick(n_legal, NULL, slot, rng)
            if pick >= 0:
                if availability:  # counted as the UCB pass below counts them
                    for i in range(n_legal):
                        nodes[slot[i]].avail += 1
                self.chosen_child = slot[pick]
                return actions[pick]
        if not availability:
            log_n = count_log(nodes[node].visits)
        for i in range(n_legal):
            ch = &nodes[slot[i]]
            if availability:
                ch.avail += 1
                score = ch.value_sum / ch.visits + uct_c * sqrt(count_log(ch.avail) / ch.visits)
            else:
                score = ch.value_sum / ch.visits + uct_c * sqrt(log_n / ch.visits)
            if score > best_score:
                best_score = score
                best = i
        self.chosen_child = slot[best]
        return actions[best]

    cdef int _smooth_pick(self, int n_legal, const int* child_of, const int* slot, Rng* rng) noexcept nogil:
        """Smooth UCT's choice (Heinrich & Silver 2015): the index of a legal move, or -1 for UCB.

        With probability ``eta = max(SMOOTH_GAMMA, SMOOTH_ETA / (1 + smooth_decay * sqrt(N)))``,
        ``N`` the visits of the legal children, the caller selects by UCB (-1); otherwise a
        move is drawn in proportion to its visits: the node's average policy so far, which
        is what converges towards an equilibrium in two-player zero-sum games. Every legal
        move has a child (the caller expands untried ones first). Children are read by
        action (``child_of``) or by legal slot (``slot``).
        """
        cdef int i, c
        cdef long total = 0
        cdef double eta, r
        for i in range(n_legal):
            c = slot[i] if slot != NULL else child_of[self.actions[i]]
            total += self.nodes[c].visits
        eta = SMOOTH_ETA / (1.0 + self.smooth_decay * sqrt(<double>total))
        if eta < SMOOTH_GAMMA:
            eta = SMOOTH_GAMMA
        if total <= 0 or rng_uniform(rng) < eta:
            return -1
        r = rng_uniform(rng) * <double>total
        for i in range(n_legal):
            c = slot[i] if slot != NULL else child_of[self.actions[i]]
            r -= self.nodes[c].visits
            if r < 0.0:
                return i
        return n_legal - 1  # rounding: the last move

    cdef inline void _lap(self, int phase, unsigned long long* mark) noexcept nogil:
        """Profile build: charge the ticks since ``mark`` to ``phase`` and move the mark."""
        cdef unsigned long long t = prof_now()
        self.prof[phase] += t - mark[0]
        mark[0] = t

    cdef void _iterate(self, Rng* rng, Rng* det_rng, double* values) noexcept nogil:
        cdef void* s = self.state
        cdef int t, player, n, i, action, child, node, mover, tree_mover
        cdef int current[K_MAX_PLAYERS]
        cdef bint availability = self.mode != MODE_MCTS
        cdef bint stop = False
        cdef uint64_t key, owner_info = 0
        cdef bint have_owner_info
        cdef int rollout_moves = 0
        cdef unsigned long long mark = 0

        if PROF_ON:
            mark = prof_now()
        self.kernel.clone_into(self.root_state, s)
        if PROF_ON:
            self._lap(PH_CLONE, &mark)
        if self.mode != MODE_MCTS:
            # On failure, redraw from the next numbers of the stream; never search the true state:
            # after DET_REDRAWS failures the iteration is skipped.
            for t in range(DET_REDRAWS + 1):
                if t == DET_REDRAWS:
                    if PROF_ON:
                        self._lap(PH_DETERMINIZE, &mark)
                    return
                if self.kernel.determinize(s, self.owner, det_rng):
                    break
                if PROF_ON:
                    self.prof_count[CT_REDRAWS] += 1
                self.kernel.clone_into(self.root_state, s)
            if PROF_ON:
                self._lap(PH_DETERMINIZE, &mark)
        if self.self_det > 0.0 and self.num_trees > 1 and rng_uniform(det_rng) < self.self_det:
            # Resample the searching player's own hidden information as a rival sees it (a
            # failed redraw keeps the world, which is consistent with the searching player's view).
            t = <int>rng_below(det_rng, self.num_trees - 1)
            self.kernel.determinize(s, t + (1 if t >= self.owner else 0), det_rng)
        for t in range(self.num_trees):
            current[t] = self.roots[t]
            self.path_len[t] = 0
            self._push(t, current[t])
            if self.self_det > 0.0:
                # The first edge of every tree: its owner's information in this world.
                key = self.kernel.info_hash(s, t)
                child = self._find_child(current[t], key, UNOBSERVED)
                if child == NO_NODE:
                    child = self._new_node(current[t], key, -1, UNOBSERVED)
                    if child == NO_NODE:
                        stop = True  # memory cap: roll out from here
                        continue
                    self.nodes[child].avail = 1
                    self.nodes[child].to_move = self.kernel.current_player(s)
                current[t] = child
                self._push(t, child)

        while not stop:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL or self.path_len[0] >= MAX_TREE_DEPTH:
                break
            if player == K_CHANCE:
                if PROF_ON:
                    self._lap(PH_TREE_OTHER, &mark)
                action = self.kernel.sample_chance(s, rng)
                self.kernel.apply(s, action)
                mover = K_CHANCE
            else:
                if PROF_ON:
                    self._lap(PH_TREE_OTHER, &mark)
                n = self.kernel.legal_actions(s, self.actions)
                if PROF_ON:
                    self._lap(PH_TREE_LEGAL, &mark)
                if n <= 0:
                    break  # no move at a decision node (a kernel bug): score the position as it is
                # The tree that chooses: the mover's own tree in MO-ISMCTS.
                t = player if self.mode == MODE_MO_ISMCTS else 0
                if self.policy_opponents and player != self.owner:
                    # The opponent model: the move its policy makes in this world. Its child is
                    # looked up as _decide would; a new one ends the descent as an expansion does.
                    action = self.kernel.policy_action(s, self.actions, n, rng)
                    self.chosen_child = self._find_child(current[t], <uint64_t>action, player)
                    self.expanding = self.chosen_child == NO_NODE
                else:
                    action = self._decide(current[t], player, n, rng, availability)
                if self.expanding:
                    stop = True
                if PROF_ON:
                    self._lap(PH_SELECT, &mark)
                self.kernel.apply(s, action)
                mover = player
            if PROF_ON:
                self._lap(PH_TREE_APPLY, &mark)
                self.prof_count[CT_TREE_STEPS] += 1
            self.steps += 1
            # Follow (or create) the child in every tree.
            have_owner_info = False
            for t in range(self.num_trees):
                node = current[t]
                if mover != K_CHANCE and (self.mode != MODE_MO_ISMCTS or mover == t):
                    # The decision's own tree: _decide has just looked its child up (or found none).
                    key = <uint64_t>action
                    tree_mover = mover
                    child = self.chosen_child
                else:
                    if mover == K_CHANCE and self.mode == MODE_MCTS:
                        key = <uint64_t>action
                        tree_mover = mover
                    elif self.mode == MODE_SO_ISMCTS:
                        # SO-ISMCTS chance: keyed by what the searching player sees.
                        if not have_owner_info:
                            owner_info = self.kernel.info_hash(s, self.owner)
                            have_owner_info = True
                            if PROF_ON:
                                self.prof_count[CT_INFO_HASHES] += 1
                        key = owner_info
                        tree_mover = mover
                    else:
                        # A move tree t's owner does not make: keyed by what the owner sees.
                        if t == self.owner:
                            if not have_owner_info:
                                owner_info = self.kernel.info_hash(s, self.owner)
                                have_owner_info = True
                                if PROF_ON:
                                    self.prof_count[CT_INFO_HASHES] += 1
                            key = owner_info
                        else:
                            key = self.kernel.info_hash(s, t)
                            if PROF_ON:
                                self.prof_count[CT_INFO_HASHES] += 1
                        tree_mover = UNOBSERVED
                    child = self._find_child(node, key, tree_mover)
                if child == NO_NODE:
                    child = self._new_node(node, key, action, tree_mover)
                    if child == NO_NODE:
                        stop = True  # memory cap: roll out from here
                        break
                    if PROF_ON:
                        self.prof_count[CT_EXPANSIONS] += 1
                    # Available at its creation, as in the reference ISMCTS (n' starts at 1).
                    self.nodes[child].avail = 1
                    self.nodes[child].to_move = self.kernel.current_player(s)
                    # Tree reuse finds the next root by what the *searching* player
                    # observes, in every tree: re-rooting a rival's tree by the rival's
                    # own information would read that rival's hidden cards. Only a node
                    # where the searching player moves can become a root: the others keep 0.
                    if self.nodes[child].to_move == self.owner:
                        if not have_owner_info:
                            owner_info = self.kernel.info_hash(s, self.owner)
                            have_owner_info = True
                            if PROF_ON:
                                self.prof_count[CT_INFO_HASHES] += 1
                        self.nodes[child].root_info = owner_info
                    if mover == K_CHANCE or tree_mover == UNOBSERVED:
                        stop = True  # a new chance (or unobserved) node also ends the descent
                        if PROF_ON:
                            self.prof_count[CT_NEW_CHANCE] += 1
                current[t] = child
                self._push(t, child)
            if PROF_ON:
                self._lap(PH_TREE_NODES, &mark)
        if PROF_ON:
            self._lap(PH_TREE_OTHER, &mark)

        # Rollout: uniformly random (or by the kernel's policy) to the end, or
        # to the cutoff, where the static evaluation stands in for the returns.
        while True:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL:
                if PROF_ON:
                    self._lap(PH_ROLL_OTHER, &mark)
                self.kernel.returns(s, values)
                if PROF_ON:
                    self._lap(PH_ROLL_END, &mark)
                break
            if self.cutoff >= 0 and rollout_moves >= self.cutoff:
                if PROF_ON:
                    self._lap(PH_ROLL_OTHER, &mark)
                self.kernel.evaluate_for(s, self.owner, values)
                if PROF_ON:
                    self._lap(PH_ROLL_END, &mark)
                break
            if (rollout_moves & 15) == 15 and self.cancel.stop_requested:
                # A stop ends a long rollout at once (a whole Sunken City game of policy moves took
                # 60+ ms on a loaded machine), scored as a cutoff is: by the static evaluation.
                # (A flag read: every 16 moves costs nothing; 64 policy moves could take 10+ ms.)
                self.kernel.evaluate_for(s, self.owner, values)
                break
            if player == K_CHANCE:
                if PROF_ON:
                    self._lap(PH_ROLL_OTHER, &mark)
                self.kernel.apply(s, self.kernel.sample_chance(s, rng))
            else:
                if PROF_ON:
                    self._lap(PH_ROLL_OTHER, &mark)
                n = self.kernel.legal_actions(s, self.actions)
                if PROF_ON:
                    self._lap(PH_ROLL_LEGAL, &mark)
                if n <= 0:
                    self.kernel.evaluate_for(s, self.owner, values)  # see the descent: never index an empty list
                    break
                if self.use_policy and (self.epsilon <= 0.0 or rng_uniform(rng) >= self.epsilon):
                    action = self.kernel.policy_action(s, self.actions, n, rng)
                else:
                    action = self.actions[rng_below(rng, n)]
                if PROF_ON:
                    self._lap(PH_ROLL_CHOOSE, &mark)
                self.kernel.apply(s, action)
            if PROF_ON:
                self._lap(PH_ROLL_APPLY, &mark)
                self.prof_count[CT_ROLL_STEPS] += 1
            self.steps += 1
            rollout_moves += 1

        # Backpropagation.
        for t in range(self.num_trees):
            if self.path_len[t] - 1 > self.max_depth_seen:
                self.max_depth_seen = self.path_len[t] - 1
            for i in range(self.path_len[t]):
                node = self.paths[t * MAX_TREE_DEPTH + i]
                self.nodes[node].visits += 1
                if self.mode == MODE_MO_ISMCTS:
                    self.nodes[node].value_sum += values[t]
                elif self.nodes[node].mover >= 0:
                    self.nodes[node].value_sum += values[self.nodes[node].mover]
        if PROF_ON:
            self._lap(PH_BACKUP, &mark)

    # -- tree reuse --------------------------------------------------------------
    cdef int _find_reusable(self, int tree, uint64_t info, int to_move) noexcept nogil:
        """The most visited node of ``tree`` whose owner information and next player match."""
        cdef int best = NO_NODE
        # Nodes of all trees share the array, so walk from this tree's root.
        cdef int* stack = <int*>malloc(<size_t>self.size * sizeof(int))  # a DFS stack never exceeds the node count
        cdef int top = 0, node, c
        if stack == NULL:
            return NO_NODE
        stack[top] = self.roots[tree]
        top = 1
        while top > 0:
            top -= 1
            node = stack[top]
            if (node != self.roots[tree] and self.nodes[node].root_info == info
                    and self.nodes[node].to_move == to_move):
                if best == NO_NODE or self.nodes[node].visits > self.nodes[best].visits:
                    best = node
            c = self.nodes[node].first_child
            while c != NO_NODE:
                stack[top] = c
                top += 1
                c = self.nodes[c].next_sibling
        free(stack)
        return best

    cdef int _compact(self, int* new_roots) except -1:
        """Keep only the subtrees under ``new_roots`` (one per tree); renumber them."""
        cdef Node* fresh = <Node*>malloc(<size_t>self._allocated * sizeof(Node))
        cdef int* remap
        cdef int i, t, count = 0, head = 0, node, c, prev
        if fresh == NULL:
            raise MemoryError()
        remap = <int*>malloc(<size_t>self.size * sizeof(int))
        if remap == NULL:
            free(fresh)
            raise MemoryError()
        # Breadth-first copy: the queue is the new array itself.
        for t in range(self.num_trees):
            fresh[count] = self.nodes[new_roots[t]]
            fresh[count].next_sibling = NO_NODE
            remap[count] = new_roots[t]
            new_roots[t] = count
            count += 1
        while head < count:
            node = remap[head]  # old index of the node at new position head
            c = self.nodes[node].first_child
            prev = NO_NODE
            fresh[head].first_child = NO_NODE
            while c != NO_NODE:
                fresh[count] = self.nodes[c]
                remap[count] = c
                fresh[count].next_sibling = NO_NODE
                if prev == NO_NODE:
                    fresh[head].first_child = count
                else:
                    fresh[prev].next_sibling = count
                prev = count
                count += 1
                c = self.nodes[c].next_sibling
            head += 1
        free(remap)
        free(self.nodes)
        self.nodes = fresh
        self.size = count
        return count

    def reset(self):
        """Forget the tree."""
        if self.busy:
            raise BotBusyError("cannot reset a native search while it runs")
        self.size = 0
        self.has_tree = False

    def run(self, NativeState root, long iterations=-1, double seconds=-1.0, long nodes=-1,
            uint64_t seed=0, bint reuse=True):
        """Search from ``root`` until a budget runs out; return the root statistics as a dict.

        Budgets (negative = unset; the first reached stops the search; at
        least one iteration always runs): ``iterations``; ``seconds``;
        ``nodes``, the states stepped into (the root, plus one per move
        applied in the tree or in rollouts), as the reference bots count
        them. With ``reuse`` the previous call's tree is kept when ``root``
        lies in it (matched by the searching player's information set).

        ``cancel.request_stop()`` (from another thread) ends the search after
        the current iteration; a signal handler's exception (Ctrl-C) ends it
        and is re-raised here. One search at a time: a second concurrent call
        raises :class:`~aiplay.errors.BotBusyError`.
        """
        # Checked (busy included) and set with the GIL held, so two threads cannot both pass.
        cdef int player = self._check_run(root, iterations, seconds, nodes)
        self.busy = True
        try:
            return self._run(root, player, iterations, seconds, nodes, seed, reuse, False)
        finally:
            self.busy = False

    def run_choose(self, NativeState root, long iterations=-1, double seconds=-1.0, long nodes=-1,
                   uint64_t seed=0, bint reuse=True):
        """:meth:`run`, returning only the move a bot plays: the most visited legal root action.

        Ties: the higher mean value, then the first in legal order (``most_visited`` of
        ``aiplay.search.base`` over ``tree_stats``). Same search, same tree afterwards; it
        skips the report that a caller wanting only the move would throw away.
        """
        cdef int player = self._check_run(root, iterations, seconds, nodes)
        self.busy = True
        try:
            return self._run(root, player, iterations, seconds, nodes, seed, reuse, True)
        finally:
            self.busy = False

    cdef int _check_run(self, NativeState root, long iterations, double seconds, long nodes) except -1:
        """The searching player at ``root``; raises as :meth:`run` does."""
        cdef int player
        if root.kernel is not self.kernel:
            raise InvalidOptionError("the state belongs to another kernel than this search's")
        player = self.kernel.current_player(root.data)
        if player < 0:
            raise NotDecisionNodeError(
                "search needs a state where a player is to move (not chance, not terminal)")
        if iterations < 0 and seconds < 0 and nodes < 0:
            raise InvalidOptionError("give at least one budget: iterations, seconds or nodes")
        if self.busy:
            raise BotBusyError("this native search is already running in another thread")
        return player

    cdef int _best_action(self) noexcept nogil:
        """The most visited root action among the legal ones of the searched position."""
        cdef int root = self._decision_root()
        cdef int n = self.kernel.legal_actions(self.root_state, self.actions)
        cdef int i, a, c, visits, best = -1, best_visits = 0
        cdef double value = 0.0, best_value = 0.0
        for i in range(n):
            a = self.actions[i]
            c = self._find_child(root, <uint64_t>a, self.owner)
            visits = 0 if c == NO_NODE else self.nodes[c].visits
            if visits > 0:
                value = self.nodes[c].value_sum / visits
            # most_visited: an unvisited action never beats the first one on a tie (its value is None).
            if best == -1 or visits > best_visits or (visits == best_visits and visits > 0
                                                     and value > best_value):
                best, best_visits = a, visits
                if visits > 0:
                    best_value = value
        return best

    cdef object _run(self, NativeState root, int player, long iterations, double seconds, long nodes,
                     uint64_t seed, bint reuse, bint action_only):
        cdef Kernel k = self.kernel
        cdef int t, found
        cdef uint64_t info = k.info_hash(root.data, player)
        cdef int new_roots[K_MAX_PLAYERS]
        cdef bint reused = False
        cdef long done = 0
        cdef long poll_at
        cdef double started, deadline
        cdef Rng rng, det_rng
        cdef double values[K_MAX_PLAYERS]
        cdef Cancellation cancel = self.cancel
        cdef unsigned long long mark = 0, ticks_started = 0

        if self.self_det > 0.0:
            reuse = False  # the trees start above the information set: nothing to re-root
        if reuse and self.has_tree and self.owner == player:
            for t in range(self.num_trees):
                # By the searching player's information in every tree (see _iterate).
                found = self._find_reusable(t, info, player)
                if found == NO_NODE:
                    break
                new_roots[t] = found
            else:
                self._compact(new_roots)
                for t in range(self.num_trees):
                    self.roots[t] = new_roots[t]
                reused = True
        if not reused:
            self.size = 0
            self.owner = player
            for t in range(self.num_trees):
                self.roots[t] = self._new_node(NO_NODE, 0, -1, -2)
                self.nodes[self.roots[t]].to_move = player
                self.nodes[self.roots[t]].root_info = info
            self.real_root = NO_NODE
            if self.self_det > 0.0:
                # Made now (the real world is not sampled in every iteration): the report reads it.
                self.real_root = self._new_node(self.roots[player], info, -1, UNOBSERVED)
                self.nodes[self.real_root].to_move = player
                self.nodes[self.real_root].avail = 1
        self.has_tree = True
        reused_visits = self.nodes[self.roots[self._owner_tree()]].visits

        k.clone_into(root.data, self.root_state)
        rng.s = seed
        det_rng.s = seed ^ <uint64_t>0xD1B54A32D192ED03  # a separate stream for determinizations
        self.max_depth_seen = 0
        self.steps = 1  # the root
        poll_at = 256
        started = now_seconds()
        if PROF_ON:
            ticks_started = prof_now()
        deadline = started + seconds
        if PROF_ON:
            memset(self.prof, 0, sizeof(self.prof))
            memset(self.prof_count, 0, sizeof(self.prof_count))
        with nogil:
            while True:
                self._iterate(&rng, &det_rng, values)
                if PROF_ON:
                    mark = prof_now()
                done += 1
                if iterations >= 0 and done >= iterations:
                    break
                if nodes >= 0 and self.steps >= nodes:
                    break
                if seconds >= 0 and now_seconds() >= deadline:
                    break
                # A stop request after every iteration (a flag read: the rollout that saw it
                # ended early, and the next iterations must not run their own); signals every
                # 16 iterations or 256 steps (a clock read): seen within milliseconds.
                if cancel.stop_requested:
                    break
                if (done & 15) == 0 or self.steps >= poll_at:
                    if PROF_ON:
                        self.prof_count[CT_POLLS] += 1
                    if cancel.should_stop():
                        break
                if self.steps >= poll_at:
                    poll_at = self.steps + 256
                if PROF_ON:
                    self._lap(PH_LOOP, &mark)
        elapsed = now_seconds() - started
        if PROF_ON:
            mark = prof_now() - ticks_started  # ticks of the whole loop: converts ticks to seconds
        pending = cancel.take_pending()
        if pending is not None:
            raise pending  # Ctrl-C: the tree stays consistent (iterations are whole)
        if action_only:
            return self._best_action()
        report = self._root_report(done, elapsed, reused, reused_visits)
        if PROF_ON:
            report["counters"]["profile"] = {
                "ticks": mark,
                "phases": {PROFILE_PHASES[i]: self.prof[i] for i in range(N_PHASES)},
                "counts": {PROFILE_COUNTS[i]: self.prof_count[i] for i in range(N_COUNTS)},
            }
        return report

    cdef inline int _owner_tree(self) noexcept nogil:
        return self.owner if self.mode == MODE_MO_ISMCTS else 0

    cdef inline int _decision_root(self) noexcept nogil:
        """The node of the searched information set in the searching player's tree."""
        if self.real_root != NO_NODE:
            return self.real_root
        return self.roots[self._owner_tree()]

    cdef object _root_report(self, long done, double elapsed, bint reused, long reused_visits):
        """Root children of the searching player, by action: visits, value sums, availability."""
        cdef int root = self._decision_root()
        cdef int c = self.nodes[root].first_child
        stats = []
        while c != NO_NODE:
            if self.nodes[c].mover == self.owner:
                stats.append((self.nodes[c].action, self.nodes[c].visits,
                              self.nodes[c].value_sum, self.nodes[c].avail))
            c = self.nodes[c].next_sibling
        stats.sort()
        return {
            "player": self.owner,
            "actions": [s[0] for s in stats],
            "visits": [s[1] for s in stats],
            "value_sums": [s[2] for s in stats],
            "availability": [s[3] for s in stats],
            "counters": {
                "iterations": done,
                "nodes": self.steps,
                "seconds": elapsed,
                "max_depth": self.max_depth_seen,
                "tree_nodes": self.size,
                "reused_tree": bool(reused),
                "reused_visits": reused_visits,
            },
        }

    def principal_variation(self, int first_action):
        """``first_action``, then the most visited child at each level (ties: lowest action).

        MCTS lines go through chance outcomes; ISMCTS lines stop at the first
        chance or unobserved edge, which stands for several outcomes.
        """
        cdef int node
        cdef int c, best
        if self.busy:
            raise BotBusyError("the principal variation needs a finished search")
        if not self.has_tree:
            return [first_action]
        node = self._find_child(self._decision_root(), <uint64_t>first_action, self.owner)
        pv = [first_action]
        if node == NO_NODE:
            return pv
        while len(pv) < 256:
            best = NO_NODE
            c = self.nodes[node].first_child
            while c != NO_NODE:
                if best == NO_NODE or self.nodes[c].visits > self.nodes[best].visits or (
                        self.nodes[c].visits == self.nodes[best].visits
                        and self.nodes[c].action < self.nodes[best].action):
                    best = c
                c = self.nodes[c].next_sibling
            if best == NO_NODE or self.nodes[best].visits == 0:
                break
            if self.nodes[best].mover < 0 and self.mode != MODE_MCTS:
                break
            pv.append(self.nodes[best].action)
            node = best
        return pv
