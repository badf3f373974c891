"""Shared SVG plumbing for the games' pictures, and the generic entry points a frontend calls.

Every board game has a module ``aiplay.games.<game>.svg`` with two functions:

* ``svg(state, viewer=None) -> str``: a picture of the reference ``state`` as seat ``viewer``
  sees it (``None``: everything). It draws nothing that seat cannot know, so two states the
  seat cannot tell apart give the same text.
* ``move_targets(state) -> {action: [target ids]}``: for each legal action of the player to
  move, the ids of the elements it touches; an action with no place on the board (end the
  turn, say yes...) maps to ``[]``.

An element a move can name carries ``data-target="<id>"`` (several elements may share one
id, e.g. the two halves of a street). Frontends use :func:`svg` and
:func:`legal_moves_on_svg`, which accept a state of either engine and check their input;
``docs/svg.md`` describes the ids of every game.

The last move, or a bot's whole turn, is marked by comparing two pictures for the same seat:
``svg(state, viewer, since=earlier)`` marks every element (by its ``data-target`` or
``data-part`` id) whose drawing differs from ``svg(earlier, viewer)`` with ``data-changed``.
Both pictures show only what the seat may know, so the marks do too: two games the seat
cannot tell apart (now and at the earlier position) get the same marks.

:class:`Drawing` is the one small builder the game modules share: a document, groups,
rectangles, circles, text, polygons, lines, a face-up card, a card back, a legend. All text
is escaped here, so a game module never writes markup by hand.
"""

from __future__ import annotations

import importlib
import re
import xml.etree.ElementTree as ET
from types import ModuleType
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from aiplay.errors import InvalidOptionError, InvalidPlayerError
from aiplay.views.hooks import reference_state

#: An attribute value: numbers are written compactly, None leaves the attribute out.
Attr = Any

#: The font every picture uses (a generic family: no font file is needed).
FONT = "DejaVu Sans, Arial, sans-serif"
#: The smallest text a picture draws, in user units; a smaller size asked for is raised to it. A
#: frontend may shrink the picture to 12/13 of its size and every text is still at least 12 px
#: (issue 38: legible at 1280x720; the demo does so when the board has less room).
MIN_TEXT = 13
#: The widest picture a game should draw, in user units: at 12/13 scale (13-unit text at 12 px) it
#: fits the demo's board panel at 1280x720 with no sideways scroll (issue 38).
FIT_WIDTH = 940
#: Colour of card backs.
BACK_FILL = "#5b4a8a"


def wrap(text: str, width: int) -> List[str]:
    """``text`` broken between words into lines of at most ``width`` characters (a longer word keeps a line).

    The pictures count characters rather than measure glyphs: at 13 units a character of the
    picture's font is about 7.5 units wide (8.5 bold), which is bound enough to keep a line inside
    its box (the pictures fit 1280x720 windows, issue 38).
    """
    lines: List[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


#: Escapes for attribute values and text (one ``str.translate`` pass: pictures have thousands).
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})
_NAMES: Dict[str, str] = {}


def _esc(text: str) -> str:
    """``text`` safe inside an element or a double-quoted attribute."""
    return text.translate(_ESCAPES)


def _num(value: Attr) -> str:
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return text if text not in ("-0", "") else "0"
    if isinstance(value, str):
        return _esc(value)
    return str(value)


