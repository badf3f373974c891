"""The endgame solver: exact values, best moves and principal variations, chance included.

``aiplay.solve(state)`` computes the **max^n expectimax value** of a position:

* terminal: ``state.returns()``;
* chance node: the probability-weighted sum of every outcome's value (exact
  probabilities, outcomes in ``chance_outcomes()`` order);
* decision node: the value vector of the child that maximizes the mover's own
  component. **Tie-break:** values closer than :data:`TIE_EPS` (1e-12) count
  as equal, and among equal values the **lowest action id** wins (the first in
  legal order). Both engines, the principal variation and the tests follow
  this rule, so the native and the reference engine give the same value (to
  1e-9) and the same moves.

In a two-player constant-sum game (zero-sum included) this is the minimax
(expectiminimax) value.

Engines: on a native state (``aiplay.load(name)`` of a game with a kernel) the
search runs in C (``src_ext/expectimax.pyx``, class ``Solver``): max^n with
shallow pruning (alpha-beta with two players) where the game is constant-sum,
Star1/Star2 at chance nodes from the declared utility bounds (tightened by
per-position bounds where the kernel proves them: Sunken City once the end is
triggered, when a player can no longer catch up), move ordering from the
table's best move and the history heuristic (the action that most often
ended a node of that player early; optionally also the kernel's static
evaluation: ``ordering="heuristic"``), and a transposition table keyed by
the full-state hash. Ordering and pruning change the work, never the value
or the best move. On a reference state the
solver is a plain full-width search with a memo (:class:`ReferenceSolver`):
slow, but short enough to read, and the yardstick of the native one.

Budgets: with no ``seconds``/``nodes`` the solver searches to the end of the
game (a line longer than ``max_plies`` decisions and chance outcomes is cut
there and the answer is then marked ``exact=False``; nothing is cut
silently). With a budget it deepens iteratively (depths 1, 2, 3, 4, 6, 8, ...
then unlimited), the static evaluation scoring the leaves of each limited
pass; if the budget ends before a pass reaches every terminal state, the
answer is that of the last completed pass, with ``exact=False`` and the
utility range as ``bounds``.

Hidden information: by default the position is solved **as given**, every
card open (``perfect_information_assumed`` is then True for a game with hidden
information). With ``observer=p`` the solver averages exact solves of
``determinizations`` worlds drawn by ``state.determinize(p, rng)`` (``rng``
seeded by ``seed``) and reports the mean with its standard error;
``exact`` is False there.

Example positions (``games/<game>/positions/*.json``) are files of the form::

    {"description": "...", "position": <a state document (State.to_json)>,
     "value": [one exact value per player], "best_action": "<its name>"}

``aiplay solve FILE`` accepts such a file or a bare state document;
:func:`load_position` reads both.
"""

from __future__ import annotations

import importlib.util
import json
import math
import statistics
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence, Tuple, Union

from aiplay.errors import InvalidOptionError, InvalidStateError
from aiplay.game import CHANCE, TERMINAL, Game, State, check_player
from aiplay.jsonio import read_json_file
from aiplay.limits import (
    check_any_int, check_bool, check_choice, check_count, check_int, check_positive_int, check_seconds, check_tt_bits,
    shown,
)
from aiplay.match import Match
from aiplay.registry import load
from aiplay.rng import make_rng

try:
    from aiplay._ext.expectimax import Solver as _NativeSolver
    from aiplay._ext.kernel import NativeState as _NativeState
except ImportError:  # extensions not built: the reference engine only
    _NativeSolver = None  # type: ignore[assignment,misc]
    _NativeState = None  # type: ignore[assignment,misc]

#: Values closer than this are ties (the lowest action id wins).
TIE_EPS = 1e-12
#: Longest line (decisions and chance outcomes) an unlimited search follows.
MAX_PLIES = 4096
#: Depths of the iterative-deepening passes under a budget (then unlimited).
DEEPENING = (1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64)
#: Nodes of the principal-variation tree built by default.
PV_NODES = 400
#: Worlds averaged with ``observer=``.
DETERMINIZATIONS = 32
#: The most worlds one solve averages (their values are kept: a bound on its memory).
MAX_DETERMINIZATIONS = 1_000_000

Values = Tuple[float, ...]


# ---------------------------------------------------------------------------
# The answer
# ---------------------------------------------------------------------------

