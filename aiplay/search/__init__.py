"""Reference searchers: pure-Python bots that work with any game of the API.

* :class:`RandomBot` -- uniform random legal moves (the baseline);
* :class:`MCTSBot` -- UCT with random (or policy, or cut-off) playouts, for
  perfect-information games;
* :class:`ISMCTSBot` -- single-observer information set MCTS, for hidden
  information;
* :class:`ExpectimaxBot` -- depth-limited max^n / paranoid expectimax with a
  transposition table and iterative deepening;
* :class:`HeuristicBot` -- the game's own hand-written policy (a baseline);
* :class:`LevelBot` -- difficulty levels 1 to :data:`NUM_LEVELS`: a real
  search that, below the top level, slips at a rate to another of its
  near-best moves (:mod:`aiplay.search.level`).

On a state of a native engine, MCTS, ISMCTS and expectimax run their loop in
C (:mod:`aiplay.search.native_path`); the analysis has the same structure.
How playouts end is a :class:`~aiplay.search.rollout.Rollout`
(:mod:`aiplay.search.rollout`); a game's recommended bot options are its
``bot_presets``, which :func:`make_bot` applies when given ``game=``.

Every bot has ``choose(state) -> action`` and ``analyse(state) ->``
:class:`Analysis`, takes a ``seed`` and its budget as keyword arguments, and
raises :class:`~aiplay.errors.InvalidOptionError` for a bad option. See
:mod:`aiplay.search.base` for the :class:`Analysis` contract, which the native
bots share.
"""

from __future__ import annotations

from typing import Any, Callable, Dict

from aiplay.errors import InvalidOptionError
from aiplay.search.base import ActionStats, Analysis, Bot, Budget
from aiplay.search.expectimax import ExpectimaxBot
from aiplay.search.heuristic import HeuristicBot
from aiplay.search.kinds import build_bot, strongest_kind
from aiplay.search.ismcts import ISMCTSBot
from aiplay.search.level import NUM_LEVELS, LevelBot
from aiplay.search.mcts import MCTSBot
from aiplay.search.random_bot import RandomBot
from aiplay.search.rollout import Rollout

#: Bot kinds by name, for :func:`make_bot` and the CLI. A plain dict so that
#: more kinds (e.g. heuristic bots) can be added with one entry.
BOTS: Dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "mcts": MCTSBot,
    "ismcts": ISMCTSBot,
    "expectimax": ExpectimaxBot,
    "heuristic": HeuristicBot,
    "level": LevelBot,
}


def make_bot(kind: str, *, game: Any = None, **kwargs: Any) -> Bot:
    """Build the bot called ``kind`` (a key of :data:`BOTS`) with ``kwargs`` as options.

    With ``game``, the game's recommended options for this kind
    (``game.bot_presets``) come first and ``kwargs`` override them.

    Options whose value is ``None`` are dropped, so a command line can pass
    every option it parsed and the bot's defaults apply to the missing ones.
    An unknown kind or an option the bot does not take raises
    :class:`~aiplay.errors.InvalidOptionError` listing what is accepted.
    """
    try:
        factory = BOTS[kind]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown bot {kind!r}; known bots are: {', '.join(sorted(BOTS))}") from None
    return build_bot(kind, factory, game=game, **kwargs)


__all__ = [
    "ActionStats", "Analysis", "BOTS", "Bot", "Budget", "ExpectimaxBot", "HeuristicBot", "ISMCTSBot",
    "LevelBot", "MCTSBot", "NUM_LEVELS", "RandomBot", "Rollout", "make_bot", "strongest_kind",
]
