"""Issue 37: a protocol client's rights. The seat is authority, not advice.

A client that opens a game as a seat (``"viewer": p``) is bound to it: it may apply moves only
at that seat's decisions, it cannot change its viewer per request, it cannot ask for a bot that
reads hidden state, and no error names what its seat may not see. Tables seat several
connections, each bound to its seat, with bots the server plays. Every reply about a game
carries one ``status`` object. The games are chosen by property (aiplay.testing.choose).
"""

from __future__ import annotations

import json
import queue
import random
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.protocol import Server, ServerLimits
from aiplay.search import make_bot
from aiplay.search.level import NUM_LEVELS
from aiplay.testing.choose import pick_variant, variants_with

HIDDEN = variants_with(perfect_information=False)
#: A short hidden-information game for three (a table of two people and a bot).
TABLE_GAME, TABLE_OPTIONS = pick_variant(perfect_information=False, short=True, players=3)
#: A short perfect-information game (searches at the top level are quick there).
OPEN_GAME, OPEN_OPTIONS = pick_variant(perfect_information=True, short=True)


class Client:
    """A protocol client on a :class:`Server` (one connection), reading replies and events."""

    def __init__(self, limits: Optional[ServerLimits] = None, trusted: bool = True):
        self.lines: "queue.Queue[Dict[str, Any]]" = queue.Queue()
        self.events: List[Dict[str, Any]] = []
        self.server = Server(self._emit, limits, trusted=trusted)
        self.next = 0

    def _emit(self, obj: Dict[str, Any]) -> None:
        if obj.get("type") == "event":
            self.events.append(obj)
        else:
            self.lines.put(obj)

    def raw(self, request: Dict[str, Any]) -> str:
        """The final reply's JSON text (for byte comparisons)."""
        return json.dumps(self.ask(**request), sort_keys=True)

    def ask(self, cmd: str, timeout: float = 120, **fields: Any) -> Dict[str, Any]:
        self.next += 1
        request_id = f"r{self.next}"
        self.server.handle_line(json.dumps({"id": request_id, "cmd": cmd, **fields}))
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line.get("type") != "info" and line.get("id") == request_id:
                return line

    def ok(self, cmd: str, **fields: Any) -> Dict[str, Any]:
        reply = self.ask(cmd, **fields)
        assert reply["ok"], reply
        return reply

    def refused(self, cmd: str, **fields: Any) -> Dict[str, Any]:
        reply = self.ask(cmd, **fields)
        assert reply["ok"] is False and reply["error_type"], reply
        return reply

    def close(self) -> None:
        self.server.shutdown()