@dataclass
class PVNode:
    """One node of the principal-variation tree.

    ``kind`` is ``"decision"``, ``"chance"``, ``"terminal"`` or ``"open"`` (a
    node the tree stops at: the node budget ran out, or the solve was not
    exact). A decision node has one ``move`` (the best action: ``action``,
    ``name`` and the ``next`` node); a chance node has every outcome in
    ``outcomes`` (``action``, ``name``, ``probability``, ``next``).
    """

    kind: str
    player: int
    values: Values
    action: Optional[int] = None
    name: Optional[str] = None
    next: Optional["PVNode"] = None
    outcomes: List["PVOutcome"] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready nested data."""
        data: Dict[str, Any] = {"kind": self.kind, "player": self.player, "values": list(self.values)}
        if self.kind == "decision":
            data["action"] = self.action
            data["name"] = self.name
            data["next"] = None if self.next is None else self.next.to_dict()
        elif self.kind == "chance":
            data["outcomes"] = [o.to_dict() for o in self.outcomes]
        return data

    def lines(self, depth: Optional[int] = None, indent: str = "") -> List[str]:
        """Readable lines: decisions one per line, chance outcomes as indented branches.

        ``depth`` limits the number of decisions printed along any line.
        """
        out: List[str] = []
        node: Optional[PVNode] = self
        left = depth
        while node is not None:
            vals = _fmt_values(node.values)
            if node.kind == "terminal":
                out.append(f"{indent}end: returns {vals}")
                return out
            if node.kind == "open":
                out.append(f"{indent}... (value {vals})")
                return out
            if left is not None and left <= 0:
                out.append(f"{indent}... (value {vals})")
                return out
            if node.kind == "chance":
                out.append(f"{indent}chance (value {vals}):")
                for o in node.outcomes:
                    out.append(f"{indent}  [{o.name}] p={o.probability:.4g}")
                    if o.next is not None:
                        out.extend(o.next.lines(left, indent + "    "))
                return out
            out.append(f"{indent}player {node.player}: {node.name}  (value {vals})")
            node = node.next
            if left is not None:
                left -= 1
        return out


@dataclass
class PVOutcome:
    """One outcome of a chance node of the principal-variation tree."""

    action: int
    name: str
    probability: float
    next: Optional[PVNode]

    def to_dict(self) -> Dict[str, Any]:
        return {"action": self.action, "name": self.name, "probability": self.probability,
                "next": None if self.next is None else self.next.to_dict()}


@dataclass
class Solution:
    """What :func:`solve` found. See the module docstring for the value and the tie-break.

    ``values`` holds one expected return per player (within the game's utility
    range); ``exact`` is True only when the whole tree below the position was
    searched; ``bounds`` (one ``(low, high)`` per player) is given when it is
    not; ``best_action``/``best_action_name`` is the move to play at a
    decision node (None elsewhere); ``pv`` is the principal variation as a
    tree (:class:`PVNode`). ``standard_error`` is set for an ``observer``
    estimate (over ``determinizations`` worlds).
    """

    game: str
    player: int
    values: Values
    exact: bool
    best_action: Optional[int]
    best_action_name: Optional[str]
    pv: Optional[PVNode]
    bounds: Optional[List[Tuple[float, float]]]
    nodes: int
    seconds: float
    tt_hits: int
    engine: str
    perfect_information_assumed: bool = False
    observer: Optional[int] = None
    standard_error: Optional[Values] = None
    determinizations: int = 0
    completed_depth: Optional[int] = None
    notes: List[str] = field(default_factory=list)
    #: ``[{"action", "name", "values"}]``: every root move's exact value (decision nodes of an exact solve).
    move_values: Optional[List[Dict[str, Any]]] = None
    #: True when the solve was stopped (Ctrl-C, the protocol's ``stop``): the answer is the best so far.
    interrupted: bool = False

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready data (the ``--json`` output of ``aiplay solve``)."""
        return {
            "game": self.game, "player": self.player, "values": list(self.values), "exact": self.exact,
            "best_action": self.best_action, "best_action_name": self.best_action_name,
            "pv": None if self.pv is None else self.pv.to_dict(),
            "bounds": None if self.bounds is None else [list(b) for b in self.bounds],
            "nodes": self.nodes, "seconds": self.seconds, "tt_hits": self.tt_hits, "engine": self.engine,
            "perfect_information_assumed": self.perfect_information_assumed, "observer": self.observer,
            "standard_error": None if self.standard_error is None else list(self.standard_error),
            "determinizations": self.determinizations, "completed_depth": self.completed_depth,
            "notes": list(self.notes), "move_values": self.move_values, "interrupted": self.interrupted,
        }

    def pv_text(self, depth: Optional[int] = None) -> str:
        """The principal variation as indented text, ``depth`` decisions deep at most."""
        if self.pv is None:
            return "(no principal variation)"
        return "\n".join(self.pv.lines(depth))

    def summary(self) -> str:
        """The value, exactness and best move, without the PV."""
        who = {CHANCE: "chance", TERMINAL: "nobody (terminal)"}.get(self.player, f"player {self.player}")
        lines = [f"{self.game}: {who} to move"]
        kind = "exact" if self.exact else ("estimate" if self.observer is not None else "not exact")
        lines.append(f"value ({kind}): {_fmt_values(self.values)}")
        if self.standard_error is not None:
            lines.append(f"standard error: {_fmt_values(self.standard_error)} over {self.determinizations} "
                         f"determinizations for player {self.observer}")
        if self.bounds is not None:
            lines.append("bounds: " + ", ".join(f"[{lo:.6g}, {hi:.6g}]" for lo, hi in self.bounds))
        if self.best_action is not None:
            lines.append(f"best move: {self.best_action_name} (action {self.best_action})")
        if self.perfect_information_assumed:
            lines.append("hidden information: solved as given, all cards open (pass observer= to average "
                         "over what one player knows)")
        lines.append(f"search: {self.nodes:,} nodes, {self.tt_hits:,} table hits, {self.seconds:.3f} s "
                     f"({self.engine} engine)")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary() + "\nprincipal variation:\n" + self.pv_text(12)


