"""Protocol fuzzing: random and malformed lines to `aiplay serve`; every line gets one reply, the server
stays up, and a request that fails changes no game.

Searches get `options` drawn from the real option names with wrong values; lines carry duplicated keys
and number tokens that are not finite JSON numbers (1e400, NaN). Every reply must be strict JSON
(test_protocol.Engine parses it so) and every error an AiplayError (its `error_type`).

The count is ``AIPLAY_PROTOCOL_FUZZ_LINES`` (default 10,000, the issue's count: about 25 s on
one idle core). Like tests/test_protocol.py, this client does
not import aiplay.
"""

from __future__ import annotations

import json
import os
import random
import string

from test_protocol import Engine

LINES = int(os.environ.get("AIPLAY_PROTOCOL_FUZZ_LINES", "10000"))
SEED = int(os.environ.get("AIPLAY_PROTOCOL_FUZZ_SEED", "1"))

#: Commands the fuzzer sends (quit and close of the tracked games are left out: they would end
#: the checks, not break the server).
COMMANDS = ["hello", "new", "games", "status", "position", "legal", "apply", "chance", "undo", "redo", "view",
            "history", "record", "load", "go", "analyse", "stop", "solve", "review", "rules", "join", "close",
            "dance", "", "APPLY"]
FIELDS = ["game_id", "game", "players", "options", "seed", "backend", "auto_chance", "state", "action", "count",
          "seat", "player", "render", "record", "bot", "iterations", "seconds", "nodes", "depth", "preset",
          "play", "info_every", "info_seconds", "x"]
SEARCHES = ("go", "analyse", "solve", "review")
#: The real option names of the bots and the solver (and make_bot's own parameters), drawn as `options`
#: keys with wrong values (issue 27: {"seed": 5}, {"game": ...}, {"kind": ...} and {"bogus": 1} were TypeErrors).
OPTION_NAMES = ["iterations", "seconds", "nodes", "depth", "seed", "uct_c", "rollout", "rollout_epsilon",
                "rollout_cutoff", "backend", "variant", "workers", "reuse_tree", "max_nodes",
                "allow_hidden_information", "leaf_playout", "pruning", "paranoid", "use_tt", "tt_bits", "max_plies",
                "ordering", "deepening", "bounds", "pv_nodes", "determinizations", "observer", "game", "kind",
                "state", "bogus"]
#: Wrong (or borderline) values for them; none reserves memory: tt_bits and max_nodes stay out of range.
WRONG_VALUES = [-1, 0, 3, 29, 40, 2 ** 31, 2 ** 63, 2 ** 64, 10 ** 30, 10 ** 400, -10 ** 400, -0.5, -0.0, 1.5, 1e308,
                5e-324, "", "x", "20", True, False, None, [], [1], {}, {"a": 1}]
#: Issue 37: huge and non-finite numbers, and other types, for every numeric field and option of the searches
#: and of `new` (10**400 is a JSON number too: json.dumps writes its 401 digits).
HOSTILE_NUMBERS = [2 ** 63, 2 ** 64, -2 ** 63 - 1, 10 ** 400, -10 ** 400, 1e308, -1e308, -0.0, 5e-324, True, "1", [],
                   [1], {}, {"a": 1}]
SEARCH_NUMBERS = ["seconds", "nodes", "iterations", "depth", "seed", "observer", "determinizations", "level",
                  "info_every", "info_seconds"]
OPTION_NUMBERS = ["iterations", "seconds", "nodes", "depth", "seed", "uct_c", "rollout_epsilon", "rollout_cutoff",
                  "workers", "max_nodes", "leaf_playout", "chance_run", "tt_bits", "max_plies", "pv_nodes",
                  "determinizations", "observer"]
#: Number tokens that are not JSON numbers, or not finite ones: every reply must still be strict JSON.
NON_FINITE = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1E999"]
#: The error types a reply may name: all aiplay.AiplayError subclasses (docs/protocol.md).
AIPLAY_ERRORS = {"ProtocolError", "InvalidOptionError", "InvalidStateError", "IllegalActionError",
                 "InvalidPlayerError", "NotDecisionNodeError", "UnknownGameError", "DeterminizationError",
                 "BotBusyError"}


