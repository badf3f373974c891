"""Loading games: names, options, backends and their error messages."""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidOptionError, UnknownGameError


def test_games_available_lists_the_validation_games():
    names = aiplay.games_available()
    assert names == sorted(names)
    assert "pig" in names


def test_unknown_game_lists_the_available_ones():
    with pytest.raises(UnknownGameError) as info:
        aiplay.load("chess")
    message = str(info.value)
    assert "'chess'" in message
    for name in aiplay.games_available():
        assert name in message


def test_unknown_option_names_the_option_and_the_known_ones():
    with pytest.raises(InvalidOptionError, match="'colour'.*winscore"):
        aiplay.load("pig", colour="red")


@pytest.mark.parametrize("option,value,accepts", [
    ("players", 1, "from 2 to 10"),
    ("players", "two", "from 2 to 10"),
    ("winscore", 0, "from 1"),
    ("piglet", 1, "true or false"),
])
def test_bad_option_value_names_the_option_and_what_it_accepts(option, value, accepts):
    with pytest.raises(InvalidOptionError) as info:
        aiplay.load("pig", **{option: value})
    assert f"{option}={value!r}" in str(info.value)
    assert accepts in str(info.value)


def test_bad_backend():
    with pytest.raises(InvalidOptionError, match="backend='gpu'.*reference"):
        aiplay.load("pig", backend="gpu")


def test_options_report_defaults():
    game = aiplay.load("pig", winscore=30)
    assert game.options == {"players": 2, "winscore": 30, "diceoutcomes": 6, "horizon": 1000, "piglet": False}
