"""Arenas: seeded round robins between bots, their ratings and their plot.

The round robin is :mod:`aiplay.arena.tournament` (re-exported here), the
Bradley-Terry fit :mod:`aiplay.arena.ratings`, the win-rate plot
:mod:`aiplay.arena.plot` (needs matplotlib). The ``aiplay arena`` and ``aiplay
replay`` commands are :mod:`aiplay.cli.arena`.
"""

from aiplay.arena.tournament import (
    BotSpec, GameRecord, MatchResult, bot_seed, chance_seed, parse_bot, parse_bots, play_game, play_task,
    read_results, replay_lines, run, run_match, schedule, wilson_interval,
)

__all__ = ["BotSpec", "GameRecord", "MatchResult", "parse_bot", "parse_bots", "play_game", "replay_lines", "run",
           "run_match", "wilson_interval"]
