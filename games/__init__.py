"""The games shipped with aiplay, one folder each (installed as ``aiplay.games``).

Importing this package registers every game with :mod:`aiplay.registry`.
"""

from aiplay.registry import register

from .pig import PigGame

register(PigGame, kernel_module="aiplay._ext.pig")

__all__ = ["PigGame"]
