"""The exceptions aiplay raises.

Every error derives from :class:`AiplayError`, and each also derives from the
built-in exception a Python user would expect (``ValueError`` for bad values,
``KeyError`` never), so ``except ValueError`` keeps working in generic code.
"""

from __future__ import annotations

from typing import Iterable


class AiplayError(Exception):
    """Base class of every error raised by aiplay."""


class IllegalActionError(AiplayError, ValueError):
    """An action that is not legal in the state it was applied to.

    The state is left unchanged. ``action`` is the rejected action and
    ``legal_actions`` the legal ones at that point.
    """

    def __init__(self, action: object, legal_actions: Iterable[int], detail: str = "", *, hidden: bool = False):
        """``hidden``: the legal set is not the reader's to see (another seat's hidden options):
        the message and ``legal_actions`` leave it out, and ``detail`` says whose decision it was."""
        self.action = action
        self.legal_actions = [] if hidden else list(legal_actions)
        shown = self.legal_actions if len(self.legal_actions) <= 40 else (
            self.legal_actions[:40] + ["..."])
        message = f"illegal action {action!r}" if hidden else f"illegal action {action!r}; legal actions are {shown}"
        if detail:
            message = f"{message} ({detail})"
        super().__init__(message)


class InvalidStateError(AiplayError, ValueError):
    """A serialized position that is malformed or inconsistent.

    ``field`` names the offending field as a dotted path (``"state.scores[1]"``).
    """

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"invalid state: {field}: {problem}")


class InvalidOptionError(AiplayError, ValueError):
    """A game or bot option that is unknown or has a bad value."""


class UnknownGameError(AiplayError, ValueError):
    """A game name that is not registered; the message lists the known ones."""


class InvalidPlayerError(AiplayError, ValueError):
    """A seat that does not exist in this game (seats are ``0..num_players-1``)."""


class NotDecisionNodeError(AiplayError, ValueError):
    """A bot was asked for a move where no player is to move (a chance node or the end)."""


class BotBusyError(AiplayError, RuntimeError):
    """A bot was asked to search while it is already searching in another thread.

    A bot holds one search (its tree, its random stream) at a time: use one bot
    per thread. :meth:`aiplay.search.Bot.stop` may be called from any thread.
    """


class DeterminizationError(AiplayError, RuntimeError):
    """No world consistent with the observer's knowledge could be sampled.

    A sampler never falls back on the true position (it would show the hidden
    cards); it raises this instead. On a state reached by play it is a bug; on
    a hand-made position, a sign that the position contradicts itself.
    """


class SetupError(AiplayError, ImportError):
    """aiplay is not installed in a way that can run (its message says what to do)."""


class UnsupportedError(AiplayError, NotImplementedError):
    """A feature that this game does not provide (e.g. tensors of a game that declares no encoding)."""


class GameTooLongError(AiplayError, RuntimeError):
    """A game that did not end within the moves it was allowed (an arena's ``max_moves``).

    The engines end every game themselves: with the default limit this is a
    bug detector; with a small limit given on purpose, the limit was too small.
    """
