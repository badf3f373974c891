"""Tree reuse on the reference (Python) loops: the next search starts from the subtree it already grew.

With ``reuse_tree=True`` a reference MCTS or ISMCTS bot keeps its tree after a
search. Its next search, for the same seat of the same game, looks in that tree
for the position it now starts from and keeps the statistics below it. The rule
is the native loop's (``src_ext/mcts.pyx``):

* a node where the searching seat is to move carries that seat's
  information-state key, written when the node is made;
* the new root is the most visited node, the old root excepted, whose key is
  the seat's key now, in every tree of the search (MO-ISMCTS keeps one tree
  per player). Keys are always the *searching* seat's: re-rooting a rival's
  tree by the rival's own information would read that rival's hidden cards;
* a tree that has no such node is not reused at all (the search starts afresh).

Nodes are plain objects with ``children`` (and ISMCTS's ``chance_children``),
``visits`` and ``root_key``; this module only finds and counts them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Tuple

from aiplay.game import State


def _game_key(state: State) -> Tuple[str, str, str]:
    """Which game a tree belongs to: name, options and engine (a tree of another game is never reused)."""
    game = state.game
    return game.name, json.dumps(game.options, sort_keys=True), getattr(game, "backend", "reference")


def _subtree(root: Any) -> Iterator[Any]:
    """Every node under ``root`` (itself included), depth first, children in insertion order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(getattr(node, "chance_children", {}).values())))
        stack.extend(reversed(list(node.children.values())))


def find_reusable(root: Any, key: Any) -> Optional[Any]:
    """The most visited node below ``root`` whose ``root_key`` is ``key`` (the first such on ties), or None."""
    best = None
    for node in _subtree(root):
        if node is not root and node.root_key == key and (best is None or node.visits > best.visits):
            best = node
    return best


def mark_root_key(node: Any, state: State, player: int) -> None:
    """Write ``player``'s information-state key on a new ``node`` reached at ``state``, where ``player`` is to move."""
    if state.current_player() == player:
        node.root_key = state.information_state_key(player)


def count_nodes(roots: List[Any]) -> int:
    """The number of nodes in the trees under ``roots``."""
    return sum(1 for root in roots for _ in _subtree(root))


@dataclass
class KeptTrees:
    """The trees one bot keeps between searches: whose they are, and their roots (one per tree)."""

    game: Tuple[str, str, str]
    player: int
    roots: List[Any]

    @classmethod
    def of(cls, state: State, player: int, roots: List[Any]) -> "KeptTrees":
        return cls(_game_key(state), player, list(roots))

    def reusable_roots(self, state: State, player: int) -> Optional[List[Any]]:
        """The new roots for a search of ``player`` from ``state`` (the seat's key), or None to start afresh."""
        if self.player != player or self.game != _game_key(state):
            return None
        key = state.information_state_key(player)
        found = [find_reusable(root, key) for root in self.roots]
        return None if any(node is None for node in found) else found


__all__ = ["KeptTrees", "count_nodes", "find_reusable", "mark_root_key"]
