"""The game loop: one place that plays a game on, move by move, for every caller.

:func:`walk` advances a state in place: chance outcomes drawn from an ``rng``,
decisions from the seats' bots, a ``choose`` function, or uniformly at random.
The arena's games (:func:`aiplay.arena.play_game`), the command line's ``aiplay
play`` and :mod:`aiplay.testing.simulate` (random walks and playouts) all run
on it.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator, Optional, Sequence

from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, TERMINAL, State, check_rng, sample_chance_outcome
from aiplay.limits import MAX_COUNT, check_int, shown

#: A decision rule for the seats: the state (a decision node) in, a legal action out.
Chooser = Callable[[State], int]
#: Told of each move just before it is applied: the player to move (CHANCE for chance) and the action.
MoveHook = Callable[[int, int], None]


def walk(state: State, rng: random.Random, *, bots: Optional[Sequence[Any]] = None,
         choose: Optional[Chooser] = None, max_steps: Optional[int] = None,
         on_move: Optional[MoveHook] = None) -> Iterator[State]:
    """Advance ``state`` in place and yield it before every move and once at the end.

    Chance outcomes are drawn from ``rng``; a decision comes from ``bots[player].choose(state)``,
    else from ``choose(state)``, else uniformly from ``rng``. ``on_move(player, action)`` is
    called before each move is applied. The walk ends at a terminal state or after
    ``max_steps`` moves (the last state yielded may then be mid-game). The same object is
    yielded each time: ``clone()`` it to keep a position.
    """
    if not isinstance(state, State):
        raise InvalidOptionError(f"a walk needs an aiplay State, got {shown(state)}")
    check_rng(rng)
    check_int("max_steps", max_steps, 0, MAX_COUNT, allow_none=True)
    steps = 0
    while True:
        yield state
        player = state.current_player()  # one call per move: this loop times benchmarks too
        if player == TERMINAL or (max_steps is not None and steps >= max_steps):
            return
        if player == CHANCE:
            action = sample_chance_outcome(state, rng)
        elif bots is not None:
            action = bots[player].choose(state)
        elif choose is not None:
            action = choose(state)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if on_move is not None:
            on_move(player, action)
        state.apply_action(action)
        steps += 1


def play(state: State, rng: random.Random, *, bots: Optional[Sequence[Any]] = None,
         choose: Optional[Chooser] = None, max_steps: Optional[int] = None,
         on_move: Optional[MoveHook] = None) -> int:
    """Play ``state`` on in place as :func:`walk` does, to the end or ``max_steps`` moves; returns the moves made."""
    moves = 0

    def count(player: int, action: int) -> None:
        nonlocal moves
        moves += 1
        if on_move is not None:
            on_move(player, action)

    for _ in walk(state, rng, bots=bots, choose=choose, max_steps=max_steps, on_move=count):
        pass
    return moves


__all__ = ["Chooser", "MoveHook", "play", "walk"]