def _fmt_values(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:.6g}" for v in values) + "]"


# ---------------------------------------------------------------------------
# Engines: solve one node exactly (or to a depth), with a shared table
# ---------------------------------------------------------------------------

class _Budget:
    """A seconds/nodes budget shared by every pass of one solve."""

    def __init__(self, seconds: Optional[float], nodes: Optional[int]):
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.nodes_left = nodes

    @property
    def unlimited(self) -> bool:
        return self.deadline is None and self.nodes_left is None

    def seconds_left(self) -> Optional[float]:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def spent(self) -> bool:
        left = self.seconds_left()
        return (left is not None and left <= 0) or (self.nodes_left is not None and self.nodes_left <= 0)


@dataclass
class _Pass:
    values: Values
    action: Optional[int]
    complete: bool
    exact: bool
    capped: bool
    nodes: int
    tt_hits: int


class _Aborted(Exception):
    """The reference search ran out of budget (or was asked to stop)."""


class _StopFlag:
    """The reference solver's stop flag: the native ``Cancellation``'s interface, in Python.

    ``request_stop()`` (from any thread) ends the running solve within 256 nodes, and every later
    one at once: a cancelled solve (a closed game, a client gone) frees its memory promptly.
    """

    def __init__(self) -> None:
        self.stop_requested = False

    def request_stop(self) -> None:
        self.stop_requested = True

    @property
    def stopping(self) -> bool:
        return self.stop_requested


class ReferenceSolver:
    """Plain full-width max^n expectimax over the public State API, with a memo.

    No pruning: every child of every node is searched, chance outcomes in
    order, and the memo (keyed by ``state.state_key()``) only avoids searching
    a position twice. Entries whose subtree never reached the depth limit are
    reused at any depth; others only at the depth they were searched with.
    """

    def __init__(self, game: Game, max_plies: int = MAX_PLIES):
        self.n = game.num_players
        self.max_plies = max_plies
        self.memo: Dict[Tuple[int, int], Tuple[Values, Optional[int], bool]] = {}
        self.whole: Dict[int, Tuple[Values, Optional[int]]] = {}
        self.nodes = 0
        self.tt_hits = 0
        self._limit: Optional[int] = None
        self._deadline: Optional[float] = None
        self._hit_limit = False
        self._capped = False
        #: ``cancel.request_stop()`` ends the search (like the native solver's ``Cancellation``).
        self.cancel = _StopFlag()

    def clear_table(self) -> None:
        self.memo.clear()
        self.whole.clear()

    def solve(self, state: State, depth: int = -1, seconds: float = -1.0, nodes: int = -1) -> Dict[str, Any]:
        """Same contract as the native ``Solver.solve``."""
        started = time.perf_counter()
        nodes0, hits0 = self.nodes, self.tt_hits
        self._limit = None if nodes < 0 else self.nodes + nodes
        self._deadline = None if seconds < 0 else started + seconds
        self._hit_limit = False
        self._capped = False
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 3 * self.max_plies + 200))
        try:
            values, action, _ = self._search(state, depth, 0)
            complete = True
        except _Aborted:
            values, action, complete = (0.0,) * self.n, None, False
        finally:
            sys.setrecursionlimit(old_limit)
        return {"player": state.current_player(), "values": list(values),
                "action": action if complete and state.current_player() >= 0 else None,
                "complete": complete, "exact": complete and not self._hit_limit, "capped": self._capped,
                "nodes": self.nodes - nodes0, "tt_hits": self.tt_hits - hits0,
                "seconds": time.perf_counter() - started}

    def _search(self, state: State, depth: int, ply: int) -> Tuple[Values, Optional[int], bool]:
        """(values, best action, whole subtree) of ``state``."""
        self.nodes += 1
        if self._limit is not None and self.nodes > self._limit:
            raise _Aborted
        if (self.nodes & 255) == 0 and (self.cancel.stop_requested or (
                self._deadline is not None and time.perf_counter() >= self._deadline)):
            raise _Aborted
        player = state.current_player()
        if player == TERMINAL:
            return tuple(float(r) for r in state.returns()), None, True
        if depth == 0 or ply + 2 >= self.max_plies + 2:
            if depth != 0:
                self._capped = True
            self._hit_limit = True
            return tuple(float(v) for v in state.heuristic_values()), None, False
        key = state.state_key()
        hit = self.whole.get(key)
        if hit is not None:
            self.tt_hits += 1
            return hit[0], hit[1], True
        hit2 = self.memo.get((key, depth))
        if hit2 is not None:
            self.tt_hits += 1
            self._hit_limit = True
            return hit2
        child_depth = depth - 1 if depth > 0 else depth
        whole = True
        best: Optional[int] = None
        if player == CHANCE:
            acc = [0.0] * self.n
            for outcome, prob in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                values, _, child_whole = self._search(child, depth, ply + 1)
                whole = whole and child_whole
                for i in range(self.n):
                    acc[i] += prob * values[i]
            result: Values = tuple(acc)
        else:
            result = ()
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                values, _, child_whole = self._search(child, child_depth, ply + 1)
                whole = whole and child_whole
                # Legal order and a strict margin: ties go to the lowest id.
                if best is None or values[player] > result[player] + TIE_EPS:
                    best, result = action, values
        if whole:
            self.whole[key] = (result, best)
        else:
            self.memo[(key, depth)] = (result, best, False)
        return result, best, whole


