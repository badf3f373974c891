"""Depth-limited expectimax (max^n or paranoid) with a transposition table.

The value of a state is a *vector*, one expected return per player:

* terminal: ``state.returns()``;
* depth limit reached (remaining depth 0, checked before the chance test,
  so a chance node at the limit is evaluated too): ``evaluate(state)``;
* chance node: the probability-weighted sum of its outcomes' values, every
  outcome enumerated with its exact probability (``chance_outcomes()``);
* decision node, **max^n** (default): the child vector whose component for
  the player to move is largest; **paranoid**: the root player picks the
  child maximizing its own component, every other player the child
  *minimizing* the root player's component.

Ties go to the first action in legal order. Depth counts *decision* plies
only: chance nodes do not use it up. Both rules are those of OpenSpiel's
``open_spiel.python.algorithms.minimax.expectiminimax``, and on a two-player
zero-sum game with ``evaluate`` returning ``[v, -v]`` this search returns
exactly its values and moves (max^n and paranoid coincide there), as long as
no run of chance nodes is longer than ``chance_run``.

Runs of chance nodes are bounded (``chance_run``, default
:data:`DEFAULT_CHANCE_RUN`): a game may follow one decision with many chance
nodes in a row (Groom Lake deals six face-up cards after the keep, about 40^6
outcomes), and since they do not use up depth, "depth 2" would otherwise
enumerate all of them before the reply it was asked to see. The search
expands at most ``chance_run`` consecutive chance nodes; a chance node that
would lengthen the run further is a leaf, evaluated like one at the depth
limit (and, like it, makes the subtree inexact, so iterative deepening goes
on). So ``depth`` means decisions, and the work per decision ply stays
bounded on every game. ``chance_run=None`` lifts the bound (the plain
expectimax above, exact where it claims exactness). A chance node's value
depends on how long the run above it already is, so the table keys such
nodes by the run length too.

Transposition table, keyed by ``state.state_key()``: an entry stores the
value vector, the best action, the remaining depth it was searched with,
whether its subtree was *exact* (every leaf terminal, never cut by the depth
limit; stored as the number of decision plies the subtree actually needs)
and its principal variation. An entry is reused only when it was searched
with the same remaining depth, or when it is exact and the remaining depth
covers what it needs. Either way the reused values are exactly those a plain
search would compute, so the table changes the speed, never the answer
(barring a collision of the 64-bit keys, which the search does not guard
against: at these tree sizes it is vanishingly unlikely). The table lives for one :meth:`ExpectimaxBot.analyse` call (it is shared by the
iterations of iterative deepening) and is not bounded: this is a searcher
for small trees and shallow depths.

Iterative deepening: depths ``1, 2, ... depth`` while the budget (``seconds``
or ``nodes``) lasts; the answer is that of the last depth that completed.
A depth that runs out of budget is abandoned mid-way, except depth 1, which
always completes so that there is a move. Deepening also stops early when the
root is exact (the game is solved from here).
"""

from __future__ import annotations

import math
import random
import time
import zlib
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, TERMINAL, State, sample_chance_outcome
from aiplay.rng import SeedLike
from aiplay.search.base import (
    MAX_C_INT, ActionStats, Analysis, Bot, Budget, Meter, check_bool, check_positive_int,
)
from aiplay.search.native_path import native_kernel
from aiplay.search.tree_config import check_backend

try:
    from aiplay._ext.expectimax import ExpectimaxSearch
except ImportError:  # not built: the reference path only
    ExpectimaxSearch = None  # type: ignore[misc,assignment]

#: Pruning modes of the native path.
PRUNING = ("star2", "star1", "none")

#: Maximum depth when neither ``depth`` nor a ``seconds``/``nodes`` budget is given.
DEFAULT_DEPTH = 4
#: Longest run of consecutive chance nodes expanded by default (see the module docstring):
#: two dice, or a card and the next, are searched exactly; a longer run is cut there.
DEFAULT_CHANCE_RUN = 2
#: The time budget when no option limits the search at all (neither ``depth`` nor a
#: budget): :data:`DEFAULT_DEPTH` within this many seconds, so that a default bot never
#: stalls on a game with a wide tree, whatever the machine.
DEFAULT_SECONDS = 5.0
#: Maximum depth when only a ``seconds``/``nodes`` budget is given: deep
#: enough that the budget, not the depth, ends the search in any real game.
UNBOUNDED_DEPTH = 64
#: Largest ``depth`` accepted: the search recurses (a few Python frames per
#: ply), and deeper limits would risk the interpreter's recursion limit.
MAX_DEPTH = 200

