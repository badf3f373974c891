"""How a command ends when the user interrupts it: the pieces of the CLI's exit policy.

:func:`aiplay.cli.main` turns Ctrl-C into one line on standard error and
status 130. A command with something worth keeping (the arena's results
file, a solve's best answer so far) keeps it and raises :class:`Interrupted`
with a note that says where it is, which becomes that one line.
Worker processes are started with Ctrl-C ignored (:func:`sigint_ignored`):
the terminal sends it to the whole process group, and only the parent
should decide what an interruption means (otherwise each worker prints its
own traceback).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, after the command kept what it had done; ``note`` says what (one line)."""

    def __init__(self, note: str = ""):
        super().__init__(note)
        self.note = note


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT in this block, so that processes started in it inherit the ignoring.

    A process started by fork or exec keeps an ignored signal ignored (and
    Python installs its own Ctrl-C handler only where SIGINT was at its
    default), so workers started here leave interruptions to the parent.
    Outside the main thread signals cannot be changed; the block then runs
    as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


__all__ = ["Interrupted", "sigint_ignored"]
