"""What every searcher shares: the :class:`Bot` base class, the search
:class:`Budget`, and the :class:`Analysis` a search returns.

The :class:`Analysis` structure is a contract: the pure-Python reference bots
in :mod:`aiplay.search` and the native (Cython) bots return exactly the same
fields with the same meaning, so frontends, the CLI and the differential
tests can treat them alike. Its fields:

``bot``
    The bot kind that produced it (``"random"``, ``"mcts"``, ``"ismcts"``,
    ``"expectimax"``, ...), as :func:`aiplay.search.make_bot` spells it.
``player``
    The seat to move at the analysed state (the searching player).
``action``
    The chosen action; :meth:`Bot.choose` returns exactly this.
``value``
    The search's estimate of ``player``'s expected return after playing
    ``action`` (a mean of playouts for the tree searches, the backed-up
    value for expectimax), or ``None`` when the bot has no estimate
    (random).
``stats``
    One :class:`ActionStats` per legal action, in legal-action order.
``principal_variation``
    The expected line of play from the analysed state, as actions, starting
    with ``action``. Whether chance outcomes appear in it is per bot (see
    each bot's docstring); it may be just ``[action]``.
``counters``
    Search effort. Always has the keys ``iterations``, ``nodes`` (states
    stepped into, see :class:`Budget`), ``seconds`` and ``max_depth``
    (deepest node below the root, in plies, chance outcomes counted);
    ``None`` where a key does not apply to the bot. Bots add their own keys:
    MCTS and ISMCTS ``tree_nodes`` (nodes in the search tree, root
    included); expectimax ``tt_hits`` and ``completed_depth``. Every
    analysis has ``forced``: ``True`` when the position had one legal move,
    which a searching bot then plays at once without searching (its
    counters are zero and ``value`` is ``None``). Every
    analysis also says which search loop ran, in ``backend``: ``"native"``
    (the C search over a kernel) or ``"reference"`` (the Python loop). ``seconds`` is
    wall-clock time and is the only field of an analysis that is not
    reproducible from the seed.

Reproducibility: a bot built with the same seed and given the same sequence
of states returns the same sequence of analyses (``counters["seconds"]``
apart), provided its budget is made of iterations, nodes or depth; a
``seconds`` budget depends on machine speed and is not reproducible.
"""

from __future__ import annotations

import abc
import random
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Dict, List, Mapping, Optional

from aiplay.errors import AiplayError, BotBusyError, InvalidOptionError, NotDecisionNodeError
from aiplay.game import CHANCE, TERMINAL, State
from aiplay.limits import (  # noqa: F401 - re-exported: the bots' checks, in their old home
    MAX_C_INT, MAX_COUNT, check_bool, check_nonnegative_float, check_positive_int, check_seconds, check_seed,
)
from aiplay.rng import SeedLike

try:  # the native searches' stop flag; absent when the extensions are not built
    from aiplay._ext.cancel import Cancellation
except ImportError:  # pragma: no cover - a build without a compiler
    Cancellation = None  # type: ignore[assignment,misc]

#: Counter keys that every analysis carries (``None`` where not applicable).
COMMON_COUNTERS = ("iterations", "nodes", "seconds", "max_depth")


@dataclass(frozen=True)
class ActionStats:
    """What a search learned about one legal action at the analysed state.

    ``action``
        The action.
    ``visits``
        How many search iterations went through it (tree searches); ``None``
        for bots that do not sample (expectimax, random).
    ``value``
        The mean return of the acting player after this action (tree
        searches: over its visits; expectimax: its backed-up value at the
        last completed depth); ``None`` when unknown (unvisited, random bot).
    ``availability``
        ISMCTS only: in how many visits to the parent this action was legal
        in the sampled world (the ``n'`` of Cowling et al.); ``None`` for
        every other bot.
    """

    action: int
    visits: Optional[int] = None
    value: Optional[float] = None
    availability: Optional[int] = None


