"""Unleashed From Groom Lake!: hidden roles on a growing desert map (3-6 players).

The reference engine (this folder) and its Cython kernel
(``games/groom_lake/kernel.pyx``), which the differential test keeps equal move
for move. Bots: one heuristic per role (``heuristic.py``) and the generic searchers
(ISMCTS strength per role: ``benchmarks/groom_lake_strength.py``, figures in
``benchmarks/RESULTS.md``).
"""

from aiplay.registry import DifferentialCase, PlaythroughSpec, register

from .game import GroomLakeGame, GroomLakeState
from .tensors import TENSORS
from .render import describe_action, render, render_svg

#: This game's registry entry.
ENTRY = register(
    GroomLakeGame,
   
    tensors=TENSORS,
    contract_options=[{"players": 3}, {"players": 5, "half_win": True}],
    # CI plays 125 seeded games in lockstep (about 0.05 s each); AIPLAY_FULL_DIFFERENTIAL=1
    # plays the 2,000 (500 per player count, 3 to 6).
    differential=[DifferentialCase({"players": 3}, 35, 500), DifferentialCase({"players": 4}, 30, 500),
                  DifferentialCase({"players": 5, "half_win": True}, 30, 500),
                  DifferentialCase({"players": 6}, 30, 500)],
    playthroughs=[PlaythroughSpec("groom_lake_3p", {"players": 3}, 41, state_every=40),
                  PlaythroughSpec("groom_lake_5p", {"players": 5, "half_win": True}, 42, state_every=40)],
    benchmark={"players": 5},
    max_game_length=lambda game: game.max_game_length,
)

__all__ = ["ENTRY", "GroomLakeGame", "GroomLakeState", "describe_action", "render", "render_svg"]
