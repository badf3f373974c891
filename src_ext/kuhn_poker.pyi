"""Type stubs of ``aiplay._ext.kuhn_poker`` (src_ext/kuhn_poker.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
