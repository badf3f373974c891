"""Checks of a game's SVG pictures (issue 23) over whole seeded random games, shared by the generic
tests (tests/test_svg.py) and each board game's own (games/<game>/tests/test_<game>_svg.py), which run
them on option sets that keep its games short enough.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any, Dict, Iterable, Optional, Sequence, Set

import aiplay
from aiplay.testing.contract import _Checker
from aiplay.testing.simulate import random_walk
from aiplay.views import svg as S
from aiplay.views.hooks import reference_state

#: The picture's width, on its root element.
_WIDTH = re.compile(r'<svg[^>]*? width="([0-9.]+)"')

__all__ = ["check_every_picture", "check_marks_look_alike", "check_twins_look_alike", "targets"]


def targets(document: str) -> Set[str]:
    """The ``data-target`` ids of a picture, read by an XML parser (which also proves it well-formed)."""
    root = ET.fromstring(document)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    found = [el for el in root.iter() if el.get("data-target") is not None]
    for el in found:  # no target inside another: a click means one element
        inner = [sub.get("data-target") for sub in el.iter() if sub is not el and sub.get("data-target") is not None]
        assert not inner, (el.get("data-target"), inner)
    return {el.get("data-target") for el in found}  # type: ignore[misc]


def check_every_picture(name: str, options: Dict[str, Any], seeds: Iterable[int]) -> None:
    """Every state and viewer of seeded random games parses, is at most ``FIT_WIDTH`` units wide, and the move
    map names drawn elements."""
    game = aiplay.load(name, **options)
    module = S.svg_module(game.new_initial_state())
    assert module is not None
    seats = list(range(game.num_players))
    decisions = placed = 0
    for seed in seeds:
        for state in random_walk(game.new_initial_state(), random.Random(seed)):
            pictures = {v: S.svg(state, v) for v in [None] + seats}
            drawn: Dict[Optional[int], Set[str]] = {v: targets(doc) for v, doc in pictures.items()}
            for v, doc in pictures.items():  # legible at 1280x720 without a sideways scroll (issue 38)
                width = float(_WIDTH.search(doc).group(1))  # type: ignore[union-attr]
                assert width <= S.FIT_WIDTH, f"{name}: the picture for viewer {v} is {width} units wide (> {S.FIT_WIDTH})"
            if state.is_terminal() or state.is_chance_node():
                assert S.legal_moves_on_svg(state) == {}
                continue
            decisions += 1
            player = state.current_player()
            raw = module.move_targets(reference_state(state))
            assert sorted(raw) == sorted(state.legal_actions())
            for action, ids in raw.items():
                # The acting seat's picture and the omniscient one draw every element its moves touch.
                missing = [t for t in ids if t not in drawn[None] or t not in drawn[player]]
                assert not missing, (f"{name}: action {state.action_to_string(action)} names {missing}, "
                                     f"not drawn for seat {player}")
            mapping = S.legal_moves_on_svg(state, player)
            assert mapping == raw
            placed += any(mapping.values())
            # Another seat has nothing to click (and must not learn the acting seat's options).
            assert S.legal_moves_on_svg(state, (player + 1) % game.num_players) == {}
    # Most decisions of these games have a place on the board.
    assert decisions and placed >= decisions // 2, (placed, decisions)


def check_twins_look_alike(name: str, options: Dict[str, Any], seeds: Iterable[int]) -> None:
    """Twins a viewer cannot tell apart (``determinize``) give that viewer the same picture."""
    game = aiplay.load(name, **options)
    rng = random.Random(11)
    compared = differed = 0
    for seed in seeds:
        for step, state in enumerate(random_walk(game.new_initial_state(), random.Random(seed))):
            if step % 4:
                continue
            for viewer in range(game.num_players):
                twin = state.determinize(viewer, rng)
                assert S.svg(twin, viewer) == S.svg(state, viewer), f"{name} step {step}: seat {viewer} sees a difference"
                compared += 1
                differed += S.svg(twin, None) != S.svg(state, None)
    # The twins really hid something: the omniscient pictures of some pairs differ.
    assert compared and differed, (compared, differed)



def check_marks_look_alike(name: str, options: Dict[str, Any], seeds: Iterable[int], spans: Sequence[int] = (1, 3)) -> int:
    """The last-move marks (``svg(state, viewer, since=earlier)``) are the same for twins a viewer cannot tell apart.

    Twin games come from the contract's generator (after every move the viewer has the same
    information in both, while what it does not see differs where the game allows); a span of
    ``k`` moves is a last move (1) or a bot's whole turn (more). Returns how many marked
    pictures were compared; the caller checks that some elements were marked at all.
    """
    game = aiplay.load(name, **options)
    checker = _Checker(game, name, 400)
    marked = 0
    for seed in seeds:
        for viewer in range(game.num_players):
            pairs = [(game.new_initial_state(), game.new_initial_state())]
            pairs += [(a, b) for _, a, b in checker.twin_pairs(viewer, seed)]
            for i in range(1, len(pairs)):
                for span in spans:
                    if i - span < 0:
                        continue
                    (a0, b0), (a, b) = pairs[i - span], pairs[i]
                    pa, pb = S.svg(a, viewer, since=a0), S.svg(b, viewer, since=b0)
                    assert pa == pb, f"{name} seed {seed} move {i} span {span}: seat {viewer}'s marks differ"
                    marked += 'data-changed="1"' in pa
    return marked
