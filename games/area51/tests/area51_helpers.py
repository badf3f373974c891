"""Building Area 51 positions by hand for the scenario tests (through the validated JSON loader)."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from aiplay.games.area51.components import (
    CAPS_PER_OWNER, COLOURS, MARKER_COPIES, NUM_TYPES, TOTAL_COUNTS, card_type,
)
from aiplay.games.area51.components import markers_for
from aiplay.games.area51.rules import Area51Game, Area51State


def T(name: str) -> int:
    """``T("blue 3")``: the card type of a readable name."""
    colour, value = name.split()
    return card_type(COLOURS.index(colour), int(value))


def counts(names: Iterable[str]) -> List[int]:
    out = [0] * NUM_TYPES
    for name in names:
        out[T(name)] += 1
    return out


def position(game: Area51Game, *, spaces: Optional[Dict[Tuple[int, int], Tuple[int, int, int]]] = None,
             vehicles: Optional[Dict[int, Tuple[int, int]]] = None,
             hangars: Optional[Dict[Tuple[int, int], Sequence[Tuple[str, int, int]]]] = None,
             hands: Optional[Dict[int, Sequence[str]]] = None, known: Optional[Dict[int, Sequence[str]]] = None,
             row: Sequence[str] = (), discards: Sequence[str] = (), current: int = 0, phase: str = "play",
             step: str = "kind", scores: Optional[Sequence[int]] = None, turn: int = 0,
             extra_left: int = 0) -> Area51State:
    """A consistent position: bunkers {(region, space0): (colour, owner, level)}, vehicles
    {v: (route index, number)}, hangar cards {(region, hangar0): [(name, face_up, seat)]}; every
    card not placed is in the main deck; markers, towers, caps and the supply follow."""
    n = game.players
    spaces = spaces or {}
    vehicles = vehicles or {}
    hangars = hangars or {}
    hands = hands or {}
    known = known or {}
    sp = [[None] * game.spaces_in[r] for r in range(3)]
    markers = list(game.markers_in)
    towers = list(game.towers)
    caps = [CAPS_PER_OWNER] * game.num_owners
    for (r, s), (c, o, level) in spaces.items():
        sp[r][s] = [c, o, level]
        markers[r] -= level
        towers[c] -= 1
        caps[o] -= 1
    supply = list(MARKER_COPIES)
    vs = [None] * 8
    for v, (route, k) in vehicles.items():
        shown = markers_for(k, supply)
        for kind, _ in shown:
            supply[kind] -= 1
        vs[v] = [route, shown]
    hg = [[[] for _ in range(game.hangars_in[r])] for r in range(3)]
    placed = [0] * NUM_TYPES
    for (r, h), cards in hangars.items():
        for name, up, by in cards:
            hg[r][h].append([T(name), up, by])
            placed[T(name)] += 1
    hand_counts = [counts(hands.get(p, ())) for p in range(n)]
    for p in range(n):
        placed = [a + b for a, b in zip(placed, hand_counts[p])]
    row_c, disc_c = counts(row), counts(discards)
    placed = [a + b + c for a, b, c in zip(placed, row_c, disc_c)]
    main = [tot - pl for tot, pl in zip(TOTAL_COUNTS, placed)]
    data = {
        "phase": phase, "step": step, "current": current, "turn": turn, "extra_left": extra_left,
        "context": {}, "taken": 0, "refreshed": False, "queue": [], "row": row_c, "discards": disc_c,
        "deck_top_left": 0, "deck_start_pool": [0] * NUM_TYPES, "deck_main_pool": main,
        "markers": markers, "spaces": sp, "hangars": hg, "towers": towers, "caps": caps, "vehicles": vs,
        "supply": supply, "scores": list(scores) if scores else [0] * game.num_owners,
        "bonus": [0] * game.num_owners, "hands": hand_counts, "known": [counts(known.get(p, ())) for p in range(n)],
        "soft": [[0] * NUM_TYPES for _ in range(n)],
        "linked_from": [[[0] * game.hangars_in[r] for r in range(3)] for _ in range(n)], "deck_bound": [0] * NUM_TYPES,
        "start_seen": [0] * NUM_TYPES,
        "anyc": [sum(hand_counts[p]) - len(known.get(p, ())) for p in range(n)], "pile": [0] * NUM_TYPES,
        "pile_region": -1, "used": [],
    }
    return game.state_from_dict(data)


def names(state: Area51State, actions: Iterable[int]) -> List[str]:
    return sorted(state.action_to_string(a) for a in actions)


def play(state: Area51State, *texts: str) -> None:
    """Apply decisions by their names."""
    for text in texts:
        state.apply_action(state.string_to_action(text))
