"""Unleashed From Groom Lake!: hidden roles on a growing desert map (3-6 players).

The reference engine only; the Cython kernel (``src_ext/groom_lake.pyx``) is
not written yet, so the game is registered hidden (``listed=False``) until it
exists.
"""

from aiplay.registry import PlaythroughSpec, register

from .game import GroomLakeGame, GroomLakeState
from .render import render, render_svg

#: This game's registry entry.
ENTRY = register(
    GroomLakeGame,
    kernel_module=None,
    no_kernel="the Cython kernel (src_ext/groom_lake.pyx) is not written yet: reference engine only",
    contract_options=[{"players": 3}, {"players": 5, "half_win": True}],
    playthroughs=[PlaythroughSpec("groom_lake_3p", {"players": 3}, 41, state_every=40),
                  PlaythroughSpec("groom_lake_5p", {"players": 5, "half_win": True}, 42, state_every=40)],
    max_game_length=lambda game: game.max_game_length,
    listed=False,
)

__all__ = ["ENTRY", "GroomLakeGame", "GroomLakeState", "render", "render_svg"]
