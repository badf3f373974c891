# cython: language_level=3
"""The kernel interface: one fixed-size C state and nogil methods per game.

A kernel stores a whole position in ``state_size`` bytes of plain C data, so
that copying a state is one ``memcpy`` and a search can keep thousands of them
in flat arrays. Every method that a search calls per node is ``cdef ...
noexcept nogil``: the native searchers never touch a Python object in their
loop. A game's kernel subclasses :class:`Kernel` and overrides the methods
marked "per game"; the defaults here are generic.

Conventions shared with the Python API (``aiplay.game``):

* ``current_player`` returns a seat, ``K_CHANCE`` (-1) or ``K_TERMINAL`` (-4);
* ``legal_actions`` is only called at decision nodes and writes the actions in
  increasing order; ``chance_outcomes`` only at chance nodes;
* ``apply`` trusts its caller: the Python wrapper checks legality first;
* ``returns`` writes ``num_players`` doubles (zeros before the end);
* the state's bytes must be fully determined by the position (zero every
  padding byte on init), so that ``state_hash`` may hash the raw bytes;
* every nogil method is reentrant: it keeps no scratch data on the kernel, so
  several search threads can share one kernel (root-parallel search);
* ``sample_chance``'s default draws from at most 256 outcomes; a kernel with
  more chance outcomes overrides it.
"""

from libc.stdint cimport uint64_t

cdef enum:
    K_CHANCE = -1
    K_TERMINAL = -4
    K_MAX_PLAYERS = 10


cdef struct Rng:
    # splitmix64: tiny, fast and good enough for rollouts and deals.
    uint64_t s


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t z
    r.s += <uint64_t>0x9E3779B97F4A7C15
    z = r.s
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline double rng_uniform(Rng* r) noexcept nogil:
    """A double in [0, 1)."""
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    """An int in [0, n) (multiply-shift: no division, negligible bias for small n)."""
    return <int>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's finalizer: a bijection on 64-bit words (0 maps to 0: salt small codes)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t hash_bytes(const void* data, Py_ssize_t size, uint64_t seed) noexcept nogil:
    """FNV-1a over raw bytes, finished with mix64 for better high bits."""
    cdef const unsigned char* p = <const unsigned char*>data
    cdef uint64_t h = <uint64_t>14695981039346656037ULL ^ seed
    cdef Py_ssize_t i
    for i in range(size):
        h = (h ^ p[i]) * <uint64_t>1099511628211ULL
    return mix64(h)


cdef class NativeState


cdef class Kernel:
    """The per-game native engine. Attributes are fixed at construction."""

    cdef readonly int state_size            # bytes of one state
    cdef readonly int num_players
    cdef readonly int num_distinct_actions
    cdef readonly int max_chance_outcomes
    cdef readonly int max_legal             # max(num_distinct_actions, max_chance_outcomes)
    cdef readonly double min_utility
    cdef readonly double max_utility
    cdef readonly bint perfect_information
    cdef readonly bint has_policy           # policy_action is a game policy, not uniform random
    cdef int* _scratch_actions               # for the Python wrapper only (holds the GIL)
    cdef double* _scratch_probs

    cdef void _allocate_scratch(self) except *

    # --- per game -------------------------------------------------------
    cdef void init_state(self, void* s) noexcept nogil
    cdef int current_player(self, const void* s) noexcept nogil
    cdef int legal_actions(self, const void* s, int* out) noexcept nogil
    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil
    cdef void apply(self, void* s, int action) noexcept nogil
    cdef void returns(self, const void* s, double* out) noexcept nogil
    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil
    # Hidden information: resample what `observer` cannot see. Default: nothing hidden.
    # Returns False when no world consistent with the observer's knowledge was found:
    # ``s`` is then unspecified (it may still be the true state) and must not be used.
    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil
    # Static evaluation at a depth limit: one value per player, within the utility
    # bounds. Default: zeros. Must equal the reference state's heuristic_values().
    cdef void evaluate(self, const void* s, double* out) noexcept nogil
    # The same, as the search of seat ``searcher`` scores its cut playouts (a game may
    # weigh a position by the searching seat's role). Default: evaluate. Must equal the
    # reference state's heuristic_values_for(searcher).
    cdef void evaluate_for(self, const void* s, int searcher, double* out) noexcept nogil
    # Playout policy: one of the ``n_legal`` actions in ``legal`` (the state's
    # legal actions, in order) for the player to move. Default: uniformly
    # random. A game overrides it with a fast hand-written policy (then sets
    # ``has_policy``); searches use it for their rollouts on request.
    cdef int policy_action(self, const void* s, const int* legal, int n_legal, Rng* rng) noexcept nogil
    # Exact solving (aiplay.solve): per-player bounds on the returns of every terminal
    # state reachable from ``s``, whatever anyone plays and whatever chance draws:
    # ``lo[p] <= returns[p] <= hi[p]``. Returns False when the kernel knows no more than
    # the game's utility range (the default); a wrong bound makes the solver wrong, so a
    # kernel that overrides this proves each bound in a comment and tests it.
    cdef bint utility_bounds(self, const void* s, double* lo, double* hi) noexcept nogil

    # --- generic, overridable --------------------------------------------
    cdef void clone_into(self, const void* src, void* dst) noexcept nogil
    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil
    cdef uint64_t state_hash(self, const void* s) noexcept nogil

    # --- with the GIL: the bridge to the reference engine's JSON form -----
    cpdef dict to_dict(self, NativeState state)
    cpdef void load_dict(self, NativeState state, dict data) except *


cdef class NativeState:
    """A position held in C memory, with the Python State API on top."""

    cdef readonly Kernel kernel
    cdef readonly object game
    cdef void* data
    # The same position in the reference engine, built on demand for text and
    # views. It is never modified once built (clones share it): apply_action
    # records its moves in _reference_moves, and the next reader replays them on
    # a copy; _reference_hash (the kernel's state_hash after those moves) shows
    # that nothing else changed the C state meanwhile.
    cdef object _reference_cache
    cdef list _reference_moves
    cdef uint64_t _reference_hash

    cdef NativeState _new_sibling(self)
    cdef void _record_move(self, int action) except *
