"""One configuration for the tree searches (MCTS and ISMCTS), read by both search loops.

:class:`TreeSearchConfig` validates every option once, in the bot's
constructor. The readable Python loop (the reference path) and the C loop
(:mod:`aiplay.search.native_path`) both take their settings from it, so an
option cannot mean one thing on one path and another on the other.

Some options exist on the native path only: ``workers`` (root-parallel
threads) and ``max_nodes`` (a memory cap). ``variant="mo"`` (MO-ISMCTS) and
``reuse_tree`` (keep the tree between moves) run on both paths; the native
path reuses its tree by default, the reference path only when asked
(:mod:`aiplay.search.tree_reuse`). The native-only ones, left unset, take
their defaults; set explicitly on a search that runs the reference loop (a
state of the reference engine, or ``backend="reference"``), they raise
:class:`~aiplay.errors.InvalidOptionError` rather than being ignored, unless
they ask for what that loop does anyway (``workers=1``).

Reproducibility across the two paths: each path replays the same moves for
the same seed and budget (of iterations or nodes), but the two paths draw
their random numbers differently, so MCTS and ISMCTS agree between paths in
distribution (``tests/test_native_search.py``), not move for move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional

from aiplay.errors import AiplayError, InvalidOptionError
from aiplay.game import State
from aiplay.limits import check_fraction, check_memory
from aiplay.registry import BACKENDS, game_entry
from aiplay.search.base import MAX_C_INT, Budget, check_bool, check_nonnegative_float, check_positive_int
from aiplay.search.rollout import Rollout

#: Iterations used when no budget at all is given.
DEFAULT_ITERATIONS = 1000
#: Default exploration constant. Returns are used raw (not rescaled), so the
#: constant is in units of the game's returns; 2.0 is what OpenSpiel's MCTS
#: examples use for games with returns in [-1, 1].
DEFAULT_UCT_C = 2.0
#: Default memory cap of a native tree, in nodes (about 56 bytes each).
DEFAULT_MAX_NODES = 2_000_000
#: Bytes of one native tree node, rounded up (``src_ext/mcts.pyx`` checks the exact size again).
NODE_BYTES = 64
#: The most threads one bot may search with (far beyond any machine's sensible use).
MAX_WORKERS = 256
#: The ISMCTS variants: single-observer and multiple-observer (both paths).
VARIANTS = ("so", "mo")
#: How the other players move inside the tree. ``"search"``: each by UCB on its own returns,
#: the textbook algorithm, which assumes every opponent plays for itself as well as the search
#: can. ``"policy"``: each by the game's playout policy (the ``heuristic`` bot's rules), so the
#: search is a best response to opponents who play like that policy. It matters where the
#: textbook assumption misleads: in Groom Lake a self-interested Human gains by voting a rival
#: Human out, so an Alien searching with ``"search"`` calls votes that real Humans never carry.
OPPONENTS = ("search", "policy")
#: Smooth UCT's default ``d`` (ISMCTS option ``smooth_decay``): how fast, with a node's visits, the
#: share of UCB decisions there falls from 0.9 towards its floor of 0.1 (Heinrich & Silver 2015's
#: schedule ``max(0.1, 0.9 / (1 + d * sqrt(N)))``; the native loop holds the 0.9 and the 0.1).
DEFAULT_SMOOTH_DECAY = 0.002
#: Smooth UCT's starting share of UCB decisions and its floor (the paper's eta and gamma).
SMOOTH_ETA = 0.9
SMOOTH_GAMMA = 0.1


def smooth_ucb_share(visits: int, decay: float) -> float:
    """Smooth UCT's share of UCB decisions at a node whose legal children have ``visits`` in all."""
    return max(SMOOTH_GAMMA, SMOOTH_ETA / (1.0 + decay * visits ** 0.5))


def check_backend(value: Any) -> str:
    """Validate a bot's ``backend`` option."""
    if value not in BACKENDS:
        raise InvalidOptionError(f"option backend={value!r} is invalid; it accepts one of {list(BACKENDS)}")
    return str(value)


