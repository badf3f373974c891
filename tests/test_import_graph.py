"""The import layout rules: of the whole package, and inside a game folder (docs/adding_a_game.md, "Layout").

The whole package (issue 36): the modules of ``aiplay`` -- the files under
``aiplay/``, the compiled extension's sources ``src_ext/*.pyx`` (as
``aiplay._ext.<name>``) and every game folder's modules and ``kernel.pyx`` (as
``aiplay.games.<game>.<name>``) -- import each other without a cycle, and no
module imports an ``aiplay`` module inside a function (late) unless it is an
optional-extension guard of :data:`LATE_IMPORTS_ALLOWED`.

The modules of one game package import each other as a tree (strictly: a
directed acyclic graph), from the component data at the bottom to the rules
and ``__init__`` at the top, and every such import stands at module level, so
that no module dodges a cycle by importing late (inside a function or at its
bottom). The graph is read from the source with :mod:`ast`, so imports under
``if TYPE_CHECKING:`` count too: a cycle that only type hints close is still a
cycle for a reader.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

import networkx as nx
import pytest

from aiplay.registry import game_entries

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
GAME_FOLDERS = sorted(p for p in GAMES_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def _sibling_imports(package: Path, module: Path) -> List[Tuple[str, int, bool]]:
    """(sibling module, line, at module level) for each import of a module of ``package``."""
    siblings = {p.stem for p in package.glob("*.py")}
    tree = ast.parse(module.read_text(), filename=str(module))
    top_level = {id(node) for node in tree.body}
    # An import is "early" when it is a top-level statement before the first def/class, or sits
    # in a top-level ``if``/``try`` (TYPE_CHECKING, optional dependencies) before them.
    first_def = next((node.lineno for node in tree.body
                      if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))), 10**9)
    early_blocks = {id(sub) for node in tree.body if isinstance(node, (ast.If, ast.Try)) and node.lineno < first_def
                    for sub in ast.walk(node)}
    found: List[Tuple[str, int, bool]] = []
    dotted = f"aiplay.games.{package.name}"
    for node in ast.walk(tree):
        targets: List[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:  # from . import x / from .x import y
                targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            elif node.level == 0 and node.module and node.module.startswith(dotted):
                rest = node.module[len(dotted):].lstrip(".")
                targets = [rest.split(".")[0]] if rest else [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name[len(dotted) + 1:].split(".")[0] for a in node.names if a.name.startswith(dotted + ".")]
        for target in targets:
            if target in siblings and target != module.stem:
                early = (id(node) in top_level and node.lineno < first_def) or id(node) in early_blocks
                found.append((target, node.lineno, early))
    return found


def import_graph(package: Path) -> Tuple["nx.DiGraph[str]", List[str]]:
    """The package's internal import graph (edge a -> b: a imports b) and the late imports."""
    graph: "nx.DiGraph[str]" = nx.DiGraph()
    late: List[str] = []
    for module in sorted(package.glob("*.py")):
        graph.add_node(module.stem)
        for target, line, early in _sibling_imports(package, module):
            graph.add_edge(module.stem, target)
            if not early:
                late.append(f"{package.name}/{module.name}:{line} imports .{target} late")
    return graph, late


@pytest.mark.parametrize("package", GAME_FOLDERS, ids=[p.name for p in GAME_FOLDERS])
def test_game_package_imports_form_a_tree(package: Path) -> None:
    graph, late = import_graph(package)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import cycles in games/{package.name}: " + "; ".join(
        " -> ".join(c + [c[0]]) for c in cycles)
    assert not late, "imports placed late to dodge a cycle (move them to the top):\n" + "\n".join(late)
    if "__init__" in graph and len(graph) > 1:
        # __init__ is the top: nothing inside the package imports it.
        assert graph.in_degree("__init__") == 0, f"games/{package.name}: a module imports the package's __init__"


def test_the_check_sees_a_cycle(tmp_path: Path) -> None:
    """The graph reader is not blind: a two-module cycle and a late import are found."""
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("from .rules import Rules\n")
    (package / "rules.py").write_text("from . import render\n\nclass Rules:\n    pass\n")
    (package / "render.py").write_text("def show():\n    from .rules import Rules\n    return Rules\n")
    graph, late = import_graph(package)
    assert list(nx.simple_cycles(graph)) in (  # one cycle, named from either end
        [["rules", "render"]], [["render", "rules"]])
    assert late == ["toy/render.py:2 imports .rules late"]


