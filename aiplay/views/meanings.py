"""A small helper for the games' ``guide.py``: move meanings as a table of name patterns.

A game lists ``(regular expression, text)`` pairs; the text may use the match's
groups (``{1}``, ``{2}``...). The first pattern that matches the whole name wins.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence, Tuple

Pattern = Tuple[str, str]


def meaning_from(table: Sequence[Pattern], name: str) -> Optional[str]:
    """The text of the first pattern of ``table`` that matches all of ``name``, its groups filled in."""
    for pattern, text in table:
        found = re.fullmatch(pattern, name.strip(), flags=re.IGNORECASE)
        if found:
            return text.format(found.group(0), *found.groups())
    return None


__all__ = ["Pattern", "meaning_from"]
