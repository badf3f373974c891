"""Arena records carry their moves and replay; indices stay unique when a match grows (issue 25)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from aiplay import arena
from aiplay.testing.choose import pick_variant

ROOT = Path(__file__).resolve().parent.parent
BOTS = ["mcts(iterations=10)", "random", "expectimax(depth=1)"]
#: A short perfect-information game with chance (expectimax searches perfect information).
GAME, OPTIONS = pick_variant(perfect_information=True, chance=True, short=True)


def test_a_resumed_longer_match_keeps_indices_unique(tmp_path: Path) -> None:
    out = str(tmp_path / "games.jsonl")
    arena.run(GAME, BOTS, games=2, seed=4, progress=False, out=out, game_options=OPTIONS)
    grown = arena.run(GAME, BOTS, games=4, seed=4, progress=False, out=out, game_options=OPTIONS)
    lines = [json.loads(line) for line in open(out).read().splitlines()[1:]]
    indices = [line["index"] for line in lines]
    assert len(indices) == len(set(indices)) == grown.games == 12
    assert sorted(indices) == list(range(12))
    assert {(r.index, r.deal, tuple(r.seating)) for r in grown.records} == {
        (line["index"], line["deal"], tuple(line["seating"])) for line in lines}


def test_records_carry_the_moves_and_replay_shows_one_game(tmp_path: Path) -> None:
    out = str(tmp_path / "games.jsonl")
    result = arena.run(GAME, BOTS[:2], games=2, seed=1, progress=False, out=out, game_options=OPTIONS)
    record = result.records[1]
    assert record.actions is not None and len(record.actions) == record.moves
    lines = list(arena.replay_lines(out, record.index))
    assert lines[-1] == f"returns: {record.returns}"
    assert sum(1 for line in lines if line[:5].strip().rstrip(".").isdigit()) == record.moves
    done = subprocess.run([sys.executable, "-m", "aiplay", "replay", out, "--index", str(record.index)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"game {record.index} (deal {record.deal}" in done.stdout and "returns: " in done.stdout
    missing = subprocess.run([sys.executable, "-m", "aiplay", "replay", out, "--index", "99"], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and "no game of index 99" in missing.stderr
