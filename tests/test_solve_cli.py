"""The solver as a person uses it (issue 25): saved games, partial options, every move's value,
progress, Ctrl-C and the protocol's stop with the best answer so far."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiplay
from aiplay.match import Match
from aiplay.protocol import Server
from aiplay.solve import example_positions, load_position, solve
from aiplay.testing.choose import pick_game

ROOT = Path(__file__).resolve().parent.parent
#: A short perfect-information game with chance, and the first of its shipped positions not marked slow
#: (near the end: it solves exactly in moments).
GAME = pick_game(perfect_information=True, chance=True, short=True)
RACE = next(p for p in example_positions()
            if json.loads(p.read_text()).get("position", {}).get("game") == GAME
            and not json.loads(p.read_text()).get("slow"))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aiplay", "solve", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_a_saved_game_is_a_position(tmp_path: Path) -> None:
    race, _ = load_position(RACE)  # a saved game that starts at a shipped position near the end
    match = Match(race.game, state=race, seed=random.Random(3))
    for _ in range(5):
        if match.state.is_chance_node():
            match.play_chance()
        else:
            match.apply(match.state.legal_actions()[0])
        if match.is_terminal():  # the race can end within five moves: save the position before the end
            match.undo()
            break
    saved = tmp_path / "game.json"
    match.save(str(saved))
    state, _ = load_position(saved)
    assert state.to_dict() == match.state.to_dict()
    done = _cli(str(saved), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "value (exact)" in done.stdout


def test_options_left_out_take_their_defaults(tmp_path: Path) -> None:
    doc = json.loads(RACE.read_text())
    position = doc.get("position", doc)
    full = aiplay.load(GAME, **position["options"]).options
    default = aiplay.load(GAME).options
    position["options"] = {k: v for k, v in full.items() if default.get(k) != v}
    assert len(position["options"]) < len(full)
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(doc))
    state, _ = load_position(partial)
    original, _ = load_position(RACE)
    assert state.to_dict() == original.to_dict()


def test_json_gives_every_root_move_its_value_and_the_pv() -> None:
    done = _cli(str(RACE), "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    state, _ = load_position(RACE)
    assert sorted(row["action"] for row in out["move_values"]) == sorted(state.legal_actions())
    player = out["player"]
    best = max(row["values"][player] for row in out["move_values"])
    assert abs(best - out["values"][player]) < 1e-9
    assert out["pv"]["action"] == out["best_action"]


def test_progress_on_stderr_and_observer_ignored_with_a_notice() -> None:
    done = _cli(str(RACE), "--observer", "1")
    assert done.returncode == 0, done.stderr
    assert f"notice: {GAME} has no hidden information: --observer is ignored" in done.stderr
    assert "solve: depth 1," in done.stderr and "nodes" in done.stderr
    assert "value (exact)" in done.stdout


def _long_position(tmp_path: Path) -> Path:
    path = tmp_path / "start.json"
    path.write_text(aiplay.load(GAME).new_initial_state().to_json())  # the default options: a long game
    return path


def test_ctrl_c_prints_the_best_answer_so_far(tmp_path: Path) -> None:
    # preexec_fn: a child of a non-interactive shell may inherit SIGINT ignored; a terminal has the default.
    proc = subprocess.Popen([sys.executable, "-m", "aiplay", "solve", str(_long_position(tmp_path))], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = b""
    deadline = time.monotonic() + 200
    while b"solve: depth 2," not in seen and time.monotonic() < deadline:
        if select.select([proc.stderr.fileno()], [], [], 0.5)[0]:
            chunk = os.read(proc.stderr.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    assert b"solve: depth 2," in seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    text = out.decode()
    assert "value (not exact)" in text and "best move: " in text and "stopped after a depth-" in text
    assert "Traceback" not in err.decode()
    assert err.decode().strip().splitlines()[-1].startswith("aiplay: solve interrupted")


def test_stop_ends_a_protocol_solve_with_its_best_answer_so_far() -> None:
    replies = []
    server = Server(replies.append)
    server.handle_line(json.dumps({"id": 0, "cmd": "new", "game": GAME, "seed": 1}))
    server.handle_line(json.dumps({"id": 1, "cmd": "solve", "seconds": 120}))
    time.sleep(1.0)
    server.handle_line(json.dumps({"id": 2, "cmd": "stop"}))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(r.get("id") == 1 for r in list(replies)):
        time.sleep(0.05)
    server.shutdown()
    final = [r for r in replies if r.get("id") == 1]
    assert final and final[0]["ok"] is True, final
    result = final[0]["result"]
    assert result["interrupted"] is True and result["exact"] is False
    assert result["best_action"] is not None


def test_the_library_solve_is_unchanged_without_the_new_options() -> None:
    state, _ = load_position(RACE)
    plain = solve(state)
    assert plain.exact and not plain.interrupted and plain.move_values is None