@dataclass(frozen=True)
class Analysis:
    """The result of one search; see the module docstring for the contract."""

    bot: str
    player: int
    action: int
    value: Optional[float]
    stats: List[ActionStats] = field(default_factory=list)
    principal_variation: List[int] = field(default_factory=list)
    counters: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        """The analysis as JSON-ready data (plain dicts, lists, numbers, ``None``)."""
        data = asdict(self)
        data["stats"] = [asdict(s) for s in self.stats]
        data["principal_variation"] = list(self.principal_variation)
        data["counters"] = dict(self.counters)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Analysis":
        """Rebuild an analysis from :meth:`to_dict` output (used to compare engines)."""
        return cls(
            bot=data["bot"],
            player=data["player"],
            action=data["action"],
            value=data["value"],
            stats=[ActionStats(**s) for s in data["stats"]],
            principal_variation=list(data["principal_variation"]),
            counters=dict(data["counters"]),
        )

    @property
    def principal_variation_names(self) -> List[str]:
        """The names of :attr:`principal_variation`'s moves, each in the position where it is played.

        :meth:`Bot.analyse` provides them (:func:`name_line`, from a copy of
        the searched state, on first use: naming replays the line, and on a
        native state it builds the reference engine's position, which costs
        more than a short search); an analysis built otherwise
        (``from_dict``) has none and gives ``[]``. Not a dataclass field, so
        :meth:`to_dict` and equality stay as they were.
        """
        names = self.__dict__.get("_pv_names")
        if names is None:
            source = self.__dict__.get("_pv_state")
            if source is None:
                return []
            names = name_line(source, self.principal_variation)
            object.__setattr__(self, "_pv_names", names)
            self.__dict__.pop("_pv_state", None)
        return list(names)

    def __getstate__(self) -> Dict[str, Any]:
        # A pickled analysis carries its names, not the state they are read from.
        self.principal_variation_names
        data = dict(self.__dict__)
        data.pop("_pv_state", None)
        return data

    def stats_for(self, action: int) -> ActionStats:
        """The :class:`ActionStats` of ``action``; ``KeyError`` if it was not legal."""
        for s in self.stats:
            if s.action == action:
                return s
        raise KeyError(action)


# -- option validation ------------------------------------------------------
# Bots validate every option in their constructor so that a bad value fails
# at once with a message naming the option, rather than deep inside a search.
# The checks live in aiplay.limits (one place for every entry point); they are
# importable from here too, where the bots have always found them.


@dataclass(frozen=True)
class Budget:
    """How much a search may spend. Any combination; the first limit reached stops it.

    ``iterations``
        Search iterations (one playout each for MCTS and ISMCTS).
    ``seconds``
        Wall-clock time. Not reproducible: the work done depends on the
        machine and its load.
    ``nodes``
        Game states the search steps into: the root plus one per action it
        applies (tree descent, chance outcomes and playouts for MCTS and
        ISMCTS; every child generated for expectimax). It measures work, the
        same way for every bot, and unlike a count of tree nodes it always
        grows, so a nodes budget always ends, even once a small game's tree
        is fully built. (Tree sizes are reported as ``tree_nodes``.)

    Every given value must be positive; ``None`` means no limit of that kind.
    The tree searches check the budget between iterations, so ``nodes`` and
    ``seconds`` may be exceeded by the last iteration; expectimax checks at
    every node and abandons the unfinished depth. A search always completes
    a minimum amount of work (one iteration, or one expectimax depth) so
    that it has a move to return.
    """

    iterations: Optional[int] = None
    seconds: Optional[float] = None
    nodes: Optional[int] = None

    def __post_init__(self) -> None:
        check_positive_int("iterations", self.iterations)
        check_positive_int("nodes", self.nodes)
        object.__setattr__(self, "seconds", check_seconds("seconds", self.seconds))

    @property
    def unlimited(self) -> bool:
        """True when no limit is set."""
        return self.iterations is None and self.seconds is None and self.nodes is None

    @property
    def reproducible(self) -> bool:
        """True when the budget does not depend on wall-clock time."""
        return self.seconds is None


class Meter:
    """Counts the work of one search against a :class:`Budget`.

    ``stop`` is the bot's stop event: once set (by :meth:`Bot.stop`, from any
    thread) the budget counts as spent.
    """

    __slots__ = ("budget", "start", "deadline", "iterations", "nodes", "stop")

    def __init__(self, budget: Budget, stop: Optional[threading.Event] = None):
        self.budget = budget
        self.start = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.start + budget.seconds
        self.iterations = 0
        self.nodes = 0
        self.stop = stop

    def exhausted(self) -> bool:
        """True once any limit of the budget is reached, or a stop was requested."""
        b = self.budget
        if b.iterations is not None and self.iterations >= b.iterations:
            return True
        if b.nodes is not None and self.nodes >= b.nodes:
            return True
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.start


