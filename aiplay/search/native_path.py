"""The native path of the searchers: the same bots, run by the Cython search cores.

A bot takes this path when the state it is given lives in a native kernel
(``aiplay.load(name)`` of a game with one) and its ``backend`` option allows
it. The whole search loop then runs in C without the GIL
(``src_ext/mcts.pyx``, ``src_ext/expectimax.pyx``); this module only splits
the budget among workers, runs them in threads, merges their root statistics
and turns the result into the same :class:`~aiplay.search.base.Analysis` as
the reference path.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Callable, ClassVar, Dict, List, Optional, Tuple

from aiplay.errors import InvalidOptionError
from aiplay.search.base import ActionStats, Analysis, Budget, most_visited
from aiplay.search.tree_config import TreeSearchConfig

try:
    from aiplay._ext.cancel import Cancellation
    from aiplay._ext.expectimax import ExpectimaxSearch
    from aiplay._ext.kernel import NativeState
    from aiplay._ext.mcts import TreeSearch
except ImportError:  # extensions not built: every search takes the reference path
    NativeState = None  # type: ignore[assignment,misc]
    Cancellation = None  # type: ignore[assignment,misc]

def native_kernel(state: Any, backend: str) -> Optional[Any]:
    """The kernel to search ``state`` with, or ``None`` for the reference path."""
    if backend == "reference":
        return None
    if NativeState is not None and isinstance(state, NativeState):
        return state.kernel
    if backend == "native":
        raise InvalidOptionError(
            "backend='native' needs a state of a native engine (aiplay.load(name) of a game with a "
            "kernel); this state is from the reference engine")
    return None


def _split(total: Optional[int], parts: int) -> List[int]:
    """Split a count among workers (-1 = no limit), the first ones taking the remainder."""
    if total is None:
        return [-1] * parts
    share, extra = divmod(total, parts)
    return [max(1, share + (1 if i < extra else 0)) for i in range(parts)]


class TreeSearchPool:
    """One bot's native tree searches: one tree per worker, kept between moves for reuse.

    ``mode`` is the native algorithm (``"mcts"``, ``"so-ismcts"`` or
    ``"mo-ismcts"``); everything else comes from the bot's
    :class:`~aiplay.search.tree_config.TreeSearchConfig`, the same object its
    reference loop reads.
    """

    def __init__(self, mode: str, config: TreeSearchConfig, cancel: Optional[Any] = None):
        self.cancel = cancel if cancel is not None else Cancellation()
        self.config = config
        self.rollout = config.rollout
        self.mode = mode
        self.uct_c = config.uct_c
        self.workers = config.threads
        self.max_nodes = config.node_cap
        self.reuse = config.keep_tree
        self._kernel = None
        self._searches: List[Any] = []

    def _trees(self, kernel: Any) -> List[Any]:
        if kernel is not self._kernel:
            per_worker = self.max_nodes // self.workers
            trees_per_search = kernel.num_players if self.mode == "mo-ismcts" else 1
            if per_worker < trees_per_search + 1:
                raise InvalidOptionError(
                    f"option max_nodes={self.max_nodes} is too small for {self.workers} worker(s) of "
                    f"{self.mode} with {kernel.num_players} players: each worker keeps {trees_per_search} "
                    f"tree(s) and needs at least {trees_per_search + 1} nodes, so give max_nodes >= "
                    f"{(trees_per_search + 1) * self.workers}")
            kind, epsilon, cutoff = self.rollout.native_arguments(kernel, type(kernel).__name__)
            if self.config.opponents == "policy" and not kernel.has_policy:
                raise InvalidOptionError(
                    f"opponents='policy' needs a playout policy, and the {type(kernel).__name__!r} kernel has "
                    "none; use opponents='search' or backend='reference'")
            self._searches = [TreeSearch(kernel, self.mode, self.uct_c, per_worker, kind, epsilon, cutoff,
                                         self.cancel, self.config.opponents, self.config.smooth,
                                         self.config.smooth_decay, self.config.self_determinize)
                              for _ in range(self.workers)]
            self._kernel = kernel
        return self._searches

    def run(self, state: Any, budget: Budget, rng: random.Random) -> Dict[str, Any]:
        """Search ``state`` on every worker; return merged root statistics and counters.

        An exception in any worker (Ctrl-C's KeyboardInterrupt in the calling
        thread, say) stops the other workers and is re-raised here.
        """
        trees = self._trees(state.kernel)
        seeds = [rng.getrandbits(64) for _ in trees]
        if len(trees) == 1:
            # One worker: no thread, no merge (a short search's move is a few hundred microseconds,
            # and this wrapper's share of it is what the OpenSpiel comparison sees).
            started = time.perf_counter()
            budget_iterations = -1 if budget.iterations is None else max(1, budget.iterations)
            budget_nodes = -1 if budget.nodes is None else max(1, budget.nodes)
            result = trees[0].run(state, budget_iterations, -1.0 if budget.seconds is None else budget.seconds,
                                  budget_nodes, seeds[0], self.reuse)
            counters = dict(result["counters"])
            counters["seconds"] = time.perf_counter() - started
            counters["workers"] = 1
            counters["backend"] = "native"
            return {"visits": dict(zip(result["actions"], result["visits"])),
                    "sums": dict(zip(result["actions"], result["value_sums"])),
                    "availability": dict(zip(result["actions"], result["availability"])),
                    "counters": counters}
        iterations = _split(budget.iterations, len(trees))
        nodes = _split(budget.nodes, len(trees))
        seconds = -1.0 if budget.seconds is None else budget.seconds
        results: List[Optional[Dict[str, Any]]] = [None] * len(trees)
        errors: List[BaseException] = []

        def work(i: int) -> None:
            try:
                results[i] = trees[i].run(state, iterations[i], seconds, nodes[i], seeds[i], self.reuse)
            except BaseException as exc:  # surfaced in the calling thread below
                errors.append(exc)
                self.request_stop()

        started = time.perf_counter()
        threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(1, len(trees))]
        for thread in threads:
            thread.start()
        try:
            work(0)  # the calling thread is worker 0
        finally:
            for thread in threads:
                thread.join()
        if errors:
            raise errors[0]
        merged = self._merge([r for r in results if r is not None])
        merged["counters"]["seconds"] = time.perf_counter() - started
        merged["counters"]["workers"] = len(trees)
        merged["counters"]["backend"] = "native"
        return merged

    def request_stop(self) -> None:
        """End every worker's running search after its current iteration (any thread)."""
        self.cancel.request_stop()

    @staticmethod
    def _merge(results: List[Dict[str, Any]]) -> Dict[str, Any]:
        """Root parallelism: add up every worker's root statistics, action by action."""
        visits: Dict[int, int] = {}
        sums: Dict[int, float] = {}
        avail: Dict[int, int] = {}
        for r in results:
            for a, v, s, n in zip(r["actions"], r["visits"], r["value_sums"], r["availability"]):
                visits[a] = visits.get(a, 0) + v
                sums[a] = sums.get(a, 0.0) + s
                avail[a] = avail.get(a, 0) + n
        counters = dict(results[0]["counters"])
        for key in ("iterations", "nodes", "tree_nodes", "reused_visits"):
            counters[key] = sum(r["counters"][key] for r in results)
        counters["max_depth"] = max(r["counters"]["max_depth"] for r in results)
        counters["reused_tree"] = all(r["counters"]["reused_tree"] for r in results)
        return {"visits": visits, "sums": sums, "availability": avail, "counters": counters}

    def principal_variation(self, first_action: int) -> List[int]:
        """The line of worker 0's tree from ``first_action``."""
        return list(self._searches[0].principal_variation(first_action))

    def choose(self, kind: str, state: Any, player: int, budget: Budget, rng: random.Random) -> int:
        """The move :meth:`analyse` would report, from the same search (same seeds, same tree)."""
        trees = self._trees(state.kernel)
        if len(trees) != 1:
            return self.analyse(kind, state, player, budget, rng).action
        # One worker: the search picks the move itself (most_visited over tree_stats), and
        # none of the report is built.
        seed = rng.getrandbits(64)
        return trees[0].run_choose(state, -1 if budget.iterations is None else max(1, budget.iterations),
                                   -1.0 if budget.seconds is None else budget.seconds,
                                   -1 if budget.nodes is None else max(1, budget.nodes), seed, self.reuse)

    def analyse(self, kind: str, state: Any, player: int, budget: Budget, rng: random.Random,
                final: Callable[[List[ActionStats]], ActionStats] = most_visited) -> Analysis:
        """Search ``state`` and report it as the reference tree searches do; ``final`` picks the move."""
        merged = self.run(state, budget, rng)
        stats = tree_stats(state.legal_actions(), merged, with_availability=self.mode != "mcts")
        best = final(stats)
        return Analysis(
            bot=kind, player=player, action=best.action, value=best.value, stats=stats,
            principal_variation=self.principal_variation(best.action), counters=merged["counters"],
        )


