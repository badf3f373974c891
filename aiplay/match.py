"""A game in progress: :class:`Match` keeps the position, its history, undo/redo and turns.

A :class:`~aiplay.game.State` is one position; a frontend needs more: the
moves played so far (with their names), undo and redo, a move counter, which
seat's turn it is, and a game record it can save and load. ``Match`` adds
exactly that on top of any game of the registry::

    match = aiplay.Match("my_game", seed=7)
    match.advance_chance()              # draw chance outcomes until a seat is to move
    match.apply("some move")            # a name or an action id
    match.undo()
    text = match.to_json()              # the game record
    again = aiplay.Match.from_json(text)  # replays every move; same position

**Turns.** Games are played as atomic decisions (one action each), and a
player's turn is often several of them. ``Match`` groups them by one rule,
the same for every game: *a turn is a maximal run of decisions by one seat;
it ends when the seat to move changes to another seat.* Chance outcomes
never start or end a turn: they belong to the turn in progress (those before
the first decision belong to turn 0, the set-up). ``turn_number`` counts the
turns begun (0 before the first decision), ``turn_owner`` is the seat whose
turn is in progress, and :attr:`Match.turn_ended` tells a frontend that the
owner has finished (the next seat to move is another seat, or the game is
over; at a chance node it is not known yet and reads False). A seat that
moves twice in a row with no other seat in between (an extra turn in the
rules) is one turn under this rule.

**Records.** :meth:`Match.to_record` gives a JSON-ready game record: the
game, its options, the starting position, every move (action id, seat, name,
turn) and the final position. :meth:`Match.from_record` replays the moves one
by one from the start, checking each, and checks that the position reached is
the recorded one, so a record either loads exactly or raises
:class:`~aiplay.errors.InvalidStateError` naming what differs. The record also
keeps the match's chance seed, so chance drawn after loading is the chance the
original match would have drawn.

**Chance cannot be fished for.** The outcome :meth:`Match.play_chance` draws
follows from the match's chance seed and the moves played so far (their action
ids, hashed with a stable hash), never from how many draws were made before: a
move undone and played again draws the same cards and dice, so undo is no way to
redraw them. A different move before the draw gives another, independent draw.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from aiplay.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from aiplay.game import (
    CHANCE, TERMINAL, Game, State, as_action, check_player, sample_chance_outcome, string_to_action,
)
from aiplay.registry import load
from aiplay.limits import check_seed
from aiplay.rng import SeedLike

#: The ``format`` field of a game record.
RECORD_FORMAT = "aiplay-match"
#: The ``format`` field of a game record as one seat saw it (:meth:`Match.to_record` with a viewer).
SEAT_RECORD_FORMAT = "aiplay-match-seat"
#: The version of the game-record layout this module writes and reads.
RECORD_VERSION = 1

#: A move as a frontend gives it: an action id or its name (or its number as text).
MoveLike = Union[int, str]


@dataclass(frozen=True)
class Move:
    """One move of a match's history.

    ``action`` is the action id (a chance outcome when ``player`` is
    :data:`~aiplay.game.CHANCE`); ``name`` its name in the position where it
    was played; ``turn`` the turn it belongs to (see the module docstring);
    ``ply`` its index in the history (0 for the first move).

    The moves of :attr:`Match.history` are omniscient. :meth:`as_seen_by`
    gives the move as one seat saw it: where the game hides the move from
    that seat, ``action`` is None and ``name`` the redacted name ("deal a
    card to player 1"), see :meth:`~aiplay.game.State.redacted_action_name`.
    """

    ply: int
    player: int
    action: Optional[int]
    name: str
    turn: int
    #: Per seat: the name that seat saw when the game hid the move from it, else None.
    redacted: Tuple[Optional[str], ...] = field(default=(), compare=False, repr=False)

    def as_seen_by(self, viewer: Optional[int]) -> "Move":
        """This move as seat ``viewer`` saw it (``None``: as it is, everything shown).

        Moves of a perfect-information game carry no redactions and look the
        same to every seat; otherwise ``viewer`` must be one of the game's seats.
        """
        if self.redacted and viewer is not None:
            check_player(viewer, len(self.redacted))
        if viewer is None or not self.redacted or self.redacted[viewer] is None:
            return self if not self.redacted else replace(self, redacted=())
        return Move(self.ply, self.player, None, self.redacted[viewer] or "", self.turn)

    def to_dict(self) -> Dict[str, Any]:
        """The move as JSON-ready data (``ply``, ``player``, ``action``, ``name``, ``turn``)."""
        return {"ply": self.ply, "player": self.player, "action": self.action, "name": self.name,
                "turn": self.turn}


class Match:
    """A game in progress: a position plus its history, undo/redo, turns and records.

    Args:
        game: a :class:`~aiplay.game.Game` or a registry name (then ``options``
            and ``backend`` go to :func:`aiplay.load`).
        seed: the match's chance seed (an int; a generator gives one number for it;
            None a random one): the chance outcomes of :meth:`play_chance` and
            :meth:`advance_chance` follow from it and the moves played.
        state: the starting position (a state of ``game``); default its initial state.

    The live position is :attr:`state`; change it only through the match
    (``apply``, ``undo``...), or the history no longer describes it.
    """

    def __init__(self, game: Union[Game, str], *, seed: SeedLike = None, state: Optional[State] = None,
                 backend: str = "auto", **options: Any):
        if isinstance(game, str):
            game = load(game, backend=backend, **options)
        elif not isinstance(game, Game):
            raise InvalidOptionError(f"Match needs a Game or a game name, got {game!r}")
        elif options:
            raise InvalidOptionError("game options go with a game name, not with a Game already built")
        self.game: Game = game
        if state is None:
            state = game.new_initial_state()
        elif not isinstance(state, State) or state.game.name != game.name:
            raise InvalidOptionError(f"state must be a state of {game.name!r}, got {state!r}")
        #: A generator for the caller's own use (play_out...), seeded like the match; chance never reads it.
        self.rng: random.Random = check_seed(seed)
        #: The seed that, with the moves played, fixes every chance outcome the match draws.
        self.chance_seed: int = seed if isinstance(seed, int) else self.rng.getrandbits(64)
        # _prefix[i]: a digest of the first i moves' action ids (a running hash: one update per move).
        self._prefix: List[bytes] = [b""]
        self._start: State = state.clone()
        self.state: State = state.clone()
        self._history: List[Move] = []
        self._before: List[State] = []  # the position before each move of the history
        self._redo: List[Move] = []  # undone moves, the next one to redo last
        self._turn = 0
        self._owner: Optional[int] = None

    # -- reading -------------------------------------------------------------
    @property
    def history(self) -> List[Move]:
        """The moves played so far, oldest first (a copy); omniscient: see :meth:`history_seen_by`."""
        return list(self._history)

    def history_seen_by(self, viewer: Optional[int]) -> List[Move]:
        """The moves played so far as seat ``viewer`` saw them (``None``: every move as it is).

        A move hidden from the seat has ``action=None`` and its redacted name.
        Everything a person at that seat reads of the game's past should come
        from here, never from :attr:`history`.
        """
        seat = self._viewer(viewer)
        return [m.as_seen_by(seat) for m in self._history]

    def _viewer(self, viewer: Any) -> Optional[int]:
        """``viewer`` checked: None (everything) or a seat of this game."""
        return None if viewer is None else check_player(viewer, self.game.num_players)

    @property
    def ply(self) -> int:
        """The number of moves played (decisions and chance outcomes)."""
        return len(self._history)

    @property
    def move_number(self) -> int:
        """The number of decisions played (chance outcomes not counted)."""
        return sum(1 for m in self._history if m.player != CHANCE)

    @property
    def turn_number(self) -> int:
        """The number of turns begun: 0 before the first decision, then 1, 2, ..."""
        return self._turn

    @property
    def turn_owner(self) -> Optional[int]:
        """The seat whose turn is in progress (the seat of the latest decision); None before any."""
        return self._owner

    @property
    def turn_ended(self) -> bool:
        """True when the turn in progress is over: the next seat to move is another seat, or the game ended.

        False before the first decision and at a chance node (whose outcome may decide it).
        """
        if self._owner is None:
            return False
        player = self.state.current_player()
        return player == TERMINAL or (player != CHANCE and player != self._owner)

    def current_player(self) -> int:
        """The seat to move, :data:`~aiplay.game.CHANCE` or :data:`~aiplay.game.TERMINAL`."""
        return self.state.current_player()

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.state.is_terminal()

    def legal_moves(self) -> List[Tuple[int, str]]:
        """``(action id, name)`` for every legal action (chance outcomes at a chance node)."""
        state = self.state
        return [(a, state.action_to_string(a)) for a in state.legal_actions()]

    def parse(self, move: MoveLike) -> int:
        """The legal action that ``move`` designates: an id, a name (exact, then any case) or its number."""
        if isinstance(move, str):
            return string_to_action(self.state, move)
        action = as_action(move, self.state)
        legal = self.state.legal_actions()
        if action not in legal:
            detail = "the game is over" if self.state.is_terminal() else ""
            raise IllegalActionError(action, legal, detail)
        return action

    # -- playing -------------------------------------------------------------
    def apply(self, move: MoveLike) -> Move:
        """Play ``move`` (an id or a name; a chance outcome at a chance node) and return its record.

        The redo list is cleared (a new line of play). Raises
        :class:`~aiplay.errors.IllegalActionError` for a move that is not
        legal, leaving the match unchanged.
        """
        action = self.parse(move)
        record = self._play(action)
        self._redo.clear()
        return record

    def _play(self, action: int) -> Move:
        state = self.state
        player = state.current_player()
        name = state.action_to_string(action)
        # What each seat sees of the move is fixed now, from the position it is played in.
        redacted: Tuple[Optional[str], ...] = () if self.game.perfect_information else tuple(
            state.redacted_action_name(action, seat) for seat in range(self.game.num_players))
        before = state.clone()
        state.apply_action(action)
        if player != CHANCE and player != self._owner:
            # A decision by another seat than the turn's owner begins a new turn.
            self._turn += 1
            self._owner = player
        record = Move(ply=len(self._history), player=player, action=action, name=name, turn=self._turn,
                      redacted=redacted)
        self._before.append(before)
        self._history.append(record)
        self._prefix.append(hashlib.blake2b(self._prefix[-1] + action.to_bytes(4, "little", signed=True),
                                            digest_size=16).digest())
        return record

    def chance_rng(self) -> random.Random:
        """The generator for the chance outcome at this ply: from the chance seed and the moves played.

        The same seed and the same moves give the same generator, however often
        the position was reached (undo and replay draw the same outcome).
        """
        seed = hashlib.blake2b(str(self.chance_seed).encode() + b"|" + self._prefix[-1], digest_size=16).digest()
        return random.Random(int.from_bytes(seed, "little"))

    def line_key(self, ply: Optional[int] = None) -> bytes:
        """A digest of the first ``ply`` moves (default: all): equal keys mean the same line of play.

        A frontend that told a reader the moves up to a ply keeps this key to notice
        when those moves were taken back and others played since.
        """
        ply = len(self._history) if ply is None else ply
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self._history):
            raise InvalidOptionError(f"ply {ply!r} is not a position of this match: 0..{len(self._history)}")
        return self._prefix[ply]

    def position_before(self, ply: int) -> State:
        """A copy of the position before move ``ply`` of the history (``ply == self.ply``: the live one)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self._history):
            raise InvalidOptionError(f"ply {ply!r} is not a position of this match: 0..{len(self._history)}")
        return (self._before[ply] if ply < len(self._history) else self.state).clone()

    def play_chance(self) -> Move:
        """At a chance node, draw one outcome from the match's generator (exact probabilities) and play it."""
        if not self.state.is_chance_node():
            raise IllegalActionError("chance", self.state.legal_actions(), "no chance node to draw at")
        return self.apply(sample_chance_outcome(self.state, self.chance_rng()))

    def advance_chance(self) -> List[Move]:
        """Draw and play chance outcomes until a seat is to move or the game is over; returns them."""
        played = []
        while self.state.is_chance_node():
            played.append(self.play_chance())
        return played

    # -- undo and redo -------------------------------------------------------
    def can_undo(self) -> bool:
        """True when there is a move to take back."""
        return bool(self._history)

    def can_redo(self) -> bool:
        """True when an undone move can be played again."""
        return bool(self._redo)

    def undo(self, count: int = 1) -> List[Move]:
        """Take back the last ``count`` moves (chance outcomes count as moves); returns them, latest first.

        Raises :class:`~aiplay.errors.InvalidOptionError` (changing nothing)
        when fewer than ``count`` moves were played.
        """
        self._check_count(count, len(self._history), "undo")
        undone = []
        for _ in range(count):
            move = self._history.pop()
            self.state = self._before.pop()
            self._prefix.pop()
            self._redo.append(move)
            undone.append(move)
        self._recount_turns()
        return undone

    def undo_decision(self, seat: Optional[int] = None) -> List[Move]:
        """Take back moves up to and including the latest decision (of ``seat``, when given).

        What a person means by "undo" at a table with bots: the bots' replies
        and the chance outcomes after the person's last move go too. Raises
        :class:`~aiplay.errors.InvalidOptionError` when there is no such decision.
        """
        for i in range(len(self._history) - 1, -1, -1):
            player = self._history[i].player
            if player != CHANCE and (seat is None or player == seat):
                return self.undo(len(self._history) - i)
        who = "any seat" if seat is None else f"seat {seat}"
        raise InvalidOptionError(f"nothing to undo: no decision of {who} in the history")

    def redo(self, count: int = 1) -> List[Move]:
        """Play again the last ``count`` undone moves, in their order; returns them."""
        self._check_count(count, len(self._redo), "redo")
        redone = []
        for _ in range(count):
            move = self._redo.pop()
            assert move.action is not None  # the redo list holds the moves as played
            redone.append(self._play(move.action))
        return redone

    @staticmethod
    def _check_count(count: Any, available: int, what: str) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidOptionError(f"{what} count={count!r} is invalid; it accepts an integer >= 1")
        if count > available:
            raise InvalidOptionError(f"cannot {what} {count} move(s): only {available} available")

    def _recount_turns(self) -> None:
        """Turn number and owner after an undo: those of the latest remaining decision."""
        for move in reversed(self._history):
            if move.player != CHANCE:
                self._turn, self._owner = move.turn, move.player
                return
        self._turn, self._owner = 0, None

    # -- records -------------------------------------------------------------
    def to_record(self, viewer: Optional[int] = None) -> Dict[str, Any]:
        """The game record as JSON-ready data (see the module docstring).

        With a seat ``viewer``: the record as that seat may read it, format
        :data:`SEAT_RECORD_FORMAT`: the game, its options, the seat and the
        moves as it saw them; no positions and no generator state, since those
        show what the seat may not see. It cannot be replayed.
        """
        seat = self._viewer(viewer)
        if seat is not None:
            return {
                "format": SEAT_RECORD_FORMAT,
                "version": RECORD_VERSION,
                "game": self.game.name,
                "options": self.game.options,
                "viewer": seat,
                "moves": [m.as_seen_by(seat).to_dict() for m in self._history],
            }
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": self.game.options,
            "start": json.loads(self._start.to_json()),
            "moves": [m.to_dict() for m in self._history],
            "final": json.loads(self.state.to_json()),
            "rng": _rng_to_json(self.rng),
            "chance_seed": self.chance_seed,
        }

    def to_json(self) -> str:
        """The game record as JSON text."""
        return json.dumps(self.to_record(), sort_keys=True, separators=(",", ":"))

    def save(self, path: str) -> None:
        """Write the game record to the file ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())
            f.write("\n")

    @classmethod
    def load(cls, path: str, backend: str = "auto") -> "Match":
        """Read a game record from the file ``path`` (see :meth:`from_json`)."""
        with open(path, encoding="utf-8") as f:
            return cls.from_json(f.read(), backend=backend)

    @classmethod
    def from_json(cls, text: str, backend: str = "auto") -> "Match":
        """Replay a game record written by :meth:`to_json`; raises InvalidStateError naming a bad field."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise InvalidStateError("<record>", f"must be JSON text, got {type(text).__name__}")
        try:
            doc = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidStateError("<record>", f"not valid JSON: {exc}") from None
        return cls.from_record(doc, backend=backend)

    @classmethod
    def from_record(cls, doc: Mapping[str, Any], backend: str = "auto") -> "Match":
        """Replay a game record (:meth:`to_record`'s data) move by move, checking every move.

        Each move's seat and name must match the replayed position's, and the
        position reached must equal the recorded final one.
        """
        if not isinstance(doc, Mapping):
            raise InvalidStateError("<record>", "must be a JSON object")
        if doc.get("format") == SEAT_RECORD_FORMAT:
            raise InvalidStateError("format", "a record as one seat saw the game leaves out what the seat did "
                                              "not see, so it cannot be replayed; save the full record instead")
        for key in ("format", "version", "game", "options", "start", "moves"):
            if key not in doc:
                raise InvalidStateError(key, "missing")
        if doc["format"] != RECORD_FORMAT:
            raise InvalidStateError("format", f"expected {RECORD_FORMAT!r}, got {doc['format']!r}")
        if doc["version"] != RECORD_VERSION:
            raise InvalidStateError("version", f"unsupported version {doc['version']!r}; "
                                               f"this aiplay reads {RECORD_VERSION}")
        if not isinstance(doc["game"], str) or not isinstance(doc["options"], Mapping):
            raise InvalidStateError("game", "game must be a name and options an object")
        try:
            game = load(doc["game"], backend=backend, **doc["options"])
        except InvalidOptionError as exc:
            raise InvalidStateError("options", str(exc)) from None
        start = game.state_from_json(json.dumps(doc["start"]))
        match = cls(game, state=start)
        if "rng" in doc:
            match.rng = _rng_from_json(doc["rng"])
        if "chance_seed" in doc:
            seed = doc["chance_seed"]
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise InvalidStateError("chance_seed", f"must be an integer, got {type(seed).__name__}")
            match.chance_seed = seed
        elif "rng" in doc:  # a record written before chance seeds: one number of its generator
            match.chance_seed = random.Random(match.rng.getrandbits(64)).getrandbits(64)
        moves = doc["moves"]
        if not isinstance(moves, Sequence) or isinstance(moves, str):
            raise InvalidStateError("moves", "must be a list")
        for i, m in enumerate(moves):
            field = f"moves[{i}]"
            if not isinstance(m, Mapping) or "action" not in m:
                raise InvalidStateError(field, "must be an object with an action")
            player = match.state.current_player()
            if "player" in m and m["player"] != player:
                raise InvalidStateError(f"{field}.player", f"recorded {m['player']!r}, the position has {player}")
            try:
                action = match.parse(m["action"])
            except IllegalActionError as exc:
                raise InvalidStateError(f"{field}.action", str(exc)) from None
            name = match.state.action_to_string(action)
            if "name" in m and m["name"] != name:
                raise InvalidStateError(f"{field}.name", f"recorded {m['name']!r}, the action is {name!r}")
            match._play(action)
        if "final" in doc and doc["final"] is not None:
            final = game.state_from_json(json.dumps(doc["final"]))
            if final.to_json() != match.state.to_json():
                raise InvalidStateError("final", "the moves do not lead to the recorded final position")
        return match

    # -- the coach -----------------------------------------------------------
    def review(self, seat: int, **options: Any) -> Any:
        """A review of ``seat``'s decisions so far: :func:`aiplay.review.review` of this match.

        ``options`` are that function's (``budget``, ``exact``, ``seed``, ``viewer``, ``viewer_all``,
        ``repeats``, ``progress``, ``cancel``); returns an :class:`aiplay.review.Review`.
        """
        if _reviewer is None:  # aiplay/__init__ imports aiplay.review, which sets it
            raise InvalidOptionError("the coach is not loaded: import aiplay.review")
        return _reviewer(self, seat, **options)

    def __repr__(self) -> str:
        return (f"<Match {self.game.name}: {self.ply} moves, turn {self._turn}, "
                f"player {self.state.current_player()} to move>")


#: The coach's review function, set by :mod:`aiplay.review` when it is imported (it imports this
#: module, so this module cannot import it: the import graph has no cycles).
_reviewer: Optional[Callable[..., Any]] = None


def set_reviewer(function: Callable[..., Any]) -> None:
    """Install the function :meth:`Match.review` calls (:func:`aiplay.review.review`)."""
    global _reviewer
    _reviewer = function


def _rng_to_json(rng: random.Random) -> List[Any]:
    """A generator's state as JSON-ready data (``random.getstate`` with its tuples as lists)."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: Any) -> random.Random:
    """The generator whose state :func:`_rng_to_json` wrote; InvalidStateError when it is not one."""
    rng = random.Random()
    try:
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError) as exc:
        raise InvalidStateError("rng", f"not a generator state: {exc}") from None
    return rng


__all__ = ["Match", "Move", "MoveLike", "RECORD_FORMAT", "RECORD_VERSION", "SEAT_RECORD_FORMAT"]
