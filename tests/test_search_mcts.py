"""MCTSBot's option checks (the searches themselves are tested on games in their folders and in test_search_api)."""

from __future__ import annotations

import math

import pytest

from aiplay.errors import InvalidOptionError
from aiplay.search import MCTSBot


@pytest.mark.parametrize("kwargs, name", [
    ({"iterations": 0}, "iterations"), ({"iterations": -3}, "iterations"),
    ({"iterations": 1.5}, "iterations"), ({"iterations": True}, "iterations"),
    ({"seconds": 0}, "seconds"), ({"seconds": -1}, "seconds"), ({"seconds": math.inf}, "seconds"),
    ({"nodes": 0}, "nodes"), ({"nodes": "10"}, "nodes"),
    ({"uct_c": -0.5}, "uct_c"), ({"uct_c": "2"}, "uct_c"), ({"uct_c": math.nan}, "uct_c"),
    ({"seed": 1.5}, "seed"), ({"allow_hidden_information": 1}, "allow_hidden_information"),
])
def test_bad_options_raise(kwargs, name):
    with pytest.raises(InvalidOptionError, match=name):
        MCTSBot(**kwargs)
