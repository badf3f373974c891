"""One bot-specification syntax for play, arena and the protocol (issue 25): aiplay/search/spec.py."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import make_bot
from aiplay.protocol import Server
from aiplay.search.spec import BotSpec, parse_bot, parse_bots
from aiplay.testing.choose import cli_options, pick_variant

ROOT = Path(__file__).resolve().parent.parent


def test_the_forms_of_a_bot_specification(tmp_path: Path) -> None:
    assert parse_bot("mcts") == BotSpec("mcts", {})
    assert parse_bot("mcts(iterations=100, rollout=policy)") == BotSpec("mcts", {"iterations": 100,
                                                                                  "rollout": "policy"})
    assert parse_bot('{"kind": "ismcts", "iterations": 5, "presets": false}') == BotSpec("ismcts", {"iterations": 5},
                                                                                         False)
    config = tmp_path / "bot.json"
    config.write_text('{"kind": "random", "name": "r"}')
    assert parse_bot(f"@{config}") == BotSpec("random", {}, True, "r")
    with pytest.raises(InvalidOptionError, match="only on the command line"):
        parse_bot(f"@{config}", files=False)
    assert [s.kind for s in parse_bots("mcts(iterations=10,uct_c=2),random")] == ["mcts", "random"]
    with pytest.raises(InvalidOptionError):
        parse_bot("mcts(iterations)")


#: A short two-player game with chance (for MCTS), chosen from the registry by property.
GAME, OPTIONS = pick_variant(perfect_information=True, chance=True, short=True, players=2)


def test_play_accepts_the_arena_syntax() -> None:
    done = subprocess.run([sys.executable, "-m", "aiplay", "play", GAME, *cli_options(OPTIONS),
                           "--bots", "mcts(iterations=50),random",
                           "--seed", "1", "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "seats: 0=mcts, 1=random" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "aiplay", "play", GAME, *cli_options(OPTIONS), "--bots", "mcts(bogus=1)"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "unknown option 'bogus'" in bad.stderr


def test_the_protocol_go_accepts_the_same_syntax() -> None:
    replies = []
    server = Server(replies.append)

    def ask(request: dict) -> dict:
        server.handle_line(json.dumps(request))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            final = [r for r in list(replies) if r.get("id") == request["id"] and r.get("type") != "info"]
            if final:
                return final[0]
            time.sleep(0.01)
        raise AssertionError(f"no reply to {request}")

    ask({"id": 0, "cmd": "new", "game": GAME, "options": OPTIONS, "seed": 1})
    searched = ask({"id": 1, "cmd": "go", "bot": "mcts(iterations=40)", "seed": 2})
    refused = ask({"id": 2, "cmd": "go", "bot": "@/etc/passwd"})
    server.shutdown()
    assert searched["ok"] is True, searched
    assert searched["analysis"]["counters"]["iterations"] == 40
    assert refused["ok"] is False and "only on the command line" in refused["error"]


def test_a_null_rollout_cutoff_undoes_a_presets_cutoff() -> None:
    """``rollout_cutoff=null`` means "play to the end", also where the game's preset cuts playouts."""
    cut = [(name, kind) for name in aiplay.games_available()
           for kind, preset in aiplay.load(name).bot_presets.items() if preset.get("rollout_cutoff") is not None
           and kind in ("mcts", "ismcts")]
    assert cut, "some listed game's preset cuts its playouts"
    name, kind = cut[0]
    game = aiplay.load(name)
    preset = game.bot_presets[kind]["rollout_cutoff"]
    assert make_bot(kind, game=game, iterations=5).config.rollout.cutoff == preset
    assert make_bot(kind, game=game, iterations=5, rollout_cutoff=None).config.rollout.cutoff is None
    assert parse_bot(f"{kind}(rollout_cutoff=null)").make(game, seed=1).config.rollout.cutoff is None
    # Other options keep "None is not given": the preset holds.
    assert make_bot(kind, game=game, iterations=5, rollout=None).config.rollout.kind == \
        make_bot(kind, game=game, iterations=5).config.rollout.kind
