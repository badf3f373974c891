# cython: language_level=3
"""Native kernel of Leduc poker; the rules are those of ``aiplay.games.leduc_poker.rules``.

Every rule here mirrors the reference engine (``games/leduc_poker/rules.py``,
itself OpenSpiel's ``leduc_poker``) step for step, options included
(``players``, ``action_mapping``, ``suit_isomorphism``, ``starting_player``);
the differential test checks it move by move. See that module for the rule
statements.

Each round's betting history is packed two bits per action (0 fold, 1 call,
2 raise) into one 64-bit word plus a length. A round has at most
``3 * players - 2`` actions (``players - 1`` checks, a raise, ``players - 2``
answers, a raise, ``players - 1`` answers), so 28 actions, 56 bits, for ten
players.
"""

from libc.stdint cimport int8_t, int16_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from aiplay._ext.kernel cimport K_CHANCE, K_MAX_PLAYERS, K_TERMINAL, Kernel, mix64, NativeState, Rng, rng_below

from aiplay.errors import InvalidStateError
from aiplay.game import require_list

cdef enum:
    FOLD = 0
    CALL = 1
    RAISE = 2
    ANTE = 1
    STARTING_MONEY = 100
    NUM_SUITS = 2
    MAX_RAISES = 2                              # per betting round
    MAX_OUTCOMES = (K_MAX_PLAYERS + 1) * NUM_SUITS
    NO_CARD = -1


cdef struct LeducC:
    uint64_t seq[2]                     # round 1 / round 2 actions, 2 bits each, first in the low bits
    int16_t contributions[K_MAX_PLAYERS]
    int16_t pot
    int16_t stakes                      # what each player must have put in to stay in
    uint16_t folded                     # bit p: seat p has folded
    int8_t private_cards[K_MAX_PLAYERS] # NO_CARD until dealt
    int8_t deck[MAX_OUTCOMES]           # copies left of each chance outcome
    int8_t seq_len[2]
    int8_t public_card                  # NO_CARD until dealt
    int8_t deck_size                    # physical cards left
    int8_t dealt                        # private cards dealt; seats 0..dealt-1 have theirs
    int8_t round                        # 1 or 2
    int8_t cur_player                   # seat to act, K_CHANCE while dealing; kept on the last actor at the end
    int8_t num_raises                   # this round
    int8_t num_calls                    # since the last raise, this round
    int8_t in_hand                      # players who have not folded


