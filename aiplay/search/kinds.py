"""Which search a game calls for, and how a bot kind is built with a game's presets.

:func:`strongest_kind` is the library's one statement of "MCTS with perfect
information, else ISMCTS": the levels' inner search (:mod:`aiplay.search.level`),
the command line's budgeted bot, and the protocol's ``hello`` (which tells
frontends, the browser demo among them) all ask it. :func:`build_bot` applies a
game's presets and checks the options of one bot factory; :func:`aiplay.search.make_bot`
looks the factory up by kind.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from aiplay.errors import InvalidOptionError
from aiplay.search.base import Bot


def strongest_kind(game: Any) -> str:
    """The strongest search the game recommends: ISMCTS where information is hidden, MCTS otherwise.

    The search of every difficulty level, and what a person at the table meets when they
    name a budget (``--iterations`` or ``--seconds``) but no bot; with no budget
    either, they meet the top level, the best bot.
    """
    return "mcts" if getattr(game, "perfect_information", True) else "ismcts"


#: Options whose ``None`` means something (not "not given"), so that it overrides a game's preset.
NONE_OVERRIDES = frozenset({"rollout_cutoff"})


def build_bot(kind: str, factory: Callable[..., Bot], *, game: Any = None, **kwargs: Any) -> Bot:
    """Build a bot of ``kind`` with ``factory``: the game's presets for ``kind`` first, then ``kwargs``.

    Options whose value is ``None`` are dropped ("not given": the preset or the
    factory's default holds), except those of :data:`NONE_OVERRIDES`, where
    ``None`` is a value that replaces the preset (``rollout_cutoff=None``: play
    to the end, also where the game's preset cuts playouts). An option the
    factory does not take raises :class:`~aiplay.errors.InvalidOptionError`
    listing what it accepts.
    """
    presets = dict(getattr(game, "bot_presets", {}).get(kind, {})) if game is not None else {}
    options = {**presets, **{k: v for k, v in kwargs.items() if v is not None or k in NONE_OVERRIDES}}
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # e.g. a builtin factory: let it check its own options
        params = None
    if params is not None and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        known = [name for name, p in params.items() if p.kind is p.KEYWORD_ONLY]
        for name in options:
            if name not in params:
                raise InvalidOptionError(
                    f"unknown option {name!r} for bot {kind!r}; its options are: {', '.join(known)}")
    return factory(**options)


__all__ = ["build_bot", "strongest_kind"]
