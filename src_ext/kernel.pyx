# cython: language_level=3
"""Generic parts of the kernel interface, and the Python-facing native state.

:class:`NativeState` implements the same Python API as the reference
engines (``aiplay.game.State``), on top of any :class:`Kernel`. Methods that a
search calls often (clone, legal actions, apply) run in C; the rest (text,
views) go through the reference engine, so both engines print and parse
exactly the same way.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from aiplay.errors import (
    AiplayError, DeterminizationError, IllegalActionError, InvalidOptionError, InvalidStateError, NotDecisionNodeError,
)

#: Moves kept for replay on a cached reference state; past it the cache is dropped (see NativeState._reference).
MAX_REFERENCE_MOVES = 256
from aiplay.game import as_action, check_player, check_rng, state_to_json, state_tensor, string_to_action


cdef class Kernel:
    """Base of every game kernel; see ``kernel.pxd`` for the contract."""

    def __dealloc__(self):
        PyMem_Free(self._scratch_actions)
        PyMem_Free(self._scratch_probs)

    cdef void _allocate_scratch(self) except *:
        """Call once the sizes are set (end of a subclass ``__init__``)."""
        self.max_legal = max(self.num_distinct_actions, self.max_chance_outcomes)
        self._scratch_actions = <int*>PyMem_Malloc(self.max_legal * sizeof(int))
        self._scratch_probs = <double*>PyMem_Malloc(self.max_legal * sizeof(double))
        if self._scratch_actions == NULL or self._scratch_probs == NULL:
            raise MemoryError()

    cdef void init_state(self, void* s) noexcept nogil:
        memset(s, 0, self.state_size)

    cdef int current_player(self, const void* s) noexcept nogil:
        return K_TERMINAL

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        return 0

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        return 0

    cdef void apply(self, void* s, int action) noexcept nogil:
        pass

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef int p
        for p in range(self.num_players):
            out[p] = 0.0

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # Perfect information: a player's information set is the state itself.
        return self.state_hash(s)

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        return True

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        cdef int p
        for p in range(self.num_players):
            out[p] = 0.0

    cdef void evaluate_for(self, const void* s, int searcher, double* out) noexcept nogil:
        self.evaluate(s, out)

    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil:
        return legal[rng_below(rng, n_legal)]

    cdef bint utility_bounds(self, const void* s, double* lo, double* hi) noexcept nogil:
        return False

    cdef void clone_into(self, const void* src, void* dst) noexcept nogil:
        memcpy(dst, src, self.state_size)

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        # Generic inverse-CDF draw; kernels with uniform chance may override.
        cdef int outcomes[256]
        cdef double probs[256]
        cdef int n = self.chance_outcomes(s, outcomes, probs)
        cdef double r = rng_uniform(rng)
        cdef double acc = 0.0
        cdef int i
        for i in range(n - 1):
            acc += probs[i]
            if r < acc:
                return outcomes[i]
        return outcomes[n - 1]

    cdef uint64_t state_hash(self, const void* s) noexcept nogil:
        return hash_bytes(s, self.state_size, 0)

    cpdef dict to_dict(self, NativeState state):
        raise NotImplementedError(f"{type(self).__name__} does not implement to_dict")

    cpdef void load_dict(self, NativeState state, dict data) except *:
        raise NotImplementedError(f"{type(self).__name__} does not implement load_dict")

    # -- helpers for tests and benchmarks ------------------------------------
    def random_playouts(self, NativeState start, int count, uint64_t seed):
        """Play ``count`` uniformly random games from ``start`` in C; return the summed returns.

        Benchmarks compare this with the reference engine's playouts.
        """
        return self.playouts(start, count, seed, False)

    def playouts(self, NativeState start, int count, uint64_t seed, bint policy=False):
        """Play ``count`` games from ``start`` in C, uniformly random or (``policy``)
        with :meth:`policy_action` for every seat; return the summed returns."""
        cdef void* s = PyMem_Malloc(self.state_size)
        cdef int* actions = <int*>PyMem_Malloc(self.max_legal * sizeof(int))
        cdef double* values = <double*>PyMem_Malloc(K_MAX_PLAYERS * sizeof(double))
        cdef double totals[K_MAX_PLAYERS]
        cdef Rng rng
        cdef int g, p, n, player
        if s == NULL or actions == NULL or values == NULL or start.kernel is not self:
            PyMem_Free(s); PyMem_Free(actions); PyMem_Free(values)
            if start.kernel is not self:
                raise InvalidOptionError("the state belongs to another kernel")
            raise MemoryError()
        rng.s = seed
        for p in range(K_MAX_PLAYERS):
            totals[p] = 0.0
        with nogil:
            for g in range(count):
                self.clone_into(start.data, s)
                while True:
                    player = self.current_player(s)
                    if player == K_TERMINAL:
                        break
                    if player == K_CHANCE:
                        self.apply(s, self.sample_chance(s, &rng))
                    else:
                        n = self.legal_actions(s, actions)
                        if policy:
                            self.apply(s, self.policy_action(s, actions, n, &rng))
                        else:
                            self.apply(s, actions[rng_below(&rng, n)])
                self.returns(s, values)
                for p in range(self.num_players):
                    totals[p] += values[p]
        PyMem_Free(s); PyMem_Free(actions); PyMem_Free(values)
        return [totals[p] for p in range(self.num_players)]

    def policy_choice(self, NativeState state, uint64_t seed=0):
        """The playout policy's action at ``state`` (a decision node), for tests and tools."""
        cdef int player = self.current_player(state.data)
        cdef int n
        cdef Rng rng
        if state.kernel is not self:
            raise InvalidOptionError("the state belongs to another kernel")
        if player < 0:
            raise NotDecisionNodeError("policy_choice needs a state where a player is to move")
        rng.s = seed
        n = self.legal_actions(state.data, self._scratch_actions)
        return self.policy_action(state.data, self._scratch_actions, n, &rng)

    def utility_bounds_of(self, NativeState state):
        """Test hook: the kernel's ``(lo, hi)`` bounds on the returns reachable from ``state``, or None."""
        cdef double lo[K_MAX_PLAYERS]
        cdef double hi[K_MAX_PLAYERS]
        if state.kernel is not self:
            raise InvalidOptionError("the state belongs to another kernel")
        if not self.utility_bounds(state.data, lo, hi):
            return None
        return [lo[p] for p in range(self.num_players)], [hi[p] for p in range(self.num_players)]


