# cython: language_level=3
"""Ending a native search early.

A native search runs its loop without the GIL, so neither Python's signal
handlers nor another thread's request can reach it on their own. The loop
calls :meth:`Cancellation.should_stop` every few iterations (or every
thousand nodes); it returns True once

* :meth:`Cancellation.request_stop` was called (``bot.stop()`` from any
  thread): the search ends and reports its best move so far; or
* a signal handler raised (Ctrl-C's ``KeyboardInterrupt``): the search ends,
  and the caller re-raises :meth:`Cancellation.take_pending` in its thread.

Signals are polled at most every 10 ms: ``should_stop`` takes the GIL only
then, so a call costs one clock reading.

A bot owns one Cancellation and shares it among its native searches (all
workers of a root-parallel search), so one request stops them all. It resets
it at the start of each search.
"""

from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

#: Seconds between two signal checks: well inside the 50 ms a user waits for.
cdef double POLL_SECONDS = 0.01


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class Cancellation:
    """The stop flag and signal poll shared by one bot's native searches (see the module docstring)."""

    def __init__(self):
        self.reset()

    def reset(self):
        """Clear the stop request and any pending exception (before a search starts)."""
        self.stop_requested = False
        self.interrupted = False
        self.pending = None
        self.next_poll = 0.0

    def request_stop(self):
        """Ask the running searches to end after their current iteration; safe from any thread."""
        self.stop_requested = True

    @property
    def stopping(self):
        """True once a stop was requested (or a signal handler raised)."""
        return bool(self.stop_requested)

    def take_pending(self):
        """The exception a signal handler raised during the search (then forgotten), or None."""
        exc = self.pending
        self.pending = None
        self.interrupted = False
        return exc

    cdef bint should_stop(self) noexcept nogil:
        cdef double t
        if self.stop_requested:
            return True
        t = _now()
        if t < self.next_poll:
            return False
        self.next_poll = t + POLL_SECONDS
        with gil:
            try:
                # Runs the Python signal handlers (in the main thread; elsewhere it returns 0).
                PyErr_CheckSignals()
            except BaseException as exc:
                self.pending = exc
                self.interrupted = True
                self.stop_requested = True
                return True
        return False

    def __reduce__(self):
        # A copy (a pickled bot, say) starts idle.
        return (Cancellation, ())
