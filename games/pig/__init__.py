"""Pig, as OpenSpiel defines it: a validation game for comparing values and speeds."""

from .rules import ROLL, STOP, PigGame, PigState

__all__ = ["PigGame", "PigState", "ROLL", "STOP"]
