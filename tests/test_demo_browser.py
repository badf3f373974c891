"""The browser demo in a real browser: headless Chromium plays a whole Sunken City game by clicking.

Chromium is driven through its DevTools protocol (over the same `websockets` package the demo
server uses), so no driver binary or browser download is needed: Debian's `chromium` package is
enough. This is the one test allowed to skip, and only when no Chromium is installed.

The test starts `python -m aiplay demo`, opens the page, clicks the legal-move buttons with real
mouse events until the game ends (using Undo and Hint once on the way), checks the final scores
the page shows against a replay of the moves it lists, and saves a screenshot
(``AIPLAY_DEMO_SCREENSHOT`` names the file; default in the test's temporary folder). Area 51,
Area 1851 and Groom Lake are played for a few moves each, from the seat's own text view.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

import aiplay
from aiplay.match import Match

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)")


class Browser:
    """Headless Chromium and one page, driven through the DevTools protocol."""

    def __init__(self):
        from websockets.sync.client import connect

        self.profile = tempfile.mkdtemp(prefix="aiplay-chromium-")
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={self.profile}",
             "--window-size=1400,1000", "--no-first-run", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.monotonic() + 30
        while port is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            match = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if match:
                port = int(match.group(1))
        assert port is not None, "Chromium did not start its DevTools server"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
            pages = [t for t in json.load(response) if t["type"] == "page"]
        self.ws = connect(pages[0]["webSocketDebuggerUrl"], max_size=None, open_timeout=10).__enter__()
        self.ids = itertools.count(1)
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.console_errors = []

    def call(self, method, **params):
        request_id = next(self.ids)
        self.ws.send(json.dumps({"id": request_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            if message.get("method") == "Runtime.exceptionThrown":
                self.console_errors.append(message["params"]["exceptionDetails"])
            if message.get("id") == request_id:
                assert "error" not in message, message
                return message["result"]

    def js(self, expression, tolerant=False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if tolerant and "exceptionDetails" in result:
            return None  # e.g. the page is still loading
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def wait_for(self, expression, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.js(expression, tolerant=True)
            if value:
                return value
            time.sleep(0.03)
        raise AssertionError(f"timed out waiting for {expression}")

    def click(self, selector_js):
        """A real mouse click (press and release) at the centre of the element ``selector_js`` finds."""
        box = self.js(f"(() => {{ const e = {selector_js}; e.scrollIntoView({{block: 'center'}});"
                      f" const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            extra = {} if kind == "mouseMoved" else {"button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.kill()
            self.proc.wait(10)
            shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture
def demo_url():
    proc = subprocess.Popen([sys.executable, "-m", "aiplay", "demo", "--port", "0", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, (line, proc.stderr.read() if proc.poll() is not None else "")
    yield match.group(0)
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def browser():
    b = Browser()
    yield b
    b.close()


def test_a_person_plays_a_whole_sunken_city_game_in_the_browser(demo_url, browser, tmp_path):
    rng = random.Random(2)
    browser.call("Page.navigate", url=demo_url + "?game=sunken_city&players=2&seat=0&bot=mcts&seconds=0.05&seed=3")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    browser.click("document.getElementById('start')")
    browser.wait_for("document.querySelectorAll('#moves button').length > 0")
    assert browser.js("document.querySelector('#board svg') !== null")  # the SVG board is drawn
    # A hint from analyse highlights one of the move buttons.
    browser.click("document.getElementById('hint')")
    hint = browser.wait_for("(() => { const t = document.getElementById('hint-text').textContent;"
                            " return t.startsWith('Hint:') ? t : null; })()")
    assert browser.js("document.querySelectorAll('#moves button.hinted').length") == 1, hint
    clicks = undone = 0
    deadline = time.monotonic() + 600
    while not browser.js("window.aiplayDemo.finished"):
        assert time.monotonic() < deadline, "the game did not end in time"
        ready = browser.js("!window.aiplayDemo.busy && document.querySelectorAll('#moves button').length")
        if not ready:
            time.sleep(0.03)
            continue
        if clicks == 5 and not undone:  # take a move back once, with the Undo button
            before = browser.js("document.querySelectorAll('#log li').length")
            browser.click("document.getElementById('undo')")
            browser.wait_for(f"document.querySelectorAll('#log li').length < {before}"
                             " && document.querySelectorAll('#moves button').length > 0")
            undone = 1
            continue
        k = rng.randrange(ready)
        browser.click(f"document.querySelectorAll('#moves button')[{k}]")
        clicks += 1
        # The click handler marks the page busy at once; the loop waits for the next buttons.
        time.sleep(0.02)
    assert clicks > 10 and undone
    assert browser.js("document.getElementById('result').hidden") is False
    shown = [float(x) for x in browser.js(
        "[...document.querySelectorAll('#result td.score')].map(td => td.textContent)")]
    verdict = browser.js("document.querySelector('#result strong').textContent")
    assert verdict.startswith("Game over:")
    # The page's move list replays, in the library, to a finished game with exactly those scores.
    actions = browser.js("[...document.querySelectorAll('#log li')].map(li => Number(li.dataset.action))")
    replay = Match(aiplay.load("sunken_city", players=2))
    for action in actions:
        replay.apply(action)
    assert replay.is_terminal()
    assert shown == [float(s) for s in replay.state.scores()]
    mine = browser.js("[...document.querySelectorAll('#log li.mine')].length")
    assert mine >= clicks - 1  # every click of the person is in the list (one was undone)
    assert not browser.console_errors, browser.console_errors
    path = Path(os.environ.get("AIPLAY_DEMO_SCREENSHOT", tmp_path / "demo_sunken_city.png"))
    browser.screenshot(path)
    assert path.stat().st_size > 10_000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_area51_is_playable_in_the_browser(demo_url, browser):
    browser.call("Page.navigate", url=demo_url + "?game=area51&players=3&seat=1&bot=heuristic&seed=2&autostart=1")
    browser.wait_for("document.querySelectorAll('#moves button').length > 0", timeout=120)
    view = browser.js("document.getElementById('view').textContent")
    assert view.startswith("your hand: ")  # the seat's own hand, by card names
    board = browser.js("document.querySelector('#board pre').textContent")
    assert "??" in board or "cards, known" in board  # the others' hidden cards stay hidden
    for _ in range(3):
        browser.click("document.querySelectorAll('#moves button')[0]")
        browser.wait_for("!window.aiplayDemo.busy && (window.aiplayDemo.finished"
                         " || document.querySelectorAll('#moves button').length > 0)", timeout=120)
    assert browser.js("document.querySelectorAll('#log li.mine').length") >= 3
    assert not browser.console_errors, browser.console_errors


@pytest.mark.parametrize("game,players", [("area1851", 3), ("groom_lake", 4)])
def test_the_other_board_games_are_playable_in_the_browser(demo_url, browser, game, players):
    browser.call("Page.navigate",
                 url=demo_url + f"?game={game}&players={players}&seat=0&bot=heuristic&seed=4&autostart=1")
    browser.wait_for("document.querySelectorAll('#moves button').length > 0", timeout=120)
    board = browser.js("document.querySelector('#board pre').textContent")
    assert board.strip(), "the seat's text view is shown"
    for _ in range(3):
        browser.click("document.querySelectorAll('#moves button')[0]")
        browser.wait_for("!window.aiplayDemo.busy && (window.aiplayDemo.finished"
                         " || document.querySelectorAll('#moves button').length > 0)", timeout=120)
    assert browser.js("document.querySelectorAll('#log li.mine').length") >= 3
    assert not browser.console_errors, browser.console_errors
