"""Leduc poker, as OpenSpiel defines it: a validation game for imperfect-information search."""

from .rules import CALL, FOLD, RAISE, LeducPokerGame, LeducPokerState

__all__ = ["CALL", "FOLD", "LeducPokerGame", "LeducPokerState", "RAISE"]
