"""``aiplay.testing``: the game author's kit (issue 24), and ``check_game`` on every game."""

from __future__ import annotations

import random

import pytest

import aiplay
import aiplay.testing
from aiplay.errors import InvalidOptionError, UnknownGameError
from aiplay.registry import game_entry, has_native
from aiplay.testing import check_game
from aiplay.testing.choose import games_with, pick_game
from aiplay.testing.simulate import random_walk

#: A game whose first option set ends within this many moves gets every option set checked on
#: several games; a longer one (a board game) gets one game of its first option set.
SHORT = 150


def game_length(name: str) -> int:
    """Moves of a game with the first option set: the declared ``max_game_length``, else one random game's."""
    entry = game_entry(name)
    game = aiplay.load(name, backend="reference", **entry.contract_options[0])
    if entry.max_game_length is not None and entry.max_game_length(game) <= SHORT:
        return entry.max_game_length(game)
    return sum(1 for _ in random_walk(game.new_initial_state(), random.Random(0), max_steps=100 * SHORT)) - 1


NAMES = aiplay.games_available(include_hidden=True)
LENGTHS = {name: game_length(name) for name in NAMES}
SMALL = [n for n in NAMES if LENGTHS[n] <= SHORT]
BOARD = [n for n in NAMES if LENGTHS[n] > SHORT]


@pytest.mark.parametrize("name", SMALL)
def test_check_game_passes_on_the_small_games(name):
    report = check_game(name, games=3)
    backends = {key.split()[0] for key in report.games}
    assert backends == ({"reference", "native"} if has_native(name) else {"reference"})
    assert len(report.games) == len(backends) * len(game_entry(name).contract_options)
    assert all(count >= 3 for count in report.states.values())  # every game has at least a few states
    assert bool(report.differential_steps) == has_native(name)
    assert set(report.twin_pairs) == set(report.games)
    assert "contract kept" in str(report)


@pytest.mark.parametrize("name", BOARD)
def test_check_game_passes_on_the_board_games(name):
    options = game_entry(name).contract_options[0]
    report = check_game(name, options=[options], games=1, differential_games=1)
    assert sum(report.states.values()) >= sum(report.games.values()) * 2  # a start and an end at least


def test_the_game_lists_come_from_the_registry():
    assert set(SMALL) | set(BOARD) == set(NAMES) and set(games_with(short=True)) & set(SMALL)
    assert all(LENGTHS[n] > 0 for n in NAMES)


def test_check_game_refuses_bad_arguments():
    with pytest.raises(UnknownGameError):
        check_game("no_such_game")
    for bad in ({"games": 0}, {"games": True}, {"max_steps": -1}, {"differential_games": -1}, {"seed": "1"},
                {"twin_games": -1}, {"twin_games": False}):
        with pytest.raises(InvalidOptionError, match=next(iter(bad))):
            check_game(pick_game(short=True), **bad)


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


