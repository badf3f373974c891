"""A seat's view as labelled, grouped text, and a bot's estimate in words.

* :func:`view_panel` -- ``[{"title": ..., "rows": [[label, text], ...]}, ...]``:
  what a side panel shows. Per game in ``games/<g>/panel.py``, which defines
  ``panel(view, viewer) -> list of sections`` from the seat's own ``view``
  (so it cannot show what the seat may not see); a generic layout of the view
  otherwise (the top-level facts, then one section per seat).
* :func:`chances_in_words` -- "about even", "likely win"... for a value on the
  game's utility scale (the hint's estimate).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from aiplay.errors import InvalidOptionError
from aiplay.game import State, check_player
from aiplay.limits import finite_number
from aiplay.registry import load
from aiplay.views.hooks import game_module

#: Section of a panel: a title and its ``[label, text]`` rows.
Section = Dict[str, Any]

#: View keys that are bookkeeping for programs, not for a person.
SKIPPED = frozenset({"observer", "to_move", "seat", "internal"})

#: (upper bound of the win chance, words), for :func:`chances_in_words`.
CHANCE_WORDS = ((0.05, "almost certain loss"), (0.25, "likely loss"), (0.42, "behind"), (0.58, "about even"),
                (0.75, "ahead"), (0.95, "likely win"), (1.01, "almost certain win"))


def label(key: str) -> str:
    """A view key as a label: ``"cards_in_hand"`` -> ``"cards in hand"``."""
    return key.replace("_", " ")


def value_text(value: Any) -> str:
    """A view value in words: lists joined, empty as "none", booleans as yes/no, objects as ``key value``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.2f}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, Mapping):
        if not value:
            return "none"
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
            return ", ".join(f"{k}" if v == 1 else f"{v}x {k}" for k, v in value.items())
        return "; ".join(f"{label(str(k))} {value_text(v)}" for k, v in value.items())
    return str(value)


def generic_panel(view: Mapping[str, Any], viewer: Optional[int]) -> List[Section]:
    """The view's top-level facts as one section, then one section per entry of ``seats``."""
    sections: List[Section] = []
    rows = [[label(k), value_text(v)] for k, v in view.items() if k not in SKIPPED and k != "seats"]
    if rows:
        sections.append({"title": "Game", "rows": rows})
    seats = view.get("seats")
    if isinstance(seats, list):
        for i, entry in enumerate(seats):
            if not isinstance(entry, Mapping):
                continue
            seat = entry.get("seat", i)
            title = f"Player {seat}" + (" (you)" if seat == viewer else "")
            sections.append({"title": title, "rows": [[label(k), value_text(v)] for k, v in entry.items()
                                                      if k not in SKIPPED]})
    return sections


def view_panel(state: State, viewer: int) -> List[Section]:
    """``viewer``'s view of ``state`` as grouped, labelled rows (the game's ``panel.py``, else generic)."""
    seat = check_player(viewer, state.game.num_players)
    view = state.view(seat)
    hook = getattr(game_module(state, "panel"), "panel", None)
    if callable(hook):
        return [{"title": str(s["title"]), "rows": [[str(a), str(b)] for a, b in s["rows"]]} for s in hook(view, seat)]
    return generic_panel(view, seat)


def seat_note(state: State, viewer: int) -> Optional[str]:
    """A line the seat should keep in mind every turn (its own role and goal), from the game's
    ``panel.py::seat_note(view, viewer)``; None when the game has none. Read from ``viewer``'s view only."""
    seat = check_player(viewer, state.game.num_players)
    hook = getattr(game_module(state, "panel"), "seat_note", None)
    if not callable(hook):
        return None
    note = hook(state.view(seat), seat)
    return str(note) if note else None


def chances_in_words(value: Any, game: Any) -> str:
    """A bot's estimate ``value`` (on ``game``'s utility scale) as words: "about even", "likely win"...

    ``game`` is a Game or a registry name. The value is placed between the
    game's worst and best utility; a game without a finite range reads the sign.
    """
    number = finite_number(value)
    if number is None:
        raise InvalidOptionError(f"value must be a finite number, got {value!r}")
    if isinstance(game, str):
        game = load(game)
    low, high = float(game.min_utility), float(game.max_utility)
    if not (high > low) or high - low > 1e9:
        share = 0.5 if abs(number) < 1e-9 else (0.8 if number > 0 else 0.2)
    else:
        share = (number - low) / (high - low)
    share = min(max(share, 0.0), 1.0)
    for bound, words in CHANCE_WORDS:
        if share < bound:
            return words
    raise InvalidOptionError(f"value {value!r} could not be put in words")  # not reached: the last bound is > 1


__all__ = ["CHANCE_WORDS", "Section", "chances_in_words", "generic_panel", "label", "seat_note", "value_text", "view_panel"]
