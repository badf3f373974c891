"""A human seat at Groom Lake in the CLI: lives lost announced, own cards announced, the refresh stack named."""

from __future__ import annotations

import io

import aiplay
from aiplay.cli.human import HumanGame
from aiplay.search import make_bot


def test_lives_lost_are_announced_and_the_set_up_has_no_player_minus_one():
    import re

    game = aiplay.load("groom_lake")
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * 5000), stdout=out)
    start = [seat["life"] for seat in table.match.state.view(0)["seats"]]
    table.run()
    text = out.getvalue()
    assert "turn of player -1" not in text and "set-up, before the first turn" in text
    end = [seat["life"] for seat in table.match.state.view(0)["seats"]]
    announced = 0
    # Told by the narrator ("player 2 loses 1 life (now 4)"), or the old way with several human seats.
    for change, amount in re.findall(r"  ! (?:you|player \d) (lost|gained|loses|gains) (\d+) li", text):
        announced += int(amount) if change in ("lost", "loses") else -int(amount)
    assert sum(start) - sum(end) > 0  # a whole game loses lives: the test below is not vacuous
    assert announced == sum(start) - sum(end)


def _own_hand(state, seat):
    return dict(state.view(seat)["seats"][seat]["hand"])


def test_own_cards_leaving_the_hand_through_others_moves_are_announced(name="groom_lake", moves=400):
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


def test_groom_lake_status_names_the_cards_one_put_on_the_refresh_stack():
    from aiplay.views.text import render_state

    game = aiplay.load("groom_lake")
    bots = [make_bot("random", seed=s) for s in range(game.num_players)]
    out = io.StringIO()
    table = HumanGame(game, bots, {0}, seed=7, stdin=io.StringIO("1\n" * 60), stdout=out)
    table.run()
    text = out.getvalue()
    refreshed = [m.name.split(" ", 1)[1] for m in table.match.history if m.player == 0 and m.name.startswith("refresh ")]
    assert refreshed, "seat 0 refreshed no card in 60 moves"
    assert f"(yours: {refreshed[0]})" in text
    assert "hand limit: you hold" in text or "end of your turn: you took the top of the Discard Stack" in text
    # (What another seat's screen shows is checked between twin games by tests/test_seat_transcripts.py.)
