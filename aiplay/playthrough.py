"""Golden playthroughs: a seeded game written out step by step, kept as a regression file.

In OpenSpiel's manner, a playthrough records everything observable along one
seeded random game: the player to move, the legal actions and their names,
the chance probabilities, the action taken, every player's information
string and the serialized state. ``tests/test_playthroughs.py`` replays the
stored files and fails on any difference, so a change of rules, of action
names or of serialization cannot pass unnoticed.

Regenerate the files after an intended change with (from the project root)::

    python -m aiplay.playthrough --update
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any, Dict, List, Optional

import aiplay
from aiplay.game import CHANCE, TERMINAL, sample_chance_outcome

#: (file stem, game name, options, seed) of every stored playthrough.
PLAYTHROUGHS: List[tuple] = [
    ("kuhn_poker", "kuhn_poker", {}, 1),
    ("kuhn_poker_3p", "kuhn_poker", {"players": 3}, 2),
    ("leduc_poker", "leduc_poker", {}, 3),
    ("leduc_poker_3p", "leduc_poker", {"players": 3}, 4),
    ("pig_20", "pig", {"winscore": 20}, 5),
]

#: Where the stored files live, relative to the project root (run from there).
DEFAULT_DIR = Path("tests") / "playthroughs"


def playthrough(name: str, options: Dict[str, Any], seed: int, backend: str = "reference") -> str:
    """The text of one seeded random game of ``name``."""
    game = aiplay.load(name, backend=backend, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"game: {name}", f"options: {game.options}", f"seed: {seed}", ""]
    step = 0
    while True:
        player = state.current_player()
        lines.append(f"step {step}")
        lines.append(f"  current player: {'chance' if player == CHANCE else 'terminal' if player == TERMINAL else player}")
        for p in range(game.num_players):
            info = state.information_state_string(p).replace("\n", " / ")
            lines.append(f"  information state {p}: {info}")
        lines.append(f"  state: {state.to_json()}")
        if player == TERMINAL:
            lines.append(f"  returns: {state.returns()}")
            lines.append(f"  scores: {state.scores()}")
            break
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            lines.append("  chance outcomes: " + ", ".join(
                f"{a}={state.action_to_string(a)} ({p:.6f})" for a, p in outcomes))
            action = sample_chance_outcome(state, rng)
        else:
            legal = state.legal_actions()
            lines.append("  legal actions: " + ", ".join(f"{a}={state.action_to_string(a)}" for a in legal))
            action = legal[rng.randrange(len(legal))]
        lines.append(f"  action: {action} ({state.action_to_string(action)})")
        state.apply_action(action)
        step += 1
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    """Write (``--update``) or check the stored playthroughs."""
    parser = argparse.ArgumentParser(description="Write or check the golden playthrough files.")
    parser.add_argument("--update", action="store_true", help="rewrite the stored files")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where the files live")
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    stale = 0
    for stem, name, options, seed in PLAYTHROUGHS:
        path = args.dir / f"{stem}.txt"
        text = playthrough(name, options, seed)
        if args.update:
            path.write_text(text)
            print(f"wrote {path}")
        elif not path.exists() or path.read_text() != text:
            stale += 1
            print(f"differs: {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
