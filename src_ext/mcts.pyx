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
random moves), to the end or to ``cutoff`` moves, where ``evaluate`` stands
in for the returns.
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

MODES = {"mcts": MODE_MCTS, "so-ismcts": MODE_SO_ISMCTS, "mo-ismcts": MODE_MO_ISMCTS}
ROLLOUTS = ("random", "policy")


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
    cdef int* paths              # num_trees x MAX_TREE_DEPTH node indices
    cdef int path_len[K_MAX_PLAYERS]
    cdef int max_depth_seen
    cdef long steps              # states stepped into (tree and rollouts): the nodes budget
    # rollouts
    cdef bint use_policy         # the kernel's policy_action instead of uniform moves
    cdef double epsilon          # with use_policy: chance of a uniform move instead
    cdef int cutoff              # rollout moves before the static evaluation stops it (-1: none)
    # threads and cancellation
    cdef bint busy               # a run() is in progress (one search at a time)
    cdef readonly Cancellation cancel

    def __init__(self, Kernel kernel, str mode="mcts", double uct_c=2.0, object max_nodes=1_000_000,
                 str rollout="random", double rollout_epsilon=0.0, int rollout_cutoff=-1,
                 Cancellation cancel=None):
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
        # Shared by a bot's workers, so that one stop request reaches them all.
        self.cancel = cancel if cancel is not None else Cancellation()
        self.use_policy = rollout == "policy"
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
        cdef int c = self.nodes[node].first_child
        cdef int i, a, untried = 0, pick, best = -1
        cdef double score, best_score = -1e300, log_n
        cdef Node* ch
        # Stamps: tick = legal without a child here, tick + 1 = legal with one.
        self.tick += 2
        if self.tick > 2000000000:  # wrap the stamps long before int overflow
            memset(self.stamp, 0, self.kernel.num_distinct_actions * sizeof(int))
            self.tick = 2
        for i in range(n_legal):
            self.stamp[self.actions[i]] = self.tick
        while c != NO_NODE:
            ch = &self.nodes[c]
            if ch.mover == player and self.stamp[ch.action] == self.tick:
                self.stamp[ch.action] = self.tick + 1
                self.child_of[ch.action] = c
            c = ch.next_sibling
        for i in range(n_legal):
            if self.stamp[self.actions[i]] == self.tick:
                untried += 1
        if availability:
            for i in range(n_legal):
                a = self.actions[i]
                if self.stamp[a] == self.tick + 1:
                    self.nodes[self.child_of[a]].avail += 1
        if untried > 0:
            pick = rng_below(rng, untried)
            for i in range(n_legal):
                a = self.actions[i]
                if self.stamp[a] == self.tick:
                    if pick == 0:
                        self.expanding = True
                        return a
                    pick -= 1
        self.expanding = False
        if not availability:
            log_n = log(<double>self.nodes[node].visits)
        for i in range(n_legal):
            a = self.actions[i]
            ch = &self.nodes[self.child_of[a]]
            if availability:
                score = ch.value_sum / ch.visits + self.uct_c * sqrt(log(<double>ch.avail) / ch.visits)
            else:
                score = ch.value_sum / ch.visits + self.uct_c * sqrt(log_n / ch.visits)
            if score > best_score:
                best_score = score
                best = a
        return best

    cdef void _iterate(self, Rng* rng, Rng* det_rng, double* values) noexcept nogil:
        cdef void* s = self.state
        cdef int t, player, n, i, action, child, node, mover, tree_mover
        cdef int current[K_MAX_PLAYERS]
        cdef bint availability = self.mode != MODE_MCTS
        cdef bint stop = False
        cdef uint64_t key
        cdef int rollout_moves = 0

        self.kernel.clone_into(self.root_state, s)
        if self.mode != MODE_MCTS:
            # On failure, redraw from the next numbers of the stream; never search the true state:
            # after DET_REDRAWS failures the iteration is skipped.
            for t in range(DET_REDRAWS + 1):
                if t == DET_REDRAWS:
                    return
                if self.kernel.determinize(s, self.owner, det_rng):
                    break
                self.kernel.clone_into(self.root_state, s)
        for t in range(self.num_trees):
            current[t] = self.roots[t]
            self.path_len[t] = 0
            self._push(t, current[t])

        while not stop:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL or self.path_len[0] >= MAX_TREE_DEPTH:
                break
            if player == K_CHANCE:
                action = self.kernel.sample_chance(s, rng)
                self.kernel.apply(s, action)
                mover = K_CHANCE
            else:
                n = self.kernel.legal_actions(s, self.actions)
                if n <= 0:
                    break  # no move at a decision node (a kernel bug): score the position as it is
                # The tree that chooses: the mover's own tree in MO-ISMCTS.
                t = player if self.mode == MODE_MO_ISMCTS else 0
                action = self._decide(current[t], player, n, rng, availability)
                if self.expanding:
                    stop = True
                self.kernel.apply(s, action)
                mover = player
            self.steps += 1
            # Follow (or create) the child in every tree.
            for t in range(self.num_trees):
                node = current[t]
                if self.mode == MODE_MCTS:
                    key = <uint64_t>action
                    tree_mover = mover
                elif self.mode == MODE_SO_ISMCTS:
                    key = <uint64_t>action if mover != K_CHANCE else self.kernel.info_hash(s, self.owner)
                    tree_mover = mover
                elif mover == t:
                    key = <uint64_t>action
                    tree_mover = mover
                else:
                    # A move tree t's owner does not make: keyed by what the owner sees.
                    key = self.kernel.info_hash(s, t)
                    tree_mover = UNOBSERVED
                child = self._find_child(node, key, tree_mover)
                if child == NO_NODE:
                    child = self._new_node(node, key, action, tree_mover)
                    if child == NO_NODE:
                        stop = True  # memory cap: roll out from here
                        break
                    # Available at its creation, as in the reference ISMCTS (n' starts at 1).
                    self.nodes[child].avail = 1
                    # Tree reuse finds the next root by what the *searching* player
                    # observes, in every tree: re-rooting a rival's tree by the rival's
                    # own information would read that rival's hidden cards.
                    self.nodes[child].root_info = self.kernel.info_hash(s, self.owner)
                    self.nodes[child].to_move = self.kernel.current_player(s)
                    if mover == K_CHANCE or tree_mover == UNOBSERVED:
                        stop = True  # a new chance (or unobserved) node also ends the descent
                current[t] = child
                self._push(t, child)

        # Rollout: uniformly random (or by the kernel's policy) to the end, or
        # to the cutoff, where the static evaluation stands in for the returns.
        while True:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL:
                self.kernel.returns(s, values)
                break
            if self.cutoff >= 0 and rollout_moves >= self.cutoff:
                self.kernel.evaluate(s, values)
                break
            if (rollout_moves & 15) == 15 and self.cancel.stop_requested:
                # A stop ends a long rollout at once (a whole Sunken City game of policy moves took
                # 60+ ms on a loaded machine), scored as a cutoff is: by the static evaluation.
                # (A flag read: every 16 moves costs nothing; 64 policy moves could take 10+ ms.)
                self.kernel.evaluate(s, values)
                break
            if player == K_CHANCE:
                self.kernel.apply(s, self.kernel.sample_chance(s, rng))
            else:
                n = self.kernel.legal_actions(s, self.actions)
                if n <= 0:
                    self.kernel.evaluate(s, values)  # see the descent: never index an empty list
                    break
                if self.use_policy and (self.epsilon <= 0.0 or rng_uniform(rng) >= self.epsilon):
                    action = self.kernel.policy_action(s, self.actions, n, rng)
                else:
                    action = self.actions[rng_below(rng, n)]
                self.kernel.apply(s, action)
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
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(root.data)
        if root.kernel is not k:
            raise InvalidOptionError("the state belongs to another kernel than this search's")
        if player < 0:
            raise NotDecisionNodeError(
                "search needs a state where a player is to move (not chance, not terminal)")
        if iterations < 0 and seconds < 0 and nodes < 0:
            raise InvalidOptionError("give at least one budget: iterations, seconds or nodes")
        # Checked and set with the GIL held, so two threads cannot both pass.
        if self.busy:
            raise BotBusyError("this native search is already running in another thread")
        self.busy = True
        try:
            return self._run(root, player, iterations, seconds, nodes, seed, reuse)
        finally:
            self.busy = False

    cdef object _run(self, NativeState root, int player, long iterations, double seconds, long nodes,
                     uint64_t seed, bint reuse):
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
        self.has_tree = True
        reused_visits = self.nodes[self.roots[self._owner_tree()]].visits

        k.clone_into(root.data, self.root_state)
        rng.s = seed
        det_rng.s = seed ^ <uint64_t>0xD1B54A32D192ED03  # a separate stream for determinizations
        self.max_depth_seen = 0
        self.steps = 1  # the root
        poll_at = 256
        started = now_seconds()
        deadline = started + seconds
        with nogil:
            while True:
                self._iterate(&rng, &det_rng, values)
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
                if cancel.stop_requested or (((done & 15) == 0 or self.steps >= poll_at) and cancel.should_stop()):
                    break
                if self.steps >= poll_at:
                    poll_at = self.steps + 256
        elapsed = now_seconds() - started
        pending = cancel.take_pending()
        if pending is not None:
            raise pending  # Ctrl-C: the tree stays consistent (iterations are whole)
        return self._root_report(done, elapsed, reused, reused_visits)

    cdef int _owner_tree(self):
        return self.owner if self.mode == MODE_MO_ISMCTS else 0

    cdef object _root_report(self, long done, double elapsed, bint reused, long reused_visits):
        """Root children of the searching player, by action: visits, value sums, availability."""
        cdef int root = self.roots[self._owner_tree()]
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
        node = self._find_child(self.roots[self._owner_tree()], <uint64_t>first_action, self.owner)
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
