"""The ``aiplay`` command: its parser and exit policy (:func:`main`), ``games`` and ``play``.

Examples (``GAME`` is a name from ``aiplay games``)::

    aiplay games
    aiplay games --all
    aiplay play GAME --bots mcts,random --seed 1
    aiplay play GAME --players 2 --bots ismcts,random --seed 7 --iterations 2000
    aiplay play GAME --option NAME=VALUE --bots expectimax,mcts --seed 3
    aiplay play GAME --players 3 --bots heuristic,random,heuristic --seed 1
    aiplay play GAME --players 3 --human 0 --bots heuristic
    aiplay play GAME --players 2 --bots level,heuristic --level 3
    aiplay levels GAME
    aiplay review game.json --seat 0
    aiplay serve
    aiplay arena GAME --bots 'mcts(iterations=200)',expectimax,random --games 20 --out results.jsonl
    aiplay bench --quick
    aiplay render GAME position.json --viewer 1 --out board.svg
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Set

import aiplay
from aiplay.cli.arena import add_arena_command, add_replay_command
from aiplay.cli.bench import add_bench_command
from aiplay.cli.demo import add_demo_command
from aiplay.cli.human import bot_label, parse_seats, play_with_humans
from aiplay.cli.levels import add_levels_command
from aiplay.cli.render import add_render_command
from aiplay.cli.review import add_review_command
from aiplay.cli.serve import add_serve_command
from aiplay.cli.solve import add_solve_command
from aiplay.errors import AiplayError, InvalidOptionError
from aiplay.game import CHANCE, Game
from aiplay.play import walk
from aiplay.registry import broken_games, game_entry, has_native
from aiplay.search.kinds import strongest_kind
from aiplay.search.level import NUM_LEVELS
from aiplay.search.spec import BotSpec, parse_bots

def _parse_option(game_name: str, text: str) -> Dict[str, Any]:
    """``"winscore=30"`` -> ``{"winscore": 30}``, typed by the game's option spec."""
    if "=" not in text:
        raise InvalidOptionError(f"--option {text!r} must look like NAME=VALUE")
    key, raw = (part.strip() for part in text.split("=", 1))
    spec = game_entry(game_name).reference.option_spec
    if key not in spec:
        known = ", ".join(sorted(spec)) or "none"
        raise InvalidOptionError(f"unknown option {key!r} for game {game_name!r}; its options are: {known}")
    kind = spec[key].kind
    value: Any = raw
    try:
        if kind is bool:
            if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            value = raw.lower() in ("true", "1", "yes")
        elif kind is int:
            value = int(raw)
        elif kind is float:
            value = float(raw)
    except ValueError:
        raise InvalidOptionError(f"option {key}={raw!r} is invalid; it accepts {spec[key].accepts}") from None
    return {key: value}


def _build_game(args: argparse.Namespace) -> Game:
    options: Dict[str, Any] = {}
    for text in args.option or []:
        options.update(_parse_option(args.game, text))
    if args.players is not None:
        if "players" not in game_entry(args.game).reference.option_spec:
            raise InvalidOptionError(f"game {args.game!r} has a fixed number of players; drop --players")
        options["players"] = args.players
    return aiplay.load(args.game, backend=args.backend, **options)


