"""Issue 38's texts for a person: how to play, move meanings, narration, outcome, panel, chances in words;
and undo cannot fish for luck (Match and the protocol; the terminal's test is in test_cli_human.py)."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Dict, List

import pytest

import aiplay
from aiplay.errors import AiplayError
from aiplay.game import CHANCE
from aiplay.match import Match
from aiplay.protocol import Server
from aiplay.registry import game_entries
from aiplay.views.guide import how_to_play, legal_meanings, move_meaning
from aiplay.views.narrate import chance_lines, match_log, outcome, past_tense, turn_summary
from aiplay.views.panel import chances_in_words, view_panel

NAMES = [e.name for e in game_entries()]


def _random_match(name: str, seed: int, plies: int) -> Match:
    match = Match(name, seed=seed)
    rng = random.Random(seed)
    while not match.is_terminal() and match.ply < plies:
        if match.state.is_chance_node():
            match.play_chance()
        else:
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return match


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_how_to_play_text_and_every_move_a_meaning(name):
    text = how_to_play(name)
    assert text.startswith("# ") and "No guide is written" not in text, name
    match = _random_match(name, 1, 150)
    state = match.state
    if not state.is_terminal():
        seat = max(state.current_player(), 0)
        meanings = legal_meanings(state, seat)
        assert len(meanings) == len(state.legal_actions()) and all(meanings), name
        assert meanings[0] == move_meaning(state, state.legal_actions()[0], seat)


@pytest.mark.parametrize("name", NAMES)
def test_undo_and_replay_draws_the_same_chance_in_a_match(name):
    """At every decision followed by chance: undo it, play it again, the same outcomes come."""
    match = Match(name, seed=7)
    rng = random.Random(7)
    checked = 0
    dealt = [m.action for m in match.advance_chance()]  # the deal, before any decision
    if dealt:
        match.undo(len(dealt))
        assert [m.action for m in match.advance_chance()] == dealt, name
        checked += 1
    while not match.is_terminal() and match.ply < 300:
        if match.state.is_chance_node():
            match.play_chance()
            continue
        legal = match.state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        match.apply(action)
        drawn = [m.action for m in match.advance_chance()]
        if drawn:
            match.undo(1 + len(drawn))
            match.apply(action)
            again = [m.action for m in match.advance_chance()]
            assert again == drawn, f"{name} ply {match.ply}: {drawn} then {again} after an undo"
            checked += 1
    assert checked, f"{name}: no chance after a decision in 300 moves"


def test_undo_and_replay_draws_the_same_chance_in_the_protocol():
    for name in NAMES:
        replies: List[Dict[str, Any]] = []
        server = Server(replies.append)

        def ask(**request: Any) -> Dict[str, Any]:
            server.handle_line(json.dumps(request))
            assert replies[-1]["ok"], replies[-1]
            return replies[-1]

        dealt = ask(cmd="new", game=name, seed=4, auto_chance=True, viewer="all")["chance_moves"]
        rng = random.Random(4)
        checked = 0
        if dealt:
            ask(cmd="undo", count=len(dealt))
            assert ask(cmd="chance")["chance_moves"] == dealt, name
            checked += 1
        for _ in range(60):
            status = ask(cmd="status")
            if status["terminal"]:
                break
            actions = ask(cmd="legal")["actions"]
            action = actions[rng.randrange(len(actions))]["id"]
            drawn = ask(cmd="apply", action=action)["chance_moves"]
            if drawn:
                ask(cmd="undo", count=1 + len(drawn))
                again = ask(cmd="apply", action=action)["chance_moves"]
                assert again == drawn, name
                checked += 1
        server.shutdown()
        assert checked, name


def test_the_protocol_tells_log_summary_outcome_and_rules():
    replies: List[Dict[str, Any]] = []
    server = Server(replies.append)

    def ask(**request: Any) -> Dict[str, Any]:
        server.handle_line(json.dumps(request))
        return replies[-1]

    name = NAMES[0]
    assert ask(cmd="rules", game=name)["text"] == how_to_play(name)
    assert not ask(cmd="rules")["ok"]  # no game open, none named
    ask(cmd="new", game=name, seed=2, auto_chance=True, viewer=0)
    legal = ask(cmd="legal", meanings=True)
    status = legal["status"]
    assert isinstance(status["log"], list) and isinstance(status["summary"], list)
    if legal["actions"]:
        assert all(a["meaning"] for a in legal["actions"])
    assert ask(cmd="status")["status"]["log"] == []  # told once
    assert not ask(cmd="legal", meanings="yes")["ok"]
    panel = ask(cmd="view", panel=True)["panel"]
    assert panel and all(set(section) == {"title", "rows"} for section in panel)
    games = ask(cmd="hello")["games"]
    assert all({"min", "max", "default"} <= set(g["players"]) for g in games)
    server.shutdown()


def test_a_search_reply_says_the_chances_in_words():
    replies: List[Dict[str, Any]] = []
    server = Server(replies.append)
    name = next(n for n in NAMES if aiplay.load(n).perfect_information)
    server.handle_line(json.dumps({"cmd": "new", "game": name, "seed": 1, "auto_chance": True}))
    server.handle_line(json.dumps({"id": 2, "cmd": "analyse", "bot": "mcts", "iterations": 50}))
    server.shutdown()
    final = [r for r in replies if r.get("id") == 2 and r.get("type") != "info"][-1]
    assert final["ok"], final
    assert final["chances"] == chances_in_words(final["value"], aiplay.load(name))


@pytest.mark.parametrize("name", NAMES)
def test_outcome_names_the_winners_and_never_the_bots(name):
    match = _random_match(name, 3, 100_000)
    assert match.is_terminal()
    told = outcome(match.state, 0)
    returns = match.state.returns()
    best = max(returns)
    assert told["winners"] == [p for p, r in enumerate(returns) if r == best]
    assert "bots" not in told["text"]
    if not told["draw"]:
        assert all(f"player {p}" in told["text"].lower() for p in told["winners"])
    assert [s["result"] for s in told["seats"]].count("won") == (0 if told["draw"] else len(told["winners"]))
    lines = match_log(match, 0, 0)
    own = [m.name for m in match.history if m.player == 0]
    told = [line for line in lines if line.startswith(("player 0 ", "player 0: "))]
    worded = [n for n in own if past_tense(name, n) != ""]  # a block's start or end has no words of its own
    assert len(told) >= len(worded), (len(told), len(worded))


@pytest.mark.parametrize("name", NAMES)
def test_view_panel_is_grouped_labelled_text(name):
    match = _random_match(name, 5, 40)
    panel = view_panel(match.state, 0)
    assert panel and all(isinstance(s["title"], str) and s["rows"] for s in panel)
    for section in panel:
        for label, text in section["rows"]:
            assert isinstance(label, str) and isinstance(text, str)
            assert label != "internal" and "_" not in label


def test_chances_in_words_rise_with_the_value_and_refuse_junk():
    game = aiplay.load(NAMES[0])
    low, high = game.min_utility, game.max_utility
    words = [chances_in_words(low + (high - low) * k / 10, game) for k in range(11)]
    assert words[0] == "almost certain loss" and words[5] == "about even" and words[-1] == "almost certain win"
    for bad in (float("nan"), "0.5", None, True):
        with pytest.raises(AiplayError):
            chances_in_words(bad, game)


def test_turn_summary_counts_repeated_hidden_choices():
    name = NAMES[0]
    text = turn_summary(name, 1, ["a hidden choice"] * 8)
    assert text == "Player 1 made 8 hidden choices."


#: Engine words a person's log must not show: the "chance:" prefix, raw outcome or action ids, "p0".
DEVELOPER_WORDS = re.compile(r"^(chance:|outcome \d|action \d)|\bp\d+\b", re.I)


@pytest.mark.parametrize("name", NAMES)
def test_the_log_of_a_whole_game_reads_as_sentences(name):
    """No "chance:" prefix nor engine words in any seat's log of a whole game, and chance steps
    that came one after another are told in fewer lines than there were steps."""
    match = _random_match(name, 11, 100_000)
    for viewer in range(match.game.num_players):
        lines = match_log(match, 0, viewer)
        bad = [line for line in lines if DEVELOPER_WORDS.search(line)]
        assert not bad, f"{name} seat {viewer}: {bad[:3]}"
        assert all(line.strip() for line in lines)
    history = match.history_seen_by(0)
    runs = [[history[0].name]] if history and history[0].player == CHANCE else []
    for i in range(1, len(history)):
        if history[i].player == CHANCE:
            if history[i - 1].player == CHANCE and runs:
                runs[-1].append(history[i].name)
            else:
                runs.append([history[i].name])
    longest = max(runs, key=len, default=[])
    if len(longest) >= 4 and len(set(longest)) > 1:
        assert len(chance_lines(name, longest, 0)) < len(longest), (name, longest[:6])


def test_shares_name_only_what_the_viewer_reads():
    from aiplay.views.narrate import shares
    items = [(0, "Rope"), (1, None), (2, None), (0, "Water"), (1, None), (2, None), (3, None)]
    assert shares(items, 0, "was dealt", "were dealt") == [
        "You were dealt Rope and Water.", "Players 1 and 2 were dealt 2 cards each.", "Player 3 was dealt 1 card."]
    assert shares([(1, None)], None, "drew", "drew") == ["Player 1 drew 1 card."]


@pytest.mark.parametrize("name", NAMES)
def test_seat_note_speaks_to_its_seat(name):
    """A game's seat note (its own role and goal) speaks to the seat ("You are ..."); a bad seat is refused.
    That it never tells another seat's role: the twin tests compare the view panel, which shows it."""
    from aiplay.views.panel import seat_note
    match = _random_match(name, 2, 60)
    for seat in range(match.game.num_players):
        note = seat_note(match.state, seat)
        assert note is None or (note.startswith("You are") and "player" not in note.split(":")[0])
    with pytest.raises(AiplayError):
        seat_note(match.state, match.game.num_players)
