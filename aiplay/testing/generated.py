"""Generated files kept in a game's folder (its playthroughs, ``view.md``, ``tensors.md``): compare or record.

A game written before these files lived in its folder (or one copied in from
elsewhere) arrives without them. The generic tests then record the file from
the game itself instead of failing on a game that did nothing wrong, and skip,
saying that it was written and must be reviewed and committed; a file that
exists must match exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional


def record_if_missing(path: Path, make: Callable[[], str], command: str) -> Optional[str]:
    """None when ``path`` exists; else write ``make()`` there and return the reason to skip the test.

    ``command`` is how a person regenerates the file (named in the reason).
    """
    if path.exists():
        return None
    try:
        text = make()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"{path} is missing and could not be written ({exc.strerror or exc}): write it with {command}"
    return f"{path} was missing: it has now been generated; review it and commit it (or rerun {command})"


__all__ = ["record_if_missing"]
