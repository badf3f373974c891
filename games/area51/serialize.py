"""Loading Area 51 states from JSON data, with every field validated.

``load_state`` (behind ``Area51Game.state_from_dict``) is the inverse of ``Area51State.to_dict``. Every problem
raises :class:`~aiplay.errors.InvalidStateError` naming the field
(``"state.<field>"``, with indices), and nothing is half-loaded. Beyond types
and ranges it checks what the components allow: the cards of each type total
the game's (104 in all); towers, caps and number markers in play plus those in
the supply match what exists; each region's security markers left match the
levels of its bunkers; and the position must offer a decision or a draw.
"""

from __future__ import annotations

from typing import Any, List, Mapping

from aiplay.errors import InvalidStateError
from aiplay.game import reject_unknown_fields, require_int, require_int_list

from .components import (
    CAPS_PER_OWNER, FACE_UP, HIGHEST_BUNKER_POINTS, MARKER_COPIES, MARKER_KINDS, MAX_VEHICLE_NUMBER, NUM_CARDS,
    NUM_COLOURS, NUM_REGIONS, NUM_TYPES, NUM_VEHICLES, ROUTES, START_COUNTS, TOTAL_COUNTS, markers_for,
    shown_number, type_name,
)
from .knowledge import knowledge_violations
from .phases import (
    LAST, OVER, PHASES, PICKUP, PLAY, Q_DEAL, Q_DRAW, Q_ROW, S_COLLECT, S_DEAL, S_FACE_DOWN, S_FACE_UP, S_KIND,
    S_LOAD, S_NUMBER, S_PICK, S_REFILL, SETUP, STEPS,
)

#: The state being filled: an ``Area51State`` (``.rules``, which sits above this module and
#: hands it a blank one) or a ``Game`` of the same; typed loosely to keep the import tree.
State = Any
Game = Any

FIELDS = ("anyc", "bonus", "caps", "context", "current", "deck_bound", "deck_main_pool", "deck_start_pool",
          "deck_top_left", "discards", "extra_left", "hangars", "hands", "known", "linked_from", "markers", "phase",
          "pile", "pile_region", "queue", "refreshed", "row", "scores", "soft", "spaces", "start_seen", "step",
          "supply", "taken", "towers", "turn", "used", "vehicles")
CONTEXT_KEYS = ("build", "colour", "region", "owner", "space", "down", "vehicle", "route", "number")
#: Scores grow with every stored artifact (value <= 4) and cards recycle through the
#: discards, so no rule caps them; this bound keeps them far inside the kernel's int16.
BIG = 10_000
#: Pending draws never exceed the set-up deal (5 per seat, 6 seats).
MAX_QUEUE = 30


