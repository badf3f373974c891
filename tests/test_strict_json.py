"""Strict JSON in and out (issue 27): the guarded loader, the reply encoder, the server-wide caps."""

from __future__ import annotations

import json
import math

import pytest

from aiplay import AiplayError, InvalidOptionError, InvalidStateError
from aiplay.jsonio import parse_json, read_json_file
from aiplay.protocol import ProtocolError, Server, ServerLimits, allowed_origins, encode_reply, origin_refusal
from aiplay.testing.choose import pick_game

#: A short game that opens with no field but its name (perfect information: no viewer needed).
GAME = pick_game(short=True, perfect_information=True)


def strict(text):
    def refuse(name):
        raise ValueError(name)
    return json.loads(text, parse_constant=refuse)


def test_a_reply_with_a_non_finite_number_is_sent_as_strict_json_with_null():
    reply = {"id": 1, "ok": True, "result": {"standard_error": [float("inf"), 0.5, float("nan")],
                                             "values": (1.0, -math.inf)}}
    assert strict(encode_reply(reply)) == {"id": 1, "ok": True,
                                           "result": {"standard_error": [None, 0.5, None], "values": [1.0, None]}}
    assert strict(encode_reply({"id": 2, "value": 0.25})) == {"id": 2, "value": 0.25}


@pytest.mark.parametrize("text, words", [
    ("[" * 5000 + "]" * 5000, "nested too deeply"), ('{"a": NaN}', "NaN"), ('{"a": -Infinity}', "-Infinity"),
    ('{"a": 1e400}', "out of range"), ('{"a": 1', "not valid JSON"), (b"\xff\xfe", "not valid JSON"),
])
def test_the_guarded_loader_refuses_what_is_not_strict_json(text, words):
    with pytest.raises(InvalidStateError, match=words):
        parse_json(text, lambda message: InvalidStateError("<document>", message))


def test_the_guarded_file_loader_names_the_file(tmp_path):
    path = tmp_path / "big.json"
    path.write_text('{"a": ' + "1" * 50 + "}")
    assert read_json_file(path, InvalidOptionError)["a"] == int("1" * 50)
    with pytest.raises(InvalidOptionError, match="too large"):
        read_json_file(path, InvalidOptionError, max_bytes=10)
    with pytest.raises(InvalidOptionError, match="cannot read"):
        read_json_file(tmp_path / "missing.json", InvalidOptionError)


def test_the_server_limits_validate_their_caps():
    ServerLimits(1, 1, 1)
    ServerLimits(100_000, 100_000, 100_000)
    for bad in ({"max_games": 0}, {"max_searches": 100_001}, {"max_connections": True}, {"max_games": "2"}):
        with pytest.raises(InvalidOptionError):
            ServerLimits(**bad)


def test_games_are_counted_over_every_client_of_one_server():
    limits = ServerLimits(max_games=2)
    replies = []
    a, b = Server(replies.append, limits), Server(replies.append, limits)
    a.handle_line(json.dumps({"id": 1, "cmd": "new", "game": GAME}))
    b.handle_line(json.dumps({"id": 2, "cmd": "new", "game": GAME}))
    b.handle_line(json.dumps({"id": 3, "cmd": "new", "game": GAME}))
    assert [r["ok"] for r in replies] == [True, True, False]
    assert replies[2]["error_type"] == "ProtocolError" and "too many open games" in replies[2]["error"]
    a.shutdown()  # a client that leaves frees its games
    b.handle_line(json.dumps({"id": 4, "cmd": "new", "game": GAME}))
    assert replies[-1]["ok"]
    assert issubclass(ProtocolError, AiplayError)


def test_the_origin_policy():
    own = allowed_origins("127.0.0.1", 8765)
    assert "http://127.0.0.1:8765" in own and "http://localhost:8765" in own
    assert origin_refusal(None, own) is None  # a local program, not a web page
    assert origin_refusal("http://localhost:8765", own) is None
    for origin in ("https://evil.example", "null", "http://localhost:8766", "http://127.0.0.1:8765.evil.example"):
        assert "may not use this engine" in origin_refusal(origin, own)
    wider = allowed_origins("127.0.0.1", 8765, ["http://localhost:3000"])
    assert origin_refusal("http://localhost:3000", wider) is None
    assert origin_refusal("https://evil.example", allowed_origins("127.0.0.1", 1, ["*"])) is None
