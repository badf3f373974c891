"""`aiplay serve` driven as a subprocess over pipes, as a frontend in another language would.

This file does not import aiplay: it knows the engine only through docs/protocol.md. The games
come from the engine's `hello` (so every registered game is covered, none is named here).
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest


def _refuse_constant(name):
    raise ValueError(f"{name} in an engine reply: not strict JSON")


class Engine:
    """A client of `python -m aiplay serve`: send requests, read replies by id."""

    def __init__(self):
        env = dict(os.environ, AIPLAY_SHOW_HIDDEN_GAMES="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "aiplay", "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                                     encoding="utf-8", bufsize=1)
        self.lines: "queue.Queue[dict]" = queue.Queue()
        self._next = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            # Every engine line must be one strict JSON object: NaN or Infinity would break JSON.parse.
            self.lines.put(json.loads(line, parse_constant=_refuse_constant))
        self.lines.put({"type": "eof"})

    def send_raw(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def send(self, cmd, **fields):
        self._next += 1
        request = {"id": self._next, "cmd": cmd, **fields}
        self.send_raw(json.dumps(request))
        return self._next

    def wait(self, request_id, timeout=60, infos=None):
        """The final reply to ``request_id`` (info lines go to ``infos``)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line.get("type") != "eof", "the engine exited"
            if line.get("type") == "info":
                if infos is not None:
                    infos.append(line)
                continue
            assert line["id"] == request_id, line
            return line

    def ask(self, cmd, **fields):
        return self.wait(self.send(cmd, **fields))

    def ok(self, cmd, **fields):
        reply = self.ask(cmd, **fields)
        assert reply["ok"], reply
        return reply

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(10)
            except Exception:
                self.proc.kill()
        self.proc.stdin.close() if not self.proc.stdin.closed else None


@pytest.fixture(scope="module")
def engine():
    e = Engine()
    yield e
    e.close()


def test_hello_describes_engine_games_and_bots(engine):
    hello = engine.ok("hello")
    assert hello["engine"] == "aiplay" and hello["protocol"] == 1
    assert len(hello["games"]) >= 3
    assert {"random", "mcts", "ismcts"} <= set(hello["bots"])
    for cmd in ("new", "position", "legal", "apply", "undo", "view", "go", "stop", "analyse", "solve", "quit"):
        assert cmd in hello["commands"]


def _play_whole_game(engine, name, seed):
    """Random moves by name or id, chance by the engine, one seat by `go` with play; undo/redo checks."""
    rng = random.Random(seed)
    new = engine.ok("new", viewer="all", game=name, seed=seed)
    gid = new["game_id"]
    status = new
    steps = 0
    while not status["terminal"]:
        steps += 1
        if status["chance"]:
            status = engine.ok("chance", game_id=gid)
            assert status["chance_moves"] and not status["chance"]
            continue
        legal = engine.ok("legal", game_id=gid)
        assert legal["player"] == status["to_move"] and legal["actions"]
        if status["to_move"] == 0 and steps % 7 == 0:
            # The engine's own bot plays this move.
            reply = engine.ok("go", game_id=gid, bot="random", play=True)
            assert reply["type"] == "bestmove" and reply["move"]["action"] == reply["action"]
            assert reply["action"] in [a["id"] for a in legal["actions"]]
            status = reply["status"]
            continue
        choice = rng.choice(legal["actions"])
        before = engine.ok("position", game_id=gid)["state"]
        status = engine.ok("apply", game_id=gid, action=choice["name"] if rng.random() < 0.5 else choice["id"])
        assert status["move"]["action"] == choice["id"] and status["move"]["name"] == choice["name"]
        if steps % 11 == 0:  # undo gives back the position; redo replays
            after = engine.ok("position", game_id=gid)["state"]
            undone = engine.ok("undo", game_id=gid)
            assert undone["undone"][0]["action"] == choice["id"]
            assert engine.ok("position", game_id=gid)["state"] == before
            redone = engine.ok("redo", game_id=gid)
            assert engine.ok("position", game_id=gid)["state"] == after
            status = redone
    assert status["terminal"] and len(status["returns"]) == len(status["scores"])
    history = engine.ok("history", game_id=gid)["moves"]
    assert len(history) == status["ply"]
    # The game record reloads to the same final position.
    record = engine.ok("record", game_id=gid)["record"]
    loaded = engine.ok("load", viewer="all", record=record)
    assert engine.ok("position", game_id=loaded["game_id"])["state"] == engine.ok(
        "position", game_id=gid)["state"]
    for g in (gid, loaded["game_id"]):
        engine.ok("close", game_id=g)
    return status


