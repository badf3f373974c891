"""Template Race: the example game to copy when adding a game (see docs/adding_a_game.md).

Its registration below is the only place the game is named: the generic
tests, the playthroughs, the benchmarks' list and the CLI all read it. It is
registered hidden (``listed=False``): ``aiplay games`` and
``aiplay.games_available()`` leave it out unless asked (``--all``,
``include_hidden=True``, ``AIPLAY_SHOW_HIDDEN_GAMES=1``), while the test suite
covers it like every other game. A copy checks its contract in one call with
``aiplay.testing.check_game("my_game")`` (``tests/test_testing_kit.py`` runs
it on this game too).
"""

from aiplay.registry import DifferentialCase, PlaythroughSpec, register

from .rules import BOOST, ROLL, WALK, TemplateRaceGame, TemplateRaceState, heuristic_policy
from .tensors import TemplateTensors

#: This game's registry entry (a copy of the folder edits only these arguments).
ENTRY = register(
    TemplateRaceGame,  # its kernel, games/_template/kernel.pyx, is found by convention
    # Option sets of the generic tests (contract, roundtrip, determinize, fuzz, metadata).
    contract_options=[{}, {"players": 3, "goal": 8}, {"players": 4, "goal": 12, "horizon": 30}],
    # Native against reference, move for move: (options, seeded games).
    differential=[DifferentialCase({}, 500), DifferentialCase({"players": 3}, 300),
                  DifferentialCase({"players": 4, "goal": 20, "horizon": 40}, 200)],
    # Golden transcripts in playthroughs/ (`python -m aiplay.testing.playthrough --update --game template`).
    playthroughs=[PlaythroughSpec("template", {}, 7), PlaythroughSpec("template_3p", {"players": 3}, 8)],
    benchmark={"players": 3},
    max_game_length=lambda game: game.max_game_length,
    # Optional: observation and information-state tensors (aiplay.tensors, docs/tensors.md).
    tensors=TemplateTensors(),
    listed=False,
)

__all__ = ["BOOST", "ENTRY", "ROLL", "TemplateRaceGame", "TemplateRaceState", "WALK", "heuristic_policy"]