def _err(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(f"state.{field}", problem)


def _list(data: Any, field: str, length: int) -> list:
    if not isinstance(data, list):
        raise _err(field, f"must be a list, got {data!r}")
    if len(data) != length:
        raise _err(field, f"must have {length} entries, got {len(data)}")
    return data


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(field, f"must be an integer, got {value!r}")
    if not low <= value <= high:
        raise _err(field, f"must be between {low} and {high}, got {value}")
    return value


def _counts(data: Mapping[str, Any], key: str) -> List[int]:
    return _count_list(data[key], key)


def load_state(s: State, data: Mapping[str, Any]) -> State:
    """Validate ``Area51State.to_dict`` data and load it into ``s``, a blank state; returns ``s``.

    On an error ``s`` may be half-filled: callers pass a fresh state and drop it.
    """
    game = s.game
    reject_unknown_fields(data, FIELDS)
    for key in FIELDS:  # sorted: the first missing field is the one named
        if key not in data:
            raise _err(key, "missing")
    n, owners = game.players, game.num_owners

    if data["phase"] not in PHASES:
        raise _err("phase", f"must be one of {list(PHASES)}, got {data['phase']!r}")
    if data["step"] not in STEPS:
        raise _err("step", f"must be one of {list(STEPS)}, got {data['step']!r}")
    s.phase, s.step = data["phase"], data["step"]
    s.cur = require_int(data, "current", 0, n - 1)
    # The end is triggered at the latest when ``turn`` reaches max_turns; then every
    # seat plays one more regular turn (rulebook "End of the game"), so turn <= max_turns + n.
    s.turn = require_int(data, "turn", 0, game.max_turns + n)
    s.extra_left = require_int(data, "extra_left", 0, n)
    s.taken = require_int(data, "taken", 0, 3)
    if not isinstance(data["refreshed"], bool):
        raise _err("refreshed", f"must be true or false, got {data['refreshed']!r}")
    s.refreshed = data["refreshed"]
    ctx = data["context"]
    if not isinstance(ctx, dict):
        raise _err("context", f"must be an object, got {ctx!r}")
    for key, value in ctx.items():
        if key not in CONTEXT_KEYS:
            raise _err(f"context.{key}", f"unknown field; expected {sorted(CONTEXT_KEYS)}")
        # Loose range here (down: an upgrade to level L plays L face-down cards, L up to a
        # large region's 17 markers); _check_context checks each key against the board.
        _int(value, f"context.{key}", 0, max(owners, MAX_VEHICLE_NUMBER, len(ROUTES), NUM_VEHICLES,
                                              max(game.markers_in)))
    s.ctx = dict(ctx)

    queue = data["queue"]
    if not isinstance(queue, list):
        raise _err("queue", f"must be a list, got {queue!r}")
    if len(queue) > MAX_QUEUE:
        raise _err("queue", f"at most {MAX_QUEUE} draws are ever pending, got {len(queue)}")
    for i, item in enumerate(queue):
        if (not isinstance(item, list) or len(item) != 2 or item[0] not in (Q_DEAL, Q_DRAW, Q_ROW)):
            raise _err(f"queue[{i}]", f"must be [\"deal\"|\"draw\"|\"row\", seat], got {item!r}")
        if item[0] == Q_ROW:
            if item[1] != -1 or type(item[1]) is not int:
                raise _err(f"queue[{i}][1]", f"a face-up card goes to no seat: must be -1, got {item[1]!r}")
        else:
            _int(item[1], f"queue[{i}][1]", 0, n - 1)
    s.queue = [list(q) for q in queue]

    s.row = _counts(data, "row")
    if sum(s.row) > FACE_UP:
        raise _err("row", f"holds {sum(s.row)} cards; the face-up row has at most {FACE_UP}")
    s.discards = _counts(data, "discards")
    s.top_pool = _counts(data, "deck_start_pool")
    s.main_pool = _counts(data, "deck_main_pool")
    for t in range(NUM_TYPES):
        if s.top_pool[t] > START_COUNTS[t]:
            raise _err(f"deck_start_pool[{t}]", f"only {START_COUNTS[t]} start cards are {type_name(t)}")
    s.top_left = require_int(data, "deck_top_left", 0, min(sum(s.top_pool), game.top_after_setup))
    s.pile = _counts(data, "pile")
    s.pile_region = require_int(data, "pile_region", -1, NUM_REGIONS - 1)

    hands = _list(data["hands"], "hands", n)
    known = _list(data["known"], "known", n)
    soft = _list(data["soft"], "soft", n)
    s.anyc = require_int_list(data, "anyc", n, 0, NUM_CARDS)
    linked = _list(data["linked_from"], "linked_from", n)
    for p in range(n):
        s.hands[p] = _count_list(hands[p], f"hands[{p}]")
        s.known[p] = _count_list(known[p], f"known[{p}]")
        for t in range(NUM_TYPES):
            if s.known[p][t] > s.hands[p][t]:
                raise _err(f"known[{p}][{t}]", f"seat {p} is known to hold {s.known[p][t]} {type_name(t)}, "
                                               f"more than its hand's {s.hands[p][t]}")
        s.soft[p] = _count_list(soft[p], f"soft[{p}]")
        if s.anyc[p] > sum(s.hands[p]) - sum(s.known[p]):
            raise _err(f"anyc[{p}]", "exceeds the number of unseen cards in the hand")

    hangars = _list(data["hangars"], "hangars", NUM_REGIONS)
    for r in range(NUM_REGIONS):
        reg = _list(hangars[r], f"hangars[{r}]", game.hangars_in[r])
        for h, pile in enumerate(reg):
            if not isinstance(pile, list):
                raise _err(f"hangars[{r}][{h}]", f"must be a list, got {pile!r}")
            if all(type(c) is list and len(c) == 3 and type(c[0]) is int and 0 <= c[0] < NUM_TYPES
                   and TOTAL_COUNTS[c[0]] and c[1] in (0, 1) and type(c[1]) is int
                   and type(c[2]) is int and 0 <= c[2] < n for c in pile):
                s.hangars[r][h] = [list(c) for c in pile]  # fast path; the loop below names a bad entry
                continue
            cards = []
            for i, card in enumerate(pile):
                f = f"hangars[{r}][{h}][{i}]"
                _list(card, f, 3)
                t = _int(card[0], f"{f}[0]", 0, NUM_TYPES - 1)
                if not TOTAL_COUNTS[t]:
                    raise _err(f"{f}[0]", f"{type_name(t)} does not exist")
                cards.append([t, _int(card[1], f"{f}[1]", 0, 1), _int(card[2], f"{f}[2]", 0, n - 1)])
            s.hangars[r][h] = cards

    for p in range(n):
        lf = _list(linked[p], f"linked_from[{p}]", NUM_REGIONS)
        rows = []
        for r in range(NUM_REGIONS):
            reg = _list(lf[r], f"linked_from[{p}][{r}]", game.hangars_in[r])
            rows.append([_int(x, f"linked_from[{p}][{r}][{h}]", 0, len(s.hangars[r][h]))
                         for h, x in enumerate(reg)])
        if not any(s.soft[p]) and any(x for reg in rows for x in reg):
            raise _err(f"linked_from[{p}]", "must be all 0 without soft cards (canonical form)")
        s.linked_from[p] = rows
    s.deck_bound = _counts(data, "deck_bound")
    s.start_seen = _counts(data, "start_seen")
    public = s.public_counts()
    for t in range(NUM_TYPES):
        if s.start_seen[t] > min(public[t], START_COUNTS[t]):
            raise _err(f"start_seen[{t}]", f"at most the {min(public[t], START_COUNTS[t])} {type_name(t)} in view "
                                           "(and start copies) can be known start cards")
    if any(s.deck_bound) and not any(s.main_pool):
        raise _err("deck_bound", "must be all 0 when the deck is empty (canonical form)")

    spaces = _list(data["spaces"], "spaces", NUM_REGIONS)
    levels_in = [0] * NUM_REGIONS
    towers_used = [0] * NUM_COLOURS
    caps_used = [0] * owners
    for r in range(NUM_REGIONS):
        reg = _list(spaces[r], f"spaces[{r}]", game.spaces_in[r])
        for i, b in enumerate(reg):
            f = f"spaces[{r}][{i}]"
            if b is None:
                s.spaces[r][i] = None
                continue
            _list(b, f, 3)
            c = _int(b[0], f"{f}[0]", 0, NUM_COLOURS - 1)
            o = _int(b[1], f"{f}[1]", 0, owners - 1)
            level = _int(b[2], f"{f}[2]", 1, game.markers_in[r])
            s.spaces[r][i] = [c, o, level]
            levels_in[r] += level
            towers_used[c] += 1
            caps_used[o] += 1
    s.markers = require_int_list(data, "markers", NUM_REGIONS, 0, max(game.markers_in))
    for r in range(NUM_REGIONS):
        if s.markers[r] != game.markers_in[r] - levels_in[r]:
            raise _err(f"markers[{r}]", f"region R{r} has {game.markers_in[r]} security markers and its bunkers "
                                        f"use {levels_in[r]}, so {game.markers_in[r] - levels_in[r]} are left, "
                                        f"not {s.markers[r]}")
    s.towers = require_int_list(data, "towers", NUM_COLOURS, 0, 5)
    for c in range(NUM_COLOURS):
        if s.towers[c] + towers_used[c] != game.towers[c]:
            raise _err(f"towers[{c}]", f"{game.towers[c]} towers of this colour are in play; the bunkers use "
                                       f"{towers_used[c]}, so {game.towers[c] - towers_used[c]} must be left, "
                                       f"not {s.towers[c]}")
    s.caps = require_int_list(data, "caps", owners, 0, CAPS_PER_OWNER)
    for o in range(owners):
        if s.caps[o] + caps_used[o] != CAPS_PER_OWNER:
            raise _err(f"caps[{o}]", f"{caps_used[o]} bunkers carry this cap; {CAPS_PER_OWNER - caps_used[o]} "
                                     f"caps must be left, not {s.caps[o]}")

    vehicles = _list(data["vehicles"], "vehicles", NUM_VEHICLES)
    markers_used = [0] * len(MARKER_COPIES)
    for v, veh in enumerate(vehicles):
        f = f"vehicles[{v}]"
        if veh is None:
            s.vehicles[v] = None
            continue
        _list(veh, f, 2)
        route = _int(veh[0], f"{f}[0]", 0, len(ROUTES) - 1)
        ms = veh[1]
        if not isinstance(ms, list) or not 1 <= len(ms) <= 2:
            raise _err(f"{f}[1]", f"must be a list of one or two markers, got {ms!r}")
        shown = []
        for i, m in enumerate(ms):
            _list(m, f"{f}[1][{i}]", 2)
            kind = _int(m[0], f"{f}[1][{i}][0]", 0, len(MARKER_KINDS) - 1)
            _int(m[1], f"{f}[1][{i}][1]", 1, MAX_VEHICLE_NUMBER)  # an int first: 4.0 == 4 would pass ``in``
            if m[1] not in MARKER_KINDS[kind][0]:
                raise _err(f"{f}[1][{i}][1]", f"a {MARKER_KINDS[kind][0]} marker cannot show {m[1]!r}")
            markers_used[kind] += 1
            shown.append([kind, m[1]])
        if sum(x for _, x in shown) > MAX_VEHICLE_NUMBER:
            raise _err(f"{f}[1]", f"a vehicle's number is at most {MAX_VEHICLE_NUMBER}")
        s.vehicles[v] = [route, shown]
    s.supply = require_int_list(data, "supply", len(MARKER_COPIES), 0, max(MARKER_COPIES))
    for k in range(len(MARKER_COPIES)):
        if s.supply[k] + markers_used[k] != MARKER_COPIES[k]:
            raise _err(f"supply[{k}]", f"there are {MARKER_COPIES[k]} {MARKER_KINDS[k][0]} markers and the "
                                       f"vehicles show {markers_used[k]}, so {MARKER_COPIES[k] - markers_used[k]} "
                                       f"must be in the supply, not {s.supply[k]}")

    s.scores_ = require_int_list(data, "scores", owners, 0, BIG)
    # Highest-bunker points come only at the end: 5 + 3 + 2 at most per region (one owner
    # may hold all three highest bunkers of a region).
    s.bonus = require_int_list(data, "bonus", owners, 0, NUM_REGIONS * sum(HIGHEST_BUNKER_POINTS))
    if s.phase != OVER and any(s.bonus):
        raise _err("bonus", "highest-bunker points are only scored at the end")
    used = data["used"]
    if not isinstance(used, list):
        raise _err("used", f"must be a list, got {used!r}")
    for i, u in enumerate(used):
        _list(u, f"used[{i}]", 2)
        r = _int(u[0], f"used[{i}][0]", 0, NUM_REGIONS - 1)
        sp = _int(u[1], f"used[{i}][1]", 0, game.spaces_in[r] - 1)
        if s.spaces[r][sp] is None:
            raise _err(f"used[{i}]", "no bunker there")
        if [r, sp] in used[:i]:
            raise _err(f"used[{i}]", "a bunker takes at most one artifact per action")
    s.used = [list(u) for u in used]

    # Every card is somewhere, once.
    for t in range(NUM_TYPES):
        total = (s.row[t] + s.discards[t] + s.top_pool[t] + s.main_pool[t] + s.pile[t]
                 + sum(h[t] for h in s.hands)
                 + sum(1 for reg in s.hangars for pile in reg for c in pile if c[0] == t))
        if total != TOTAL_COUNTS[t]:
            raise _err("deck_main_pool", f"the game has {TOTAL_COUNTS[t]} {type_name(t)} cards ({NUM_CARDS} in "
                                         f"all), this state places {total}")

    _check_flow(game, s)
    _check_context(game, s)
    problems = knowledge_violations(s, 0)  # the records are public: the same for every observer
    if problems:
        raise _err(*problems[0])
    # The step must be able to go on.
    if s.phase != OVER and not s.queue:
        try:
            ok = bool(s._legal_actions())
        except (KeyError, IndexError, TypeError, AssertionError) as exc:  # pragma: no cover - checked above
            raise _err("context", f"does not fit step {s.step!r}: {exc!r}") from None
        if not ok:
            raise _err("step", f"no legal decision at step {s.step!r}")
    return s


def _check_flow(game: Game, s: State) -> None:
    """Phase, step, turn counters, pending draws, the pile and the deck layers fit together (rules.py)."""
    n = game.players
    steps = {SETUP: (S_DEAL, S_REFILL), PICKUP: (S_PICK, S_LOAD), OVER: (S_KIND,)}
    if s.phase in steps and s.step not in steps[s.phase]:
        raise _err("step", f"phase {s.phase!r} has no step {s.step!r}; expected one of {list(steps[s.phase])}")
    if s.phase in (PLAY, LAST) and s.step == S_DEAL:
        raise _err("step", "cards are dealt only during the set-up")
    # Turn counters (rules.py _end_action).
    if s.phase == SETUP and (s.turn or s.extra_left or s.cur):
        raise _err("turn", "the set-up has no turns: turn, extra_left and current must be 0")
    if s.phase == PLAY and (s.turn >= game.max_turns or s.extra_left):
        raise _err("turn", f"during play turn < max_turns ({game.max_turns}) and extra_left is 0")
    if s.phase == LAST and (s.extra_left < 1 or s.turn + s.extra_left > game.max_turns + n):
        raise _err("extra_left", f"the last turns leave 1..{n} turns, ending by turn {game.max_turns + n}")
    if s.phase in (PICKUP, OVER) and s.extra_left:
        raise _err("extra_left", "must be 0 once the last turns are over")
    # Pending draws: which ones each step can have (rules.py _decide and _settle).
    kinds = [q[0] for q in s.queue]
    if s.phase == SETUP:
        if s.step == S_DEAL:
            deal_order = [p for _ in range(5) for p in range(n)]
            if not s.queue or kinds != [Q_DEAL] * len(kinds) or [q[1] for q in s.queue] != deal_order[-len(kinds):]:
                raise _err("queue", "during the deal the queue is the rest of the deal, seat by seat")
            for p in range(n):
                if sum(s.hands[p]) != 5 - sum(1 for q in s.queue if q[1] == p):
                    raise _err(f"hands[{p}]", "during the deal each hand holds the cards dealt so far")
        else:
            if not s.queue or kinds != [Q_ROW] * len(kinds) or sum(s.row) + len(kinds) != 6:
                raise _err("queue", "after the deal the queue reveals the rest of the row")
    elif s.queue:
        if s.step == S_REFILL:
            if kinds != [Q_ROW] * len(kinds) or sum(s.row) + len(kinds) > 6:
                raise _err("queue", "refilling the row: face-up draws up to 6 cards")
        elif s.step == S_COLLECT:
            if s.queue == [[Q_DRAW, s.cur]]:
                if not 1 <= s.taken <= 3:
                    raise _err("taken", "a pending deck draw was taken: taken must be 1..3")
            elif not (kinds == [Q_ROW] * len(kinds) and s.refreshed and s.taken == 0
                      and sum(s.row) + len(kinds) <= 6):
                raise _err("queue", "collecting: one deck draw for the player, or the refreshed row's draws")
        else:
            raise _err("queue", f"no draw is pending at step {s.step!r}")
    elif s.step in (S_REFILL, S_DEAL):
        raise _err("step", f"step {s.step!r} needs pending draws")
    if s.step not in (S_COLLECT, S_REFILL) and (s.taken or s.refreshed):
        raise _err("taken", "taken and refreshed belong to a collect action")
    if s.step == S_COLLECT and not s.queue and s.taken >= 3:
        raise _err("taken", "three cards taken: the collect action is over")
    if s.step == S_LOAD:
        if s.pile_region < 0:
            raise _err("pile_region", "loading needs the region of the pile")
    elif s.pile_region >= 0 or any(s.pile) or s.used:
        raise _err("pile", "a pile, its region and the used bunkers exist only while loading")
    # Deck layers (spec set-up): the top layer's start cards plus the start cards shuffled into
    # the main deck (and, during the deal, the cards still to deal) form the start remainder.
    if s.top_left > 0:
        deals = sum(1 for q in s.queue if q[0] == Q_DEAL)
        if sum(s.top_pool) - s.top_left != game.start_to_main + deals:
            raise _err("deck_start_pool", f"the start remainder is the {s.top_left} cards on top plus "
                                          f"{game.start_to_main} shuffled into the main deck"
                                          + (f" and {deals} to deal" if deals else ""))
        if any(s.deck_bound):
            raise _err("deck_bound", "the deck has not been reshuffled while start cards remain on top")
    elif any(q[0] == Q_DEAL for q in s.queue):
        raise _err("deck_top_left", "the deal comes from the start cards: some remain on top while dealing")


def _check_context(game: Game, s: State) -> None:
    """The decision in progress (rules.py _decide) names things that exist and can be finished."""
    ctx, p = s.ctx, s.cur
    if s.step not in (S_FACE_UP, S_FACE_DOWN, S_NUMBER):
        if ctx:
            raise _err("context", f"step {s.step!r} has no decision in progress; must be empty")
        return
    build = ctx.get("build")
    if build not in (0, 1, 2) or (s.step == S_NUMBER and build != 2):
        raise _err("context.build", f"step {s.step!r} needs a build kind (0 create, 1 upgrade, 2 vehicle)")
    needed = {0: ("build", "colour", "region", "owner", "down"), 1: ("build", "colour", "region", "space", "down"),
              2: ("build", "colour", "region", "vehicle", "route") + (() if s.step == S_NUMBER else ("number", "down"))}
    for key in needed[build]:
        if key not in ctx:
            raise _err(f"context.{key}", f"missing: step {s.step!r} needs it")
    for key in ctx:
        if key not in needed[build]:
            raise _err(f"context.{key}", f"not part of this decision (build {build} at step {s.step!r})")
    c, r = ctx["colour"], ctx["region"]
    if c >= NUM_COLOURS:
        raise _err("context.colour", f"no colour {c}")
    if r >= NUM_REGIONS:
        raise _err("context.region", f"no region {r}")
    if build == 0:
        o = ctx["owner"]
        if o >= game.num_owners or game.seat_of[o] != p:
            raise _err("context.owner", f"seat {p} owns caps {game.owners_of[p]}, not {o}")
        if not (s.towers[c] and s.caps[o] and s.markers[r] and None in s.spaces[r]):
            raise _err("context", "the new bunker needs a tower, a cap, a security marker and a free space")
        full = 1
    elif build == 1:
        sp = ctx["space"]
        if sp >= game.spaces_in[r] or s.spaces[r][sp] is None:
            raise _err("context.space", f"no bunker at R{r} space {sp}")
        bc, bo, level = s.spaces[r][sp]
        if bc != c or game.seat_of[bo] != p:
            raise _err("context.space", f"the bunker is not seat {p}'s {c} bunker")
        if not s.markers[r]:
            raise _err("context", "upgrading needs a security marker in the region")
        full = level + 1
    else:
        v, route = ctx["vehicle"], ctx["route"]
        if v >= NUM_VEHICLES or v // 2 != c:
            raise _err("context.vehicle", f"vehicle {v} is not of colour {c}")
        if route >= len(ROUTES) or ROUTES[route][0] != r:
            raise _err("context.route", f"route {route} does not leave region {r}")
        if s.step != S_NUMBER:
            k = ctx["number"]
            supply = list(s.supply)
            old = s.vehicles[v]
            low = 1
            if old is not None:
                low = shown_number(old[1]) + 1
                for kind, _ in old[1]:
                    supply[kind] += 1
            if not low <= k <= MAX_VEHICLE_NUMBER or markers_for(k, supply) is None:
                raise _err("context.number", f"vehicle {v} cannot be given number {k}")
            full = k
    if s.step != S_NUMBER:
        down = ctx["down"]
        if s.step == S_FACE_UP and down != full:
            raise _err("context.down", f"before the face-up card all {full} face-down cards are still due")
        if not 1 <= down <= full:
            raise _err("context.down", f"must be 1..{full}")
        cards_needed = down + (1 if s.step == S_FACE_UP else 0)
        if sum(s.hands[p]) < cards_needed:
            raise _err("context.down", f"seat {p} must still play {cards_needed} cards and holds "
                                       f"{sum(s.hands[p])}")


def load_state_trusted(s: State, data: Mapping[str, Any]) -> State:
    """Load ``data`` into the blank state ``s`` *without* validation: only for dicts the engines
    wrote themselves (the native kernel's ``to_dict`` of a state it reached from a validated one)."""
    s.phase, s.step, s.cur, s.turn, s.extra_left = (data["phase"], data["step"], data["current"], data["turn"],
                                                     data["extra_left"])
    s.ctx, s.taken, s.refreshed = dict(data["context"]), data["taken"], data["refreshed"]
    s.queue = [list(q) for q in data["queue"]]
    s.row, s.discards, s.pile = list(data["row"]), list(data["discards"]), list(data["pile"])
    s.top_pool, s.main_pool, s.top_left = (list(data["deck_start_pool"]), list(data["deck_main_pool"]),
                                           data["deck_top_left"])
    s.markers, s.towers, s.caps, s.supply = (list(data["markers"]), list(data["towers"]), list(data["caps"]),
                                             list(data["supply"]))
    s.spaces = [[None if b is None else list(b) for b in reg] for reg in data["spaces"]]
    s.hangars = [[[list(c) for c in h] for h in reg] for reg in data["hangars"]]
    s.vehicles = [None if v is None else [v[0], [list(m) for m in v[1]]] for v in data["vehicles"]]
    s.scores_, s.bonus = list(data["scores"]), list(data["bonus"])
    s.hands = [list(h) for h in data["hands"]]
    s.known = [list(k) for k in data["known"]]
    s.soft = [list(k) for k in data["soft"]]
    s.linked_from = [[list(reg) for reg in lf] for lf in data["linked_from"]]
    s.deck_bound, s.start_seen, s.anyc = list(data["deck_bound"]), list(data["start_seen"]), list(data["anyc"])
    s.pile_region, s.used = data["pile_region"], [list(u) for u in data["used"]]
    return s


def _count_list(value: Any, field: str) -> List[int]:
    _list(value, field, NUM_TYPES)
    # Fast path (loading is on the hot path of tests and tools); the slow one names the entry.
    if all(type(x) is int and 0 <= x <= NUM_CARDS for x in value):
        return list(value)
    return [_int(x, f"{field}[{i}]", 0, NUM_CARDS) for i, x in enumerate(value)]
