"""Human seats in the command line: ``aiplay play GAME --human 0`` lets a person play against bots.

At a human seat the position is shown as that seat sees it, then the legal
moves, numbered and named. The person types a move's number (its place in the
list) or its name (exactly, or in any case), or a command:

``undo``
    take back your last move and everything played since (the bots' replies,
    chance);
``hint``
    ask the best bot (the top difficulty level: the game's tree search, ISMCTS
    where information is hidden, MCTS otherwise, with its presets and its tie
    rule) what it would play here, with its estimate;
``list`` or ``?``
    show every legal move (a long list is shown grouped by kind, with a
    short menu); ``list WORD`` shows the moves whose names start with WORD;
``save FILE`` / ``load FILE``
    write the game record (:class:`~aiplay.match.Match`) to a file, or
    continue a saved game of the same game and options;
``moves``
    show the position and the legal moves again;
``rules``
    how to play the game (its goal, a turn, the terms the moves use, the end);
``help MOVE``
    what a move does (by its number or its name; ``help`` alone lists the commands);
``quit``.

A move that is the seat's only legal move is played for it, with a one-line
notice (``undo`` goes back past such moves to the seat's last real choice).
Before a human seat's prompt, the bots' turns since its last move are summed up
in one sentence each, as the seat saw them (:mod:`aiplay.views.narrate`), and
every automatic step a move set off (points scored, lives lost, a building sunk)
gets a line; the end explains who won and why. A board is followed by its legend.

Everything is read line by line from the given input, so a test (or a script)
can feed a whole game on standard input.

The move log shows each move as the human seat saw it
(:meth:`~aiplay.match.Move.as_seen_by`): another seat's face-down card, a
card dealt to someone else or a role dealt are named without what is hidden.
With several human seats at one terminal, a move is named in full only when
every one of them may see it.
"""

from __future__ import annotations

import difflib
import importlib
import os
import random
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Set, TextIO, Tuple

from aiplay.cli.review import run_review
from aiplay.errors import AiplayError, InvalidOptionError
from aiplay.game import CHANCE, Game
from aiplay.match import Match, Move
from aiplay.search import make_bot
from aiplay.views.guide import how_to_play, legal_meanings, legend
from aiplay.views.narrate import chance_lines, final_scores, match_summaries, narrate, outcome, plural
from aiplay.views.panel import chances_in_words, seat_note
from aiplay.views.text import render_state

HELP = ("type a move's number or name; or: undo (take back your last move), hint (ask the best bot), "
        "review (your decisions so far, priced by the coach), "
        "list or ? (every move; list WORD: the moves starting with WORD), rules (how to play), "
        "help MOVE (what a move does), save FILE, load FILE, moves (the position again), help, quit")

#: Up to this many legal moves are listed one a line; more are grouped by their first word.
FULL_MENU = 24
#: A group of up to this many moves is listed in the short menu; a larger one is summarised.
GROUP_SHOWN = 4
#: A menu of up to this many moves says what each one does beside its name.
MEANINGS_SHOWN = 8


def parse_seats(text: str, num_players: int) -> Set[int]:
    """``"0"`` or ``"0,2"`` -> the human seats; InvalidOptionError for a seat that does not exist."""
    seats: Set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            seat = int(part)
        except ValueError:
            raise InvalidOptionError(f"--human {text!r}: seats are numbers, e.g. --human 0 or --human 0,2") from None
        if not 0 <= seat < num_players:
            raise InvalidOptionError(f"--human seat {seat} does not exist; seats are 0..{num_players - 1}")
        seats.add(seat)
    if not seats:
        raise InvalidOptionError("--human needs at least one seat, e.g. --human 0")
    return seats