class _NativeEngine:
    """The C solver of one kernel, as :func:`solve` drives it."""

    def __init__(self, state: Any, pruning: str, ordering: str, tt_bits: int, max_plies: int, bounds: bool = True):
        game = state.game
        self.solver = _NativeSolver(state.kernel, bool(game.constant_sum), pruning, ordering, tt_bits, max_plies,
                                    None, bool(bounds))
        self.name = "native"

    def solve(self, state: Any, depth: int, seconds: float, nodes: int) -> Dict[str, Any]:
        return self.solver.solve(state, depth, seconds, nodes)


class _ReferenceEngine:
    def __init__(self, game: Game, max_plies: int):
        self.solver = ReferenceSolver(game, max_plies)
        self.name = "reference"

    def solve(self, state: Any, depth: int, seconds: float, nodes: int) -> Dict[str, Any]:
        return self.solver.solve(state, depth, seconds, nodes)


def _engine(state: State, backend: str, pruning: str, ordering: str, tt_bits: int, max_plies: int,
            bounds: bool = True) -> Tuple[Any, State]:
    """The engine for ``backend`` and the state in that engine's form."""
    if backend not in ("auto", "native", "reference"):
        raise InvalidOptionError(f"option backend={backend!r} is invalid; it accepts 'auto', 'native' or 'reference'")
    is_native = _NativeState is not None and isinstance(state, _NativeState)
    if backend == "native" and not is_native:
        raise InvalidOptionError(
            "backend='native' needs a state of a native engine (aiplay.load(name) of a game with a kernel)")
    if is_native and backend != "reference":
        return _NativeEngine(state, pruning, ordering, tt_bits, max_plies, bounds), state
    if is_native:  # the reference engine of the same position
        state = getattr(state.game, "reference").state_from_dict(state.to_dict())
    return _ReferenceEngine(state.game, max_plies), state


#: Called after each completed pass of iterative deepening: ``(depth or None, nodes so far, the pass)``.
Progress = Callable[[Optional[int], int, "_Pass"], None]


