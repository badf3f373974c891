"""Kuhn poker, as OpenSpiel defines it: a validation game for imperfect-information search."""

from .rules import BET, PASS, KuhnPokerGame, KuhnPokerState
from .tensors import KuhnTensors

__all__ = ["BET", "KuhnPokerGame", "KuhnPokerState", "PASS"]


from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

# n deals, then at most n - 1 checks, one bet and n - 1 answers.
_register(
    KuhnPokerGame,
    tensors=KuhnTensors(),
    no_heuristic="a validation game for equilibrium search: no hand-written policy (ISMCTS plays it)",
    contract_options=[{}, {"players": 3}],
    differential=[_Case({}, 1000), _Case({"players": 3}, 300), _Case({"players": 10}, 50)],
    playthroughs=[_Playthrough("kuhn_poker", {}, 1), _Playthrough("kuhn_poker_3p", {"players": 3}, 2)],
    max_game_length=lambda game: 3 * game.num_players - 1,
)