def _build_bots(args: argparse.Namespace, num_players: int, game: Any = None) -> List[Any]:
    """One bot per seat from ``--bots`` (the bot-specification syntax of :mod:`aiplay.search.spec`).

    ``--seconds``, ``--iterations`` and ``--depth`` are budgets under a bot's own options
    (``mcts(iterations=100)`` wins over ``--iterations``).
    """
    text = args.bots
    if text is None:
        # No --bots: a person at the table meets the best bot (the top level, with the game's tie
        # rule), or with --iterations/--seconds the game's preset search at that budget (a level is
        # its own budget); a bots-only game stays the quick random one it always was.
        budgeted = any(getattr(args, key, None) is not None for key in ("seconds", "iterations"))
        if getattr(args, "level", None) is not None:
            text = "level"  # --level alone: every bot seat plays at that difficulty
        elif getattr(args, "human", None) is None:
            text = "random"
        else:
            text = strongest_kind(game) if budgeted else "level"
    specs = parse_bots(text)
    if len(specs) == 1:
        specs = specs * num_players
    if len(specs) != num_players:
        raise InvalidOptionError(
            f"--bots names {len(specs)} bots for {num_players} players; give one per seat or a single one for all")
    if getattr(args, "level", None) is not None and "level" not in [s.kind for s in specs]:
        raise InvalidOptionError("--level sets the difficulty of 'level' bots: name one in --bots, "
                                 "e.g. --bots level,heuristic --level 3")
    bots = []
    applied: Set[str] = set()  # the budget flags some searching bot seat took
    # A person's seat keeps a bot only as a placeholder (hints come from the best bot), so a
    # budget it took reaches no one.
    people = parse_seats(args.human, num_players) if getattr(args, "human", None) is not None else set()
    for seat, spec in enumerate(specs):
        kind = spec.kind
        budget: Dict[str, Any] = {}
        if kind == "level":
            # A level is its own budget: --iterations/--depth do not apply to it, and --seconds only
            # to the top level (a seat below it keeps its calibrated iterations).
            level = getattr(args, "level", None)
            if level is not None:
                budget["level"] = level
            if args.seconds is not None and spec.options.get("level", level or NUM_LEVELS) == NUM_LEVELS:
                budget["seconds"] = args.seconds
        elif args.seconds is not None:
            budget["seconds"] = args.seconds
        elif kind == "expectimax":
            if args.depth is not None:
                budget["depth"] = args.depth  # expectimax counts depth, not iterations
        elif kind != "random" and args.iterations is not None:
            budget["iterations"] = args.iterations
        if kind in CHEATING_KINDS and not getattr(args, "_perfect_information", True):
            # Searching the true state of a hidden-information game reads the others'
            # cards: a cheating baseline, allowed only when the user asks by name.
            if not getattr(args, "allow_hidden_information", False):
                name = game.name if game is not None else "this game"
                raise InvalidOptionError(
                    f"bot {kind!r} (seat {seat}) would search the true position of {name}, which has hidden "
                    f"information: it would see every hand and the deck. Use ismcts (it searches only what "
                    f"its seat knows), or pass --allow-hidden-information to play it as a cheating baseline")
            budget["allow_hidden_information"] = True
        if args.plain:
            spec = BotSpec(spec.kind, spec.options, False, spec.name)
        # Each seat's bot gets its own seed derived from the game seed, so seats never share a stream.
        bot = spec.make(game, seed=args.seed * 1000 + seat + 1, **budget)
        if getattr(bot, "searches", False) and seat not in people:
            applied.update(budget)
        bots.append(bot)
    ignored = [flag for flag in ("iterations", "seconds", "depth")
               if getattr(args, flag, None) is not None and flag not in applied]
    if ignored:
        # Not an error (a flag may be meant for one seat of several), but a person should know.
        verb = "applies" if len(ignored) == 1 else "apply"
        print("note: " + " and ".join(f"--{flag}" for flag in ignored) + f" {verb} to no seat here (a level is "
              "its own budget, --seconds reaches only the top level, --depth is expectimax's, and heuristic and random "
              "bots do not search)", file=sys.stderr)
    return bots


#: Bot kinds that search the true position, so that in a hidden-information game they read every hand.
CHEATING_KINDS = ("mcts", "expectimax")


def cheating_notice(kinds: Sequence[str]) -> Optional[str]:
    """The line that says which seats' bots see hidden information, or None when none does."""
    seats = [f"seat {p} ({k})" for p, k in enumerate(kinds) if k in CHEATING_KINDS]
    if not seats:
        return None
    return ("notice: --allow-hidden-information: " + ", ".join(seats) + " search the true position: they see "
            "every seat's hidden cards and roles and the order of the decks; the other seats see only their own")