def test_every_game_folder_is_checked() -> None:
    names: Set[str] = {p.name for p in GAME_FOLDERS}
    registered = {entry.folder.name for entry in game_entries(include_hidden=True) if entry.folder is not None}
    assert registered and registered <= names  # every registered game's folder, hidden ones too
    edges: Dict[str, int] = {p.name: import_graph(p)[0].number_of_edges() for p in GAME_FOLDERS}
    assert sorted(edges.values(), reverse=True)[:2] >= [5, 4], edges  # real graphs were read


# -- the whole package -------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent

#: Late (function-level) imports of aiplay modules that are allowed, as "module:imported": only guards
#: of the optional compiled extension may stand here, each with the reason. (Optional third-party
#: packages -- dask, matplotlib, websockets, torch, openspiel -- are not aiplay modules: not checked.)
LATE_IMPORTS_ALLOWED: Dict[str, str] = {}

_PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+(.+)|c?import\s+([\w., ]+))")


def package_sources(root: Path = ROOT) -> Dict[str, Path]:
    """``{dotted module name: source file}`` of the whole package under the checkout ``root``."""
    found: Dict[str, Path] = {}

    def add(dotted: str, path: Path) -> None:
        found[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = path

    for path in sorted((root / "aiplay").rglob("*.py")):
        add(".".join(path.relative_to(root).with_suffix("").parts), path)
    for path in sorted((root / "src_ext").glob("*.py")) + sorted((root / "src_ext").glob("*.pyx")):
        add(f"aiplay._ext.{path.stem}", path)
    games = root / "games"
    if (games / "__init__.py").exists():
        add("aiplay.games", games / "__init__.py")
    for folder in sorted(p for p in games.iterdir() if p.is_dir()) if games.is_dir() else []:
        for path in sorted(folder.glob("*.py")) + sorted(folder.glob("kernel.pyx")):
            add(f"aiplay.games.{folder.name}.{path.stem}", path)
    return found


def _imports(module: str, path: Path) -> List[Tuple[str, Tuple[str, ...], int, bool]]:
    """(imported module, names taken from it, line, late) for every import statement of the file."""
    is_package = path.stem == "__init__"
    found: List[Tuple[str, Tuple[str, ...], int, bool]] = []
    if path.suffix == ".pyx":  # Cython: read the import lines (a function body is indented: late)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = _PYX_IMPORT.match(line)
            if match is None:
                continue
            late = line[:1].isspace()
            if match.group(1):
                names = tuple(n.strip(" ()\\").split(" as ")[0] for n in match.group(2).split(","))
                found.append((match.group(1), tuple(n for n in names if n), number, late))
            else:
                for name in match.group(3).split(","):
                    found.append((name.strip().split(" as ")[0], (), number, late))
        return found
    tree = ast.parse(path.read_text(), filename=str(path))
    late_nodes = {id(sub) for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                  for sub in ast.walk(node) if sub is not node}
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, (), node.lineno, id(node) in late_nodes))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                target = ".".join(anchor + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, tuple(a.name for a in node.names), node.lineno, id(node) in late_nodes))
    return found