cdef class LeducPokerKernel(Kernel):
    """Leduc poker with fixed options (players, action_mapping, suit_isomorphism, starting_player)."""

    cdef int players, starting_player, num_ranks, num_outcomes, copies
    cdef bint action_mapping, suit_isomorphism

    def __init__(self, int players, bint action_mapping, bint suit_isomorphism, int starting_player):
        cdef int most_chips_in = ANTE + MAX_RAISES * (2 + 4)  # LeducPokerGame.most_chips_in
        self.state_size = sizeof(LeducC)
        self.num_players = players
        self.num_distinct_actions = 3
        self.num_ranks = players + 1
        # With suit isomorphism the outcomes are ranks, each with two copies.
        self.num_outcomes = self.num_ranks if suit_isomorphism else self.num_ranks * NUM_SUITS
        self.copies = NUM_SUITS if suit_isomorphism else 1
        self.max_chance_outcomes = self.num_outcomes
        self.min_utility = -<double>most_chips_in
        self.max_utility = <double>((players - 1) * most_chips_in)
        self.perfect_information = False
        self.players = players
        self.action_mapping = action_mapping
        self.suit_isomorphism = suit_isomorphism
        self.starting_player = starting_player
        self._allocate_scratch()

    # -- helpers (LeducPokerState's private methods) --------------------------
    cdef inline int _rank(self, int card) noexcept nogil:
        return card if self.suit_isomorphism else card // NUM_SUITS

    cdef inline bint _round_complete(self, const LeducC* st) noexcept nogil:
        if st.num_raises == 0:
            return st.num_calls == st.in_hand
        return st.num_calls == st.in_hand - 1

    cdef inline bint _is_over(self, const LeducC* st) noexcept nogil:
        return st.in_hand == 1 or (st.round == 2 and self._round_complete(st))

    cdef inline bint _facing_raise(self, const LeducC* st) noexcept nogil:
        return st.stakes > st.contributions[st.cur_player]

    cdef inline int _next_player(self, const LeducC* st) noexcept nogil:
        """The next seat still in after the current one, or from starting_player at a round's start."""
        cdef int start = self.starting_player - 1 if st.cur_player == K_CHANCE else st.cur_player
        cdef int i, seat
        for i in range(1, self.players + 1):
            seat = (start + i) % self.players  # start + i >= 0: C's % agrees with Python's
            if not (st.folded >> seat) & 1:
                return seat
        return -1  # unreachable: the hand ends when one player is left

    cdef inline int _strength(self, const LeducC* st, int player) noexcept nogil:
        # Orders hands as the reference's tuples (1, pair) > (0, high, low):
        # high * 16 + low < 176 <= 1000 + pair rank.
        cdef int own = self._rank(st.private_cards[player])
        cdef int public = self._rank(st.public_card)
        if own == public:
            return 1000 + own
        if own > public:
            return own * 16 + public
        return public * 16 + own

    cdef inline int _winners(self, const LeducC* st) noexcept nogil:
        """The seats sharing the pot once the hand is over, as a bit mask."""
        cdef int p, v, best = -1, mask = 0
        if st.in_hand == 1:
            for p in range(self.players):
                if not (st.folded >> p) & 1:
                    return 1 << p
        for p in range(self.players):
            if (st.folded >> p) & 1:
                continue
            v = self._strength(st, p)
            if v > best:
                best = v
                mask = 1 << p
            elif v == best:
                mask |= 1 << p
        return mask

    # -- the kernel interface -------------------------------------------------
    cdef void init_state(self, void* s) noexcept nogil:
        cdef LeducC* st = <LeducC*>s
        cdef int p, c
        memset(s, 0, sizeof(LeducC))  # padding bytes too: state_hash reads raw bytes
        for p in range(K_MAX_PLAYERS):
            st.private_cards[p] = NO_CARD
        for p in range(self.players):
            st.contributions[p] = ANTE
        for c in range(self.num_outcomes):
            st.deck[c] = <int8_t>self.copies
        st.public_card = NO_CARD
        st.deck_size = <int8_t>(self.num_ranks * NUM_SUITS)
        st.round = 1
        st.cur_player = K_CHANCE
        st.stakes = ANTE
        st.in_hand = <int8_t>self.players
        st.pot = ANTE * self.players

    cdef void clone_into(self, const void* src, void* dst) noexcept nogil:
        # A constant size: the compiler copies it inline (padding bytes included, which a struct
        # assignment need not do), where the generic memcpy of state_size bytes is a libc call,
        # one per search iteration.
        memcpy(dst, src, sizeof(LeducC))

    cdef int current_player(self, const void* s) noexcept nogil:
        cdef const LeducC* st = <const LeducC*>s
        return K_TERMINAL if self._is_over(st) else st.cur_player

    cdef int legal_actions(self, const void* s, int* out) noexcept nogil:
        cdef const LeducC* st = <const LeducC*>s
        cdef int n = 0
        if self.action_mapping:
            out[0] = FOLD
            out[1] = CALL
            out[2] = RAISE
            return 3
        if self._facing_raise(st):
            out[n] = FOLD
            n += 1
        out[n] = CALL
        n += 1
        if st.num_raises < MAX_RAISES:
            out[n] = RAISE
            n += 1
        return n

    cdef int chance_outcomes(self, const void* s, int* outcomes, double* probs) noexcept nogil:
        cdef const LeducC* st = <const LeducC*>s
        # copies * (1 / deck_size), as the reference: exactly OpenSpiel's p or p*2.
        cdef double p = 1.0 / <double>st.deck_size
        cdef int card, n = 0
        for card in range(self.num_outcomes):
            if st.deck[card]:
                outcomes[n] = card
                probs[n] = <double>st.deck[card] * p
                n += 1
        return n

    cdef int sample_chance(self, const void* s, Rng* rng) noexcept nogil:
        # Draw one physical card uniformly; its outcome has probability copies / deck_size.
        cdef const LeducC* st = <const LeducC*>s
        cdef int r = rng_below(rng, st.deck_size)
        cdef int card
        for card in range(self.num_outcomes):
            if r < st.deck[card]:
                return card
            r -= st.deck[card]
        return -1  # unreachable: the copies add up to deck_size

    cdef void apply(self, void* s, int action) noexcept nogil:
        cdef LeducC* st = <LeducC*>s
        if st.cur_player == K_CHANCE:
            self._deal(st, action)
        else:
            self._bet(st, action)

    cdef inline void _deal(self, LeducC* st, int card) noexcept nogil:
        st.deck[card] -= 1
        st.deck_size -= 1
        if st.dealt < self.players:
            st.private_cards[st.dealt] = <int8_t>card
            st.dealt += 1
            if st.dealt == self.players:
                st.cur_player = <int8_t>self.starting_player
        else:
            st.public_card = <int8_t>card
            st.cur_player = <int8_t>self._next_player(st)

    cdef inline void _bet(self, LeducC* st, int action) noexcept nogil:
        cdef int player = st.cur_player
        cdef int r = st.round - 1
        if self.action_mapping:
            # An illegal fold or raise is played (and recorded) as a call.
            if action == FOLD and not self._facing_raise(st):
                action = CALL
            elif action == RAISE and st.num_raises >= MAX_RAISES:
                action = CALL
        st.seq[r] |= (<uint64_t>action) << (2 * st.seq_len[r])
        st.seq_len[r] += 1
        if action == FOLD:
            st.folded |= <uint16_t>(1 << player)
            st.in_hand -= 1
        elif action == CALL:  # also a check when nothing is owed
            st.pot += st.stakes - st.contributions[player]
            st.contributions[player] = st.stakes
            st.num_calls += 1
        else:  # RAISE: match the stakes, then raise them (2 chips in round 1, 4 in round 2)
            st.stakes += 2 if st.round == 1 else 4
            st.pot += st.stakes - st.contributions[player]
            st.contributions[player] = st.stakes
            st.num_raises += 1
            st.num_calls = 0
        if self._is_over(st):
            return  # cur_player stays on the last actor (the information state shows it)
        if action != RAISE and self._round_complete(st):
            st.round = 2
            st.num_raises = 0
            st.num_calls = 0
            st.cur_player = K_CHANCE  # the public card comes next
        else:
            st.cur_player = <int8_t>self._next_player(st)

    cdef void returns(self, const void* s, double* out) noexcept nogil:
        cdef const LeducC* st = <const LeducC*>s
        cdef int p, winners, k = 0
        cdef double share, money
        if not self._is_over(st):
            for p in range(self.players):
                out[p] = 0.0
            return
        winners = self._winners(st)
        for p in range(self.players):
            k += (winners >> p) & 1
        # The reference's float operations in its order (OpenSpiel's money_):
        # stack = float(100 - chips in), plus pot / winners for each winner,
        # minus 100. Both divisions are correctly rounded, so results are
        # bit-identical, halves and thirds of a split pot included.
        share = <double>st.pot / <double>k
        for p in range(self.players):
            money = <double>(STARTING_MONEY - st.contributions[p])
            if (winners >> p) & 1:
                money += share
            out[p] = money - <double>STARTING_MONEY
        return

    cdef uint64_t info_hash(self, const void* s, int player) noexcept nogil:
        # The reference information state shows: the observer, its private
        # card, the round, cur_player, the pot, every stack, the public card
        # and both betting sequences. The pot and the chips in follow from the
        # sequences (betting never depends on the cards), and at the end the
        # stacks add who won: as the stacks are printed with 6 significant
        # digits and distinct winner sets differ by at least pot / 90 chips in
        # some stack, the winners' mask stands for them exactly. So the key
        # mixes exactly: observer, own card, round, cur_player, public card,
        # both sequences with their lengths, and the winners at the end.
        cdef const LeducC* st = <const LeducC*>s
        cdef uint64_t winners = <uint64_t>self._winners(st) if self._is_over(st) else 0
        cdef uint64_t head = (<uint64_t>player                              # 0..9: 4 bits
                              | (<uint64_t>(st.private_cards[player] + 1) << 4)  # 0..22: 5 bits
                              | (<uint64_t>st.round << 9)                   # 1..2: 2 bits
                              | (<uint64_t>(st.cur_player + 1) << 11)      # 0..10: 4 bits
                              | (<uint64_t>(st.public_card + 1) << 15)     # 0..22: 5 bits
                              | (<uint64_t>st.seq_len[0] << 20)            # 0..28: 5 bits
                              | (<uint64_t>st.seq_len[1] << 25)            # 0..28: 5 bits
                              | (winners << 30))                            # 10 bits
        # head is an injective packing; chaining the bijective mix over the
        # two sequence words leaves only 64-bit hash collisions.
        cdef uint64_t h = mix64(head ^ <uint64_t>0x6C656475635F706B)  # a salt: head 0 must not map to 0
        h = mix64(h ^ st.seq[0])
        return mix64(h ^ st.seq[1])

    cdef bint determinize(self, void* s, int observer, Rng* rng) noexcept nogil:
        # LeducPokerState.determinize: the other dealt seats get an ordered
        # sample, without replacement, of the cards the observer has not seen
        # (the deck as a list of physical cards, minus its own card and the
        # public card). A partial Fisher-Yates shuffle gives every ordered
        # sample the probability random.Random.sample gives it; shuffling the
        # already shuffled list again is just as uniform, so a rejected draw
        # needs no reset. After a showdown the stacks reveal the winners, so
        # draws are repeated until they give the same winners (the real deal
        # is one such draw, so this ends).
        cdef LeducC* st = <LeducC*>s
        cdef int unseen[MAX_OUTCOMES]
        cdef int own = st.private_cards[observer]
        cdef int m = 0, i, j, c, k, p, tmp, target = 0
        cdef bint showdown = self._is_over(st) and st.in_hand > 1
        cdef bint removed_own = own == NO_CARD
        cdef bint removed_public = st.public_card == NO_CARD
        for c in range(self.num_outcomes):
            for k in range(self.copies):
                # Drop one copy of each card the observer saw (list.remove).
                if not removed_own and c == own:
                    removed_own = True
                elif not removed_public and c == st.public_card:
                    removed_public = True
                else:
                    unseen[m] = c
                    m += 1
        if showdown:
            target = self._winners(st)
        # The deck follows the new cards: the old ones go back now, the new ones leave below.
        for p in range(st.dealt):
            if p != observer:
                st.deck[st.private_cards[p]] += 1
        while True:
            i = 0
            for p in range(st.dealt):
                if p != observer:
                    j = i + rng_below(rng, m - i)
                    tmp = unseen[i]
                    unseen[i] = unseen[j]
                    unseen[j] = tmp
                    st.private_cards[p] = <int8_t>unseen[i]
                    i += 1
            if not showdown or self._winners(st) == target:
                break
        for p in range(st.dealt):
            if p != observer:
                st.deck[st.private_cards[p]] -= 1
        return True

    cpdef dict to_dict(self, NativeState state):
        cdef LeducC* st = <LeducC*>state.data
        return {
            "private_cards": [st.private_cards[p] if p < st.dealt else None for p in range(self.players)],
            "public_card": None if st.public_card == NO_CARD else st.public_card,
            "round1": [(st.seq[0] >> (2 * i)) & 3 for i in range(st.seq_len[0])],
            "round2": [(st.seq[1] >> (2 * i)) & 3 for i in range(st.seq_len[1])],
            "pot": st.pot,
            "contributions": [st.contributions[p] for p in range(self.players)],
        }

    cpdef void load_dict(self, NativeState state, dict data) except *:
        # Replay the deal and the betting in the order they happened, as
        # LeducPokerGame.state_from_dict does. The data normally comes
        # validated; defence in depth, each replayed move is checked to be
        # strictly legal where it is played (a card still in the deck at a
        # chance node, a bet the rules allow), so no dict can make apply()
        # write past the deck or the seat arrays. Problems raise InvalidStateError.
        cdef LeducC* st = <LeducC*>state.data
        self.init_state(state.data)
        cards = require_list(data, "private_cards")
        if len(cards) != self.players:
            raise InvalidStateError("state.private_cards", f"must have {self.players} entries")
        for seat, card in enumerate(cards):
            if card is not None:  # dealt cards form a prefix
                if seat != st.dealt:
                    raise InvalidStateError(f"state.private_cards[{seat}]", "cards are dealt in seat order")
                self._replay(state, card, True, f"state.private_cards[{seat}]")
        for i, action in enumerate(require_list(data, "round1")):
            if st.round != 1:
                raise InvalidStateError(f"state.round1[{i}]", "the first round is over")
            self._replay(state, action, False, f"state.round1[{i}]")
        if "public_card" not in data:
            raise InvalidStateError("state.public_card", "missing")
        if data["public_card"] is not None:
            if st.round != 2 or st.dealt < self.players:
                raise InvalidStateError("state.public_card", "the first betting round is not over")
            self._replay(state, data["public_card"], True, "state.public_card")
        for i, action in enumerate(require_list(data, "round2")):
            if st.public_card == NO_CARD:
                raise InvalidStateError(f"state.round2[{i}]", "no second-round betting before the public card")
            self._replay(state, action, False, f"state.round2[{i}]")

    cdef void _replay(self, NativeState state, object action, bint chance, str field) except *:
        """Apply ``action`` if it is a deal of a card left (``chance``) or a strictly legal bet right now, else raise."""
        cdef LeducC* st = <LeducC*>state.data
        cdef int player = self.current_player(state.data)
        cdef int n, i
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidStateError(field, f"must be an integer, got {action!r}")
        if player == K_TERMINAL or (player == K_CHANCE) != chance:
            raise InvalidStateError(field, "not the time for this move")
        if chance:
            n = self.chance_outcomes(state.data, self._scratch_actions, self._scratch_probs)
            legal = [self._scratch_actions[i] for i in range(n)]
        else:
            # Recorded bets are never mapped ones (action_mapping plays an
            # illegal fold or raise as a call and records the call).
            legal = [CALL]
            if self._facing_raise(st):
                legal.append(FOLD)
            if st.num_raises < MAX_RAISES:
                legal.append(RAISE)
        if action not in legal:
            raise InvalidStateError(field, f"{action!r} is not legal here")
        self.apply(state.data, action)

    def fill_tensor(self, NativeState state, int player, bint information_state, float[::1] out):
        """Write ``player``'s tensor (the layout of ``games/leduc_poker/tensors.py``) into the zeroed ``out``.

        The native path of ``aiplay.tensors``: read straight from the C state
        (``tests/test_tensors.py`` checks it against OpenSpiel and the dict path).
        """
        cdef LeducC* st = <LeducC*>state.data
        cdef int n = self.players
        cdef int deck = self.num_outcomes
        cdef int base = n + 2 * deck
        cdef int moves = 3 * n - 2
        cdef int r, i, action, p
        out[player] = 1
        if player < st.dealt:
            out[n + st.private_cards[player]] = 1
        if st.public_card != NO_CARD:
            out[n + deck + st.public_card] = 1
        if information_state:
            for r in range(2):
                for i in range(st.seq_len[r]):
                    action = (st.seq[r] >> (2 * i)) & 3
                    if action == CALL or action == RAISE:  # a fold's pair stays zero, as in OpenSpiel
                        out[base + r * 2 * moves + 2 * i + (1 if action == RAISE else 0)] = 1
        else:
            for p in range(n):
                out[base + p] = st.contributions[p]


def make_kernel(reference_game):
    """The kernel for a reference ``LeducPokerGame`` (same options)."""
    opts = reference_game.options
    return LeducPokerKernel(opts["players"], opts["action_mapping"], opts["suit_isomorphism"],
                            opts["starting_player"])