@dataclass(frozen=True)
class TreeSearchConfig:
    """The validated options of one MCTS or ISMCTS bot (see the module docstring).

    ``workers``, ``reuse_tree`` and ``max_nodes`` are ``None`` when not given;
    :attr:`threads`, :attr:`keep_tree` and :attr:`node_cap` are the values in
    force on the native path.
    """

    budget: Budget
    uct_c: float = DEFAULT_UCT_C
    rollout: Rollout = Rollout()
    backend: str = "auto"
    variant: str = "so"
    workers: Optional[int] = None
    reuse_tree: Optional[bool] = None
    max_nodes: Optional[int] = None
    opponents: str = "search"
    smooth: bool = False
    smooth_decay: float = DEFAULT_SMOOTH_DECAY
    self_determinize: float = 0.0

    @classmethod
    def from_options(cls, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                     nodes: Optional[int] = None, uct_c: float = DEFAULT_UCT_C, rollout: str = "random",
                     rollout_epsilon: float = 0.0, rollout_cutoff: Optional[int] = None,
                     backend: str = "auto", variant: str = "so", workers: Optional[int] = None,
                     reuse_tree: Optional[bool] = None, max_nodes: Optional[int] = None,
                     opponents: str = "search", smooth: bool = False,
                     smooth_decay: float = DEFAULT_SMOOTH_DECAY,
                     self_determinize: float = 0.0) -> "TreeSearchConfig":
        """Validate a bot's keyword options; raises :class:`InvalidOptionError` naming a bad one."""
        budget = Budget(iterations=iterations, seconds=seconds, nodes=nodes)
        if budget.unlimited:
            budget = Budget(iterations=DEFAULT_ITERATIONS)
        if opponents not in OPPONENTS:
            raise InvalidOptionError(
                f"option opponents={opponents!r} is invalid; it accepts one of: {', '.join(map(repr, OPPONENTS))}")
        if variant not in VARIANTS:
            raise InvalidOptionError(f"option variant={variant!r} is invalid; it accepts 'so' or 'mo'")
        max_nodes = check_positive_int("max_nodes", max_nodes, maximum=MAX_C_INT)
        self_determinize = check_fraction("self_determinize", self_determinize)
        if self_determinize > 0 and variant != "mo":
            raise InvalidOptionError(
                f"option self_determinize={self_determinize!r} needs variant='mo' (one tree per player: the "
                f"rivals' trees are what it trains); variant={variant!r} was given")
        if self_determinize > 0 and reuse_tree is True:
            raise InvalidOptionError(
                f"option self_determinize={self_determinize!r} cannot be combined with reuse_tree=True: its trees "
                "start above the searching seat's information set, where no kept tree can be re-rooted")
        if max_nodes is not None:  # the native tree grows up to it: refused at once if the machine lacks the memory
            check_memory("max_nodes", max_nodes, max_nodes * NODE_BYTES)
        return cls(
            budget=budget,
            uct_c=check_nonnegative_float("uct_c", uct_c),
            rollout=Rollout(rollout, rollout_epsilon, rollout_cutoff),
            backend=check_backend(backend),
            variant=variant,
            workers=check_positive_int("workers", workers, maximum=MAX_WORKERS),
            reuse_tree=None if reuse_tree is None else check_bool("reuse_tree", reuse_tree),
            max_nodes=max_nodes,
            opponents=opponents,
            smooth=check_bool("smooth", smooth),
            smooth_decay=check_nonnegative_float("smooth_decay", smooth_decay),
            self_determinize=self_determinize,
        )

    def check_game(self, state: State) -> None:
        """Raise :class:`InvalidOptionError` when the game cannot run this search (rollout or opponents)."""
        self.rollout.check_game(state)
        if self.opponents == "policy" and getattr(state.game, "heuristic_policy", None) is None:
            raise InvalidOptionError(
                f"opponents='policy' needs a policy for the other players, and {state.game.name!r} has none; "
                "use opponents='search'")

    @property
    def threads(self) -> int:
        """Root-parallel workers on the native path (1 unless ``workers`` was given)."""
        return 1 if self.workers is None else self.workers

    @property
    def keep_tree(self) -> bool:
        """Whether the native path keeps its tree between moves (the default, unless self-determinizing)."""
        if self.self_determinize > 0:
            return False
        return True if self.reuse_tree is None else self.reuse_tree

    @property
    def node_cap(self) -> int:
        """The native path's memory cap in tree nodes."""
        return DEFAULT_MAX_NODES if self.max_nodes is None else self.max_nodes

    def native_only_options(self) -> List[str]:
        """The options given explicitly that the reference loop cannot honour, as ``name=value`` texts.

        A setting that describes what the reference loop does anyway (one worker) is accepted.
        """
        given = []
        if self.workers not in (None, 1):
            given.append(f"workers={self.workers!r}")
        if self.max_nodes is not None:
            given.append(f"max_nodes={self.max_nodes!r}")
        return given

    def check_reference_path(self, bot: str, state: Optional[State] = None) -> None:
        """Raise when an option of the native path only was given to a search that runs the reference loop.

        With ``state``, a game that has no kernel at all (a reference-only game) is named as such:
        no way of loading it gives these options.
        """
        given = self.native_only_options()
        if given and state is not None and _reference_only(state):
            raise InvalidOptionError(
                f"option {', '.join(given)} of {bot} exists only on the native search path, and game "
                f"{state.game.name!r} has no native kernel (a reference-only game; see 'What a reference-only "
                f"game loses' in docs/adding_a_game.md). Drop the option: {bot} runs its reference (Python) "
                f"loop on one thread, without a memory cap")
        if given:
            raise InvalidOptionError(
                f"option {', '.join(given)} of {bot} exists only on the native search path, and this search "
                f"runs the reference (Python) loop: the state is from the reference engine or "
                f"backend='reference' was asked. Load the game with its kernel (aiplay.load(name)) or drop "
                f"the option")


def _reference_only(state: State) -> bool:
    """True when the state's game is registered without a kernel (no ``aiplay.load`` gives a native engine)."""
    try:
        return game_entry(state.game.name).kernel_module is None
    except AiplayError:  # a game class used without registering it
        return False
