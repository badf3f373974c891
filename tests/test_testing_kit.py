"""``aiplay.testing``: the game author's kit (issue 24), and ``check_game`` on every game."""

from __future__ import annotations

import pytest

import aiplay
import aiplay.testing
from aiplay.errors import InvalidOptionError, UnknownGameError
from aiplay.games._template import TemplateRaceState
from aiplay.registry import game_entry, has_native
from aiplay.testing import ContractFailure, check_game

SMALL = ["kuhn_poker", "leduc_poker", "pig", "template"]
BOARD = [n for n in aiplay.games_available() if n not in SMALL]


@pytest.mark.parametrize("name", SMALL)
def test_check_game_passes_on_the_small_games(name):
    report = check_game(name, games=3)
    backends = {key.split()[0] for key in report.games}
    assert backends == ({"reference", "native"} if has_native(name) else {"reference"})
    assert len(report.games) == len(backends) * len(game_entry(name).contract_options)
    assert all(count >= 3 for count in report.states.values())  # every game has at least a few states
    assert bool(report.differential_steps) == has_native(name)
    assert "contract kept" in str(report)


@pytest.mark.parametrize("name", BOARD)
def test_check_game_passes_on_the_board_games(name):
    options = game_entry(name).contract_options[0]
    report = check_game(name, options=[options], games=1, differential_games=1)
    assert sum(report.states.values()) > 20


def _broken(monkeypatch, attribute, replacement):
    monkeypatch.setattr(TemplateRaceState, attribute, replacement)
    return lambda: check_game("template", options=[{}], games=2, differential_games=0)


def test_check_game_names_a_broken_promise(monkeypatch):
    run = _broken(monkeypatch, "heuristic_values", lambda self: [5.0] * self.game.num_players)
    with pytest.raises(ContractFailure, match=r"template reference \{\} seed 0 step 0: heuristic_values"):
        run()
    monkeypatch.undo()
    legal = TemplateRaceState._legal_actions
    run = _broken(monkeypatch, "_legal_actions", lambda self: list(reversed(legal(self))))
    with pytest.raises(ContractFailure, match="not sorted"):
        run()
    monkeypatch.undo()
    run = _broken(monkeypatch, "clone", lambda self: self)
    with pytest.raises(ContractFailure, match="clone changed the original"):
        run()
    monkeypatch.undo()
    from aiplay.games._template.tensors import TemplateTensors

    leaky = TemplateTensors.fill_information_state

    def fill_with_every_card(self, game, data, player, out):  # a leak: the other seats' cards
        leaky(self, game, data, player, out)
        for p, card in enumerate(data["cards"]):
            if card is not None:
                out[f"revealed{p}"][card] = 1

    monkeypatch.setattr(TemplateTensors, "fill_information_state", fill_with_every_card)
    with pytest.raises(ContractFailure, match="differs on a world determinized"):
        check_game("template", options=[{}], games=2, differential_games=0)
    monkeypatch.undo()
    check_game("template", options=[{}], games=1)  # and whole again


def test_check_game_refuses_bad_arguments():
    with pytest.raises(UnknownGameError):
        check_game("no_such_game")
    for bad in ({"games": 0}, {"games": True}, {"max_steps": -1}, {"differential_games": -1}, {"seed": "1"}):
        with pytest.raises(InvalidOptionError, match=next(iter(bad))):
            check_game("pig", **bad)


def test_the_kit_holds_the_author_tools_and_aiplay_keeps_the_user_ones():
    from aiplay.testing import differential, fuzzing, kernel_rng, playthrough, simulate

    assert aiplay.testing.compare_engines is differential.compare_engines
    assert aiplay.testing.KernelRandom is kernel_rng.KernelRandom
    assert aiplay.testing.playthrough_cases is playthrough.playthrough_cases
    assert callable(fuzzing.run_case)
    for name in ("random_walk", "play_out", "random_action", "skip_chance"):
        assert getattr(aiplay, name) is getattr(simulate, name) is getattr(aiplay.testing, name)
    assert set(aiplay.testing.__all__) <= set(dir(aiplay.testing))
    with pytest.raises(AttributeError):
        aiplay.testing.no_such_tool  # noqa: B018