Evaluate = Callable[[State], Sequence[float]]
# A search result: (value vector, best action or None, needed depth if exact else None, PV).
_Result = Tuple[Tuple[float, ...], Optional[int], Optional[int], Tuple[int, ...]]


class _Abort(Exception):
    """Raised inside the recursion when the budget runs out mid-iteration."""


def policy_leaf_value(state: State, moves: int, abort: Optional[Callable[[], bool]] = None) -> List[float]:
    """Play up to ``moves`` moves of the game's playout policy from ``state``, then evaluate.

    The generator is seeded by the position (CRC-32 of its JSON), so a leaf
    always gets the same value. The native search does the same with the
    kernel's policy and state hash (so the two paths need not agree here).
    ``abort`` is asked every 8 moves; True raises ``_Abort`` (the search discards the leaf).
    """
    world = state.clone()
    rng = random.Random(zlib.crc32(world.to_json().encode()))
    policy = world.game.heuristic_policy
    assert policy is not None  # leaf_playout is refused for games without a policy
    for move in range(moves):
        if abort is not None and move & 7 == 7 and abort():
            raise _Abort
        if world.is_terminal():
            break
        if world.is_chance_node():
            world.apply_action(sample_chance_outcome(world, rng))
        else:
            world.apply_action(policy(world, rng))
    return world.returns() if world.is_terminal() else world.heuristic_values()