def _states(game: aiplay.Game, seed: int, plies: int = 200):
    """The positions of one seeded random game, in order."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and plies > 0:
        yield state
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            state = _after(state, rng.choices(actions, weights)[0])
        else:
            state = _after(state, rng.choice(state.legal_actions()))
        plies -= 1


def _after(state: aiplay.State, action: int) -> aiplay.State:
    nxt = state.clone()
    nxt.apply_action(action)
    return nxt


def _twins(chance: bool) -> Tuple[str, Dict[str, Any], int, aiplay.State, aiplay.State]:
    """A game and two positions seat ``p`` cannot tell apart where the node to play (another seat's
    decision, or a chance node when ``chance``) offers different moves: a text naming them would differ."""
    for name, options in HIDDEN:
        game = aiplay.load(name, backend="reference", **options)
        for seed in range(6):
            for state in _states(game, seed):
                player = state.current_player()
                if chance != state.is_chance_node() or (not chance and player < 0):
                    continue
                rng = random.Random(seed)
                for viewer in range(game.num_players):
                    if viewer == player:
                        continue
                    for _ in range(4):
                        twin = state.determinize(viewer, rng)
                        if (twin.information_state_key(viewer) == state.information_state_key(viewer)
                                and sorted(twin.legal_actions()) != sorted(state.legal_actions())):
                            return name, options, viewer, state, twin
    pytest.skip("no registered game has such twins")


def _open(client: Client, name: str, options: Dict[str, Any], state: aiplay.State, viewer: int) -> str:
    return client.ok("new", game=name, options=options, backend="reference", viewer=viewer,
                     state=json.loads(state.to_json()))["game_id"]


@pytest.mark.parametrize("chance", [False, True], ids=["decision", "chance"])
def test_errors_at_a_node_the_seat_does_not_play_are_the_same_for_twins(chance):
    name, options, viewer, a, b = _twins(chance)
    texts = []
    for state in (a, b):
        client = Client()
        gid = _open(client, name, options, state, viewer)
        replies = [client.raw({"cmd": "apply", "game_id": gid, "action": bogus})
                   for bogus in ("no such move", 10 ** 6, state.legal_actions()[0], "chance")]
        replies.append(client.raw({"cmd": "legal", "game_id": gid}))
        texts.append(replies)
        client.close()
    assert texts[0] == texts[1]
    error = json.loads(texts[0][0])["error"]
    if chance:
        assert "chance node" in error
    else:
        assert error == f"it is not your turn: player {a.current_player()} is to move"


def _own_twins() -> Tuple[str, Dict[str, Any], aiplay.State, aiplay.State]:
    """Two positions the seat to move cannot tell apart, whose hidden parts differ."""
    for name, options in HIDDEN:
        game = aiplay.load(name, backend="reference", **options)
        for seed in range(4):
            rng = random.Random(seed)
            for state in _states(game, seed):
                player = state.current_player()
                if player < 0:
                    continue
                twin = state.determinize(player, rng)
                if (twin.information_state_key(player) == state.information_state_key(player)
                        and twin.to_json() != state.to_json()):
                    return name, options, state, twin
    pytest.skip("no registered game has such twins")


def test_an_illegal_move_at_your_own_decision_lists_only_your_moves():
    name, options, a, b = _own_twins()
    seat = a.current_player()
    texts = []
    for state in (a, b):
        client = Client()
        gid = _open(client, name, options, state, seat)
        error = client.refused("apply", game_id=gid, action="no such move")["error"]
        for action in state.legal_actions():
            assert state.action_to_string(action) in error or str(action) in error
        texts.append(error)
        client.close()
    # The seat's own options are what it may see: the same in the twins, and so is the text.
    assert texts[0] == texts[1]


def test_a_bound_client_cannot_run_a_legality_oracle():
    """Trying each id at another seat's decision and undoing the accepted ones reads nothing."""
    name, options, viewer, state, _ = _twins(False)
    client = Client()
    gid = _open(client, name, options, state, viewer)
    before = client.ok("status", game_id=gid)["status"]
    errors = set()
    for action in range(state.game.num_distinct_actions):
        reply = client.refused("apply", game_id=gid, action=action)
        errors.add(reply["error"])
    assert errors == {f"it is not your turn: player {state.current_player()} is to move"}
    assert client.ok("status", game_id=gid)["status"] == before  # nothing was played
    assert client.ok("legal", game_id=gid)["actions"] == []
    # A trusted referee that says so may act for every seat (stdio's tests, a real table's feed).
    gid2 = client.ok("new", game=name, options=options, backend="reference", viewer=viewer, act_for="all",
                     state=json.loads(state.to_json()))["game_id"]
    assert client.ok("apply", game_id=gid2, action=state.legal_actions()[0])["status"]["ply"] == 1
    client.close()


def test_an_untrusted_client_acts_only_for_its_seat():
    name, options, viewer, state, _ = _twins(False)
    client = Client(trusted=False)
    assert client.ok("hello")["trusted"] is False
    refused = client.refused("new", game=name, options=options, viewer="all")
    assert "--trust-clients" in refused["error"]
    refused = client.refused("new", game=name, options=options, viewer=viewer, act_for=[state.current_player()])
    assert refused["error_type"] == "ProtocolError"
    client.close()


@pytest.mark.parametrize("cmd", ["go", "analyse"])
def test_omniscient_bots_and_viewer_all_are_refused_for_a_seat(cmd):
    name, options, viewer, state, _ = _twins(False)
    seat = state.current_player()
    client = Client()
    gid = _open(client, name, options, state, seat)  # the client's own decision: a hint
    for request in ({"bot": "mcts", "options": {"allow_hidden_information": True}, "iterations": 20},
                    {"bot": "ismcts", "options": {"allow_hidden_information": True}, "iterations": 20},
                    {"bot": "expectimax", "options": {"allow_hidden_information": True}, "depth": 1}):
        reply = client.refused(cmd, game_id=gid, **request)
        assert reply["type"] == "reply" and "true position" in reply["error"], reply
    for request_cmd in ("history", "record", "legal", "view", cmd):
        extra = {"iterations": 20, "bot": "ismcts"} if request_cmd == cmd else {}
        reply = client.refused(request_cmd, game_id=gid, viewer="all", **extra)
        assert "cannot change its viewer" in reply["error"], reply
    # Its own seat's search without reading hidden state is a hint, complete.
    hint = client.ok(cmd, game_id=gid, bot="ismcts", iterations=20)
    assert {"value", "pv", "analysis"} <= set(hint)
    client.close()