class HumanGame:
    """One game with human seats and bot seats, driven by lines of input."""

    def __init__(self, game: Game, bots: Sequence[Any], humans: Set[int], seed: int,
                 stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None):
        self.match = Match(game, seed=random.Random(seed))
        self.bots = list(bots)
        self.humans = humans
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self._shown_turn = -1
        self._rewound = False
        #: The plies of moves played for a seat because they were its only legal move.
        self._forced: Set[int] = set()
        #: The ply up to which the bots' turns were summed up for the human seat.
        self._summarised = 0
        # The game package's optional describe_action(state, action, viewer) hook (Area 1851 names the
        # card behind "gadget 0"), looked up once: a native state must build its reference copy to use it.
        reference_game = getattr(game, "reference", game)
        try:
            package = importlib.import_module(type(reference_game).__module__.rsplit(".", 1)[0])
        except ImportError:  # a game class defined outside a package has no such hook
            package = None
        hook = getattr(package, "describe_action", None)
        self._describe_action = hook if callable(hook) else None

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def run(self) -> int:
        """Play to the end (or ``quit``, or the end of the input); returns the exit status."""
        while not self.match.is_terminal():
            match = self.match  # `load` replaces it
            player = match.current_player()
            lives = self._public_lives()
            hands = self._own_hands()
            if player == CHANCE:
                # The chance steps that come together (a deal, a roll), told in a few sentences ("You were
                # dealt Rope and Water."), then what they set off; "You" only where one seat sits here.
                first = match.ply
                names = []
                changes: List[str] = []  # per step, as before grouping: a single card drawn is named by its step
                while match.state.is_chance_node() and not match.is_terminal():
                    names.append(self.seen_name(self.draw_chance()))
                    changes += self.hand_change_lines(hands, chance=True)
                    hands = self._own_hands()
                for sentence in chance_lines(match.game, names, min(self.humans) if len(self.humans) == 1 else None):
                    self.say(f"  {sentence}")
                if not self._rewound:
                    if not self.narrate_last(first):
                        self.announce_events(lives)
                    for line in changes:
                        self.say(line)
                self._rewound = False
                continue
            elif player in self.humans and len(match.state.legal_actions()) == 1:
                self.announce_turn(player)
                self._forced.add(match.ply)
                move = match.apply(match.state.legal_actions()[0])
                self.say(f"  player {player} (you): {self.seen_name(move)}  (your only legal move: played for you)")
            elif player in self.humans:
                self.summarise_bots()
                if not self.human_move(player):
                    self.say("game left unfinished")
                    return 0
            else:
                self.announce_turn(player)
                action = self.bots[player].choose(match.state)
                move = match.apply(action)
                self.say(f"  player {player} ({bot_label(self.bots[player])}): {self.seen_name(move)}")
            if not self._rewound:  # after an `undo` or a `load` the lives changed by no move
                if not self.narrate_last():
                    self.announce_events(lives)
                if player not in self.humans:  # a seat's own move says what it did with its cards
                    self.announce_hand_changes(hands, chance=player == CHANCE)
            self._rewound = False
        self.finish()
        return 0

    def narrate_last(self, first: Optional[int] = None) -> bool:
        """Say the automatic steps the last move (the moves from ply ``first``) set off, as the one
        human seat may read them.

        False (nothing said) with several human seats at one terminal: one seat's lines could
        tell another what it may not see; the lives are then announced the old way.
        """
        if len(self.humans) != 1 or not self.match.ply:
            return False
        start = self.match.ply - 1 if first is None else max(0, min(first, self.match.ply - 1))
        for ply in range(start, self.match.ply):
            before = self.match.position_before(ply)
            after = self.match.position_before(ply + 1) if ply + 1 < self.match.ply else self.match.state
            action = self.match.history[ply].action
            assert action is not None
            for line in narrate(before, action, after, min(self.humans))[1:]:
                self.say(f"  ! {line}")
        return True

    def summarise_bots(self) -> None:
        """One sentence per bot turn since the human seat last moved (one human seat only)."""
        if len(self.humans) != 1:
            return
        since = min(self._summarised, self.match.ply)
        for sentence in match_summaries(self.match, since, min(self.humans)):
            self.say(f"  >> {sentence}")
        self._summarised = self.match.ply

    def draw_chance(self) -> Move:
        """Play the chance outcome of the position (drawn from the match's seeded generator)."""
        return self.match.play_chance()

    def seen_name(self, move: Move) -> str:
        """``move``'s name as the human seats may all read it (redacted if any of them may not see it)."""
        for seat in sorted(self.humans):
            seen = move.as_seen_by(seat)
            if seen.action is None:
                return seen.name
        return move.name

    def announce_turn(self, player: int) -> None:
        match = self.match
        upcoming = match.turn_number + (0 if match.turn_owner == player else 1)
        if upcoming != self._shown_turn:
            self._shown_turn = upcoming
            who = "you" if player in self.humans else "bot"
            # No number: the match counts changes of seat, which is not the turn or round a game's
            # board shows (Area 1851 counts rounds); the board's own status line says that.
            self.say(f"--- player {player} ({who}) to play ---")

    def _public_lives(self) -> Optional[List[int]]:
        """The lives every seat has, as the first human seat's view shows them (None: not a game of lives)."""
        try:
            view = self.match.state.view(min(self.humans))
        except Exception:  # noqa: BLE001 - a game without a view simply announces nothing
            return None
        if not isinstance(view, dict):
            return None
        seats = view.get("seats")
        for key in ("life", "lives"):
            # The documented views keep per-seat facts in "seats" (games/<game>/view.md).
            if isinstance(seats, list) and seats and all(isinstance(e, dict) and isinstance(e.get(key), int)
                                                         for e in seats):
                return [e[key] for e in seats]
            value = view.get(key)
            if isinstance(value, list) and all(isinstance(v, int) for v in value):
                return list(value)
        return None

    def announce_events(self, before: Optional[List[int]]) -> None:
        """Say who lost or gained lives with the last move (a placement, an empty Discard Stack...)."""
        after = self._public_lives()
        if before is None or after is None or len(before) != len(after):
            return
        for p, (old, new) in enumerate(zip(before, after)):
            if new != old:
                who = "you" if p in self.humans else f"player {p}"
                change = f"lost {old - new}" if new < old else f"gained {new - old}"
                unit = "life" if abs(new - old) == 1 else "lives"
                self.say(f"  ! {who} {change} {unit} (now {new})")

    def _own_hands(self) -> Dict[int, Dict[str, int]]:
        """Each human seat's hand by card name, from its own view (empty for a game whose view has none)."""
        hands: Dict[int, Dict[str, int]] = {}
        for seat in self.humans:
            try:
                view = self.match.state.view(seat)
            except Exception:  # noqa: BLE001 - a game without a view simply announces nothing
                return {}
            seats = view.get("seats") if isinstance(view, dict) else None
            entry = seats[seat] if isinstance(seats, list) and len(seats) > seat else None
            hand = entry.get("hand") if isinstance(entry, dict) else None
            if isinstance(hand, dict):
                hands[seat] = {str(k): int(v) for k, v in hand.items()}
        return hands

    def announce_hand_changes(self, before: Dict[int, Dict[str, int]], chance: bool) -> None:
        """Say :meth:`hand_change_lines`."""
        for line in self.hand_change_lines(before, chance):
            self.say(line)

    def hand_change_lines(self, before: Dict[int, Dict[str, int]], chance: bool) -> List[str]:
        """Which of a human seat's own cards left its hand (or came into it) through a move it did not
        make: Groom Lake's cards put face down on the Refresh stack when its last life is lost, Area 1851's
        cards passed at the rotation, and passed again by a chance event. A single card drawn at a chance move is
        named by that move already."""
        lines: List[str] = []
        after = self._own_hands()
        for seat in sorted(before):
            if seat not in after:
                continue
            old, new = before[seat], after[seat]
            lost = {k: old[k] - new.get(k, 0) for k in old if old[k] > new.get(k, 0)}
            got = {k: new[k] - old.get(k, 0) for k in new if new[k] > old.get(k, 0)}
            if chance and sum(got.values()) == 1 and not lost:
                got = {}  # one card drawn: the chance move named it already (an event that swaps hands does not)
            # With several human seats at one terminal, a seat's cards are counted, not named (the others read it too).
            named = len(self.humans) == 1
            who = "your" if named else f"player {seat}'s"
            for cards, verb in ((lost, "left"), (got, "came into")):
                if cards:
                    text = (", ".join(f"{c}x {k}" if c > 1 else k for k, c in cards.items()) if named
                            else f"{sum(cards.values())} card{'s' if sum(cards.values()) > 1 else ''}")
                    lines.append(f"  ! {text} {verb} {who} hand")
        return lines

    def show(self, player: int) -> List[int]:
        """Print the position for ``player`` and the numbered legal moves; returns the actions in that order.

        A long list is shown as a short menu grouped by each name's first word (``list`` shows it all);
        the numbers are always places in the full list.
        """
        text = render_state(self.match.state, player, "text")
        if text:
            self.say(text)
            key = legend(self.match.game)
            if key:
                self.say(key)
        note = seat_note(self.match.state, player)  # the seat's own role and goal, every turn
        if note:
            self.say(note)
        moves = self.match.legal_moves()
        counter = self.running_counter(player, moves)
        if len(moves) == 1:
            self.say(f"player {player}, your only move{counter}:")
        else:
            self.say(f"player {player}, your move{counter}:")
        if len(moves) <= FULL_MENU:
            self.list_moves(moves)
        else:
            for word, group in self._groups(moves):
                if len(group) <= GROUP_SHOWN:
                    self.list_moves(group)
                else:
                    first, last = group[0][0], group[-1][0]
                    examples = ", ".join(name for _, _, name in group[:2])
                    self.say(f"  {first:3d}-{last}: {len(group)} {word} moves ({examples}, ...; list {word})")
            self.say(f"  {len(moves)} moves in all: type list (or ?) to see every one")
        return [a for a, _ in moves]

    def running_counter(self, player: int, moves: Sequence[Tuple[int, str]]) -> str:
        """`` (face-down 2 of this turn)`` when the seat makes a run of choices of one kind, else ``""``.

        The kind is the first word shared by every legal move; the count is how many of the
        seat's decisions just before, in this turn, were of that kind, plus this one.
        """
        words = {name.split(" ", 1)[0] for _, name in moves}
        if len(words) != 1:
            return ""
        word = words.pop()
        count = 1
        for move in reversed(self.match.history):
            if move.player == CHANCE:
                continue
            if move.player != player or move.name.split(" ", 1)[0] != word:
                break
            if move.name == word:  # the block's opening move ("neptune"), not one of its steps
                break
            count += 1
        return f" ({word} {count} of this turn)" if count > 1 else ""

    @staticmethod
    def _groups(moves: Sequence[Tuple[int, str]]) -> List[Tuple[str, List[Tuple[int, int, str]]]]:
        """``(first word, [(number, action, name), ...])`` per kind of move, in the order they come."""
        groups: Dict[str, List[Tuple[int, int, str]]] = {}
        for number, (action, name) in enumerate(moves, 1):
            groups.setdefault(name.split(" ", 1)[0].lower(), []).append((number, action, name))
        return list(groups.items())

    def list_moves(self, moves: Sequence[Any], prefix: str = "") -> None:
        """Print ``moves`` (``(action, name)`` from the full list, or ``(number, action, name)``) numbered."""
        numbered = [m if len(m) == 3 else (i, m[0], m[1]) for i, m in enumerate(moves, 1)]
        shown = [m for m in numbered if m[2].lower().startswith(prefix.lower())]
        if not shown:
            raise InvalidOptionError(f"no legal move starts with {prefix!r}; type list to see them all")
        labels = self.describe([action for _, action, _ in shown])
        # A short menu says what each move does; a longer one says it once per kind of move (its
        # first word), on the kind's first line; `help MOVE` says it for any move.
        meanings = self.meanings()
        short = len(shown) <= MEANINGS_SHOWN
        previous = None
        for (number, action, name), label in zip(shown, labels):
            kind = name.split(" ", 1)[0]
            meaning = meanings.get(action) if short or kind != previous else None
            previous = kind
            self.say(f"  {number:3d}. {name}" + (f"  ({label})" if label else "") + (f"  - {meaning}" if meaning else ""))

    def meanings(self) -> Dict[int, str]:
        """Each legal action's one-line meaning, as the seat to move reads it (empty at a bot's or chance's turn)."""
        state = self.match.state
        player = state.current_player()
        if player not in self.humans:
            return {}
        return dict(zip(state.legal_actions(), legal_meanings(state, player)))

    def help_move(self, text: str, actions: List[int]) -> None:
        """``help MOVE``: the meaning of the move numbered or named ``text`` (or of those starting with it)."""
        meanings = self.meanings()
        names = dict(self.match.legal_moves())
        if text.isdigit() and 1 <= int(text) <= len(actions):
            chosen = [actions[int(text) - 1]]
        else:
            chosen = [a for a, n in names.items() if n.lower() == text.lower()] or [
                a for a, n in names.items() if n.lower().startswith(text.lower())]
        if not chosen:
            raise InvalidOptionError(f"no legal move is called {text!r}; type list to see them, rules for the game")
        for action in chosen[:GROUP_SHOWN]:
            self.say(f"  {names[action]}: {meanings.get(action, '')}")
        if len(chosen) > GROUP_SHOWN:
            self.say(f"  ... and {plural(len(chosen) - GROUP_SHOWN, 'more move')} like it")

    def describe(self, actions: Sequence[int]) -> List[Optional[str]]:
        """What each of ``actions`` refers to, said beside its name (Area 1851: ``gadget 0`` is which card),
        when the game's package offers ``describe_action(state, action, viewer)``; read from the human seat's view."""
        state = self.match.state
        player = state.current_player()
        if self._describe_action is None or player not in self.humans:
            return [None] * len(actions)
        to_reference = getattr(state, "to_reference", None)
        ref = to_reference() if callable(to_reference) else state  # renderers live in the reference engine
        return [self._describe_action(ref, action, player) for action in actions]

    def flush_typeahead(self) -> None:
        """Drop what was typed while the bots were thinking, so that it is not taken as the next move."""
        if self.stdin is not sys.stdin:
            return
        try:
            import termios

            if self.stdin.isatty():
                termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError):  # not a terminal (a pipe, a file) or not POSIX
            pass

    def human_move(self, player: int) -> bool:
        """Prompt ``player`` until a move is played; False on ``quit`` or the end of the input."""
        self.announce_turn(player)
        actions = self.show(player)
        while True:
            self.flush_typeahead()
            self.stdout.write(f"player {player}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                return False
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            try:
                if command == "quit":
                    return False
                if command == "help":
                    if rest.strip():
                        self.help_move(rest.strip(), actions)
                    else:
                        self.say(HELP)
                    continue
                if command == "rules":
                    self.say(how_to_play(self.match.game))
                    continue
                if command == "moves":
                    actions = self.show(player)
                    continue
                if command in ("list", "?"):
                    self.list_moves(self.match.legal_moves(), rest.strip())
                    continue
                if command == "hint":
                    self.hint(player)
                    continue
                if command == "review":  # the coach on this seat's decisions so far (aiplay.review)
                    self.say(self.match.review(player).text())
                    continue
                if command == "undo":
                    undone = self.match.undo_decision(player)
                    # A move played for the seat (its only one) would be played again at once: go on back.
                    while undone[-1].ply in self._forced and any(
                            m.player == player and m.ply not in self._forced for m in self.match.history):
                        undone = undone + self.match.undo_decision(player)
                    self._forced = {p for p in self._forced if p < self.match.ply}
                    self._summarised = min(self._summarised, self.match.ply)
                    self.say(f"undone: {', '.join(self.seen_name(m) for m in reversed(undone))}")
                    self._shown_turn = -1
                    self._rewound = True
                    return True  # the loop resumes from the restored position
                if command == "save":
                    self.match.save(self._path(rest))
                    self.say(f"saved to {rest.strip()}")
                    continue
                if command == "load":
                    self.load(self._path(rest))
                    self._rewound = True
                    return True
                move = self.parse_move(text, actions)
            except (AiplayError, OSError) as exc:
                self.say(f"error: {exc}")
                continue
            label = self.describe([move])[0]  # before the move: a delivered gadget is gone after it
            record = self.match.apply(move)
            self.say(f"  player {player} (you): {record.name}" + (f" ({label})" if label else ""))
            return True

    @staticmethod
    def _path(rest: str) -> str:
        path = rest.strip()
        if not path:
            raise InvalidOptionError("give a file name, e.g. save mygame.json")
        return path

    def parse_move(self, text: str, actions: List[int]) -> int:
        """A number is a place in the shown list (1..n); anything else is a move name."""
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            raise InvalidOptionError(f"no move number {number}: choose 1 to {len(actions)}")
        try:
            return self.match.parse(text)
        except AiplayError:
            raise InvalidOptionError(self.unknown_move(text)) from None

    def unknown_move(self, text: str) -> str:
        """One or two lines for a move name that is not legal: the nearest legal names, not all of them."""
        names = [name for _, name in self.match.legal_moves()]
        by_lower = {name.lower(): name for name in names}
        near = difflib.get_close_matches(text.lower(), list(by_lower), n=3, cutoff=0.5)
        if not near:  # a first word typed alone: the moves of that kind
            near = [n for n in by_lower if n.startswith(text.lower())][:3]
        message = f"{text!r} is not a legal move here"
        if near:
            message += "; did you mean: " + " | ".join(by_lower[n] for n in near) + "?"
        elif len(names) <= 6:  # a move of a later step typed too soon: say what this step offers
            message += "; the moves now are: " + " | ".join(names)
        return message + "\n  (type a number, list to see every move, or help)"

    def hint_bot(self, player: int) -> Any:
        """The bot that answers ``hint``: the best bot (the top level), never the seat's random one.

        Seeded from the match's position, so that a hint is the same each time it is asked.
        """
        return make_bot("level", game=self.match.game, seed=1000 * player + self.match.ply + 1)

    def hint(self, player: int) -> None:
        """A real search's choice, with its estimate and the best-looking alternatives."""
        bot = self.hint_bot(player)
        state = self.match.state
        analysis = bot.analyse(state.clone())
        value = ("" if analysis.value is None else
                 f" (your chances: {chances_in_words(analysis.value, self.match.game)}; estimate {analysis.value:.2f})")
        # The top level plays no deliberate mistakes: it is the best bot, whatever the table's bots are.
        self.say(f"hint from the best bot ({bot_label(bot)}, no deliberate mistakes): "
                 f"{state.action_to_string(analysis.action)}{value}")
        ranked = sorted((s for s in analysis.stats if s.visits), key=lambda s: -(s.visits or 0))[:3]
        if ranked:
            self.say("  most searched: " + "; ".join(
                f"{state.action_to_string(s.action)} ({s.visits} visits)" for s in ranked))
        if len(analysis.principal_variation_names) > 1:
            self.say("  expected line: " + " / ".join(analysis.principal_variation_names[:6]))

    def load(self, path: str) -> None:
        loaded = Match.load(path)
        game = self.match.game
        if loaded.game.name != game.name or loaded.game.options != game.options:
            raise InvalidOptionError(
                f"{path} is a game of {loaded.game.name} {loaded.game.options}; this table plays "
                f"{game.name} {game.options}")
        loaded.chance_seed = self.match.chance_seed
        self.match = loaded
        self._shown_turn = -1
        self.say(f"loaded {path}: {plural(loaded.ply, 'move')} played")

    def finish(self) -> None:
        self.summarise_bots()  # the bots' last turns, which no prompt of the human seat followed
        state = self.match.state
        text = render_state(state, min(self.humans), "text")
        if text:
            self.say(text)
        returns = state.returns()
        if len(self.humans) == 1:
            told = outcome(state, min(self.humans))
            self.say("game over: " + told["text"])
            for seat in told["seats"]:
                p = seat["seat"]
                who = "you" if p in self.humans else bot_label(self.bots[p])
                # A game that keeps no score (all zero) shows the result alone, not "score 0" for all.
                # A score the seat was not shown (None) is left out too.
                shown = seat["score"] is not None and any(x["score"] for x in told["seats"])
                score = f", score {seat['score']:g}" if shown else ""
                self.say(f"  player {p} ({who}): {seat['result']}{score}")
        self.say(f"returns: {returns}")
        # The scores as the people at the terminal may know them (a game may keep some hidden at the end).
        viewer = min(self.humans) if len(self.humans) == 1 else None
        self.say("scores: [" + ", ".join("?" if x is None else f"{x:g}" for x in final_scores(state, viewer)) + "]")
        best = max(returns)
        winners = [p for p, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            self.say("result: draw")
        else:
            names = [f"player {p} ({'you' if p in self.humans else bot_label(self.bots[p])})" for p in winners]
            self.say("result: " + ", ".join(names) + " won")
        self.say(f"{self.match.move_number} moves, {self.match.turn_number} turns")
        self.offer_review()

    def offer_review(self) -> None:
        """After the game: the record saved to a temporary file, the command that reviews it, and a prompt
        ``review your game? [y/N]`` per person that prints the same review as ``aiplay review`` would.

        The end of the input (a pipe, a script) or anything but ``y``/``yes``/``review`` answers no, so a
        session driven by a file never waits there. Ctrl-C during the review prints the part done.
        """
        handle, path = tempfile.mkstemp(prefix="aiplay-game-", suffix=".json")
        os.close(handle)
        self.match.save(path)
        for seat in sorted(self.humans):
            self.say(f"review your decisions: aiplay review {path} --seat {seat}")
        for seat in sorted(self.humans):
            whose = "your game" if len(self.humans) == 1 else f"player {seat}'s decisions"
            self.flush_typeahead()
            self.stdout.write(f"review {whose}? [y/N] ")
            self.stdout.flush()
            answer = self.stdin.readline()
            if not answer:
                self.say("")
                return
            if answer.strip().lower() not in ("y", "yes", "review"):
                continue
            # The defaults of `aiplay review` (budget, seed 0, the solver where it finishes): the same lines.
            self.say(run_review(self.match, seat).text())


def bot_label(bot: Any) -> str:
    """A bot's name at the table: its kind, and a difficulty level's number (``level 7``)."""
    kind = getattr(bot, "kind", "") or type(bot).__name__
    level = getattr(bot, "level", None) if kind == "level" else None
    return f"level {level}" if level is not None else kind


def play_with_humans(game: Game, bots: Sequence[Any], human: str, seed: int,
                     stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> int:
    """Run ``aiplay play ... --human SEATS``: the seats in ``human`` are typed, the others are ``bots``."""
    humans = parse_seats(human, game.num_players)
    print(f"{game.name} ({game.backend} engine), options {game.options}, seed {seed}", file=stdout or sys.stdout)
    print("seats: " + ", ".join(f"{p}={'you' if p in humans else bot_label(bots[p])}" for p in range(game.num_players)),
          file=stdout or sys.stdout)
    print(HELP, file=stdout or sys.stdout)
    return HumanGame(game, bots, humans, seed, stdin, stdout).run()


__all__ = ["HELP", "HumanGame", "bot_label", "parse_seats", "play_with_humans"]
