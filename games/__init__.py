"""The games shipped with aiplay, one folder each (installed as ``aiplay.games``).

Importing this package registers every game with :mod:`aiplay.registry`.
"""

from aiplay.registry import register

from .area51 import Area51Game
from .kuhn_poker import KuhnPokerGame
from .leduc_poker import LeducPokerGame
from .pig import PigGame
from .sunken_city import SunkenCityGame

register(PigGame, kernel_module="aiplay._ext.pig")
register(Area51Game, kernel_module="aiplay._ext.area51")
register(KuhnPokerGame, kernel_module="aiplay._ext.kuhn_poker")
register(LeducPokerGame, kernel_module="aiplay._ext.leduc_poker")
register(SunkenCityGame, kernel_module="aiplay._ext.sunken_city")

__all__ = ["Area51Game", "KuhnPokerGame", "LeducPokerGame", "PigGame", "SunkenCityGame"]