def _nearest(name: str, modules: Set[str]) -> Optional[str]:
    """``name``, or the closest package above it, that is a module of the graph."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def package_graph(root: Path = ROOT) -> Tuple["nx.DiGraph[str]", List[str]]:
    """The module graph of the whole package (edge a -> b: a imports b) and its late aiplay imports.

    ``import a.b.c`` is an edge to ``a.b.c`` only (Python runs the packages above it first, but a
    package's ``__init__`` importing its own submodules is normal, and counting those runs as
    edges would make every re-export a cycle). ``from a.b import c`` is an edge to ``a.b.c`` when
    that is a module, else to ``a.b`` (``c`` is a name defined in it).
    """
    sources = package_sources(root)
    modules = set(sources)
    graph: "nx.DiGraph[str]" = nx.DiGraph()
    late: List[str] = []
    for module, path in sources.items():
        graph.add_node(module)
        for target, names, line, is_late in _imports(module, path):
            if not (target == "aiplay" or target.startswith("aiplay.")):
                continue
            ends = []
            for name in names or ("",):
                sub = f"{target}.{name}" if name and name != "*" else ""
                ends.append(sub if sub in modules else _nearest(target, modules))
            for end in ends:
                if end is not None and end != module:
                    graph.add_edge(module, end)
            if is_late:
                key = f"{module}:{target}"
                if key not in LATE_IMPORTS_ALLOWED:
                    late.append(f"{path.relative_to(root)}:{line} imports {target} inside a function")
    return graph, late


def test_the_package_has_no_import_cycle() -> None:
    graph, _ = package_graph()
    cycles = sorted(nx.simple_cycles(graph), key=len)
    assert not cycles, f"{len(cycles)} import cycles, e.g.:\n" + "\n".join(
        " -> ".join(c + [c[0]]) for c in cycles[:20])


def test_no_late_import_of_an_aiplay_module() -> None:
    _, late = package_graph()
    assert not late, ("imports of aiplay modules inside functions (move them to the top; only guards of "
                      "the optional extension may be allowed, in LATE_IMPORTS_ALLOWED):\n" + "\n".join(late))


def test_the_package_graph_covers_everything() -> None:
    graph, _ = package_graph()
    for module in ("aiplay", "aiplay.game", "aiplay.registry", "aiplay.native", "aiplay.play", "aiplay._ext.kernel",
                   "aiplay._ext.mcts", "aiplay.views.tensors",
                   "aiplay.protocol.server", "aiplay.cli.main", "aiplay.arena.tournament", "aiplay.search.level"):
        assert module in graph, module
    packages = [entry.package for entry in game_entries(include_hidden=True)]
    for entry in game_entries(include_hidden=True):  # every game's package, and its kernel (a .pyx file)
        assert entry.package in graph, entry.package
        if entry.kernel_module is not None:
            assert entry.kernel_module in graph, entry.kernel_module
    assert graph.has_edge("aiplay._ext.mcts", "aiplay._ext.kernel")  # a cimport counts
    # a kernel's import of another module of its game (some kernels import their rules' tables)
    assert any(graph.has_edge(package + ".kernel", module) for package in packages
               for module in graph if module.startswith(package + ".") and module != package + ".kernel")
    assert graph.has_edge("aiplay.native", "aiplay._ext.kernel")  # an import in a guard counts
    assert not graph.has_edge("aiplay", "aiplay.cli.main")


def test_the_package_check_sees_a_planted_cycle(tmp_path: Path) -> None:
    """A cycle through a kernel and a late import planted in a toy checkout are both found."""
    (tmp_path / "aiplay" / "sub").mkdir(parents=True)
    (tmp_path / "src_ext").mkdir()
    (tmp_path / "games" / "toy").mkdir(parents=True)
    (tmp_path / "aiplay" / "__init__.py").write_text("from aiplay.sub import helper\n")  # re-export: no cycle
    (tmp_path / "aiplay" / "sub" / "__init__.py").write_text("")
    (tmp_path / "aiplay" / "sub" / "helper.py").write_text("import aiplay.game\n")
    (tmp_path / "aiplay" / "game.py").write_text("from aiplay import errors\n")
    (tmp_path / "aiplay" / "errors.py").write_text("def f():\n    from aiplay.game import x\n")
    (tmp_path / "src_ext" / "kernel.pyx").write_text("from aiplay.games.toy import rules\n")
    (tmp_path / "games" / "__init__.py").write_text("")
    (tmp_path / "games" / "toy" / "__init__.py").write_text("")
    (tmp_path / "games" / "toy" / "rules.py").write_text("from aiplay._ext.kernel import K\n")
    (tmp_path / "games" / "toy" / "kernel.pyx").write_text("from aiplay._ext.kernel cimport Kernel\n")
    graph, late = package_graph(tmp_path)
    cycles = {tuple(sorted(c)) for c in nx.simple_cycles(graph)}
    assert cycles == {("aiplay.errors", "aiplay.game"), ("aiplay._ext.kernel", "aiplay.games.toy.rules")}, cycles
    assert late == ["aiplay/errors.py:2 imports aiplay.game inside a function"]
    assert graph.has_edge("aiplay.games.toy.kernel", "aiplay._ext.kernel")
