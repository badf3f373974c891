# cython: language_level=3
"""Native kernel of Kuhn poker; the rules are those of ``aiplay.games.kuhn_poker.rules``.

Every rule here mirrors the reference engine (``games/kuhn_poker/rules.py``,
itself OpenSpiel's ``kuhn_poker``) step for step, and the differential test
checks it move by move; see that module for the rule statements. The state is
a few dozen bytes: the betting history is a bit mask (bit ``i`` set when the
``i``-th betting action was a bet) and its length, because at most
``2 * players - 1`` betting actions are ever played.
"""

from libc.stdint cimport int8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from aiplay._ext.kernel cimport K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, mix64, NativeState, Rng, rng_below

from aiplay.errors import InvalidStateError
from aiplay.game import require_list

cdef enum:
    PASS = 0
    BET = 1
    ANTE = 1
    MAX_CARDS = K_MAX_PLAYERS + 1


cdef struct KuhnC:
    uint32_t bet_mask               # bit i: the i-th betting action was a bet
    uint16_t used                   # bit c: card c has been dealt
    int8_t cards[K_MAX_PLAYERS]     # each seat's card, -1 until dealt
    int8_t stakes[K_MAX_PLAYERS]    # chips each seat has put in the pot
    int8_t dealt                    # seats 0..dealt-1 have their card
    int8_t num_acted                # betting actions so far (len(betting))
    int8_t first_bettor             # seat of the first bet, -1 while everyone checks
    int8_t winner                   # seat that takes the pot, -1 while the hand is on
    int8_t pot


