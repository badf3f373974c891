"""``aiplay levels``: a game's difficulty levels and their calibrated ratings (:mod:`aiplay.search.level`)."""

from __future__ import annotations

from typing import Any

from aiplay.search.level import format_levels


def add_levels_command(sub: Any) -> None:
    """Register ``aiplay levels GAME`` on the CLI's subparsers."""
    parser = sub.add_parser("levels", help="the difficulty levels of a game and their calibrated ratings",
                            description="Print the difficulty levels and their ratings on GAME (random = 0).")
    parser.add_argument("game", help="game name (see `aiplay games`)")

    def command(args: Any) -> int:
        print(format_levels(args.game))
        return 0

    parser.set_defaults(func=command)


__all__ = ["add_levels_command"]
