"""Pig's options: what each accepts, said in the error, and their defaults.

Moved from ``tests/test_registry.py`` (the option names, ranges and defaults are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidOptionError


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


def test_options_report_defaults():
    game = aiplay.load("pig", winscore=30)
    assert game.options == {"players": 2, "winscore": 30, "diceoutcomes": 6, "horizon": 1000, "piglet": False}
