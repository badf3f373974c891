"""A server that outlasts hostile clients (issue 37): cancelled solves, idle and half-open
connections, a failing accept(), huge lines.

Every test here is bounded: small caps (``--max-connections 2``), short timeouts, a few dozen
sockets at most, and a deadline on every wait.
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import time

import pytest

from test_protocol import Engine
from test_protocol_hardening import CappedEngine

from aiplay.testing.choose import pick_game, pick_variant

#: A short game (a solve of it may end at once), and a board game whose solve takes far longer
#: than any test: a solve of its opening runs until it is cancelled or its budget ends.
GAME = pick_game(short=True, perfect_information=True)
BOARD, BOARD_OPTIONS = pick_variant(board=True, perfect_information=True, players=2, native=True)

websockets = pytest.importorskip("websockets")
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402


def start_ws(*args, limit_files=None):
    """`aiplay serve --websocket 0 ARGS` as a separate program; (process, port)."""
    def lower_file_limit():
        if limit_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit_files, limit_files))

    proc = subprocess.Popen([sys.executable, "-m", "aiplay", "serve", "--websocket", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lower_file_limit if limit_files is not None else None)
    line = proc.stderr.readline()
    match = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
    assert match, (line, proc.poll())
    return proc, int(match.group(1))


def stop_ws(proc):
    if proc.poll() is None:
        proc.terminate()
    try:
        return proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


def hello(url, timeout=10):
    with connect(url, open_timeout=timeout) as ws:
        ws.send(json.dumps({"id": 1, "cmd": "hello"}))
        return json.loads(ws.recv(timeout=timeout))


def closed_by_server(sock, within):
    """True when the server closes ``sock`` (EOF or reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


# -- close and disconnect cancel a running solve ----------------------------------------------

def test_close_during_a_solve_cancels_it_at_once_and_the_slot_is_free_again():
    engine = CappedEngine("--max-searches", "1")
    try:
        g1 = engine.ok("new", game=BOARD, options=BOARD_OPTIONS)["game_id"]
        g2 = engine.ok("new", game=GAME)["game_id"]
        solving = engine.send("solve", game_id=g1, seconds=120)
        time.sleep(0.3)
        began = time.monotonic()
        engine.ok("close", game_id=g1)
        # Its one final reply comes at once (the best answer so far), not after 120 s.
        reply = engine.wait(solving, timeout=10)
        assert time.monotonic() - began < 10
        assert reply["ok"] and reply["result"]["interrupted"] is True, reply
        assert engine.ok("solve", game_id=g2, seconds=0.2)["result"]["values"]
    finally:
        engine.close()


def test_a_closed_game_s_search_stays_counted_until_its_thread_has_ended(monkeypatch):
    """A solver that ignores the cancel flag: the cap still holds while it runs on (in-process)."""
    import importlib

    from aiplay.protocol.server import Server, ServerLimits

    def slow_solve(state, *, seconds=None, nodes=None, observer=None, stoppable=False, on_engine=None,
                   progress=None):
        time.sleep(1.0)
        return {"values": [0.0]}

    monkeypatch.setattr(importlib.import_module("aiplay.solve"), "solve", slow_solve)
    replies = []
    server = Server(replies.append, ServerLimits(max_searches=1))
    for i in (1, 2, 3, 4):
        server.handle_line(json.dumps({"id": i, "cmd": "new", "game": GAME}))
    server.handle_line(json.dumps({"id": 5, "cmd": "solve", "game_id": "g1"}))
    server.handle_line(json.dumps({"id": 6, "cmd": "close", "game_id": "g1"}))
    server.handle_line(json.dumps({"id": 7, "cmd": "solve", "game_id": "g2"}))
    assert [r for r in replies if r["id"] == 7][0]["ok"] is False  # the closed game's solve still runs
    server.handle_line(json.dumps({"id": 8, "cmd": "quit"}))
    server.shutdown(timeout=0.1)  # gone before the solve ended: still counted by the shared limits
    other = Server(replies.append, server.limits)
    other.handle_line(json.dumps({"id": 9, "cmd": "new", "game": GAME}))
    other.handle_line(json.dumps({"id": 10, "cmd": "solve", "game_id": "g1"}))
    assert [r for r in replies if r["id"] == 10][0]["ok"] is False
    deadline = time.monotonic() + 10
    while server.limits.running_searches():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    other.handle_line(json.dumps({"id": 11, "cmd": "solve", "game_id": "g1"}))
    other.shutdown(timeout=3)  # waits for that solve (1 s): its reply has come
    assert [r for r in replies if r["id"] == 11][0]["ok"] is True


def test_quit_during_a_solve_ends_the_engine_promptly():
    engine = Engine()
    try:
        gid = engine.ok("new", game=BOARD, options=BOARD_OPTIONS)["game_id"]
        solving = engine.send("solve", game_id=gid, seconds=120)
        time.sleep(0.3)
        began = time.monotonic()
        engine.ok("quit")
        assert engine.wait(solving, timeout=10)["result"]["interrupted"] is True
        assert engine.proc.wait(timeout=10) == 0
        assert time.monotonic() - began < 10
    finally:
        engine.close()


def test_a_websocket_client_gone_during_a_solve_frees_its_search_slot():
    proc, port = start_ws("--max-searches", "1", "--max-connections", "2")
    try:
        url = f"ws://127.0.0.1:{port}/"
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"id": 1, "cmd": "new", "game": BOARD, "options": BOARD_OPTIONS}))
            assert json.loads(ws.recv(timeout=30))["ok"]
            ws.send(json.dumps({"id": 2, "cmd": "solve", "seconds": 120}))
            time.sleep(0.3)
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"id": 1, "cmd": "new", "game": GAME}))
            assert json.loads(ws.recv(timeout=30))["ok"]
            deadline = time.monotonic() + 5
            while True:  # the gone client's solve is cancelled within moments, not after 120 s
                ws.send(json.dumps({"id": 2, "cmd": "solve", "seconds": 0.2}))
                reply = json.loads(ws.recv(timeout=30))
                if reply["ok"]:
                    break
                assert "too many searches" in reply["error"], reply
                assert time.monotonic() < deadline, "the solve of the client gone still holds the slot"
                time.sleep(0.1)
    finally:
        stop_ws(proc)


