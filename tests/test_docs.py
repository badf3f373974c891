"""The documentation site (docs/, issue 42) stays true and complete.

* Every tutorial's code runs as written: a page's ```python blocks run in order in one fresh
  Python process (as a reader pastes them, one after another), in a temporary folder; its ```bash
  blocks in the repository root (set-up commands excepted: this environment already ran them); its ```js
  blocks that talk to ``aiplay serve`` run under Node against a real server (skipped only when
  Node, or for WebSocket the ``websockets`` package, is absent: optional dependencies). A block
  whose first line is ``# not run: <why>`` (or ``// not run: <why>``) is shown and not run.
* Every public name of ``aiplay``, ``aiplay.search`` and ``aiplay.arena`` (its ``__all__``) has
  an entry (``::: module.name``) on its API page, and each entry names a public name.
* Every protocol command has its section in docs/protocol.md, from which its page is made.
* With MkDocs installed (the ``docs`` extra), the site builds in strict mode; CI does the same
  in .ci/run.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import aiplay
import aiplay.arena
import aiplay.search

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "pages"
BIN = Path(sys.executable).parent
TUTORIALS = sorted((PAGES / "tutorials").glob("*.md")) + [PAGES / "index.md"]


def _hooks():
    spec = importlib.util.spec_from_file_location("aiplay_docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocks(page: Path, language: str):
    """The page's fenced blocks in ``language`` that are meant to run, in order.

    Blocks that include a file of the repository (``--8<--``, shown when the site is built) are
    that file, which its own tests check.
    """
    found = re.findall(rf"^```{language}\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    return [b for b in found if not re.match(r"(#|//) not run:", b.lstrip()) and "--8<--" not in b]


def test_every_tutorial_has_code_to_run():
    names = {p.stem for p in TUTORIALS}
    assert {"frontend", "player", "solver", "researcher", "author", "index"} <= names
    for page in TUTORIALS:
        assert blocks(page, "python") or blocks(page, "(?:bash|sh)"), f"{page.name} has no code that runs"


#: The optional packages a page's code needs (its extras, named on the page): without one the
#: page's test is skipped, as for any absent optional dependency.
NEEDS = {"researcher": ["pyspiel", "dask.distributed", "pettingzoo", "gymnasium"]}


def _require(page: Path) -> None:
    for module in NEEDS.get(page.stem, []):
        pytest.importorskip(module)


@pytest.mark.parametrize("page", [p for p in TUTORIALS if blocks(p, "python")], ids=lambda p: p.stem)
def test_python_blocks_of_the_page_run(page, tmp_path):
    _require(page)
    code = "\n\n".join(blocks(page, "python"))
    # The author tutorial's game folder, as its first (not run) block tells the reader to copy it.
    shutil.copytree(ROOT / "tests" / "fixtures" / "author_games" / "bluff_dice", tmp_path / "my_games" / "bluff_dice")
    env = {k: v for k, v in os.environ.items() if k != "AIPLAY_GAMES_PATH"}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                            timeout=600, env=env)
    assert result.returncode == 0, f"{page.name}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"


@pytest.mark.parametrize("page", [p for p in TUTORIALS if blocks(p, "bash")], ids=lambda p: p.stem)
def test_shell_blocks_of_the_page_run(page):
    """The commands as a reader types them in the repository root (the venv's ``aiplay`` first on PATH)."""
    for block in blocks(page, "bash"):
        if block.lstrip().startswith(("pip ", "python3 -m venv", "git clone")):
            continue  # the set-up itself: what this very test environment already did
        env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
        result = subprocess.run(["bash", "-eo", "pipefail", "-c", block], cwd=ROOT, capture_output=True,
                                text=True, timeout=600, env=env)
        assert result.returncode == 0, f"{page.name}: {block}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
        assert result.stdout.strip(), f"{page.name}: {block} printed nothing"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _js_blocks(kind: str):
    page = PAGES / "tutorials" / "frontend.md"
    found = [b for b in blocks(page, "js") if kind in b]
    assert len(found) == 1, f"the frontend tutorial must have one {kind} JavaScript example"
    return found[0]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (optional: the JS examples)")
def test_javascript_stdio_example_runs_against_aiplay_serve(tmp_path):
    script = tmp_path / "stdio_client.mjs"
    script.write_text(_js_blocks("spawn(") + "\nprocess.exit(0);\n")
    result = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, AIPLAY=str(BIN / "aiplay")))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "bot played" in result.stdout and "svg bytes" in result.stdout


