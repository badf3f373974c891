"""Pig's moves as phrases for turn summaries (:mod:`aiplay.views.narrate`)."""

from __future__ import annotations

from typing import Optional


def past_tense(name: str) -> Optional[str]:
    return {"roll": "rolled", "stop": "held"}.get(name)
