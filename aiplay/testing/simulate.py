"""Seeded simulation: random moves, random walks and play-outs over any game.

The loop "sample chance by its probabilities, otherwise pick a move" is the
basis of tests, fuzzers, benchmarks and tools. It lives here once::

    rng = random.Random(7)
    state = aiplay.load("my_game").new_initial_state()
    for position in aiplay.random_walk(state, rng):
        ...                           # every state of one random game, in order
    final = aiplay.play_out(game.new_initial_state(), rng, choose=lambda s: bots[s.current_player()].choose(s))

Every function takes the generator it draws from, so the same seed gives the
same game. A uniform choice is ``legal[rng.randrange(len(legal))]``, which
draws exactly like ``rng.choice(legal)``.
"""

from __future__ import annotations

import random
from typing import Iterator, Optional

from aiplay.errors import InvalidOptionError
from aiplay.game import State, sample_chance_outcome
from aiplay.play import Chooser, play, walk



def random_action(state: State, rng: random.Random) -> int:
    """The move a random player makes at ``state``: at a chance node an outcome drawn with its
    probability, at a decision a uniformly random legal action.

    Raises :class:`~aiplay.errors.InvalidOptionError` at a terminal state (there is no move).
    """
    if state.is_chance_node():
        return sample_chance_outcome(state, rng)
    legal = state.legal_actions()
    if not legal:
        raise InvalidOptionError("the game is over: a terminal state has no move")
    return legal[rng.randrange(len(legal))]


def random_walk(state: State, rng: random.Random, *, choose: Optional[Chooser] = None,
                max_steps: Optional[int] = None) -> Iterator[State]:
    """Advance ``state`` in place and yield it before every move and once at the end.

    Chance outcomes are drawn from ``rng``; decisions come from ``choose(state)``
    or, without it, uniformly from ``rng``. The walk ends at a terminal state or
    after ``max_steps`` moves (the last state yielded may then be mid-game). The
    same object is yielded each time: ``clone()`` it to keep a position.
    The loop is the library's one game loop, :func:`aiplay.play.walk`.
    """
    return walk(state, rng, choose=choose, max_steps=max_steps)


def play_out(state: State, rng: random.Random, *, choose: Optional[Chooser] = None,
             max_steps: Optional[int] = None) -> State:
    """Play ``state`` on in place to the end (or ``max_steps`` moves) as :func:`random_walk` does;
    returns it."""
    play(state, rng, choose=choose, max_steps=max_steps)
    return state


def skip_chance(state: State, rng: random.Random) -> State:
    """Apply chance outcomes drawn from ``rng`` until a seat is to move or the game is over;
    returns ``state`` (advanced in place)."""
    while state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, rng))
    return state
