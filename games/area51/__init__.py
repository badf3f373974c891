"""Area 51: collect alien artifacts, build bunkers and load them (2-6 players, hidden hands)."""

from .render import render
from .rules import Area51Game, Area51State

__all__ = ["Area51Game", "Area51State", "render"]


from .tensors import TENSORS as _TENSORS
from aiplay.registry import DifferentialCase as _Case, PlaythroughSpec as _Playthrough, register as _register

_register(
    Area51Game, tensors=_TENSORS,
    contract_options=[{"players": 2}, {"players": 3}, {"players": 4}, {"players": 6}],
    # 400 games in CI (0.2-0.5 s each); the 2,000-game run takes about
    # 6 minutes alone and runs with AIPLAY_FULL_DIFFERENTIAL=1 (full_games).
    differential=[_Case({}, 120, 600), _Case({"players": 2}, 70, 350), _Case({"players": 3}, 70, 350),
                  _Case({"players": 5}, 70, 350), _Case({"players": 6}, 70, 350)],
    playthroughs=[_Playthrough(f"area51_{n}p", {"players": n}, 30 + n, state_every=50) for n in (2, 3, 4)],
    benchmark={"players": 4},
)
