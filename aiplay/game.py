"""The game API: one contract that every game, engine and searcher shares.

A :class:`Game` describes a game with fixed options (player count, variants).
A :class:`State` is one position of it. The contract follows OpenSpiel's, so
that values and speeds can be compared with it side by side:

* ``current_player()`` is a seat ``0..n-1``, :data:`CHANCE` or :data:`TERMINAL`;
* actions are integers from a fixed per-game action space
  ``range(game.num_distinct_actions)``; at a chance node the legal actions are
  the chance outcomes, whose exact probabilities ``chance_outcomes()`` gives;
* all chance is explicit (dice, deals, draws), so that expectimax can enumerate
  it and rollouts can sample it;
* hidden information is tracked per player: ``information_state_key(p)``
  identifies what ``p`` knows, ``view(p)`` is the redacted position for a
  frontend, and ``determinize(p, rng)`` samples a full state that never
  contradicts what ``p`` saw.

Reference engines subclass :class:`ReferenceState` and implement the
underscore hooks; the public methods here add validation and error messages,
so that every engine rejects bad input the same way.
"""

from __future__ import annotations

import abc
import functools
import hashlib
import json
import operator
import random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from aiplay.errors import IllegalActionError, InvalidOptionError, InvalidPlayerError, InvalidStateError, UnsupportedError

#: ``current_player()`` at a chance node (same value as OpenSpiel's).
CHANCE: int = -1
#: ``current_player()`` once the game is over (same value as OpenSpiel's).
TERMINAL: int = -4

#: Version of the JSON envelope written by :meth:`State.to_json`.
JSON_FORMAT_VERSION: int = 1


class HeuristicPolicy(Protocol):
    """A game's hand-written policy: the action it plays at a decision node of ``state``."""

    def __call__(self, state: "State", rng: random.Random) -> int: ...


class TensorEncodingLike(Protocol):
    """What a game's :attr:`Game.tensor_encoding` answers (:class:`aiplay.views.tensors.TensorEncoding` does)."""

    def shape(self, game: "Game", kind: str) -> Tuple[int]:
        """The shape of ``game``'s ``kind`` (``"information_state"`` or ``"observation"``) tensor."""

    def tensor(self, state: "State", player: int, kind: str) -> Any:
        """``player``'s ``kind`` tensor of ``state`` (a new ``float32`` array)."""


@dataclass(frozen=True)
class Option:
    """One game option: its default, its type and the values it accepts.

    ``check`` returns an error text for a bad value, or ``""`` when it is fine;
    ``accepts`` describes the valid values for error messages.
    """

    default: Any
    kind: type
    accepts: str
    check: Optional[Callable[[Any], bool]] = None
    doc: str = ""
    #: An integer option's bounds (``high`` None: unbounded), for :func:`aiplay.registry.option_grid`.
    low: Optional[int] = None
    high: Optional[int] = None
    #: A string option's accepted values, for :func:`aiplay.registry.option_grid` (None: not a choice).
    choices: Optional[Tuple[str, ...]] = None

    def validate(self, name: str, value: Any) -> Any:
        """Return ``value`` converted to the option's type, or raise."""
        if self.kind is bool:
            ok_type = isinstance(value, bool)
        elif self.kind is int:
            ok_type = isinstance(value, int) and not isinstance(value, bool)
        elif self.kind is float:
            ok_type = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok_type = isinstance(value, self.kind)
        if not ok_type or (self.check is not None and not self.check(value)):
            raise InvalidOptionError(
                f"option {name}={value!r} is invalid; it accepts {self.accepts}")
        return self.kind(value)


def int_option(default: int, low: int, high: Optional[int] = None, doc: str = "") -> Option:
    """An integer option in ``[low, high]`` (``high=None``: no upper bound)."""
    accepts = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
    return Option(default, int, accepts,
                  lambda v: v >= low and (high is None or v <= high), doc, low, high)


def choice_option(default: str, choices: Sequence[str], doc: str = "") -> Option:
    """A string option that accepts exactly one of ``choices`` (``default`` among them)."""
    allowed = tuple(choices)
    if default not in allowed:
        raise ValueError(f"default {default!r} is not one of {allowed!r}")
    return Option(default, str, "one of " + ", ".join(repr(c) for c in allowed),
                  lambda v: v in allowed, doc, choices=allowed)


