"""Type stubs of ``aiplay._ext._template`` (src_ext/_template.pyx): the example game's kernel."""

from typing import Any

from aiplay._ext.kernel import Kernel

def make_kernel(reference_game: Any) -> Kernel: ...