class Bot(abc.ABC):
    """A player: given a state where it is to move, it picks an action.

    Subclasses implement :meth:`_analyse`; :meth:`analyse` wraps it, and
    :meth:`choose` returns its ``action``. Neither may mutate the state
    passed in. The bot owns a seeded generator (``seed``); each call draws an
    independent branch of it (:func:`aiplay.rng.branch`), so a bot built with
    the same seed replays the same moves for the same states.

    Threads: a bot runs one search at a time. A second thread that asks it to
    search while it is searching gets :class:`~aiplay.errors.BotBusyError`
    (use one bot per thread). :meth:`stop` may be called from any thread, and
    Ctrl-C (SIGINT) interrupts a search on either engine with
    ``KeyboardInterrupt``.
    """

    #: The name :func:`aiplay.search.make_bot` knows this bot by.
    kind: ClassVar[str] = ""
    #: True for bots that search: they answer a forced move (one legal
    #: action) at once, without searching (:meth:`_forced_move`).
    searches: ClassVar[bool] = False

    def __init__(self, seed: SeedLike = None):
        self._rng: random.Random = check_seed(seed)
        self._busy = threading.Lock()
        self._stop_event = threading.Event()
        # Shared by this bot's native searches (every worker), see stop().
        self._cancel: Optional[Any] = Cancellation() if Cancellation is not None else None

    def choose(self, state: State, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
               nodes: Optional[int] = None) -> int:
        """The action this bot plays at ``state`` (a decision node of any seat).

        ``iterations``, ``seconds``, ``nodes``: a budget for this call only (see :meth:`analyse`).
        """
        return self._search_call(state, iterations, seconds, nodes, True)

    def analyse(self, state: State, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                nodes: Optional[int] = None) -> Analysis:
        """Search ``state`` and report the chosen action and what the search learned.

        Per-call budget: when any of ``iterations``, ``seconds`` or ``nodes``
        is given, those limits replace the bot's budget for this call only
        (e.g. ``bot.choose(state, seconds=0.5)`` searches half a second,
        whatever the bot was built with); other search settings (an
        expectimax ``depth``, say) stay. Expectimax has no iterations and
        refuses them. :meth:`stop` from another thread ends the search early.

        Raises :class:`~aiplay.errors.NotDecisionNodeError` at a chance node
        or at the end of the game, and :class:`~aiplay.errors.BotBusyError`
        when the bot is already searching in another thread.
        """
        return self._search_call(state, iterations, seconds, nodes, False)

    def _search_call(self, state: State, iterations: Optional[int], seconds: Optional[float],
                     nodes: Optional[int], action_only: bool) -> Any:
        """:meth:`analyse`; with ``action_only``, :meth:`choose`: the same search, only the move."""
        if not isinstance(state, State):
            raise InvalidOptionError(f"{type(self).__name__} needs an aiplay State, got {state!r}")
        override = None
        if iterations is not None or seconds is not None or nodes is not None:
            if iterations is not None and self.kind in ITERATIONLESS:
                raise InvalidOptionError(
                    f"option iterations={iterations!r} is invalid for {type(self).__name__}, which has no "
                    f"iterations; limit it with seconds or nodes")
            override = Budget(iterations=iterations, seconds=seconds, nodes=nodes)
        if not self._busy.acquire(blocking=False):
            raise BotBusyError(
                f"this {type(self).__name__} is already searching in another thread; a bot runs one "
                f"search at a time: give each thread its own bot (stop() may be called from any thread)")
        # The searches read self.budget; bots without one (random, heuristic) spend nothing anyway.
        saved = self.__dict__.get("budget")
        try:
            if self._stop_event.is_set():  # clear() takes the event's lock: skip it when unset
                self._stop_event.clear()
            if self._cancel is not None:
                self._cancel.reset()
            if override is not None and saved is not None:
                self.budget = override
            analysis = self._forced_move(state) if self.searches else None
            if analysis is None:
                if action_only:
                    return self._choose_action(state)
                analysis = self._analyse(state)
            elif action_only:
                return analysis.action
            # A bot that does not search (random, heuristic) answers at once anyway; it still says so.
            analysis.counters.setdefault("forced", len(analysis.stats) == 1)
            # Which search loop ran: the C one ("native") or the readable Python one.
            analysis.counters.setdefault("backend", "reference")
            # Named on first use (principal_variation_names): most callers only want the move.
            object.__setattr__(analysis, "_pv_state", state.clone())
            return analysis
        finally:
            if override is not None and saved is not None:
                self.budget = saved
            self._busy.release()

    def stop(self) -> None:
        """End the running search soon (within about 50 ms); it returns its best move so far.

        Safe to call from any thread; does nothing when no search is running.
        """
        if self._busy.locked():
            self._stop_event.set()
            if self._cancel is not None:
                self._cancel.request_stop()

    @abc.abstractmethod
    def _analyse(self, state: State) -> Analysis:
        """The search itself (called with the bot's lock held)."""

    def _choose_action(self, state: State) -> int:
        """The action :meth:`_analyse` would choose (the lock held), drawing the same random numbers.

        A bot whose analysis costs more than its move (the native tree searches: a short leduc
        search is a few hundred microseconds, and the report's objects a tenth of that)
        overrides this to skip building what :meth:`choose` throws away.
        """
        return self._analyse(state).action

    #: Attributes holding a bot's native search machinery (trees and tables in C memory, rebuilt
    #: on the next native search): a pickled or copied bot starts without them.
    _NATIVE_CACHES: ClassVar[tuple] = ("_pool", "_native")

    def _forced_move(self, state: State) -> Optional[Analysis]:
        """The answer at a decision with one legal move, without searching; ``None`` otherwise.

        Searching a forced move only spends the budget (seconds of it, in a
        game with long chance runs) to learn nothing that changes the move.
        The analysis says so: ``counters["forced"]`` is ``True``, ``value``
        is ``None`` (nothing was estimated) and the counters are zero. The
        bot's generator is not drawn from, so a forced move never shifts the
        bot's later choices.
        """
        player = self._root_player(state)
        legal = state.legal_actions()
        if len(legal) != 1:
            return None
        action = legal[0]
        return Analysis(
            bot=self.kind, player=player, action=action, value=None,
            stats=[ActionStats(action=action, visits=0 if self.kind in ("mcts", "ismcts") else None)],
            principal_variation=[action],
            counters={"iterations": None if self.kind in ITERATIONLESS else 0, "nodes": 0, "seconds": 0.0,
                      "max_depth": 0, "forced": True},
        )

    def __getstate__(self) -> Dict[str, Any]:
        # A copy (pickle, deepcopy, a multiprocessing worker) is of an idle bot: its options, its
        # generator where it stands, and any Python search tree it keeps; it starts idle, with its
        # own lock, stop event and stop flag, and without the native caches (a tree kept for
        # reuse on the native path is not carried over).
        if self._busy.locked():
            raise BotBusyError(f"this {type(self).__name__} is searching; copy or pickle it when it is idle")
        data = dict(self.__dict__)
        for key in ("_busy", "_stop_event", "_cancel"):
            data.pop(key, None)
        for key in self._NATIVE_CACHES:
            if key in data:
                data[key] = None
        return data

    def __setstate__(self, data: Dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._busy = threading.Lock()
        self._stop_event = threading.Event()
        self._cancel = Cancellation() if Cancellation is not None else None

    # -- helpers for subclasses ---------------------------------------------
    @staticmethod
    def _root_player(state: State) -> int:
        """The seat to move at ``state``; :class:`NotDecisionNodeError` at a terminal or chance node."""
        player = state.current_player()
        if player == TERMINAL:
            raise NotDecisionNodeError("cannot choose a move: the game is over (terminal state)")
        if player == CHANCE:
            raise NotDecisionNodeError(
                "cannot choose a move at a chance node: apply a chance outcome first "
                "(e.g. aiplay.sample_chance_outcome(state, rng))")
        return player

    def _require_perfect_information(self, state: State, allowed: bool) -> None:
        """Refuse to search the true state of a hidden-information game unless ``allowed``.

        Searching the true state would read cards the player cannot see; that
        is only acceptable as a deliberate "cheating" baseline.
        """
        if not allowed and not state.game.perfect_information:
            raise InvalidOptionError(
                f"{type(self).__name__} searches the true state, which reveals hidden information "
                f"in {state.game.name!r}; use ISMCTSBot for hidden-information games, or pass "
                f"allow_hidden_information=True to search the true state as a cheating baseline")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


#: Bot kinds whose budget has no iterations (a per-call ``iterations`` is refused).
ITERATIONLESS = frozenset({"expectimax"})


def name_line(state: State, actions: List[int]) -> List[str]:
    """The names of a line of play from ``state`` (not mutated), each named where it is played.

    The line is followed on a copy while its moves are legal there; a move
    that is not (a hidden-information search's line runs through sampled
    worlds) is named in the last position reached, and the line is no longer
    followed. An id outside the game's action spaces is shown as its number.
    """
    names: List[str] = []
    scratch: Optional[State] = None
    following = True
    for action in actions:
        if scratch is None:
            scratch = state.clone()
        try:
            names.append(scratch.action_to_string(action))
        except Exception:  # naming is best-effort: a game may not name an id out of context
            names.append(str(action))
            following = False
            continue
        if following:
            try:
                scratch.apply_action(action)
            except AiplayError:  # not legal in the real position: stop following the line
                following = False
    return names


def drawn_by_visits(stats: List[ActionStats], rng: random.Random) -> ActionStats:
    """A move drawn in proportion to its visits: a mixed strategy's final move (Smooth UCT).

    With no visit at all (a search that never ran) the first move, as :func:`most_visited` gives.
    """
    total = sum(s.visits or 0 for s in stats)
    if total <= 0:
        return stats[0]
    r = rng.randrange(total)
    for s in stats:
        r -= s.visits or 0
        if r < 0:
            return s
    return stats[-1]  # unreachable: r < total


def most_visited(stats: List[ActionStats]) -> ActionStats:
    """The tree searches' final move: most visits; ties: higher value, then first in order."""
    best = stats[0]
    for s in stats[1:]:
        visits, best_visits = s.visits or 0, best.visits or 0
        if visits > best_visits or (
                visits == best_visits and s.value is not None
                and (best.value is None or s.value > best.value)):
            best = s
    return best
