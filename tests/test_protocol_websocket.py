"""`aiplay serve --websocket PORT`: the same protocol over WebSocket, one message per request or reply.

Like tests/test_protocol.py, the client side does not import aiplay.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from websockets.sync.client import connect


def _serve(*flags):
    proc = subprocess.Popen([sys.executable, "-m", "aiplay", "serve", "--websocket", "0", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    match = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
    assert match, line
    return proc, match.group(0)


@pytest.fixture(scope="module")
def ws_url():
    # These tests open games with "viewer": "all" (every hand shown): a trusted local client (issue 37).
    proc, url = _serve("--trust-clients")
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def untrusted_ws_url():
    proc, url = _serve()
    yield url
    proc.terminate()
    proc.wait(10)


class Client:
    def __init__(self, url):
        self.ws = connect(url, open_timeout=10).__enter__()  # entered: it closes in the test
        self.next = 0

    def send(self, cmd, **fields):
        self.next += 1
        self.ws.send(json.dumps({"id": self.next, "cmd": cmd, **fields}))
        return self.next

    def final(self, request_id, infos=None):
        while True:
            reply = json.loads(self.ws.recv(timeout=60))
            if reply["type"] == "info":
                if infos is not None:
                    infos.append(reply)
                continue
            assert reply["id"] == request_id, reply
            return reply

    def ok(self, cmd, **fields):
        reply = self.final(self.send(cmd, **fields))
        assert reply["ok"], reply
        return reply


def test_a_game_over_websocket(ws_url):
    client = Client(ws_url)
    hello = client.ok("hello")
    assert hello["protocol"] == 1
    names = [g["name"] for g in hello["games"]]
    status = client.ok("new", viewer="all", game=names[0], seed=1, auto_chance=True)
    gid = status["game_id"]
    for _ in range(10):
        if status["terminal"]:
            break
        move = client.ok("legal", game_id=gid)["actions"][0]
        status = client.ok("apply", game_id=gid, action=move["name"])
        assert status["move"]["name"] == move["name"]
    # A position with a choice, so that the search runs its whole budget (a lone move is answered at once).
    while len(client.ok("legal", game_id=gid)["actions"]) == 1:
        status = client.ok("apply", game_id=gid, action=client.ok("legal", game_id=gid)["actions"][0]["name"])
    infos = []
    go = client.send("go", game_id=gid, iterations=200, info_every=50)
    best = client.final(go, infos)
    assert best["type"] == "bestmove" and best["ok"] and len(infos) == 4
    assert [i["iterations"] for i in infos] == [50, 100, 150, 200]
    # Malformed messages get error replies; the connection and the game stay.
    before = client.ok("position", game_id=gid)["state"]
    for bad in ("not json", "{}", json.dumps({"cmd": "apply", "game_id": gid, "action": -5})):
        client.ws.send(bad)
        reply = json.loads(client.ws.recv(timeout=30))
        assert reply["ok"] is False and reply["error"]
    assert client.ok("position", game_id=gid)["state"] == before
    client.ws.close()


def test_each_connection_has_its_own_games_and_stop_is_quick(ws_url):
    a, b = Client(ws_url), Client(ws_url)
    names = [g["name"] for g in a.ok("hello")["games"]]
    gid = a.ok("new", viewer="all", game=names[-1], seed=2, auto_chance=True)["game_id"]
    assert b.ok("games")["open"] == []  # b does not see a's game
    go = a.send("go", game_id=gid, seconds=60)
    time.sleep(0.3)
    stop = a.send("stop")
    asked = time.monotonic()
    finals = {}
    while len(finals) < 2:
        reply = json.loads(a.ws.recv(timeout=30))
        if reply["type"] != "info":
            finals[reply["id"]] = reply
            if reply["id"] == go:
                latency = time.monotonic() - asked
    assert finals[go]["stopped"] and finals[stop]["stopped"] == [gid]
    assert latency < 0.5, latency
    a.ws.close()
    b.ws.close()


def test_plain_http_gets_a_short_answer_not_files(ws_url):
    http = ws_url.replace("ws://", "http://")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(http + "index.html", timeout=10)
    assert err.value.code == 426  # serve --websocket alone serves no files


def test_the_demo_server_serves_its_page_and_nothing_outside_it():
    proc = subprocess.Popen([sys.executable, "-m", "aiplay", "demo", "--port", "0", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
        assert match
        base = match.group(0)
        with urllib.request.urlopen(base, timeout=10) as page:
            assert page.headers["Content-Type"].startswith("text/html")
            assert b"demo.js" in page.read()
        with urllib.request.urlopen(base + "demo.js", timeout=10) as script:
            assert b"new WebSocket" in script.read()
        for path in ("missing.js", "../pyproject.toml", "%2e%2e/pyproject.toml", "..%2fwebdemo.py"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(base + path, timeout=10)
            assert err.value.code == 404, path
        # The page's engine answers on the same port.
        client = Client(base.replace("http://", "ws://") + "ws")
        assert client.ok("hello")["engine"] == "aiplay"
        client.ws.close()
    finally:
        proc.terminate()
        proc.wait(10)


def test_viewer_all_is_refused_over_websocket_without_trust_clients(untrusted_ws_url, ws_url):
    """Issue 37: "viewer": "all" is for trusted local use; a WebSocket client is trusted only with --trust-clients."""
    client = Client(untrusted_ws_url)
    hello = client.ok("hello")
    assert hello["trusted"] is False
    hidden = next(g for g in hello["games"] if g["hidden_information"])
    refused = client.final(client.send("new", game=hidden["name"], viewer="all", seed=1))
    assert refused["ok"] is False and refused["error_type"] == "ProtocolError" and "--trust-clients" in refused["error"]
    # Its own seat is fine, and then no request may widen it, nor act for another seat.
    new = client.ok("new", game=hidden["name"], viewer=0, seed=1, auto_chance=True)
    assert new["status"]["viewer"] == 0 and new["status"]["act_for"] == [0]
    wider = client.final(client.send("history", game_id=new["game_id"], viewer="all"))
    assert wider["ok"] is False and wider["error_type"] == "ProtocolError"
    other = client.final(client.send("new", game=hidden["name"], viewer=0, act_for="all"))
    assert other["ok"] is False and other["error_type"] == "ProtocolError"
    client.ws.close()
    trusted = Client(ws_url)
    assert trusted.ok("hello")["trusted"] is True
    assert trusted.ok("new", game=hidden["name"], viewer="all", seed=1)["status"]["viewer"] == "all"
    trusted.ws.close()