def cmd_games(args: argparse.Namespace) -> int:
    """Print the registered games and their engines (hidden example games with ``--all``)."""
    rows = []
    # None: the registry's default (hidden games only when AIPLAY_SHOW_HIDDEN_GAMES=1).
    for name in aiplay.games_available(include_hidden=True if getattr(args, "all", False) else None):
        entry = game_entry(name)
        engine = "native + reference" if has_native(name) else "reference"
        title = entry.title + ("" if entry.listed else " [example]")
        rows.append((name, engine, title))
    width = max((len(r[0]) for r in rows), default=0)
    for name, engine, title in rows:
        print(f"{name:<{width}}  {engine:<18}  {title}")
    for folder, reason in sorted(broken_games().items()):  # skipped game folders, with the reason
        print(f"aiplay: game folder {folder!r} is broken and was skipped: {reason}", file=sys.stderr)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play one seeded game between bots and print it move by move."""
    game = _build_game(args)
    args._perfect_information = game.perfect_information
    bots = _build_bots(args, game.num_players, game)
    if not game.perfect_information and getattr(args, "allow_hidden_information", False):
        notice = cheating_notice([bot_label(b) for b in bots])
        if notice:
            print(notice)
    if args.human is not None:  # people at some seats (aiplay/cli/human.py); the best bot gives the hints
        return play_with_humans(game, bots, args.human, args.seed)
    rng = random.Random(args.seed)  # chance outcomes of the real game
    state = game.new_initial_state()
    print(f"{game.name} ({game.backend} engine), options {game.options}, seed {args.seed}")
    print("seats: " + ", ".join(f"{p}={bot_label(b)}" for p, b in enumerate(bots)))
    if not args.quiet:
        print("bots: " + "; ".join(f"{p}={b!r}" for p, b in enumerate(bots)))
    move = 0

    def announce(player: int, action: int) -> None:
        nonlocal move
        label = "chance" if player == CHANCE else f"player {player} ({bot_label(bots[player])})"
        move += 1
        if not args.quiet:
            print(f"{move:4d}. {label}: {state.action_to_string(action)}")

    started = time.perf_counter()
    for step, _ in enumerate(walk(state, rng, bots=bots, on_move=announce)):
        if step and args.show_state and not args.quiet:
            print("      " + str(state).replace("\n", "\n      "))
    elapsed = time.perf_counter() - started
    returns = state.returns()
    print(f"final state:\n{state}")
    print(f"returns: {returns}")
    print(f"scores: {state.scores()}")
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        print("result: draw")
    else:
        print("result: " + ", ".join(f"player {p} ({bot_label(bots[p])})" for p in winners) + " won")
    print(f"{move} moves in {elapsed:.1f} s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``aiplay`` command."""
    parser = argparse.ArgumentParser(
        prog="aiplay", description="Search-based AI opponents for board games.",
        epilog="Documentation (tutorials, API, protocol, every command): the site built from docs/ in the "
               "repository: pip install -e '.[docs]' && mkdocs build -f docs/mkdocs.yml, then open "
               "build/site/index.html. 'aiplay COMMAND --help' tells one command.")
    parser.add_argument("--version", action="version", version=f"aiplay {aiplay.__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of an unexpected error or an interruption")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    games = sub.add_parser("games", help="list the available games",
                           description="List the registered games and their engines.")
    games.add_argument("--all", action="store_true",
                       help="also list the hidden example games (the template of docs/adding_a_game.md)")
    games.set_defaults(func=cmd_games)

    play = sub.add_parser("play", help="play a seeded bot-versus-bot game",
                          description="Play one seeded game between bots and print it move by move.")
    play.add_argument("game", help="game name (see `aiplay games`)")
    play.add_argument("--players", type=int, help="number of players (for games that take it)")
    play.add_argument("--bots",
                      help="comma-separated bots, one per seat or one for all: random, heuristic, mcts, ismcts, "
                           "expectimax, level, each optionally with options as kind(name=value,...) as in "
                           "`aiplay arena` (default: random; with --level, level; with --human, the best bot, "
                           f"level {NUM_LEVELS}, or with --iterations or --seconds the game's search, ismcts or "
                           "mcts, at that budget)")
    play.add_argument("--seed", type=int, default=0, help="seed of the game and the bots (default 0)")
    play.add_argument("--iterations", type=int,
                      help="MCTS/ISMCTS budget per move in iterations (the bots' default if unset)")
    play.add_argument("--depth", type=int, help="expectimax search depth in decisions (its default if unset)")
    play.add_argument("--seconds", type=float,
                      help="search budget per move in seconds for every search bot and the top level "
                           "(overrides --iterations/--depth)")
    play.add_argument("--level", type=int,
                      help="difficulty of the 'level' bots, 1 (weakest) to the top level (see `aiplay levels GAME`)")
    play.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option, repeatable")
    play.add_argument("--backend", default="auto", choices=["auto", "native", "reference"],
                      help="game engine (default: native when built)")
    play.add_argument("--show-state", action="store_true", help="print the state after every move")
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.add_argument("--plain", action="store_true",
                      help="use the bots' generic defaults, not the game's recommended bot options")
    play.add_argument("--human", metavar="SEATS",
                      help="seats played by you at the keyboard, e.g. 0 or 0,2 (the others are bots)")
    play.add_argument("--allow-hidden-information", action="store_true",
                      help="let mcts and expectimax bots play a hidden-information game by searching its true "
                           "position (they then see every hand: a cheating baseline; a notice says which)")
    play.set_defaults(func=cmd_play)
    add_serve_command(sub)  # aiplay serve: the engine protocol (aiplay/cli/serve.py, aiplay/protocol/)
    add_solve_command(sub)  # aiplay solve: the endgame solver (aiplay/cli/solve.py, aiplay/solve.py)
    add_demo_command(sub)  # aiplay demo: the browser demo (aiplay/cli/demo.py, aiplay/protocol/webdemo.py, aiplay/demo/)
    add_arena_command(sub)  # aiplay arena: round robins, ratings, Dask (aiplay/cli/arena.py, aiplay/arena/)
    add_replay_command(sub)  # aiplay replay: one game of an arena's results file (aiplay/cli/arena.py)
    add_bench_command(sub)  # aiplay bench: the speed table (aiplay/cli/bench.py, aiplay/bench.py)
    add_render_command(sub)  # aiplay render: a position's SVG picture (aiplay/cli/render.py, aiplay/views/svg.py)
    add_levels_command(sub)  # aiplay levels: the difficulty levels (aiplay/cli/levels.py, aiplay/search/level.py)
    add_review_command(sub)  # aiplay review: the coach (aiplay/cli/review.py, aiplay/review.py)
    return parser


