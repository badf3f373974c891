# cython: language_level=3
"""Native kernel of Pig; the rules are those of ``aiplay.games.pig.rules``.

Every rule here mirrors the reference engine line for line (the differential
test checks it move by move); see that module for the rule statements.
"""

from libc.stdint cimport int32_t, uint64_t

from aiplay._ext.kernel cimport K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, NativeState, Rng, rng_below

from aiplay.errors import InvalidStateError
from aiplay.game import check_int as _int, require_field as _get


cdef struct PigC:
    int32_t scores[K_MAX_PLAYERS]
    int32_t turn_total
    int32_t turn_player
    int32_t rolling        # a roll was chosen; the die is not resolved yet
    int32_t total_moves    # decisions made (OpenSpiel's horizon counts these)


cdef class PigKernel(Kernel):
    """Pig with fixed options (players, winscore, diceoutcomes, horizon, piglet)."""

    cdef int winscore, dice, horizon
    cdef bint piglet

    def __init__(self, int players, int winscore, int diceoutcomes, int horizon, bint piglet):
        self.state_size = sizeof(PigC)
        self.num_players = players
        self.num_distinct_actions = 2
        self.max_chance_outcomes = diceoutcomes  # as the reference (OpenSpiel's figure)
        self.min_utility = -1.0
        self.max_utility = 1.0
        self.perfect_information = True
        self.winscore = winscore
        self.dice = diceoutcomes
        self.horizon = horizon
        self.piglet = piglet
        self._allocate_scratch()

    cdef inline bint _over(self, const PigC* s) noexcept nogil:
        cdef int p
        if s.total_moves >= self.horizon:
            return True
        for p in range(self.num_players):
            if s.scores[p] >= self.winscore:
                return True
        return False

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const PigC* st = <const PigC*>s
        if self._over(st):
            return K_TERMINAL
        return K_CHANCE if st.rolling else st.turn_player

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const PigC* st = <const PigC*>s
        if st.scores[st.turn_player] + st.turn_total >= self.winscore:
            out[0] = 1  # only stop
            return 1
        out[0] = 0
        out[1] = 1
        return 2

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef int i
        if self.piglet:
            outcomes[0] = 0
            probs[0] = 1.0 / self.dice
            outcomes[1] = 1
            probs[1] = 1.0 - 1.0 / self.dice
            return 2
        for i in range(self.dice):
            outcomes[i] = i
            probs[i] = 1.0 / self.dice
        return self.dice

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        cdef int face = rng_below(rng, self.dice)
        if self.piglet:
            return 0 if face == 0 else 1
        return face

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef PigC* st = <PigC*>s
        if st.rolling:
            st.rolling = 0
            if action == 0:  # a 1: the turn total is lost and the turn passes
                st.turn_total = 0
                st.turn_player = (st.turn_player + 1) % self.num_players
            else:
                st.turn_total += 1 if self.piglet else action + 1
            return
        st.total_moves += 1
        if action == 0:
            st.rolling = 1
        else:
            st.scores[st.turn_player] += st.turn_total
            st.turn_total = 0
            st.turn_player = (st.turn_player + 1) % self.num_players

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const PigC* st = <const PigC*>s
        cdef int p, winner = -1
        for p in range(self.num_players):
            out[p] = 0.0
        if not self._over(st):
            return
        for p in range(self.num_players):
            if st.scores[p] >= self.winscore:
                winner = p
                break
        if winner < 0:
            return  # the horizon ended the game with no winner
        for p in range(self.num_players):
            out[p] = 1.0 if p == winner else -1.0 / (self.num_players - 1)

    cdef void evaluate(self, const void* s, double* out) noexcept nogil:
        # Same formula as PigState.heuristic_values: lead over the others' mean.
        cdef const PigC* st = <const PigC*>s
        cdef int p, n = self.num_players
        cdef long points[K_MAX_PLAYERS]
        cdef long total = 0
        cdef double v
        if self._over(st):
            self.returns(s, out)
            return
        for p in range(n):
            points[p] = st.scores[p]
        points[st.turn_player] += st.turn_total
        for p in range(n):
            total += points[p]
        for p in range(n):
            v = <double>(points[p] * n - total) / <double>((n - 1) * self.winscore)
            out[p] = -1.0 if v < -1.0 else (1.0 if v > 1.0 else v)

    cpdef dict to_dict(self, NativeState state):
        cdef PigC* st = <PigC*>state.data
        return {
            "scores": [st.scores[p] for p in range(self.num_players)],
            "turn_total": st.turn_total,
            "turn_player": st.turn_player,
            "rolling": bool(st.rolling),
            "total_moves": st.total_moves,
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # The data normally comes validated by PigGame.state_from_dict;
        # defence in depth, every value is range-checked before it is stored,
        # so that turn_player can never index past the scores and no sum
        # overflows. Problems raise InvalidStateError.
        cdef PigC* st = <PigC*>state.data
        cdef int p
        cdef int top = self.winscore - 1 + (1 if self.piglet else self.dice)
        self.init_state(st)
        scores = _get(data, "scores")
        if not isinstance(scores, list) or len(scores) != self.num_players:
            raise InvalidStateError("state.scores", f"must be a list of {self.num_players} scores")
        for p in range(self.num_players):
            st.scores[p] = _int(scores[p], 0, top, f"state.scores[{p}]")
        st.turn_total = _int(_get(data, "turn_total"), 0, top, "state.turn_total")
        st.turn_player = _int(_get(data, "turn_player"), 0, self.num_players - 1, "state.turn_player")
        rolling = _get(data, "rolling")
        if not isinstance(rolling, bool):
            raise InvalidStateError("state.rolling", "must be true or false")
        st.rolling = 1 if rolling else 0
        st.total_moves = _int(_get(data, "total_moves"), 0, self.horizon, "state.total_moves")


def make_kernel(reference_game):
    """The kernel for a reference ``PigGame`` (same options)."""
    opts = reference_game.options
    return PigKernel(opts["players"], opts["winscore"], opts["diceoutcomes"], opts["horizon"], opts["piglet"])
