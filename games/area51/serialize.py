"""Loading Area 51 states from JSON data, with every field validated.

``state_from_dict`` is the inverse of ``Area51State.to_dict``. Every problem
raises :class:`~aiplay.errors.InvalidStateError` naming the field
(``"state.<field>"``, with indices), and nothing is half-loaded. Beyond types
and ranges it checks what the components allow: the cards of each type total
the game's (104 in all); towers, caps and number markers in play plus those in
the supply match what exists; each region's security markers left match the
levels of its bunkers; and the position must offer a decision or a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Mapping

from aiplay.errors import InvalidStateError
from aiplay.game import reject_unknown_fields, require_int, require_int_list

from .components import (
    CAPS_PER_OWNER, FACE_UP, MARKER_COPIES, MARKER_KINDS, MAX_VEHICLE_NUMBER, NUM_CARDS, NUM_COLOURS,
    NUM_REGIONS, NUM_TYPES, NUM_VEHICLES, ROUTES, START_COUNTS, TOTAL_COUNTS, type_name,
)

if TYPE_CHECKING:  # pragma: no cover
    from .rules import Area51Game, Area51State

FIELDS = ("anyc", "bonus", "caps", "context", "current", "deck_main_pool", "deck_start_pool", "deck_top_left",
          "discards", "extra_left", "hangars", "hands", "known", "markers", "phase", "pile", "pile_region",
          "queue", "refreshed", "row", "scores", "slack", "soft", "spaces", "step", "supply", "taken", "towers", "turn", "used",
          "vehicles")
CONTEXT_KEYS = ("build", "colour", "region", "owner", "space", "down", "vehicle", "route", "number")
BIG = 10_000


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


def state_from_dict(game: "Area51Game", data: Mapping[str, Any]) -> "Area51State":
    """Build and validate a state from ``Area51State.to_dict`` data."""
    from .rules import (
        OVER, PHASES, Q_DEAL, Q_DRAW, Q_ROW, S_FACE_DOWN, S_FACE_UP, S_LOAD, S_NUMBER, STEPS, Area51State,
    )

    reject_unknown_fields(data, FIELDS)
    for key in FIELDS:  # sorted: the first missing field is the one named
        if key not in data:
            raise _err(key, "missing")
    n, owners = game.players, game.num_owners
    s = Area51State(game)

    if data["phase"] not in PHASES:
        raise _err("phase", f"must be one of {list(PHASES)}, got {data['phase']!r}")
    if data["step"] not in STEPS:
        raise _err("step", f"must be one of {list(STEPS)}, got {data['step']!r}")
    s.phase, s.step = data["phase"], data["step"]
    s.cur = require_int(data, "current", 0, n - 1)
    s.turn = require_int(data, "turn", 0, game.max_turns)
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
        _int(value, f"context.{key}", 0, max(owners, MAX_VEHICLE_NUMBER, len(ROUTES), NUM_VEHICLES))
    s.ctx = dict(ctx)

    queue = data["queue"]
    if not isinstance(queue, list):
        raise _err("queue", f"must be a list, got {queue!r}")
    for i, item in enumerate(queue):
        if (not isinstance(item, list) or len(item) != 2 or item[0] not in (Q_DEAL, Q_DRAW, Q_ROW)):
            raise _err(f"queue[{i}]", f"must be [\"deal\"|\"draw\"|\"row\", seat], got {item!r}")
        _int(item[1], f"queue[{i}][1]", -1, n - 1)
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
    s.top_left = require_int(data, "deck_top_left", 0, sum(s.top_pool))
    s.pile = _counts(data, "pile")
    s.pile_region = require_int(data, "pile_region", -1, NUM_REGIONS - 1)

    hands = _list(data["hands"], "hands", n)
    known = _list(data["known"], "known", n)
    soft = _list(data["soft"], "soft", n)
    s.anyc = require_int_list(data, "anyc", n, 0, NUM_CARDS)
    # slack < sum(soft), and soft may hold each type up to a hand's size: more than 104 in long games.
    s.slack = require_int_list(data, "slack", n, 0, NUM_CARDS * NUM_TYPES)
    for p in range(n):
        s.hands[p] = _count_list(hands[p], f"hands[{p}]")
        s.known[p] = _count_list(known[p], f"known[{p}]")
        for t in range(NUM_TYPES):
            if s.known[p][t] > s.hands[p][t]:
                raise _err(f"known[{p}][{t}]", f"seat {p} is known to hold {s.known[p][t]} {type_name(t)}, "
                                               f"more than its hand's {s.hands[p][t]}")
        s.soft[p] = _count_list(soft[p], f"soft[{p}]")
        if s.slack[p] and s.slack[p] >= sum(s.soft[p]):
            raise _err(f"slack[{p}]", "must be below the number of soft cards (or 0 with none)")
        missing = sum(max(0, s.soft[p][t] - (s.hands[p][t] - s.known[p][t])) for t in range(NUM_TYPES))
        if missing > s.slack[p]:
            raise _err(f"soft[{p}]", f"the hand lacks {missing} of these cards; at most {s.slack[p]} may be gone")
        if s.anyc[p] > sum(s.hands[p]) - sum(s.known[p]):
            raise _err(f"anyc[{p}]", "exceeds the number of unseen cards in the hand")
        main_only = sum(s.hands[p][t] - s.known[p][t] for t in range(NUM_TYPES) if not START_COUNTS[t])
        if s.anyc[p] < main_only:
            raise _err(f"anyc[{p}]", f"seat {p} holds {main_only} unseen main-deck-only cards, "
                                     f"more than the {s.anyc[p]} it may hold")

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
    s.bonus = require_int_list(data, "bonus", owners, 0, BIG)
    used = data["used"]
    if not isinstance(used, list):
        raise _err("used", f"must be a list, got {used!r}")
    for i, u in enumerate(used):
        _list(u, f"used[{i}]", 2)
        r = _int(u[0], f"used[{i}][0]", 0, NUM_REGIONS - 1)
        sp = _int(u[1], f"used[{i}][1]", 0, game.spaces_in[r] - 1)
        if s.spaces[r][sp] is None:
            raise _err(f"used[{i}]", "no bunker there")
    s.used = [list(u) for u in used]

    # Every card is somewhere, once.
    for t in range(NUM_TYPES):
        total = (s.row[t] + s.discards[t] + s.top_pool[t] + s.main_pool[t] + s.pile[t]
                 + sum(h[t] for h in s.hands)
                 + sum(1 for reg in s.hangars for pile in reg for c in pile if c[0] == t))
        if total != TOTAL_COUNTS[t]:
            raise _err("deck_main_pool", f"the game has {TOTAL_COUNTS[t]} {type_name(t)} cards ({NUM_CARDS} in "
                                         f"all), this state places {total}")

    # The decision in progress must be complete enough to go on.
    if s.step in (S_FACE_UP, S_FACE_DOWN, S_NUMBER):
        build = ctx.get("build")
        needed = {0: ("colour", "region", "owner", "down"), 1: ("colour", "region", "space", "down"),
                  2: ("colour", "region", "vehicle", "route") + (() if s.step == S_NUMBER else ("number", "down"))}
        if build not in needed or (s.step == S_NUMBER and build != 2):
            raise _err("context.build", f"step {s.step!r} needs a build kind (0 create, 1 upgrade, 2 vehicle)")
        for key in needed[build]:
            if key not in ctx:
                raise _err(f"context.{key}", f"missing: step {s.step!r} needs it")
        if s.step != S_NUMBER:
            cards_needed = ctx["down"] + (1 if s.step == S_FACE_UP else 0)
            if sum(s.hands[s.cur]) < cards_needed or ctx["down"] < 1:
                raise _err("context.down", f"seat {s.cur} must still play {cards_needed} cards and holds "
                                           f"{sum(s.hands[s.cur])}")
        if ctx["region"] >= NUM_REGIONS or ctx["colour"] >= NUM_COLOURS:
            raise _err("context.region", "no such region or colour")
    # The step must be able to go on.
    if s.step == S_LOAD and s.pile_region < 0:
        raise _err("pile_region", "loading needs the region of the pile")
    if s.phase != OVER and not s.queue:
        try:
            ok = bool(s._legal_actions())
        except (KeyError, IndexError, TypeError, AssertionError) as exc:
            raise _err("context", f"does not fit step {s.step!r}: {exc!r}") from None
        if not ok:
            raise _err("step", f"no legal decision at step {s.step!r}")
    return s


def _count_list(value: Any, field: str) -> List[int]:
    _list(value, field, NUM_TYPES)
    # Fast path (loading is on the hot path of tests and tools); the slow one names the entry.
    if all(type(x) is int and 0 <= x <= NUM_CARDS for x in value):
        return list(value)
    return [_int(x, f"{field}[{i}]", 0, NUM_CARDS) for i, x in enumerate(value)]
