"""Golden playthroughs: a seeded game written out step by step, kept as a regression file.

In OpenSpiel's manner, a playthrough records everything observable along one
seeded random game: the player to move, the legal actions and their names,
the chance probabilities, the action taken, every player's information
string and the serialized state. ``tests/test_playthroughs.py`` replays the
files, stored in each game's folder (``games/<game>/playthroughs/<stem>.txt``), and
fails on any difference, so a change of rules, of action
names or of serialization cannot pass unnoticed.

Which files exist is declared by each game's registry entry
(``playthroughs=[PlaythroughSpec(stem, options, seed, ...)]`` in
``games/<game>/__init__.py``). Long games (the board games, hundreds of moves)
use a compact format, chosen per file with ``state_every`` = k: one line per
step with the player, the number of legal actions and a hash of their names,
the action taken and its name, and hashes of the serialized state and of every
player's information state; the full state JSON every k steps and at the end.
Every step is still checked (a hash differs as soon as anything does), while
a file stays a few hundred kilobytes at most. ``max_steps`` can cut a transcript.

Regenerate the files after an intended change with (from the project root)::

    python -m aiplay.testing.playthrough --update
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path
from typing import Any, List, Mapping, Optional, Tuple

import aiplay
from aiplay.game import CHANCE, TERMINAL
from aiplay.testing.simulate import random_action
from aiplay.registry import PlaythroughSpec, game_entries, game_entry


def playthrough_cases(include_hidden: bool = True) -> List[Tuple[str, PlaythroughSpec]]:
    """(game name, spec) of every stored playthrough, from the games' registry entries.

    Hidden (example) games are included by default: their files are checked like any other.
    """
    return [(entry.name, spec) for entry in game_entries(include_hidden=include_hidden)
            for spec in entry.playthroughs]


#: The folder, inside a game's folder, that holds its stored playthroughs.
FOLDER_NAME = "playthroughs"


def playthrough_path(name: str, spec: PlaythroughSpec, directory: Optional[Path] = None) -> Path:
    """Where the playthrough ``spec`` of game ``name`` is stored.

    ``games/<game>/playthroughs/<stem>.txt``, beside the rest of the game; or
    ``directory/<stem>.txt`` when a directory is given (``--dir``).
    """
    if directory is not None:
        return Path(directory) / f"{spec.stem}.txt"
    folder = game_entry(name).folder
    if folder is None:
        raise ValueError(f"game {name!r} has no folder on disk: pass a directory for its playthroughs")
    return folder / FOLDER_NAME / f"{spec.stem}.txt"


def _digest(text: str) -> str:
    """A short stable hash of ``text`` (Python's hash() is salted per process)."""
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def playthrough(name: str, options: Mapping[str, Any], seed: int, backend: str = "reference",
                state_every: int = 1, max_steps: Optional[int] = None) -> str:
    """The text of one seeded random game of ``name`` (see the module docstring for the formats)."""
    game = aiplay.load(name, backend=backend, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"game: {name}", f"options: {game.options}", f"seed: {seed}"]
    if state_every > 1:
        lines.append(f"format: compact; full state every {state_every} steps"
                     + (f"; stops after {max_steps} steps" if max_steps is not None else ""))
    lines.append("")
    step = 0
    while True:
        player = state.current_player()
        who = "chance" if player == CHANCE else "terminal" if player == TERMINAL else str(player)
        stop = player == TERMINAL or (max_steps is not None and step >= max_steps)
        if state_every > 1:
            line = _compact_step(game, state, step, who)
            if step % state_every == 0 or stop:
                line += f"\n  state: {state.to_json()}"
        else:
            line = _full_step(game, state, step, who)
        lines.append(line)
        if player == TERMINAL:
            lines.append(f"  returns: {state.returns()}")
            lines.append(f"  scores: {state.scores()}")
            break
        if stop:
            lines.append(f"  (transcript stops after {max_steps} steps)")
            break
        action = random_action(state, rng)
        lines.append(f"  action: {action} ({state.action_to_string(action)})")
        state.apply_action(action)
        step += 1
    return "\n".join(lines) + "\n"


def _full_step(game: Any, state: Any, step: int, who: str) -> str:
    """Everything observable at one step, in full (short games)."""
    lines = [f"step {step}", f"  current player: {who}"]
    for p in range(game.num_players):
        info = state.information_state_string(p).replace("\n", " / ")
        lines.append(f"  information state {p}: {info}")
    lines.append(f"  state: {state.to_json()}")
    if state.is_chance_node():
        lines.append("  chance outcomes: " + ", ".join(
            f"{a}={state.action_to_string(a)} ({p:.6f})" for a, p in state.chance_outcomes()))
    elif not state.is_terminal():
        lines.append("  legal actions: " + ", ".join(
            f"{a}={state.action_to_string(a)}" for a in state.legal_actions()))
    return "\n".join(lines)


def _compact_step(game: Any, state: Any, step: int, who: str) -> str:
    """One step in one line of hashes (long games); the action follows on its own line."""
    infos = " ".join(_digest(state.information_state_string(p)) for p in range(game.num_players))
    if state.is_chance_node():
        moves = "chance " + _digest(", ".join(
            f"{a}={state.action_to_string(a)} ({p:.6f})" for a, p in state.chance_outcomes()))
        count = len(state.chance_outcomes())
    else:
        legal = state.legal_actions()
        moves = "legal " + _digest(", ".join(f"{a}={state.action_to_string(a)}" for a in legal))
        count = len(legal)
    return f"step {step}: player {who}; {count} {moves}; state {_digest(state.to_json())}; info {infos}"


def main(argv: Optional[List[str]] = None) -> int:
    """Write (``--update``) or check the stored playthroughs."""
    parser = argparse.ArgumentParser(description="Write or check the golden playthrough files.")
    parser.add_argument("--update", action="store_true", help="rewrite the stored files")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the files live (default: each game's own games/<game>/playthroughs/)")
    parser.add_argument("--game", action="append", metavar="NAME",
                        help="only this game's files (repeatable); default: every game")
    args = parser.parse_args(argv)
    cases = playthrough_cases()
    known = {name for name, _ in cases}
    unknown = sorted(set(args.game or ()) - known)
    if unknown:
        parser.error(f"no playthroughs are declared for {unknown}; games with some: {sorted(known)}")
    stale = 0
    for name, spec in cases:
        if args.game and name not in args.game:
            continue
        path = playthrough_path(name, spec, args.dir)
        text = playthrough(name, spec.options, spec.seed, state_every=spec.state_every, max_steps=spec.max_steps)
        if args.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path}")
        elif not path.exists() or path.read_text() != text:
            stale += 1
            print(f"differs: {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