def _run(engine: Any, state: State, budget: _Budget, deepening: bool = True, stoppable: bool = False,
         progress: Optional[Progress] = None) -> Tuple[_Pass, Optional[int], bool]:
    """Solve ``state``: one unlimited pass, or iterative deepening under a budget (if ``deepening``).

    ``stoppable``: deepen even without a budget, so that a stop (the engine's cancel flag) or
    Ctrl-C between or during passes leaves the last completed pass as the best answer so far.
    Returns the last completed pass, its depth (None: unlimited) and whether the solve was stopped.
    """
    total_nodes = total_hits = 0

    def one(depth: int) -> _Pass:
        nonlocal total_nodes, total_hits
        secs = budget.seconds_left()
        r = engine.solve(state, depth, -1.0 if secs is None else secs,
                         -1 if budget.nodes_left is None else max(1, budget.nodes_left))
        total_nodes += r["nodes"]
        total_hits += r["tt_hits"]
        if budget.nodes_left is not None:
            budget.nodes_left -= r["nodes"]
        return _Pass(tuple(r["values"]), r["action"], r["complete"], r["exact"], r["capped"],
                     total_nodes, total_hits)

    if not deepening or (budget.unlimited and not stoppable):
        return one(-1), None, False
    last: Optional[_Pass] = None
    last_depth: Optional[int] = None
    stopped = False
    try:
        for depth in DEEPENING + (-1,):
            if last is not None and (budget.spent() or _stop_requested(engine)):
                stopped = _stop_requested(engine)
                break
            attempt = one(depth)
            if not attempt.complete:
                if last is None:  # not even depth 1 within the budget: report it unfinished
                    last, last_depth = attempt, depth
                stopped = _stop_requested(engine)
                break
            last, last_depth = attempt, (None if depth < 0 else depth)
            if attempt.exact:
                break
            if progress is not None:
                progress(last_depth, total_nodes, attempt)
    except KeyboardInterrupt:  # Ctrl-C, in a pass or between two: the last completed pass is the answer
        if last is None:
            raise
        stopped = True
    assert last is not None
    last.nodes, last.tt_hits = total_nodes, total_hits
    return last, last_depth, stopped


def _stop_requested(engine: Any) -> bool:
    cancel = getattr(getattr(engine, "solver", None), "cancel", None)
    return bool(getattr(cancel, "stopping", False))


def player_of(state: State) -> int:
    """``state.current_player()`` (a name for the one-liners above)."""
    return state.current_player()


def _clamp(values: Sequence[float], lo: float, hi: float) -> Values:
    """Values inside the utility range (float sums may leave it by ~1e-16)."""
    return tuple(min(hi, max(lo, float(v))) for v in values)


def _build_pv(engine: Any, state: State, root: _Pass, max_nodes: int, lo: float, hi: float) -> PVNode:
    """The principal-variation tree, breadth first, ``max_nodes`` nodes at most.

    Each node is solved again (mostly table hits) so that it carries its own
    exact value and best move; chance nodes list every outcome.
    """
    stopped = False

    def make(s: State, values: Optional[Values], action: Optional[int], parent: Values) -> PVNode:
        nonlocal stopped
        player = s.current_player()
        if player == TERMINAL:
            return PVNode("terminal", player, _clamp(s.returns(), lo, hi))
        if values is None:
            if stopped:
                return PVNode("open", player, parent)
            r = engine.solve(s, -1, -1.0, -1)
            if not r["complete"] or (player >= 0 and r["action"] is None):
                # A stop (the client's, or the protocol's deadline) arrived while the tree was being
                # built: the root's value stands, the rest of the line is left open.
                stopped = True
                return PVNode("open", player, parent)
            values, action = tuple(r["values"]), r["action"]
        kind = "chance" if player == CHANCE else "decision"
        node = PVNode(kind, player, _clamp(values, lo, hi))
        if kind == "decision":
            assert action is not None  # an exact solve names the best move of a decision node
            node.action, node.name = action, s.action_to_string(action)
        return node

    top = make(state, root.values, root.action, root.values)
    queue: Deque[Tuple[PVNode, State]] = deque([(top, state)])
    count = 1
    while queue:
        node, s = queue.popleft()
        if node.kind == "decision":
            if count >= max_nodes:
                node.next = PVNode("open", node.player, node.values)
                continue
            child = s.clone()
            assert node.action is not None
            child.apply_action(node.action)
            node.next = make(child, None, None, node.values)
            count += 1
            if node.next.kind != "open":
                queue.append((node.next, child))
        elif node.kind == "chance":
            for outcome, prob in s.chance_outcomes():
                child = s.clone()
                child.apply_action(outcome)
                name = s.action_to_string(outcome)
                if count >= max_nodes:
                    nxt = PVNode("open", child.current_player(), node.values)
                else:
                    nxt = make(child, None, None, node.values)
                    count += 1
                    if nxt.kind != "open":
                        queue.append((nxt, child))
                node.outcomes.append(PVOutcome(outcome, name, prob, nxt))
    return top


# ---------------------------------------------------------------------------
# The entry point
# ---------------------------------------------------------------------------

