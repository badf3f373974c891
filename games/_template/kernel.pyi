"""Type stubs of ``aiplay.games._template.kernel`` (games/_template/kernel.pyx): the example game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