def test_whole_games_of_every_game_over_pipes(engine):
    names = [g["name"] for g in engine.ok("hello")["games"]]
    for i, name in enumerate(names):
        final = _play_whole_game(engine, name, seed=i + 1)
        assert final["terminal"], name
    assert engine.ok("games")["open"] == []


def test_go_streams_info_and_stop_ends_it_quickly(engine):
    names = [g["name"] for g in engine.ok("hello")["games"]]
    latencies = []
    for name in names[:3]:
        gid = engine.ok("new", viewer="all", game=name, seed=3, auto_chance=True)["game_id"]
        go = engine.send("go", game_id=gid, seconds=60, info_seconds=0.05)
        infos = []
        time.sleep(0.5)
        stop = engine.send("stop", game_id=gid)
        asked = time.monotonic()
        replies = {}
        while len(replies) < 2:
            line = engine.lines.get(timeout=30)
            if line.get("type") == "info":
                infos.append(line)
                continue
            replies[line["id"]] = line
            if line["id"] == go:
                latencies.append(time.monotonic() - asked)
        assert replies[stop]["ok"] and replies[stop]["stopped"] == [gid]
        best = replies[go]
        assert best["type"] == "bestmove" and best["ok"] and best["stopped"], best
        assert infos and all(i["id"] == go and i["best"]["name"] for i in infos)
        legal = engine.ok("legal", game_id=gid)
        assert best["action"] in [a["id"] for a in legal["actions"]]
        assert [p["name"] for p in best["pv"]] == best["analysis"]["principal_variation_names"]
        engine.ok("close", game_id=gid)
    # About 50 ms is the promise; a loaded 2-core CI machine gets some slack here.
    assert max(latencies) < 0.5, latencies


def test_two_games_at_once_one_searching(engine):
    names = [g["name"] for g in engine.ok("hello")["games"]]
    a = engine.ok("new", viewer="all", game=names[0], seed=1, auto_chance=True)["game_id"]
    b = engine.ok("new", viewer="all", game=names[-1], seed=2, auto_chance=True)["game_id"]
    go = engine.send("go", game_id=a, seconds=30)
    time.sleep(0.2)
    # Game a is busy: moves on it are refused; game b plays on.
    busy = engine.ask("apply", game_id=a, action=0)
    assert not busy["ok"] and "searching" in busy["error"]
    move = engine.ok("legal", game_id=b)["actions"][0]
    assert engine.ok("apply", game_id=b, action=move["id"])["move"]["name"] == move["name"]
    assert engine.ok("status", game_id=a)["searching"]
    stop = engine.send("stop")
    finals = {}
    while len(finals) < 2:
        line = engine.lines.get(timeout=30)
        if line.get("type") != "info":
            finals[line["id"]] = line
    assert finals[go]["ok"] and finals[stop]["ok"]
    assert engine.ok("analyse", game_id=a, iterations=50)["analysis"]["counters"]["iterations"] == 50
    for g in (a, b):
        engine.ok("close", game_id=g)


