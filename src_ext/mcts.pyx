# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
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
"""

from libc.stdlib cimport free, malloc, realloc
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from aiplay._ext.kernel cimport (
    K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, NativeState, Rng, rng_below, rng_next,
)

cdef enum:
    MODE_MCTS = 0
    MODE_SO_ISMCTS = 1
    MODE_MO_ISMCTS = 2
    MAX_TREE_DEPTH = 2048    # deeper paths end the descent and roll out
    NO_NODE = -1

MODES = {"mcts": MODE_MCTS, "so-ismcts": MODE_SO_ISMCTS, "mo-ismcts": MODE_MO_ISMCTS}


cdef struct Node:
    uint64_t key            # action, outcome or information-set hash (see module docstring)
    uint64_t root_info      # the tree owner's information-set hash here (for tree reuse)
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
    cdef int* stamp              # stamp[action] == tick marks the action legal now
    cdef int tick
    cdef int* paths              # num_trees x MAX_TREE_DEPTH node indices
    cdef int path_len[K_MAX_PLAYERS]
    cdef int max_depth_seen
    cdef long rollout_steps

    def __init__(self, Kernel kernel, str mode="mcts", double uct_c=2.0, int max_nodes=1_000_000):
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is invalid; it accepts one of {sorted(MODES)}")
        if max_nodes < 2:
            raise ValueError(f"max_nodes={max_nodes} is invalid; it accepts an integer >= 2")
        self.kernel = kernel
        self.mode = MODES[mode]
        self.uct_c = uct_c
        self.capacity = max_nodes
        self.num_trees = kernel.num_players if self.mode == MODE_MO_ISMCTS else 1
        # Grow the node array on demand up to the cap, so small searches stay small.
        # libc allocation (not PyMem): the node array grows inside nogil loops.
        self._allocated = min(max_nodes, 4096)
        self.nodes = <Node*>malloc(self._allocated * sizeof(Node))
        self.state = malloc(kernel.state_size)
        self.root_state = malloc(kernel.state_size)
        self.actions = <int*>malloc(kernel.max_legal * sizeof(int))
        self.stamp = <int*>malloc(kernel.num_distinct_actions * sizeof(int))
        self.paths = <int*>malloc(self.num_trees * MAX_TREE_DEPTH * sizeof(int))
        if (self.nodes == NULL or self.state == NULL or self.root_state == NULL or self.actions == NULL
                or self.stamp == NULL or self.paths == NULL):
            raise MemoryError()
        memset(self.stamp, 0, kernel.num_distinct_actions * sizeof(int))
        self.tick = 0
        self.size = 0
        self.has_tree = False

    def __dealloc__(self):
        free(self.nodes)
        free(self.state)
        free(self.root_state)
        free(self.actions)
        free(self.stamp)
        free(self.paths)

    # -- node storage ----------------------------------------------------------
    cdef int _new_node(self, int parent, uint64_t key, int action, int mover) noexcept nogil:
        """Append a child of ``parent``; NO_NODE when the memory cap is reached."""
        cdef Node* grown
        cdef int n, idx
        if self.size >= self.capacity:
            return NO_NODE
        if self.size >= self._allocated:
            n = self._allocated * 2
            if n > self.capacity:
                n = self.capacity
            grown = <Node*>realloc(self.nodes, n * sizeof(Node))
            if grown == NULL:
                self.capacity = self.size  # out of memory: behave as if the cap was reached
                return NO_NODE
            self.nodes = grown
            self._allocated = n
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
    cdef int _select(self, int node, int n_legal, Rng* rng, bint count_availability) noexcept nogil:
        """UCB1 among the children of ``node`` whose actions are legal now (stamped).

        Returns the child; with availability counts the exploration term uses
        how often each child was available instead of the parent's visits.
        """
        cdef int c = self.nodes[node].first_child
        cdef int best = NO_NODE
        cdef double best_score = -1e300, score, log_parent
        cdef Node* ch
        if not count_availability:
            log_parent = log(<double>self.nodes[node].visits + 1.0)
        while c != NO_NODE:
            ch = &self.nodes[c]
            if ch.mover >= 0 and self.stamp[ch.action] == self.tick:
                if count_availability:
                    ch.avail += 1
                    score = ch.value_sum / ch.visits + self.uct_c * sqrt(log(<double>ch.avail) / ch.visits)
                else:
                    score = ch.value_sum / ch.visits + self.uct_c * sqrt(log_parent / ch.visits)
                # Children are kept newest first; ">=" prefers the oldest on ties,
                # that is the lowest action when they were expanded in order.
                if score >= best_score:
                    best_score = score
                    best = c
            c = ch.next_sibling
        return best

    cdef int _untried(self, int node, int n_legal, Rng* rng) noexcept nogil:
        """A legal action with no child yet (uniformly among them), or -1."""
        cdef int c = self.nodes[node].first_child
        cdef int i, count = 0, pick
        # Unstamp the actions that already have children, count the rest.
        while c != NO_NODE:
            if self.nodes[c].mover >= 0 and self.stamp[self.nodes[c].action] == self.tick:
                self.stamp[self.nodes[c].action] = self.tick - 1
            c = self.nodes[c].next_sibling
        for i in range(n_legal):
            if self.stamp[self.actions[i]] == self.tick:
                count += 1
        if count > 0:
            pick = rng_below(rng, count)
            for i in range(n_legal):
                if self.stamp[self.actions[i]] == self.tick:
                    if pick == 0:
                        pick = self.actions[i]
                        break
                    pick -= 1
        # Restore the stamps for the selection that may follow.
        c = self.nodes[node].first_child
        while c != NO_NODE:
            if self.nodes[c].mover >= 0 and self.stamp[self.nodes[c].action] == self.tick - 1:
                self.stamp[self.nodes[c].action] = self.tick
            c = self.nodes[c].next_sibling
        return pick if count > 0 else -1

    cdef void _iterate(self, Rng* rng, Rng* det_rng, double* values) noexcept nogil:
        cdef void* s = self.state
        cdef int t, player, n, i, action, child, node, mover, expanded = 0
        cdef int current[K_MAX_PLAYERS]
        cdef bint availability = self.mode != MODE_MCTS
        cdef bint in_tree = True
        cdef uint64_t key

        self.kernel.clone_into(self.root_state, s)
        if self.mode != MODE_MCTS:
            self.kernel.determinize(s, self.owner, det_rng)
        for t in range(self.num_trees):
            current[t] = self.roots[t]
            self.path_len[t] = 0
            self._push(t, current[t])

        while in_tree:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL:
                break
            if self.path_len[0] >= MAX_TREE_DEPTH:
                break
            if player == K_CHANCE:
                action = self.kernel.sample_chance(s, rng)
                self.kernel.apply(s, action)
                mover = K_CHANCE
            else:
                n = self.kernel.legal_actions(s, self.actions)
                self.tick += 1
                if self.tick > 2000000000:  # wrap the stamps long before int overflow
                    memset(self.stamp, 0, self.kernel.num_distinct_actions * sizeof(int))
                    self.tick = 1
                for i in range(n):
                    self.stamp[self.actions[i]] = self.tick
                # The tree that chooses: the mover's own tree in MO-ISMCTS.
                t = player if self.mode == MODE_MO_ISMCTS else 0
                node = current[t]
                action = self._untried(node, n, rng)
                if action < 0:
                    child = self._select(node, n, rng, availability)
                    action = self.nodes[child].action
                else:
                    expanded = 1
                    if availability:
                        # The new child is available now, as are its selected siblings.
                        self._select(node, n, rng, True)
                self.kernel.apply(s, action)
                mover = player
            # Follow (or create) the child in every tree.
            for t in range(self.num_trees):
                node = current[t]
                if self.mode == MODE_MCTS:
                    key = <uint64_t>action
                elif self.mode == MODE_SO_ISMCTS:
                    key = <uint64_t>action if mover != K_CHANCE else self.kernel.info_hash(s, self.owner)
                else:
                    key = <uint64_t>action if mover == t else self.kernel.info_hash(s, t)
                child = self._find_child(node, key, mover if (self.mode != MODE_MO_ISMCTS or mover == t) else -3)
                if child == NO_NODE:
                    child = self._new_node(node, key, action, mover if (self.mode != MODE_MO_ISMCTS or mover == t) else -3)
                    if child == NO_NODE:
                        in_tree = False  # memory cap: roll out from here
                        break
                    expanded = 1
                    self.nodes[child].avail = 1
                    if self.mode == MODE_MO_ISMCTS:
                        self.nodes[child].root_info = self.kernel.info_hash(s, t)
                    else:
                        self.nodes[child].root_info = self.kernel.info_hash(s, self.owner)
                    self.nodes[child].to_move = self.kernel.current_player(s)
                current[t] = child
                self._push(t, child)
            if expanded and mover != K_CHANCE:
                break  # a new decision node: evaluate it by a rollout

        # Rollout: uniformly random to the end.
        while True:
            player = self.kernel.current_player(s)
            if player == K_TERMINAL:
                break
            if player == K_CHANCE:
                self.kernel.apply(s, self.kernel.sample_chance(s, rng))
            else:
                n = self.kernel.legal_actions(s, self.actions)
                self.kernel.apply(s, self.actions[rng_below(rng, n)])
            self.rollout_steps += 1
        self.kernel.returns(s, values)

        # Backpropagation.
        for t in range(self.num_trees):
            if self.path_len[t] > self.max_depth_seen:
                self.max_depth_seen = self.path_len[t]
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
        cdef int* stack = <int*>malloc(self.size * sizeof(int))  # a DFS stack never exceeds the node count
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
        cdef Node* fresh = <Node*>malloc(self._allocated * sizeof(Node))
        cdef int* remap
        cdef int i, t, count = 0, head = 0, node, c, prev
        if fresh == NULL:
            raise MemoryError()
        remap = <int*>malloc(self.size * sizeof(int))
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
        self.size = 0
        self.has_tree = False

    def run(self, NativeState root, long iterations=-1, double seconds=-1.0, long nodes=-1,
            uint64_t seed=0, bint reuse=True):
        """Search from ``root`` until a budget runs out; return the root statistics as a dict.

        Budgets: ``iterations``, ``seconds``, ``nodes`` (tree size); a negative
        value means unset, and the first budget reached stops the search. With
        ``reuse`` the tree of the previous call is kept when ``root`` lies in it.
        """
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(root.data)
        cdef int t, found
        cdef uint64_t info = 0
        cdef int new_roots[K_MAX_PLAYERS]
        cdef bint reused = False
        cdef long done = 0, start_size
        cdef double started, deadline
        cdef Rng rng, det_rng
        cdef double values[K_MAX_PLAYERS]
        if root.kernel is not k:
            raise ValueError("the state belongs to another kernel than this search's")
        if player < 0:
            raise ValueError("search needs a state where a player is to move (not chance, not terminal)")
        if iterations < 0 and seconds < 0 and nodes < 0:
            raise ValueError("give at least one budget: iterations, seconds or nodes")

        if reuse and self.has_tree and self.owner == player:
            for t in range(self.num_trees):
                info = k.info_hash(root.data, t if self.mode == MODE_MO_ISMCTS else player)
                found = self._find_reusable(t, info, player)
                if found == NO_NODE:
                    break
                new_roots[t] = found
            else:
                if self.mode != MODE_MCTS or k.state_hash(root.data) == info:
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
                self.nodes[self.roots[t]].root_info = k.info_hash(
                    root.data, t if self.mode == MODE_MO_ISMCTS else player)
        self.has_tree = True
        reused_visits = self.nodes[self.roots[self._owner_tree()]].visits

        k.clone_into(root.data, self.root_state)
        rng.s = seed
        det_rng.s = seed ^ <uint64_t>0xD1B54A32D192ED03  # a separate stream for determinizations
        self.max_depth_seen = 0
        self.rollout_steps = 0
        start_size = self.size
        started = now_seconds()
        deadline = started + seconds
        with nogil:
            while True:
                if iterations >= 0 and done >= iterations:
                    break
                if nodes >= 0 and self.size >= nodes:
                    break
                if seconds >= 0 and now_seconds() >= deadline:
                    break
                self._iterate(&rng, &det_rng, values)
                done += 1
        elapsed = now_seconds() - started
        return self._root_report(done, elapsed, reused, reused_visits, start_size)

    cdef int _owner_tree(self):
        return self.owner if self.mode == MODE_MO_ISMCTS else 0

    cdef object _root_report(self, long done, double elapsed, bint reused, long reused_visits, long start_size):
        cdef int root = self.roots[self._owner_tree()]
        cdef int c = self.nodes[root].first_child
        stats = []
        while c != NO_NODE:
            if self.nodes[c].mover == self.owner:
                stats.append((self.nodes[c].action, self.nodes[c].visits,
                              self.nodes[c].value_sum / self.nodes[c].visits if self.nodes[c].visits else 0.0,
                              self.nodes[c].avail))
            c = self.nodes[c].next_sibling
        stats.sort()
        return {
            "player": self.owner,
            "actions": [s[0] for s in stats],
            "visits": [s[1] for s in stats],
            "values": [s[2] for s in stats],
            "availability": [s[3] for s in stats] if self.mode != MODE_MCTS else None,
            "principal_variation": self._principal_variation(root),
            "counters": {
                "iterations": done,
                "nodes": self.size,
                "new_nodes": self.size - start_size,
                "seconds": elapsed,
                "max_depth": self.max_depth_seen,
                "rollout_steps": self.rollout_steps,
                "reused_tree": bool(reused),
                "reused_visits": reused_visits,
            },
        }

    cdef list _principal_variation(self, int root):
        """Most visited decision child at each level (chance children: the most visited too)."""
        pv = []
        cdef int node = root, c, best
        while len(pv) < 64:
            best = NO_NODE
            c = self.nodes[node].first_child
            while c != NO_NODE:
                if best == NO_NODE or self.nodes[c].visits > self.nodes[best].visits:
                    best = c
                c = self.nodes[c].next_sibling
            if best == NO_NODE or self.nodes[best].visits == 0:
                break
            if self.nodes[best].mover >= 0:
                pv.append(self.nodes[best].action)
            node = best
        return pv
