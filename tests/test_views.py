"""The documented views: every view of seeded games matches its game's schema, and the docs match it.

Each game describes its view once (``SCHEMA`` in ``games/<game>/view.py``). Here, for every
registered game, option set and engine, seeded random games are played and every seat's view of
(a thinning of) every position is validated against that schema: every field documented, of the
documented type and range, none missing, none extra. A field documented as visible to the seat
only must be null in the other seats' entries. ``docs/views/*.md`` must be what
``python -m aiplay.viewdocs --update`` writes from the schemas.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import aiplay
from aiplay.registry import game_entries
from aiplay.testing.generated import record_if_missing
from aiplay.views.docs import documented_games, main, render, schema_of, stale_files, view_doc_path
from aiplay.views.schema import (
    SEAT, Arr, Counts, Field, Int, Obj, Opt, Str, ViewSchema, errors_of,
)

from aiplay.testing.cases import game_variants, variant_id

ROOT = Path(__file__).resolve().parent.parent
CASES = game_variants()
#: Seeded games per case, and the most positions checked per game (long games are thinned).
GAMES = 2
POSITIONS = 120


def _seat_only_fields(schema: ViewSchema, strict: bool = True):
    """Names of the fields of the per-seat object (``seats[]``) documented as visible to the seat only
    (``strict``), or to the seat and, later, others too (e.g. "this seat; everyone once revealed")."""
    seats = next((f.node for f in schema.root.fields if f.name == "seats"), None)
    if not isinstance(seats, Arr) or not isinstance(seats.item, Obj):
        return []
    return [f.name for f in seats.item.fields if (f.visible == SEAT if strict else f.visible.startswith("this seat"))]


def test_every_registered_game_has_its_own_schema_and_docs_file():
    names = [entry.name for entry in game_entries(include_hidden=True)]
    assert names and sorted(documented_games()) == sorted(names)
    for name in names:
        assert schema_of(name).game == name
        # A game from before view.md lived in its folder arrives without it: it is written now.
        skip = record_if_missing(view_doc_path(name), lambda: render(schema_of(name)),
                                 "python -m aiplay.viewdocs --update")
        if skip:
            pytest.skip(skip)


@pytest.mark.parametrize("case", CASES, ids=[variant_id(c) for c in CASES])
def test_views_of_seeded_games_match_the_schema(case):
    name, backend, options = case
    game = aiplay.load(name, backend=backend, **options)
    schema = schema_of(name)
    seat_only = _seat_only_fields(schema)
    checked = 0
    for seed in range(GAMES):
        positions = [s.clone() for s in aiplay.random_walk(game.new_initial_state(), random.Random(seed))]
        for state in positions[::max(1, len(positions) // POSITIONS)] + positions[-1:]:
            for p in range(game.num_players):
                view = state.view(p)
                json.dumps(view, allow_nan=False)
                assert errors_of(view, schema) == [], f"{name} seat {p}"
                assert view["observer"] == p
                for q, entry in enumerate(view.get("seats", [])):
                    assert entry["seat"] == q
                    if q != p:
                        assert all(entry[f] is None for f in seat_only), f"seat {q}'s private field in {p}'s view"
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", sorted({c[0] for c in CASES}))
def test_seat_only_fields_show_for_the_seat_itself(name):
    """The seat-only fields are not always null: the seat sees its own (some position shows it)."""
    game = aiplay.load(name, backend="reference")
    seat_only = _seat_only_fields(schema_of(name), strict=False)
    if not seat_only:
        assert game.perfect_information, f"{name} hides information but documents no seat-only field"
        return
    shown = set()
    for state in aiplay.random_walk(game.new_initial_state(), random.Random(3), max_steps=400):
        for p in range(game.num_players):
            entry = state.view(p)["seats"][p]
            shown.update(f for f in seat_only if entry[f] is not None)
    assert shown == set(seat_only)


def test_node_types_check_what_they_say():
    schema = ViewSchema("demo", "A demo.", Obj("view", (
        Field("n", Opt(Int(minimum=0, maximum=3), "none"), "A number."),
        Field("s", Str(choices=("a", "b")), "A letter."),
        Field("c", Counts(("x", "y")), "Counts."),
        Field("l", Arr(Int(), size=(2, 2)), "A pair."),
    )))
    assert errors_of({"n": None, "s": "a", "c": {"x": 2}, "l": [1, 2]}, schema) == []
    errors = errors_of({"n": True, "s": "z", "c": {"x": 0}, "l": [1]}, schema)
    assert [e.split(":")[0] for e in errors] == ["view.n", "view.s", "view.c.x", "view.l"]
    text = render(schema)
    assert "| `n` | integer 0..3 or null |" in text and "`null`: none." in text


def test_docs_are_up_to_date_with_the_schemas():
    for name in documented_games():  # a missing file is written (and reported) by the test above
        record_if_missing(view_doc_path(name), lambda: render(schema_of(name)), "python -m aiplay.viewdocs --update")
    assert stale_files() == [], "run: python -m aiplay.viewdocs --update"


def test_viewdocs_writes_and_checks(tmp_path, capsys):
    assert main(["--out", str(tmp_path)]) == 1  # nothing written yet: every file is missing
    assert "out of date" in capsys.readouterr().out
    assert main(["--out", str(tmp_path), "--update"]) == 0
    assert main(["--out", str(tmp_path)]) == 0
    name = documented_games()[0]
    path = tmp_path / f"{name}.md"
    assert path.read_text() == view_doc_path(name).read_text()
    path.write_text(path.read_text() + "edited by hand\n")
    assert stale_files(tmp_path) == [path]