def tree_stats(legal: List[int], merged: Dict[str, Any], with_availability: bool) -> List[ActionStats]:
    """Per-action statistics in legal order, as the reference bots report them."""
    stats = []
    for action in legal:
        n = merged["visits"].get(action, 0)
        stats.append(ActionStats(
            action=action, visits=n,
            value=merged["sums"][action] / n if n else None,
            availability=merged["availability"].get(action, 0) if with_availability else None))
    return stats



class TwoPathSearch:
    """The dispatch the tree-search bots share: the C loop when the state has a kernel, else the
    reference (Python) loop; :meth:`~aiplay.search.base.Bot.choose` on the C loop builds no report.

    A bot using it (listed before :class:`~aiplay.search.base.Bot`) provides ``_start`` (the
    checks, the call's stream, whether the native path runs), ``_native_pool`` and
    ``_analyse_reference``.
    """

    kind: ClassVar[str]
    budget: Budget

    def _start(self, state: Any) -> Tuple[int, random.Random, bool]:
        raise NotImplementedError

    def _native_pool(self) -> "TreeSearchPool":
        raise NotImplementedError

    def _analyse_reference(self, state: Any, player: int, rng: random.Random) -> Analysis:
        raise NotImplementedError

    def _analyse(self, state: Any) -> Analysis:
        """Run the search from ``state`` (not mutated) for its player to move, and report it."""
        player, rng, native = self._start(state)
        if native:
            return self._native_pool().analyse(self.kind, state, player, self.budget, rng)
        return self._analyse_reference(state, player, rng)

    def _choose_action(self, state: Any) -> int:
        """:meth:`_analyse`'s move, the same search; the native path builds no report."""
        player, rng, native = self._start(state)
        if native:
            return self._native_pool().choose(self.kind, state, player, self.budget, rng)
        return self._analyse_reference(state, player, rng).action


__all__ = ["TwoPathSearch", "ExpectimaxSearch", "TreeSearchPool", "native_kernel", "tree_stats"]
