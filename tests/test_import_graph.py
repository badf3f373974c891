"""The import layout rule inside a game folder (docs/adding_a_game.md, "Layout").

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
from pathlib import Path
from typing import Dict, List, Set, Tuple

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
