"""MkDocs hook: the site's generated pages, made at build time from the code and the existing docs.

Generated here (so that none of them can go stale, and the files they come from stay where the
code and tests expect them):

* ``protocol/index.md`` (docs/protocol.md) and one page per protocol command, its text cut from
  the specification's ``### `cmd``` section, with a request and reply that this build really
  ran through :class:`aiplay.protocol.server.Server`, and a refused request;
* ``cli.md``: every ``aiplay`` command's ``--help``, from the parser itself;
* ``reference/bot_options.md``: every option of every bot kind (from the constructors'
  signatures), its default and each game's preset;
* ``games/<game>/...``: each registered game's view and tensor pages, and its how-to-play page
  (``games/<game>/how_to_play.md`` when the game has one, else a placeholder saying so);
* ``reference/{svg,tensors,adding_a_game}.md`` and ``reference/performance_results.md`` (the
  existing docs and benchmarks/RESULTS.md).

``tests/test_docs.py`` imports this file to check that every protocol command gets its page.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: Existing Markdown files that become pages as they are (source -> page path).
COPIED = {
    "docs/protocol.md": "protocol/index.md",
    "docs/svg.md": "reference/svg.md",
    "docs/tensors.md": "reference/tensors.md",
    "docs/adding_a_game.md": "reference/adding_a_game.md",
    "benchmarks/RESULTS.md": "reference/performance_results.md",
}


# -- the protocol ---------------------------------------------------------------------------------

def protocol_sections(text: Optional[str] = None) -> Dict[str, str]:
    """The specification's text of each command: ``{cmd: markdown}``, from docs/protocol.md."""
    text = text if text is not None else (DOCS / "protocol.md").read_text(encoding="utf-8")
    body = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    sections: Dict[str, str] = {}
    for chunk in re.split(r"^### ", body, flags=re.M)[1:]:
        heading, _, rest = chunk.partition("\n")
        sections[heading.strip().strip("`")] = rest.strip()
    return sections


def protocol_commands() -> List[str]:
    """The commands the server answers, in the order ``hello`` lists them."""
    from aiplay.protocol.server import Server

    replies: List[Dict[str, Any]] = []
    server = Server(replies.append)
    server.handle_line(json.dumps({"cmd": "hello"}))
    server.shutdown()
    return list(replies[0]["commands"])


#: The examples' game: small, with chance, perfect information (so that `solve` is exact and quick).
EXAMPLE_GAME = {"game": "pig", "options": {"winscore": 20}}

#: For each command: the example request this build runs (in one session, in this order), and a
#: refused one. ``$name`` values are filled from earlier replies.
EXAMPLES: List[Tuple[str, Dict[str, Any], Optional[Dict[str, Any]]]] = [
    ("hello", {"cmd": "hello"}, None),
    ("new", {"cmd": "new", **EXAMPLE_GAME, "seed": 1}, {"cmd": "new", "game": "no_such_game"}),
    ("status", {"cmd": "status", "game_id": "g1"}, {"cmd": "status", "game_id": "g99"}),
    ("games", {"cmd": "games"}, None),
    ("rules", {"cmd": "rules", "game": EXAMPLE_GAME["game"]}, {"cmd": "rules", "game": "no_such_game"}),
    ("legal", {"cmd": "legal", "game_id": "g1"}, {"cmd": "legal", "game_id": 7}),
    ("apply", {"cmd": "apply", "game_id": "g1", "action": "$first_legal"},
     {"cmd": "apply", "game_id": "g1", "action": 12345}),
    ("chance", {"cmd": "chance", "game_id": "g1"}, None),
    ("view", {"cmd": "view", "game_id": "g1", "render": "text"},
     {"cmd": "view", "game_id": "g1", "render": "png"}),
    ("undo", {"cmd": "undo", "game_id": "g1"}, {"cmd": "undo", "game_id": "g1", "count": "two"}),
    ("redo", {"cmd": "redo", "game_id": "g1"}, {"cmd": "redo", "game_id": "g1", "count": -1}),
    ("history", {"cmd": "history", "game_id": "g1"}, None),
    ("record", {"cmd": "record", "game_id": "g1"}, None),
    ("position", {"cmd": "position", "game_id": "g1"},
     {"cmd": "position", "game_id": "g1", "state": {"nonsense": 1}}),
    ("load", {"cmd": "load", "record": "$record"}, {"cmd": "load", "record": "{not json"}),
    ("go", {"cmd": "go", "game_id": "g1", "bot": "mcts", "iterations": 200, "seed": 3},
     {"cmd": "go", "game_id": "g1", "bot": "mcts", "iterations": -5}),
    ("analyse", {"cmd": "analyse", "game_id": "g1", "level": 2},
     {"cmd": "analyse", "game_id": "g1", "level": 2, "iterations": 100}),
    ("solve", {"cmd": "solve", "game_id": "g1", "seconds": 2},
     {"cmd": "solve", "game_id": "g1", "options": {"no_such_option": 1}}),
    ("review", {"cmd": "review", "game_id": "g1", "seat": 0, "iterations": 100, "seed": 1},
     {"cmd": "review", "game_id": "g1", "seat": 9}),
    ("stop", {"cmd": "stop"}, None),
    ("join", {"cmd": "join", "token": "$token"}, {"cmd": "join", "token": "not-a-token"}),
    ("close", {"cmd": "close", "game_id": "g2"}, {"cmd": "close", "game_id": "g2"}),
    ("quit", {"cmd": "quit"}, None),
]

