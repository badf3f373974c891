"""benchmarks/ladder.py: its tables, its anchored ratings and the level calibration it ships."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from aiplay.search import NUM_LEVELS
from aiplay.search.level import format_levels, level_ratings
from aiplay.testing.choose import games_with

LADDER = Path(__file__).resolve().parent.parent / "benchmarks" / "ladder.py"


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("ladder", LADDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tables_are_windows_of_neighbours(ladder):
    assert ladder.windows([0, 1, 2, 3], 2) == [(0, 1), (1, 2), (2, 3)]
    assert ladder.windows([4, 5, 6, 7], 3) == [(4, 5, 6), (5, 6, 7)]
    assert ladder.windows([4, 5], 3) == [(4, 5)]


def test_every_board_game_has_the_full_ladder(ladder):
    for game in ladder.GAMES:
        rungs = ladder.ladder_rungs(game)
        assert rungs[0] == "random" and ladder.NEW_HEURISTIC in rungs
        for n in ladder.SEARCH_ITERATIONS:
            assert any(f"iterations={n}," in r for r in rungs)
    assert len(ladder.level_rungs()) == NUM_LEVELS


def _two_player_ladder_game(ladder):
    """The first board game of the ladder (names sorted) that seats two players."""
    return next(g for g in sorted(ladder.GAMES) if g in games_with(board=True, accepts_players=2))


def test_quick_ladder_is_anchored_at_random_and_calibrates_adjacent_levels(ladder):
    game = _two_player_ladder_game(ladder)
    entry = ladder.ladder(game, 2, games=2, seed=3, quick=True)
    bots = {b["name"]: b for b in entry["bots"]}
    assert bots["random"]["rating"] == 0
    assert all(b["low"] <= b["rating"] <= b["high"] for b in entry["bots"])
    assert entry["total_games"] == 2 * len(entry["tables"])
    (adjacent,) = entry["adjacent"]
    assert adjacent["level"] == 2 and adjacent["vs"] == 1 and adjacent["games"] == 2
    low, high = adjacent["interval"]
    assert 0 <= low <= adjacent["win_rate"] <= high <= 1
    doc = ladder.calibration([entry], "test")
    assert doc["games"][game]["2"]["levels"] == entry["levels"]
    json.dumps(doc)


def test_levels_only_plays_the_level_tables_and_random(ladder):
    entry = ladder.ladder(_two_player_ladder_game(ladder), 2, games=2, seed=3, quick=True, levels_only=True)
    assert [b["name"] for b in entry["bots"]] == ["random", "level-1", "level-2"]
    assert entry["tables"] == [["level-1", "level-2"], ["random", "level-1"]]
    assert entry["bots"][0]["rating"] == 0 and entry["adjacent"][0]["games"] == 2


def test_a_pilot_level_table_and_some_pairs(ladder, monkeypatch, tmp_path):
    from aiplay.registry import game_entry
    from aiplay.search.level import levels_for

    game = _two_player_ladder_game(ladder)
    reference = game_entry(game).reference
    monkeypatch.setattr(reference, "difficulty_levels", reference.difficulty_levels)  # undone after the test
    before = levels_for(reference)
    for bad in (["--pairs", "9", "--level-pairs"], ["--pairs", "2"], ["--pairs", "x", "--level-pairs"],
                ["--level-table", "1,0.5,3"], ["--level-table", "a;b"],
                ["--level-table", ";".join(["1,0.5,3"] * NUM_LEVELS), "--write-levels"]):
        with pytest.raises(SystemExit):
            ladder.main(["--game", game, "--tables", "none", *bad])
        assert levels_for(reference) == before  # a refused table is not left behind
    table = ";".join(f"{k},0.5,3" for k in range(1, NUM_LEVELS)) + f";{NUM_LEVELS},0,1"
    out = tmp_path / "pilot.json"
    assert ladder.main(["--game", game, "--tables", "none", "--level-pairs", "--pairs", "2", "--target-games", "2",
                        "--level-table", table, "--json", str(out)]) == 0
    assert [lv.iterations for lv in levels_for(reference)] == list(range(1, NUM_LEVELS + 1))
    (pairs,) = json.loads(out.read_text())["level_pairs"]
    (adjacent,) = pairs["adjacent"]
    assert adjacent["level"] == 2 and adjacent["vs"] == 1 and adjacent["games"] == 2


def _shipped_calibration():
    """``{game: tables}`` read straight from every game folder's ``levels.json``."""
    from aiplay.registry import game_entries

    shipped = {e.name: json.loads((e.folder / "levels.json").read_text(encoding="utf-8"))["levels"]
               for e in game_entries(include_hidden=True) if (e.folder / "levels.json").exists()}
    if not shipped:
        pytest.fail("no game folder ships a levels.json: run benchmarks/ladder.py --write-levels")
    return shipped


def test_the_shipped_calibration_is_printed():
    for game, tables in _shipped_calibration().items():
        assert level_ratings(game) == tables
        text = format_levels(game)
        for size, table in tables.items():
            assert f"{size} players" in text
            assert {r["level"] for r in table["levels"]} <= set(range(1, NUM_LEVELS + 1))


def test_the_shipped_calibration_is_of_the_shipped_level_tables():
    """A level table changed without a new calibration fails here (run ladder.py --write-levels)."""
    import aiplay
    from aiplay.search.level import levels_for

    for game, tables in _shipped_calibration().items():
        table = levels_for(aiplay.load(game))
        for size, calibrated in tables.items():
            for entry in calibrated["levels"]:
                level = table[entry["level"] - 1]
                assert (entry["iterations"], entry["mistake_rate"], entry["width"], entry["ties"]) == \
                    (level.iterations, level.mistake_rate, level.width, level.ties), (game, size, entry["level"])
