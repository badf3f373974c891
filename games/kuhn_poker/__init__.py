"""Kuhn poker, as OpenSpiel defines it: a validation game for imperfect-information search."""

from .rules import BET, PASS, KuhnPokerGame, KuhnPokerState

__all__ = ["BET", "KuhnPokerGame", "KuhnPokerState", "PASS"]
