"""Type stubs of ``aiplay._ext.expectimax`` (src_ext/expectimax.pyx): native expectimax."""

from typing import Any, Dict, Optional

from aiplay._ext.cancel import Cancellation
from aiplay._ext.kernel import Kernel, NativeState

PRUNING: Dict[str, int]

class ExpectimaxSearch:
    """Iterative-deepening max^n / paranoid expectimax with Star pruning and a transposition table."""

    cancel: Cancellation
    narrow_root: bool
    def __init__(self, kernel: Kernel, pruning: str = ..., paranoid: bool = ..., use_tt: bool = ...,
                 tt_bits: int = ..., leaf_playout: int = ..., cancel: Optional[Cancellation] = ...,
                 chance_run: int = ...) -> None: ...
    def clear_table(self) -> None: ...
    def run(self, root: NativeState, max_depth: int, seconds: float = ..., nodes: int = ...) -> Dict[str, Any]: ...

TIE_EPS: float
ORDERINGS: Dict[str, int]

class Solver:
    """Exact max^n expectimax with shallow/alpha-beta, Star1/Star2 pruning, move ordering and a table."""

    cancel: Cancellation
    nodes: int
    tt_hits: int
    cutoffs: int
    decided: int
    def __init__(self, kernel: Kernel, constant_sum: bool, pruning: str = ..., ordering: str = ...,
                 tt_bits: int = ..., max_plies: int = ..., cancel: Optional[Cancellation] = ...,
                 bounds: bool = ...) -> None: ...
    def clear_table(self) -> None: ...
    def solve(self, root: NativeState, depth: int = ..., seconds: float = ..., nodes: int = ...) -> Dict[str, Any]: ...
