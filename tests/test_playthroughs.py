"""Stored playthroughs must replay identically, on the reference and on the native engine.

The list of files comes from the games' registry entries; every registered
game (hidden example games included) must declare at least one.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from aiplay.testing.playthrough import FOLDER_NAME, playthrough, playthrough_cases, playthrough_path
from aiplay.registry import game_entries, has_native

CASES = playthrough_cases()


def record_missing(name, spec, path: Path) -> None:
    """A declared playthrough whose file is missing (a game written when the files lived in
    tests/playthroughs/): record it into the game's folder when that is writable, and skip."""
    how = f"`python -m aiplay.testing.playthrough --update --game {name}`"
    try:
        text = playthrough(name, spec.options, spec.seed, backend="reference",
                           state_every=spec.state_every, max_steps=spec.max_steps)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    except OSError as exc:
        pytest.skip(f"{path} is missing (the registry entry of {name!r} declares it) and could not be "
                    f"written ({exc.strerror or exc}): record it with {how} and commit it")
    pytest.skip(f"{path} was missing (the registry entry of {name!r} declares it): it has now been "
                f"recorded from the reference engine; review it and commit it (or rerun {how})")


@pytest.mark.parametrize("name,spec", CASES, ids=[spec.stem for _, spec in CASES])
def test_playthrough_replays(name, spec):
    path = playthrough_path(name, spec)
    if not path.exists():
        record_missing(name, spec, path)
    stored = path.read_text()
    for backend in ["reference"] + (["native"] if has_native(name) else []):
        fresh = playthrough(name, spec.options, spec.seed, backend=backend,
                            state_every=spec.state_every, max_steps=spec.max_steps)
        if fresh != stored:
            diff = "".join(list(difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True),
                                                     "stored", backend, n=1))[:40])
            pytest.fail(f"{spec.stem} ({backend}) differs from the stored playthrough; if the change is "
                        f"intended, run `python -m aiplay.testing.playthrough --update`\n{diff}")


@pytest.mark.parametrize("entry", game_entries(include_hidden=True), ids=lambda e: e.name)
def test_every_game_declares_a_playthrough(entry):
    assert entry.playthroughs, (f"{entry.name!r} declares no golden playthrough: add "
                                f"playthroughs=[PlaythroughSpec(...)] to its register() call")


def test_playthrough_stems_are_unique_and_every_stored_file_is_declared():
    stems = [spec.stem for _, spec in CASES]
    assert len(stems) == len(set(stems)), f"two playthroughs share a file: {stems}"
    stored = [p for entry in game_entries(include_hidden=True) if entry.folder is not None
              for p in (entry.folder / FOLDER_NAME).glob("*.txt")]
    assert stored, "no stored playthrough found in any game folder"
    orphans = sorted(str(p) for p in stored if p.stem not in stems)
    assert not orphans, f"stored playthroughs that no registry entry declares (stale?): {orphans}"


def test_update_can_be_limited_to_one_game(tmp_path):
    from aiplay.testing.choose import pick_game
    from aiplay.testing.playthrough import main

    game = pick_game(short=True)
    assert main(["--update", "--game", game, "--dir", str(tmp_path)]) == 0
    written = sorted(p.stem for p in tmp_path.glob("*.txt"))
    assert written == sorted(spec.stem for name, spec in CASES if name == game)
    assert main(["--game", game, "--dir", str(tmp_path)]) == 0  # the check of the same files passes
    with pytest.raises(SystemExit):
        main(["--game", "no_such_game", "--dir", str(tmp_path)])
