"""The protocol's server: the open games of one client, and the answer to every request.

:class:`Server` is transport-free: it is given request lines and an ``emit``
function that sends one reply object (the transports, :mod:`aiplay.protocol.stdio`
and :mod:`aiplay.protocol.websocket`, feed it). Every line gets exactly one
final reply (``"type": "reply"``, or ``"bestmove"`` for ``go``); ``go`` also
streams ``"info"`` lines. A bad request gets ``"ok": false`` and an ``error``
text, and changes nothing. :class:`ServerLimits` are the caps shared by every
client of one server. docs/protocol.md is the specification.

Searches (``go``, ``analyse``, ``solve``) run in a worker thread per game, so
``stop`` and every other command are read while they run; ``stop`` ends a
search within about 50 ms and it replies with its best move so far.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import threading
import time
from dataclasses import asdict
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

import aiplay
from aiplay.errors import AiplayError, InvalidOptionError, NotDecisionNodeError
from aiplay.game import CHANCE, TERMINAL, Game, State, seen_action
from aiplay.limits import finite_number
from aiplay.match import Match, Move
from aiplay.protocol.wire import (
    DEFAULT_INFO_SECONDS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_GAMES, DEFAULT_MAX_SEARCHES, DEFAULT_SOLVE_SECONDS,
    ENGINE_NAME, MAX_CAP, MAX_SOLVE_SECONDS, OPENING, PROTOCOL_VERSION, RESERVED, SEARCHING, SLICED_BOTS,
    SOLVE_QUIT_WAIT, Emit, ProtocolError, _field, _option_field, _short, parse_request,
)
from aiplay.registry import BACKENDS, game_entries, game_entry, load
from aiplay.search import BOTS, make_bot
from aiplay.search.base import ActionStats, Analysis, Bot, Budget, most_visited, name_line
from aiplay.search.kinds import strongest_kind
from aiplay.search.level import levels_info
from aiplay.search.spec import parse_bot
from aiplay.views.docs import schema_of
from aiplay.views.svg import legal_moves_on_svg, svg_module
from aiplay.views.text import render_state

#: The ``viewer`` value that asks for everything (omniscient names, every hand).
ALL_SEATS = "all"


def _move(move: Move, viewer: Optional[int] = None) -> Dict[str, Any]:
    """A move object as ``viewer`` saw it (None: as played)."""
    return move.as_seen_by(viewer).to_dict()


def _parse_viewer(value: Any, game: Game) -> Optional[int]:
    """A request's ``viewer``: a seat, or None for ``"all"``; ProtocolError for anything else."""
    if value == ALL_SEATS:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < game.num_players:
        return value
    raise ProtocolError(f"field 'viewer' must be a seat 0..{game.num_players - 1} or \"all\", got {_short(value)}")


@functools.lru_cache(maxsize=None)
def _capabilities(name: str) -> Dict[str, Any]:
    """What ``hello`` announces of game ``name`` beside its options (docs/protocol.md, ``hello``).

    Read from the game itself: hidden information, simultaneous phases (its view schema),
    whether ``view`` can draw it as SVG, its utility range with the default options, the
    player counts the ``players`` option accepts (found by asking the game to accept each),
    and the strongest search kind (:func:`~aiplay.search.kinds.strongest_kind`: the bot a
    frontend's "search" choice means).
    """
    entry = game_entry(name)
    game = entry.reference()
    if "players" in entry.reference.option_spec:
        counts = []
        for k in range(1, 33):
            try:
                entry.reference(players=k)
            except AiplayError:
                continue
            counts.append(k)
        players = {"min": min(counts), "max": max(counts), "default": game.num_players}
    else:
        players = {"min": game.num_players, "max": game.num_players, "default": game.num_players}
    return {
        "hidden_information": not game.perfect_information,
        "simultaneous_phases": schema_of(name).simultaneous,
        "svg": svg_module(game.new_initial_state()) is not None,
        "utility": {"min": game.min_utility, "max": game.max_utility},
        "players": players,
        "strongest_kind": strongest_kind(game),
    }