#: Exit status of a command ended by Ctrl-C: 128 + SIGINT, what shells report for it.
INTERRUPTED = 130


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's final flush into a
    closed pipe raises nothing (the reader has gone: nothing more is worth saying)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's StringIO)
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``aiplay`` console script.

    One exit policy for every subcommand: a bad argument or input is one
    ``aiplay: error:`` line and status 2; a reader that closes the pipe
    (``aiplay ... | head``) ends the command quietly with status 0; Ctrl-C
    prints one line and returns 130 (a command that has something to keep,
    the arena's results file or a solve's best answer so far, keeps it before
    that); any other failure is one line naming the error, status 1, and the
    traceback only under ``--debug``.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    debug = getattr(args, "debug", False)
    try:
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return status
    except AiplayError as exc:
        if debug:
            raise
        print(f"aiplay: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except KeyboardInterrupt as exc:
        if debug:
            raise
        note = getattr(exc, "note", "")
        try:
            print(f"aiplay: {args.command} interrupted" + (f": {note}" if note else ""), file=sys.stderr, flush=True)
        except OSError:
            pass
        return INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - the one place a user is shielded from a traceback
        if debug:
            raise
        print(f"aiplay: internal error: {type(exc).__name__}: {exc} (run again with --debug for the traceback)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
