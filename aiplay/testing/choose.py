"""Choose test games by what they are, not by name.

The generic tests (searchers, match, arena, CLI, protocol, solver, pickling,
fuzzing...) need *a* game with some property: a short game, a perfect-
information game with chance, an imperfect-information game with a native
kernel, a game for three players... They ask this module instead of writing a
game's name, so that nothing outside a game's folder names the game
(``tests/test_game_names.py`` checks it) and so that the tests keep working as
games come and go.

Every game is considered in each of its *variants*: the option sets of the
generic tests that its ``register(...)`` call declares (``contract_options``).
A variant's properties are read from the registry entry and from the game
built with those options:

==================== =========================================================
``perfect_information`` ``game.perfect_information``
``chance``           the game has chance outcomes (``game.max_chance_outcomes > 0``)
``native``           the game's kernel is built (:func:`aiplay.registry.has_native`)
``heuristic``        the game has a hand-written policy (``entry.no_heuristic is None``)
``kernel_policy``    its kernel plays that policy (``entry.no_kernel_policy is None``)
``tensors``          the game declares tensors (``entry.tensors is not None``)
``players``          ``game.num_players`` equals this count
``min_players``      ``game.num_players`` is at least this count
``short``            the variant's games are short: its declared length bound
                     (``entry.max_game_length``) is at most :data:`SHORT_MOVES`,
                     or each of :data:`SHORT_PLAYOUTS` seeded uniformly random
                     playouts ends within :data:`SHORT_MOVES` moves
``zero_sum``         ``game.zero_sum``
``svg``              the game draws its positions as pictures (its package has an ``svg``
                     module, :func:`aiplay.svg.svg_module`)
``board``            a board game: it draws pictures (``svg``) and a seat's board as text
                     (its package's ``render(state, viewer)``, or ``str(state)`` when
                     nothing is hidden: what ``aiplay play`` shows a person)
``listed``           the game is listed (not a hidden example game)
``accepts_players``  the game builds for this many players (its ``players`` option, the
                     other options at their defaults): a property of the game, not the variant
==================== =========================================================

A filter left at None does not filter. The candidates are taken in a fixed
order (game names sorted, then each game's ``contract_options`` in their
declared order), so every choice is deterministic: the same registry gives
the same game and options on every machine and every run. :func:`pick_variant`
and :func:`pick_game`, unless ``native`` is asked, take a game with a built
kernel before one without (a test that picks one game may run it on both engines).

Functions:

* :func:`pick_variant` -> ``(name, options)``: the first matching variant;
* :func:`pick_game` -> ``name``: its game;
* :func:`pick_options` -> ``options``: the first matching option set of a
  given game (e.g. after ``pick_game``, or for a game a test parametrizes over);
* :func:`variants_with` / :func:`games_with`: every match, to parametrize over;
* :func:`cli_options`: options as ``aiplay play``/``arena`` arguments (``--option name=value``).

Example::

    from aiplay.testing.choose import pick_variant
    NAME, OPTIONS = pick_variant(perfect_information=True, chance=True, short=True)
    game = aiplay.load(NAME, **OPTIONS)
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import random
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import aiplay
from aiplay.errors import AiplayError, UnknownGameError
from aiplay.registry import game_entries, game_entry, has_native

__all__ = ["SHORT_MOVES", "SHORT_PLAYOUTS", "NoGameError", "cli_options", "games_with", "pick_game", "pick_options",
           "pick_variant", "variant_properties", "variants_with"]

#: A "short" variant's games end within this many moves (decisions and chance outcomes).
SHORT_MOVES = 80
#: How many seeded random playouts decide whether a variant with no declared bound is short.
SHORT_PLAYOUTS = 4


class NoGameError(UnknownGameError):
    """No registered game has the properties a test asked for."""


def _entries(include_hidden: bool) -> List[Any]:
    return game_entries(include_hidden=include_hidden)


def _random_length_within(name: str, options: Mapping[str, Any], limit: int, seed: int) -> bool:
    """True when a uniformly random playout (seeded) of ``name`` ends within ``limit`` moves."""
    game = aiplay.load(name, backend="reference", **dict(options))
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return True
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    return state.is_terminal()


@functools.lru_cache(maxsize=None)
def _properties(name: str, options_key: Tuple[Tuple[str, Any], ...]) -> Dict[str, Any]:
    entry = game_entry(name)
    options = dict(options_key)
    game = aiplay.load(name, backend="reference", **options)
    bound = entry.max_game_length(game) if entry.max_game_length is not None else None
    if bound is not None and bound <= SHORT_MOVES:
        short = True
    else:
        short = all(_random_length_within(name, options, SHORT_MOVES, seed) for seed in range(SHORT_PLAYOUTS))
    # A game registered from a module outside any package (a test's copy) has no modules beside it.
    svg = bool(entry.package) and importlib.util.find_spec(entry.package + ".svg") is not None
    text = (bool(entry.package) and callable(getattr(importlib.import_module(entry.package), "render", None))
            or game.perfect_information)
    return {
        "perfect_information": bool(game.perfect_information),
        "chance": game.max_chance_outcomes > 0,
        "native": has_native(name),
        "heuristic": entry.no_heuristic is None,
        "kernel_policy": entry.no_heuristic is None and entry.no_kernel_policy is None,
        "tensors": entry.tensors is not None,
        "num_players": game.num_players,
        "num_distinct_actions": game.num_distinct_actions,
        "max_chance_outcomes": game.max_chance_outcomes,
        "short": short,
        "zero_sum": bool(game.zero_sum),
        "listed": entry.listed,
        "svg": svg,
        "board": svg and bool(text),
    }


def _key(options: Mapping[str, Any]) -> Tuple[Tuple[str, Any], ...]:
    return tuple(sorted(dict(options).items()))


def variant_properties(name: str, options: Mapping[str, Any]) -> Dict[str, Any]:
    """The properties (see the module's table) of ``name`` built with ``options``; cached."""
    return dict(_properties(name, _key(options)))


@functools.lru_cache(maxsize=None)
def _accepts_players(name: str, players: int) -> bool:
    if "players" not in game_entry(name).reference.option_spec:
        return False
    try:
        return aiplay.load(name, backend="reference", players=players).num_players == players
    except (AiplayError, ValueError, TypeError):
        return False


def _matches(props: Mapping[str, Any], filters: Mapping[str, Any], name: str = "") -> bool:
    for key, wanted in filters.items():
        if wanted is None:
            continue
        if key == "accepts_players":
            if not _accepts_players(name, wanted):
                return False
        elif key == "players":
            if props["num_players"] != wanted:
                return False
        elif key == "min_players":
            if props["num_players"] < wanted:
                return False
        elif props[key] != bool(wanted):
            return False
    return True


_FILTERS = ("perfect_information", "chance", "native", "heuristic", "kernel_policy", "tensors",
            "players", "min_players", "short", "zero_sum", "listed", "svg", "board", "accepts_players")


def _check_filters(filters: Mapping[str, Any]) -> None:
    unknown = sorted(set(filters) - set(_FILTERS))
    if unknown:
        raise TypeError(f"unknown game properties {unknown}; known: {list(_FILTERS)}")


def variants_with(*, include_hidden: bool = True, exclude: Sequence[str] = (), prefer: str = "first",
                  **filters: Any) -> List[Tuple[str, dict]]:
    """Every ``(name, options)`` variant with the properties asked, in the fixed order (names sorted).

    ``prefer="large"`` orders them by size instead, largest first: the most decision actions
    plus chance outcomes (``num_distinct_actions + max_chance_outcomes``), ties in the fixed
    order. A test that needs a search tree that is not complete within a few thousand nodes
    asks for the largest of the short games.
    """
    _check_filters(filters)
    if prefer not in ("first", "large"):
        raise ValueError(f"prefer must be 'first' or 'large', not {prefer!r}")
    found = []
    for entry in _entries(include_hidden):
        if entry.name in exclude:
            continue
        for options in entry.contract_options:
            if _matches(_properties(entry.name, _key(options)), filters, entry.name):
                found.append((entry.name, dict(options)))
    if prefer == "large":
        def size(variant: Tuple[str, dict]) -> int:
            props = _properties(variant[0], _key(variant[1]))
            return props["num_distinct_actions"] + props["max_chance_outcomes"]
        found.sort(key=size, reverse=True)  # stable: ties keep the fixed order
    return found


def games_with(*, include_hidden: bool = True, exclude: Sequence[str] = (), prefer: str = "first",
               **filters: Any) -> List[str]:
    """The names of the games with at least one variant with the properties asked (sorted, or as ``prefer``)."""
    names: List[str] = []
    for name, _ in variants_with(include_hidden=include_hidden, exclude=exclude, prefer=prefer, **filters):
        if name not in names:
            names.append(name)
    return names


def pick_variant(*, include_hidden: bool = True, exclude: Sequence[str] = (), prefer: str = "first",
                 **filters: Any) -> Tuple[str, dict]:
    """The first ``(name, options)`` variant with the properties asked (see ``prefer`` at
    :func:`variants_with`); :class:`NoGameError` if none."""
    found = variants_with(include_hidden=include_hidden, exclude=exclude, prefer=prefer, **filters)
    if not found:
        asked = {k: v for k, v in filters.items() if v is not None}
        raise NoGameError(f"no registered game has the properties {asked}")
    if filters.get("native") is None:
        # One game picked for a test runs on both engines where any match can: a game with a
        # built kernel first (stable), so that a reference-only game added beside the shipped
        # ones is picked only when nothing else has the properties.
        found.sort(key=lambda variant: not _properties(variant[0], _key(variant[1]))["native"])
    return found[0]


def pick_game(*, include_hidden: bool = True, exclude: Sequence[str] = (), prefer: str = "first",
              **filters: Any) -> str:
    """The name of the first game (names sorted, or as ``prefer``) with a variant with the properties asked."""
    return pick_variant(include_hidden=include_hidden, exclude=exclude, prefer=prefer, **filters)[0]


def pick_options(name: str, **filters: Any) -> dict:
    """The first of ``name``'s ``contract_options`` with the properties asked; :class:`NoGameError` if none."""
    _check_filters(filters)
    for options in game_entry(name).contract_options:
        if _matches(_properties(name, _key(options)), filters, name):
            return dict(options)
    asked = {k: v for k, v in filters.items() if v is not None}
    raise NoGameError(f"no option set of {name!r} has the properties {asked}")


def cli_options(options: Mapping[str, Any]) -> List[str]:
    """``options`` as command-line arguments: ``["--option", "name=value", ...]`` (booleans as true/false)."""
    args: List[str] = []
    for key, value in dict(options).items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        args += ["--option", f"{key}={text}"]
    return args
