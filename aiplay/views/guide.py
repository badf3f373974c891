"""How to play a game, and what each move means, in words a newcomer reads.

* :func:`how_to_play` -- the game's ``games/<g>/how_to_play.md`` (goal, a turn,
  the terms the moves use, the end), shown by ``rules`` in the terminal and the
  protocol and by the demo's help panel.
* :func:`move_meaning` -- one line saying what a move does ("raise: lift one
  building out of the lake..."). Per game in ``games/<g>/guide.py``, which may
  define ``move_meaning(name, view) -> Optional[str]``; a generic sentence
  otherwise.

Seat safety: a meaning is computed from the move's name *as the viewer sees it*
(:func:`aiplay.game.seen_action`) and the viewer's own ``view``, never from the
state itself, so two positions a seat cannot tell apart give it the same words.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, State, check_player, seen_action
from aiplay.views.hooks import game_file, game_module, game_name

#: Meanings of move words shared by many games (the first word of a move's name).
GENERIC_MEANINGS: Dict[str, str] = {
    "done": "finish this step of your turn and go on",
    "pass": "do nothing this time and let play go on",
    "skip": "leave this optional step out",
    "yes": "vote for the proposal",
    "no": "vote against the proposal",
    "deal": "a card is dealt (chance)",
    "draw": "a card is drawn (chance)",
    "roll": "roll the dice",
    "hold": "stop rolling and keep what this turn made",
}


def how_to_play(game: Any) -> str:
    """The game's how-to-play text (Markdown): ``games/<g>/how_to_play.md``, or a short generic note.

    ``game`` is a registry name, a :class:`~aiplay.game.Game` or a state.
    """
    path = game_file(game, "how_to_play.md")
    if path is not None:
        return path.read_text(encoding="utf-8")
    name = game_name(game)
    return (f"# {name}\n\nNo guide is written for this game yet. Each turn, pick one of the legal moves "
            f"listed; the game ends when its rules say so, and the highest result wins.\n")


def legend(game: Any) -> Optional[str]:
    """What the symbols of the game's text picture mean (``LEGEND`` in its ``guide.py``), or None."""
    text = getattr(game_module(game, "guide"), "LEGEND", None)
    return str(text) if text else None


def name_meaning(game: Any, name: str, view: Optional[Mapping[str, Any]] = None, chance: bool = False) -> str:
    """The one-line meaning of a move called ``name`` (as the viewer reads it), given the viewer's ``view``.

    ``chance``: the move is a chance outcome (its generic meaning says so).
    """
    module = game_module(game, "guide")
    hook = getattr(module, "move_meaning", None)
    if callable(hook):
        text = hook(name, view if view is not None else {})
        if text:
            return str(text)
    return f"chance decides: {name}" if chance else generic_meaning(name)


def generic_meaning(name: str) -> str:
    """A sentence for a move name no game explains: by its first word, else the name itself."""
    words = name.split()
    first = words[0].lower() if words else ""
    if first in GENERIC_MEANINGS:
        return GENERIC_MEANINGS[first]
    if "hidden" in name:
        return "a choice kept secret from you until its phase ends"
    return f"play \"{name}\""


def _view_of(state: State, viewer: Optional[int]) -> Mapping[str, Any]:
    seat = viewer if viewer is not None else max(state.current_player(), 0)
    try:
        view = state.view(seat)
    except Exception:  # noqa: BLE001 - a game without a view: the meaning reads the name alone
        return {}
    return view if isinstance(view, Mapping) else {}


def move_meaning(state: State, action: int, viewer: Optional[int] = None) -> str:
    """One line saying what ``action`` does in ``state``, as seat ``viewer`` may read it.

    ``viewer`` None reads as the seat to move (a referee looking over its shoulder).
    A move hidden from the viewer is explained by its redacted name only.
    """
    if viewer is not None:
        viewer = check_player(viewer, state.game.num_players)
    player = state.current_player()
    if player < 0 and player != CHANCE:
        raise InvalidOptionError("the game is over: no move has a meaning any more")
    _, name = seen_action(state, action, viewer)
    return name_meaning(state, name, _view_of(state, viewer), chance=player == CHANCE)


def legal_meanings(state: State, viewer: Optional[int] = None) -> List[str]:
    """:func:`move_meaning` of every legal action of ``state``, in ``legal_actions()`` order."""
    view = _view_of(state, viewer)
    chance = state.is_chance_node()
    return [name_meaning(state, seen_action(state, a, viewer)[1], view, chance) for a in state.legal_actions()]


__all__ = ["GENERIC_MEANINGS", "generic_meaning", "how_to_play", "legend", "legal_meanings", "move_meaning", "name_meaning"]
