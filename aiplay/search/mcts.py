"""Monte Carlo tree search with UCT, for perfect-information games with chance.

One iteration:

1. **Select** from the root, on a clone of the root state. At a decision
   node whose actions have all been tried, take the child maximizing UCB1
   for the player to move there::

       mean_p(child) + uct_c * sqrt(ln(visits(node)) / visits(child))

   where ``mean_p`` is the mean return of player ``p`` (the node's player)
   over the child's visits. Node statistics are *vectors* (one return per
   player), so the same tree serves N-player games: each player maximizes
   its own component (max^n-style UCT). At a chance node, sample an outcome
   with its exact probability; each sampled outcome has its own child.
2. **Expand** one new node: a random untried action at a decision node, or
   the first visit of a chance outcome.
3. **Simulate** uniformly random legal actions (chance sampled exactly) to
   the end of the game; or, by the ``rollout*`` options, the game's playout
   policy and/or a cutoff scored by the static evaluation
   (:mod:`aiplay.search.rollout`).
4. **Back up** the return vector along the path.

The move played is the most visited root child.

Hidden information: MCTS searches the true state it is given, so in a game
with hidden information it would read the opponents' cards. It therefore
refuses such games (:class:`~aiplay.errors.InvalidOptionError`) unless
``allow_hidden_information=True`` is passed, which makes it a deliberately
cheating baseline. :class:`~aiplay.search.ISMCTSBot` is the right searcher
for hidden-information games.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Dict, List, Optional, Tuple

from aiplay.game import CHANCE, TERMINAL, State, sample_chance_outcome
from aiplay.rng import SeedLike, branch
from aiplay.search.base import ActionStats, Analysis, Bot, Meter, check_bool, most_visited
from aiplay.search.native_path import TreeSearchPool, TwoPathSearch, native_kernel
from aiplay.search.rollout import playout, random_playout  # noqa: F401 (re-exported)
from aiplay.search.tree_config import (  # noqa: F401 (DEFAULT_ITERATIONS re-exported)
    DEFAULT_ITERATIONS, DEFAULT_UCT_C, TreeSearchConfig,
)
from aiplay.search.tree_reuse import KeptTrees, count_nodes, mark_root_key


def tree_analysis(kind: str, player: int, stats: List[ActionStats],
                  principal_variation: Callable[[int], List[int]], meter: Meter, max_depth: int,
                  tree_nodes: int,
                  final: Callable[[List[ActionStats]], ActionStats] = most_visited) -> Analysis:
    """The reference tree searches' report: the move ``final`` picks (the most visited), its line, and
    the counters."""
    best = final(stats)
    return Analysis(
        bot=kind, player=player, action=best.action, value=best.value, stats=stats,
        principal_variation=principal_variation(best.action),
        counters={"iterations": meter.iterations, "nodes": meter.nodes, "seconds": meter.elapsed(),
                  "max_depth": max_depth, "tree_nodes": tree_nodes},
    )


def back_up(path: List[Any], returns: List[float], playout_steps: int, meter: Meter) -> int:
    """Add one playout's returns along ``path`` (nodes with ``visits`` and ``totals``) and count it.

    Returns the path's depth (one action applied per tree edge), which
    together with the playout's moves feeds the ``nodes`` counter.
    """
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for p, value in enumerate(returns):
            totals[p] += value
    depth = len(path) - 1
    meter.nodes += depth + playout_steps
    meter.iterations += 1
    return depth


class _Node:
    """One tree node: visit count, return-sum vector and children by action/outcome.

    The state is not stored: it is rebuilt by replaying the path from the
    root, which keeps memory proportional to the tree, not to state size.
    """

    __slots__ = ("children", "actions", "untried", "visits", "totals", "root_key")

    def __init__(self, num_players: int):
        self.children: Dict[int, _Node] = {}
        # Decision nodes: the legal actions in legal order (filled on first visit).
        self.actions: Optional[List[int]] = None
        # Decision nodes: actions not expanded yet (filled on first visit);
        # None until then, and unused at chance nodes.
        self.untried: Optional[List[int]] = None
        self.visits = 0
        self.totals = [0.0] * num_players
        # With reuse_tree=True: the searching seat's information-state key where it is to move
        # (aiplay.search.tree_reuse), else None.
        self.root_key: Any = None

    def mean(self, player: int) -> float:
        return self.totals[player] / self.visits


class MCTSBot(TwoPathSearch, Bot):
    """UCT Monte Carlo tree search with random playouts (see the module docstring).

    Budget: ``iterations`` (playouts), ``seconds``, ``nodes`` (states
    stepped into, see :class:`~aiplay.search.Budget`); any combination, the
    first reached stops the search (checked after each iteration); with none
    given, :data:`DEFAULT_ITERATIONS`. At least one iteration always runs.

    The analysis: ``stats`` has every legal root action with its visits and
    mean return for the player to move (``value=None`` when unvisited);
    ``principal_variation`` follows the most visited child from the root,
    chance outcomes included, until an unexpanded node; ``counters`` has
    ``iterations``, ``nodes``, ``seconds``, ``max_depth`` (deepest tree
    node, in plies, chance outcomes counted) and ``tree_nodes``.

    Final-move ties (equal visits) go to the higher mean, then to the first
    action in legal order.

    Native path: when the state lives in a native kernel (and ``backend`` is
    ``"auto"`` or ``"native"``), the same algorithm runs in C
    (``src_ext/mcts.pyx``) with these extra options: ``workers`` (root
    parallelism: that many trees in threads, iterations and nodes split among
    them, root statistics summed), ``reuse_tree`` (keep the tree between
    moves when the new state lies in it; the default there) and ``max_nodes``
    (memory cap per search, in tree nodes: once reached, iterations continue
    without growing the tree). The reference loop keeps its tree too when
    ``reuse_tree=True`` is given (:mod:`aiplay.search.tree_reuse`; off by
    default there); ``workers`` and ``max_nodes`` given to it raise
    :class:`~aiplay.errors.InvalidOptionError`. The native path's
    random numbers differ from the reference path's, so the two agree in
    distribution, not draw for draw (:mod:`aiplay.search.tree_config`).
    """

    kind = "mcts"
    searches = True

    def __init__(self, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 nodes: Optional[int] = None, seed: SeedLike = None, uct_c: float = DEFAULT_UCT_C,
                 allow_hidden_information: bool = False, workers: Optional[int] = None,
                 reuse_tree: Optional[bool] = None, max_nodes: Optional[int] = None, backend: str = "auto",
                 rollout: str = "random", rollout_epsilon: float = 0.0, rollout_cutoff: Optional[int] = None,
                 opponents: str = "search"):
        """Build the bot; raises :class:`~aiplay.errors.InvalidOptionError` for a bad option.

        ``uct_c``: exploration constant, a finite number >= 0 (0 = greedy).
        ``rollout`` (``"random"`` or ``"policy"``), ``rollout_epsilon``,
        ``rollout_cutoff``: the simulation step, see :class:`~aiplay.search.rollout.Rollout`.
        ``opponents``: ``"search"`` (the other players choose by UCB on their own
        returns) or ``"policy"`` (they move by the game's playout policy inside the
        tree too); see :data:`~aiplay.search.tree_config.OPPONENTS`.
        ``allow_hidden_information``: search the true state of a
        hidden-information game anyway (a cheating baseline).
        ``workers`` (default 1), ``reuse_tree`` (default True), ``max_nodes``
        (default 2,000,000): native path only (see the class).
        ``backend``: ``"auto"`` (native when the state has a kernel),
        ``"native"`` (required) or ``"reference"`` (always the Python loop).
        """
        super().__init__(seed)
        self.config = TreeSearchConfig.from_options(
            iterations=iterations, seconds=seconds, nodes=nodes, uct_c=uct_c, rollout=rollout,
            rollout_epsilon=rollout_epsilon, rollout_cutoff=rollout_cutoff, backend=backend,
            workers=workers, reuse_tree=reuse_tree, max_nodes=max_nodes, opponents=opponents)
        self.budget, self.uct_c, self.rollout = self.config.budget, self.config.uct_c, self.config.rollout
        self.backend = self.config.backend
        self.allow_hidden_information = check_bool("allow_hidden_information", allow_hidden_information)
        self._pool: Optional[TreeSearchPool] = None
        self._kept: Optional[KeptTrees] = None  # the reference loop's tree, with reuse_tree=True

    def _start(self, state: State) -> Tuple[int, random.Random, bool]:
        """What every search call does first: the checks, this call's stream, which path runs."""
        player = self._root_player(state)
        self._require_perfect_information(state, self.allow_hidden_information)
        self.config.check_game(state)
        rng = branch(self._rng)  # this call's own stream: see Bot
        return player, rng, native_kernel(state, self.backend) is not None

    def _analyse_reference(self, state: State, player: int, rng: random.Random) -> Analysis:
        self.config.check_reference_path("MCTSBot", state)
        num_players = state.game.num_players
        keep = self.config.reuse_tree is True  # reference tree reuse is asked for, never the default
        reused = self._kept.reusable_roots(state, player) if keep and self._kept is not None else None
        root = reused[0] if reused else _Node(num_players)
        reused_visits = root.visits
        meter = Meter(self.budget, self._stop_event)
        meter.nodes = 1  # the root
        tree_nodes, max_depth = (count_nodes([root]) if reused else 1), 0
        c, log, sqrt = self.uct_c, math.log, math.sqrt  # locals: the loop below is hot
        opponent_policy = state.game.heuristic_policy if self.config.opponents == "policy" else None

        while True:
            scratch = state.clone()
            node = root
            path = [root]
            while True:
                to_move = scratch.current_player()
                if to_move == TERMINAL:
                    break
                if to_move == CHANCE:
                    outcome = sample_chance_outcome(scratch, rng)
                    scratch.apply_action(outcome)
                    child = node.children.get(outcome)
                    if child is None:  # first time this outcome is seen: expand it
                        child = node.children[outcome] = _Node(num_players)
                        if keep:
                            mark_root_key(child, scratch, player)
                        tree_nodes += 1
                        path.append(child)
                        break
                    node = child
                    path.append(child)
                    continue
                if opponent_policy is not None and to_move != player:
                    # The opponent model (option opponents='policy'): the policy's move here.
                    action = opponent_policy(scratch, rng)
                    scratch.apply_action(action)
                    child = node.children.get(action)
                    if child is None:
                        child = node.children[action] = _Node(num_players)
                        if keep:
                            mark_root_key(child, scratch, player)
                        tree_nodes += 1
                        path.append(child)
                        break
                    node = child
                    path.append(node)
                    continue
                if node.actions is None:
                    node.actions = scratch.legal_actions()
                    node.untried = list(node.actions)
                if node.untried:
                    action = node.untried.pop(rng.randrange(len(node.untried)))
                    scratch.apply_action(action)
                    child = node.children[action] = _Node(num_players)
                    if keep:
                        mark_root_key(child, scratch, player)
                    tree_nodes += 1
                    path.append(child)
                    break
                # Fully expanded: UCB1 for the player to move. The children are
                # scanned in legal order so that ties go to the first action.
                log_n = log(node.visits)
                best_score = -math.inf
                best_action = -1
                children = node.children
                for action in node.actions:
                    child = children[action]
                    score = child.totals[to_move] / child.visits + c * sqrt(log_n / child.visits)
                    if score > best_score:
                        best_score = score
                        best_action = action
                scratch.apply_action(best_action)
                node = node.children[best_action]
                path.append(node)

            returns, playout_steps = playout(scratch, rng, self.rollout, player)
            max_depth = max(max_depth, back_up(path, returns, playout_steps, meter))
            if meter.exhausted():
                break

        analysis = self._report(state, player, root, meter, max_depth, tree_nodes)
        if keep:
            self._kept = KeptTrees.of(state, player, [root])
            analysis.counters.update(reused_tree=bool(reused), reused_visits=reused_visits)
        return analysis

    def _report(self, state: State, player: int, root: _Node, meter: Meter, max_depth: int,
                tree_nodes: int) -> Analysis:
        legal = state.legal_actions()
        stats = []
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                stats.append(ActionStats(action=action, visits=0, value=None))
            else:
                stats.append(ActionStats(action=action, visits=child.visits, value=child.mean(player)))
        return tree_analysis(self.kind, player, stats, lambda first: self._principal_variation(root, first),
                             meter, max_depth, tree_nodes)

    def _native_pool(self) -> TreeSearchPool:
        if self._pool is None:
            self._pool = TreeSearchPool("mcts", self.config, cancel=self._cancel)
        return self._pool

    @staticmethod
    def _principal_variation(root: _Node, first: int) -> List[int]:
        """The chosen action, then the most visited child (decision or chance) at each level."""
        line = [first]
        node = root.children[first]
        while node.children:
            # Sorted first so that ties go to the lowest action, whatever the expansion order.
            action, node = max(sorted(node.children.items(), key=lambda item: item[0]),
                               key=lambda item: item[1].visits)
            line.append(action)
        return line

    def __repr__(self) -> str:
        return f"MCTSBot(budget={self.budget}, uct_c={self.uct_c}, rollout={self.rollout})"
