"""Helpers for the loaders' consistency tests (issue 27), shared by the games' own tests.

A consistency test reaches a position of a seeded random game, edits its document so that every range
check still passes but its records contradict each other, and checks that both engines refuse it,
naming the field (:func:`refused`), or that the unedited document loads (:func:`accepted`).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Mapping

import aiplay
from aiplay.errors import InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.registry import has_native

__all__ = ["accepted", "backends", "reached", "refused"]


def backends(name: str) -> List[str]:
    """The engines of ``name``: the reference one, and the native one where its kernel is built."""
    return ["reference"] + (["native"] if has_native(name) else [])


def reached(name: str, options: Mapping[str, Any], seed: int, until: Callable[[Dict[str, Any]], bool],
            limit: int = 3000) -> Dict[str, Any]:
    """The first state of a seeded random game (reference engine) for which ``until(dict)`` holds."""
    game = aiplay.load(name, backend="reference", **dict(options))
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        data = state.to_dict()
        if until(data):
            return data
        if state.is_terminal():
            break
        state.apply_action(sample_chance_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    raise AssertionError(f"no such state in {name} seed {seed}")


def refused(name: str, options: Mapping[str, Any], data: Dict[str, Any], field: str) -> None:
    """Both engines refuse ``data`` with an :class:`InvalidStateError` whose field starts with ``field``."""
    for backend in backends(name):
        game = aiplay.load(name, backend=backend, **dict(options))
        try:
            game.state_from_dict(data)
        except InvalidStateError as error:
            assert error.field.startswith(field), (backend, error)
        else:
            raise AssertionError(f"{backend}: the document loaded; expected a refusal naming {field}")


def accepted(name: str, options: Mapping[str, Any], data: Dict[str, Any]) -> None:
    """Both engines load ``data``."""
    for backend in backends(name):
        aiplay.load(name, backend=backend, **dict(options)).state_from_dict(data)
