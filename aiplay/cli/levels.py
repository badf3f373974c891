"""``aiplay levels``: a game's difficulty levels, their calibrated ratings (:mod:`aiplay.search.level`)
and, where measured, what the coach (:mod:`aiplay.review`) found in their play."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Dict, Optional

from aiplay.registry import game_entry
from aiplay.search.level import format_levels

#: The coach's per-level table in a game's folder (written by ``benchmarks/review_levels.py --write``).
REVIEW_LEVELS = "review_levels.json"


def review_levels(game: str) -> Optional[Dict[str, Any]]:
    """The coach's per-level table of ``game`` (its folder's :data:`REVIEW_LEVELS`), or None when not measured."""
    try:
        text = resources.files(game_entry(game).package).joinpath(REVIEW_LEVELS).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return None
    return json.loads(text)


def format_review_levels(game: str) -> str:
    """The per-level lines: average loss per decision and blunders, as the coach priced them ("" if none).

    With the data's provenance (options, opponent, games, budget, the command, its date) and, where
    the data has them (``format`` 2), 95 % intervals: the loss's clustered by game, the blunder
    rate's Wilson's. A ``note`` in the data (a caveat on how to read it) is printed under the table.
    """
    doc = review_levels(game)
    if not doc:
        return ""
    when = f", {doc['date']}" if doc.get("date") else ""
    lines = [f"  the coach's review of each level against {doc['opponent']} ({doc['levels'][0]['games']} games a "
             f"level, options {doc.get('options', {})}, {doc['budget']['iterations']} iterations a decision; "
             f"a small sample{when}: {doc.get('command', 'benchmarks/review_levels.py')}):",
             f"  {'level':>5}  {'decisions':>9}  {'loss/decision [95 %]':>26}  {'% of span':>9}  "
             f"{'blunders/game':>13}  {'blunder every':>13}  {'blunder rate [95 %]':>21}"]
    for row in doc["levels"]:
        rate = row["blunders_per_decision"] or 0.0
        every = f"{1 / rate:.0f} moves" if rate else "never seen"
        low_high = row.get("mean_loss_interval")
        loss = f"{row['mean_loss']:.4f}" + (f" [{low_high[0]:.4f}, {low_high[1]:.4f}]" if low_high else "")
        wilson = row.get("blunders_per_decision_interval")
        blunder = f"{rate:.1%}" + (f" [{wilson[0]:.1%}, {wilson[1]:.1%}]" if wilson else "")
        lines.append(f"  {row['level']:>5}  {row['decisions']:>9}  {loss:>26}  {row['mean_loss_span']:>9.2%}  "
                     f"{row['blunders_per_game']:>13.1f}  {every:>13}  {blunder:>21}")
    if doc.get("note"):
        lines.append(f"  note: {doc['note']}")
    return "\n".join(lines)


def add_levels_command(sub: Any) -> None:
    """Register ``aiplay levels GAME`` on the CLI's subparsers."""
    parser = sub.add_parser("levels", help="the difficulty levels of a game and their calibrated ratings",
                            description="Print the difficulty levels and their ratings on GAME (random = 0), and "
                                        "where measured each level's average loss and blunders as the coach "
                                        "(aiplay review) prices them.")
    parser.add_argument("game", help="game name (see `aiplay games`)")

    def command(args: Any) -> int:
        print(format_levels(args.game))
        extra = format_review_levels(args.game)
        if extra:
            print(extra)
        return 0

    parser.set_defaults(func=command)


__all__ = ["REVIEW_LEVELS", "add_levels_command", "format_review_levels", "review_levels"]