def rng_stream(uint64_t seed, int n, int below=0):
    """Test hook: the first ``n`` draws of ``Rng`` seeded with ``seed``, as ``aiplay.kernel_rng`` reproduces them.

    ``below`` selects the helper: 0 for ``rng_next`` (64-bit words), -1 for
    ``rng_uniform`` (floats), a positive bound for ``rng_below(below)``.
    """
    cdef Rng rng
    cdef int i
    rng.s = seed
    if below > 0:
        return [rng_below(&rng, below) for i in range(n)]
    if below == -1:
        return [rng_uniform(&rng) for i in range(n)]
    if below == 0:
        return [rng_next(&rng) for i in range(n)]
    raise InvalidOptionError(f"below={below} is invalid; it accepts 0, -1 or a positive bound")


cdef class NativeState:
    """A game state held by a native kernel; the API is that of ``aiplay.game.State``."""

    def __cinit__(self):
        self.data = NULL

    def __dealloc__(self):
        PyMem_Free(self.data)

    @staticmethod
    def create(Kernel kernel, object game):
        """A new initial state of ``game`` (a ``NativeGame``) on ``kernel``."""
        cdef NativeState state = NativeState.__new__(NativeState)
        state.kernel = kernel
        state.game = game
        state.data = PyMem_Malloc(kernel.state_size)
        if state.data == NULL:
            raise MemoryError()
        kernel.init_state(state.data)
        return state

    @staticmethod
    def from_dict(Kernel kernel, object game, dict data):
        """A state loaded from the reference engine's dict form (already validated)."""
        cdef NativeState state = NativeState.create(kernel, game)
        kernel.load_dict(state, data)
        return state

    cdef NativeState _new_sibling(self):
        cdef NativeState other = NativeState.__new__(NativeState)
        other.kernel = self.kernel
        other.game = self.game
        other.data = PyMem_Malloc(self.kernel.state_size)
        if other.data == NULL:
            raise MemoryError()
        return other

    # -- the core contract ---------------------------------------------------
    def current_player(self):
        """The seat to act, CHANCE or TERMINAL."""
        return self.kernel.current_player(self.data)

    def is_terminal(self):
        """True once the game is over."""
        return self.kernel.current_player(self.data) == K_TERMINAL

    def is_chance_node(self):
        """True when the next action is a chance outcome."""
        return self.kernel.current_player(self.data) == K_CHANCE

    def legal_actions(self):
        """Sorted legal actions; the chance outcomes at a chance node; [] at the end."""
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(self.data)
        cdef int n, i
        if player == K_TERMINAL:
            return []
        if player == K_CHANCE:
            n = k.chance_outcomes(self.data, k._scratch_actions, k._scratch_probs)
            return sorted([k._scratch_actions[i] for i in range(n)])
        n = k.legal_actions(self.data, k._scratch_actions)
        return [k._scratch_actions[i] for i in range(n)]

    def chance_outcomes(self):
        """(outcome, probability) pairs at a chance node; [] elsewhere."""
        cdef Kernel k = self.kernel
        cdef int n, i
        if k.current_player(self.data) != K_CHANCE:
            return []
        n = k.chance_outcomes(self.data, k._scratch_actions, k._scratch_probs)
        return [(k._scratch_actions[i], k._scratch_probs[i]) for i in range(n)]

    def apply_action(self, action):
        """Play ``action``; raises IllegalActionError (state unchanged) when it is not legal."""
        cdef Kernel k = self.kernel
        cdef int player = k.current_player(self.data)
        cdef int n, i, a
        action = as_action(action, self)
        if player == K_TERMINAL:
            raise IllegalActionError(action, [], "the game is over")
        if player == K_CHANCE:
            n = k.chance_outcomes(self.data, k._scratch_actions, k._scratch_probs)
        else:
            n = k.legal_actions(self.data, k._scratch_actions)
        if -2147483648 <= action <= 2147483647:
            a = action
            for i in range(n):
                if k._scratch_actions[i] == a:
                    k.apply(self.data, a)
                    if self._reference_cache is not None:
                        self._record_move(a)
                    return
        raise IllegalActionError(action, self.legal_actions())

    def clone(self):
        """An independent copy (one memcpy)."""
        cdef NativeState other = self._new_sibling()
        self.kernel.clone_into(self.data, other.data)
        if self._reference_cache is not None:  # shared: a cached reference state is never modified
            other._reference_cache = self._reference_cache
            other._reference_moves = list(self._reference_moves)
            other._reference_hash = self._reference_hash
        return other

    def __copy__(self):
        return self.clone()

    def returns(self):
        """Each player's utility: final at the end, 0 before."""
        cdef double values[K_MAX_PLAYERS]
        cdef int p
        self.kernel.returns(self.data, values)
        return [values[p] for p in range(self.kernel.num_players)]

    def heuristic_values(self):
        """The kernel's static evaluation (equal to the reference engine's)."""
        cdef double values[K_MAX_PLAYERS]
        cdef int p
        self.kernel.evaluate(self.data, values)
        return [values[p] for p in range(self.kernel.num_players)]

    def heuristic_values_for(self, searcher):
        """The kernel's static evaluation as seat ``searcher``'s search scores a cut playout."""
        cdef double values[K_MAX_PLAYERS]
        cdef int p
        cdef int seat = check_player(searcher, self.kernel.num_players)
        self.kernel.evaluate_for(self.data, seat, values)
        return [values[p] for p in range(self.kernel.num_players)]

    def scores(self):
        """Each player's in-game score (from the reference engine's definition)."""
        return self._reference().scores()

    # -- hidden information --------------------------------------------------
    def information_state_key(self, player):
        """The kernel's 64-bit key of ``player``'s information set."""
        return self.kernel.info_hash(self.data, self._check_player(player))

    def state_key(self):
        """A 64-bit key of the full state (a hash of its bytes)."""
        return self.kernel.state_hash(self.data)

    def information_state_string(self, player):
        """Canonical text of what ``player`` knows (the reference engine's)."""
        return self._reference().information_state_string(self._check_player(player))

    def view(self, player):
        """The position as ``player`` sees it (the reference engine's view)."""
        return self._reference().view(self._check_player(player))

    def determinize(self, observer, rng):
        """A copy with what ``observer`` cannot see resampled from ``rng`` (a random.Random)."""
        cdef Rng r
        cdef int seat = self._check_player(observer)
        r.s = check_rng(rng).getrandbits(64)
        cdef NativeState other = self.clone()
        other._reference_cache = None  # another world: its reference state is built when asked for
        if not self.kernel.determinize(other.data, seat, &r):
            # Never hand back the position itself: it would show the hidden cards.
            raise DeterminizationError(f"no world consistent with seat {seat}'s knowledge could be sampled")
        return other

    def knowledge_violations(self, observer):
        """The ways this position contradicts ``observer``'s knowledge records (the reference engine's check)."""
        return self._reference().knowledge_violations(self._check_player(observer))

    def _check_player(self, player):
        return check_player(player, self.kernel.num_players)

    # -- text and serialization ----------------------------------------------
    def to_reference(self):
        """The same position in the reference engine, as a new state (slow; for text and checks)."""
        return self.game.reference.state_from_dict(self.kernel.to_dict(self))

    def _reference(self):
        """The reference engine's copy of this position, shared and read-only (callers here only read it).

        Loading it from the kernel's dict validates a whole position (17 ms
        for a long Area 1851 game), far too slow for every action's name. So
        it is loaded once, and kept in step afterwards by replaying this
        state's moves on a copy (microseconds a move; the two engines agree
        move for move). A state whose C data changed any other way (its hash
        no longer matches) is loaded again.
        """
        cdef uint64_t key = self.kernel.state_hash(self.data)
        cached = self._reference_cache
        if cached is not None and key == self._reference_hash:
            if not self._reference_moves:
                return cached
            try:
                fresh = cached.clone()
                for a in self._reference_moves:
                    fresh.apply_action(a)
            except AiplayError:  # cannot happen while the engines agree; then load it the slow way
                pass
            else:
                self._reference_cache = fresh
                self._reference_moves = []
                return fresh
        self.set_reference(self.to_reference())
        return self._reference_cache

    def set_reference(self, reference):
        """Adopt ``reference`` (the same position in the reference engine, not modified afterwards) as the cache.

        For the engine's own constructors (``new_initial_state``, a loaded
        document), which hold that state already.
        """
        self._reference_cache = reference
        self._reference_moves = []
        self._reference_hash = self.kernel.state_hash(self.data)

    cdef void _record_move(self, int action) except *:
        # Past MAX_REFERENCE_MOVES moves a replay costs about what a load does: drop the cache.
        if len(self._reference_moves) >= MAX_REFERENCE_MOVES:
            self._reference_cache = None
            self._reference_moves = None
            return
        self._reference_moves.append(action)
        self._reference_hash = self.kernel.state_hash(self.data)

    def action_to_string(self, action, viewer=None):
        """The reference engine's name of ``action`` in this state (as ``viewer`` sees it, when given)."""
        return self._reference().action_to_string(action, viewer)

    def redacted_action_name(self, action, viewer):
        """What seat ``viewer`` sees of ``action`` played here, None when it sees it exactly (the reference's)."""
        return self._reference().redacted_action_name(action, viewer)

    def string_to_action(self, text):
        """The legal action named ``text`` (action ids are the same on both engines)."""
        return string_to_action(self._reference(), text)

    def to_dict(self):
        """The full state in the reference engine's dict form."""
        return self.kernel.to_dict(self)

    def to_json(self):
        """The versioned JSON document (identical to the reference engine's)."""
        return state_to_json(self)

    def __str__(self):
        return str(self._reference())

    def __repr__(self):
        return f"<NativeState of {self.game.name}: player {self.current_player()}>"

    # -- pickling and copying ------------------------------------------------
    # A state is plain C data (clone() is one memcpy), so its bytes are its pickle;
    # aiplay.native stamps them with the kernel's build and checks it on loading.
    def _buffer(self):
        """The kernel's bytes of this position (``state_size`` of them)."""
        return (<char*>self.data)[:self.kernel.state_size]

    def _load_buffer(self, bytes data):
        """Overwrite this position with bytes from :meth:`_buffer` of a state of the same kernel build."""
        if len(data) != self.kernel.state_size:
            raise InvalidStateError(
                "<pickle>", f"{len(data)} bytes given, the {self.game.name!r} kernel's states have "
                f"{self.kernel.state_size}")
        memcpy(self.data, <const char*>data, self.kernel.state_size)
        self._reference_cache = None

    def __reduce__(self):
        return self.game.pickle_state(self)  # aiplay.native.NativeGame: its kernel's bytes, stamped with the build

    def __deepcopy__(self, memo):
        return self.clone()  # the game is shared: games never change once made

    # -- tensors ----------------------------------------------------------------
    # The game's encoding (aiplay.views.tensors) reads the position's dict form, the same on both engines.
    def information_state_tensor(self, player):
        """Everything ``player`` knows as a float32 NumPy array (see ``aiplay.views.tensors``)."""
        return state_tensor(self, player, "information_state")

    def observation_tensor(self, player):
        """What ``player`` observes now as a float32 NumPy array (see ``aiplay.views.tensors``)."""
        return state_tensor(self, player, "observation")
