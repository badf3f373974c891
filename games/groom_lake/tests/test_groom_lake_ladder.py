"""benchmarks/ladder.py's level calibrations on Groom Lake: each level in one seat, and neighbours at one table.

Moved from ``tests/test_ladder.py`` (its roles, deals and the shipped calibration's wording are this game's).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from aiplay.search import NUM_LEVELS
from aiplay.search.level import format_levels


LADDER = Path(__file__).resolve().parents[3] / "benchmarks" / "ladder.py"


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("ladder", LADDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
