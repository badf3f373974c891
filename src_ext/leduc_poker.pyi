"""Type stubs of ``aiplay._ext.leduc_poker`` (src_ext/leduc_poker.pyx): the game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
