"""benchmarks/ladder.py: its tables, its anchored ratings and the level calibration it ships."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from aiplay.search import NUM_LEVELS
from aiplay.search.level import format_levels, level_ratings

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


def test_quick_ladder_is_anchored_at_random_and_calibrates_adjacent_levels(ladder):
    entry = ladder.ladder("area1851", 2, games=2, seed=3, quick=True)
    bots = {b["name"]: b for b in entry["bots"]}
    assert bots["random"]["rating"] == 0
    assert all(b["low"] <= b["rating"] <= b["high"] for b in entry["bots"])
    assert entry["total_games"] == 2 * len(entry["tables"])
    (adjacent,) = entry["adjacent"]
    assert adjacent["level"] == 2 and adjacent["vs"] == 1 and adjacent["games"] == 2
    low, high = adjacent["interval"]
    assert 0 <= low <= adjacent["win_rate"] <= high <= 1
    doc = ladder.calibration([entry], "test")
    assert doc["games"]["area1851"]["2"]["levels"] == entry["levels"]
    json.dumps(doc)


def test_levels_only_plays_the_level_tables_and_random(ladder):
    entry = ladder.ladder("area1851", 2, games=2, seed=3, quick=True, levels_only=True)
    assert [b["name"] for b in entry["bots"]] == ["random", "level-1", "level-2"]
    assert entry["tables"] == [["level-1", "level-2"], ["random", "level-1"]]
    assert entry["bots"][0]["rating"] == 0 and entry["adjacent"][0]["games"] == 2


def test_level_seats_pairs_each_level_with_the_one_below_deal_by_deal(ladder, monkeypatch, tmp_path):
    monkeypatch.setattr(ladder, "NUM_LEVELS", 2)  # levels 1 and 2 only: the test stays short
    entry = ladder.level_seats("groom_lake", 3, seed=4, out_dir=str(tmp_path))
    assert [lv["level"] for lv in entry["levels"]] == [1, 2] and entry["players"] == 3
    for lv in entry["levels"]:
        assert lv["games"] == 3 and 0 <= lv["interval"][0] <= lv["win_rate"] <= lv["interval"][1] <= 1
        assert sum(split["games"] for split in lv["by_role"].values()) == 3
    (adjacent,) = entry["adjacent"]
    assert adjacent["deals"] == 3 and adjacent["better"] + adjacent["worse"] <= 3
    tied = 3 - adjacent["better"] - adjacent["worse"]
    assert adjacent["share"] == pytest.approx((adjacent["better"] + tied / 2) / 3)
    assert adjacent["share_interval"][0] <= adjacent["share"] <= adjacent["share_interval"][1]
    # The same deals and seats for both levels: the files hold the same games, bot 0 in the same seats.
    files = sorted(tmp_path.iterdir())
    games = [[json.loads(line) for line in f.read_text().splitlines()[1:]] for f in files]
    assert [(g["deal"], g["seating"]) for g in games[0]] == [(g["deal"], g["seating"]) for g in games[1]]
    previous = {"games": {"groom_lake": {"3": {"players": 3, "games_per_table": 1, "seed": 1, "levels": [],
                                               "adjacent": []}}}}
    doc = ladder.calibration([], "test", previous, [entry])
    assert doc["games"]["groom_lake"]["3"]["in_one_seat"]["adjacent"] == entry["adjacent"]
    from aiplay.search import level
    monkeypatch.setattr(level, "_load_calibration", lambda: doc)
    text = format_levels("groom_lake")
    assert "each level in one seat against the heuristic on the same 3 deals" in text
    assert f"level 2 did better than level 1 in {adjacent['better']} deals" in text


def test_level_pairs_meet_neighbours_at_one_table_with_the_heuristic(ladder, monkeypatch, tmp_path):
    monkeypatch.setattr(ladder, "NUM_LEVELS", 2)  # levels 1 and 2 only: the test stays short
    entry = ladder.level_pairs("groom_lake", 3, seed=4, out_dir=str(tmp_path))
    (adjacent,) = entry["adjacent"]
    assert adjacent["level"] == 2 and adjacent["vs"] == 1 and adjacent["games"] == 3
    assert adjacent["won"] + adjacent["lost"] + adjacent["tied"] == 3
    assert adjacent["win_rate"] == pytest.approx((adjacent["won"] + adjacent["tied"] / 2) / 3)
    assert 0 <= adjacent["interval"][0] <= adjacent["win_rate"] <= adjacent["interval"][1] <= 1
    (results,) = sorted(tmp_path.iterdir())
    lines = results.read_text().splitlines()
    header = json.loads(lines[0])
    assert [b.get("name") for b in header["bots"]] == ["level-2", "level-1", "heuristic-new"]
    # Every game's tally agrees with its returns: the level-2 bot (index 0) against level 1 (index 1).
    records = [json.loads(line) for line in lines[1:]]
    won = sum(r["returns"][r["seating"].index(0)] > r["returns"][r["seating"].index(1)] for r in records)
    assert won == adjacent["won"]
    previous = {"games": {"groom_lake": {"3": {"players": 3, "games_per_table": 1, "seed": 1, "levels": [],
                                               "adjacent": []}}}}
    doc = ladder.calibration([], "test", previous, pairs=[entry])
    assert doc["games"]["groom_lake"]["3"]["in_pairs"]["adjacent"] == entry["adjacent"]
    from aiplay.search import level
    monkeypatch.setattr(level, "_load_calibration", lambda: doc)
    text = format_levels("groom_lake")
    assert "each level against the one below, the other seats the heuristic (3 games a pair" in text
    assert f"won {adjacent['won']}, lost {adjacent['lost']}, tied {adjacent['tied']}" in text


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
