"""Area 1851: tinkering inventors build gadgets for reputation (2-5 players, hidden hands).

Reference engine only: the kernel (src_ext/area1851.pyx) is not written yet, so the game is
registered hidden (``listed=False``).
"""

from aiplay.registry import PlaythroughSpec, register

from .game import Area1851Game
from .render import render, render_svg, render_text
from .rules import Area1851State

ENTRY = register(
    Area1851Game,
    kernel_module=None,
    no_kernel="the Cython kernel src_ext/area1851.pyx is not written yet (issue 12, a later step)",
    no_kernel_policy=None,
    contract_options=[{"players": 2, "block": 1}, {"players": 4, "block": 1}],
    playthroughs=[PlaythroughSpec("area1851_2p", {"players": 2}, 5, state_every=200),
                  PlaythroughSpec("area1851_4p", {"players": 4}, 6, state_every=400)],
    benchmark=None,
    max_game_length=lambda game: game.max_game_length,
    listed=False,
)

__all__ = ["Area1851Game", "Area1851State", "ENTRY", "render", "render_svg", "render_text"]
