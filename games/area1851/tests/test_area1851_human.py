"""A human seat at Area 1851 in the CLI: what each decision asks, gadgets named, own cards announced."""

from __future__ import annotations

import io

import aiplay
from aiplay.cli.human import HumanGame
from aiplay.search import make_bot


def _area1851_seat0_decisions(seeds=range(12)):
    """Seeded 2-player Area 1851 matches that favour building (so that paying, placing and delivering
    happen): yields each match stopped at seat 0's decisions."""
    import random as _random

    from aiplay.match import Match

    game = aiplay.load("area1851", players=2)
    for seed in seeds:
        rng = _random.Random(seed)
        match = Match(game, seed=_random.Random(seed))
        while not match.is_terminal():
            if match.state.is_chance_node():
                match.play_chance()
                continue
            if match.current_player() == 0:
                yield match
            legal = match.legal_moves()
            keen = [a for a, name in legal if name.startswith(("hand:", "die", "gadget", "activate"))]
            match.apply(rng.choice(keen) if keen and rng.random() < 0.8 else rng.choice(legal)[0])


def test_area1851_screen_says_what_each_decision_asks():
    from aiplay.views.text import render_state

    steps = set()
    forced = 0
    for match in _area1851_seat0_decisions():
        state = match.state
        view = state.view(0)
        text = render_state(state, 0, "text")
        step, ctx, me = view["decision"], view["internal"]["ctx"], view["seats"][0]
        steps.add(step)
        ask = text.splitlines()[3]  # after the banner, the events and the decks: what is asked
        assert ask and not ask.startswith("p0"), (step, text)
        if len(match.legal_moves()) == 1:
            forced += 1
        if step == "pay":
            assert f"{ctx['owed']} still owed" in ask
        if step == "deliver":
            for g, gadget in enumerate(me["gadgets"]):
                assert f"gadget {g} = {gadget['gadget']}" in ask
                assert f"    gadget {g}: {gadget['gadget']} [" in text
        if view["turn"] == 0:
            assert "dice not rolled yet" in text and "dice 1 1 1" not in text
        elif view["phase"] == "action":
            dice = " ".join(f"{d['value']}{'*' if d['used'] else ''}" for d in me["dice"])
            assert f"dice {dice}," in text
    # The walk met the decisions the issue names, and forced ones.
    assert {"place", "main", "pay", "deliver", "skip"} <= steps and forced > 0


def test_area1851_menu_and_log_name_the_gadget_behind_its_number():
    for match in _area1851_seat0_decisions():
        if match.state.view(0)["decision"] == "deliver" and match.state.view(0)["seats"][0]["gadgets"]:
            break
    else:
        raise AssertionError("no delivery of seat 0 in the seeded games")
    gadgets = match.state.view(0)["seats"][0]["gadgets"]
    moves = match.legal_moves()
    number = next(i for i, (_, name) in enumerate(moves, 1) if name == "gadget 0")
    out = io.StringIO()
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    table = HumanGame(match.game, bots, {0}, seed=4, stdin=io.StringIO(f"{number}\nquit\n"), stdout=out)
    table.match = match
    table.run()
    text = out.getvalue()
    assert f"{number:3d}. gadget 0  ({gadgets[0]['gadget']} [" in text  # the menu
    assert f"player 0 (you): gadget 0 ({gadgets[0]['gadget']} [" in text  # the move log


def _own_hand(state, seat):
    return dict(state.view(seat)["seats"][seat]["hand"])


def test_own_cards_leaving_the_hand_through_others_moves_are_announced(name="area1851", moves=60):
    """Cards that leave a human seat's hand (or come into it) by a move it did not make are named, once each."""
    game = aiplay.load(name)
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * moves), stdout=out)
    table.run()
    text = out.getvalue()
    expected = expected_in = 0
    state = game.new_initial_state()
    for move in table.match.history:
        before = _own_hand(state, 0)
        state.apply_action(move.action)
        after = _own_hand(state, 0)
        lost = any(before[k] > after.get(k, 0) for k in before)
        got = sum(max(0, after[k] - before.get(k, 0)) for k in after)
        if move.player != 0 and lost:
            expected += 1
        # A single card drawn at a chance move is named by the move itself; anything else is announced.
        if move.player != 0 and got and (move.player != aiplay.CHANCE or lost or got > 1):
            expected_in += 1
    assert text.count("left your hand") == expected
    assert text.count("came into your hand") == expected_in
    if name == "area1851":
        assert expected > 0  # the rotation passes cards on: the check above is not vacuous
