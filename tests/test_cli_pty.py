"""A whole ``aiplay play GAME --human 0`` game of each board game, typed at a terminal (a pty).

The person at the keyboard always plays the first listed move; before each of those moves the
test saves the game (the human seat's ``save`` command) to learn the position the seat is at,
and checks that the screen just printed shows that position's board as the seat sees it. The
game is played to its end, where the result must be printed and the command end with status 0.
"""

from __future__ import annotations

import errno
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import aiplay
from aiplay.testing.choose import games_with
from aiplay.views.text import render_state

ROOT = Path(__file__).resolve().parent.parent
PROMPT = b"player 0> "
#: The coach's offer once the game is over (answered "n" here; tests/test_review.py answers yes).
REVIEW_OFFER = b"review your game? [y/N] "

pty = pytest.importorskip("pty")  # POSIX only


class Terminal:
    """A command run on a pseudo-terminal: what it prints (newlines as written), and typing into it."""

    def __init__(self, argv: list):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
        os.close(slave)
        self.master = master
        self.screen = b""
        self.closed = False

    def read_until(self, marker: bytes, start: int, timeout: float = 120.0, *others: bytes) -> int:
        """Read until ``marker`` (or one of ``others``) appears at or after ``start`` (the first's position),
        or the command ends (-1)."""
        deadline = time.monotonic() + timeout
        markers = (marker,) + others

        def found() -> int:
            places = [p for p in (self.screen.find(m, start) for m in markers) if p >= 0]
            return min(places) if places else -1

        while found() < 0 and not self.closed:
            left = deadline - time.monotonic()
            assert left > 0, f"no {marker!r} within {timeout} s; the screen ends with:\n{self.text()[-2000:]}"
            if select.select([self.master], [], [], min(left, 0.5))[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError as exc:  # EIO: the command ended and closed the terminal
                    if exc.errno != errno.EIO:
                        raise
                    chunk = b""
                if not chunk:
                    self.closed = True
                self.screen += chunk
        return found()

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def text(self, start: int = 0, end: int = -1) -> str:
        """The screen from ``start`` to ``end`` as text, with the terminal's CR LF line ends as LF."""
        raw = self.screen[start:] if end < 0 else self.screen[start:end]
        return raw.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


@pytest.mark.parametrize("name", games_with(board=True))  # the board games
def test_a_whole_human_game_at_a_terminal_shows_the_board_before_every_move(name, tmp_path):
    saved = tmp_path / "game.json"
    term = Terminal([sys.executable, "-m", "aiplay", "play", name, "--human", "0", "--bots", "random",
                     "--seed", "1"])
    game = aiplay.load(name)
    state = game.new_initial_state()
    played = 0  # moves of the saved record already applied to `state`
    decisions = 0
    at = 0  # where the screen of the next decision starts
    try:
        while True:
            prompt = term.read_until(PROMPT, at, 120.0, REVIEW_OFFER)
            if prompt < 0 or term.screen.startswith(REVIEW_OFFER, prompt):
                if prompt >= 0:
                    term.type("n")  # the game is over: no review
                break
            term.type(f"save {saved}")
            after_save = term.read_until(PROMPT, prompt + len(PROMPT))
            assert after_save > 0 and "saved to" in term.text(prompt, after_save), term.text(prompt)
            moves = json.loads(saved.read_text())["moves"]
            for move in moves[played:]:
                state.apply_action(move["action"])
            played = len(moves)
            assert state.current_player() == 0
            board = render_state(state, 0, "text")
            shown = term.text(at, prompt)
            assert board in shown, f"{name}: the board before move {played} is not on the screen:\n{shown}"
            # The board comes before the menu it leads to, on the same screen as the prompt.
            assert shown.index(board) < shown.index("player 0, your")
            term.type("1")
            decisions += 1
            at = after_save + len(PROMPT)
        rc = term.close()
    except BaseException:
        if term.proc.poll() is None:
            term.proc.kill()
        raise
    end = term.text(at)
    assert rc == 0, end
    assert "returns: [" in end and "result: " in end, end
    assert "Traceback" not in term.text()
    assert decisions > 0
    # The banners name whose turn it is without a count of their own, which would differ from the board's
    # turn or round (Area 1851 counted seat changes as "turn 4" while its board said turn 1).
    banners = [line for line in term.text().splitlines() if line.startswith("--- player ")]
    assert banners and not any("turn" in line for line in banners)
