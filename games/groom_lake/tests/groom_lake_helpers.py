"""Positions for the Groom Lake scenario tests, built through the serializer (never by hand-set results).

:func:`position` writes a play-phase document (roles, hands, map, Team,
Discard Stack...) and loads it with ``state_from_dict``, which validates it
like any other document: every card and tile must be somewhere, the map must
be a legal one. The deck gets every card not placed elsewhere, the tile
stacks every tile not on the map or in the pool.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence

from aiplay.games.groom_lake import GroomLakeGame, GroomLakeState
from aiplay.games.groom_lake import actions as A
from aiplay.games.groom_lake.components import (
    ALIEN, HUMAN, HUNTER, NUM_STACKS, NUM_TYPES, RECOVERY, STACK_TILES, TYPE_COUNTS, cell_index, has_hunter,
)

Hand = Dict[int, int]


def counts(hand: Optional[Hand]) -> List[int]:
    """A count vector from ``{type: copies}``."""
    out = [0] * NUM_TYPES
    for t, c in (hand or {}).items():
        out[t] += c
    return out


def position(players: int = 3, *, roles: Optional[Sequence[int]] = None, hands: Optional[Sequence[Hand]] = None,
             life: Optional[Sequence[int]] = None, placed: Iterable[Sequence[int]] = (), team=(0, 0),
             discard: Optional[Sequence[int]] = None, turn: int = 0, ap: int = 2, pool: Sequence[int] = (),
             recoveries: int = 0, half_win: bool = False,
             stats: Optional[Sequence[Sequence[int]]] = None) -> GroomLakeState:
    """A play-phase position at the start of an action choice of seat ``turn``.

    ``placed`` lists ``[tile, x, y, rotation, open]`` after Groom Lake; ``roles``
    defaults to the Alien in seat 0 (and the Hunter in seat 1 with 5+ players);
    ``stats`` is each seat's public record ``[hazard rounds joined, items given]``.
    """
    game = GroomLakeGame(players=players, half_win=half_win)
    n = players
    if roles is None:
        roles = [ALIEN] + ([HUNTER] if has_hunter(n) else []) + [HUMAN] * (n - 1 - has_hunter(n))
    hand_counts = [counts(h) for h in (hands or [{} for _ in range(n)])]
    discard = [0] * 6 if discard is None else list(discard)
    deck = list(TYPE_COUNTS)
    deck[RECOVERY] -= recoveries
    for h in hand_counts:
        deck = [d - x for d, x in zip(deck, h)]
    for t in discard:
        deck[t] -= 1
    assert min(deck) >= 0, "more cards than the game has"
    tiles = [[0, 0, 0, 0, 0]] + [list(p) for p in placed]
    used = {t[0] for t in tiles} | set(pool)
    doc = {
        "alien_card": False, "ap": ap, "ballots": [], "count": 0, "cur": turn, "dealt": 12 * n, "deck": deck,
        "deck_known": [[0] * NUM_TYPES for _ in range(n)], "discard": discard, "half_agreed": False,
        "half_called": False, "hands": hand_counts, "handout": [0] * NUM_TYPES, "held": [],
        "inv_cards": [0] * NUM_TYPES, "known": [[0] * NUM_TYPES for _ in range(n)], "kept": [0] * NUM_TYPES,
        "life": list(life) if life is not None else [game.start_life] * n, "map": tiles, "pool": sorted(pool),
        "pool_known": [[] for _ in range(n)], "queue": [], "recoveries": recoveries,
        "refresh": [0] * NUM_TYPES, "refresh_known": [[0] * NUM_TYPES for _ in range(n)], "result": 0,
        "revealed": [False] * n, "roles": list(roles),
        "stacks": [[t for t in STACK_TILES[s] if t not in used] for s in range(NUM_STACKS)],
        "stats": [list(r) for r in stats] if stats is not None else [[0, 0] for _ in range(n)],
        "step": "action", "target": -1, "team": list(team),
        "team_from": list(team), "total": 0, "turn": turn,
    }
    return game.state_from_dict(doc)


def play(state: GroomLakeState, *names: str) -> GroomLakeState:
    """Apply actions (decisions or chance outcomes) by their names, checking each is legal."""
    for name in names:
        state.apply_action(state.string_to_action(name))
    return state


def place_action(x: int, y: int, rot: int) -> int:
    """The id of "place the kept tile at (x, y) turned rot"."""
    return A.place(cell_index(x, y), rot)