# -- lines are limited while they are read -------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the peak RSS from /proc")
def test_a_huge_stdio_line_is_skipped_as_it_is_read_not_held_whole():
    engine = Engine()
    try:
        assert engine.ok("hello")["ok"]
        before = peak_rss_kib(engine.proc.pid)
        chunk = "x" * (1 << 20)
        engine.proc.stdin.write('{"id": 1, "cmd": "hello", "pad": "')
        for _ in range(64):  # a 64 MiB line, written a MiB at a time
            engine.proc.stdin.write(chunk)
        engine.proc.stdin.write('"}\n')
        engine.proc.stdin.flush()
        reply = engine.lines.get(timeout=60)
        assert reply["ok"] is False and "line too long" in reply["error"] and reply["id"] is None, reply
        assert engine.ok("hello")["ok"]  # one error reply, and the next line is read as a line
        assert engine.lines.empty()
        grown = peak_rss_kib(engine.proc.pid) - before
        assert grown < 32 * 1024, f"peak RSS grew by {grown} KiB reading a 64 MiB line"
    finally:
        engine.close()


def test_a_websocket_message_past_the_limit_closes_with_1009_and_the_server_serves_on():
    proc, port = start_ws()
    try:
        url = f"ws://127.0.0.1:{port}/"
        with connect(url, open_timeout=10, max_size=None) as ws:
            ws.send(json.dumps({"id": 1, "cmd": "hello", "pad": "x" * 2_000_000}))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert hello(url)["ok"]
    finally:
        stop_ws(proc)


# -- idle and half-open connections -------------------------------------------------------------

