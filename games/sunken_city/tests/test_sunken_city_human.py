"""A human seat at Sunken City in the CLI (`aiplay play sunken_city --human 0`), fed on standard input."""

from __future__ import annotations

import json
import subprocess
import sys


def _run_cli(args, lines, timeout=300):
    return subprocess.run([sys.executable, "-m", "aiplay", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)


def test_a_whole_sunken_city_game_with_a_human_seat_fed_on_stdin(tmp_path):
    record = tmp_path / "game.json"
    lines = ["help", "hint", "1", "hint", "1", "undo", f"save {record}", "2", f"load {record}",
             "bogus move", "9999", "moves"] + ["1"] * 3000
    done = _run_cli(["play", "sunken_city", "--players", "3", "--human", "0", "--bots", "random", "--seed", "1"],
                    lines)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "seats: 0=you, 1=random, 2=random" in out
    # The block under way says what is left of it (issue 38: a person counts nothing).
    assert "phase raise (4 pieces left to raise), card raise 4 move 3" in out
    assert "Streets (the sand timer): piles" in out
    assert "player 0, your move:" in out and "    1. card raise" in out
    assert "hint from the best bot (level 7, no deliberate mistakes):" in out  # not the seat's random one
    assert "undone: " in out
    saved = json.loads(record.read_text())
    # The card, then "raise" when it is the seat's only move (played for it), then a street taken back.
    n = len(saved["moves"])
    assert f"saved to {record}" in out and f"loaded {record}: {n} move{'s' if n != 1 else ''} played" in out
    assert "error: 'bogus move' is not a legal move here" in out and "error: no move number 9999" in out
    assert "--- player 0 (you) to play ---" in out and "player 1 (random)" in out
    # The game reached its end: returns, scores and the result are printed.
    assert "returns: [" in out and "scores: [" in out and "result: " in out
    assert saved["format"] == "aiplay-match" and [m["name"] for m in saved["moves"]][:1] == ["card raise 4 move 3"]
    assert all(m["name"] in ("card raise 4 move 3", "raise") for m in saved["moves"])  # the street was undone
