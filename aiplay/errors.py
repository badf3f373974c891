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

    def __init__(self, action: object, legal_actions: Iterable[int], detail: str = ""):
        self.action = action
        self.legal_actions = list(legal_actions)
        shown = self.legal_actions if len(self.legal_actions) <= 40 else (
            self.legal_actions[:40] + ["..."])
        message = f"illegal action {action!r}; legal actions are {shown}"
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
