"""Sunken City: raise a drowned city, hunt its treasures, and steer Neptune against the others."""

from .rules import CARDS, SunkenCityGame, SunkenCityState

__all__ = ["CARDS", "SunkenCityGame", "SunkenCityState"]
