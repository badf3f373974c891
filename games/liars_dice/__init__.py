"""Liar's Dice, as OpenSpiel defines it: a validation game for imperfect-information search."""

from .heuristic import probability_policy
from .rules import LiarsDiceGame, LiarsDiceState
from .tensors import LiarsDiceTensors

__all__ = ["LiarsDiceGame", "LiarsDiceState", "probability_policy"]


from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

_register(
    LiarsDiceGame,
    tensors=LiarsDiceTensors(),
    contract_options=[{}, {"numdice": 2, "dice_sides": 4}, {"players": 3, "numdice": 2, "dice_sides": 3},
                      {"numdice": 3, "dice_sides": 2, "bidding_rule": "reset-quantity"},
                      {"players": 3, "dice_sides": 5, "bidding_rule": "reset-quantity"}],
    differential=[_Case({}, 1000), _Case({"numdice": 3}, 500), _Case({"numdice": 5, "dice_sides": 8}, 200),
                  _Case({"players": 3, "numdice": 2, "dice_sides": 4}, 300),
                  _Case({"players": 4, "numdice": 5, "dice_sides": 8, "bidding_rule": "reset-quantity"}, 100),
                  _Case({"numdice": 2, "dice_sides": 2, "bidding_rule": "reset-quantity"}, 300)],
    playthroughs=[_Playthrough("liars_dice", {}, 1), _Playthrough("liars_dice_2x3", {"numdice": 3}, 2),
                  _Playthrough("liars_dice_3p", {"players": 3, "numdice": 2, "dice_sides": 4}, 3)],
    max_game_length=lambda game: game.max_game_length,
)
