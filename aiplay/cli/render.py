"""``aiplay render``: write the SVG picture of a position file, as one seat sees it.

Examples::

    aiplay render GAME position.json --viewer 1 --out board.svg     # as seat 1 sees it
    aiplay render GAME position.json --out map.svg                  # everything (no viewer)
    aiplay render GAME position.json --targets moves.json           # also the legal-move map

The position is a state document (``State.to_json()``) or a position file
(``games/<game>/positions/*.json``). The picture comes from :func:`aiplay.svg.svg`;
``--targets`` writes :func:`aiplay.svg.legal_moves_on_svg` as JSON (action id -> its name
and the ``data-target`` ids it touches), for a frontend that makes the picture clickable.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, Optional

from aiplay.errors import InvalidOptionError, InvalidStateError
from aiplay.game import State
from aiplay.solve import load_position
from aiplay.views.svg import legal_moves_on_svg, svg


def render_position(game: str, path: str) -> State:
    """The state of position file ``path``, checked to be a ``game`` position (raises otherwise)."""
    state, _ = load_position(path, backend="reference")
    if state.game.name != game:
        raise InvalidStateError("game", f"{path} holds a {state.game.name!r} position, not {game!r}")
    return state


def move_map(state: State, viewer: Optional[int]) -> Dict[str, Any]:
    """``{action id: {"name", "targets"}}``: the legal-move map of ``state`` for ``viewer``'s picture."""
    return {str(a): {"name": state.action_to_string(a), "targets": ids}
            for a, ids in legal_moves_on_svg(state, viewer).items()}


def _write(text: str, out: str) -> None:
    if out == "-":
        sys.stdout.write(text + "\n")
        return
    try:
        Path(out).write_text(text + "\n")
    except OSError as exc:
        raise InvalidOptionError(f"cannot write {out}: {exc.strerror or exc}") from None


def _viewer(text: Optional[str]) -> Optional[int]:
    if text is None or text == "all":
        return None
    try:
        return int(text)
    except ValueError:
        raise InvalidOptionError(f"--viewer {text!r} must be a seat number or 'all'") from None


def cmd_render(args: argparse.Namespace) -> int:
    """Write the picture (and optionally the move map) of a position."""
    state = render_position(args.game, args.position)
    viewer = _viewer(args.viewer)
    picture = svg(state, viewer)
    if args.targets:
        _write(json.dumps(move_map(state, viewer), indent=1), args.targets)
    _write(picture, args.out)
    if args.out != "-":
        print(f"wrote {args.out}" + (f" and {args.targets}" if args.targets else ""))
    return 0


def add_render_command(sub: Any) -> None:
    """Add ``aiplay render`` to the CLI's subparsers (``aiplay/cli.py`` calls this)."""
    parser = sub.add_parser(
        "render", help="write the SVG picture of a position, as one seat sees it",
        description="Write the SVG picture of a position (a State.to_json() document or a position file) as "
                    "seat VIEWER sees it: hidden cards of the others are drawn as backs. Elements a move can "
                    "name carry data-target ids (docs/svg.md).")
    parser.add_argument("game", help="game name (see `aiplay games`); must match the position's")
    parser.add_argument("position", help="the position file")
    parser.add_argument("--viewer", help="the seat whose eyes the picture shows (default: 'all', everything)")
    parser.add_argument("--out", default="-", help="the SVG file to write (default: standard output)")
    parser.add_argument("--targets", metavar="FILE",
                        help="also write the legal-move map as JSON: action id -> name and data-target ids")
    parser.set_defaults(func=cmd_render)


__all__ = ["add_render_command", "cmd_render", "move_map", "render_position"]