class ServerLimits:
    """Server-wide caps shared by every client (connection) of one server.

    ``max_games`` open games, ``max_searches`` searches running at once
    (``go``, ``analyse``, ``solve``) and ``max_connections`` WebSocket clients,
    counted over all the clients together: one client, or many, cannot exhaust
    the machine. A request past a cap gets an error reply naming the cap.
    """

    def __init__(self, max_games: int = DEFAULT_MAX_GAMES, max_searches: int = DEFAULT_MAX_SEARCHES,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS):
        for name, value in (("max_games", max_games), ("max_searches", max_searches),
                            ("max_connections", max_connections)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CAP:
                raise InvalidOptionError(f"option {name}={value!r} is invalid; it accepts an integer from 1 to {MAX_CAP}")
        self.max_games = max_games
        self.max_searches = max_searches
        self.max_connections = max_connections
        self.lock = threading.Lock()  # held while a game is opened or a search started: the check and the act are one
        self._servers: List["Server"] = []
        self.connections = 0

    def attach(self, server: "Server") -> None:
        """Count ``server``'s games and searches from now on."""
        with self.lock:
            self._servers.append(server)

    def detach(self, server: "Server") -> None:
        """Stop counting ``server`` (its client is gone)."""
        with self.lock:
            if server in self._servers:
                self._servers.remove(server)

    def open_games(self) -> int:
        """Games open over every client."""
        return sum(len(server.sessions) for server in list(self._servers))

    def running_searches(self) -> int:
        """Searches running over every client."""
        return sum(1 for server in list(self._servers) for session in list(server.sessions.values())
                   if session.busy)

    def check(self, cmd: str) -> None:
        """Raise :class:`ProtocolError` when ``cmd`` would pass a cap (call with :attr:`lock` held)."""
        if cmd in OPENING and self.open_games() >= self.max_games:
            raise ProtocolError(f"too many open games: this server allows {self.max_games} at once "
                                "(aiplay serve --max-games); close one first")
        if cmd in SEARCHING and self.running_searches() >= self.max_searches:
            raise ProtocolError(f"too many searches: this server runs {self.max_searches} at once "
                                "(aiplay serve --max-searches); stop one or wait for its reply")

    def connect(self) -> bool:
        """Count a new connection; False (not counted) when the cap is reached."""
        with self.lock:
            if self.connections >= self.max_connections:
                return False
            self.connections += 1
            return True

    def disconnect(self) -> None:
        """A counted connection ended."""
        with self.lock:
            self.connections = max(0, self.connections - 1)


class Session:
    """One open game of a client: a :class:`~aiplay.match.Match` and its running search, if any."""

    def __init__(self, game_id: str, match: Match, auto_chance: bool, seed: int, viewer: Optional[int] = None):
        self.game_id = game_id
        self.match = match
        #: The seat whose eyes this client's replies are written for; None: everything ("all").
        self.viewer = viewer
        self.auto_chance = auto_chance
        self.seed = seed
        self.searches = 0  # searches started, for the default bot seeds
        self.bot: Optional[Bot] = None
        self.thread: Optional[threading.Thread] = None
        self.stop_event = threading.Event()
        self.active = False  # a search runs: set when it starts, cleared just before its reply
        self.solving = False  # the running job is a solve (stop cannot interrupt it)
        # The running search is for a seat whose thoughts the client may not read (progress only).
        self.search_private = False
        #: When the running solve's time budget ends (time.monotonic()), None without one.
        self.solve_deadline: Optional[float] = None
        #: The running solve's engine (its solver has the cancel flag that ``stop`` sets), if any.
        self.solve_engine: Any = None

    @property
    def busy(self) -> bool:
        """True while a search runs on this game (until its final reply is sent)."""
        return self.active

    def stop(self) -> None:
        """Ask the running search to end (it replies with its best move so far)."""
        self.stop_event.set()
        bot = self.bot
        if bot is not None:
            bot.stop()

    def status(self) -> Dict[str, Any]:
        """The game's summary, carried by most replies."""
        m = self.match
        state = m.state
        player = state.current_player()
        data: Dict[str, Any] = {
            "game_id": self.game_id, "game": m.game.name, "options": m.game.options,
            "to_move": player, "chance": player == CHANCE, "terminal": player == TERMINAL,
            "ply": m.ply, "move_number": m.move_number, "turn": m.turn_number, "turn_owner": m.turn_owner,
            "turn_ended": m.turn_ended, "can_undo": m.can_undo(), "can_redo": m.can_redo(),
            "searching": self.busy, "viewer": ALL_SEATS if self.viewer is None else self.viewer,
        }
        if player == TERMINAL:
            data["returns"] = state.returns()
            data["scores"] = state.scores()
        return data


class Server:
    """The protocol engine for one client (see the module docstring and docs/protocol.md).

    ``emit`` sends one reply object; it may be called from worker threads
    (the server serialises the calls).
    """

    def __init__(self, emit: Emit, limits: Optional[ServerLimits] = None):
        self.limits = limits if limits is not None else ServerLimits()
        self.limits.attach(self)
        self._emit = emit
        self._emit_lock = threading.Lock()
        self._lock = threading.RLock()  # guards the sessions against worker threads
        self.sessions: Dict[str, Session] = {}
        self._next_id = 1
        self.closed = False
        self._commands: Dict[str, Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]] = {
            "hello": self._hello, "new": self._new, "close": self._close, "games": self._games,
            "status": self._status, "position": self._position, "legal": self._legal, "apply": self._apply,
            "chance": self._chance, "undo": self._undo, "redo": self._redo, "view": self._view,
            "history": self._history, "record": self._record, "load": self._load, "go": self._go,
            "analyse": self._analyse, "stop": self._stop, "solve": self._solve, "quit": self._quit,
        }

    # -- framing -------------------------------------------------------------
    def send(self, obj: Dict[str, Any]) -> None:
        """Emit one reply object (thread-safe)."""
        with self._emit_lock:
            self._emit(obj)

    def reply(self, request_id: Any, cmd: Any, data: Optional[Dict[str, Any]] = None,
              kind: str = "reply") -> None:
        """Send a successful reply with ``data``."""
        out: Dict[str, Any] = {"id": request_id, "type": kind, "cmd": cmd, "ok": True}
        for key, value in (data or {}).items():
            if key not in RESERVED:
                out[key] = value
        self.send(out)

    def fail(self, request_id: Any, cmd: Any, error: BaseException, kind: str = "reply") -> None:
        """Send an error reply naming the problem."""
        self.send({"id": request_id, "type": kind, "cmd": cmd if isinstance(cmd, str) else None,
                   "ok": False, "error": str(error) or type(error).__name__,
                   "error_type": type(error).__name__})

    def handle_line(self, line: str) -> bool:
        """Answer one request line; returns False once the client asked to ``quit``.

        Never raises: every failure becomes an error reply.
        """
        request_id: Any = None
        cmd: Any = None
        try:
            request = parse_request(line)
            request_id = request.get("id")
            if isinstance(request_id, bool) or not isinstance(request_id, (str, int, float, type(None))):
                request_id = None  # not echoed: it is not an id
                raise ProtocolError("field 'id' must be a string or a number")
            cmd = request.get("cmd")
            if not isinstance(cmd, str):
                raise ProtocolError("missing field 'cmd' (a string): the command, e.g. {\"cmd\": \"hello\"}")
            handler = self._commands.get(cmd)
            if handler is None:
                raise ProtocolError(f"unknown command {_short(cmd)}; commands are: {', '.join(self._commands)}")
            with self._lock:  # one command at a time against the workers' final moves
                if cmd in OPENING or cmd in SEARCHING:
                    with self.limits.lock:  # a server-wide cap: checked and taken at once
                        self.limits.check(cmd)
                        data = handler(request)
                else:
                    data = handler(request)
            if data is not None:  # None: a worker thread replies later (go, analyse, solve)
                self.reply(request_id, cmd, data)
        except AiplayError as exc:
            self.fail(request_id, cmd, exc)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # Not an AiplayError: a check is missing somewhere (the protocol fuzzer looks for these).
            # The client still gets its reply, and the original type names the gap.
            self.fail(request_id, cmd, exc)
        except Exception as exc:  # the server never dies: an unexpected failure is reported, not raised
            self.fail(request_id, cmd, RuntimeError(f"internal error: {type(exc).__name__}: {exc}"))
        return not self.closed

    # -- helpers -------------------------------------------------------------
    def _session(self, request: Mapping[str, Any], idle: bool = False) -> Session:
        """The game a request names (``game_id``; optional when exactly one game is open)."""
        game_id = _field(request, "game_id", (str,))
        with self._lock:
            if game_id is None:
                if len(self.sessions) != 1:
                    raise ProtocolError(
                        "field 'game_id' is required: " + ("no game is open (use 'new')" if not self.sessions
                                                           else f"open games are {sorted(self.sessions)}"))
                session = next(iter(self.sessions.values()))
            else:
                found = self.sessions.get(game_id)
                if found is None:
                    raise ProtocolError(f"no open game {_short(game_id)}; open games are {sorted(self.sessions)}")
                session = found
        if idle and session.busy:
            raise ProtocolError(f"game {session.game_id!r} is searching; send 'stop' first or wait for its reply")
        return session

    def _after_move(self, session: Session, viewer: Optional[int]) -> List[Dict[str, Any]]:
        """Auto-chance: draw chance outcomes until a seat is to move, when the game asks for it."""
        if not session.auto_chance:
            return []
        return [_move(m, viewer) for m in session.match.advance_chance()]

    @staticmethod
    def _viewer(request: Mapping[str, Any], session: Session) -> Optional[int]:
        """The seat a reply speaks to: the request's ``viewer``, else the game's (None: everything)."""
        if request.get("viewer") is None:
            return session.viewer
        return _parse_viewer(request["viewer"], session.match.game)

    @staticmethod
    def _game_viewer(request: Mapping[str, Any], game: Game) -> Optional[int]:
        """``viewer`` of ``new``/``load``: required when the game hides anything, so that showing all is a choice."""
        if request.get("viewer") is None:
            if game.perfect_information:
                return None
            raise ProtocolError(
                f"field 'viewer' is required: {game.name!r} has hidden information. Give the seat whose "
                f"view this client shows (0..{game.num_players - 1}): move names, the history and searches "
                f"are then told as that seat sees them; or \"all\" to see everything, every hand and "
                f"every card drawn included")
        return _parse_viewer(request["viewer"], game)

    @staticmethod
    def _sees_everything(viewer: Optional[int], game: Game) -> bool:
        return viewer is None or game.perfect_information

    # -- commands ------------------------------------------------------------
    def _hello(self, request: Dict[str, Any]) -> Dict[str, Any]:
        games = []
        for entry in game_entries():
            spec = entry.reference.option_spec
            games.append({
                "name": entry.name, "title": entry.title,
                "options": {k: {"default": o.default, "accepts": o.accepts, "doc": o.doc} for k, o in spec.items()},
                **_capabilities(entry.name),
                "levels": levels_info(entry.reference),
            })
        return {"engine": ENGINE_NAME, "version": aiplay.__version__, "protocol": PROTOCOL_VERSION,
                "games": games, "bots": sorted(BOTS), "levels": levels_info(), "commands": list(self._commands)}

    def _new(self, request: Dict[str, Any]) -> Dict[str, Any]:
        name = _field(request, "game", (str,), required=True)
        options = dict(_field(request, "options", (dict,), {}))
        players = _field(request, "players", (int,))
        if players is not None:
            if "players" not in game_entry(name).reference.option_spec:
                raise InvalidOptionError(f"game {name!r} has a fixed number of players; drop 'players'")
            options["players"] = players
        seed = _field(request, "seed", (int,), 0)
        backend = _field(request, "backend", (str,), "auto")
        if backend not in BACKENDS:
            raise InvalidOptionError(f"field 'backend' accepts one of {list(BACKENDS)}, got {_short(backend)}")
        auto_chance = _field(request, "auto_chance", (bool,), False)
        game = load(name, backend=backend, **options)
        state = None
        if "state" in request and request["state"] is not None:
            state = self._parse_state(game, request["state"])
        viewer = self._game_viewer(request, game)
        match = Match(game, seed=seed, state=state)
        with self._lock:
            game_id = f"g{self._next_id}"
            self._next_id += 1
            session = self.sessions[game_id] = Session(game_id, match, auto_chance, seed, viewer)
        played = self._after_move(session, viewer)
        return {**session.status(), "chance_moves": played}

    @staticmethod
    def _parse_state(game: Game, doc: Any) -> State:
        if isinstance(doc, dict):
            doc = json.dumps(doc)
        if not isinstance(doc, str):
            raise ProtocolError("field 'state' must be a position: a JSON object (or its text) as 'position' gives")
        return game.state_from_json(doc)

    def _close(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        session.stop()
        with self._lock:
            self.sessions.pop(session.game_id, None)
        return {"game_id": session.game_id, "closed": True}

    def _games(self, request: Dict[str, Any]) -> Dict[str, Any]:
        with self._lock:
            sessions = list(self.sessions.values())
        return {"open": [s.status() for s in sessions]}

    def _status(self, request: Dict[str, Any]) -> Dict[str, Any]:
        return self._session(request).status()

    def _position(self, request: Dict[str, Any]) -> Dict[str, Any]:
        if "state" not in request or request["state"] is None:
            session = self._session(request)
            if not self._sees_everything(self._viewer(request, session), session.match.game):
                raise ProtocolError("'position' shows the whole position, hidden cards included; this game's "
                                    "client shows one seat: use 'view', or send \"viewer\": \"all\"")
            return {**session.status(), "state": json.loads(session.match.state.to_json())}
        session = self._session(request, idle=True)
        old = session.match
        state = self._parse_state(old.game, request["state"])
        session.match = Match(old.game, seed=old.rng, state=state)
        played = self._after_move(session, self._viewer(request, session))
        return {**session.status(), "chance_moves": played}

    def _legal(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        state = session.match.state
        data: Dict[str, Any] = {"game_id": session.game_id, "player": state.current_player()}
        viewer = self._viewer(request, session)
        if not self._sees_everything(viewer, session.match.game) and state.current_player() != viewer:
            # Another seat's options (or the odds of a draw) would tell what it holds.
            data["actions"] = []
            data["hidden"] = True
        elif state.is_chance_node():
            data["actions"] = [{"id": a, "name": state.action_to_string(a), "probability": p}
                               for a, p in state.chance_outcomes()]
        else:
            data["actions"] = [{"id": a, "name": n} for a, n in session.match.legal_moves()]
        return data

    def _apply(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        if "action" not in request:
            raise ProtocolError("missing field 'action' (an action id or its name)")
        action = request["action"]
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise ProtocolError(f"field 'action' must be an action id or a name, got {_short(action)}")
        viewer = self._viewer(request, session)
        move = session.match.apply(action)
        played = self._after_move(session, viewer)
        return {**session.status(), "move": _move(move, viewer), "chance_moves": played}

    def _chance(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        if not session.match.state.is_chance_node():
            raise ProtocolError("not a chance node: no chance outcome to draw")
        viewer = self._viewer(request, session)
        played = [_move(m, viewer) for m in session.match.advance_chance()]
        return {**session.status(), "chance_moves": played}

    def _undo(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        seat = _field(request, "seat", (int,))
        count = _field(request, "count", (int,))
        if seat is not None:
            if count is not None:
                raise ProtocolError("give 'count' or 'seat', not both")
            if not 0 <= seat < session.match.game.num_players:
                raise ProtocolError(f"seat {seat} does not exist; seats are 0..{session.match.game.num_players - 1}")
            undone = session.match.undo_decision(seat)
        else:
            undone = session.match.undo(1 if count is None else count)
        viewer = self._viewer(request, session)
        return {**session.status(), "undone": [_move(m, viewer) for m in undone]}

    def _redo(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        count = _field(request, "count", (int,), 1)
        viewer = self._viewer(request, session)
        redone = session.match.redo(count)
        return {**session.status(), "redone": [_move(m, viewer) for m in redone]}

    def _view(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        state = session.match.state
        game = session.match.game
        player = _field(request, "player", (int,))
        render = _field(request, "render", (str,))
        if render not in (None, "text", "svg"):
            raise ProtocolError(f"field 'render' accepts 'text' or 'svg', got {_short(render)}")
        viewer = self._viewer(request, session)
        if player is None:
            if viewer is None and not game.perfect_information:
                raise ProtocolError(f"field 'player' is required: {game.name!r} has hidden information")
            player = viewer
        if player is not None and viewer is not None and player != viewer and not game.perfect_information:
            raise ProtocolError(f"this client shows seat {viewer}; seat {player}'s view is not its to see "
                                f"(send \"viewer\": \"all\" to see every seat)")
        view = state.view(0 if player is None else player)
        data: Dict[str, Any] = {**session.status(), "player": player, "view": view}
        if render is not None:
            data[render] = self._render(state, player, render)
            if render == "svg" and data["svg"] is not None:
                # Which drawn elements each legal move touches, for a frontend played by clicks
                # (docs/svg.md); empty unless ``player`` is the seat to move.
                data["targets"] = {str(a): ids for a, ids in legal_moves_on_svg(state, player).items()}
        return data

    @staticmethod
    def _render(state: State, player: Optional[int], kind: str) -> Optional[str]:
        return render_state(state, player, kind)

    def _history(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        viewer = self._viewer(request, session)
        return {**session.status(), "moves": [_move(m, viewer) for m in session.match.history]}

    def _record(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        return {**session.status(), "record": session.match.to_record(self._viewer(request, session))}

    def _load(self, request: Dict[str, Any]) -> Dict[str, Any]:
        record = _field(request, "record", (dict, str), required=True)
        backend = _field(request, "backend", (str,), "auto")
        auto_chance = _field(request, "auto_chance", (bool,), False)
        match = Match.from_json(record if isinstance(record, str) else json.dumps(record), backend=backend)
        viewer = self._game_viewer(request, match.game)
        with self._lock:
            game_id = f"g{self._next_id}"
            self._next_id += 1
            session = self.sessions[game_id] = Session(game_id, match, auto_chance, 0, viewer)
        return session.status()

    # -- searches ------------------------------------------------------------
    def _build_bot(self, session: Session, request: Mapping[str, Any]) -> Tuple[Bot, Budget]:
        game = session.match.game
        state = session.match.state
        if state.is_terminal():
            raise NotDecisionNodeError("the game is over: there is no move to search")
        if state.is_chance_node():
            raise NotDecisionNodeError("a chance node: apply or draw a chance outcome first ('chance')")
        level = _field(request, "level", (int,))
        default = "level" if level is not None else "mcts" if game.perfect_information else "ismcts"
        # "mcts" or "mcts(iterations=100)": the bot syntax of the command line (aiplay.search.spec)
        spec = parse_bot(_field(request, "bot", (str,), default), files=False)
        kind = spec.kind
        options = {**spec.options, **dict(_field(request, "options", (dict,), {}))}
        if level is not None:
            if kind != "level":
                raise ProtocolError(f"field 'level' chooses a difficulty level: drop 'bot' or give "
                                    f"\"bot\": \"level\", not {kind!r}")
            options["level"] = level


        for key in ("game", "kind"):
            if key in options:  # make_bot's own parameters: they would collide with the session's
                raise InvalidOptionError(
                    f"options.{key} is not a bot option: the game is the open game's, the bot is field 'bot'")
        for key in ("iterations", "nodes", "depth"):
            value = _field(request, key, (int,))
            if value is not None:
                options[key] = value
        seconds = _field(request, "seconds", (int, float))
        if seconds is not None:
            options["seconds"] = seconds
        preset = _field(request, "preset", (bool,), True) and spec.presets
        seed = _field(request, "seed", (int,))
        if "seed" in options:  # the bot's seed option, the same as field 'seed'
            seed_option = _option_field(options, "seed", (int,))
            options.pop("seed")
            if seed is not None and seed_option is not None and seed != seed_option:
                raise InvalidOptionError(f"field 'seed' ({seed}) and options.seed ({seed_option}) differ; give one")
            seed = seed if seed is not None else seed_option
        if seed is None:
            seed = session.seed * 1000 + session.searches
        try:
            bot = make_bot(kind, game=game if preset else None, seed=seed, **options)
        except TypeError as exc:  # a value no check names (a bot's constructor took it for a keyword clash)
            raise InvalidOptionError(f"bot {kind!r}: invalid options: {exc}") from None
        budget = getattr(bot, "budget", None) or Budget(iterations=1)
        session.searches += 1
        return bot, budget

    def _start_search(self, request: Dict[str, Any], cmd: str, streamed: bool) -> None:
        session = self._session(request, idle=True)
        bot, budget = self._build_bot(session, request)
        play = _field(request, "play", (bool,), False)
        info_every = _field(request, "info_every", (int,))
        if info_every is not None and info_every < 1:
            raise ProtocolError("field 'info_every' must be >= 1")
        info_seconds = _field(request, "info_seconds", (int, float), DEFAULT_INFO_SECONDS)
        if info_seconds <= 0:
            raise ProtocolError("field 'info_seconds' must be > 0")
        state = session.match.state.clone()
        viewer = self._viewer(request, session)
        # A bot searching for another seat than the client's: its estimate, its line and the
        # moves it weighed would tell what that seat holds; the client gets the move as it sees it.
        private = not self._sees_everything(viewer, session.match.game) and state.current_player() != viewer
        request_id = request.get("id")
        session.bot = bot
        session.solving = False
        session.search_private = private
        session.stop_event.clear()

        def work() -> None:
            try:
                analysis, stopped = self._search(session, bot, state, budget, request_id, cmd, streamed,
                                                 info_every, info_seconds)
                if private:
                    action, name = seen_action(state, analysis.action, viewer)
                    data: Dict[str, Any] = {"action": action, "name": name, "player": analysis.player}
                else:
                    data = self._analysis_data(state, analysis)
                data["stopped"] = stopped
                if play:
                    with self._lock:
                        move = session.match.apply(analysis.action)
                        data["move"] = _move(move, viewer)
                        data["chance_moves"] = self._after_move(session, viewer)
                session.bot = None
                session.active = False
                data["status"] = session.status()
                self.reply(request_id, cmd, data, kind="bestmove" if cmd == "go" else "reply")
            except Exception as exc:
                session.bot = None
                session.active = False
                self.fail(request_id, cmd, exc, kind="bestmove" if cmd == "go" else "reply")

        thread = threading.Thread(target=work, name=f"aiplay-search-{session.game_id}", daemon=True)
        session.thread = thread
        session.active = True
        thread.start()

    def _search(self, session: Session, bot: Bot, state: State, budget: Budget, request_id: Any, cmd: str,
                streamed: bool, info_every: Optional[int], info_seconds: float) -> Tuple[Analysis, bool]:
        """Run the search; tree searches in slices with an ``info`` line after each.

        On the native engine a tree search keeps its tree between slices (the
        root is the same position), so the slices are one growing search. On
        the reference engine each slice is an independent search and their
        root statistics are added up (root parallelism over time).
        """
        started = time.perf_counter()
        done = threading.Event()

        def watch() -> None:
            # stop() may land between two slices, when the bot is idle and ignores it:
            # keep asking until the search is over.
            session.stop_event.wait()
            while not done.is_set():
                bot.stop()
                done.wait(0.01)

        threading.Thread(target=watch, daemon=True).start()
        try:
            return self._run_slices(session, bot, state, budget, request_id, cmd, streamed, info_every,
                                    info_seconds, started)
        finally:
            done.set()
            session.stop_event.set()  # ends the watcher

    def _run_slices(self, session: Session, bot: Bot, state: State, budget: Budget, request_id: Any,
                    cmd: str, streamed: bool, info_every: Optional[int], info_seconds: float,
                    started: float) -> Tuple[Analysis, bool]:
        if bot.kind not in SLICED_BOTS:
            analysis = bot.analyse(state)
            if streamed:
                self._info(request_id, cmd, session, state, analysis, analysis.counters.get("iterations"),
                           analysis.counters.get("nodes"), time.perf_counter() - started)
            return analysis, session.stop_event.is_set()
        total_iterations = total_nodes = 0
        visits: Dict[int, int] = {}
        sums: Dict[int, float] = {}
        last: Optional[Analysis] = None
        while True:
            slice_budget: Dict[str, Any] = {}
            if budget.iterations is not None:
                left = budget.iterations - total_iterations
                if left <= 0:
                    break
                step = info_every or max(1, budget.iterations // 10)
                slice_budget["iterations"] = min(step, left)
            if budget.nodes is not None:
                left = budget.nodes - total_nodes
                if left <= 0:
                    break
                slice_budget["nodes"] = left if budget.iterations is not None else min(
                    left, max(1, budget.nodes // 10))
            if budget.seconds is not None:
                time_left = budget.seconds - (time.perf_counter() - started)
                if time_left <= 0:
                    if last is not None:
                        break
                    # A budget spent before the first slice (a tiny one, a loaded machine) still
                    # owes the client a move: one iteration gives it.
                    slice_budget = {"iterations": 1}
                else:
                    slice_budget["seconds"] = min(time_left, info_seconds)
            if last is not None and session.stop_event.is_set():
                break
            analysis = bot.analyse(state, **slice_budget)
            total_iterations += analysis.counters.get("iterations") or 0
            total_nodes += analysis.counters.get("nodes") or 0
            if analysis.counters.get("reused_tree"):
                # The native tree grew on: its root statistics already hold every slice.
                visits = {s.action: s.visits or 0 for s in analysis.stats}
                sums = {s.action: (s.value or 0.0) * (s.visits or 0) for s in analysis.stats}
            else:
                for s in analysis.stats:
                    visits[s.action] = visits.get(s.action, 0) + (s.visits or 0)
                    sums[s.action] = sums.get(s.action, 0.0) + (s.value or 0.0) * (s.visits or 0)
            stats = [ActionStats(action=s.action, visits=visits[s.action],
                                 value=sums[s.action] / visits[s.action] if visits[s.action] else None,
                                 availability=s.availability) for s in analysis.stats]
            best = most_visited(stats)
            line = analysis.principal_variation if analysis.action == best.action else [best.action]
            counters = dict(analysis.counters, iterations=total_iterations, nodes=total_nodes,
                            seconds=time.perf_counter() - started)
            last = Analysis(bot=analysis.bot, player=analysis.player, action=best.action, value=best.value,
                            stats=stats, principal_variation=list(line), counters=counters)
            object.__setattr__(last, "_pv_names", name_line(state, last.principal_variation))
            if streamed:
                self._info(request_id, cmd, session, state, last, total_iterations, total_nodes,
                           counters["seconds"])
            if session.stop_event.is_set() or analysis.counters.get("forced"):
                break  # a forced move is answered without search: no slice would add anything
        assert last is not None
        return last, session.stop_event.is_set()

    def _info(self, request_id: Any, cmd: str, session: Session, state: State, analysis: Analysis,
              iterations: Optional[int], nodes: Optional[int], seconds: float) -> None:
        data: Dict[str, Any] = {"game_id": session.game_id, "iterations": iterations, "seconds": seconds}
        if not session.search_private:  # the tree's size, too, would tell of the other seat's options
            data.update({"nodes": nodes, "best": {"id": analysis.action, "name": state.action_to_string(analysis.action)},
                         "value": analysis.value, "pv": analysis.principal_variation_names})
        self.reply(request_id, cmd, data, kind="info")

    @staticmethod
    def _analysis_data(state: State, analysis: Analysis) -> Dict[str, Any]:
        data = analysis.to_dict()
        for s in data["stats"]:
            s["name"] = state.action_to_string(s["action"])
        data["principal_variation_names"] = analysis.principal_variation_names
        return {"action": analysis.action, "name": state.action_to_string(analysis.action),
                "value": analysis.value, "player": analysis.player,
                "pv": [{"id": a, "name": n} for a, n in zip(analysis.principal_variation,
                                                              analysis.principal_variation_names)],
                "analysis": data}

    def _go(self, request: Dict[str, Any]) -> None:
        self._start_search(request, "go", streamed=True)
        return None

    def _analyse(self, request: Dict[str, Any]) -> None:
        self._start_search(request, "analyse", streamed=False)
        return None

    def _stop(self, request: Dict[str, Any]) -> Dict[str, Any]:
        if request.get("game_id") is not None:
            sessions = [self._session(request)]
        else:
            with self._lock:
                sessions = list(self.sessions.values())
        stopped = []
        for session in sessions:
            if session.busy and not session.solving:
                session.stop()
                stopped.append(session.game_id)
            elif session.busy and session.solving:
                # The solver's cancel flag: the solve ends and replies with its best answer so far
                # (its result says "interrupted": true and "exact": false).
                cancel = getattr(getattr(getattr(session, "solve_engine", None), "solver", None), "cancel", None)
                if cancel is not None:
                    cancel.request_stop()
                    stopped.append(session.game_id)
        return {"stopped": stopped}

    def _solve(self, request: Dict[str, Any]) -> None:
        session = self._session(request, idle=True)
        try:
            # Late: the solver is optional (another module); the protocol works without it.
            solver = importlib.import_module("aiplay.solve")
        except ImportError:
            raise ProtocolError("solver not available: this aiplay has no aiplay.solve") from None
        solve = getattr(solver, "solve", None)
        if not callable(solve):
            raise ProtocolError("solver not available: aiplay.solve has no solve()")
        options = dict(_field(request, "options", (dict,), {}))
        accepted = _keyword_names(solve)
        for key in options:
            if key not in accepted:
                raise InvalidOptionError(f"unknown solve option {_short(key)}; its options are: {', '.join(accepted)}")
        for key, kinds in (("seconds", (int, float)), ("nodes", (int,)), ("observer", (int,)), ("seed", (int,)),
                           ("determinizations", (int,))):
            value = _field(request, key, kinds)
            if value is not None:
                if key in options and options[key] is not None and options[key] != value:
                    raise InvalidOptionError(f"field {key!r} and options.{key} differ; give one")
                options[key] = value
        # stop cannot interrupt a solve: its own time budget ends it, so it always has one, and a bounded one
        # (the protocol fuzzer found that "seconds": 2**63 held a search slot for good).
        seconds = options.get("seconds")
        if seconds is None:
            options["seconds"] = DEFAULT_SOLVE_SECONDS if options.get("nodes") is None else MAX_SOLVE_SECONDS
        elif finite_number(seconds) is None or not 0 < seconds <= MAX_SOLVE_SECONDS:  # 10**400: no OverflowError
            raise InvalidOptionError(f"option seconds={_short(seconds)} of solve is invalid; it accepts a number "
                                     f"above 0 and at most {MAX_SOLVE_SECONDS:g} (stop cannot end a solve)")
        viewer = self._viewer(request, session)
        if not self._sees_everything(viewer, session.match.game):
            # Solving the true position would read every hand: a seat's client solves over its worlds.
            observer = options.get("observer")
            if observer is not None and observer != viewer:
                raise ProtocolError(f"this client shows seat {viewer}; it may solve only as that seat "
                                    f"(observer {viewer}), or send \"viewer\": \"all\"")
            options["observer"] = viewer
        seconds = options.get("seconds")
        session.solve_deadline = (time.monotonic() + float(seconds) if isinstance(seconds, (int, float))
                                  and not isinstance(seconds, bool) and math.isfinite(seconds) else None)
        state = session.match.state.clone()
        request_id = request.get("id")
        session.solve_engine = None
        if options.get("observer") is None:
            # Deepening even without a budget, so that `stop` has a best answer so far to reply with.
            options.setdefault("stoppable", True)
            options["on_engine"] = lambda engine: setattr(session, "solve_engine", engine)

        def work() -> None:
            try:
                result = _jsonable(solve(state, **options))
                session.active = False
                self.reply(request_id, "solve", {"game_id": session.game_id, "result": result})
            except Exception as exc:
                session.active = False
                self.fail(request_id, "solve", exc)

        thread = threading.Thread(target=work, name=f"aiplay-solve-{session.game_id}", daemon=True)
        session.thread = thread
        session.active = True
        session.solving = True
        thread.start()
        return None

    def _quit(self, request: Dict[str, Any]) -> Dict[str, Any]:
        # Searches are stopped here and waited for by the transport (shutdown), outside the lock.
        self.closed = True
        with self._lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            session.stop()
        return {"bye": True}

    def shutdown(self, timeout: float = 2.0) -> None:
        """Stop every search and wait for its final reply.

        A search stops within milliseconds; ``timeout`` seconds each is plenty.
        A solve cannot be stopped, and its request is still owed its one final
        reply: it is waited for until its time budget ends (plus ``timeout``),
        or :data:`SOLVE_QUIT_WAIT` seconds when it has a node budget only.
        """
        self.closed = True
        with self._lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            session.stop()
        for session in sessions:
            thread = session.thread
            if thread is None:
                continue
            wait = timeout
            if session.solving and session.active:
                deadline = session.solve_deadline
                wait = timeout + (SOLVE_QUIT_WAIT if deadline is None else max(0.0, deadline - time.monotonic()))
            thread.join(wait)
        self.limits.detach(self)


def _keyword_names(fn: Callable[..., Any]) -> List[str]:
    """The keyword-only parameters of ``fn`` (a solver's options)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind is p.KEYWORD_ONLY]


def _jsonable(value: Any) -> Any:
    """A solver result as JSON-ready data: its ``to_dict()``, a dataclass's fields, or plain data."""
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)


__all__ = ["ALL_SEATS", "Server", "ServerLimits", "Session"]