class _Search:
    """The state of one :meth:`ExpectimaxBot.analyse` call: table, counters, budget."""

    def __init__(self, bot: "ExpectimaxBot", root_player: int, num_players: int):
        self.paranoid = bot.paranoid
        self.use_tt = bot.use_tt
        self.evaluate = bot.evaluate
        self.leaf_playout = bot.leaf_playout
        self.chance_run = bot.chance_run
        self.root_player = root_player
        self.num_players = num_players
        self.meter = Meter(bot.budget, bot._stop_event)
        self.may_abort = False  # off while the first depth runs: it must complete...
        # ...but once one root action is searched, a stop request or the deadline ends it (the
        # best of the actions searched is the answer): a depth-1 pass of hundreds of leaf
        # playouts took 27 s, far past a 2 s budget and deaf to bot.stop().
        self.root_answered = False
        self.root_cut = False  # the first pass ended that way (counters: completed_depth 0)
        self.tt: Dict[int, Tuple] = {}
        self.tt_hits = 0
        self.max_ply = 0

    def must_end(self) -> bool:
        """True when the search must stop now: the budget (deeper passes), a stop or the deadline."""
        meter = self.meter
        if self.may_abort:
            return meter.exhausted()
        if not self.root_answered:
            return False
        return ((meter.stop is not None and meter.stop.is_set())
                or (meter.deadline is not None and time.perf_counter() >= meter.deadline))

    def leaf_value(self, state: State) -> Tuple[float, ...]:
        if self.leaf_playout:
            return tuple(policy_leaf_value(state, self.leaf_playout, self.must_end))
        if self.evaluate is None:
            # The game's own static evaluation (zeros for a game without
            # one); the native kernels compute the very same figures.
            return tuple(state.heuristic_values())
        values = tuple(float(v) for v in self.evaluate(state))
        if len(values) != self.num_players:
            raise ValueError(
                f"evaluate returned {len(values)} values; it must return one per player "
                f"({self.num_players})")
        return values

    def search(self, state: State, depth: int, ply: int, run: int = 0) -> _Result:
        """The value of ``state`` searched ``depth`` decisions deep; ``run``: chance nodes just above it."""
        meter = self.meter
        meter.nodes += 1
        if ply > self.max_ply:
            self.max_ply = ply
        if self.must_end():
            raise _Abort
        player = state.current_player()
        if player == TERMINAL:
            return tuple(float(r) for r in state.returns()), None, 0, ()
        if depth == 0:
            return self.leaf_value(state), None, None, ()
        if player == CHANCE and self.chance_run is not None and run >= self.chance_run:
            return self.leaf_value(state), None, None, ()  # the run is cut here (inexact, like depth 0)

        key: Any = 0
        if self.use_tt:
            key = state.state_key()
            if player == CHANCE and run:
                key = (key, run)  # the run above changes what lies below
            entry = self.tt.get(key)
            if entry is not None:
                values, best, searched_depth, need, pv = entry
                if searched_depth == depth or (need is not None and need <= depth):
                    self.tt_hits += 1
                    return values, best, need, pv

        if player == CHANCE:
            acc = [0.0] * self.num_players
            need = 0
            best = None
            top_prob = -1.0
            pv = ()
            for outcome, prob in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                child_values, _, child_need, child_pv = self.search(child, depth, ply + 1, run + 1)
                for i in range(self.num_players):
                    acc[i] += prob * child_values[i]
                need = None if need is None or child_need is None else max(need, child_need)
                if prob > top_prob:  # the PV follows the most probable outcome (first in ties)
                    top_prob = prob
                    pv = (outcome,) + child_pv
            values = tuple(acc)
        else:
            values, best, need, pv = self.decide(state, player, depth, ply)

        if self.use_tt:
            self.tt[key] = (values, best, depth, need, pv)
        return values, best, need, pv

    def score(self, player: int, values: Sequence[float]) -> float:
        """What ``player`` maximizes at its decision nodes."""
        if self.paranoid:
            root = self.root_player
            # Everyone else minimizes the root player's value.
            return values[root] if player == root else -values[root]
        return values[player]

    def decide(self, state: State, player: int, depth: int, ply: int,
               per_action: Optional[List[Tuple[int, Tuple[float, ...]]]] = None) -> _Result:
        """Search every legal action; ``per_action`` (root only) collects each child's vector."""
        best_score = -math.inf
        best = None
        best_values: Tuple[float, ...] = ()
        best_pv: Tuple[int, ...] = ()
        need: Optional[int] = 0
        if per_action is not None:
            self.root_answered = False
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            try:
                child_values, _, child_need, child_pv = self.search(child, depth - 1, ply + 1)
            except _Abort:
                if per_action is None or self.may_abort:
                    raise
                need = None  # the first pass, cut by a stop or the deadline: the best so far (inexact)
                self.root_cut = True
                break
            if per_action is not None:
                per_action.append((action, child_values))
                self.root_answered = True
            need = None if need is None or child_need is None else max(need, child_need + 1)
            score = self.score(player, child_values)
            if score > best_score:  # strict: ties keep the first action
                best_score = score
                best = action
                best_values = child_values
                best_pv = (action,) + child_pv
        return best_values, best, need, best_pv


