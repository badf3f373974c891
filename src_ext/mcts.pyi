"""Type stubs of ``aiplay._ext.mcts`` (src_ext/mcts.pyx): native MCTS, SO-ISMCTS and MO-ISMCTS."""

from typing import Any, Dict, List, Optional, Tuple

from aiplay._ext.cancel import Cancellation
from aiplay._ext.kernel import Kernel, NativeState

MODES: Dict[str, int]
ROLLOUTS: Tuple[str, ...]
#: True only in the profile build (benchmarks/profile_search.py): runs then report ``counters["profile"]``.
PROFILE_BUILD: bool
PROFILE_PHASES: Tuple[str, ...]
PROFILE_COUNTS: Tuple[str, ...]

class TreeSearch:
    """One search tree (one per player for MO-ISMCTS) over a kernel, kept for reuse."""

    cancel: Cancellation
    def __init__(self, kernel: Kernel, mode: str = ..., uct_c: float = ..., max_nodes: int = ...,
                 rollout: str = ..., rollout_epsilon: float = ..., rollout_cutoff: int = ...,
                 cancel: Optional[Cancellation] = ..., opponents: str = ..., smooth: bool = ...,
                 smooth_decay: float = ..., self_determinize: float = ...) -> None: ...
    def reset(self) -> None: ...
    def run(self, root: NativeState, iterations: int = ..., seconds: float = ..., nodes: int = ...,
            seed: int = ..., reuse: bool = ...) -> Dict[str, Any]: ...
    def run_choose(self, root: NativeState, iterations: int = ..., seconds: float = ..., nodes: int = ...,
                   seed: int = ..., reuse: bool = ...) -> int: ...
    def principal_variation(self, first_action: int) -> List[int]: ...
