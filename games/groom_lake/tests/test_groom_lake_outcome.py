"""The end of a Groom Lake game as a seat reads it: why it ended, and only the scores the rules show.

When the Alien wins nobody compares Alien Proof, so no seat but the Alien's own learns its
score from the outcome, the protocol's final status or the terminal; when the Team escapes, the
living Humans and Hunter compare theirs (spec "End").
"""

from __future__ import annotations

import json
import random

import aiplay
from aiplay.protocol import Server
from aiplay.views.narrate import final_scores, outcome


def _finished(seed: int, players: int = 3) -> aiplay.State:
    state = aiplay.load("groom_lake", players=players).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _alien(state: aiplay.State) -> int:
    return next(s["seat"] for s in state.view(0)["seats"] if s["role"] == "Alien")


def test_an_alien_win_names_its_cause_and_hides_the_alien_proof_of_others():
    checked = 0
    for seed in range(12):
        state = _finished(seed)
        if state.view(0)["result"] != "alien_wins":
            continue
        alien = _alien(state)
        for seat in range(state.game.num_players):
            shown = final_scores(state, seat)
            assert shown[seat] == state.scores()[seat]  # one's own score, always
            assert all(shown[p] is None for p in range(len(shown)) if p != seat)
            told = outcome(state, seat)
            assert "The Alien won: " in told["text"] and "(the others died, it showed" not in told["text"]
            assert [s["score"] for s in told["seats"]] == shown
        assert final_scores(state, None) == state.scores()  # a referee sees them all
        checked += 1
        assert alien >= 0
    assert checked >= 3


def test_the_protocol_s_final_status_carries_the_seat_s_scores_only():
    state = next(s for s in (_finished(seed) for seed in range(12)) if s.view(0)["result"] == "alien_wins")
    alien = _alien(state)
    seat = (alien + 1) % state.game.num_players
    replies = []
    server = Server(replies.append, trusted=True)
    server.handle_line(json.dumps({"id": 1, "cmd": "new", "game": "groom_lake", "options": {"players": 3},
                                   "state": json.loads(state.to_json()), "viewer": seat}))
    reply = next(r for r in replies if r.get("id") == 1)
    assert reply["ok"], reply
    scores = reply["status"]["scores"]
    assert scores[seat] == state.scores()[seat] and scores[alien] is None
    assert reply["status"]["outcome"]["seats"][alien]["score"] is None
    server.shutdown()
