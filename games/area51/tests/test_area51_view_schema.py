"""Area 51's view schema at work: a view with an extra, missing or mistyped field is rejected.

Moved from ``tests/test_views.py`` (its field names and card names are this game's).
"""

from __future__ import annotations

import copy
import random

import pytest

import aiplay
from aiplay import AiplayError
from aiplay.viewdocs import schema_of
from aiplay.viewschema import ViewSchemaError, errors_of, validate


def _a_view(name: str = "area51"):
    state = aiplay.play_out(aiplay.load(name, backend="reference").new_initial_state(), random.Random(1),
                            max_steps=60)
    return state.view(1), schema_of(name)


def test_the_schema_rejects_extra_missing_and_mistyped_fields():
    view, schema = _a_view()
    validate(view, schema)
    extra = copy.deepcopy(view)
    extra["seats"][0]["secret"] = 1
    missing = copy.deepcopy(view)
    del missing["row"]
    mistyped = copy.deepcopy(view)
    mistyped["seats"][1]["hand_size"] = "five"
    out_of_range = copy.deepcopy(view)
    out_of_range["regions"][0]["security_markers"] = -1
    bad_name = copy.deepcopy(view)
    bad_name["row"] = {"purple 9": 1}
    for bad, expected in ((extra, "view.seats[0].secret: undocumented field"), (missing, "view.row: missing"),
                          (mistyped, "view.seats[1].hand_size: expected an integer"),
                          (out_of_range, "view.regions[0].security_markers: -1 is outside"),
                          (bad_name, "view.row.purple 9: not a documented card name")):
        errors = errors_of(bad, schema)
        assert any(e.startswith(expected) for e in errors), errors
        with pytest.raises(ViewSchemaError) as caught:
            validate(bad, schema)
        assert isinstance(caught.value, AiplayError) and "area51" in str(caught.value)
