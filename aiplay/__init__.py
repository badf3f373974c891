"""aiplay: search-based AI opponents for modern board games.

Quick start::

    import aiplay
    from aiplay.search import ISMCTSBot

    game = aiplay.load("my_game")       # any name of aiplay.games_available()
    state = game.new_initial_state()
    ...
    bot = ISMCTSBot(iterations=2000, seed=1)
    action = bot.choose(state)

See :mod:`aiplay.game` for the game API every engine implements.
"""

from aiplay.errors import (
    AiplayError, BotBusyError, DeterminizationError, IllegalActionError, InvalidOptionError, InvalidPlayerError,
    InvalidStateError, NotDecisionNodeError, SetupError, UnknownGameError, UnsupportedError,
)
from aiplay.game import CHANCE, TERMINAL, Game, State, sample_chance_outcome
from aiplay.match import Match
from aiplay.registry import games_available, load
from aiplay.rng import make_rng
from aiplay.testing.simulate import play_out, random_action, random_walk, skip_chance
from aiplay.solve import Solution, solve
from aiplay.review import Review, review

__version__ = "0.1.0"

__all__ = [
    "AiplayError", "BotBusyError", "CHANCE", "DeterminizationError", "Game", "IllegalActionError",
    "InvalidOptionError", "InvalidPlayerError", "InvalidStateError", "Match", "NotDecisionNodeError", "Review",
    "SetupError",
    "Solution", "State", "TERMINAL", "UnknownGameError", "UnsupportedError", "__version__",
    "games_available", "load", "make_rng", "play_out", "random_action", "random_walk", "review", "sample_chance_outcome",
    "skip_chance", "solve",
]
