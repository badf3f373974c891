# cython: language_level=3
"""Ending a native search early: ``bot.stop()`` from another thread, and signals (Ctrl-C)."""


cdef class Cancellation:
    cdef bint stop_requested     # set by request_stop(), from any thread
    cdef bint interrupted        # a signal handler raised: the search must end, move or not
    cdef double next_poll        # monotonic time of the next signal check
    cdef object pending          # the exception a signal handler raised, re-raised after the search

    cdef bint should_stop(self) noexcept nogil