def test_idle_clients_are_closed_and_their_slots_reused():
    proc, port = start_ws("--max-connections", "2", "--idle-timeout", "1")
    try:
        url = f"ws://127.0.0.1:{port}/"
        first = connect(url, open_timeout=10).__enter__()
        second = connect(url, open_timeout=10).__enter__()
        with pytest.raises(InvalidStatus) as refused:
            hello(url)
        assert refused.value.response.status_code == 503
        for ws in (first, second):  # closed by the server after a second of silence
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert "idle" in closed.value.rcvd.reason and closed.value.rcvd.code == 1001
        deadline = time.monotonic() + 10
        while True:
            try:
                assert hello(url)["ok"]
                break
            except (InvalidStatus, ConnectionClosed):
                assert time.monotonic() < deadline, "the idle clients' slots were never freed"
                time.sleep(0.05)
    finally:
        stop_ws(proc)


def test_a_client_waiting_for_its_search_is_not_idle():
    proc, port = start_ws("--idle-timeout", "0.5")
    try:
        with connect(f"ws://127.0.0.1:{port}/", open_timeout=10) as ws:
            ws.send(json.dumps({"id": 1, "cmd": "new", "game": BOARD, "options": BOARD_OPTIONS}))
            assert json.loads(ws.recv(timeout=30))["ok"]
            ws.send(json.dumps({"id": 2, "cmd": "solve", "seconds": 1.5}))
            reply = json.loads(ws.recv(timeout=30))
            assert reply["id"] == 2 and reply["ok"], reply
    finally:
        stop_ws(proc)


def test_unfinished_handshakes_are_counted_and_timed_out():
    proc, port = start_ws("--max-connections", "2", "--max-handshakes", "2", "--handshake-timeout", "1")
    silent = []
    try:
        url = f"ws://127.0.0.1:{port}/"
        for _ in range(2):  # TCP connections that never send a byte
            silent.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        time.sleep(0.3)
        past = socket.create_connection(("127.0.0.1", port), timeout=10)  # one past --max-handshakes
        assert closed_by_server(past, 5)
        past.close()
        for sock in silent:  # closed after --handshake-timeout (the library's default was 10 s)
            began = time.monotonic()
            assert closed_by_server(sock, 5)
            assert time.monotonic() - began < 4
        assert hello(url)["ok"]
    finally:
        for sock in silent:
            sock.close()
        stop_ws(proc)


def test_a_failing_accept_is_survived_and_logged_not_an_exit_with_status_0():
    # So few file descriptors that accept() fails with EMFILE before any cap is reached (the
    # default --max-handshakes, 16, is above what is left; only options of the base commit here).
    proc, port = start_ws("--max-connections", "1000", limit_files=24)
    held = []
    try:
        url = f"ws://127.0.0.1:{port}/"
        for _ in range(80):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        time.sleep(1.5)
        assert proc.poll() is None, "the server exited when accept() failed"
        for sock in held:
            sock.close()
        held.clear()
        deadline = time.monotonic() + 20
        while True:  # served again once descriptors are free
            try:
                assert hello(url, timeout=5)["ok"]
                break
            except (InvalidStatus, ConnectionClosed, OSError):
                assert time.monotonic() < deadline, "never served again"
                time.sleep(0.2)
        assert proc.poll() is None
    finally:
        for sock in held:
            sock.close()
        _, err = stop_ws(proc)
    assert "accept() failed" in err and "Too many open files" in err, err[-2000:]


def test_the_new_options_refuse_bad_values_with_an_error():
    for args in (["--idle-timeout", "0"], ["--idle-timeout", "nan"], ["--handshake-timeout", "-1"],
                 ["--handshake-timeout", "1e9"], ["--max-handshakes", "0"]):
        done = subprocess.run([sys.executable, "-m", "aiplay", "serve", "--websocket", "0", *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, (args, done.stderr)
        assert "aiplay: error:" in done.stderr and "Traceback" not in done.stderr, done.stderr