def test_bad_requests_get_errors_and_change_nothing(engine):
    names = [g["name"] for g in engine.ok("hello")["games"]]
    gid = engine.ok("new", viewer="all", game=names[0], seed=5, auto_chance=True)["game_id"]
    before = engine.ok("position", game_id=gid)
    bad = [
        "not json", "[1, 2]", "{}", '{"cmd": 5}', '{"cmd": "dance"}', '{"cmd": "apply"}',
        json.dumps({"cmd": "apply", "game_id": gid, "action": 10 ** 9}),
        json.dumps({"cmd": "apply", "game_id": gid, "action": "no such move"}),
        json.dumps({"cmd": "apply", "game_id": gid, "action": [1]}),
        json.dumps({"cmd": "apply", "game_id": "nope", "action": 0}),
        json.dumps({"cmd": "undo", "game_id": gid, "count": 10 ** 6}),
        json.dumps({"cmd": "redo", "game_id": gid}),
        json.dumps({"cmd": "position", "game_id": gid, "state": {"format": "x"}}),
        json.dumps({"cmd": "new", "game": "no such game"}),
        json.dumps({"cmd": "new", "game": names[0], "options": {"nope": 1}}),
        json.dumps({"cmd": "go", "game_id": gid, "bot": "nobot"}),
        json.dumps({"cmd": "go", "game_id": gid, "iterations": -3}),
        json.dumps({"cmd": "view", "game_id": gid, "player": 99}),
        '{"cmd": "go", "seconds": NaN}', "", "   ",
    ]
    for line in bad:
        engine.send_raw(line)
        reply = engine.lines.get(timeout=30)
        assert reply["type"] == "reply" and reply["ok"] is False and reply["error"], (line, reply)
    after = engine.ok("position", game_id=gid)
    assert after["state"] == before["state"] and after["ply"] == before["ply"]
    assert len(engine.ok("games")["open"]) == 1
    engine.ok("close", game_id=gid)


def test_solve_answers_or_says_the_solver_is_missing(engine):
    names = [g["name"] for g in engine.ok("hello")["games"]]
    gid = engine.ok("new", viewer="all", game=names[0], seed=1, auto_chance=True)["game_id"]
    has_solver = (Path(__file__).resolve().parents[1] / "aiplay" / "solve.py").exists()
    if has_solver:
        # At the end of a game a solver has nothing to search: it must answer at once.
        status = engine.ok("status", game_id=gid)
        while not status["terminal"]:
            status = engine.ok("go", game_id=gid, bot="random", play=True)["status"]
    reply = engine.wait(engine.send("solve", game_id=gid), timeout=120)
    assert reply["cmd"] == "solve" and reply["id"] is not None
    if has_solver:
        assert reply["ok"] and "result" in reply or reply["error"], reply
    else:
        assert not reply["ok"] and "solver not available" in reply["error"], reply
    engine.ok("close", game_id=gid)


def test_quit_ends_the_engine_after_replying():
    e = Engine()
    reply = e.ok("quit")
    assert reply["bye"] is True
    assert e.proc.wait(10) == 0


def test_hello_announces_each_games_capabilities(engine):
    """Hidden information, simultaneous phases, SVG, utility range and player counts, consistent
    with what the engine then does (checked through the protocol only)."""
    for entry in engine.ok("hello")["games"]:
        name = entry["name"]
        assert isinstance(entry["hidden_information"], bool) and isinstance(entry["simultaneous_phases"], bool)
        assert not entry["simultaneous_phases"] or entry["hidden_information"], name  # hidden until the phase ends
        low, high = entry["utility"]["min"], entry["utility"]["max"]
        assert low < high, name
        counts = entry["players"]
        assert 1 <= counts["min"] <= counts["default"] <= counts["max"], name
        # A hidden-information game needs a viewer; a perfect-information one opens without.
        unseated = engine.wait(engine.send("new", game=name, seed=1))
        assert unseated["ok"] != entry["hidden_information"], name
        new = engine.ok("new", game=name, seed=1, auto_chance=True, viewer=0)
        assert new["options"].get("players", counts["default"]) == counts["default"]
        seated = engine.ok("view", game_id=new["game_id"], player=0, render="svg")
        assert (seated["svg"] is not None) == entry["svg"], name
        if "players" in entry["options"]:
            for bad in (counts["min"] - 1, counts["max"] + 1):
                refused = engine.wait(engine.send("new", game=name, players=bad, viewer=0))
                assert not refused["ok"], (name, bad)
            for good in (counts["min"], counts["max"]):
                engine.ok("new", game=name, players=good, seed=2, viewer=0)