#: Commands whose reply comes from a worker thread, after the search.
ASYNC = ("go", "analyse", "solve", "review")


def _shorten(value: Any, depth: int = 0) -> Any:
    """A reply cut to what a page can show: long lists and deep objects elided with "..."."""
    if isinstance(value, dict):
        if depth >= 3:
            return "..."
        return {k: _shorten(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        items = [_shorten(v, depth + 1) for v in value[:4]]
        return items + ["..."] if len(value) > 4 else items
    if isinstance(value, str) and len(value) > 160:
        return value[:160] + "..."
    return value


def protocol_examples() -> Dict[str, Dict[str, Any]]:
    """Run every example in one session: ``{cmd: {"request", "reply"[, "bad", "bad_reply"]}}``."""
    from aiplay.protocol.server import Server, ServerLimits

    lines: List[Dict[str, Any]] = []
    lock = threading.Lock()

    def emit(obj: Dict[str, Any]) -> None:
        with lock:
            lines.append(obj)

    limits = ServerLimits()
    server = Server(emit, limits)
    # Another connection opens a table of two people, so that `join` has a seat's token to show.
    host: List[Dict[str, Any]] = []
    other = Server(host.append, limits)
    other.handle_line(json.dumps({"cmd": "new", **EXAMPLE_GAME, "viewer": 0, "seats": {"0": "human", "1": "human"}}))
    fill: Dict[str, Any] = {"token": host[-1]["tokens"]["1"]}
    number = 0

    def send(request: Dict[str, Any]) -> Dict[str, Any]:
        nonlocal number
        number += 1
        request = {"id": number, **{k: fill[v[1:]] if isinstance(v, str) and v.startswith("$") else v
                                     for k, v in request.items()}}
        server.handle_line(json.dumps(request))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with lock:
                final = [o for o in lines if o.get("id") == number and o.get("type") in ("reply", "bestmove")]
            if final:
                return {"request": request, "reply": final[0]}
            time.sleep(0.01)
        raise RuntimeError(f"no reply to {request} within 60 s")

    results: Dict[str, Dict[str, Any]] = {}
    try:
        for cmd, good, bad in EXAMPLES:
            if cmd == "apply":
                fill["first_legal"] = send({"cmd": "legal", "game_id": "g1"})["reply"]["actions"][0]["name"]
            if cmd == "load":
                fill["record"] = results["record"]["reply"]["record"]
            entry = send(good)
            if bad is not None:
                refused = send(bad)
                if refused["reply"].get("ok") is not False:
                    raise RuntimeError(f"the refused example of {cmd!r} was accepted: {refused}")
                entry["bad"], entry["bad_reply"] = refused["request"], refused["reply"]
            results[cmd] = entry
    finally:
        server.shutdown()
        other.shutdown()
    return results


#: The specification's sections that the command texts refer to ("see Seats above").
SPEC_ANCHORS = {"Seats": "seats-what-a-client-is-told", "Rights": "rights-what-a-client-may-do",
                "Tables": "tables-people-and-bots-at-one-game", "Turns": "games-moves-and-seats"}


def _json_block(obj: Any, indent: Optional[int] = None) -> str:
    return "```json\n" + json.dumps(_shorten(obj), ensure_ascii=False, indent=indent) + "\n```"


def protocol_pages() -> Dict[str, str]:
    """``{page path: markdown}``: one page per command."""
    sections = protocol_sections()
    examples = protocol_examples()
    pages: Dict[str, str] = {}
    for cmd in protocol_commands():
        spec = sections.get(cmd)
        if spec is None:
            raise RuntimeError(f"docs/protocol.md has no '### `{cmd}`' section for the command {cmd!r}")
        spec = re.sub(r"\bdocs/svg\.md\b", "[SVG pictures](../reference/svg.md)", spec)
        spec = spec.replace("`games/<game>/view.md`", "each game's view page ([Games](../games/index.md))")
        # "see Seats above": above is another page now.
        spec = re.sub(r"\b(Seats|Rights|Tables|Turns) above",
                      lambda m: f"[{m.group(1)}](index.md#{SPEC_ANCHORS[m.group(1)]}) in the specification", spec)
        example = examples.get(cmd)
        text = [f"# `{cmd}`", "", "*Part of the [protocol specification](index.md); framing, seats and",
                "rights, which every command follows, are described there.*", "", "## Request and reply", "",
                spec, ""]
        if example:
            text += ["## Example", "",
                     "One line sent to the engine (the server of `aiplay serve`, run when this site was built,",
                     "on a small game with chance, after the examples of the commands before it), and the",
                     "reply it really got, shortened (`\"...\"` marks what was cut).", "",
                     "Request:", "", _json_block(example["request"]), "",
                     "Reply:", "", _json_block(example["reply"], indent=2), ""]
        text += ["## Errors", "",
                 "A refused request gets `\"ok\": false`, an `error` text naming the problem and an",
                 "`error_type` naming an aiplay error, and changes nothing (see",
                 "[Errors](../reference/errors.md) for when each type is raised). A malformed request or a",
                 "missing or mistyped field is a `ProtocolError`."]
        if cmd in ASYNC:
            text += ["", "A request refused before its search starts gets an ordinary reply at once; a "
                         "search that fails once started ends with its final line and `\"ok\": false`."]
        if example and "bad" in example:
            text += ["", "For example, this request:", "", _json_block(example["bad"]), "",
                     "is answered:", "", _json_block(example["bad_reply"], indent=2)]
        pages[f"protocol/{cmd}.md"] = "\n".join(text) + "\n"
    return pages


# -- the command line -----------------------------------------------------------------------------

def _subcommands(parser: argparse.ArgumentParser) -> Dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_page() -> str:
    """Every command's ``--help``, as the installed parser prints it."""
    from aiplay.cli.main import build_parser

    # argparse wraps at the terminal's width ($COLUMNS): fix it, so every build prints the same page.
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = build_parser()
        helps = [("aiplay", parser.format_help())]
        helps += [(f"aiplay {name}", sub.format_help()) for name, sub in _subcommands(parser).items()]
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    text = ["# Command line", "", "Every `aiplay` command, with its `--help` exactly as this version prints it",
            "(generated when the site is built).", ""]
    for title, help_text in helps:
        text += [f"## `{title}`", "", "```text", help_text.rstrip(), "```", ""]
    return "\n".join(text)


# -- bot options ----------------------------------------------------------------------------------

#: What an option costs, in time or memory (the constructors' docstrings say what each does).
COSTS = {
    "iterations": "time grows linearly with it (one playout each)",
    "seconds": "about this much wall-clock time per move (the moves then depend on the machine)",
    "nodes": "time grows linearly with it (states stepped into)",
    "depth": "time grows exponentially with it (about the branching factor, chance included, per ply)",
    "workers": "that many threads and trees (native path): memory times N, more iterations per second on N cores",
    "max_nodes": "caps the tree's size, hence its memory (native path)",
    "reuse_tree": "keeps the tree between moves: memory held between calls, fewer iterations wasted",
    "rollout": "`policy` playouts call the game's policy at every move: slower than `random`, better informed",
    "rollout_cutoff": "shorter playouts (faster), scored by the static evaluation",
    "rollout_epsilon": "none",
    "leaf_playout": "each leaf plays up to k more policy moves: time per leaf grows linearly",
    "use_tt": "a transposition table: memory for speed",
    "pruning": "`star2` prunes most (fastest), `none` visits every chance branch",
    "chance_run": "bounds a run of chance nodes expanded in a row",
    "opponents": "`policy` opponents cost a policy call per tree move instead of a UCB pick",
    "level": "a level sets its own budget (higher levels search more)",
    "uct_c": "none (changes where the search looks, not how long)",
    "variant": "`mo` keeps one tree per seat: memory times the seats",
}


#: The options every bot shares, which the constructors' docstrings leave to the class docstring.
SHARED_DOCS = {
    "iterations": "budget: search iterations (playouts) per move",
    "seconds": "budget: seconds per move",
    "nodes": "budget: states stepped into per move",
    "depth": "budget: plies searched (chance nodes not counted), deepened iteratively",
    "seed": "an int, a `random.Random` (shared) or none (not reproducible)",
}


#: Options whose meaning differs for one kind (a bot that does not search, a level).
KIND_DOCS = {
    ("random", "iterations"): "accepted and ignored: it does not search",
    ("random", "seconds"): "accepted and ignored: it does not search",
    ("random", "nodes"): "accepted and ignored: it does not search",
    ("heuristic", "iterations"): "accepted and ignored: it does not search",
    ("heuristic", "seconds"): "accepted and ignored: it does not search",
    ("heuristic", "nodes"): "accepted and ignored: it does not search",
    ("level", "seconds"): "the top level only: a time budget instead of its iterations (not reproducible); "
                          "lower levels refuse it with an InvalidOptionError (a level is its own budget)",
    ("expectimax", "iterations"): "refused with an InvalidOptionError (expectimax has no iterations: "
                                  "give depth, nodes or seconds)",
}


def _clean(text: str) -> str:
    text = " ".join(text.split())
    text = re.sub(r":(?:class|meth|func|data|mod|attr):`~?([\w.]+)`", r"`\1`", text)
    return text.replace("``", "`").replace("|", "\\|")


def _option_doc(kind: str, factory: Any, name: str) -> str:
    """What option ``name`` does, from the bot's docstrings.

    First a definition in the class docstring (a line of ````name```` names, then an indented
    text), then the constructor's sentence that names it, then the shared meaning.
    """
    if (kind, name) in KIND_DOCS:
        return KIND_DOCS[(kind, name)]
    class_doc = inspect.getdoc(factory) or ""
    for match in re.finditer(r"^((?:``\w+``(?:, )?)+)\n((?:    .*\n?)+)", class_doc, flags=re.M):
        if f"``{name}``" in match.group(1):
            return _clean(match.group(2))
    doc = " ".join((inspect.getdoc(factory.__init__) or "").split())
    for sentence in re.split(r"(?<=[.;])\s+(?=[`A-Z])", doc):
        if f"``{name}``" in sentence:
            return _clean(sentence)
    return SHARED_DOCS.get(name, "")


def bot_options_page() -> str:
    """The table of every option of every bot kind, with its default and each game's preset."""
    import aiplay
    from aiplay.search import BOTS

    games = {name: aiplay.load(name) for name in aiplay.games_available(include_hidden=False)}
    text = ["# Bot options", "",
            "Every option of every bot kind, generated from the bots' constructors when the site is built.",
            "`make_bot(kind, game=game, ...)`, the command line and the protocol's `go` start from the",
            "game's presets (its `bot_presets`, shown per game below) and your options override them;",
            "`--plain` on the command line and `\"preset\": false` in the protocol leave them out.", ""]
    for kind, factory in BOTS.items():
        params = [p for p in inspect.signature(factory).parameters.values() if p.kind is p.KEYWORD_ONLY]
        text += [f"## `{kind}`", "", f"`{factory.__module__}.{factory.__qualname__}`: "
                 f"{(inspect.getdoc(factory) or '').splitlines()[0]}", "",
                 "| option | default | per-game preset | what it does | what it costs |",
                 "| --- | --- | --- | --- | --- |"]
        for p in params:
            presets = [f"{g}: `{game.bot_presets[kind][p.name]!r}`" for g, game in games.items()
                       if p.name in game.bot_presets.get(kind, {})]
            default = "none" if p.default is None else f"`{p.default!r}`"
            special = KIND_DOCS.get((kind, p.name), "")
            cost = "none" if special.startswith(("accepted", "refused")) else COSTS.get(p.name, "-")
            text.append(f"| `{p.name}` | {default} | {', '.join(presets) or '-'} | "
                        f"{_option_doc(kind, factory, p.name) or '-'} | {cost} |")
        text.append("")
    text += ["A budget left at none takes the bot's default budget (its class docstring in the",
             "[API reference](../api/search.md) gives it). `seed` makes a bot repeat itself: the same seed,",
             "position and budget give the same move (budgets in `seconds` and several `workers` excepted).", ""]
    return "\n".join(text)


# -- errors ---------------------------------------------------------------------------------------

#: Where each error typically comes from (the class docstrings say what it means).
RAISED_BY = {
    "AiplayError": "never itself: catch it to catch every error below",
    "IllegalActionError": "`state.apply_action`, `Match.apply`, the protocol's `apply`, a move typed at the terminal",
    "InvalidStateError": "`game.state_from_dict` / `state_from_json`, `aiplay.solve.load_position`, "
                         "`Match.from_json`, the protocol's `position` and `load`",
    "InvalidOptionError": "`aiplay.load(name, **options)`, every bot constructor and `make_bot`, `aiplay.solve`, "
                          "`aiplay.arena.run`, command-line options, the protocol's `new`, `go`, `solve`",
    "UnknownGameError": "`aiplay.load`, `Match(name)`, the command line, the protocol's `new`",
    "InvalidPlayerError": "any call that takes a seat (`information_state_string(p)`, `view(p)`, "
                          "`determinize(p, rng)`, tensors), the protocol's `viewer`",
    "NotDecisionNodeError": "`bot.choose` / `bot.analyse` at a chance node or at the end of the game",
    "BotBusyError": "a bot asked to search from a second thread while it searches",
    "DeterminizationError": "`state.determinize` (and so ISMCTS) on a hand-made position that contradicts itself",
    "SetupError": "`import aiplay` / `aiplay.load` from a checkout without the editable install",
    "UnsupportedError": "a feature a game does not provide (tensors without an encoding, a picture without svg.py)",
    "GameTooLongError": "`aiplay.arena` when a game passes its `max_moves`",
    "ProtocolError": "the protocol only: a malformed request, a missing or mistyped field, a refused right or cap",
}


def errors_page() -> str:
    """Every error type: what it also is (for ``except ValueError``), what it means, what raises it."""
    import aiplay
    import aiplay.errors
    from aiplay.protocol.wire import ProtocolError

    classes = [c for c in vars(aiplay.errors).values()
               if inspect.isclass(c) and issubclass(c, aiplay.errors.AiplayError)] + [ProtocolError]
    text = ["# Errors", "",
            "Every error that bad input causes (a malformed position, an unknown option, a seat that does not",
            "exist, an illegal move, a bot asked to move at a chance node) is an `aiplay.AiplayError`, raised",
            "with a message that names the problem, and leaves the state as it was. A frontend catches them",
            "all with one `except aiplay.AiplayError`. Each is also the built-in exception generic code",
            "expects (`ValueError` for bad values), so `except ValueError` keeps working.", "",
            "Over the protocol, the reply's `error_type` is the class name and `error` its message.", "",
            "| error | also a | what it means | raised by |", "| --- | --- | --- | --- |"]
    for cls in classes:
        bases = ", ".join(f"`{b.__name__}`" for b in cls.__bases__ if b.__name__ not in ("AiplayError",))
        doc = " ".join((inspect.getdoc(cls) or "").split())
        doc = re.sub(r":(?:class|meth|func|data):`~?([\w.]+)`", r"`\1`", doc).replace("``", "`")
        public = cls.__name__ in getattr(aiplay, "__all__", ())
        name = f"[`{cls.__name__}`](../api/aiplay.md#aiplay.{cls.__name__})" if public else f"`{cls.__name__}`"
        where = f"`{cls.__module__}`"
        text.append(f"| {name} | {bases or '-'} | {doc.replace('|', '/')} | "
                    f"{RAISED_BY.get(cls.__name__, '-')} (defined in {where}) |")
    text += ["", "## On the command line", "",
             "Every `aiplay` command prints an `AiplayError` as one line on standard error (`aiplay: error: ...`) and",
             "exits with status 2; Ctrl-C prints one line and exits with 130, after keeping what can be kept",
             "(an arena's results file, a solve's best answer so far); `--debug` shows full tracebacks.", ""]
    return "\n".join(text)


# -- what each seat may see -----------------------------------------------------------------------

def _private_fields(node: Any, path: str, out: List[Tuple[str, str, str]]) -> None:
    """Collect ``(path, who sees it, meaning)`` for every view field not shown to everyone."""
    from aiplay.views.schema import PUBLIC, Arr, Obj, Opt

    if isinstance(node, Obj):
        for f in node.fields:
            here = f"{path}.{f.name}" if path else f.name
            if f.visible != PUBLIC:
                out.append((here, f.visible, " ".join(f.doc.split())))
            _private_fields(f.node, here, out)
    elif isinstance(node, Arr):
        _private_fields(node.item, path + "[]", out)
    elif isinstance(node, Opt):
        _private_fields(node.node, path, out)


def seats_table() -> str:
    """Per game: whether it hides information, and each view field that not every seat sees."""
    import aiplay
    from aiplay.views.docs import schema_of

    lines: List[str] = []
    for name in aiplay.games_available(include_hidden=False):
        game = aiplay.load(name)
        hidden = not game.perfect_information
        lines += [f"### {game.title}", "",
                  f"`{name}`: " + ("**hidden information**: a client must open it for a seat (`viewer`)."
                                   if hidden else "perfect information: every seat sees the whole position."), ""]
        private: List[Tuple[str, str, str]] = []
        try:
            _private_fields(schema_of(name).root, "", private)
        except Exception as exc:  # a game without a schema: say so rather than hide it
            lines += [f"(No view schema: {exc}.)", ""]
            continue
        if private:
            lines += ["| view field | who sees it | what it is |", "| --- | --- | --- |"]
            lines += [f"| `{p}` | {who} | {doc.replace('|', '/')} |" for p, who, doc in private]
            lines.append("")
        lines += [f"Every field: [{game.title.split(' (')[0]}: view](../games/{name}/view.md).", ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Fill the generated parts of hand-written pages (a marker comment each)."""
    if "<!-- generated: seats -->" in markdown:
        markdown = markdown.replace("<!-- generated: seats -->", seats_table())
    return markdown


# -- games ----------------------------------------------------------------------------------------

def _game_folder(name: str) -> Path:
    """The folder of game ``name``: its rules module's package (a folder's name may differ from the game's)."""
    from aiplay.registry import game_entry

    module = importlib.import_module(game_entry(name).reference.__module__)
    return Path(module.__file__).resolve().parent


def game_pages() -> Tuple[Dict[str, str], List[Any]]:
    """Each listed game's pages, and their nav section."""
    import aiplay

    pages: Dict[str, str] = {}
    nav: List[Any] = [{"How to play": "games/index.md"}]
    index = ["# Games", "", "The games aiplay plays (`aiplay games`), each with how to play it, what its view tells",
             "each seat and its tensors. A game you add (the [author tutorial](../tutorials/author.md)) gets",
             "its pages here too.", "", "| game | title | how to play | view | tensors |",
             "| --- | --- | --- | --- | --- |"]
    for name in aiplay.games_available(include_hidden=False):
        folder = _game_folder(name)
        title = aiplay.load(name).title
        entries = []
        how = folder / "how_to_play.md"
        if how.exists():
            pages[f"games/{name}/how_to_play.md"] = _retarget(how.read_text(encoding="utf-8"))
        else:
            # The placeholder hook: a game whose folder gains how_to_play.md gets that page instead.
            pages[f"games/{name}/how_to_play.md"] = (
                f"# How to play {title}\n\n!!! note \"Not written yet\"\n    This page is built from "
                f"`games/{name}/how_to_play.md`, which this version does not have yet. Meanwhile: "
                f"`aiplay play {name} --human 0` and type `list` at your turn to see every legal move "
                f"by name.\n")
        entries.append({"How to play": f"games/{name}/how_to_play.md"})
        row = [f"[how to play]({name}/how_to_play.md)"]
        for stem, label in (("view", "View"), ("tensors", "Tensors")):
            path = folder / f"{stem}.md"
            if path.exists():
                pages[f"games/{name}/{stem}.md"] = _retarget(path.read_text(encoding="utf-8"))
                entries.append({label: f"games/{name}/{stem}.md"})
                row.append(f"[{stem}]({name}/{stem}.md)")
            else:
                row.append("-")
        nav.append({title.split(" (")[0].split(",")[0]: entries})
        index.append(f"| `{name}` | {title} | " + " | ".join(row) + " |")
    pages["games/index.md"] = "\n".join(index) + "\n"
    return pages, nav


def _retarget(text: str) -> str:
    """A game folder's page made ready for the site.

    Links written for the repository (``docs/x.md``) point at the site's pages, and the
    ``[]`` of field paths outside code spans (``hangars[][]``, "the items of a list") is
    escaped: Markdown would read ``[x][]`` as a reference link.
    """
    text = re.sub(r"\]\((?:\.\./)*docs/([a-z_]+)\.md", r"](../../reference/\1.md", text)
    parts = re.split(r"(`[^`\n]*`)", text)
    return "".join(part if part.startswith("`") else part.replace("[]", "\\[\\]") for part in parts)


# -- the hook -------------------------------------------------------------------------------------

def generated_pages() -> Tuple[Dict[str, str], Dict[str, List[Any]]]:
    """Every generated page (``{path: markdown}``) and the nav entries of the generated sections."""
    pages: Dict[str, str] = {}
    for source, target in COPIED.items():
        pages[target] = (ROOT / source).read_text(encoding="utf-8")
    pages["protocol/index.md"] = _protocol_index(pages["protocol/index.md"])
    pages.update(protocol_pages())
    pages["cli.md"] = cli_page()
    pages["reference/bot_options.md"] = bot_options_page()
    pages["reference/errors.md"] = errors_page()
    games, games_nav = game_pages()
    pages.update(games)
    protocol_nav: List[Any] = [{"Specification": "protocol/index.md"}]
    protocol_nav += [{f"{cmd}": f"protocol/{cmd}.md"} for cmd in protocol_commands()]
    return pages, {"Games": games_nav, "Protocol": protocol_nav}


def _protocol_index(text: str) -> str:
    text = re.sub(r"`docs/svg\.md`|docs/svg\.md", "[SVG pictures](../reference/svg.md)", text)
    commands = ", ".join(f"[`{cmd}`]({cmd}.md)" for cmd in protocol_commands())
    return text.replace("## Commands\n", f"## Commands\n\nEach command also has its own page: {commands}.\n", 1)


_PAGES: Dict[str, str] = {}


def on_config(config: Any) -> Any:
    """Make the generated pages and put their sections into the nav."""
    config["mdx_configs"].setdefault("pymdownx.snippets", {})["base_path"] = [str(ROOT)]
    pages, sections = generated_pages()
    _PAGES.clear()
    _PAGES.update(pages)
    nav = config["nav"]
    for entry in nav:
        for title, value in entry.items():
            if title in sections:
                entry[title] = sections[title]
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages to the site's files."""
    from mkdocs.structure.files import File

    for path, content in _PAGES.items():
        files.append(File.generated(config, path, content=content))
    return files


#: A Sphinx role as the docstrings write it, once Markdown has made its target a code span.
_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):<code>(~?)([\w.]+)(\(\))?</code>")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Docstrings are written for Sphinx-like readers; show their reST habits as the site's own.

    A role (``:class:`~aiplay.Match```) becomes code (``~`` keeps the last component only, as
    Sphinx does), and a paragraph ending in ``::`` ends in one colon.
    """
    html = _ROLE.sub(lambda m: f"<code>{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}"
                               f"{m.group(3) or ''}</code>", html)
    # reST's "the form::" before a literal block, which Markdown shows as a code block already.
    return html.replace("::</p>", ":</p>")
