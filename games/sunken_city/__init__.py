"""Sunken City: raise a drowned city, hunt its treasures, and steer Neptune against the others."""

from .rules import CARDS, SunkenCityGame, SunkenCityState
from .tensors import SunkenCityTensors

__all__ = ["CARDS", "SunkenCityGame", "SunkenCityState"]


from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

# Board game transcripts: every step is checked, the full state JSON is written every 25 steps.
_register(
    SunkenCityGame, tensors=SunkenCityTensors(),
    contract_options=[{"players": 2}, {"players": 3}, {"players": 4, "short": True},
                      {"players": 2, "no_neptune_chips": True}],
    # 2,250 games over the player counts and both variants (~25 s in all).
    differential=[
        _Case({}, 600), _Case({"short": True}, 200), _Case({"no_neptune_chips": True}, 200),
        _Case({"players": 3}, 300), _Case({"players": 3, "short": True}, 200),
        _Case({"players": 3, "no_neptune_chips": True}, 150), _Case({"players": 4}, 300),
        _Case({"players": 4, "short": True}, 150),
        _Case({"players": 4, "short": True, "no_neptune_chips": True}, 150)],
    playthroughs=[_Playthrough(f"sunken_city_{n}p", {"players": n}, 20 + n, state_every=25) for n in (2, 3, 4)],
    benchmark={"players": 3},
)
