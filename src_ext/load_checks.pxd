# cython: language_level=3
"""Checks that the kernels' ``load_dict`` applies to every value before it writes C memory.

Shared by the board-game kernels (``cimport aiplay._ext.load_checks``): each
raises :class:`aiplay.errors.InvalidStateError` naming the field
(``state.<field>``) and returns the checked value. They run once per load,
never in a search, so the error path imports the exception class lazily (a
``.pxd`` holds no module-level Python import).
"""


cdef inline object _invalid(str field, str problem):
    from aiplay.errors import InvalidStateError
    return InvalidStateError(f"state.{field}", problem)


cdef inline int _ival(object value, str field, int low, int high) except? -2147483647:
    """``value`` as a C int in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _invalid(field, f"must be an integer, got {value!r}")
    if not low <= value <= high:
        raise _invalid(field, f"must be between {low} and {high}, got {value}")
    return value


cdef inline list _lst(object value, str field, Py_ssize_t length):
    """``value`` as a list, of ``length`` entries unless ``length`` is negative."""
    if not isinstance(value, list):
        raise _invalid(field, f"must be a list, got {value!r}")
    if length >= 0 and len(value) != length:
        raise _invalid(field, f"must have {length} entries, got {len(value)}")
    return value


cdef inline int _choice(object value, tuple names, str field) except -1:
    """The index of ``value`` in ``names`` (the names a field may take)."""
    if not isinstance(value, str) or value not in names:
        raise _invalid(field, f"must be one of {list(names)}, got {value!r}")
    return names.index(value)
