"""Pig, as OpenSpiel defines it: a validation game for comparing values and speeds."""

from .rules import ROLL, STOP, PigGame, PigState
from .tensors import PigTensors

__all__ = ["PigGame", "PigState", "ROLL", "STOP"]


from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

# A decision ends the game at ``horizon``; each decision is followed by at most one die roll.
_register(
    PigGame, tensors=PigTensors(),
    no_kernel_policy="hold_at_20 is not written in the kernel: native rollouts are uniformly random",
    contract_options=[{"winscore": 20}, {"players": 3, "winscore": 15, "diceoutcomes": 4},
                      {"piglet": True, "winscore": 8}],
    differential=[_Case({}, 1000), _Case({"winscore": 30, "players": 4}, 200),
                  _Case({"piglet": True, "winscore": 10, "players": 3}, 200),
                  _Case({"winscore": 50, "diceoutcomes": 3, "horizon": 40}, 200)],
    playthroughs=[_Playthrough("pig_20", {"winscore": 20}, 5)],
    max_game_length=lambda game: 2 * game.options["horizon"],
)
