"""Single-observer information set MCTS (SO-ISMCTS) with availability counts.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012. The searching (root) player cannot see the
whole state, so each iteration samples a world that agrees with what it
knows, and all iterations share one tree of *its* information sets:

1. **Determinize**: ``world = root.determinize(root_player, det_rng)``.
2. **Descend** the tree, playing along in ``world``. At a decision node the
   *available* actions are the legal actions of ``world`` there. If one of
   them has no child yet, expand it (chosen at random). Otherwise choose by
   UCB1 with availability counts::

       mean_p(child) + uct_c * sqrt(ln(availability(child)) / visits(child))

   for the player ``p`` to move in ``world``. Every time a node is left by
   a decision, each available child's availability goes up by one (the
   chosen one included, at expansion too) -- the ``n'`` of the paper, which
   stops actions that are rarely legal from looking under-explored.
3. **Chance** nodes of ``world`` are sampled with exact probabilities, and
   the child is keyed by the root player's ``information_state_key`` after
   the outcome: outcomes the root player cannot tell apart (an opponent's
   private card) share one child, observable ones (a public card) branch.
4. **Simulate** uniformly random moves to the end and **back up** the
   return vector along the path (vectors: N players, each maximizing its own
   component at its nodes).

The move played is the most visited root child (ties: higher mean, then
first in legal order).

**Smooth UCT** (option ``smooth=True``; Heinrich & Silver, "Smooth UCT Search
in Computer Poker", IJCAI 2015): at every decision node whose legal moves all
have children, the search selects by UCB1 only with probability
``eta = max(0.1, 0.9 / (1 + smooth_decay * sqrt(N)))`` (``N``: the visits of
those children); otherwise it draws a move in proportion to the children's
visits, the node's *average policy*. Playing the average policy back into
the tree is what lets the visit distributions converge towards a mixed
equilibrium in two-player zero-sum games, where plain UCB keeps chasing the
best reply of the moment. The move played is then drawn from the root's
visit distribution (not the most visited move), so the bot bluffs and calls
with the frequencies the search found. It combines with ``variant="mo"``,
whose per-player trees give each seat a policy over its own information
sets, the setting of the paper. It is for small games where mixing matters
(poker-like bluffing). In the long board games it plays far weaker, likely
because each of hundreds of moves a game is drawn rather than the best one:
against the plain search at equal time it won 1 of 204 games in one and 0 of
100 in another (``benchmarks/RESULTS.md``, "Build 4: Smooth UCT in the board
games' presets").

**Self-determinization** (option ``self_determinize=p``, MO-ISMCTS only; after
Cowling, Whitehouse & Powley, "Emergent bluffing and inference with Monte
Carlo Tree Search", CIG 2015): every sampled world holds the searching seat's
true hidden information, so the rivals' trees learn to answer *that* hand, as
if they could see it, and a bluff can never pay inside the search. In a share
``p`` of the iterations the world is determinized once more from a random
rival's view, which resamples the searching seat's own hidden information, and
every tree starts with an edge keyed by its owner's information in the world;
the statistics of the move played are read one level down, at the searching
seat's real information set. The trees then start above that set, so nothing
is kept between moves (``reuse_tree=True`` is refused with it).

Random streams: each call branches the bot's generator into two
independent streams, one for determinizations and one for everything else
(expansion choices, chance samples, playouts), so that how many random
numbers a playout draws never shifts the sequence of sampled worlds.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Tuple

from aiplay.game import CHANCE, TERMINAL, State, sample_chance_outcome
from aiplay.rng import SeedLike, branch
from aiplay.search.base import ActionStats, Analysis, Bot, Meter, drawn_by_visits, most_visited
from aiplay.search.mcts import back_up, tree_analysis
from aiplay.search.native_path import TreeSearchPool, TwoPathSearch, native_kernel
from aiplay.search.rollout import playout
from aiplay.search.tree_config import DEFAULT_SMOOTH_DECAY, DEFAULT_UCT_C, TreeSearchConfig, smooth_ucb_share
from aiplay.search.tree_reuse import KeptTrees, count_nodes, mark_root_key

#: Branch stream numbers of one search call (see the module docstring).
_DETERMINIZATION_STREAM = 1
_SIMULATION_STREAM = 2
#: The stream of the final move's draw with ``smooth=True`` (taken after the search's own).
_FINAL_MOVE_STREAM = 3


def _smooth_pick(children: Dict[int, "_Node"], available: List[int], rng: random.Random,
                 decay: float) -> Optional[int]:
    """Smooth UCT's move at a node whose available moves all have children, or None: select by UCB.

    The same rule as the native loop's ``_smooth_pick`` (``src_ext/mcts.pyx``): UCB with
    probability :func:`~aiplay.search.tree_config.smooth_ucb_share`, else a move drawn in
    proportion to its visits (the average policy).
    """
    total = sum(children[a].visits for a in available)
    if total <= 0 or rng.random() < smooth_ucb_share(total, decay):
        return None
    r = rng.random() * total
    for a in available:
        r -= children[a].visits
        if r < 0:
            return a
    return available[-1]  # rounding


class _Node:
    """One node of the information-set tree.

    ``children`` are decision edges by action, ``chance_children`` chance
    edges by the root player's information-state key. ``availability`` is
    this node's ``n'``: how often it was available when its parent was left
    by a decision.
    """

    __slots__ = ("children", "chance_children", "visits", "availability", "totals", "root_key")

    def __init__(self, num_players: int):
        self.children: Dict[int, _Node] = {}
        self.chance_children: Dict[Any, _Node] = {}
        self.visits = 0
        self.availability = 0
        self.totals = [0.0] * num_players
        # With reuse_tree=True: the searching seat's information-state key where it is to move
        # (aiplay.search.tree_reuse), else None.
        self.root_key: Any = None


class ISMCTSBot(TwoPathSearch, Bot):
    """SO-ISMCTS with availability counts and random playouts (see the module docstring).

    Works for any game of the API; in a perfect-information game
    ``determinize`` returns a clone and it behaves like
    :class:`~aiplay.search.MCTSBot` (with availability-based UCB1).

    Budget: ``iterations`` (determinizations, one playout each), ``seconds``,
    ``nodes`` (states stepped into, see :class:`~aiplay.search.Budget`); the
    first reached stops the search (checked after each iteration); with none
    given, 1000 iterations. At least one iteration always runs.

    The analysis: ``stats`` has every legal root action with visits, mean
    return of the root player and ``availability``; the
    ``principal_variation`` follows the most visited decision child and
    stops at the first chance node (a chance edge stands for a set of
    outcomes, not one action) or unexpanded node; ``counters`` has
    ``iterations``, ``nodes``, ``seconds``, ``max_depth`` (deepest tree
    node in plies, chance counted) and ``tree_nodes``.

    Exploration scale: returns are not rescaled, so ``uct_c`` is in units
    of the game's returns. The default 2.0 suits returns of about +-1 to +-2
    (win or lose one unit or two); for games with larger stakes (returns
    of a dozen chips or points) a larger ``uct_c`` explores more evenly.

    Native path: when the state lives in a native kernel (and ``backend``
    allows it) the search runs in C (``src_ext/mcts.pyx``), with
    ``variant="so"`` (this algorithm) or ``"mo"`` (MO-ISMCTS: one tree per
    player, each player's tree keyed by what that player observes, so hidden
    moves of the others are merged), ``workers`` (root parallelism),
    ``reuse_tree`` (keep the tree between moves when the new information set
    lies in it) and ``max_nodes`` (memory cap in tree nodes). On the reference
    path (a game without a kernel, or ``backend="reference"``) both variants run
    in Python, and keep their tree between moves when ``reuse_tree=True`` is
    given (:mod:`aiplay.search.tree_reuse`; there it is off by default);
    ``workers`` and ``max_nodes`` need the C loop.
    """

    kind = "ismcts"
    searches = True

    def __init__(self, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 nodes: Optional[int] = None, seed: SeedLike = None, uct_c: float = DEFAULT_UCT_C,
                 variant: str = "so", workers: Optional[int] = None, reuse_tree: Optional[bool] = None,
                 max_nodes: Optional[int] = None, backend: str = "auto", rollout: str = "random",
                 rollout_epsilon: float = 0.0, rollout_cutoff: Optional[int] = None, opponents: str = "search",
                 smooth: bool = False, smooth_decay: float = DEFAULT_SMOOTH_DECAY, self_determinize: float = 0.0):
        """Build the bot; raises :class:`~aiplay.errors.InvalidOptionError` for a bad option.

        ``uct_c``: exploration constant, a finite number >= 0, in units of the
        game's returns (returns are not rescaled).
        ``rollout`` (``"random"`` or ``"policy"``), ``rollout_epsilon``,
        ``rollout_cutoff``: the simulation step, run in each determinized
        world; see :class:`~aiplay.search.rollout.Rollout`.
        ``smooth``: Smooth UCT (a bool; see the module docstring): select by the
        average policy in a share of the decisions, and draw the move played from
        the root's visits. ``smooth_decay``: the schedule's ``d``, a finite number
        >= 0 (0 keeps the share of UCB decisions at 0.9).
        ``self_determinize``: a number in [0, 1], the share of iterations that also
        resample the searching seat's own hidden information (``variant="mo"`` only;
        see the module docstring).
        ``variant``: ``"so"`` (SO-ISMCTS) or ``"mo"`` (MO-ISMCTS), on either path.
        ``opponents``: ``"search"`` (the other players choose by UCB on their own
        returns) or ``"policy"`` (they move by the game's playout policy inside the
        tree too); see :data:`~aiplay.search.tree_config.OPPONENTS`.
        ``workers``, ``reuse_tree``, ``max_nodes``, ``backend``: see the class.
        """
        super().__init__(seed)
        self.config = TreeSearchConfig.from_options(
            iterations=iterations, seconds=seconds, nodes=nodes, uct_c=uct_c, rollout=rollout,
            rollout_epsilon=rollout_epsilon, rollout_cutoff=rollout_cutoff, backend=backend,
            variant=variant, workers=workers, reuse_tree=reuse_tree, max_nodes=max_nodes, opponents=opponents,
            smooth=smooth, smooth_decay=smooth_decay, self_determinize=self_determinize)
        self.budget, self.uct_c, self.rollout = self.config.budget, self.config.uct_c, self.config.rollout
        self.backend, self.variant = self.config.backend, self.config.variant
        self._pool: Optional[TreeSearchPool] = None
        self._kept: Optional[KeptTrees] = None  # the reference loop's tree, with reuse_tree=True

    def _start(self, state: State) -> Tuple[int, random.Random, bool]:
        """What every search call does first: the checks, this call's stream, which path runs."""
        root_player = self._root_player(state)
        self.config.check_game(state)
        call_rng = branch(self._rng)
        return root_player, call_rng, native_kernel(state, self.backend) is not None

    def _final(self, call_rng: random.Random) -> Any:
        """How the move played is picked from the root's statistics: most visited, or (smooth) drawn."""
        if not self.config.smooth:
            return most_visited
        return lambda stats: drawn_by_visits(stats, branch(call_rng, _FINAL_MOVE_STREAM))

    def _analyse(self, state: State) -> Analysis:
        player, rng, native = self._start(state)
        if native:
            return self._native_pool().analyse(self.kind, state, player, self.budget, rng, self._final(rng))
        return self._analyse_reference(state, player, rng)

    def _choose_action(self, state: State) -> int:
        if self.config.smooth:  # the move is drawn from the report's visits: build it
            return self._analyse(state).action
        return super()._choose_action(state)

    def _analyse_reference(self, state: State, root_player: int, call_rng: random.Random) -> Analysis:
        self.config.check_reference_path("ISMCTSBot", state)
        if self.variant == "mo":
            return self._analyse_reference_mo(state, root_player, call_rng)
        det_rng = branch(call_rng, _DETERMINIZATION_STREAM)
        rng = branch(call_rng, _SIMULATION_STREAM)
        num_players = state.game.num_players
        keep = self.config.reuse_tree is True  # reference tree reuse is asked for, never the default
        reused = self._kept.reusable_roots(state, root_player) if keep and self._kept is not None else None
        root = reused[0] if reused else _Node(num_players)
        reused_visits = root.visits
        meter = Meter(self.budget, self._stop_event)
        meter.nodes = 1  # the root
        tree_nodes, max_depth = (count_nodes([root]) if reused else 1), 0
        c, log, sqrt = self.uct_c, math.log, math.sqrt  # locals: the loop below is hot
        smooth, decay = self.config.smooth, self.config.smooth_decay
        opponent_policy = state.game.heuristic_policy if self.config.opponents == "policy" else None

        while True:
            world = state.determinize(root_player, det_rng)
            node = root
            path = [root]
            while True:
                to_move = world.current_player()
                if to_move == TERMINAL:
                    break
                if to_move == CHANCE:
                    world.apply_action(sample_chance_outcome(world, rng))
                    key = world.information_state_key(root_player)
                    child = node.chance_children.get(key)
                    if child is None:
                        child = node.chance_children[key] = _Node(num_players)
                        if keep:
                            mark_root_key(child, world, root_player)
                        tree_nodes += 1
                        path.append(child)
                        break
                    node = child
                    path.append(child)
                    continue
                children = node.children
                if opponent_policy is not None and to_move != root_player:
                    # The opponent model (option opponents='policy'): the policy's move in this world.
                    action = opponent_policy(world, rng)
                    world.apply_action(action)
                    child = children.get(action)
                    if child is None:
                        child = children[action] = _Node(num_players)
                        child.availability = 1
                        if keep:
                            mark_root_key(child, world, root_player)
                        tree_nodes += 1
                        path.append(child)
                        break
                    node = child
                    path.append(node)
                    continue
                available = world.legal_actions()
                untried = [a for a in available if a not in children]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node(num_players)
                    tree_nodes += 1
                    for a in available:  # the new child included: it was available
                        sibling = children.get(a)
                        if sibling is not None:
                            sibling.availability += 1
                    world.apply_action(action)
                    if keep:
                        mark_root_key(child, world, root_player)
                    path.append(child)
                    break
                best_score = -math.inf
                picked = _smooth_pick(children, available, rng, decay) if smooth else None
                best_action = -1 if picked is None else picked
                if picked is not None:
                    for a in available:
                        children[a].availability += 1
                else:
                    for a in available:  # legal order: ties go to the first action
                        child = children[a]
                        child.availability += 1
                        score = (child.totals[to_move] / child.visits
                                 + c * sqrt(log(child.availability) / child.visits))
                        if score > best_score:
                            best_score = score
                            best_action = a
                world.apply_action(best_action)
                node = children[best_action]
                path.append(node)

            returns, playout_steps = playout(world, rng, self.rollout, root_player)
            max_depth = max(max_depth, back_up(path, returns, playout_steps, meter))
            if meter.exhausted():
                break

        if keep:
            self._kept = KeptTrees.of(state, root_player, [root])
        legal = state.legal_actions()
        stats = []
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                stats.append(ActionStats(action=action, visits=0, value=None,
                                         availability=0 if child is None else child.availability))
            else:
                stats.append(ActionStats(action=action, visits=child.visits,
                                         value=child.totals[root_player] / child.visits,
                                         availability=child.availability))
        analysis = tree_analysis(self.kind, root_player, stats,
                                 lambda first: self._principal_variation(root, first), meter, max_depth, tree_nodes,
                                 self._final(call_rng))
        if keep:
            analysis.counters.update(reused_tree=bool(reused), reused_visits=reused_visits)
        return analysis

    def _analyse_reference_mo(self, state: State, root_player: int, call_rng: random.Random) -> Analysis:
        """MO-ISMCTS (Cowling, Powley & Whitehouse 2012) in Python: one tree per player.

        In player q's tree, q's own decisions are edges by action; every other move (a
        rival's decision or a chance outcome) is an edge by q's information-state key
        after it, so the moves q cannot observe share one edge. A decision is chosen
        in the mover's own tree, by UCB with availability counts on the mover's
        returns, as SO-ISMCTS chooses in its one tree. A new node in any tree ends the
        descent; every tree's path gets the playout's returns. The native loop
        (``src_ext/mcts.pyx``) keys its trees the same way.
        """
        det_rng = branch(call_rng, _DETERMINIZATION_STREAM)
        rng = branch(call_rng, _SIMULATION_STREAM)
        num_players = state.game.num_players
        keep = self.config.reuse_tree is True  # reference tree reuse is asked for, never the default
        reused = self._kept.reusable_roots(state, root_player) if keep and self._kept is not None else None
        roots = reused or [_Node(num_players) for _ in range(num_players)]
        reused_visits = roots[root_player].visits
        meter = Meter(self.budget, self._stop_event)
        meter.nodes = 1  # the root (of the searching player's tree)
        tree_nodes, max_depth = (count_nodes(roots) if reused else num_players), 0
        c, log, sqrt = self.uct_c, math.log, math.sqrt
        smooth, decay = self.config.smooth, self.config.smooth_decay
        opponent_policy = state.game.heuristic_policy if self.config.opponents == "policy" else None

        self_share = self.config.self_determinize
        if self_share > 0:
            keep = False  # refused with reuse_tree=True (tree_config): the trees start one level above
            real_key = state.information_state_key(root_player)
        while True:
            world = state.determinize(root_player, det_rng)
            current = list(roots)
            paths = [[root] for root in roots]
            if self_share > 0:
                # Self-determinization: in a share of the iterations the searching seat's own hidden
                # information is resampled as a rival sees it, and every tree starts with an edge by
                # its owner's information here, so the rivals' trees learn against all the hands the
                # searching seat might hold (else they "know" its true one).
                if det_rng.random() < self_share:
                    rival = det_rng.randrange(num_players - 1)
                    world = world.determinize(rival + (rival >= root_player), det_rng)
                for owner in range(num_players):
                    key = world.information_state_key(owner)
                    child = current[owner].chance_children.get(key)
                    if child is None:
                        child = current[owner].chance_children[key] = _Node(num_players)
                        tree_nodes += 1
                    current[owner] = child
                    paths[owner].append(child)
            expanded = False
            while not expanded:
                to_move = world.current_player()
                if to_move == TERMINAL:
                    break
                if to_move == CHANCE:
                    action = sample_chance_outcome(world, rng)
                else:
                    children = current[to_move].children
                    if opponent_policy is not None and to_move != root_player:
                        action = opponent_policy(world, rng)  # the opponent model, as in SO-ISMCTS
                    else:
                        available = world.legal_actions()
                        untried = [a for a in available if a not in children]
                        if untried:
                            action = untried[rng.randrange(len(untried))]
                            for a in available:  # the siblings tried so far were available too
                                sibling = children.get(a)
                                if sibling is not None:
                                    sibling.availability += 1
                        else:
                            best_score, action = -math.inf, -1
                            picked = _smooth_pick(children, available, rng, decay) if smooth else None
                            if picked is not None:
                                action = picked
                                for a in available:
                                    children[a].availability += 1
                            else:
                                for a in available:  # legal order: ties go to the first action
                                    child = children[a]
                                    child.availability += 1
                                    score = (child.totals[to_move] / child.visits
                                             + c * sqrt(log(child.availability) / child.visits))
                                    if score > best_score:
                                        best_score, action = score, a
                world.apply_action(action)
                # Follow (or make) the edge of this move in every tree.
                for owner in range(num_players):
                    node = current[owner]
                    if owner == to_move:
                        child = node.children.get(action)
                        if child is None:
                            child = node.children[action] = _Node(num_players)
                            child.availability = 1  # available at its creation
                            tree_nodes += 1
                            expanded = True
                            if keep:  # by the searching seat's key in every tree (tree_reuse)
                                mark_root_key(child, world, root_player)
                    else:
                        key = world.information_state_key(owner)
                        child = node.chance_children.get(key)
                        if child is None:
                            child = node.chance_children[key] = _Node(num_players)
                            tree_nodes += 1
                            expanded = True
                            if keep:
                                mark_root_key(child, world, root_player)
                    current[owner] = child
                    paths[owner].append(child)

            returns, playout_steps = playout(world, rng, self.rollout, root_player)
            for owner, path in enumerate(paths):
                if owner == root_player:
                    max_depth = max(max_depth, back_up(path, returns, playout_steps, meter))
                else:  # the other trees learn from the same playout; it is counted once
                    for visited in path:
                        visited.visits += 1
                        for p, value in enumerate(returns):
                            visited.totals[p] += value
            if meter.exhausted():
                break

        if keep:
            self._kept = KeptTrees.of(state, root_player, roots)
        root = roots[root_player]
        if self_share > 0:  # the searching seat's real information set, one level down
            root = root.chance_children.get(real_key) or _Node(num_players)
        stats = []
        for action in state.legal_actions():
            child = root.children.get(action)
            if child is None or child.visits == 0:
                stats.append(ActionStats(action=action, visits=0, value=None,
                                         availability=0 if child is None else child.availability))
            else:
                stats.append(ActionStats(action=action, visits=child.visits,
                                         value=child.totals[root_player] / child.visits,
                                         availability=child.availability))
        analysis = tree_analysis(self.kind, root_player, stats,
                                 lambda first: self._principal_variation(root, first), meter, max_depth, tree_nodes,
                                 self._final(call_rng))
        if keep:
            analysis.counters.update(reused_tree=bool(reused), reused_visits=reused_visits)
        return analysis

    def _native_pool(self) -> TreeSearchPool:
        if self._pool is None:
            mode = "so-ismcts" if self.variant == "so" else "mo-ismcts"
            self._pool = TreeSearchPool(mode, self.config, cancel=self._cancel)
        return self._pool

    @staticmethod
    def _principal_variation(root: _Node, first: int) -> List[int]:
        """The chosen action, then the most visited decision child, until a chance or leaf node."""
        line = [first]
        node = root.children.get(first)
        if node is None:  # self_determinize: the real information set may have no visit yet
            return line
        while node.children and not node.chance_children:
            action, node = max(sorted(node.children.items(), key=lambda item: item[0]),
                               key=lambda item: item[1].visits)
            line.append(action)
        return line

    def __repr__(self) -> str:
        opponents = "" if self.config.opponents == "search" else f", opponents={self.config.opponents}"
        smooth = f", smooth=True, smooth_decay={self.config.smooth_decay}" if self.config.smooth else ""
        return f"ISMCTSBot(budget={self.budget}, uct_c={self.uct_c}, rollout={self.rollout}{opponents}{smooth})"
