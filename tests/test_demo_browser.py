"""The browser demo in a real browser: headless Chromium plays a whole game of each board game by clicking.

Chromium is driven through its DevTools protocol (over the same `websockets` package the demo
server uses), so no driver binary or browser download is needed: Debian's `chromium` package is
enough. This is the one test allowed to skip, and only when no Chromium is installed.

Each whole-game test starts `python -m aiplay demo`, opens the page at a window size (1280x720
and 1920x1080), opens the "How to play" panel, and plays one seat against fast bots (the
heuristic bot, 0.05 s a move; the first option set the game registers for tests, and a turn
limit where the game has one, to keep CI affordable) until the game ends, choosing its moves at
random. A chosen move that has a place on the picture (the `targets` of the protocol's `view`)
is played by a real mouse click on that element (and, when several moves touch it, on the small
menu that opens); any other move by its button. On the way it checks what it can mechanically:
the highlighted elements are exactly those the legal moves touch, the buttons are exactly the
legal moves, each click plays the move it aimed at, the log is the seat's own, the status line
never shows a bot's best move, no text of the picture is drawn under 12 px (font size times the
picture's scale on screen), the picture fits the board panel's width (no sideways scroll), after
every turn of the bots a note above the board tells it and the picture marks what changed (in the perfect-information game exactly what the library computes;
in every game, most bot turns change something the seat sees), and the game-over panel names the
winner(s) and every seat's final score (the engine's). Screenshots of a bot turn and of the end
go to ``AIPLAY_DEMO_SHOTS`` (default: a folder in the system's temporary directory).
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
from aiplay.search.level import LEVELS, levels_for
from aiplay.testing.choose import games_with, pick_options, pick_variant
from aiplay.views.svg import changed_ids, legal_moves_on_svg, svg

#: Chosen by property: the perfect-information board game (BOARD, with its own level table) and the
#: hidden-information board games (HIDDEN: (game, players, seat) at each one's first option set's seat
#: count; LEVELLED: the first with the library's level table).
BOARD = [g for g in games_with(perfect_information=True, board=True, listed=True) if levels_for(aiplay.load(g)) != LEVELS][0]
HIDDEN = [(g, pick_options(g)["players"], (i + 1) % 2)
          for i, g in enumerate(games_with(perfect_information=False, board=True, listed=True))]
LEVELLED = [g for g, _, _ in HIDDEN if levels_for(aiplay.load(g)) == LEVELS][0]

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
        self.port = port
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
            pages = [t for t in json.load(response) if t["type"] == "page"]
        self._attach(pages[0]["webSocketDebuggerUrl"])

    def _attach(self, url):
        from websockets.sync.client import connect

        self.ws = connect(url, max_size=None, open_timeout=10).__enter__()
        self.ids = itertools.count(1)
        self.console_errors = []
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Log.enable")

    def new_tab(self):
        """A second page (a tab) of the same browser, driven like this one."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(request, timeout=10) as response:
            target = json.load(response)
        tab = Browser.__new__(Browser)
        tab.proc = None
        tab._attach(target["webSocketDebuggerUrl"])
        return tab

    def call(self, method, **params):
        request_id = next(self.ids)
        self.ws.send(json.dumps({"id": request_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            method = message.get("method")
            if method == "Runtime.exceptionThrown":
                self.console_errors.append(message["params"]["exceptionDetails"])
            elif method == "Runtime.consoleAPICalled" and message["params"]["type"] in ("error", "assert"):
                self.console_errors.append(message["params"])
            elif method == "Log.entryAdded" and message["params"]["entry"]["level"] == "error":
                self.console_errors.append(message["params"]["entry"])
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
        self.click_at(*box)

    def click_at(self, x, y):
        """A real mouse click (press and release) at the point ``(x, y)`` of the viewport."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            extra = {} if kind == "mouseMoved" else {"button": "left", "clickCount": 1}
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

    def hover(self, selector_js):
        """Move the mouse onto the centre of the element ``selector_js`` finds."""
        x, y = self.js(f"(() => {{ const r = ({selector_js}).getBoundingClientRect();"
                       f" return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def size(self, width, height):
        """The page's window size (the viewport), as a person's screen of that size shows it."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        finally:
            if self.proc is None:  # a tab: the browser closes with its first page's Browser
                return
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


#: Where the screenshots are copied for a person to look at.
SHOTS_DIR = Path(os.environ.get("AIPLAY_DEMO_SHOTS") or Path(tempfile.gettempdir()) / "aiplay_demo_shots")

#: The window sizes every whole game is played at.
SIZES = [(1280, 720), (1920, 1080)]
#: Every board game (chosen by property), with its first test option set, its seat count and the
#: seat the test plays; a game with a turn limit option plays few turns (CI time).
BOARD_GAMES = []
for _i, _g in enumerate(games_with(board=True, listed=True)):
    _options = dict(pick_options(_g))
    if "max_turns" in aiplay.load(_g).option_spec:
        _options["max_turns"] = 6
    BOARD_GAMES.append((_g, _options, 0 if _g == BOARD else _i % 2))

#: The smallest size of any text of the picture on screen, in CSS pixels (font size times the scale).
SMALLEST_TEXT = """(() => {
  const svg = document.querySelector('#board svg');
  if (!svg) return null;
  let least = Infinity;
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim() || !t.getScreenCTM()) continue;
    const m = t.getScreenCTM();
    least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b));
  }
  return least;
})()"""

#: How the picture fits the board panel: the picture's width on screen, the panel's inner width
#: (without its scroll bar) and how far its content reaches sideways (a sideways scroll if wider).
FIT = """(() => {
  const svg = document.querySelector('#board svg');
  const board = document.getElementById('board');
  if (!svg) return null;
  return {picture: svg.getBoundingClientRect().width, panel: board.clientWidth, content: board.scrollWidth};
})()"""

#: The marks of what changed: the ids the engine marked and the frames the page drew over them.
MARKS = """(() => {
  const svg = document.querySelector('#board svg');
  if (!svg) return null;
  const marked = [...svg.querySelectorAll('[data-changed]')];
  return {
    ids: [...new Set(marked.map(e => e.hasAttribute('data-target') ? 'data-target=' + e.dataset.target
                                                                    : 'data-part=' + e.dataset.part))].sort(),
    elements: marked.length,
    frames: svg.querySelectorAll('.aiplay-marks .last-move').length,
    from: window.aiplayDemo.markFrom,
    summary: document.getElementById('summary').hidden ? '' : document.getElementById('summary').textContent,
  };
})()"""

#: The page as the test sees it between two moves (one round trip). ``busy``: an exchange with the
#: engine is under way; otherwise the seat's legal moves, the picture's targets, the elements the
#: page marked clickable and every element carrying a data-target, the move buttons, the log.
SNAPSHOT = """(() => {
  const d = window.aiplayDemo;
  if (!d || d.busy) return {busy: true};
  const svg = document.querySelector('#board svg');
  const error = document.querySelector('#hint-text .error');
  return {
    busy: false, finished: d.finished, error: error ? error.textContent : null,
    legal: d.legal.map(m => m.id), targets: d.targets,
    svg: !!svg,
    clickable: svg ? [...svg.querySelectorAll('[data-target].clickable')].map(e => e.dataset.target) : [],
    drawn: svg ? [...svg.querySelectorAll('[data-target]')].map(e => e.dataset.target) : [],
    highlights: svg ? svg.querySelectorAll('.aiplay-overlay .highlight').length : 0,
    buttons: [...document.querySelectorAll('#moves button')].map(b => Number(b.dataset.action)),
    log: document.querySelectorAll('#log li').length,
  };
})()"""

#: Records every text of the status line (to check that no bot's best move is ever shown).
WATCH_STATUS = """(() => {
  window.statusTexts = [];
  const status = document.getElementById('status');
  new MutationObserver(() => window.statusTexts.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
  return true;
})()"""


def wait_ready(browser, timeout=120):
    """The page's snapshot once no exchange with the engine is under way and the seat can act (or the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = browser.js(SNAPSHOT, tolerant=True)
        if snap and not snap["busy"]:
            assert not snap["error"], snap["error"]
            if snap["finished"] or snap["legal"]:
                return snap
        time.sleep(0.02)
    raise AssertionError("the page did not become ready")


def check_snapshot(snap, game):
    """What the page shows matches the engine: buttons are the legal moves, highlights their targets."""
    assert sorted(snap["buttons"]) == sorted(snap["legal"])
    targets = {int(a): ids for a, ids in snap["targets"].items()}
    assert set(targets) <= set(snap["legal"])
    touched = {t for ids in targets.values() for t in ids}
    assert touched <= set(snap["drawn"]), touched - set(snap["drawn"])
    assert set(snap["clickable"]) == touched
    assert snap["highlights"] == len(snap["clickable"])
    if game == BOARD:
        assert snap["svg"], "the board game is drawn as an SVG"
    return targets


def element_of(target):
    """JavaScript finding the picture's element ``target``."""
    return f"document.querySelector('#board svg [data-target=\"' + CSS.escape({json.dumps(target)}) + '\"]')"


#: A point of the screen where a click lands on the element ``e`` (or one of its parts): its centre,
#: else the first point of a grid over its box that hits it (a group may be hollow in the middle).
#: Two animation frames first, so that a layout still settling (a resize observed) has settled.
HIT_POINT = """(async (e) => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  e.scrollIntoView({block: 'center'});
  const r = e.getBoundingClientRect();
  const svg = document.querySelector('#board svg');
  const hits = (x, y) => svg.contains(document.elementFromPoint(x, y))  // nothing (a menu) lies over it
    && document.elementsFromPoint(x, y).some(h => h === e || e.contains(h));
  const points = [[0.5, 0.5]];
  for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) points.push([i / 8, j / 8]);
  for (const [fx, fy] of points) {
    const x = Math.round(r.x + fx * r.width), y = Math.round(r.y + fy * r.height);  // events carry whole pixels
    if (hits(x, y)) return [x, y];
  }
  return null;
})"""


def click_element(browser, target):
    """A real mouse click on the picture's element ``target``: the point clicked, None when none can be."""
    point = browser.js(f"{HIT_POINT}({element_of(target)})")
    if point is None:
        return None
    browser.click_at(*point)
    return point


def click_board(browser, action, ids, menu_shot=None):
    """Play ``action`` on the picture: click its elements ``ids`` one after another until it is played.

    A click touching several moves opens a menu of just those and marks their elements; the next
    click narrows them to the moves touching both spots; when the elements are exhausted the move
    is picked from the menu. Returns how many menus opened. ``menu_shot`` takes a screenshot while
    the first menu is open.
    """
    menus = 0
    for i, target in enumerate(ids):
        point = click_element(browser, target)
        if point is None:
            assert i > 0, f"no point of element {target!r} can be clicked"
            break
        try:
            state = browser.wait_for("(() => { const d = window.aiplayDemo;"
                                     " if (!document.getElementById('menu').hidden) return 'menu';"
                                     " return d.busy || d.finished || d.status.to_move !== d.seat || d.legal.length === 0"
                                     " ? 'played' : null; })()", timeout=90)
        except AssertionError:
            # What lies under the point now, and where the element went: enough to tell a moved
            # picture from a click the page ignored.
            found = browser.js(f"(() => {{ const e = {element_of(target)}; const r = e && e.getBoundingClientRect();"
                               f" return {{under: document.elementsFromPoint({point[0]}, {point[1]}).slice(0, 4)"
                               f".map(h => h.tagName + ':' + (h.dataset ? JSON.stringify(h.dataset) : '')),"
                               f" box: r && [r.x, r.y, r.width, r.height], actions: actionsAt({point[0]}, {point[1]})}}; }})()")
            raise AssertionError(f"clicking {target!r} at {point} for move {action} did nothing: {found}") from None
        if state != "menu":
            return menus
        menus += 1
        offered = browser.js("[...document.querySelectorAll('#menu button')].map(b => Number(b.dataset.action))")
        assert action in offered and len(offered) > 1, (action, offered)
        assert set(offered) <= set(browser.js("window.aiplayDemo.legal.map(m => m.id)"))
        # The elements of the offered moves are marked for the next click.
        marked = browser.js("[...new Set([...document.querySelectorAll('#board .highlight.candidate')]"
                            ".map(r => r.dataset.for))].sort()")
        expected = browser.js(f"[...new Set({json.dumps(offered)}.flatMap(a => window.aiplayDemo.targets[a]))].sort()")
        assert marked == expected
        if menus == 1 and menu_shot is not None:
            # Pointing at the entry marks on the board every element that move touches.
            browser.hover(f"document.querySelector('#menu button[data-action=\"{action}\"]')")
            marked = browser.js("[...new Set([...document.querySelectorAll('#board .highlight.preview')]"
                                ".map(r => r.dataset.for))].sort()")
            assert marked == sorted(set(ids)), marked
            menu_shot()
    browser.click(f"document.querySelector('#menu button[data-action=\"{action}\"]')")
    return menus


def click_button(browser, action):
    """Open the button's group if it is folded, then click the button of ``action``."""
    selector = f"document.querySelector('#moves button[data-action=\"{action}\"]')"
    if not browser.js(f"{selector}.closest('details').open"):
        browser.click(f"{selector}.closest('details').querySelector('summary')")
        assert browser.js(f"{selector}.closest('details').open")
    browser.click(selector)


def save_shot(browser, tmp_path, name):
    path = tmp_path / name
    browser.screenshot(path)
    assert path.stat().st_size > 10_000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS_DIR / name)
    return path


def replay(actions, game, players):
    """The library's match after the page's logged actions (a perfect-information game's log names every id)."""
    match = Match(aiplay.load(game, players=players))
    for action in actions:
        match.apply(action)
    return match


def check_help(browser):
    """The "How to play" panel opens with the game's text (the engine's ``rules``) and closes."""
    browser.click("document.getElementById('help-button')")
    browser.wait_for("!document.getElementById('help').hidden && document.getElementById('help-text').textContent.length > 40"
                     " && !document.getElementById('help-text').textContent.startsWith('loading')")
    text = browser.js("document.getElementById('help-text').textContent")
    assert not text.startswith("No how-to-play text"), text
    game = browser.js("window.aiplayDemo.status ? window.aiplayDemo.status.game : document.getElementById('game').value")
    assert text.strip() == _rules_plain(browser, game), "the panel shows the engine's rules text"
    browser.click("document.getElementById('help-close')")
    assert browser.js("document.getElementById('help').hidden")


def _rules_plain(browser, game):
    """The engine's rules text as the panel shows it (its markdown rendered by the page)."""
    return browser.js(f"request('rules', {{game: {json.dumps(game)}}}).then(r => markdownBlocks(r.text).textContent.trim())")


def play_whole_game(browser, demo_url, tmp_path, game, options, seat, bot, seconds, seed,
                    size=(1280, 720), hint_and_undo=False, max_seconds=240):
    """Play ``seat`` at random by clicks (board first, buttons otherwise) until the game ends; return counts."""
    rng = random.Random(seed)
    width, height = size
    tag = f"{game}_{width}x{height}"
    players = options.get("players", 2)
    browser.size(width, height)
    extra = "".join(f"&opt.{k}={json.dumps(v)}" for k, v in options.items() if k != "players")
    browser.call("Page.navigate", url=demo_url + f"?game={game}&players={players}&seat={seat}&bot={bot}"
                                                 f"&seconds={seconds}&seed={seed}{extra}")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    browser.js(WATCH_STATUS)
    browser.click("document.getElementById('start')")
    counts = {"board": 0, "menu": 0, "narrowed": 0, "buttons": 0, "checked": 0, "idle_clicks": 0,
              "bot_turns": 0, "marked_turns": 0, "smallest_text": 99.0, "widest": 0.0}
    shot = None
    menu_shot_taken = []
    deadline = time.monotonic() + max_seconds
    undone = not hint_and_undo
    helped = False
    seen_log = 0
    while True:
        assert time.monotonic() < deadline, f"the {game} game did not end in time"
        snap = wait_ready(browser)
        if not helped:
            check_help(browser)
            helped = True
        smallest = browser.js(SMALLEST_TEXT)
        if smallest is not None:
            counts["smallest_text"] = min(counts["smallest_text"], smallest)
            assert smallest >= 11.99, f"{tag}: a text of the picture is {smallest:.1f} px"
        # The picture fits the board panel's width: no sideways scroll, at every window size (issue 38).
        fit = browser.js(FIT)
        if fit is not None:
            counts["widest"] = max(counts["widest"], fit["picture"] / fit["panel"])
            assert fit["picture"] <= fit["panel"] and fit["content"] <= fit["panel"], f"{tag}: {fit}"
        # The bots played since the seat's last look: a note above the board tells their turn, and the
        # picture marks what changed since it began.
        players_logged = browser.js(f"[...document.querySelectorAll('#log li')].slice({seen_log}).map(li => Number(li.dataset.player))")
        seen_log = snap["log"]
        if any(p >= 0 and p != seat for p in players_logged) and not snap["finished"]:
            counts["bot_turns"] += 1
            marks = browser.js(MARKS)
            assert marks["summary"].startswith("Since your last move"), marks
            assert marks["frames"] == marks["elements"], marks  # every marked element is framed on screen
            counts["marked_turns"] += bool(marks["ids"])
            if game == BOARD:  # exactly what the library finds changed since the bots' turn began
                logged = browser.js("[...document.querySelectorAll('#log li')].map(li => Number(li.dataset.action))")
                match = replay(logged, game, players)
                earlier = match.position_before(marks["from"])
                expected = changed_ids(svg(earlier, seat), svg(match.state, seat))
                assert marks["ids"] == sorted(f"{a}={i}" for a, i in expected), (marks, expected)
            if shot is None and marks["ids"] and counts["bot_turns"] >= 2:
                shot = save_shot(browser, tmp_path, f"demo_{tag}_bots_turn.png")
        if snap["finished"]:
            break
        targets = check_snapshot(snap, game)
        counts["checked"] += 1
        if game == BOARD:  # the highlights are the library's mapping of this very position
            logged = browser.js("[...document.querySelectorAll('#log li')].map(li => Number(li.dataset.action))")
            state = replay(logged, game, players).state
            expected = {a: ids for a, ids in legal_moves_on_svg(state, seat).items() if ids}
            assert targets == expected
        moves = counts["board"] + counts["buttons"]
        if hint_and_undo and moves == 3 and not browser.js("document.getElementById('hint-text').textContent"):
            browser.click("document.getElementById('hint')")
            browser.wait_for("document.getElementById('hint-text').textContent.startsWith('Hint:')", timeout=120)
            assert "Your chances:" in browser.js("document.getElementById('hint-text').textContent")
            assert browser.js("document.querySelectorAll('#moves button.hinted').length") == 1
            continue
        if not undone and moves == 6:
            browser.click("document.getElementById('undo')")
            browser.wait_for(f"!window.aiplayDemo.busy && document.querySelectorAll('#log li').length < {snap['log']}")
            seen_log = browser.js("document.querySelectorAll('#log li').length")
            undone = True
            continue
        idle = sorted(set(snap["drawn"]) - set(snap["clickable"]))
        if targets and idle and not counts["idle_clicks"]:
            # Clicking an element that no legal move touches does nothing.
            if click_element(browser, idle[len(idle) // 2]) is None:
                continue
            time.sleep(0.2)
            after = wait_ready(browser)
            menu_open = not browser.js("document.getElementById('menu').hidden")
            if after["log"] == snap["log"] and not menu_open:
                assert after["legal"] == snap["legal"]
                counts["idle_clicks"] += 1
            # (else a move's element lay under that point too: the check waits for another position)
            browser.js("closeMenu()")
            continue
        action = rng.choice(snap["legal"])
        if action in targets:
            take_menu_shot = None
            if not menu_shot_taken and size == SIZES[0]:
                def take_menu_shot():
                    menu_shot_taken.append(save_shot(browser, tmp_path, f"demo_{tag}_menu.png"))
            ids = list(dict.fromkeys(targets[action]))
            rng.shuffle(ids)
            menus = click_board(browser, action, ids, take_menu_shot)
            counts["board"] += 1
            counts["menu"] += menus > 0
            counts["narrowed"] += menus > 0 and len(ids) > 1
        else:
            click_button(browser, action)
            counts["buttons"] += 1
        # The move the click aimed at is the next one in the seat's log.
        browser.wait_for(f"document.querySelectorAll('#log li').length > {snap['log']}", timeout=60)
        played = browser.js(f"({{...document.querySelectorAll('#log li')[{snap['log']}].dataset}})")
        assert int(played["player"]) == seat and int(played["action"]) == action, (played, action)
        seen_log = snap["log"] + 1
    save_shot(browser, tmp_path, f"demo_{tag}_game_over.png")
    assert counts["bot_turns"] >= 2, counts
    # Most turns of the bots change something the seat sees (a hidden choice may change nothing yet).
    assert counts["marked_turns"] * 2 >= counts["bot_turns"], counts
    assert shot is not None, "a screenshot of a bot turn was taken"
    check_game_over(browser, seat)
    # The log is the seat's own: the engine's history as that viewer sees it, line for line.
    page_log = browser.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
    own = browser.js("request('history', {game_id: window.aiplayDemo.gameId})"
                     ".then(r => r.moves.map(m => m.player < 0 ? `chance: ${m.name}` : `player ${m.player}: ${m.name}`))")
    assert page_log == own
    texts = browser.js("window.statusTexts")
    assert any("thinking" in t for t in texts), texts[:5]
    assert not any("best" in t for t in texts), [t for t in texts if "best" in t][:3]
    view = browser.js("document.getElementById('view').textContent")
    assert view and "internal:" not in view
    assert browser.js("document.getElementById('story').children.length") > 0  # the narration was shown
    assert not browser.console_errors, browser.console_errors
    return counts, page_log


def check_game_over(browser, seat):
    """The game-over panel names the winner(s) and shows every seat's final score, as the engine has them."""
    assert browser.js("document.getElementById('result').hidden") is False
    status = browser.js("window.aiplayDemo.status")
    verdict = browser.js("document.querySelector('#result strong').textContent")
    assert verdict.startswith("Game over:"), verdict
    returns = status["returns"]
    winners = [p for p, r in enumerate(returns) if r == max(returns)]
    if len(winners) == len(returns):
        assert "draw" in verdict, verdict
    else:
        for p in winners:
            assert (f"player {p}" in verdict) or (p == seat and "you" in verdict), (verdict, winners)
        for p in set(range(len(returns))) - set(winners):
            assert f"player {p} " not in verdict + " ", (verdict, winners)
    # A score the rules do not show this seat at the end (null in the status) reads "–".
    shown = [None if x == "–" else float(x)
             for x in browser.js("[...document.querySelectorAll('#result td.score')].map(td => td.textContent)")]
    assert shown == [None if x is None else float(x) for x in status["scores"]], (shown, status["scores"])
    results = browser.js("[...document.querySelectorAll('#result td.outcome')].map(td => td.textContent)")
    assert [r.startswith("won") for r in results] == [p in winners and len(winners) < len(returns)
                                                      for p in range(len(returns))], results


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game,options,seat", BOARD_GAMES, ids=[g for g, _, _ in BOARD_GAMES])
def test_a_person_plays_a_whole_game_of_each_board_game(demo_url, browser, tmp_path, game, options, seat, size):
    # The heuristic bot: fast enough for whole games in CI.
    hint_and_undo = game == BOARD and size == SIZES[0]
    started = time.monotonic()
    counts, page_log = play_whole_game(browser, demo_url, tmp_path, game, options, seat, "heuristic", 0.05, 3,
                                       size=size, hint_and_undo=hint_and_undo)
    print(f"{game} {size}: {time.monotonic() - started:.1f} s, {counts}")
    assert counts["board"] + counts["buttons"] > 5, counts
    if browser.js("document.querySelector('#board svg [data-target]') !== null"):
        assert counts["board"] > 0, counts  # a picture with targets is played by clicks
    if game == BOARD:
        if hint_and_undo:
            assert counts["board"] > 10 and counts["menu"] > 0 and counts["narrowed"] > 0, counts
            assert counts["idle_clicks"] == 1, counts
        # The final scores the page shows are those of a replay of its log in the library.
        shown = [float(x) for x in browser.js("[...document.querySelectorAll('#result td.score')].map(td => td.textContent)")]
        actions = browser.js("[...document.querySelectorAll('#log li')].map(li => Number(li.dataset.action))")
        final = replay(actions, BOARD, options.get("players", 2))
        assert final.is_terminal() and shown == [float(s) for s in final.state.scores()]
    elif "viewer" in browser.js("window.aiplayDemo.status"):
        # What the seat read is not the omniscient record (or the engine refuses this client "all").
        everything = browser.js("request('history', {game_id: window.aiplayDemo.gameId, viewer: 'all'})"
                                ".then(r => r.moves.map(m => m.player < 0 ? `chance: ${m.name}` : `player ${m.player}: ${m.name}`),"
                                " () => null)")
        assert everything != page_log


def test_choosing_a_game_sets_its_player_count_and_a_new_game_starts(demo_url, browser):
    """Player counts come from hello: choosing any board game, then "New game", starts that game."""
    browser.size(*SIZES[0])
    browser.call("Page.navigate", url=demo_url)
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    hello = {g["name"]: g for g in browser.js("window.aiplayDemo.hello")["games"]}
    for game, _, _ in BOARD_GAMES:
        browser.js(f"{{ const g = document.getElementById('game'); g.value = '{game}'; g.dispatchEvent(new Event('change')); }}")
        counts = hello[game]["players"]
        players = int(browser.js("document.getElementById('players').value"))
        assert counts["min"] <= players <= counts["max"], (game, players, counts)
        assert int(browser.js("document.getElementById('seat').max")) == counts["max"] - 1
        browser.js("document.getElementById('level').value = document.getElementById('level').options[1].value;"
                   " syncBotControls()")  # the weakest level: quick bots
        browser.click("document.getElementById('start')")
        browser.wait_for(f"window.aiplayDemo.status && window.aiplayDemo.status.game === '{game}'"
                         " && !window.aiplayDemo.busy", timeout=120)
        assert not browser.js("document.querySelector('#hint-text .error')"), game
        assert browser.js("window.aiplayDemo.status.options.players") == players
    assert not browser.console_errors, browser.console_errors


def test_the_bot_choices_come_from_hello_and_a_level_replaces_the_bot(demo_url, browser):
    browser.call("Page.navigate", url=demo_url + f"?game={LEVELLED}")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    hello = browser.js("window.aiplayDemo.hello")
    offered = browser.js("[...document.getElementById('bot').options].map(o => o.value)")
    assert offered == ["auto"] + [k for k in hello["bots"] if k != "level"]
    levels = hello.get("levels") or []
    assert browser.js("document.getElementById('level-label').hidden") == (not levels)
    # Neither bot= nor level= in the address: the person meets the best bot, the top level.
    top = levels[-1]["level"] if levels and isinstance(levels[-1], dict) else (levels[-1] if levels else "")
    assert browser.js("document.getElementById('level').value") == str(top)
    # The level select is fed from whatever hello lists (here a stand-in list of two levels).
    browser.js("populateBots({bots: ['mcts', 'level'], levels: [{level: 1, iterations: 100}, {level: 2, iterations: 400}]})")
    assert browser.js("[...document.getElementById('bot').options].map(o => o.value)") == ["auto", "mcts"]
    assert browser.js("document.getElementById('level-label').hidden") is False
    assert browser.js("[...document.getElementById('level').options].map(o => o.textContent)") == [
        "my own choice: bot and seconds", "level 1 (100 iterations)", "level 2 (400 iterations)"]
    assert browser.js(f"JSON.stringify(botFields('{LEVELLED}', 0.5))") == '{"bot":"level","level":2}'
    # One consistent choice: a level hides the bot and seconds fields (it sets both), "my own choice" shows them.
    assert browser.js("document.getElementById('custom-bot').offsetParent === null && document.getElementById('seconds').disabled")
    browser.js("document.getElementById('level').value = ''; syncBotControls()")
    assert browser.js("document.getElementById('custom-bot').offsetParent !== null && !document.getElementById('seconds').disabled")
    assert browser.js(f"JSON.stringify(botFields('{LEVELLED}', 0.5))") == '{"bot":"ismcts","seconds":0.5}'
    browser.js("document.getElementById('level').value = '2'; syncBotControls()")
    assert browser.js(f"JSON.stringify(botFields('{LEVELLED}', 0.5))") == '{"bot":"level","level":2}'
    # A game with its own level table shows its own settings once chosen; the level stays.
    browser.js(f"const g = document.getElementById('game'); g.value = '{BOARD}'; g.dispatchEvent(new Event('change'))")
    own = {g["name"]: g["levels"] for g in hello["games"]}[BOARD]
    assert own != hello["levels"]
    assert browser.js("[...document.getElementById('level').options].map(o => o.textContent)") == [
        "my own choice: bot and seconds"] + [f"level {d['level']} ({d['iterations']} iterations)" for d in own]
    assert browser.js("document.getElementById('level').value") == "2"
    assert not browser.console_errors, browser.console_errors


def test_a_bot_asked_for_in_the_address_is_not_replaced_by_the_top_level(demo_url, browser):
    browser.call("Page.navigate", url=demo_url + f"?game={LEVELLED}&bot=heuristic")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    assert browser.js("document.getElementById('bot').value") == "heuristic"
    assert browser.js("document.getElementById('level').value") == ""
    assert browser.js(f"JSON.stringify(botFields('{LEVELLED}', 0.5))") == '{"bot":"heuristic","seconds":0.5}'
    browser.call("Page.navigate", url=demo_url + f"?game={LEVELLED}&level=3")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    assert browser.js("document.getElementById('level').value") == "3"
    assert not browser.console_errors, browser.console_errors


#: A short hidden-information game for three that the demo opens with nothing but its player count.
TABLE_GAME, TABLE_OPTIONS = pick_variant(perfect_information=False, short=True, players=3, listed=True)


def test_two_people_in_two_tabs_play_a_whole_game_with_a_bot_at_one_table(demo_url, browser):
    """Issue 37: the first tab opens a table (seats 0 and 1 people, seat 2 a bot), the second joins by
    its link; each clicks its own moves until the game ends, and each saw only its seat."""
    assert set(TABLE_OPTIONS) <= {"players"}, TABLE_OPTIONS
    first = browser
    first.call("Page.navigate", url=demo_url + f"?game={TABLE_GAME}&players=3&seat=0&second=1&level=1&seed=2"
                                               "&autostart=1")
    first.wait_for("!document.getElementById('join').hidden")
    link = first.js("document.getElementById('join-link').href")
    assert "join=" in link
    second = browser.new_tab()
    try:
        second.call("Page.enable")
        second.call("Runtime.enable")
        second.call("Page.navigate", url=link)
        second.wait_for("window.aiplayDemo && window.aiplayDemo.gameId !== null && window.aiplayDemo.seat === 1")
        tabs = {0: first, 1: second}
        for tab in tabs.values():
            tab.js(WATCH_STATUS)
        rng = random.Random(5)
        deadline = time.monotonic() + 240
        played = 0
        while not all(tab.js("window.aiplayDemo.finished") for tab in tabs.values()):
            assert time.monotonic() < deadline, "the table's game did not end"
            moved = False
            for seat, tab in tabs.items():
                snap = tab.js(SNAPSHOT, tolerant=True)
                if not snap or snap["busy"] or snap["finished"] or not snap["legal"]:
                    continue
                assert not snap["error"], snap["error"]
                assert sorted(snap["buttons"]) == sorted(snap["legal"])
                other = tabs[1 - seat].js(SNAPSHOT, tolerant=True)
                assert not other or other["busy"] or not other["legal"], "both people may move at once"
                action = rng.choice(snap["legal"])
                click_button(tab, action)
                tab.wait_for(f"document.querySelectorAll('#log li').length > {snap['log']}", timeout=60)
                mine = tab.js(f"({{...document.querySelectorAll('#log li')[{snap['log']}].dataset}})")
                assert int(mine["player"]) == seat and int(mine["action"]) == action
                played += 1
                moved = True
            if not moved:
                time.sleep(0.05)
        assert played >= 2
        logs = {}
        for seat, tab in tabs.items():
            tab.wait_for("!window.aiplayDemo.busy")
            assert tab.js("document.querySelector('#result strong').textContent").startswith("Game over:")
            logs[seat] = tab.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
            # The log is the seat's own: the engine's history as that seat sees it.
            own = tab.js("request('history', {game_id: window.aiplayDemo.gameId})"
                         ".then(r => r.moves.map(m => m.player < 0 ? `chance: ${m.name}` : `player ${m.player}: ${m.name}`))")
            assert logs[seat] == own
            # The bot's moves came as events told to this seat, and nothing widens the seat's view.
            events = tab.js("window.aiplayDemo.events")
            assert any(m["player"] == 2 for e in events if e["event"] == "moves" for m in e["moves"])
            assert all(e["status"]["viewer"] == seat for e in events if "status" in e)
            for widen in ("{viewer: 'all'}", f"{{viewer: {1 - seat}}}"):
                refused = tab.js(f"request('history', {{game_id: window.aiplayDemo.gameId, ...{widen}}})"
                                 ".then(() => 'shown', e => e.message)")
                assert "cannot change its viewer" in refused, refused
            # Another seat's move cannot be played from this tab, nor read through its error.
            assert tab.js("document.querySelectorAll('#log li.hidden-move').length") > 0
            texts = tab.js("window.statusTexts")
            assert not any("best" in t for t in texts), texts
            assert not tab.console_errors, tab.console_errors
        assert logs[0] != logs[1]  # each tab saw its own cards, not the other's
        assert len(logs[0]) == len(logs[1])  # the same game, move for move
    finally:
        second.close()


#: Every board game at its largest player count (the players option's upper bound), chosen by property.
LARGEST = [(g, aiplay.load(g).option_spec["players"].high) for g in games_with(board=True, listed=True)
           if "players" in aiplay.load(g).option_spec]

#: Where the seat's own area of the picture, the move buttons and the picture lie in the viewport with
#: nothing scrolled (the page, the board panel and the side panel all at their top).
LAYOUT = """(() => {
  window.scrollTo(0, 0);
  for (const id of ['board', 'side', 'moves']) document.getElementById(id).scrollTop = 0;
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const buttons = [...document.querySelectorAll('#moves button')];
  return {
    own: box(document.querySelector('#board svg .own-seat')),
    moves: box(document.getElementById('moves')),
    buttons: buttons.map(box),
    picture: box(document.querySelector('#board svg')),
    board: box(document.getElementById('board')),
    page: document.scrollingElement.scrollHeight,
    width: innerWidth, height: innerHeight,
  };
})()"""


def inside(rect, width, height):
    """Whether the rectangle ``[left, top, right, bottom]`` lies in a ``width`` x ``height`` viewport (0.5 px slack)."""
    left, top, right, bottom = rect
    return left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5


@pytest.mark.parametrize("game,players", LARGEST, ids=[f"{g}-{n}" for g, n in LARGEST])
def test_at_1280x720_the_largest_table_shows_the_seats_own_area_and_moves_without_scrolling(demo_url, browser, game,
                                                                                             players):
    """Issue 38: at 1280x720 with the most players, the seat's own area of the picture and its move buttons
    are inside the window with nothing scrolled, the page itself never scrolls, and no text of the picture
    is under 12 px; checked at the seat's first three decisions (the last seat: the one drawn lowest
    before the pictures put the viewer's own area first)."""
    width, height = SIZES[0]
    seat = players - 1
    browser.size(width, height)
    browser.call("Page.navigate", url=demo_url + f"?game={game}&players={players}&seat={seat}&bot=heuristic"
                                                 "&seconds=0.05&seed=5")
    browser.wait_for("document.getElementById('connection').textContent === 'engine connected'")
    browser.click("document.getElementById('start')")
    rng = random.Random(5)
    fits = []
    for decision in range(3):
        snap = wait_ready(browser)
        if snap["finished"]:
            break
        layout = browser.js(LAYOUT)
        assert layout["own"] is not None, f"{game}: the picture marks no own area (class own-seat) for seat {seat}"
        assert inside(layout["own"], width, height), (game, decision, layout)
        assert layout["own"][1] >= layout["board"][1] - 0.5  # not hidden above the board panel either
        assert layout["buttons"] and inside(layout["moves"], width, height), (game, decision, layout)
        assert all(inside(b, width, height) for b in layout["buttons"][:4]), (game, decision, layout)
        assert layout["page"] <= height, f"{game}: the page scrolls ({layout['page']} px)"
        smallest = browser.js(SMALLEST_TEXT)
        assert smallest >= 11.99, f"{game}: a text of the picture is {smallest:.1f} px"
        fits.append(layout["picture"][3] <= height + 0.5)
        if decision == 0:
            SHOTS_DIR.mkdir(parents=True, exist_ok=True)
            browser.screenshot(SHOTS_DIR / f"layout_{game}_{players}p_{width}x{height}.png")
        click_button(browser, rng.choice(snap["legal"]))
        browser.wait_for(f"document.querySelectorAll('#log li').length > {snap['log']}", timeout=60)
    assert fits, f"{game}: the seat never had a decision"
    print(f"{game} {players} players at {width}x{height}: whole picture in the window at {sum(fits)} of {len(fits)} decisions")
    assert not browser.console_errors, browser.console_errors

#: The game reviewed in the browser: the smallest, a board game with a turn limit where one has it.
REVIEWED = next((g for g in BOARD_GAMES if "max_turns" in g[1]), BOARD_GAMES[0])

#: The coach's list as the page shows it: each entry's decision index and label, in the page's order.
REVIEW_LIST = "[...document.querySelectorAll('#review-list li')].map(li => [Number(li.dataset.index), li.dataset.label])"


def test_a_person_reviews_the_finished_game_with_the_coach(demo_url, browser, tmp_path):
    """After a game, "Review my game": progress, Stop (a partial review, marked), then the whole review:
    the summary in the review's words, the decisions biggest loss first, each on the board as the seat
    saw it with the played and the better move marked, and back to the final position."""
    game, options, seat = REVIEWED
    play_whole_game(browser, demo_url, tmp_path, game, options, seat, "heuristic", 0.05, 5)
    browser.wait_for("document.getElementById('review-start') !== null")
    # A large budget, stopped after the first decision: the part done is shown, marked partial.
    browser.js("window.aiplayDemo.params.set('review_iterations', '40000'); true")
    browser.click("document.getElementById('review-start')")
    browser.wait_for("window.aiplayCoach.progress.length >= 1", timeout=120)
    assert re.match(r"\s*decision 1 of \d+", browser.js("document.getElementById('review-count').textContent"))
    browser.click("document.getElementById('review-stop')")
    browser.wait_for("!window.aiplayCoach.running && document.getElementById('review-summary') !== null", timeout=60)
    partial = browser.js("window.aiplayCoach.review")
    assert partial["partial"] and len(partial["decisions"]) < partial["total"], partial["summary"]
    assert "Partial review" in browser.js("document.getElementById('review-summary').textContent")
    # The whole game at the page's own budget (a whole game's review in well under 30 s).
    browser.js("window.aiplayDemo.params.delete('review_iterations'); true")
    started = time.monotonic()
    browser.click("document.getElementById('review-again')")
    browser.wait_for("window.aiplayCoach.review && !window.aiplayCoach.review.partial && !window.aiplayCoach.running",
                     timeout=180)
    seconds = time.monotonic() - started
    review = browser.js("window.aiplayCoach.review")
    assert review["budget"] == {"iterations": browser.js("COACH_ITERATIONS")}
    assert review["seat"] == seat and len(review["decisions"]) == review["total"] > 0
    assert [p["done"] for p in browser.js("window.aiplayCoach.progress")] == list(range(1, review["total"] + 1))
    summary = browser.js("document.getElementById('review-summary').textContent")
    assert review["summary"] in summary and "Partial" not in summary
    # The biggest loss first; every decision listed once.
    listed = browser.js(REVIEW_LIST)
    decisions = {d["index"]: d for d in review["decisions"]}
    assert sorted(i for i, _ in listed) == sorted(decisions)
    losses = [decisions[i]["loss"] for i, _ in listed]
    assert losses == sorted(losses, reverse=True), losses
    assert [label for _, label in listed] == [decisions[i]["label"] for i, _ in listed]
    meanings = browser.js("window.aiplayCoach.meanings")
    assert len(meanings) == len(review["decisions"])
    # Stepping: the first two entries, each on the board before that move as the seat saw it.
    for k in range(min(2, len(listed))):
        if k:
            browser.click("document.getElementById('review-next')")
        d = decisions[listed[k][0]]
        browser.wait_for(f"document.getElementById('status').textContent.startsWith('Review: your decision {d['index'] + 1} ')"
                         f" && document.getElementById('review-detail').textContent.includes('On the board')", timeout=60)
        detail = browser.js("document.getElementById('review-detail').textContent")
        assert f"You played: {d['played_name']}" in detail, detail
        if d["best"] != d["played"]:
            assert d["best_name"] in detail and ("Better:" in detail or "As good:" in detail), detail
        assert d["label"] in detail
        expected = browser.js(f"request('view', {{game_id: window.aiplayDemo.gameId, player: {seat}, ply: {d['ply']},"
                              f" render: 'svg'}}).then(r => r.targets)")
        played_frames = browser.js("document.querySelectorAll('#board .aiplay-review-marks .review-played').length")
        best_frames = browser.js("document.querySelectorAll('#board .aiplay-review-marks .review-best').length")
        assert (played_frames > 0) == bool(expected.get(str(d["played"]))), (played_frames, expected)
        assert (best_frames > 0) == (d["best"] != d["played"] and bool(expected.get(str(d["best"])))), best_frames
        current = browser.js("[...document.querySelectorAll('#review-list li.current')].map(li => Number(li.dataset.index))")
        assert current == [d["index"]]
    if len(listed) > 1:
        save_shot(browser, tmp_path, f"demo_{game}_review.png")
    browser.click("document.getElementById('review-back')")
    browser.wait_for("document.getElementById('status').textContent === 'Game over'", timeout=60)
    assert browser.js("document.getElementById('review-list') !== null")  # the review stays listed
    assert not browser.console_errors, browser.console_errors
    print(f"{game}: review of {review['total']} decisions in {seconds:.1f} s; {review['summary']}")
