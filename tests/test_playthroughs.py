"""Stored playthroughs must replay identically, on the reference and on the native engine."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from aiplay.playthrough import PLAYTHROUGHS, playthrough
from aiplay.registry import has_native


@pytest.mark.parametrize("stem,name,options,seed", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_playthrough_replays(stem, name, options, seed):
    stored = (Path(__file__).parent / "playthroughs" / f"{stem}.txt").read_text()
    for backend in ["reference"] + (["native"] if has_native(name) else []):
        fresh = playthrough(name, options, seed, backend=backend)
        if fresh != stored:
            diff = "".join(list(difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True),
                                                     "stored", backend, n=1))[:40])
            pytest.fail(f"{stem} ({backend}) differs from the stored playthrough; if the change is "
                        f"intended, run `python -m aiplay.playthrough --update`\n{diff}")