def _random_value(rng, depth=0):
    r = rng.random()
    if r < 0.15:
        return rng.choice([0, 1, -1, 2, 3, 10 ** rng.randint(1, 30), -(10 ** rng.randint(1, 30)), 2 ** 63])
    if r < 0.25:
        return rng.choice([0.5, -0.0, 1e308, -1e-9, 3.0, 0.001])
    if r < 0.35:
        return rng.choice([True, False, None])
    if r < 0.6:
        alphabet = string.printable.replace("\n", "").replace("\r", "") + "éß漢\u2028\x00"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
    if r < 0.75 and depth < 3:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if r < 0.9 and depth < 3:
        return {rng.choice(FIELDS): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    return rng.choice(["g1", "g2", "g999", "roll", "stop", "mcts", "random", "ismcts", "text", "svg"])


def cmd_of(request):
    return request.get("cmd")


class Fuzzer:
    def __init__(self, engine, rng):
        self.engine = engine
        self.rng = rng
        hello = engine.ok("hello")
        self.names = [g["name"] for g in hello["games"]]
        self.games = {}
        for name in (self.names[0], self.names[-1]):
            gid = engine.ok("new", viewer="all", game=name, seed=rng.randint(0, 99), auto_chance=True)["game_id"]
            self.games[gid] = None
        self.snapshot()
        self.stop_count = 0

    def snapshot(self):
        for gid in self.games:
            reply = self.engine.ok("position", game_id=gid)
            self.games[gid] = (reply["ply"], reply["state"], reply["can_redo"])

    def unchanged(self):
        for gid, snap in self.games.items():
            reply = self.engine.ok("position", game_id=gid)
            if (reply["ply"], reply["state"], reply["can_redo"]) != snap:
                return gid
        return None

    def request(self):
        rng = self.rng
        cmd = rng.choice(COMMANDS)
        request = {"cmd": cmd}
        if rng.random() < 0.8:
            request["id"] = rng.choice([rng.randint(0, 10 ** 6), "x" + str(rng.random()), [1], {"a": 1}, None])
        gids = list(self.games)
        if rng.random() < 0.7:
            request["game_id"] = rng.choice(gids + ["g0", "", 5, None])
        for _ in range(rng.randint(0, 4)):
            request[rng.choice(FIELDS)] = _random_value(rng)
        target = request.get("game_id")
        tracked = isinstance(target, str) and target in self.games
        if cmd == "close" and (tracked or "game_id" not in request):
            request["game_id"] = "g-not-open"
        if cmd in SEARCHES:  # keep searches short; they are stopped at once anyway
            request["seconds"] = rng.choice([0.05, 0.2, 30, request.get("seconds")])
        if cmd == "solve":  # stop cannot end a solve: its own budget does
            request["seconds"] = rng.choice([0.05, 0.2])
            request.pop("nodes", None)
            if rng.random() < 0.2:  # a node budget beyond the native solver's counters (issue 37: 2**63)
                request["nodes"] = rng.choice([2 ** 63, 2 ** 64, 10 ** 400, -1, 0, 1.5, "9"])
        if cmd == "new" and rng.random() < 0.5:
            request["game"] = rng.choice(self.names)
            if rng.random() < 0.8:  # hidden-information games open only for a viewer
                request["viewer"] = rng.choice(["all", 0, 1, -1, "x", None])
        if cmd in SEARCHES and rng.random() < 0.6:  # real option names, wrong values
            request["options"] = {rng.choice(OPTION_NAMES): rng.choice(WRONG_VALUES)
                                  for _ in range(rng.randint(1, 3))}
            if rng.random() < 0.3:
                request["bot"] = rng.choice(["mcts", "ismcts", "expectimax", "heuristic", "random"])
        if cmd == "apply" and rng.random() < 0.5 and tracked:
            legal = self.engine.ok("legal", game_id=request["game_id"])["actions"]
            if legal:
                move = rng.choice(legal)
                request["action"] = move["name"] if rng.random() < 0.5 else move["id"]
        return request

    def line(self):
        rng = self.rng
        r = rng.random()
        if r < 0.1:  # garbage text
            return "".join(rng.choice(string.printable[:-5] + "{}[]\":,\\") for _ in range(rng.randint(0, 60)))
        if r < 0.15:  # a JSON value that is not an object
            return json.dumps(_random_value(rng))
        request = self.request()
        text = json.dumps(request)
        if r < 0.22 and len(request) > 1:  # a duplicated key, the copy with another value (JSON keeps the last)
            # (Not a solve's budget: stop cannot end a solve, so a long one would only slow the run.)
            keys = [k for k in request if k != "cmd" and not (cmd_of(request) == "solve" and k in ("seconds", "nodes"))]
            key = rng.choice(keys or ["id"])
            extra = json.dumps({key: rng.choice(WRONG_VALUES + [request.get(key)])})[1:-1]
            return text[:-1] + ", " + extra + "}"
        if r < 0.3:  # a number token that is not a finite JSON number, in place of a value
            key = rng.choice(["id", "seconds", "iterations", "seed", "count", "action", "info_seconds"])
            token = rng.choice(NON_FINITE)
            if rng.random() < 0.5 and request.get("options"):
                return text[:-1] + f', "options": {{"{rng.choice(OPTION_NAMES)}": {token}}}}}'
            return text[:-1] + f', "{key}": {token}}}'
        if r < 0.38:  # truncated or corrupted JSON
            cut = rng.randint(0, max(0, len(text) - 1))
            text = text[:cut] + rng.choice(["", "}", "\"", "\\", ",", "{", "NaN", "\x7f"]) + text[cut + 1:]
        return text

    def send(self, text):
        """Send one line; return its final reply (stopping a search it started)."""
        engine = self.engine
        engine.send_raw(text)
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        searching = isinstance(parsed, dict) and parsed.get("cmd") in SEARCHES
        replies = []
        if searching:
            self.stop_count += 1
            stop_id = f"fuzz-stop-{self.stop_count}"
            engine.send_raw(json.dumps({"id": stop_id, "cmd": "stop"}))
            while len(replies) < 2:
                try:
                    line = engine.lines.get(timeout=60)
                except Exception:
                    raise AssertionError(f"no reply within 60 s to {text!r} (got {replies})") from None
                assert line.get("type") != "eof", "the engine exited"
                if line.get("type") != "info":
                    replies.append(line)
            mine = [r for r in replies if r.get("id") != stop_id or r.get("cmd") != "stop"]
            assert len(mine) == 1, replies
            return mine[0]
        line = engine.lines.get(timeout=60)
        while line.get("type") == "info":
            line = engine.lines.get(timeout=60)
        assert line.get("type") != "eof", "the engine exited"
        return line


def test_fuzz_every_line_gets_a_reply_and_failures_change_nothing():
    rng = random.Random(SEED)
    engine = Engine()
    try:
        fuzz = Fuzzer(engine, rng)
        counts = {"ok": 0, "error": 0}
        failures = {}
        for i in range(LINES):
            text = fuzz.line()
            reply = fuzz.send(text)
            assert reply.get("type") in ("reply", "bestmove") and isinstance(reply.get("ok"), bool), (text, reply)
            if reply["ok"]:
                counts["ok"] += 1
                if reply.get("cmd") in ("new", "load") and str(reply.get("game_id")) not in fuzz.games:
                    engine.ok("close", game_id=reply["game_id"])  # only the tracked games stay open
                fuzz.snapshot()
            else:
                counts["error"] += 1
                assert isinstance(reply.get("error"), str) and reply["error"], (text, reply)
                # Every error is an AiplayError with a readable reason, never a TypeError or KeyError.
                assert reply.get("error_type") in AIPLAY_ERRORS, (text, reply)
                failures[reply["error_type"]] = failures.get(reply["error_type"], 0) + 1
                changed = fuzz.unchanged()
                assert changed is None, f"line {i} {text!r} failed ({reply['error']}) but changed game {changed}"
        # Still up, nothing pending: the next request gets its own reply.
        assert engine.ok("hello")["engine"] == "aiplay"
        assert sorted(g["game_id"] for g in engine.ok("games")["open"]) == sorted(fuzz.games)
        assert engine.proc.poll() is None
        assert counts["error"] > LINES // 2 and counts["ok"] > LINES // 20, counts
        print(f"protocol fuzz: {LINES} lines, {counts}, errors by type {failures}")
    finally:
        engine.close()


def test_huge_non_finite_and_ill_typed_numbers_are_refused_as_aiplay_errors():
    """Issue 37: `go`, `analyse` and `solve` with a huge, non-finite or ill-typed number in each numeric field
    and each numeric option, and `new` with one in seed, players and an option: every reply is `ok: false` with
    an aiplay error type (or `ok: true` where the value is a valid one, e.g. a seed of 2**63), never an
    OverflowError (`solve` with nodes 2**63 and seconds 10**400 were)."""
    engine = Engine()
    try:
        hello = engine.ok("hello")
        name = hello["games"][0]["name"]
        game_id = engine.ok("new", game=name, viewer="all", seed=1, auto_chance=True)["game_id"]
        bad = []

        def check(cmd, request):
            reply = engine.ask(cmd, **request)
            if cmd in ("go", "analyse") and reply.get("type") == "info":  # pragma: no cover - ask skips them
                return
            if not reply["ok"] and reply.get("error_type") not in AIPLAY_ERRORS:
                bad.append((cmd, request, reply.get("error_type"), reply.get("error")))
            if reply["ok"] and cmd == "new":
                engine.ok("close", game_id=reply["game_id"])

        for cmd in ("go", "analyse", "solve"):
            for value in HOSTILE_NUMBERS:
                # A small budget alongside, so that a value that is valid (a huge seed) ends at once.
                guard = {"seconds": 0.05} if cmd == "solve" else {"nodes": 50}
                for key in SEARCH_NUMBERS:
                    request = {"game_id": game_id, **guard, key: value}
                    if key == "nodes" and cmd != "solve":
                        request["seconds"] = 0.05
                    check(cmd, request)
                for key in OPTION_NUMBERS:
                    request = {"game_id": game_id, **guard, "options": {key: value}}
                    if key in ("nodes", "seconds") and cmd != "solve":
                        request["iterations"] = 5
                    if key == "seconds" and cmd == "solve":
                        request.pop("seconds")
                    check(cmd, request)
        for value in HOSTILE_NUMBERS:
            for key in ("seed", "players"):
                check("new", {"game": name, "viewer": "all", key: value})
            check("new", {"game": name, "viewer": "all", "options": {"players": value}})
            check("new", {"game": value, "viewer": "all"})
        assert not bad, bad[:10]
        assert engine.ok("hello")["engine"] == "aiplay"
    finally:
        engine.close()