cdef class KuhnPokerKernel(Kernel):
    """Kuhn poker for a fixed number of players (2..10); the deck has players + 1 cards."""

    cdef int players, num_cards

    def __init__(self, int players):
        self.state_size = sizeof(KuhnC)
        self.num_players = players
        self.num_distinct_actions = 2
        self.max_chance_outcomes = players + 1
        # Same bounds as KuhnPokerGame: lose the ante plus one bet at most, or
        # collect that from every opponent.
        self.min_utility = -2.0
        self.max_utility = 2.0 * (players - 1)
        self.perfect_information = False
        self.players = players
        self.num_cards = players + 1
        self._allocate_scratch()

    cdef void init_state(self, void* s) noexcept nogil:
        cdef KuhnC* st = <KuhnC*>s
        cdef int p
        memset(s, 0, sizeof(KuhnC))  # padding bytes too: state_hash reads raw bytes
        for p in range(K_MAX_PLAYERS):
            st.cards[p] = -1
        for p in range(self.players):
            st.stakes[p] = ANTE
        st.first_bettor = -1
        st.winner = -1
        st.pot = ANTE * self.players

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const KuhnC* st = <const KuhnC*>s
        if st.winner >= 0:
            return K_TERMINAL
        if st.dealt < self.players:
            return K_CHANCE
        return st.num_acted % self.players

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        out[0] = PASS
        out[1] = BET
        return 2

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef const KuhnC* st = <const KuhnC*>s
        # The reference's expression, so the probabilities agree to the bit.
        cdef double p = 1.0 / <double>(self.num_cards - st.dealt)
        cdef int card, n = 0
        for card in range(self.num_cards):
            if not (st.used >> card) & 1:
                outcomes[n] = card
                probs[n] = p
                n += 1
        return n

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        # Every undealt card is equally likely: pick the k-th one.
        cdef const KuhnC* st = <const KuhnC*>s
        cdef int k = rng_below(rng, self.num_cards - st.dealt)
        cdef int card
        for card in range(self.num_cards):
            if not (st.used >> card) & 1:
                if k == 0:
                    return card
                k -= 1
        return -1  # unreachable: k < the number of undealt cards

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef KuhnC* st = <KuhnC*>s
        cdef int player
        if st.dealt < self.players:  # a deal, to the next seat in order
            st.cards[st.dealt] = <int8_t>action
            st.used |= <uint16_t>(1 << action)
            st.dealt += 1
            return
        player = st.num_acted % self.players
        if action == BET:
            if st.first_bettor < 0:
                st.first_bettor = <int8_t>player
            st.stakes[player] += 1
            st.pot += 1
            st.bet_mask |= (<uint32_t>1) << st.num_acted
        st.num_acted += 1
        self._settle_if_over(st)

    cdef inline void _settle_if_over(self, KuhnC* st) noexcept nogil:
        """Set ``winner`` once the betting is complete (KuhnPokerState._settle_if_over)."""
        cdef int p, best = -1
        if st.first_bettor < 0:
            if st.num_acted != self.players:
                return
            # Everyone checked: showdown among all players.
            for p in range(self.players):
                if best < 0 or st.cards[p] > st.cards[best]:
                    best = p
        else:
            if st.num_acted != self.players + st.first_bettor:
                return
            # Everyone after the first bettor answered it once: the bettor and
            # the callers (stake above the ante) show down.
            for p in range(self.players):
                if st.stakes[p] > ANTE and (best < 0 or st.cards[p] > st.cards[best]):
                    best = p
        st.winner = <int8_t>best

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const KuhnC* st = <const KuhnC*>s
        cdef int p
        if st.winner < 0:
            for p in range(self.players):
                out[p] = 0.0
            return
        # Same float operations as the reference: -stake, then + pot for the winner.
        for p in range(self.players):
            out[p] = -<double>st.stakes[p]
        out[st.winner] += <double>st.pot

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # The reference information state is the player's card (once dealt)
        # followed by the betting; the betting is empty until every card is out,
        # so (own card, betting length, betting mask) determines it and vice
        # versa. They pack losslessly into 41 bits; the player is added so that
        # different seats' keys never meet in a shared table. A bijective mix of
        # an injective packing: equal keys <=> equal information states.
        cdef const KuhnC* st = <const KuhnC*>s
        cdef uint64_t code = (<uint64_t>(st.cards[player] + 1)          # 0..11: 4 bits
                              | (<uint64_t>player << 4)                  # 0..9: 4 bits
                              | (<uint64_t>st.num_acted << 8)            # 0..19: 5 bits
                              | (<uint64_t>st.bet_mask << 13))          # < 2**19
        return mix64(code ^ <uint64_t>0x6B75686E5F706B72)  # a fixed salt: code 0 must not map to 0

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # KuhnPokerState.determinize: the other dealt seats get an ordered
        # sample, without replacement, of the cards the observer has not seen
        # (every card but its own). A partial Fisher-Yates shuffle gives each
        # ordered sample the same probability as random.Random.sample. The
        # betting never depends on the cards, so no draw is rejected; only the
        # showdown is redone.
        cdef KuhnC* st = <KuhnC*>s
        cdef int unseen[MAX_CARDS]
        cdef int own = st.cards[observer]
        cdef int m = 0, i = 0, j, card, p, tmp
        for card in range(self.num_cards):
            if card != own:
                unseen[m] = card
                m += 1
        st.used = 0
        for p in range(st.dealt):
            if p != observer:
                j = i + rng_below(rng, m - i)
                tmp = unseen[i]
                unseen[i] = unseen[j]
                unseen[j] = tmp
                st.cards[p] = <int8_t>unseen[i]
                i += 1
            st.used |= <uint16_t>(1 << st.cards[p])
        if st.winner >= 0:  # the showdown follows the new cards
            st.winner = -1
            self._settle_if_over(st)
        return True

    cpdef dict to_dict(self, NativeState state):
        cdef KuhnC* st = <KuhnC*>state.data
        return {
            "cards": [st.cards[p] if p < st.dealt else None for p in range(self.players)],
            "betting": [(st.bet_mask >> i) & 1 for i in range(st.num_acted)],
            "pot": st.pot,
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # Replay the deal and the betting, as KuhnPokerGame.state_from_dict
        # does. The data normally comes validated; defence in depth, each
        # replayed move is checked to be legal where it is played (a deal at a
        # chance node, a bet while the hand is on), so no dict can make apply()
        # write past the state's arrays. Problems raise InvalidStateError.
        cdef KuhnC* st = <KuhnC*>state.data
        self.init_state(state.data)
        cards = require_list(data, "cards")
        if len(cards) != self.players:
            raise InvalidStateError("state.cards", f"must have {self.players} entries")
        for seat, card in enumerate(cards):
            if card is not None:  # dealt cards form a prefix
                if seat != st.dealt:
                    raise InvalidStateError(f"state.cards[{seat}]", "cards are dealt in seat order")
                self._replay(state, card, True, f"state.cards[{seat}]")
        for i, action in enumerate(require_list(data, "betting")):
            self._replay(state, action, False, f"state.betting[{i}]")

    cdef void _replay(self, NativeState state, object action, bint chance, str field) except *:
        """Apply ``action`` if it is a legal deal (``chance``) or bet right now, else raise."""
        cdef int player = self.current_player(state.data)
        cdef int n, i
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidStateError(field, f"must be an integer, got {action!r}")
        if player == K_TERMINAL or (player == K_CHANCE) != chance:
            raise InvalidStateError(field, "not the time for this move")
        if chance:
            n = self.chance_outcomes(state.data, self._scratch_actions, self._scratch_probs)
        else:
            n = self.legal_actions(state.data, self._scratch_actions)
        if action not in [self._scratch_actions[i] for i in range(n)]:
            raise InvalidStateError(field, f"{action!r} is not legal here")
        self.apply(state.data, action)

    def fill_tensor(self, NativeState state, int player, bint information_state, float[::1] out):
        """Write ``player``'s tensor (the layout of ``games/kuhn_poker/tensors.py``) into the zeroed ``out``.

        The native path of ``aiplay.tensors``: read straight from the C state
        (``tests/test_tensors.py`` checks it against OpenSpiel and the dict path).
        """
        cdef KuhnC* st = <KuhnC*>state.data
        cdef int n = self.players
        cdef int base = n + self.num_cards
        cdef int i, p
        out[player] = 1
        if player < st.dealt:
            out[n + st.cards[player]] = 1
        if information_state:
            for i in range(st.num_acted):
                out[base + 2 * i + ((st.bet_mask >> i) & 1)] = 1
        else:
            for p in range(n):
                out[base + p] = st.stakes[p]


def make_kernel(reference_game):
    """The kernel for a reference ``KuhnPokerGame`` (same number of players)."""
    return KuhnPokerKernel(reference_game.options["players"])