def _attrs(attrs: Dict[str, Attr]) -> str:
    """``key="value"`` pairs; ``snake_case`` keys become ``snake-case`` (``data_target`` ->
    ``data-target``; ``cls`` -> ``class``); None values are left out."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = "class" if key == "cls" else key.replace("_", "-")
        out.append(f'{name}="{_num(value)}"')
    return (" " + " ".join(out)) if out else ""


class Drawing:
    """An SVG document built element by element (see the module docstring).

    ``target`` on any element writes ``data-target`` (what a click on it means), ``tip`` a
    ``<title>`` child (the browser's hover text). Coordinates are user units.
    """

    def __init__(self, width: float, height: float, title: str, background: str = "#ffffff"):
        self.width = width
        self.height = height
        self._parts: List[str] = [
            f'<svg xmlns="http://www.w3.org/2000/svg"{_attrs({"width": width, "height": height, "viewBox": f"0 0 {_num(width)} {_num(height)}", "font_family": FONT})}>',
            f"<title>{_esc(title)}</title>",
        ]
        self.rect(0, 0, width, height, fill=background)
        self._open = 0

    # -- elements -------------------------------------------------------------------------
    def _element(self, tag: str, attrs: Dict[str, Attr], tip: Optional[str], body: str = "") -> None:
        inner = body + (f"<title>{_esc(tip)}</title>" if tip else "")
        if inner:
            self._parts.append(f"<{tag}{_attrs(attrs)}>{inner}</{tag}>")
        else:
            self._parts.append(f"<{tag}{_attrs(attrs)}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: Optional[str] = None,
             stroke_width: Optional[float] = None, rx: Optional[float] = None, target: Optional[str] = None,
             cls: Optional[str] = None, tip: Optional[str] = None, **extra: Attr) -> None:
        """A rectangle."""
        self._element("rect", dict(x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke,
                                   stroke_width=stroke_width, cls=cls, data_target=target, **extra), tip)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: Optional[str] = None,
               stroke_width: Optional[float] = None, target: Optional[str] = None, cls: Optional[str] = None,
               tip: Optional[str] = None, **extra: Attr) -> None:
        """A circle."""
        self._element("circle", dict(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=stroke_width,
                                     cls=cls, data_target=target, **extra), tip)

    def polygon(self, points: Sequence[Tuple[float, float]], fill: str = "none", stroke: Optional[str] = None,
                stroke_width: Optional[float] = None, target: Optional[str] = None, cls: Optional[str] = None,
                tip: Optional[str] = None, **extra: Attr) -> None:
        """A closed polygon through ``points``."""
        pts = " ".join(f"{_num(float(x))},{_num(float(y))}" for x, y in points)
        self._element("polygon", dict(points=pts, fill=fill, stroke=stroke, stroke_width=stroke_width, cls=cls,
                                      data_target=target, **extra), tip)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000", stroke_width: float = 1,
             target: Optional[str] = None, cls: Optional[str] = None, tip: Optional[str] = None,
             **extra: Attr) -> None:
        """A straight line."""
        self._element("line", dict(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width, cls=cls,
                                   data_target=target, **extra), tip)

    def text(self, x: float, y: float, text: str, size: float = 12, fill: str = "#000", anchor: str = "start",
             weight: Optional[str] = None, target: Optional[str] = None, cls: Optional[str] = None,
             **extra: Attr) -> None:
        """A line of text (escaped); ``anchor`` is ``start``, ``middle`` or ``end``."""
        anchor_attr = None if anchor == "start" else anchor
        size = max(size, MIN_TEXT)
        self._element("text", dict(x=x, y=y, font_size=size, fill=fill, text_anchor=anchor_attr,
                                   font_weight=weight, cls=cls, data_target=target, **extra), None, _esc(text))

    def group(self, target: Optional[str] = None, cls: Optional[str] = None, tip: Optional[str] = None,
              transform: Optional[str] = None, **extra: Attr) -> "_Group":
        """``with drawing.group(...):`` wraps the elements drawn inside in one ``<g>``.

        A target on a group makes the whole group the clickable element.
        """
        return _Group(self, dict(cls=cls, data_target=target, transform=transform, **extra), tip)

    # -- composite pieces -----------------------------------------------------------------
    def card(self, x: float, y: float, w: float, h: float, label: str, fill: str = "#ffffff",
             text_fill: str = "#000", sub: str = "", target: Optional[str] = None, tip: Optional[str] = None,
             count: int = 1, size: float = 11) -> None:
        """A face-up card with a label (and an optional second line); ``count > 1`` adds a ``xN`` badge."""
        with self.group(target=target, cls="card", tip=tip or label):
            self.rect(x, y, w, h, fill=fill, stroke="#333", stroke_width=1, rx=4)
            self.text(x + w / 2, y + h / 2 + (0 if sub else size / 3), label, size=size, fill=text_fill,
                      anchor="middle", weight="bold")
            if sub:
                self.text(x + w / 2, y + h / 2 + size + 1, sub, size=size - 2, fill=text_fill, anchor="middle")
            if count > 1:
                self._badge(x + w, y, count)

    def card_back(self, x: float, y: float, w: float, h: float, target: Optional[str] = None,
                  tip: str = "a face-down card", count: int = 1, label: str = "?") -> None:
        """A face-down card: the same back for every hidden card; ``count > 1`` adds a ``xN`` badge."""
        with self.group(target=target, cls="card-back", tip=tip):
            self.rect(x, y, w, h, fill=BACK_FILL, stroke="#222", stroke_width=1, rx=4)
            self.rect(x + 3, y + 3, w - 6, h - 6, fill="none", stroke="#c9b8f0", stroke_width=1, rx=3)
            self.text(x + w / 2, y + h / 2 + 4, label, size=12, fill="#e8e0ff", anchor="middle", weight="bold")
            if count > 1:
                self._badge(x + w, y, count)

    def _badge(self, right: float, top: float, count: int) -> None:
        # On the card's top-right corner, half outside it, so that it never hides the card's label.
        self.circle(right, top, 11, fill="#111", stroke="#fff", stroke_width=1)
        self.text(right, top + 4, f"x{count}" if count < 10 else str(count), size=MIN_TEXT, fill="#fff", anchor="middle",
                  weight="bold")

    def legend(self, x: float, y: float, items: Iterable[Tuple[str, str]], title: str = "Legend",
               columns: int = 1, column_width: float = 150) -> float:
        """A box of ``(colour, meaning)`` swatches at (x, y); returns the height used."""
        rows = list(items)
        per_column = -(-len(rows) // columns) if rows else 0
        height = 22 + 18 * per_column
        with self.group(cls="legend"):
            self.rect(x, y, columns * column_width + 8, height, fill="#ffffffd0", stroke="#666", rx=4)
            self.text(x + 6, y + 15, title, size=12, weight="bold")
            for i, (colour, meaning) in enumerate(rows):
                cx = x + 6 + (i // per_column) * column_width
                cy = y + 22 + 18 * (i % per_column)
                self.rect(cx, cy, 14, 14, fill=colour, stroke="#333")
                self.text(cx + 20, cy + 11, meaning, size=11)
        return height

    def to_string(self) -> str:
        """The finished document (every group closed)."""
        if self._open:
            raise RuntimeError("a group is still open")
        return "\n".join(self._parts + ["</svg>"])


class _Group:
    """The context manager of :meth:`Drawing.group`."""

    def __init__(self, drawing: Drawing, attrs: Dict[str, Attr], tip: Optional[str]):
        self._drawing = drawing
        self._attrs = attrs
        self._tip = tip

    def __enter__(self) -> Drawing:
        d = self._drawing
        d._parts.append(f"<g{_attrs(self._attrs)}>" + (f"<title>{_esc(self._tip)}</title>" if self._tip else ""))
        d._open += 1
        return d

    def __exit__(self, *exc: Any) -> None:
        self._drawing._parts.append("</g>")
        self._drawing._open -= 1


# -- the generic entry points -----------------------------------------------------------------
_TARGET_RE = re.compile(r'data-target="([^"]*)"')


def targets_in(document: str) -> List[str]:
    """Every distinct ``data-target`` id of an SVG document, in order of first appearance."""
    seen: Dict[str, None] = {}
    for match in _TARGET_RE.finditer(document):
        seen.setdefault(match.group(1), None)
    return list(seen)


def svg_module(state: Any) -> Optional[ModuleType]:
    """The ``svg`` module of ``state``'s game (reference engine package), or None when it has none."""
    ref = reference_state(state)
    package = type(ref).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(package + ".svg")
    except ImportError:
        return None


def _check_viewer(state: Any, viewer: Any) -> Optional[int]:
    if viewer is None:
        return None
    n = state.game.num_players
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
        raise InvalidPlayerError(f"viewer {viewer!r} is not a seat; seats are 0..{n - 1} (or None for everything)")
    return viewer


def _module_or_raise(state: Any) -> Tuple[Any, ModuleType]:
    module = svg_module(state)
    if module is None:
        raise InvalidOptionError(f"game {state.game.name!r} has no SVG picture (no board to draw)")
    return reference_state(state), module


#: An element's ids for comparing two pictures: a move's target, or a part drawn for people only.
_MARK_ATTRS = ("data-target", "data-part")
#: How a marked element looks in a picture shown on its own (the demo draws its own frame too).
#: The outline of a changed element. Its text keeps its own colour: an orange text fill made white
#: labels on dark tiles and cards (a Canyon, a coloured card's value) unreadable (issue 38).
CHANGED_STYLE = ("<style>[data-changed] rect, rect[data-changed], [data-changed] circle, circle[data-changed], "
                 "[data-changed] polygon, polygon[data-changed] { stroke: #ff6a00; stroke-width: 3.5px; }</style>")


#: Where an element lies: left out when comparing, so that a card that only moved up a row
#: because the one before it left the hand is not marked as changed.
_PLACE_ATTRS = ("x", "y", "cx", "cy", "x1", "y1", "x2", "y2", "points", "transform")


def _looks(element: ET.Element) -> Tuple[Any, ...]:
    """What an element shows, wherever it lies: its tag, attributes but the place, text and children."""
    attrs = tuple(sorted((k, v) for k, v in element.attrib.items() if k not in _PLACE_ATTRS))
    return (element.tag, attrs, (element.text or "").strip(), tuple(_looks(child) for child in element))


def _drawn_parts(document: str) -> Dict[str, List[Tuple[Any, ...]]]:
    """``{id: [what each element shows, ...]}`` for every element carrying a ``data-target`` or ``data-part``."""
    root = ET.fromstring(document)
    parts: Dict[str, List[Tuple[Any, ...]]] = {}
    for element in root.iter():
        for attr in _MARK_ATTRS:
            ident = element.get(attr)
            if ident is not None:
                # The element with everything inside it (a card's frame, label and badge).
                parts.setdefault(f"{attr}={ident}", []).append(_looks(element))
    return parts


def changed_ids(before: str, after: str) -> List[Tuple[str, str]]:
    """The elements of picture ``after`` drawn otherwise in picture ``before`` (or not at all there).

    Returns ``(attribute, id)`` pairs (``attribute`` is ``data-target`` or ``data-part``) in the
    order of ``after``. An element gone from ``after`` (a card that left a hand) has nothing to
    mark and is not listed; the element it went to usually is.
    """
    old, new = _drawn_parts(before), _drawn_parts(after)
    return [tuple(key.split("=", 1)) for key, drawn in new.items() if old.get(key) != drawn]  # type: ignore[misc]


def mark_changed(document: str, changed: Iterable[Tuple[str, str]]) -> str:
    """``document`` with ``data-changed="1"`` on every element of the ``(attribute, id)`` pairs, and a style for them."""
    wanted = {f'{attr}="{_esc(ident)}"' for attr, ident in changed}
    if not wanted:
        return document
    pattern = re.compile("|".join(re.escape(w) for w in sorted(wanted)))
    marked = pattern.sub(lambda m: m.group(0) + ' data-changed="1"', document)
    end = marked.rfind("</svg>")
    return marked[:end] + CHANGED_STYLE + "\n" + marked[end:]


def last_decision_ply(movers: Sequence[int]) -> Optional[int]:
    """The index of the latest decision in a history given by its movers (chance: negative), or None.

    The default ``since`` of the protocol's pictures: the last move is that decision and the
    chance outcomes that followed it (the card it drew, the hazard it met).
    """
    for ply in range(len(movers) - 1, -1, -1):
        if movers[ply] >= 0:
            return ply
    return None


def _check_since(state: Any, since: Any) -> Any:
    if since is None:
        return None
    game, earlier = state.game, getattr(since, "game", None)
    if earlier is None or not hasattr(since, "current_player"):
        raise InvalidOptionError(f"since must be an earlier state of the same game, got {since!r}")
    if earlier.name != game.name or earlier.num_players != game.num_players:
        raise InvalidOptionError(f"since is a state of {earlier.name!r} for {earlier.num_players}, "
                                 f"not of {game.name!r} for {game.num_players}")
    return reference_state(since)


def svg(state: Any, viewer: Optional[int] = None, since: Any = None) -> str:
    """The SVG picture of ``state`` (either engine) as seat ``viewer`` sees it; ``None``: everything.

    ``since``: an earlier state of the same match (the position before the last move, or before
    the bots' turn); the elements drawn otherwise than in ``since``'s picture for the same
    viewer carry ``data-changed="1"`` (see :func:`changed_ids`), and the picture a style that
    outlines them. The seat learns nothing new: both pictures are its own.

    Raises :class:`~aiplay.errors.InvalidPlayerError` for a viewer that is not a seat and
    :class:`~aiplay.errors.InvalidOptionError` for a game without a picture or a ``since``
    of another game.
    """
    viewer = _check_viewer(state, viewer)
    ref, module = _module_or_raise(state)
    earlier = _check_since(state, since)
    picture = str(module.svg(ref, viewer))
    if earlier is None:
        return picture
    return mark_changed(picture, changed_ids(str(module.svg(earlier, viewer)), picture))


def legal_moves_on_svg(state: Any, viewer: Optional[int] = None) -> Dict[int, List[str]]:
    """``{action: [data-target ids]}`` for every legal action of ``state``'s decision node.

    The ids are those of :func:`svg` ``(state, viewer)``. ``viewer`` is the seat to move (whose
    clicks these are) or None (everything); any other seat gets ``{}``: it has nothing to click,
    and another seat's legal moves may depend on what that seat hides. An action with no place
    on the board maps to ``[]``; at a chance node or the end of the game the mapping is empty.
    The first id of a list is the action's main element.
    """
    viewer = _check_viewer(state, viewer)
    ref, module = _module_or_raise(state)
    if ref.is_terminal() or ref.is_chance_node() or viewer not in (None, ref.current_player()):
        return {}
    drawn = set(targets_in(str(module.svg(ref, viewer))))
    mapping = module.move_targets(ref)
    return {a: [t for t in mapping.get(a, []) if t in drawn] for a in ref.legal_actions()}


__all__ = ["BACK_FILL", "CHANGED_STYLE", "FIT_WIDTH", "MIN_TEXT", "Drawing", "FONT", "changed_ids", "last_decision_ply", "legal_moves_on_svg", "mark_changed", "svg",
           "svg_module", "targets_in", "wrap"]
