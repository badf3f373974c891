"""Area 51: collect alien artifacts, build bunkers and load them (2-6 players, hidden hands)."""

from .render import render
from .rules import Area51Game, Area51State

__all__ = ["Area51Game", "Area51State", "render"]