def solve(state: State, *, seconds: Optional[float] = None, nodes: Optional[int] = None,
          observer: Optional[int] = None, seed: int = 0, determinizations: int = DETERMINIZATIONS,
          backend: str = "auto", pruning: str = "star2", ordering: str = "table",
          pv_nodes: int = PV_NODES, tt_bits: int = 20, max_plies: int = MAX_PLIES,
          deepening: bool = True, bounds: bool = True, move_values: bool = False,
          stoppable: bool = False, progress: Optional[Progress] = None,
          on_engine: Optional[Callable[[Any], None]] = None) -> Solution:
    """Solve ``state`` (not modified); see the module docstring.

    ``seconds``/``nodes`` bound the whole solve (PV construction excluded);
    without them the solve is exact, however long it takes. ``observer``:
    average over ``determinizations`` worlds of that player's knowledge
    (``seed`` seeds the draws). ``backend``: ``"auto"`` (the state's own
    engine), ``"native"`` or ``"reference"``. ``pruning`` (``"star2"``,
    ``"star1"``, ``"none"``) and ``ordering`` (``"table"``: the table's best
    move first, then legal order; ``"heuristic"``: then by the kernel's static
    evaluation for the mover; ``"none"``) tune the native search, never its
    value. The default ``"table"`` searched fewer or as many nodes as
    ``"heuristic"`` on every shipped position (benchmarks/RESULTS.md, "Solver"). ``pv_nodes`` caps
    the principal-variation tree. ``deepening=False`` spends a budget on one
    unlimited pass (no depth-limited estimates first): the fastest exact solve,
    but no value if the budget ends first (the static evaluation is then
    reported, ``exact=False``). ``bounds=False`` ignores the per-position
    bounds that a kernel may prove (Sunken City does once the end is
    triggered); like the other tuning options it changes the work, never the
    value.

    ``move_values``: also solve every legal move of a decision node exactly
    (``Solution.move_values``; skipped when the root is not solved exactly; with a
    ``nodes`` budget, the moves share what the root left of it, and they are None,
    with a note, when it ends first).
    ``stoppable``: deepen even without a budget, so that Ctrl-C, or a stop
    through the engine's cancel flag (``on_engine`` receives the engine; its
    ``solver.cancel.request_stop()`` ends the solve), returns the best answer
    so far with ``interrupted=True`` and ``exact=False``. ``progress`` is
    called after each completed deepening pass with ``(depth, nodes, pass)``.
    """
    if not isinstance(state, State):
        raise InvalidOptionError(f"solve needs an aiplay State, got {type(state).__name__}")
    # The checks of aiplay.limits: a huge or non-finite number, or a wrong type, is an InvalidOptionError
    # here, never an OverflowError in the native solver's C counters (issue 37: nodes=2**63).
    seconds = check_seconds("seconds", seconds)
    nodes = check_positive_int("nodes", nodes)
    check_int("determinizations", determinizations, 2, MAX_DETERMINIZATIONS)
    check_positive_int("pv_nodes", pv_nodes, allow_none=False)
    for name, flag in (("move_values", move_values), ("stoppable", stoppable)):
        check_bool(name, flag)
    for name, hook in (("progress", progress), ("on_engine", on_engine)):
        if hook is not None and not callable(hook):
            raise InvalidOptionError(f"option {name}={shown(hook)} is invalid; it accepts a function or None")
    _check_tuning(seed, backend, pruning, ordering, tt_bits, max_plies, deepening, bounds)
    game = state.game
    lo, hi = float(game.min_utility), float(game.max_utility)
    budget = _Budget(seconds, nodes)
    if observer is not None:
        observer = check_player(observer, game.num_players)
        return _solve_observed(state, observer, seed, determinizations, budget, backend, pruning, ordering,
                               tt_bits, max_plies, lo, hi, bounds, on_engine)
    engine, state = _engine(state, backend, pruning, ordering, tt_bits, max_plies, bounds)
    if on_engine is not None:
        on_engine(engine)
    result, depth, stopped = _run(engine, state, budget, deepening, stoppable, progress)
    if not result.complete:  # no pass finished: the static evaluation is all there is
        result.values = tuple(state.heuristic_values()) if player_of(state) != TERMINAL else tuple(state.returns())
    elapsed = time.perf_counter() - budget.start
    player = state.current_player()
    notes: List[str] = []
    if result.capped:
        notes.append(f"a line is longer than max_plies={max_plies}: it was cut there, so the value is not exact")
    if stopped:
        where = "before the first pass ended" if not result.complete else f"after a depth-{depth} pass"
        notes.append(f"stopped {where}: the best answer so far, not exact")
        result.exact = False
    if not result.complete:
        notes.append("the budget ran out before the first pass ended: the value is the static evaluation")
    elif not result.exact and depth is not None and not stopped:
        notes.append(f"budget spent: value of a depth-{depth} search, the static evaluation scoring its leaves")
    pv: Optional[PVNode]
    if player == TERMINAL or not result.complete:
        pv = None if player != TERMINAL else PVNode("terminal", player, _clamp(state.returns(), lo, hi))
    elif result.exact:
        pv = _build_pv(engine, state, result, pv_nodes, lo, hi)
    else:  # an estimate: only the first move is meaningful
        pv = PVNode("chance" if player == CHANCE else "decision", player, _clamp(result.values, lo, hi))
        if player >= 0 and result.action is not None:
            pv.action, pv.name = result.action, state.action_to_string(result.action)
            pv.next = PVNode("open", player, pv.values)
    best = result.action if player >= 0 and result.complete else None
    values_of_moves: Optional[List[Dict[str, Any]]] = None
    if move_values and result.exact and player >= 0:
        values_of_moves = []
        try:
            for action in state.legal_actions():  # the table holds much of each child from the root's solve
                child = state.clone()
                child.apply_action(action)
                # A nodes budget covers the moves' values too: the root's value was proved with pruning,
                # and every other move's exact value can cost far more (6.9 million nodes against 0.1
                # million at a board game's last turns).
                left = budget.nodes_left
                r = engine.solve(child, -1, -1.0, -1 if left is None else max(1, left))
                result.nodes += r["nodes"]
                if left is not None:
                    budget.nodes_left = left - r["nodes"]
                if not r["exact"]:
                    notes.append("the node budget ended while valuing the moves: no move values "
                                 "(the root's value is exact)")
                    values_of_moves = None
                    break
                values_of_moves.append({"action": action, "name": state.action_to_string(action),
                                        "values": list(_clamp(r["values"], lo, hi))})
        except KeyboardInterrupt:
            stopped = True
            notes.append(f"stopped while valuing the moves: {len(values_of_moves or [])} of "
                         f"{len(state.legal_actions())} valued (the root's value is exact)")
    return Solution(
        game=game.name, player=player, values=_clamp(result.values, lo, hi), exact=result.exact,
        best_action=best, best_action_name=None if best is None else state.action_to_string(best),
        pv=pv, bounds=None if result.exact else [(lo, hi)] * game.num_players,
        nodes=result.nodes, seconds=elapsed, tt_hits=result.tt_hits, engine=engine.name,
        perfect_information_assumed=not game.perfect_information, completed_depth=depth, notes=notes,
        move_values=values_of_moves, interrupted=stopped)


