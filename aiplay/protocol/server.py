"""The protocol's server: the open games of one client, and the answer to every request.

:class:`Server` is transport-free: it is given request lines and an ``emit``
function that sends one reply object (the transports, :mod:`aiplay.protocol.stdio`
and :mod:`aiplay.protocol.websocket`, feed it). Every line gets exactly one
final reply (``"type": "reply"``, or ``"bestmove"`` for ``go``); ``go`` also
streams ``"info"`` lines. A bad request gets ``"ok": false`` and an ``error``
text, and changes nothing. :class:`ServerLimits` are the caps shared by every
client of one server. docs/protocol.md is the specification.

Each open game (:class:`Session`) carries the client's rights: the seat it sees
as, the seats it may act for, whether it may take back others' moves; a
:class:`Server` is ``trusted`` (stdio) or not (WebSocket without
``--trust-clients``). A :class:`Table` is a game that several connections
share, each bound to its seat, with bots the server plays; :class:`Tables`
holds a server's tables (in :class:`ServerLimits`, shared by its connections).

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
import secrets
import threading
import time
from dataclasses import asdict
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Set, Tuple

import aiplay
from aiplay.errors import AiplayError, IllegalActionError, InvalidOptionError, NotDecisionNodeError
from aiplay.game import CHANCE, TERMINAL, Game, State, seen_action
from aiplay.limits import finite_number
from aiplay.match import Match, Move
from aiplay.protocol.review import start_review
from aiplay.protocol.wire import (
    DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_INFO_SECONDS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_GAMES,
    DEFAULT_MAX_HANDSHAKES, DEFAULT_MAX_SEARCHES, DEFAULT_SOLVE_SECONDS, ENGINE_NAME, MAX_CAP, MAX_SOLVE_SECONDS,
    MAX_TIMEOUT, OPENING, PROTOCOL_VERSION, RESERVED, SEARCHING, SLICED_BOTS, Emit, ProtocolError, _field,
    _option_field, _short, parse_request,
)
from aiplay.registry import BACKENDS, game_entries, game_entry, load
from aiplay.search import BOTS, make_bot
from aiplay.search.base import ActionStats, Analysis, Bot, Budget, most_visited, name_line
from aiplay.search.kinds import strongest_kind
from aiplay.search.level import NUM_LEVELS, levels_info
from aiplay.search.spec import parse_bot
from aiplay.views.docs import schema_of
from aiplay.views.narrate import final_scores
from aiplay.views.panel import view_panel
from aiplay.views.svg import last_decision_ply, legal_moves_on_svg, svg, svg_module
from aiplay.views.text import render_state
from aiplay.protocol.texts import LogCursor, rules_reply, value_in_words, with_meanings

#: The ``viewer`` value that asks for everything (omniscient names, every hand).
ALL_SEATS = "all"
#: Bot kinds that search the true position: in a hidden-information game they read every hand.
OMNISCIENT_BOTS = ("mcts", "expectimax")
#: Fields of ``go`` that set a search budget (a level is its own budget: it refuses them; the top level
#: takes seconds).
BUDGET_FIELDS = ("iterations", "seconds", "nodes", "depth")
#: How long a table with nobody connected is kept for its people to rejoin, in seconds.
TABLE_KEEP_SECONDS = 600.0
#: How often a table whose bot is to move looks for a free search slot (``max_searches``), in seconds.
SLOT_POLL_SECONDS = 0.02


def _move(move: Move, viewer: Optional[int] = None) -> Dict[str, Any]:
    """A move object as ``viewer`` saw it (None: as played)."""
    return move.as_seen_by(viewer).to_dict()


def _apply_as_seen_by(match: Match, action: Any, viewer: Optional[int]) -> Move:
    """``match.apply(action)``, with its error told as ``viewer`` may read it.

    A trusted client may act for seats it does not see as (a referee feeding every seat's
    moves to a client that shows one seat). An illegal move at such a decision (another
    seat's, or chance) is refused without the engine's list of legal moves or names: that
    list is the other seat's hidden hand, or the cards left in the deck.
    """
    mover = match.state.current_player()
    try:
        return match.apply(action)
    except AiplayError as error:
        if viewer is None or mover == viewer:
            raise
        whose = "a chance node" if mover == CHANCE else f"player {mover}'s decision"
        raise IllegalActionError(action, [], f"at {whose}, whose moves are hidden from player {viewer}",
                                 hidden=True) from None


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

    The WebSocket transport also counts the TCP connections that have not
    finished their handshake (``max_handshakes``; one past it is closed at
    once), closes one whose handshake takes over ``handshake_timeout`` seconds,
    and a client idle for ``idle_timeout`` seconds (no request, no reply, no
    search running). docs/protocol.md sums up the memory these caps bound.
    """

    def __init__(self, max_games: int = DEFAULT_MAX_GAMES, max_searches: int = DEFAULT_MAX_SEARCHES,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS, max_handshakes: int = DEFAULT_MAX_HANDSHAKES,
                 idle_timeout: float = DEFAULT_IDLE_TIMEOUT, handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT):
        for name, value in (("max_games", max_games), ("max_searches", max_searches),
                            ("max_connections", max_connections), ("max_handshakes", max_handshakes)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CAP:
                raise InvalidOptionError(f"option {name}={value!r} is invalid; it accepts an integer from 1 to {MAX_CAP}")
        for name, seconds in (("idle_timeout", idle_timeout), ("handshake_timeout", handshake_timeout)):
            if (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds)
                    or not 0 < seconds <= MAX_TIMEOUT):
                raise InvalidOptionError(f"option {name}={seconds!r} is invalid; it accepts a number of seconds "
                                         f"above 0 and at most {MAX_TIMEOUT:g}")
        self.max_games = max_games
        self.max_searches = max_searches
        self.max_connections = max_connections
        self.max_handshakes = max_handshakes
        self.idle_timeout = float(idle_timeout)
        self.handshake_timeout = float(handshake_timeout)
        self.lock = threading.Lock()  # held while a game is opened or a search started: the check and the act are one
        self._servers: List["Server"] = []
        self.connections = 0
        #: The tables (games several connections share) of this server.
        self.tables = Tables(self)
        #: Tables whose bot seat is searching now: each counts against ``max_searches`` like a client's search.
        self._table_searches: Set["Table"] = set()
        #: Searches still running on games that are gone (closed, or their client disconnected):
        #: cancelled, and counted against ``max_searches`` until their thread has ended.
        self._orphans: List["Session"] = []

    def attach(self, server: "Server") -> None:
        """Count ``server``'s games and searches from now on."""
        with self.lock:
            self._servers.append(server)

    def detach(self, server: "Server") -> None:
        """Stop counting ``server`` (its client is gone); searches of its still running stay counted."""
        with self.lock:
            if server in self._servers:
                self._servers.remove(server)
            for session in list(server.sessions.values()):
                if session.busy:
                    self._orphans.append(session)

    def orphan(self, session: "Session") -> None:
        """Keep counting ``session``'s search after its game was closed, until it has ended."""
        with self.lock:
            if session.busy:
                self._orphans.append(session)

    def open_games(self) -> int:
        """Games open over every client."""
        return sum(len(server.sessions) for server in list(self._servers))

    def running_searches(self) -> int:
        """Searches running over every client."""
        self._orphans = [session for session in self._orphans if session.busy]
        return (sum(1 for server in list(self._servers) for session in list(server.sessions.values())
                    if session.busy) + len(self._orphans) + len(self._table_searches))

    def start_table_search(self, table: "Table") -> bool:
        """Take a search slot for ``table``'s bot seat; False (nothing taken) while every slot is in use.

        A bot at a table is never refused, unlike a client's ``go``: its table waits for a slot
        (:meth:`Table._play_bots` polls), so that the tables' bots, too, keep within ``max_searches``.
        """
        with self.lock:
            if self.running_searches() >= self.max_searches:
                return False
            self._table_searches.add(table)
            return True

    def end_table_search(self, table: "Table") -> None:
        """Give back the slot :meth:`start_table_search` took for ``table``."""
        with self.lock:
            self._table_searches.discard(table)

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
    """One open game of a client: a :class:`~aiplay.match.Match`, its running search, and the client's rights.

    The rights (docs/protocol.md, "Rights"): ``viewer``, the seat whose eyes the
    replies are written for (None: everything); ``act_for``, the seats whose
    decisions this client may ``apply`` (None: every seat and chance, a trusted
    referee); ``allow_undo``, whether it may take back another seat's move. A
    session at a :class:`Table` shares the table's match with the other people's
    connections.
    """

    def __init__(self, game_id: str, match: Optional[Match], auto_chance: bool, seed: int,
                 viewer: Optional[int] = None, act_for: Optional[FrozenSet[int]] = None,
                 allow_undo: bool = True, table: Optional["Table"] = None):
        self.game_id = game_id
        self._match = match
        #: The seat whose eyes this client's replies are written for; None: everything ("all").
        self.viewer = viewer
        #: The seats this client may apply moves for; None: every seat and chance outcomes.
        self.act_for = act_for
        self.allow_undo = allow_undo
        self.table = table
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
        #: Set for good once the game is closed or its client gone: its search or solve is cancelled.
        self.cancelled = False
        #: The moves this client was told of (the status's ``log``, docs/protocol.md).
        self.told = LogCursor()

    @property
    def match(self) -> Match:
        """The game: the table's when the session sits at one."""
        if self.table is not None:
            return self.table.match
        assert self._match is not None
        return self._match

    @match.setter
    def match(self, value: Match) -> None:
        self._match = value

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

    def stop_solve(self) -> bool:
        """Ask the running solve to end (its solver's cancel flag); False when it has no engine yet."""
        cancel = getattr(getattr(self.solve_engine, "solver", None), "cancel", None)
        if cancel is None:
            return False
        cancel.request_stop()
        return True

    def cancel(self) -> None:
        """End the running search or solve for good (the game is closed, or its client gone).

        A solve whose engine is not built yet is stopped as soon as it is (see ``Server._solve``),
        so its table is freed within milliseconds either way.
        """
        self.cancelled = True
        self.stop()
        self.stop_solve()

    def status(self) -> Dict[str, Any]:
        """The game's summary, carried by every reply about it (as ``status``)."""
        m = self.match
        state = m.state
        player = state.current_player()
        data: Dict[str, Any] = {
            "game_id": self.game_id, "game": m.game.name, "options": m.game.options,
            "to_move": player, "chance": player == CHANCE, "terminal": player == TERMINAL,
            "ply": m.ply, "move_number": m.move_number, "turn": m.turn_number, "turn_owner": m.turn_owner,
            "turn_ended": m.turn_ended, "can_undo": m.can_undo(), "can_redo": m.can_redo(),
            "searching": self.busy or (self.table is not None and self.table.thinking),
            "viewer": ALL_SEATS if self.viewer is None else self.viewer,
            "act_for": ALL_SEATS if self.act_for is None else sorted(self.act_for),
            "allow_undo": self.table.allow_undo if self.table is not None else self.allow_undo,
        }
        if self.table is not None:
            data["table_id"] = self.table.table_id
            data["seats"] = self.table.seating_json()
        if player == TERMINAL:
            data["returns"] = state.returns()
            data["scores"] = final_scores(state, self.viewer)  # as the seat may know them (None: not shown)
        data.update(self.told.fields(m, self.viewer))  # log, summary and, at the end, outcome
        return data


class Table:
    """A game that several connections share, each bound to its seat; the server plays the bot seats.

    ``seating`` maps every seat to None (a person, who joins with the seat's
    token) or a difficulty level (a bot the server plays). Every move is pushed
    to each connected person as an ``event`` told as their seat sees it.
    """

    def __init__(self, table_id: str, match: Match, seating: Dict[int, Optional[int]], allow_undo: bool,
                 seed: int, limits: Optional[ServerLimits] = None):
        self.table_id = table_id
        self.limits = limits
        self.match = match
        self.seating = seating
        self.allow_undo = allow_undo
        self.seed = seed
        self.tokens: Dict[int, str] = {seat: secrets.token_urlsafe(18) for seat, lv in seating.items() if lv is None}
        self.lock = threading.RLock()
        self.members: Dict[int, Tuple["Server", Session]] = {}
        self.thinking = False  # a bot seat's search runs
        self.closed = False
        self.idle_since = time.monotonic()
        self.bot: Optional[Bot] = None
        self.error: Optional[str] = None

    def seating_json(self) -> Dict[str, Any]:
        return {str(seat): "human" if lv is None else {"level": lv} for seat, lv in sorted(self.seating.items())}

    def seat_of(self, token: str) -> Optional[int]:
        for seat, known in self.tokens.items():
            if secrets.compare_digest(known, token):
                return seat
        return None

    def leave(self, session: Session) -> None:
        """``session``'s connection left the table (closed the game or dropped): its seat waits for a rejoin."""
        with self.lock:
            seat = session.viewer
            if seat is not None and self.members.get(seat, (None, None))[1] is session:
                del self.members[seat]
            if not self.members:
                self.idle_since = time.monotonic()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            bot = self.bot
        if bot is not None:
            bot.stop()

    def broadcast(self, moves: List[Move], skip: Optional[Session] = None, event: str = "moves") -> None:
        """Push ``moves`` (played, or ``undone`` for ``event="undo"``) to every member but ``skip``."""
        key = "undone" if event == "undo" else "moves"
        for seat, (server, session) in list(self.members.items()):
            if session is skip:
                continue
            server.send({"type": "event", "event": event, "game_id": session.game_id, "table_id": self.table_id,
                         key: [_move(m, seat) for m in moves], "status": session.status()})

    def kick(self) -> None:
        """Start the bots when a bot seat is to move (in a worker thread; one at a time)."""
        with self.lock:
            if self.thinking or self.closed or not self._bot_to_move():
                return
            self.thinking = True
        threading.Thread(target=self._play_bots, name=f"aiplay-table-{self.table_id}", daemon=True).start()

    def _wait_for_slot(self) -> bool:
        """Wait for a search slot of the server's ``max_searches``; False when the table closed meanwhile."""
        if self.limits is None:
            return True
        while not self.limits.start_table_search(self):
            if self.closed:
                return False
            time.sleep(SLOT_POLL_SECONDS)
        return True

    def _bot_to_move(self) -> bool:
        player = self.match.state.current_player()
        return player >= 0 and self.seating.get(player) is not None

    def _play_bots(self) -> None:
        try:
            while True:
                with self.lock:
                    if self.closed or not self._bot_to_move():
                        self.thinking = False
                        return
                    state = self.match.state.clone()
                    ply = self.match.ply
                    level = self.seating[state.current_player()]
                    bot = make_bot("level", game=self.match.game, level=level, seed=self.seed * 1000 + ply)
                    self.bot = bot
                if not self._wait_for_slot():
                    continue  # closed while waiting: the loop's check ends the thread
                try:
                    analysis = bot.analyse(state)
                finally:
                    if self.limits is not None:
                        self.limits.end_table_search(self)
                with self.lock:
                    self.bot = None
                    if self.closed or self.match.ply != ply:
                        continue
                    move = self.match.apply(analysis.action)
                    played = [move] + self.match.advance_chance()
                    if not self._bot_to_move():
                        self.thinking = False  # before the event: a person told it is their turn may move at once
                    self.broadcast(played)
                    if not self.thinking:
                        return
        except Exception as exc:  # reported to the people at the table; the seat waits
            with self.lock:
                self.thinking = False
                self.bot = None
                self.error = f"{type(exc).__name__}: {exc}"
                for seat, (server, session) in list(self.members.items()):
                    server.send({"type": "event", "event": "error", "game_id": session.game_id,
                                 "table_id": self.table_id, "error": f"the bot could not move: {self.error}"})


class Tables:
    """The tables of one server (shared by its connections), found by id or by a seat's token."""

    def __init__(self, limits: Optional[ServerLimits] = None) -> None:
        self.limits = limits
        self.lock = threading.Lock()
        self.tables: Dict[str, Table] = {}
        self._next = 1

    def _expire(self) -> None:
        now = time.monotonic()
        for table_id, table in list(self.tables.items()):
            if not table.members and now - table.idle_since > TABLE_KEEP_SECONDS:
                table.close()
                del self.tables[table_id]

    def create(self, match: Match, seating: Dict[int, Optional[int]], allow_undo: bool, seed: int,
               cap: int) -> Table:
        with self.lock:
            self._expire()
            if len(self.tables) >= cap:
                raise ProtocolError(f"too many tables: this server keeps {cap} at once (aiplay serve --max-games)")
            table = Table(f"t{self._next}", match, seating, allow_undo, seed, self.limits)
            self._next += 1
            self.tables[table.table_id] = table
            return table

    def find(self, token: str) -> Tuple[Table, int]:
        with self.lock:
            self._expire()
            for table in self.tables.values():
                seat = table.seat_of(token)
                if seat is not None:
                    return table, seat
        raise ProtocolError("no table has a seat with this token (a table nobody joins for "
                            f"{TABLE_KEEP_SECONDS:g} seconds is closed)")


class Server:
    """The protocol engine for one client (see the module docstring and docs/protocol.md).

    ``emit`` sends one reply object; it may be called from worker threads
    (the server serialises the calls). ``trusted``: the client may open games
    with ``"viewer": "all"`` in games with hidden information, and act for any
    seat (stdio, and ``aiplay serve --websocket PORT --trust-clients``); an
    untrusted client (WebSocket by default, the demo always) only ever sees and
    acts as its seat there.
    """

    def __init__(self, emit: Emit, limits: Optional[ServerLimits] = None, trusted: bool = True):
        self.trusted = trusted
        self.limits = limits if limits is not None else ServerLimits()
        self.limits.attach(self)
        self._emit = emit
        self._emit_lock = threading.Lock()
        self._lock = threading.RLock()  # guards the sessions against worker threads
        self.sessions: Dict[str, Session] = {}
        #: Work to do once the current request's reply is sent (a table's bots start after it, so
        #: that their moves' events follow the reply that caused them).
        self._after_reply: List[Callable[[], None]] = []
        self._next_id = 1
        self.closed = False
        #: When this client last sent a request or was sent a reply (time.monotonic()).
        self.last_activity = time.monotonic()
        self._commands: Dict[str, Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]] = {
            "hello": self._hello, "new": self._new, "close": self._close, "games": self._games,
            "status": self._status, "position": self._position, "legal": self._legal, "apply": self._apply,
            "chance": self._chance, "undo": self._undo, "redo": self._redo, "view": self._view,
            "history": self._history, "record": self._record, "load": self._load, "go": self._go,
            "analyse": self._analyse, "stop": self._stop, "solve": self._solve, "quit": self._quit,
            "join": self._join, "rules": self._rules,
            "review": functools.partial(start_review, self),  # aiplay/protocol/review.py
        }

    # -- framing -------------------------------------------------------------
    def send(self, obj: Dict[str, Any]) -> None:
        """Emit one reply object (thread-safe)."""
        with self._emit_lock:
            self.last_activity = time.monotonic()
            self._emit(obj)

    def idle_seconds(self) -> float:
        """Seconds since the last request or reply; 0 while a search runs on one of this client's games."""
        with self._lock:
            if any(session.busy for session in self.sessions.values()):
                return 0.0
        return time.monotonic() - self.last_activity

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
        self._after_reply = []
        self.last_activity = time.monotonic()
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
            for work in self._after_reply:
                work()
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
        """The seat a reply speaks to: the game's viewer; a request may only narrow "all" to a seat.

        A client that sees as a seat cannot change its viewer per request (its rights
        are set when the game is opened); one that sees everything may ask for one seat's view.
        """
        if request.get("viewer") is None:
            return session.viewer
        viewer = _parse_viewer(request["viewer"], session.match.game)
        if session.viewer is not None and viewer != session.viewer:
            raise ProtocolError(f"this client sees the game as seat {session.viewer}; a request cannot change "
                                f"its viewer (the rights of a game are set by 'new', 'load' or 'join')")
        return viewer

    def _game_viewer(self, request: Mapping[str, Any], game: Game) -> Optional[int]:
        """``viewer`` of ``new``/``load``: required when the game hides anything, so that showing all is a choice."""
        if request.get("viewer") is None:
            if game.perfect_information:
                return None
            raise ProtocolError(
                f"field 'viewer' is required: {game.name!r} has hidden information. Give the seat whose "
                f"view this client shows (0..{game.num_players - 1}): move names, the history and searches "
                f"are then told as that seat sees them; or \"all\" to see everything, every hand and "
                f"every card drawn included")
        viewer = _parse_viewer(request["viewer"], game)
        if viewer is None and not game.perfect_information and not self.trusted:
            raise ProtocolError(
                "\"viewer\": \"all\" would show this client every hand and card: this server does not trust "
                "its clients with that (start it with 'aiplay serve --websocket PORT --trust-clients' for "
                f"trusted local use); give the seat it plays, 0..{game.num_players - 1}")
        return viewer

    def _act_for(self, request: Mapping[str, Any], game: Game, viewer: Optional[int]) -> Optional[FrozenSet[int]]:
        """``act_for`` of ``new``/``load``: the seats this client may apply moves for (None: all, and chance).

        Default: the viewer's seat, or every seat for a client that sees everything.
        Only a trusted client may act for seats it does not see as in a game with hidden
        information (a referee feeding the moves of a real table).
        """
        value = request.get("act_for")
        if value is None:
            return None if viewer is None else frozenset([viewer])
        n = game.num_players
        if value == ALL_SEATS:
            seats: Optional[FrozenSet[int]] = None
        elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n
                                             for v in value):
            seats = frozenset(value)
        else:
            raise ProtocolError(f"field 'act_for' must be a list of seats 0..{n - 1} or \"all\", got {_short(value)}")
        if not self.trusted and not game.perfect_information and (
                seats is None or any(seat != viewer for seat in seats)):
            raise ProtocolError(f"this client sees the game as seat {viewer}: it may act for that seat only "
                                f"(a server started with --trust-clients lets a client act for others)")
        return seats

    @staticmethod
    def _check_turn(session: Session) -> None:
        """A client bound to seats may play only at those seats' decisions; the text names nothing hidden."""
        if session.act_for is None:
            return
        player = session.match.state.current_player()
        if player == CHANCE:
            raise ProtocolError("a chance node: this client may not choose the outcome; the engine draws it "
                                "('chance', or \"auto_chance\": true on 'new')")
        if player >= 0 and player not in session.act_for:
            raise ProtocolError(f"it is not your turn: player {player} is to move")

    @staticmethod
    def _check_undo(session: Session, moves: List[Move]) -> None:
        """A client may take back another seat's decision only where the table allows it."""
        allowed = session.table.allow_undo if session.table is not None else session.allow_undo
        if session.act_for is None or allowed:
            return
        for move in moves:
            if move.player >= 0 and move.player not in session.act_for:
                raise ProtocolError(f"this table does not allow taking back another seat's move "
                                    f"(player {move.player}'s); only your own")

    @staticmethod
    def _with_status(session: Session, data: Dict[str, Any]) -> Dict[str, Any]:
        """A reply about one game: ``status`` (the object), its fields at the top level too (protocol 1)."""
        status = session.status()
        return {**status, **data, "status": status}

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
                "games": games, "bots": sorted(BOTS), "levels": levels_info(), "commands": list(self._commands),
                # A level is its own budget: 'go' with 'level' refuses iterations, nodes and depth, and
                # seconds below the top level; "level_seconds" names the level that takes seconds.
                "level_budget": False, "level_seconds": NUM_LEVELS,
                # What this client may do (docs/protocol.md, "Rights"): see every hand, act for any seat.
                "trusted": self.trusted}

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
        allow_undo = _field(request, "allow_undo", (bool,))
        game = load(name, backend=backend, **options)
        state = None
        if "state" in request and request["state"] is not None:
            state = self._parse_state(game, request["state"])
        if request.get("seats") is not None:
            return self._new_table(request, game, seed, state, bool(allow_undo))
        viewer = self._game_viewer(request, game)
        act_for = self._act_for(request, game, viewer)
        match = Match(game, seed=seed, state=state)
        with self._lock:
            game_id = f"g{self._next_id}"
            self._next_id += 1
            session = self.sessions[game_id] = Session(game_id, match, auto_chance, seed, viewer, act_for,
                                                       True if allow_undo is None else allow_undo)
        played = self._after_move(session, viewer)
        return self._with_status(session, {"chance_moves": played})

    def _new_table(self, request: Dict[str, Any], game: Game, seed: int, state: Optional[State],
                   allow_undo: bool) -> Dict[str, Any]:
        """``new`` with ``seats``: a table of people (each joins with its seat's token) and bots the server plays."""
        seats = _field(request, "seats", (dict,))
        n = game.num_players
        seating: Dict[int, Optional[int]] = {}
        for key, value in seats.items():
            if not (isinstance(key, str) and key.isdigit() and int(key) < n):
                raise ProtocolError(f"field 'seats' maps each seat \"0\"..\"{n - 1}\" to \"human\" or "
                                    f"{{\"level\": k}}; {_short(key)} is no seat")
            if value == "human":
                seating[int(key)] = None
            elif (isinstance(value, dict) and set(value) == {"level"} and isinstance(value["level"], int)
                  and not isinstance(value["level"], bool) and 1 <= value["level"] <= NUM_LEVELS):
                seating[int(key)] = value["level"]
            else:
                raise ProtocolError(f"seat {key} of field 'seats' must be \"human\" or {{\"level\": k}} with k "
                                    f"from 1 to {NUM_LEVELS}, got {_short(value)}")
        if len(seating) != n:
            raise ProtocolError(f"field 'seats' must seat every player: seats \"0\"..\"{n - 1}\"")
        viewer = _field(request, "viewer", (int,), required=True)
        if seating.get(viewer, 0) is not None:
            raise ProtocolError(f"field 'viewer' is the seat this client takes at the table: one of the people's "
                                f"seats {[s for s, lv in sorted(seating.items()) if lv is None]}")
        if request.get("act_for") is not None and request["act_for"] != [viewer]:
            raise ProtocolError("at a table each client acts for its own seat only (drop 'act_for')")
        if request.get("auto_chance") is False:
            raise ProtocolError("at a table the engine draws every chance outcome (drop 'auto_chance')")
        if request.get("seed") is not None and not self.trusted:
            # The chance draws follow the seed: whoever chose it could replay them and read every hand.
            raise ProtocolError("at a table the engine draws with a secret seed: drop 'seed' (only a trusted "
                                "client may fix a table's seed, for tests)")
        if request.get("seed") is None:
            seed = secrets.randbits(62)
        match = Match(game, seed=seed, state=state)
        table = self.limits.tables.create(match, seating, allow_undo, seed, self.limits.max_games)
        with table.lock:
            session = self._seat(table, viewer)
            played = [_move(m, viewer) for m in match.advance_chance()]
        self._after_reply.append(table.kick)
        return self._with_status(session, {"chance_moves": played,
                                           "tokens": {str(s): t for s, t in sorted(table.tokens.items())}})

    def _seat(self, table: Table, seat: int) -> Session:
        """Bind a new session of this connection to ``seat`` of ``table`` (call with the table's lock held)."""
        old = table.members.get(seat)
        if old is not None:  # the seat is taken over (a rejoin): the old connection's game ends there
            old_server, old_session = old
            old_server.sessions.pop(old_session.game_id, None)
            old_server.send({"type": "event", "event": "replaced", "game_id": old_session.game_id,
                             "table_id": table.table_id, "seat": seat})
        with self._lock:
            game_id = f"g{self._next_id}"
            self._next_id += 1
            session = self.sessions[game_id] = Session(game_id, None, True, table.seed, seat, frozenset([seat]),
                                                       table.allow_undo, table)
        table.members[seat] = (self, session)
        return session

    def _join(self, request: Dict[str, Any]) -> Dict[str, Any]:
        token = _field(request, "token", (str,), required=True)
        since = _field(request, "since", (int,), 0)
        with self.limits.lock:
            if self.limits.open_games() >= self.limits.max_games:
                raise ProtocolError(f"too many open games: this server allows {self.limits.max_games} at once "
                                    "(aiplay serve --max-games); close one first")
        table, seat = self.limits.tables.find(token)
        with table.lock:
            history = table.match.history
            if not 0 <= since <= len(history):
                raise ProtocolError(f"field 'since' must be a ply from 0 to {len(history)} (the moves played)")
            session = self._seat(table, seat)
            moves = [_move(m, seat) for m in history[since:]]
            data = self._with_status(session, {"seat": seat, "since": since, "moves": moves})
        self._after_reply.append(table.kick)
        return data

    @staticmethod
    def _parse_state(game: Game, doc: Any) -> State:
        if isinstance(doc, dict):
            doc = json.dumps(doc)
        if not isinstance(doc, str):
            raise ProtocolError("field 'state' must be a position: a JSON object (or its text) as 'position' gives")
        return game.state_from_json(doc)

    def _close(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        session.cancel()  # a running search or solve ends now, and frees its memory
        with self._lock:
            self.sessions.pop(session.game_id, None)
        if session.table is not None:
            session.table.leave(session)
        self.limits.orphan(session)  # still counted against max_searches until its thread has ended
        return {"game_id": session.game_id, "closed": True}

    def _games(self, request: Dict[str, Any]) -> Dict[str, Any]:
        with self._lock:
            sessions = list(self.sessions.values())
        return {"open": [s.status() for s in sessions]}

    def _status(self, request: Dict[str, Any]) -> Dict[str, Any]:
        return self._with_status(self._session(request), {})

    def _position(self, request: Dict[str, Any]) -> Dict[str, Any]:
        if "state" not in request or request["state"] is None:
            session = self._session(request)
            if not self._sees_everything(self._viewer(request, session), session.match.game):
                raise ProtocolError("'position' shows the whole position, hidden cards included; this game's "
                                    "client shows one seat: use 'view' (or open the game with \"viewer\": \"all\")")
            return self._with_status(session, {"state": json.loads(session.match.state.to_json())})
        session = self._session(request, idle=True)
        if session.table is not None:
            raise ProtocolError("a table's position is set by its moves; 'position' cannot change it")
        old = session.match
        state = self._parse_state(old.game, request["state"])
        session.match = Match(old.game, seed=old.chance_seed, state=state)
        played = self._after_move(session, self._viewer(request, session))
        return self._with_status(session, {"chance_moves": played})

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
        if _field(request, "meanings", (bool,), False):
            data["actions"] = with_meanings(state, viewer, data["actions"])
        return self._with_status(session, data)

    def _rules(self, request: Dict[str, Any]) -> Dict[str, Any]:
        with self._lock:
            sessions = list(self.sessions.values())
        return rules_reply(request, sessions[0].match.game.name if len(sessions) == 1 else None)

    def _apply(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        if "action" not in request:
            raise ProtocolError("missing field 'action' (an action id or its name)")
        action = request["action"]
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise ProtocolError(f"field 'action' must be an action id or a name, got {_short(action)}")
        viewer = self._viewer(request, session)
        table = session.table
        if table is None:
            self._check_turn(session)
            move = _apply_as_seen_by(session.match, action, viewer)
            played = self._after_move(session, viewer)
            return self._with_status(session, {"move": _move(move, viewer), "chance_moves": played})
        with table.lock:
            self._check_turn(session)
            move = _apply_as_seen_by(table.match, action, viewer)
            chance = table.match.advance_chance()
            table.broadcast([move] + chance, skip=session)
            data = self._with_status(session, {"move": _move(move, viewer),
                                               "chance_moves": [_move(m, viewer) for m in chance]})
        self._after_reply.append(table.kick)
        return data

    def _chance(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        if not session.match.state.is_chance_node():
            raise ProtocolError("not a chance node: no chance outcome to draw")
        viewer = self._viewer(request, session)
        played = [_move(m, viewer) for m in session.match.advance_chance()]
        return self._with_status(session, {"chance_moves": played})

    def _table_idle(self, session: Session) -> None:
        if session.table is not None and session.table.thinking:
            raise ProtocolError("a bot at this table is thinking; wait for its move")

    def _undo(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        seat = _field(request, "seat", (int,))
        count = _field(request, "count", (int,))
        match = session.match
        if seat is not None:
            if count is not None:
                raise ProtocolError("give 'count' or 'seat', not both")
            if not 0 <= seat < match.game.num_players:
                raise ProtocolError(f"seat {seat} does not exist; seats are 0..{match.game.num_players - 1}")
        viewer = self._viewer(request, session)
        lock = session.table.lock if session.table is not None else self._lock
        with lock:
            self._table_idle(session)
            history = match.history
            if seat is not None:
                back = next((len(history) - i for i in range(len(history) - 1, -1, -1)
                             if history[i].player != CHANCE and history[i].player == seat), None)
                if back is None:
                    raise InvalidOptionError(f"nothing to undo: no decision of seat {seat} in the history")
            else:
                back = 1 if count is None else count
                Match._check_count(back, len(history), "undo")
            self._check_undo(session, history[len(history) - back:])
            undone = match.undo(back)
            if session.table is not None:
                session.table.broadcast(undone, skip=session, event="undo")
            data = self._with_status(session, {"undone": [_move(m, viewer) for m in undone]})
        if session.table is not None:
            self._after_reply.append(session.table.kick)
        return data

    def _redo(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request, idle=True)
        count = _field(request, "count", (int,), 1)
        viewer = self._viewer(request, session)
        lock = session.table.lock if session.table is not None else self._lock
        with lock:
            self._table_idle(session)
            pending = list(reversed(session.match._redo))[:count] if isinstance(count, int) else []
            self._check_undo(session, pending)
            redone = session.match.redo(count)
            if session.table is not None:
                session.table.broadcast(redone, skip=session)
            data = self._with_status(session, {"redone": [_move(m, viewer) for m in redone]})
        if session.table is not None:
            self._after_reply.append(session.table.kick)
        return data

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
            raise ProtocolError(f"this client shows seat {viewer}; seat {player}'s view is not its to see")
        since_ply = _field(request, "since_ply", (int,))
        # A past position (the coach steps through a seat's decisions): the position before move
        # ``ply``, drawn as ``player`` saw it then. A seat's view of an earlier position is a prefix of
        # what it knows now, so two games it cannot tell apart give the same picture here too.
        at_ply = _field(request, "ply", (int,))
        past = at_ply is not None and at_ply != session.match.ply
        if at_ply is not None:
            state = session.match.position_before(at_ply)
            if since_ply is not None and since_ply > at_ply:
                raise ProtocolError(f"field 'since_ply' ({since_ply}) must not be after 'ply' ({at_ply})")
        view = state.view(0 if player is None else player)
        data: Dict[str, Any] = {"player": player, "view": view}
        if at_ply is not None:
            data["ply"] = at_ply
        if _field(request, "panel", (bool,), False):
            data["panel"] = view_panel(state, 0 if player is None else player)
        if render is not None:
            data[render] = self._render(state, player, render)
            if render == "svg" and data["svg"] is not None:
                # Which drawn elements each legal move touches, for a frontend played by clicks
                # (docs/svg.md); empty unless ``player`` is the seat to move.
                data["targets"] = {str(a): ids for a, ids in legal_moves_on_svg(state, player).items()}
                # What changed since ``since_ply`` (default: the last decision) is marked (docs/svg.md).
                if since_ply is None:
                    history = session.match.history[:at_ply] if past else session.match.history
                    since_ply = last_decision_ply([m.player for m in history])
                if since_ply is not None:
                    data["svg"] = svg(state, player, since=session.match.position_before(since_ply))
                    data["since_ply"] = since_ply
        return self._with_status(session, data)

    @staticmethod
    def _render(state: State, player: Optional[int], kind: str) -> Optional[str]:
        return render_state(state, player, kind)

    def _history(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        viewer = self._viewer(request, session)
        return self._with_status(session, {"moves": [_move(m, viewer) for m in session.match.history]})

    def _record(self, request: Dict[str, Any]) -> Dict[str, Any]:
        session = self._session(request)
        return self._with_status(session, {"record": session.match.to_record(self._viewer(request, session))})

    def _load(self, request: Dict[str, Any]) -> Dict[str, Any]:
        record = _field(request, "record", (dict, str), required=True)
        backend = _field(request, "backend", (str,), "auto")
        auto_chance = _field(request, "auto_chance", (bool,), False)
        allow_undo = _field(request, "allow_undo", (bool,), True)
        match = Match.from_json(record if isinstance(record, str) else json.dumps(record), backend=backend)
        viewer = self._game_viewer(request, match.game)
        act_for = self._act_for(request, match.game, viewer)
        with self._lock:
            game_id = f"g{self._next_id}"
            self._next_id += 1
            session = self.sessions[game_id] = Session(game_id, match, auto_chance, 0, viewer, act_for, allow_undo)
        return self._with_status(session, {})

    # -- searches ------------------------------------------------------------
    def _build_bot(self, session: Session, request: Mapping[str, Any]) -> Tuple[Bot, Budget]:
        game = session.match.game
        state = session.match.state
        if state.is_terminal():
            raise NotDecisionNodeError("the game is over: there is no move to search")
        if state.is_chance_node():
            raise NotDecisionNodeError("a chance node: apply or draw a chance outcome first ('chance')")
        level = _field(request, "level", (int,))
        budgeted = any(request.get(key) is not None for key in BUDGET_FIELDS) or request.get("options") is not None
        # No bot: the best bot, the top level (as 'aiplay play --human' and the demo seat it), or,
        # with a budget or search options, the game's strongest search at that budget.
        default = "level" if level is not None or not budgeted else strongest_kind(game)
        # "mcts" or "mcts(iterations=100)": the bot syntax of the command line (aiplay.search.spec)
        spec = parse_bot(_field(request, "bot", (str,), default), files=False)
        kind = spec.kind
        options = {**spec.options, **dict(_field(request, "options", (dict,), {}))}
        if level is not None:
            if kind != "level":
                raise ProtocolError(f"field 'level' chooses a difficulty level: drop 'bot' or give "
                                    f"\"bot\": \"level\", not {kind!r}")
            options["level"] = level
        if kind == "level":
            # A level is its own budget; only the top level also takes seconds (LevelBot checks which).
            given = [key for key in BUDGET_FIELDS
                     if key != "seconds" and (request.get(key) is not None or key in options)]
            if given:
                raise InvalidOptionError(f"a level is its own budget: drop {', '.join(repr(k) for k in given)} "
                                         f"(the top level, {NUM_LEVELS}, takes 'seconds'; or choose a bot, e.g. "
                                         f"{strongest_kind(game)!r}, to give a budget)")
        if session.viewer is not None and not game.perfect_information and (
                kind in OMNISCIENT_BOTS or options.get("allow_hidden_information")):
            raise ProtocolError(
                f"bot {kind!r} would search the true position, every hand included: a client that sees the "
                f"game as seat {session.viewer} may not ask for it (use {strongest_kind(game)!r} or a level, which "
                f"search only what the seat knows)")
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
        table = session.table
        if table is not None and state.current_player() != viewer:
            raise ProtocolError(f"it is not your turn: player {state.current_player()} is to move "
                                "(the table's bots and people play their own seats)")
        # A bot searching for another seat than the client's: its estimate, its line and the
        # moves it weighed would tell what that seat holds; the client gets the move as it sees it.
        private = not self._sees_everything(viewer, session.match.game) and state.current_player() != viewer
        request_id = request.get("id")
        ply = session.match.ply
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
                if play and table is not None:
                    with table.lock:
                        if table.match.ply != ply:
                            raise ProtocolError("the table's game moved on during the search; nothing was played")
                        move = table.match.apply(analysis.action)
                        chance = table.match.advance_chance()
                        table.broadcast([move] + chance, skip=session)
                        data["move"] = _move(move, viewer)
                        data["chance_moves"] = [_move(m, viewer) for m in chance]
                elif play:
                    with self._lock:
                        move = session.match.apply(analysis.action)
                        data["move"] = _move(move, viewer)
                        data["chance_moves"] = self._after_move(session, viewer)
                session.bot = None
                session.active = False
                self.reply(request_id, cmd, self._with_status(session, data),
                           kind="bestmove" if cmd == "go" else "reply")
                if play and table is not None:
                    table.kick()
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
                "chances": value_in_words(analysis.value, state.game),
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
                if session.stop_solve():
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
        # The solver's callbacks are the server's to set, not a client's.
        accepted = [name for name in _keyword_names(solve) if name not in ("progress", "on_engine")]
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
                                    f"(observer {viewer})")
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

        def on_engine(engine: Any) -> None:
            session.solve_engine = engine
            if session.cancelled:  # closed (or its client gone) before the engine was built
                session.stop_solve()

        options["on_engine"] = on_engine

        def work() -> None:
            try:
                result = _jsonable(solve(state, **options))
                session.solve_engine = None  # its table is freed now, not when the game is
                session.active = False
                self.reply(request_id, "solve", self._with_status(session, {"result": result}))
            except Exception as exc:
                session.solve_engine = None
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
            session.cancel()  # a solve too: it replies with its best answer so far
        return {"bye": True}

    def shutdown(self, timeout: float = 2.0) -> None:
        """Cancel every search and solve (the client quit, or is gone) and wait for its final reply.

        A search or solve stops within milliseconds (a solve's native table is
        polled every thousand nodes); ``timeout`` seconds each is plenty. One
        that outlives it (a solver without a cancel flag) stays counted against
        ``max_searches`` until it ends (:meth:`ServerLimits.detach`).
        """
        self.closed = True
        with self._lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            session.cancel()
        deadline = time.monotonic() + timeout
        for session in sessions:
            thread = session.thread
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))
        for session in sessions:
            if session.table is not None:
                session.table.leave(session)
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


__all__ = ["ALL_SEATS", "Server", "ServerLimits", "Session", "Table", "Tables"]