def test_every_game_reply_carries_one_status_object_and_hidden_fields_are_absent():
    name, options, viewer, state, _ = _twins(False)
    client = Client()
    gid = _open(client, name, options, state, viewer)
    keys = None
    replies = [client.ok("status", game_id=gid), client.ok("legal", game_id=gid),
               client.ok("view", game_id=gid), client.ok("history", game_id=gid), client.ok("record", game_id=gid)]
    other = client.ok("go", game_id=gid, bot="ismcts", iterations=30)  # another seat's bot: private
    replies.append(other)
    for reply in replies:
        status = reply["status"]
        keys = keys or set(status)
        assert set(status) == keys, reply["cmd"]
        # The protocol-1 top-level copy of the status is the same object's fields.
        assert {k: reply[k] for k in status} == status, reply["cmd"]
    assert other["type"] == "bestmove"
    assert not {"value", "pv", "analysis"} & set(other), other
    client.close()


def test_a_bare_go_plays_the_top_level_and_a_level_refuses_a_budget():
    client = Client()
    hello = client.ok("hello")
    assert hello["level_budget"] is False
    gid = client.ok("new", game=OPEN_GAME, options=OPEN_OPTIONS, seed=2, auto_chance=True)["game_id"]
    best = client.ok("go", game_id=gid)
    assert best["analysis"]["bot"] == "level" and best["analysis"]["counters"]["level"] == NUM_LEVELS
    # With a budget and no bot: the game's strongest search at that budget.
    assert client.ok("go", game_id=gid, iterations=30)["analysis"]["bot"] in ("mcts", "ismcts")
    for request in ({"level": 3, "seconds": 0.5}, {"bot": "level", "iterations": 50},
                    {"bot": "level(level=2)", "iterations": 10}, {"level": 2, "options": {"seconds": 1}},
                    {"level": NUM_LEVELS, "nodes": 100}):
        refused = client.refused("go", game_id=gid, **request)
        assert refused["error_type"] == "InvalidOptionError" and "own budget" in refused["error"], refused
    # The top level takes seconds instead of its iterations ("think longer"), as hello says.
    assert hello["level_seconds"] == NUM_LEVELS
    timed = client.ok("go", game_id=gid, level=NUM_LEVELS, seconds=0.05)["analysis"]
    assert timed["bot"] == "level" and timed["counters"]["level"] == NUM_LEVELS
    client.close()
    with pytest.raises(InvalidOptionError, match="own budget"):
        make_bot("level", level=3, seconds=0.5)


# -- tables: people and bots at one game ------------------------------------------------------------------

