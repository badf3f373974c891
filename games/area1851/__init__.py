"""Area 1851: tinkering inventors build gadgets for reputation (2-5 players, hidden hands).

Reference engine in this folder; native kernel in games/area1851/kernel.pyx (``aiplay.games.area1851.kernel``),
checked move for move against it. Bots: the heuristic of ``heuristic.py`` and the generic
searchers (ISMCTS strength against it: ``benchmarks/strength.py``, figures in
``benchmarks/RESULTS.md``).
"""

from aiplay.registry import DifferentialCase, PlaythroughSpec, register

from .game import Area1851Game
from .render import describe_action, render, render_svg, render_text
from .rules import Area1851State
from .tensors import TENSORS

ENTRY = register(
    Area1851Game,
   
    tensors=TENSORS,
    no_kernel_policy=None,
    contract_options=[{"players": 2, "block": 1}, {"players": 4, "block": 1}],
    # CI plays a few seeded games per case; AIPLAY_FULL_DIFFERENTIAL=1 plays 500 each (2,000 games, 2-5 players).
    differential=[DifferentialCase({"players": 2}, 6, 500), DifferentialCase({"players": 3, "block": 2}, 3, 500),
                  DifferentialCase({"players": 4, "block": 1}, 3, 500),
                  DifferentialCase({"players": 5, "block": 1}, 2, 500)],
    playthroughs=[PlaythroughSpec("area1851_2p", {"players": 2}, 5, state_every=200),
                  PlaythroughSpec("area1851_4p", {"players": 4}, 6, state_every=400)],
    benchmark={"players": 4},
    max_game_length=lambda game: game.max_game_length,
)

__all__ = ["Area1851Game", "Area1851State", "ENTRY", "describe_action", "render", "render_svg", "render_text"]