def bool_option(default: bool, doc: str = "") -> Option:
    """A boolean option."""
    return Option(default, bool, "true or false", None, doc)


class Game(abc.ABC):
    """A game with its options fixed. Subclasses set the class attributes.

    Create games with :func:`aiplay.load` rather than directly: it picks the
    fast native engine when one exists.
    """

    #: Registry name, e.g. ``"my_game"``.
    name: ClassVar[str] = ""
    #: Human-readable title.
    title: ClassVar[str] = ""
    #: The options this game accepts, with defaults.
    option_spec: ClassVar[Mapping[str, Option]] = {}
    #: ``"reference"`` for the readable Python engine, ``"native"`` for a kernel.
    backend: ClassVar[str] = "reference"
    #: The game's hand-written policy ``policy(state, rng) -> action`` for the
    #: heuristic bot, or None; set it with ``staticmethod(policy)``. It must use
    #: only the public State API, so that it plays on both engines.
    heuristic_policy: ClassVar[Optional["HeuristicPolicy"]] = None
    #: Recommended options per bot kind for this game, e.g. ``{"mcts":
    #: {"rollout": "policy"}}``: what the command line and
    #: :func:`aiplay.search.make_bot` with ``game=`` start from (explicit
    #: options win). Empty: the bots' generic defaults.
    bot_presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: The difficulty levels' settings on this game, ``(iterations,
    #: mistake_rate, width)`` per level, weakest first, or None for the common
    #: table (:func:`aiplay.search.level.levels_for` says when a game needs its own).
    difficulty_levels: ClassVar[Optional[Sequence[Tuple[int, float, int]]]] = None
    #: How the difficulty levels break a tie among their search's best
    #: moves (same visits, same value): ``"order"`` (the first in legal order,
    #: as the searches do) or ``"heuristic"`` (the game's heuristic move when
    #: it is among them, else a seeded draw; perfect information only). See
    #: :func:`aiplay.search.level.order_ties`.
    level_ties: ClassVar[str] = "order"
    #: The game's tensor encoding (an :class:`aiplay.views.tensors.TensorEncoding`), or None: no
    #: tensors. :func:`aiplay.registry.register` sets it from its ``tensors=`` argument.
    tensor_encoding: ClassVar[Optional["TensorEncodingLike"]] = None

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.option_spec))
        if unknown:
            known = ", ".join(sorted(self.option_spec)) or "none"
            raise InvalidOptionError(
                f"unknown option {unknown[0]!r} for game {self.name!r}; its options are: {known}")
        values = {k: spec.default for k, spec in self.option_spec.items()}
        for key, value in options.items():
            values[key] = self.option_spec[key].validate(key, value)
        self._options: Dict[str, Any] = values
        self._check_options()

    def _check_options(self) -> None:
        """Hook for checks that involve several options together."""

    @property
    def options(self) -> Dict[str, Any]:
        """The options in force, defaults included (a copy)."""
        return dict(self._options)

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    @property
    @abc.abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the decision action space: actions are ``0..n-1``."""

    @property
    @abc.abstractmethod
    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome space: outcomes are ``0..n-1``."""

    @property
    @abc.abstractmethod
    def min_utility(self) -> float:
        """A lower bound on any player's return (used by Star pruning)."""

    @property
    @abc.abstractmethod
    def max_utility(self) -> float:
        """An upper bound on any player's return (used by Star pruning)."""

    @property
    def perfect_information(self) -> bool:
        """True when every player always knows the whole state."""
        return False

    @property
    def zero_sum(self) -> bool:
        """True when the returns always add up to zero (searchers may then prune)."""
        return False

    @property
    def constant_sum(self) -> bool:
        """True when the returns, and the static evaluation, always add up to one same constant.

        Zero-sum games are constant-sum. In a two-player constant-sum game
        one player's gain is the other's loss, so a paranoid (minimax) search
        gives the max^n values and may prune; expectimax uses that.
        """
        return self.zero_sum

    @abc.abstractmethod
    def new_initial_state(self) -> "State":
        """The state before the first move (often a chance node: the deal)."""

    def state_from_json(self, text: str) -> "State":
        """Load a state written by :meth:`State.to_json`, validating every field.

        Raises :class:`InvalidStateError` naming the offending field; nothing
        is half-loaded.
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise InvalidStateError("<document>", f"must be JSON text (a str), got {type(text).__name__}")
        try:
            doc = json.loads(text)
        except RecursionError:
            # No position nests deeper than a few levels; Python's parser gives up long before.
            raise InvalidStateError("<document>", "nested too deeply to be a position") from None
        except (TypeError, ValueError) as exc:
            raise InvalidStateError("<document>", f"not valid JSON: {exc}") from None
        try:
            return self._state_from_document(doc)
        except RecursionError:
            raise InvalidStateError("<document>", "nested too deeply to be a position") from None

    def _state_from_document(self, doc: Any) -> "State":
        if not isinstance(doc, dict):
            raise InvalidStateError("<document>", "must be a JSON object")
        for key in ("format", "version", "game", "options", "state"):
            if key not in doc:
                raise InvalidStateError(key, "missing")
        if doc["format"] != "aiplay-state":
            raise InvalidStateError("format", f"expected 'aiplay-state', got {doc['format']!r}")
        if doc["version"] != JSON_FORMAT_VERSION:
            raise InvalidStateError(
                "version", f"unsupported version {doc['version']!r}; this aiplay reads {JSON_FORMAT_VERSION}")
        if doc["game"] != self.name:
            raise InvalidStateError("game", f"this is a {self.name!r} game, the document is for {doc['game']!r}")
        if doc["options"] != self._options:
            raise InvalidStateError(
                "options", f"document options {doc['options']!r} differ from the game's {self._options!r}")
        if not isinstance(doc["state"], dict):
            raise InvalidStateError("state", "must be a JSON object")
        return self.state_from_dict(doc["state"])

    @abc.abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> "State":
        """Build a state from the ``"state"`` part of the JSON document.

        Must validate every field and raise :class:`InvalidStateError` with a
        field path of the form ``"state.<field>"``.
        """

    def information_state_tensor_shape(self) -> Tuple[int]:
        """The shape of :meth:`State.information_state_tensor` (see :mod:`aiplay.tensors`).

        Raises :class:`~aiplay.errors.UnsupportedError` when the game provides no tensors.
        """
        return encoding_of(self).shape(self, "information_state")

    def observation_tensor_shape(self) -> Tuple[int]:
        """The shape of :meth:`State.observation_tensor` (see :mod:`aiplay.tensors`)."""
        return encoding_of(self).shape(self, "observation")

    def __copy__(self) -> "Game":
        return self  # a game never changes once made: a copy may be the game itself

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self  # and a deep copy of a state shares its game, as a clone() does

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        return f"<{type(self).__name__} {self.name}({opts}) backend={self.backend}>"


class State(abc.ABC):
    """One position of a game. See the module docstring for the contract."""

    game: Game

    # -- the core contract -------------------------------------------------
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> List[int]:
        """Sorted legal actions of the player to act; chance outcomes at a chance node; ``[]`` at the end."""

    @abc.abstractmethod
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node (exact, summing to 1); ``[]`` elsewhere."""

    @abc.abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action`` (a decision or a chance outcome).

        Raises :class:`IllegalActionError` naming the action and the legal set,
        leaving the state unchanged.
        """

    @abc.abstractmethod
    def clone(self) -> "State":
        """An independent copy."""

    @abc.abstractmethod
    def returns(self) -> List[float]:
        """Each player's utility: final at a terminal state, 0 before (OpenSpiel's convention)."""

    def scores(self) -> List[float]:
        """Each player's in-game score (points, chips); the returns where the game has none."""
        return self.returns()

    def heuristic_values(self) -> List[float]:
        """A static estimate of each player's return, within the game's utility bounds.

        Expectimax uses it at its depth limit. The default knows nothing and
        returns zeros; games override it (and their kernels must agree).
        """
        return [0.0] * self.game.num_players

    def heuristic_values_for(self, searcher: int) -> List[float]:
        """The static estimate as the search of seat ``searcher`` scores its cut playouts.

        A game whose evaluation depends on who asks (Groom Lake weighs a position
        by the searching seat's role) overrides this; the default is
        :meth:`heuristic_values`, whoever asks. ``searcher`` is a seat number.
        """
        check_player(searcher, self.game.num_players)
        return self.heuristic_values()

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when the next action is a chance outcome."""
        return self.current_player() == CHANCE

    # -- text --------------------------------------------------------------
    @abc.abstractmethod
    def action_to_string(self, action: int, viewer: Optional[int] = None) -> str:
        """A readable name for ``action`` in this state; :meth:`string_to_action` parses it back.

        ``viewer=None`` gives the omniscient name (for logs meant to show
        everything: tests, arena records). ``viewer=p`` gives the move as seat
        ``p`` sees it being played: a hidden part is left out ("p1 draws a
        card", "player 1: face-down card to hangar 2"), see
        :meth:`redacted_action_name`.
        """

    def redacted_action_name(self, action: int, viewer: int) -> Optional[str]:
        """What seat ``viewer`` sees of ``action`` played here: None if it sees the move exactly.

        None means the viewer may know the action id and its full name. A
        string is the name the viewer sees instead, and the id stays hidden
        from it. The string depends only on what the viewer knows, so two
        positions that the viewer cannot tell apart give it the same text.
        Each game with hidden information defines this once, next to its
        ``view``; perfect-information games keep this default (always None).
        The default for a game with hidden information that defines nothing
        hides every chance outcome and every other seat's decision.
        """
        seat = check_player(viewer, self.game.num_players)
        check_action_id(action, self)
        if self.game.perfect_information:
            return None
        return conservative_redaction(self.current_player(), seat)

    def string_to_action(self, text: str) -> int:
        """The legal action whose :meth:`action_to_string` is ``text`` (or its number)."""
        return string_to_action(self, text)

    # -- hidden information ------------------------------------------------
    @abc.abstractmethod
    def information_state_string(self, player: int) -> str:
        """A canonical text of everything ``player`` knows (for people and tests)."""

    def information_state_key(self, player: int) -> int:
        """A 64-bit key of ``player``'s information set.

        Two states have the same key exactly when ``player`` cannot tell them
        apart (up to hash collisions). Keys are stable within one engine;
        the reference and native engines of a game may use different keys.
        """
        digest = hashlib.blake2b(self.information_state_string(player).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little")

    def state_key(self) -> int:
        """A 64-bit key of the full state, for transposition tables."""
        digest = hashlib.blake2b(self.to_json().encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little")

    @abc.abstractmethod
    def view(self, player: int) -> Dict[str, Any]:
        """The position as ``player`` sees it, as JSON-ready data (hidden parts redacted)."""

    def knowledge_violations(self, observer: int) -> List[str]:
        """The ways in which this state contradicts what ``observer`` has been told.

        Games with hidden information keep knowledge records in the state (cards
        a player saw entering a hand, the face-down cards a player played, the
        composition of a reshuffled deck...). This returns one readable line per
        record that the actual hidden contents contradict; ``[]`` means the state
        is one ``observer`` could be in. A state reached by play never has a
        violation; a world from :meth:`determinize` must not have one either (the
        generic determinization test checks both). Games whose views already
        state every fact the observer knows keep this default.
        """
        check_player(observer, self.game.num_players)
        return []

    @abc.abstractmethod
    def determinize(self, observer: int, rng: random.Random) -> "State":
        """A full state consistent with what ``observer`` knows, hidden parts sampled from ``rng``.

        The result has the same ``information_state_key(observer)`` as this
        state. Perfect-information games return a clone.
        """

    def information_state_tensor(self, player: int) -> Any:
        """Everything ``player`` knows as a ``float32`` NumPy array (see :mod:`aiplay.tensors`).

        Its shape is ``game.information_state_tensor_shape()``; states that
        ``player`` cannot tell apart give equal tensors. Raises
        :class:`~aiplay.errors.UnsupportedError` when the game provides none.
        """
        return state_tensor(self, player, "information_state")

    def observation_tensor(self, player: int) -> Any:
        """What ``player`` observes now as a ``float32`` NumPy array (see :mod:`aiplay.tensors`)."""
        return state_tensor(self, player, "observation")

    # -- serialization -----------------------------------------------------
    @abc.abstractmethod
    def to_dict(self) -> Dict[str, Any]:
        """The full state as JSON-ready data (the ``"state"`` part of :meth:`to_json`)."""

    def to_json(self) -> str:
        """The full state as a versioned JSON document; :meth:`Game.state_from_json` reads it."""
        return state_to_json(self)

    def __copy__(self) -> "State":
        # A shallow copy would share the position's lists with this state: copy.copy is a clone.
        return self.clone()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game.name}: player {self.current_player()}>"


def conservative_redaction(mover: int, viewer: int) -> Optional[str]:
    """The redaction that hides everything not the viewer's own: chance outcomes and others' decisions."""
    if mover == CHANCE:
        return "a chance outcome"
    if mover != viewer:
        return "a hidden move"
    return None


def seen_action(state: "State", action: int, viewer: Optional[int]) -> Tuple[Optional[int], str]:
    """``(action id or None, name)`` of ``action`` in ``state`` as ``viewer`` sees it.

    ``viewer=None`` sees everything. Otherwise the id is None exactly when the
    game hides this move from the viewer (:meth:`State.redacted_action_name`).
    """
    if viewer is None:
        return action, state.action_to_string(action)
    hidden = state.redacted_action_name(action, viewer)
    if hidden is None:
        return action, state.action_to_string(action)
    return None, hidden


#: The State methods whose first argument is a seat; every engine checks it
#: (see :func:`check_player`) before the game's own code runs.
SEAT_METHODS = ("view", "information_state_string", "information_state_key", "determinize",
                "knowledge_violations")


class ReferenceState(State):
    """Base of the readable Python engines: validation here, rules in the hooks.

    Subclasses implement ``_current_player``, ``_legal_actions`` (decision
    nodes only), ``chance_outcomes``, ``_apply`` (an unchecked move), and the
    rest of the abstract :class:`State` methods. The seat argument of the
    methods in :data:`SEAT_METHODS` (and ``determinize``'s generator) is
    checked here for every subclass, so a game's own code only ever sees a
    valid seat.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in SEAT_METHODS:
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_checks_seat", False):
                setattr(cls, name, _with_seat_check(method))
        naming = cls.__dict__.get("action_to_string")
        if naming is not None and not getattr(naming, "_checks_action", False):
            setattr(cls, "action_to_string", _with_action_check(naming))
        redaction = cls.__dict__.get("redacted_action_name")
        if redaction is not None and not getattr(redaction, "_checks_action", False):
            setattr(cls, "redacted_action_name", _with_redaction_check(redaction))

    @abc.abstractmethod
    def _current_player(self) -> int: ...

    @abc.abstractmethod
    def _legal_actions(self) -> List[int]: ...

    @abc.abstractmethod
    def _apply(self, action: int) -> None: ...

    def current_player(self) -> int:
        return self._current_player()

    def legal_actions(self) -> List[int]:
        player = self._current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return sorted(a for a, _ in self.chance_outcomes())
        return self._legal_actions()

    def apply_action(self, action: int) -> None:
        action = as_action(action, self)
        legal = self.legal_actions()
        if action not in legal:
            detail = "the game is over" if self._current_player() == TERMINAL else ""
            raise IllegalActionError(action, legal, detail)
        self._apply(action)


def encoding_of(game: Game) -> "TensorEncodingLike":
    """``game``'s tensor encoding; :class:`~aiplay.errors.UnsupportedError` when it has none."""
    encoding = game.tensor_encoding
    if encoding is None:
        raise UnsupportedError(f"game {game.name!r} provides no tensors (its registry entry declares no encoding)")
    return encoding


def state_tensor(state: State, player: Any, kind: str) -> Any:
    """``player``'s ``kind`` (``"information_state"`` or ``"observation"``) tensor of ``state``, by its game's encoding."""
    seat = check_player(player, state.game.num_players)
    return encoding_of(state.game).tensor(state, seat, kind)


def check_player(player: Any, num_players: int) -> int:
    """``player`` as a plain int if it is a seat ``0..num_players-1``; else :class:`InvalidPlayerError`."""
    if not isinstance(player, bool):
        try:
            seat = operator.index(player)
        except TypeError:
            pass
        else:
            if 0 <= seat < num_players:
                return seat
    raise InvalidPlayerError(f"player {player!r} does not exist; seats are 0..{num_players - 1}")


def check_rng(rng: Any) -> random.Random:
    """``rng`` if it is a :class:`random.Random`; else :class:`InvalidOptionError`."""
    if not isinstance(rng, random.Random):
        raise InvalidOptionError(
            f"rng={rng!r} is invalid; it accepts a random.Random (e.g. aiplay.make_rng(seed))")
    return rng


def _with_seat_check(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a seat method of a reference state: check the seat (and determinize's generator) first."""
    @functools.wraps(method)
    def checked(self: State, player: Any, *args: Any, **kwargs: Any) -> Any:
        seat = check_player(player, self.game.num_players)
        if method.__name__ == "determinize":
            check_rng(args[0] if args else kwargs.get("rng"))
        return method(self, seat, *args, **kwargs)

    checked._checks_seat = True  # type: ignore[attr-defined]
    return checked


def check_action_id(action: Any, state: "State") -> int:
    """``action`` as a plain int if it is in the game's action or chance-outcome space; else raise.

    Names exist for every id of those spaces (legal here or not), as in
    OpenSpiel; anything else is an :class:`IllegalActionError`.
    """
    value = as_action(action, state)
    game = state.game
    if not 0 <= value < max(game.num_distinct_actions, game.max_chance_outcomes):
        raise IllegalActionError(action, state.legal_actions(), "no action of this game has that id")
    return value


def _with_action_check(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a reference state's ``action_to_string``: the id must exist; ``viewer`` redacts.

    Games write ``action_to_string(self, action)`` (the omniscient name) and
    ``redacted_action_name``; the ``viewer`` argument is handled here once.
    """
    @functools.wraps(method)
    def checked(self: State, action: Any, viewer: Any = None) -> Any:
        value = check_action_id(action, self)
        if viewer is not None:
            hidden = self.redacted_action_name(value, viewer)
            if hidden is not None:
                return hidden
        return method(self, value)

    checked._checks_action = True  # type: ignore[attr-defined]
    return checked


def _with_redaction_check(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a reference state's ``redacted_action_name``: a real action id and a real seat first."""
    @functools.wraps(method)
    def checked(self: State, action: Any, viewer: Any) -> Any:
        value = check_action_id(action, self)
        return method(self, value, check_player(viewer, self.game.num_players))

    checked._checks_action = True  # type: ignore[attr-defined]
    return checked


def as_action(action: Any, state: "State") -> int:
    """``action`` as a plain int (NumPy integers welcome); IllegalActionError for anything else."""
    if not isinstance(action, bool):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise IllegalActionError(action, state.legal_actions(), "an action is an int")


def state_to_json(state: "State") -> str:
    """The versioned JSON document of ``state`` (shared by every engine, so their outputs compare)."""
    doc = {
        "format": "aiplay-state",
        "version": JSON_FORMAT_VERSION,
        "game": state.game.name,
        "options": state.game.options,
        "state": state.to_dict(),
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def string_to_action(state: "State", text: str) -> int:
    """The legal action of ``state`` whose name is ``text`` (exact, then case-insensitive, then its number)."""
    legal = state.legal_actions()
    if not isinstance(text, str):
        raise IllegalActionError(text, legal, "an action name is a str")
    wanted = text.strip()
    names = [state.action_to_string(a) for a in legal]
    for action, name in zip(legal, names):
        if name == wanted:
            return action
    for action, name in zip(legal, names):
        if name.lower() == wanted.lower():
            return action
    try:  # int() also reads other scripts' digits; isdigit() alone would pass "²" to it
        number = int(wanted)
    except ValueError:
        number = None
    if number is not None and number in legal:
        return number
    raise IllegalActionError(text, legal, f"no legal action is called {text!r}; legal names are {names}")


def sample_chance_outcome(state: State, rng: random.Random) -> int:
    """Draw one chance outcome of ``state`` with its exact probability."""
    if not isinstance(state, State):
        raise InvalidOptionError(f"sample_chance_outcome needs an aiplay State, got {type(state).__name__}")
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise InvalidOptionError(f"sample_chance_outcome needs a chance node; here player {state.current_player()} "
                                 f"is to move" if state.current_player() >= 0 else
                                 "sample_chance_outcome needs a chance node; the game is over")
    r = check_rng(rng).random()
    acc = 0.0
    for outcome, prob in outcomes:
        acc += prob
        if r < acc:
            return outcome
    return outcomes[-1][0]


def field_error(field: str, problem: str) -> InvalidStateError:
    """Shorthand for state validators: ``raise field_error("state.scores", "...")``."""
    return InvalidStateError(field, problem)


def require_int(data: Mapping[str, Any], key: str, low: int, high: int, prefix: str = "state") -> int:
    """Read ``data[key]`` as an int in ``[low, high]`` or raise naming the field."""
    field = f"{prefix}.{key}"
    if key not in data:
        raise InvalidStateError(field, "missing")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(field, f"must be an integer, got {value!r}")
    if not low <= value <= high:
        raise InvalidStateError(field, f"must be between {low} and {high}, got {value}")
    return value


def require_field(data: Mapping[str, Any], key: str, prefix: str = "state") -> Any:
    """``data[key]``, or :class:`InvalidStateError` ``"<prefix>.<key>: missing"``."""
    if key not in data:
        raise InvalidStateError(f"{prefix}.{key}", "missing")
    return data[key]


def check_int(value: Any, low: int, high: int, field: str) -> int:
    """``value`` if it is an int in ``[low, high]`` (``True`` is not), else InvalidStateError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidStateError(field, f"must be an integer from {low} to {high}, got {value!r}")
    return value


def require_bool(data: Mapping[str, Any], key: str, prefix: str = "state") -> bool:
    """``data[key]`` as a bool (only ``true``/``false``), else InvalidStateError naming the field."""
    value = require_field(data, key, prefix)
    if not isinstance(value, bool):
        raise InvalidStateError(f"{prefix}.{key}", f"must be true or false, got {value!r}")
    return value


def require_list(data: Mapping[str, Any], key: str, prefix: str = "state") -> List[Any]:
    """Read ``data[key]`` as a list (any items) or raise naming the field."""
    field = f"{prefix}.{key}"
    if key not in data:
        raise InvalidStateError(field, "missing")
    if not isinstance(data[key], list):
        raise InvalidStateError(field, "must be a list")
    return data[key]


def require_int_list(data: Mapping[str, Any], key: str, length: int, low: int, high: int,
                     prefix: str = "state") -> List[int]:
    """Read ``data[key]`` as a list of ``length`` ints in ``[low, high]`` or raise."""
    field = f"{prefix}.{key}"
    if key not in data:
        raise InvalidStateError(field, "missing")
    value = data[key]
    if not isinstance(value, list):
        raise InvalidStateError(field, f"must be a list, got {value!r}")
    if len(value) != length:
        raise InvalidStateError(field, f"must have {length} entries, got {len(value)}")
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int):
            raise InvalidStateError(f"{field}[{i}]", f"must be an integer, got {item!r}")
        if not low <= item <= high:
            raise InvalidStateError(f"{field}[{i}]", f"must be between {low} and {high}, got {item}")
    return list(value)


def reject_unknown_fields(data: Mapping[str, Any], known: Sequence[str], prefix: str = "state") -> None:
    """Raise for any field of ``data`` not in ``known`` (a typo must not be ignored), or for ``data`` not a mapping."""
    if not isinstance(data, Mapping):  # every loader starts here: a list or a number is not a position
        raise InvalidStateError(prefix, f"must be a JSON object, got {type(data).__name__}")
    for key in data:
        if key not in known:
            raise InvalidStateError(f"{prefix}.{key}", f"unknown field; expected {sorted(known)}")