def _wait(predicate, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


def test_two_people_and_a_bot_play_a_whole_game_at_one_table():
    limits = ServerLimits()
    alice, bob = Client(limits, trusted=False), Client(limits, trusted=False)
    seats = {"0": "human", "1": "human", "2": {"level": 1}}
    # A seed would let its chooser replay the deal: an untrusted client may not fix a table's.
    assert "secret seed" in alice.refused("new", game=TABLE_GAME, options=TABLE_OPTIONS, seed=5, seats=seats,
                                          viewer=0)["error"]
    new = alice.ok("new", game=TABLE_GAME, options=TABLE_OPTIONS, seats=seats, viewer=0)
    assert new["status"]["table_id"] and new["status"]["act_for"] == [0] and new["status"]["seats"] == seats
    tokens = new["tokens"]
    assert set(tokens) == {"0", "1"}
    assert alice.refused("join", token="not a token")["error_type"] == "ProtocolError"
    joined = bob.ok("join", token=tokens["1"])
    assert joined["seat"] == 1 and joined["status"]["viewer"] == 1
    people = {0: (alice, new["game_id"]), 1: (bob, joined["game_id"])}
    rng = random.Random(3)
    dropped = False
    for _ in range(400):
        status = alice.ok("status", game_id=people[0][1])["status"]
        if status["terminal"]:
            break
        if status["searching"] or status["to_move"] not in people:
            time.sleep(0.01)
            continue
        seat = status["to_move"]
        client, gid = people[seat]
        other_client, other_gid = people[1 - seat]
        # Not the other's turn: refused, naming nothing hidden.
        assert other_client.refused("apply", game_id=other_gid, action=0)["error"] == \
            f"it is not your turn: player {seat} is to move"
        # No taking back the other person's moves at this table.
        history = client.ok("history", game_id=gid)["moves"]
        theirs = [i for i, m in enumerate(history) if m["player"] == 1 - seat]
        if theirs and any(m["player"] not in (1 - seat, -1) for m in history[theirs[-1]:]):
            # Taking back one's own move would take back another seat's after it too: refused.
            assert "does not allow" in other_client.refused("undo", game_id=other_gid, seat=1 - seat)["error"]
        legal = client.ok("legal", game_id=gid)["actions"]
        client.ok("apply", game_id=gid, action=rng.choice(legal)["id"])
        if not dropped and seat == 0:
            # Bob drops; he rejoins with his token later and gets what he missed.
            dropped = True
            seen = len(bob.ok("history", game_id=people[1][1])["moves"])
            bob.close()
            _wait(lambda: not alice.ok("status", game_id=people[0][1])["status"]["searching"])
            bob = Client(limits, trusted=False)
            back = bob.ok("join", token=tokens["1"], since=seen)
            full = bob.ok("history", game_id=back["game_id"])["moves"]
            assert back["moves"] == full[seen:]
            people[1] = (bob, back["game_id"])
    else:
        raise AssertionError("the game did not end")
    match_moves = {}
    for seat, (client, gid) in people.items():
        _wait(lambda: client.ok("status", game_id=gid)["status"]["terminal"])
        match_moves[seat] = client.ok("history", game_id=gid)["moves"]
    # Each person saw the game as its seat sees it, and the events pushed told the same moves.
    for seat, (client, gid) in people.items():
        pushed = [m for e in client.events if e["event"] == "moves" and e["game_id"] == gid for m in e["moves"]]
        assert pushed and all(m in match_moves[seat] for m in pushed)
        assert all(e["status"]["viewer"] == seat for e in client.events if "status" in e)
    assert match_moves[0] != match_moves[1]  # their cards differ, so do their logs
    alice.close()
    bob.close()


def test_a_table_refuses_taking_back_another_persons_move_unless_it_allows_it():
    limits = ServerLimits()
    for allow in (False, True):
        alice, bob = Client(limits), Client(limits)
        seats = {"0": "human", "1": "human", "2": {"level": 1}}
        new = alice.ok("new", game=TABLE_GAME, options=TABLE_OPTIONS, seed=1, seats=seats, viewer=0,
                       allow_undo=allow)
        assert new["status"]["to_move"] == 0, "the first decision is seat 0's"
        bob_gid = bob.ok("join", token=new["tokens"]["1"])["game_id"]
        alice.ok("apply", game_id=new["game_id"], action=alice.ok("legal", game_id=new["game_id"])["actions"][0]["id"])
        bob.ok("apply", game_id=bob_gid, action=bob.ok("legal", game_id=bob_gid)["actions"][0]["id"])
        _wait(lambda: not alice.ok("status", game_id=new["game_id"])["status"]["searching"])
        reply = alice.ask("undo", game_id=new["game_id"], seat=0)
        if allow:
            assert reply["ok"] and reply["status"]["to_move"] == 0, reply
            # Bob is told what was taken back, as his seat sees it.
            _wait(lambda: any(e["event"] == "undo" for e in bob.events))
        else:
            assert not reply["ok"] and "does not allow" in reply["error"], reply
        alice.close()
        bob.close()


def test_a_tables_bot_takes_a_search_slot_and_waits_for_one():
    """``--max-searches`` bounds the tables' bots too: a bot to move waits while every slot is taken, and holds one
    while it searches (a client's ``go`` is then refused), so that memory and CPU stay within the server's options."""
    limits = ServerLimits(max_searches=1)
    referee, person = Client(limits), Client(limits, trusted=False)
    busy = referee.ok("new", game=OPEN_GAME, options=OPEN_OPTIONS)["game_id"]
    referee.server.handle_line(json.dumps({"id": "long", "cmd": "go", "game_id": busy, "bot": "mcts",
                                           "seconds": 60}))
    _wait(lambda: limits.running_searches() == 1)
    players = aiplay.load(TABLE_GAME, **TABLE_OPTIONS).num_players
    seats = {str(seat): {"level": 1} for seat in range(players)}
    seats["0"] = "human"
    new = person.ok("new", game=TABLE_GAME, options=TABLE_OPTIONS, seats=seats, viewer=0)
    gid = new["game_id"]
    rng = random.Random(1)
    while new["status"]["to_move"] == 0:  # play until a bot seat is to move
        legal = person.ok("legal", game_id=gid)["actions"]
        new = person.ok("apply", game_id=gid, action=rng.choice(legal)["id"])
    ply = len(person.ok("history", game_id=gid)["moves"])
    time.sleep(0.5)
    # The only slot is the referee's: the bot has not moved.
    assert len(person.ok("history", game_id=gid)["moves"]) == ply
    assert limits.running_searches() == 1
    referee.ok("stop", game_id=busy)
    _wait(lambda: len(person.ok("history", game_id=gid)["moves"]) > ply)
    referee.close()
    person.close()
    _wait(lambda: limits.running_searches() == 0)