#: The pruning and ordering options of the native search (the reference engine ignores them).
PRUNINGS = ("star2", "star1", "none")
ORDERINGS = ("table", "heuristic", "none")
#: The longest line a solve follows, in plies (the native solver keeps scratch per ply).
MAX_MAX_PLIES = 1_000_000


def _check_tuning(seed: Any, backend: Any, pruning: Any, ordering: Any, tt_bits: Any, max_plies: Any,
                  deepening: Any, bounds: Any) -> None:
    """Raise :class:`InvalidOptionError` naming the first bad tuning option (whichever engine runs)."""
    check_any_int("seed", seed)
    check_choice("backend", backend, ("auto", "native", "reference"))
    check_choice("pruning", pruning, PRUNINGS)
    check_choice("ordering", ordering, ORDERINGS)
    # The range here; the native solver also checks the table against the machine's memory.
    check_tt_bits(tt_bits, 0)
    check_count("max_plies", max_plies, 8, MAX_MAX_PLIES)
    for name, value in (("deepening", deepening), ("bounds", bounds)):
        check_bool(name, value)


def _solve_observed(state: State, observer: int, seed: int, count: int, budget: _Budget, backend: str,
                    pruning: str, ordering: str, tt_bits: int, max_plies: int, lo: float, hi: float,
                    bounds: bool = True, on_engine: Optional[Callable[[Any], None]] = None) -> Solution:
    """Average exact solves of ``count`` determinizations for ``observer``.

    A stop through the engine's cancel flag (``on_engine`` receives the engine) ends it after the
    worlds solved so far.
    """
    game = state.game
    rng = make_rng(seed)
    engine, _ = _engine(state, backend, pruning, ordering, tt_bits, max_plies, bounds)
    if on_engine is not None:
        on_engine(engine)
    player = state.current_player()
    samples: List[Values] = []
    per_action: Dict[int, List[float]] = {}
    nodes = hits = 0
    all_exact = True
    stopped = False
    for k in range(count):
        if _stop_requested(engine):
            stopped = True
            break
        world = state.determinize(observer, rng)
        if engine.name == "reference" and _NativeState is not None and isinstance(world, _NativeState):
            world = getattr(world.game, "reference").state_from_dict(world.to_dict())
        left = count - k
        secs = budget.seconds_left()
        share = _Budget(None if secs is None else secs / left,
                        None if budget.nodes_left is None else max(1, budget.nodes_left // left))
        result, _, _ = _run(engine, world, share)
        if budget.nodes_left is not None:
            budget.nodes_left -= result.nodes
        nodes += result.nodes
        hits += result.tt_hits
        if not result.complete or _stop_requested(engine):
            all_exact = False
            stopped = stopped or _stop_requested(engine)
            break
        all_exact = all_exact and result.exact
        samples.append(result.values)
        if player == observer and result.exact:
            # The observer's own move: each action's value in this world.
            for action in world.legal_actions():
                child = world.clone()
                child.apply_action(action)
                r = engine.solve(child, -1, -1.0, -1)
                nodes += r["nodes"]
                per_action.setdefault(action, []).append(r["values"][player])
        engine.solver.clear_table()
    n = len(samples)
    notes = [f"estimate over {n} determinizations for player {observer} (seed {seed}); each world solved "
             + ("exactly" if all_exact else "within the budget, not all exactly")]
    if n == 0 and stopped:
        raise InvalidOptionError("stopped before one determinization was solved: no estimate to report")
    if n == 0:
        raise InvalidOptionError("the budget ran out before one determinization was solved; give more time")
    means = tuple(statistics.fmean(s[i] for s in samples) for i in range(game.num_players))
    errors = tuple((statistics.stdev(s[i] for s in samples) / math.sqrt(n)) if n > 1 else float("inf")
                   for i in range(game.num_players))
    best: Optional[int] = None
    if per_action:
        for action in sorted(per_action):
            vals = per_action[action]
            if len(vals) != n:
                continue  # not legal in every world: the observer cannot rely on it
            mean = statistics.fmean(vals)
            if best is None or mean > statistics.fmean(per_action[best]) + TIE_EPS:
                best = action
    return Solution(
        game=game.name, player=player, values=_clamp(means, lo, hi), exact=False, best_action=best,
        best_action_name=None if best is None else state.action_to_string(best), pv=None,
        bounds=[(max(lo, m - 3 * e), min(hi, m + 3 * e)) for m, e in zip(means, errors)],
        nodes=nodes, seconds=time.perf_counter() - budget.start, tt_hits=hits, engine=engine.name,
        perfect_information_assumed=False, observer=observer, standard_error=errors, determinizations=n,
        notes=notes + (["stopped: the estimate of the worlds solved so far"] if stopped else []),
        interrupted=stopped)


# ---------------------------------------------------------------------------
# Position files
# ---------------------------------------------------------------------------

def load_position(path: Union[str, Path], backend: str = "auto") -> Tuple[State, Dict[str, Any]]:
    """Read a position file (see the module docstring) or a bare state document.

    Returns the state (on ``backend``'s engine) and the file's other fields
    (``value``, ``description``... ; empty for a bare document).
    """
    path = Path(path)
    # The guarded loader: a file of 5,000 nested brackets, NaN or 1e400 is an InvalidStateError, never a traceback.
    doc = read_json_file(path, lambda message: InvalidStateError("<document>", message))
    if not isinstance(doc, dict):
        raise InvalidStateError("<document>", f"{path} must hold a JSON object")
    extra: Dict[str, Any] = {}
    if doc.get("format") == "aiplay-match" or ("moves" in doc and "start" in doc and "state" not in doc):
        # A saved game (the human seat's `save`, Match.save): its current position.
        match = Match.from_record(doc, backend=backend)
        return match.state, {"description": f"{path}: the position after {match.ply} moves of a saved game"}
    if "position" in doc:
        extra = {k: v for k, v in doc.items() if k != "position"}
        doc = doc["position"]
        if not isinstance(doc, dict):
            raise InvalidStateError("position", "must be a state document (a JSON object)")
    for key in ("game", "options"):
        if key not in doc:
            raise InvalidStateError(key, "missing")
    if not isinstance(doc["options"], dict):
        raise InvalidStateError("options", "must be a JSON object")
    game = load(doc["game"], backend=backend, **doc["options"])
    # Options left out take their defaults: the document is read with the game's full options.
    doc = {**doc, "options": dict(game.options)}
    return game.state_from_json(json.dumps(doc)), extra


def example_positions() -> List[Path]:
    """The position files that ship with the games (``games/<game>/positions/*.json``)."""
    root = _games_folder()
    return [] if root is None else sorted(root.glob("*/positions/*.json"))


# ---------------------------------------------------------------------------
# The command line: aiplay solve FILE
# ---------------------------------------------------------------------------

def help_example() -> Optional[Path]:
    """The position that ``aiplay solve --help`` shows: the first shipped position file (sorted by path)
    that its game marks with ``"help_example": true`` (it ships with the package), or None."""
    for path in example_positions():
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("help_example") is True:
            return path
    return None


def _games_folder() -> Optional[Path]:
    """The installed games folder, found without importing (and registering) every game."""
    spec = importlib.util.find_spec("aiplay.games")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])






__all__ = ["PVNode", "PVOutcome", "ReferenceSolver", "Solution", "TIE_EPS",
           "example_positions", "load_position", "solve"]