def _node_websocket_flag():
    """Node 22+ has WebSocket built in; Node 20.10+ behind a flag; older: none."""
    probe = subprocess.run(["node", "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"])
    if probe.returncode == 0:
        return []
    probe = subprocess.run(["node", "--experimental-websocket", "-e",
                            "process.exit(typeof WebSocket === 'function' ? 0 : 1)"], capture_output=True)
    return ["--experimental-websocket"] if probe.returncode == 0 else None


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (optional: the JS examples)")
def test_javascript_websocket_example_runs_against_aiplay_serve(tmp_path):
    pytest.importorskip("websockets")
    flag = _node_websocket_flag()
    if flag is None:
        pytest.skip("this Node.js has no WebSocket (Node 20.10+ has it behind a flag, 22+ built in)")
    port = _free_port()
    server = subprocess.Popen([str(BIN / "aiplay"), "serve", "--websocket", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        code = _js_blocks("new WebSocket(").replace("ws://127.0.0.1:8765", f"ws://127.0.0.1:{port}")
        # The page's one DOM call, stubbed; the example closes its socket when done.
        prelude = "const board = {}; globalThis.document = { querySelector: () => board };\n"
        script = tmp_path / "ws_client.mjs"
        script.write_text(prelude + code + "\nsocket.onclose = () => process.exit(board.innerHTML ? 0 : 3);\n")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the server is up once its port answers
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        result = subprocess.run(["node", *flag, str(script)], capture_output=True, text=True, timeout=120)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert "bot played" in result.stdout


# -- the reference covers every public name and every command ------------------------------------

API_PAGES = {"aiplay": "aiplay.md", "aiplay.search": "search.md", "aiplay.arena": "arena.md"}


def _entries(page: str):
    return re.findall(r"^::: ([\w.]+)\s*$", (PAGES / "api" / page).read_text(encoding="utf-8"), flags=re.M)


@pytest.mark.parametrize("module_name", sorted(API_PAGES))
def test_every_public_name_has_a_reference_entry(module_name):
    module = sys.modules[module_name]
    documented = {entry[len(module_name) + 1:] for entry in _entries(API_PAGES[module_name])
                  if entry.startswith(module_name + ".") and "." not in entry[len(module_name) + 1:]}
    missing = sorted(set(module.__all__) - documented)
    assert not missing, f"public names of {module_name} without a '::: {module_name}.NAME' entry: {missing}"
    unknown = sorted(documented - set(module.__all__))
    assert not unknown, f"{API_PAGES[module_name]} documents names that {module_name}.__all__ lacks: {unknown}"


def test_every_protocol_command_has_a_page():
    hooks = _hooks()
    commands = hooks.protocol_commands()
    assert "hello" in commands and "go" in commands
    sections = hooks.protocol_sections()
    missing = [cmd for cmd in commands if cmd not in sections]
    assert not missing, f"docs/protocol.md has no '### `cmd`' section (the source of its page) for {missing}"
    examples = {cmd for cmd, _, _ in hooks.EXAMPLES}
    assert set(commands) <= examples, f"commands without an example on their page: {set(commands) - examples}"


def test_protocol_pages_are_generated_for_every_command():
    """The pages themselves, with a request that really ran and each refused example refused."""
    hooks = _hooks()
    pages = hooks.protocol_pages()
    for cmd in hooks.protocol_commands():
        text = pages[f"protocol/{cmd}.md"]
        assert text.startswith(f"# `{cmd}`")
        assert "## Request and reply" in text and "## Errors" in text and "## Example" in text
    assert '"ok": false' in pages["protocol/apply.md"]


def test_cli_page_has_every_command():
    hooks = _hooks()
    page = hooks.cli_page()
    from aiplay.cli.main import build_parser
    for name in hooks._subcommands(build_parser()):
        assert f"## `aiplay {name}`" in page
    assert "usage: aiplay play" in page


def test_bot_options_table_has_every_option_of_every_kind():
    import inspect
    hooks = _hooks()
    page = hooks.bot_options_page()
    for kind, factory in aiplay.search.BOTS.items():
        section = page.split(f"## `{kind}`", 1)[1].split("\n## ", 1)[0]
        for name, p in inspect.signature(factory).parameters.items():
            if p.kind is p.KEYWORD_ONLY:
                assert f"| `{name}` |" in section, f"{kind}: option {name} missing"


def test_every_game_has_its_pages():
    hooks = _hooks()
    pages, nav = hooks.game_pages()
    for name in aiplay.games_available(include_hidden=False):
        assert f"games/{name}/how_to_play.md" in pages
        assert f"games/{name}/view.md" in pages


def test_aiplay_help_points_to_the_site():
    result = subprocess.run([str(BIN / "aiplay"), "--help"], capture_output=True, text=True, timeout=120)
    assert "docs/mkdocs.yml" in result.stdout


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("material")
    result = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "-f", str(ROOT / "docs" / "mkdocs.yml"),
                             "-d", str(tmp_path / "site")], capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert result.returncode == 0, result.stderr[-4000:]
    for page in ("index.html", "api/aiplay.html", "protocol/go.html", "cli.html", "tutorials/frontend.html"):
        assert (tmp_path / "site" / page).exists(), page


def test_a_games_how_to_play_file_becomes_its_page(tmp_path, monkeypatch):
    """The hook for the "how to play" texts: the game folder's how_to_play.md, else a placeholder."""
    hooks = _hooks()
    name = aiplay.games_available(include_hidden=False)[0]
    real = hooks._game_folder(name)
    pages, _ = hooks.game_pages()
    assert "Not written yet" in pages[f"games/{name}/how_to_play.md"] or (real / "how_to_play.md").exists()
    folder = tmp_path / name
    shutil.copytree(real, folder, ignore=shutil.ignore_patterns("*.so", "*.c", "tests", "playthroughs"))
    (folder / "how_to_play.md").write_text("# How to play\n\nRoll, then `hold[]` or see [SVG](../docs/svg.md).\n")
    original = hooks._game_folder  # the other games keep their folders
    monkeypatch.setattr(hooks, "_game_folder", lambda game: folder if game == name else original(game))
    pages, nav = hooks.game_pages()
    text = pages[f"games/{name}/how_to_play.md"]
    assert text.startswith("# How to play") and "Not written yet" not in text
    assert "`hold[]`" in text and "(../../reference/svg.md)" in text
