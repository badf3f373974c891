"""Leduc poker, as OpenSpiel defines it: a validation game for imperfect-information search."""

from .rules import CALL, FOLD, RAISE, LeducPokerGame, LeducPokerState
from .tensors import LeducTensors

__all__ = ["CALL", "FOLD", "LeducPokerGame", "LeducPokerState", "RAISE"]


from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

_register(
    LeducPokerGame,
    tensors=LeducTensors(),
    no_heuristic="a validation game for equilibrium search: no hand-written policy (ISMCTS plays it)",
    contract_options=[{}, {"players": 3}],
    differential=[
        _Case({}, 1000), _Case({"players": 3}, 300), _Case({"players": 10}, 30),
        _Case({"action_mapping": True}, 300), _Case({"suit_isomorphism": True}, 300),
        _Case({"starting_player": 1}, 300),
        _Case({"players": 4, "starting_player": 2, "action_mapping": True, "suit_isomorphism": True}, 200)],
    playthroughs=[_Playthrough("leduc_poker", {}, 3), _Playthrough("leduc_poker_3p", {"players": 3}, 4)],
)