class ExpectimaxBot(Bot):
    """Expectimax with max^n or paranoid decisions, exact chance, TT and iterative deepening.

    See the module docstring for the algorithm. Options:

    ``depth``
        Maximum search depth in decision plies (an int from 1 to
        :data:`MAX_DEPTH`). Default: :data:`DEFAULT_DEPTH` within
        :data:`DEFAULT_SECONDS` when no budget is given either, else
        :data:`UNBOUNDED_DEPTH` (the budget decides). A ``depth`` given
        without a budget is searched to the end, however long it takes.
    ``seconds``, ``nodes``
        Budget for iterative deepening (``nodes`` counts states visited,
        table hits and leaves included). ``seconds`` is not reproducible.
    ``paranoid``
        ``False`` (max^n: each player maximizes its own return) or ``True``
        (the other players minimize the root player's return).
    ``evaluate``
        ``evaluate(state) -> [value per player]`` for non-terminal states at
        the depth limit (chance nodes included). Default: the game's
        ``state.heuristic_values()`` (all zeros for a game without one).
        A custom function forces the reference path.
    ``chance_run``
        The longest run of consecutive chance nodes searched exactly (an int
        from 1 to :data:`MAX_DEPTH`), default :data:`DEFAULT_CHANCE_RUN`; a
        chance node beyond it is evaluated as a leaf. ``None``: no bound (the
        plain expectimax; may be slow where chance nodes come in long runs).
    ``leaf_playout``
        ``None`` (default) or a number of moves: at the depth limit, let the
        game's playout policy (on a native engine, the kernel's) play that
        many more moves, chance sampled from a generator seeded by the
        position, then evaluate. For games whose turns are long series of
        small decisions, where a shallow search would otherwise judge
        half-made turns. Needs a game with a playout policy.
    ``use_tt``
        Use the transposition table (default ``True``); the answer is the
        same either way.
    ``seed``
        Accepted for a uniform interface; the search is deterministic.
    ``allow_hidden_information``
        Search the true state of a hidden-information game anyway (it then
        reads hidden cards: a cheating baseline). Without it such games raise
        :class:`~aiplay.errors.InvalidOptionError`.
    ``pruning``, ``backend``
        Native path (the state lives in a kernel, ``evaluate`` is the default
        and ``backend`` is ``"auto"`` or ``"native"``): the search runs in C
        (``src_ext/expectimax.pyx``) with ``pruning`` ``"star2"`` (default),
        ``"star1"`` or ``"none"``. Pruning applies to paranoid search, which
        a two-player constant-sum game (zero-sum included) always gets
        (max^n is the same there); it changes the work, never the value. The native table has a fixed size
        (2^18 entries, always replaced). Values equal the reference path's.

    The analysis: ``value`` is the root player's component of the chosen
    action's vector; ``stats`` gives each legal action's value for the root
    player (``visits=None``) at the last completed depth;
    ``principal_variation`` is the best line, through the most probable
    outcome at chance nodes; ``counters`` has ``nodes``, ``seconds``,
    ``max_depth`` (deepest ply visited, chance counted), ``tt_hits``,
    ``completed_depth`` and ``iterations=None``.
    """

    kind = "expectimax"
    searches = True

    def __init__(self, *, depth: Optional[int] = None, seconds: Optional[float] = None,
                 nodes: Optional[int] = None, iterations: Optional[int] = None,
                 seed: SeedLike = None, paranoid: bool = False, evaluate: Optional[Evaluate] = None,
                 use_tt: bool = True, allow_hidden_information: bool = False,
                 pruning: str = "star2", backend: str = "auto", leaf_playout: Optional[int] = None,
                 chance_run: Optional[int] = DEFAULT_CHANCE_RUN):
        """Build the bot; raises :class:`~aiplay.errors.InvalidOptionError` for a bad option."""
        super().__init__(seed)
        self.leaf_playout = 0 if leaf_playout is None else check_positive_int(
            "leaf_playout", leaf_playout, allow_none=False, maximum=MAX_C_INT)
        if self.leaf_playout and evaluate is not None:
            raise InvalidOptionError("options leaf_playout and evaluate exclude each other: give one")
        if iterations is not None:
            raise InvalidOptionError(
                f"option iterations={iterations!r} is invalid for ExpectimaxBot, which has no "
                f"iterations; limit it with depth, nodes or seconds")
        self.budget = Budget(seconds=seconds, nodes=nodes)
        depth = check_positive_int("depth", depth)
        if depth is not None and depth > MAX_DEPTH:
            raise InvalidOptionError(
                f"option depth={depth!r} is invalid; it accepts an integer from 1 to {MAX_DEPTH} or None")
        if depth is None:
            if self.budget.unlimited:
                depth = DEFAULT_DEPTH
                self.budget = Budget(seconds=DEFAULT_SECONDS)
            else:
                depth = UNBOUNDED_DEPTH
        self.depth: int = depth
        chance_run = check_positive_int("chance_run", chance_run)
        if chance_run is not None and chance_run > MAX_DEPTH:
            raise InvalidOptionError(
                f"option chance_run={chance_run!r} is invalid; it accepts an integer from 1 to {MAX_DEPTH} "
                f"or None")
        self.chance_run: Optional[int] = chance_run
        self.paranoid = check_bool("paranoid", paranoid)
        self.use_tt = check_bool("use_tt", use_tt)
        self.allow_hidden_information = check_bool("allow_hidden_information", allow_hidden_information)
        if evaluate is not None and not callable(evaluate):
            raise InvalidOptionError(
                f"option evaluate={evaluate!r} is invalid; it accepts a function "
                f"state -> one value per player, or None")
        self.evaluate: Optional[Evaluate] = evaluate
        if pruning not in PRUNING:
            raise InvalidOptionError(f"option pruning={pruning!r} is invalid; it accepts one of {list(PRUNING)}")
        self.pruning = pruning
        self.backend = check_backend(backend)
        if evaluate is not None and backend == "native":
            raise InvalidOptionError(
                "option evaluate cannot be used with backend='native': the native search calls the "
                "kernel's own evaluation; use backend='auto' or 'reference'")
        self._native: Optional[Any] = None

    def _analyse(self, state: State) -> Analysis:
        """Search ``state`` (not mutated) by iterative deepening and report the last completed depth."""
        player = self._root_player(state)
        self._require_perfect_information(state, self.allow_hidden_information)
        if self.leaf_playout and getattr(state.game, "heuristic_policy", None) is None:
            raise InvalidOptionError(
                f"leaf_playout needs a playout policy, and {state.game.name!r} has none")
        if self.evaluate is None:
            kernel = native_kernel(state, self.backend)
            if kernel is not None:
                return self._analyse_native(state, kernel, player)
        search = _Search(self, player, state.game.num_players)
        search.meter.nodes = 1  # the root
        completed_depth = 0
        result: Optional[_Result] = None
        per_action: List[Tuple[int, Tuple[float, ...]]] = []
        for depth in range(1, self.depth + 1):
            search.may_abort = depth > 1
            if depth > 1 and search.meter.exhausted():
                break
            attempt: List[Tuple[int, Tuple[float, ...]]] = []
            try:
                outcome = search.decide(state, player, depth, 0, attempt)
            except _Abort:
                break  # keep the last completed depth's answer
            result, per_action, completed_depth = outcome, attempt, depth
            if result[2] is not None:  # exact: deeper searches would change nothing
                break
        assert result is not None  # depth 1 cannot abort
        values, best, _, pv = result
        assert best is not None  # a decision node has a best action
        stats = [ActionStats(action=a, visits=None, value=v[player]) for a, v in per_action]
        return Analysis(
            bot=self.kind, player=player, action=best, value=values[player],
            stats=stats, principal_variation=list(pv),
            counters={"iterations": None, "nodes": search.meter.nodes,
                      "seconds": search.meter.elapsed(), "max_depth": search.max_ply,
                      "tt_hits": search.tt_hits, "completed_depth": 0 if search.root_cut else completed_depth,
                      # A cut first pass may have searched one action: that is not a forced move.
                      "forced": False},
        )

    def _analyse_native(self, state: Any, kernel: Any, player: int) -> Analysis:
        game = state.game
        paranoid = self.paranoid or (game.num_players == 2 and game.constant_sum)
        if self._native is None or self._native[0] is not kernel:
            if self.leaf_playout and not kernel.has_policy:
                raise InvalidOptionError(
                    f"leaf_playout needs a playout policy, and the {game.name!r} kernel has none; "
                    "use backend='reference'")
            search = ExpectimaxSearch(kernel, self.pruning, paranoid, self.use_tt, 18, self.leaf_playout,
                                      self._cancel, -1 if self.chance_run is None else self.chance_run)
            self._native = (kernel, search)
        search = self._native[1]
        search.clear_table()  # one table per call, as on the reference path
        result = search.run(
            state, self.depth,
            -1.0 if self.budget.seconds is None else self.budget.seconds,
            -1 if self.budget.nodes is None else self.budget.nodes)
        stats = [ActionStats(action=a, visits=None, value=v)
                 for a, v in zip(result["actions"], result["values"])]
        return Analysis(
            bot=self.kind, player=player, action=result["action"], value=result["value"],
            stats=stats, principal_variation=result["principal_variation"],
            counters={**result["counters"], "backend": "native"},
        )

    def __repr__(self) -> str:
        return (f"ExpectimaxBot(depth={self.depth}, budget={self.budget}, paranoid={self.paranoid}, "
                f"use_tt={self.use_tt}, leaf_playout={self.leaf_playout or None}, chance_run={self.chance_run})")
