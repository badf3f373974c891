"""Loading Groom Lake states from JSON data, with every field validated.

``state_from_dict`` is the inverse of ``RulesState.to_dict``. Every problem
raises :class:`~aiplay.errors.InvalidStateError` naming the field
(``"state.<field>"``, with indices), and nothing is half-loaded. Beyond types
and ranges it checks what the components allow: every supply card is in
exactly one place (hands, deck, Refresh stack, Discard Stack, the cards being
kept, investigated or handed out, the Alien's set-aside Recovery cards, or out
of the game); every tile is in exactly one place (a stack of its own back, the
pool, a scout's hand, the map); the map is a legal one (connected, edges
matching, Groom Lake at the centre); roles match the player count; the
knowledge records hold; and the position is settled (the automatic steps have
run) and offers a move.
"""

from __future__ import annotations

from typing import Any, Callable, List, Mapping

from aiplay.errors import InvalidStateError
from aiplay.game import Game, reject_unknown_fields

from .board import fits, make_grid
from .components import (
    ALIEN, CANYON, CRASH, DISCARD_STACK_SIZE, FIRST_DEAL, GRID_RADIUS, GROOM_LAKE, HUMAN, HUNTER,
    INVESTIGATION_DRAW, KEEP, NO_HAZARD, NUM_CARDS, NUM_RECOVERY, NUM_STACKS, NUM_TILES, NUM_TYPES, RECOVERY,
    SCOUT_DRAW, SECOND_DEAL, TILES, TYPE_COUNTS, has_hunter,
)
from .knowledge import knowledge_violations
from .rules import ACTIONS_PER_TURN, NO_RESULT, S_OVER, S_ROLES, S_ROW, S_SHARE, STEPS, TEAM_ESCAPES, RulesState

FIELDS = ("alien_card", "ap", "ballots", "count", "cur", "dealt", "deck", "deck_known", "discard", "half_agreed",
          "half_called", "hands", "handout", "held", "inv_cards", "known", "kept", "life", "map", "pool",
          "pool_known", "queue", "recoveries", "refresh", "refresh_known", "result", "revealed", "roles", "stacks",
          "stats", "step", "target", "team", "team_from", "total", "turn")
#: Life tokens never exceed the start plus every Recovery's gain (1 + 2 + ... + 6).
MAX_EXTRA_LIFE = NUM_RECOVERY * (NUM_RECOVERY + 1) // 2
#: Public counters (hazard rounds, items contributed) stay far below this.
BIG = 1_000_000


def _err(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(f"state.{field}", problem)


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(field, f"must be an integer, got {value!r}")
    if not low <= value <= high:
        raise _err(field, f"must be between {low} and {high}, got {value}")
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _err(field, f"must be true or false, got {value!r}")
    return value


def _list(value: Any, field: str, length: int = -1, max_length: int = 10_000) -> list:
    if not isinstance(value, list):
        raise _err(field, f"must be a list, got {value!r}")
    if length >= 0 and len(value) != length:
        raise _err(field, f"must have {length} entries, got {len(value)}")
    if len(value) > max_length:
        raise _err(field, f"must have at most {max_length} entries, got {len(value)}")
    return value


def _counts(value: Any, field: str) -> List[int]:
    items = _list(value, field, NUM_TYPES)
    return [_int(x, f"{field}[{t}]", 0, TYPE_COUNTS[t]) for t, x in enumerate(items)]


def _tiles(value: Any, field: str, allowed: Callable[[int], bool], max_length: int) -> List[int]:
    items = _list(value, field, max_length=max_length)
    out = [_int(x, f"{field}[{i}]", 0, NUM_TILES - 1) for i, x in enumerate(items)]
    for i, t in enumerate(out):
        if not allowed(t):
            raise _err(f"{field}[{i}]", f"tile {t} cannot be here")
    if len(set(out)) != len(out):
        raise _err(field, "a tile appears twice")
    return out


def state_from_dict(game: Game, data: Mapping[str, Any], cls: type) -> RulesState:
    """Build and validate a state of class ``cls`` (a :class:`RulesState`) from ``to_dict`` data."""
    if not isinstance(data, Mapping):
        raise InvalidStateError("state", "must be a JSON object")
    reject_unknown_fields(data, FIELDS)
    for key in FIELDS:  # sorted: the first missing field is the one named
        if key not in data:
            raise _err(key, "missing")
    n = game.num_players
    max_life = game.start_life + MAX_EXTRA_LIFE  # type: ignore[attr-defined]
    s: RulesState = cls(game)

    # -- roles and life ---------------------------------------------------------------
    roles = [_int(x, f"roles[{p}]", -1, 2) for p, x in enumerate(_list(data["roles"], "roles", n))]
    s.step = data["step"]
    if s.step not in STEPS:
        raise _err("step", f"must be one of {list(STEPS)}, got {s.step!r}")
    want = sorted([ALIEN] + ([HUNTER] if has_hunter(n) else []) + [HUMAN] * (n - 1 - has_hunter(n)))
    if s.step == "roles":
        if roles.count(ALIEN) > 1 or HUMAN in roles or HUNTER in roles:
            raise _err("roles", "while the roles are dealt only the Alien's seat may be known")
    elif sorted(roles) != want:
        raise _err("roles", f"{n} players have roles {want} (0 Human, 1 Alien, 2 Hunter)")
    s.roles = roles
    s.revealed = [_bool(x, f"revealed[{p}]") for p, x in enumerate(_list(data["revealed"], "revealed", n))]
    s.life = [_int(x, f"life[{p}]", 0, max_life) for p, x in enumerate(_list(data["life"], "life", n))]
    s.alien_card = _bool(data["alien_card"], "alien_card")
    s.result = _int(data["result"], "result", 0, 2)
    if (s.result != NO_RESULT) != (s.step == S_OVER):
        raise _err("result", "a result exactly when the step is over")
    if s.alien_card and not any(s.revealed[p] and s.roles[p] == HUNTER for p in range(n)):
        raise _err("alien_card", "only a revealed Hunter takes the Alien card")
    # Roles are revealed by the Hunter's strike (the Hunter and one dead victim) and by the Alien's weapon.
    victims = [p for p in range(n) if s.revealed[p] and s.roles[p] != HUNTER
               and not (s.step == S_OVER and s.roles[p] == ALIEN and s.life[p] > 0)]
    hunter_out = any(s.revealed[p] and s.roles[p] == HUNTER for p in range(n))
    if len(victims) != (1 if hunter_out else 0) or any(s.life[p] > 0 for p in victims):
        raise _err("revealed", "a revealed Hunter has exactly one dead victim, revealed too")
    if victims and s.alien_card != (s.roles[victims[0]] == ALIEN):
        raise _err("alien_card", "the Hunter takes the Alien card exactly when its victim was the Alien")

    # -- cards ---------------------------------------------------------------------------
    s.hands = [_counts(h, f"hands[{p}]") for p, h in enumerate(_list(data["hands"], "hands", n))]
    s.deck = _counts(data["deck"], "deck")
    s.refresh = _counts(data["refresh"], "refresh")
    s.discard = [_int(x, f"discard[{i}]", 0, NUM_TYPES - 1)
                 for i, x in enumerate(_list(data["discard"], "discard", max_length=NUM_CARDS))]
    s.recoveries = _int(data["recoveries"], "recoveries", 0, NUM_RECOVERY)
    s.dealt = _int(data["dealt"], "dealt", 0, (FIRST_DEAL + SECOND_DEAL) * n)
    s.kept = _counts(data["kept"], "kept")
    s.inv_cards = _counts(data["inv_cards"], "inv_cards")
    s.handout = _counts(data["handout"], "handout")
    s.known = [_counts(h, f"known[{p}]") for p, h in enumerate(_list(data["known"], "known", n))]
    s.deck_known = [_counts(h, f"deck_known[{p}]") for p, h in enumerate(_list(data["deck_known"], "deck_known", n))]
    s.refresh_known = [_counts(h, f"refresh_known[{p}]")
                       for p, h in enumerate(_list(data["refresh_known"], "refresh_known", n))]
    if sum(s.kept) >= KEEP or sum(s.inv_cards) > INVESTIGATION_DRAW:
        raise _err("kept", "at most 2 cards are set aside while keeping, 2 while investigating")
    in_deal = s.step in ("roles", "deal")
    reserve = s._reserve() if in_deal else 0
    for t in range(NUM_TYPES):
        where = (sum(h[t] for h in s.hands) + s.deck[t] + s.refresh[t] + s.discard.count(t) + s.kept[t]
                 + s.inv_cards[t] + s.handout[t] + (s.recoveries + reserve if t == RECOVERY else 0))
        if where != TYPE_COUNTS[t]:
            raise _err("hands", f"{where} cards of type {t} are in play, the game has {TYPE_COUNTS[t]}")
    for p in range(n):
        if s.life[p] == 0 and sum(s.hands[p]) and s.step != "roles":
            raise _err(f"hands[{p}]", "a dead player holds no cards")
        for t in range(NUM_TYPES):
            if s.known[p][t] > s.hands[p][t]:
                raise _err(f"known[{p}][{t}]", "more cards known in the hand than it holds")

    # -- tiles -------------------------------------------------------------------------
    stacks = _list(data["stacks"], "stacks", NUM_STACKS)
    s.stacks = [_tiles(stacks[k], f"stacks[{k}]", lambda t, k=k: TILES[t].stack == k, 16) for k in range(NUM_STACKS)]
    for k in range(NUM_STACKS):
        if s.stacks[k] != sorted(s.stacks[k]):
            raise _err(f"stacks[{k}]", "must be sorted (a stack's order is chance, not state)")
    s.pool = _tiles(data["pool"], "pool", lambda t: t != GROOM_LAKE, NUM_TILES)
    if s.pool != sorted(s.pool):
        raise _err("pool", "must be sorted")
    s.held = _tiles(data["held"], "held", lambda t: t != GROOM_LAKE, SCOUT_DRAW)
    s.pool_known = [_tiles(x, f"pool_known[{p}]", lambda t: t != GROOM_LAKE, NUM_TILES)
                    for p, x in enumerate(_list(data["pool_known"], "pool_known", n))]
    for p in range(n):
        if s.pool_known[p] != sorted(s.pool_known[p]):
            raise _err(f"pool_known[{p}]", "must be sorted")
    placed = _list(data["map"], "map", max_length=NUM_TILES)
    if not placed:
        raise _err("map", "Groom Lake is always on the map")
    s.placed = []
    for i, entry in enumerate(placed):
        f = f"map[{i}]"
        _list(entry, f, 5)
        tile = _int(entry[0], f"{f}[0]", 0, NUM_TILES - 1)
        x = _int(entry[1], f"{f}[1]", -GRID_RADIUS, GRID_RADIUS)
        y = _int(entry[2], f"{f}[2]", -GRID_RADIUS, GRID_RADIUS)
        rot = _int(entry[3], f"{f}[3]", 0, 3)
        open_ = _int(entry[4], f"{f}[4]", 0, 1)
        if (i == 0) != (tile == GROOM_LAKE) or (i == 0 and (x, y, rot) != (0, 0, 0)):
            raise _err(f, "Groom Lake comes first, at (0, 0), unturned")
        if open_ and TILES[tile].hazard == NO_HAZARD:
            raise _err(f"{f}[4]", "only a hazard can be open")
        if i and not fits(s.placed, make_grid(s.placed), x, y, tile, rot):
            raise _err(f, "the tile does not fit there (taken cell, unmatched edges or off the map)")
        s.placed.append([tile, x, y, rot, open_])
    everywhere = [t for k in s.stacks for t in k] + s.pool + s.held + [t[0] for t in s.placed]
    if sorted(everywhere) != list(range(NUM_TILES)):
        raise _err("map", "every tile is in exactly one place: a stack, the pool, a scout's hand or the map")
    grid = make_grid(s.placed)
    for key in ("team", "team_from"):
        pos = [_int(v, f"{key}[{i}]", -GRID_RADIUS, GRID_RADIUS) for i, v in enumerate(_list(data[key], key, 2))]
        j = grid.get((pos[0], pos[1]))
        if j is None or TILES[s.placed[j][0]].terrain == CANYON:
            raise _err(key, "the Team stands on a placed tile that is not a Canyon")
        setattr(s, key, pos)
    if abs(s.team[0] - s.team_from[0]) + abs(s.team[1] - s.team_from[1]) > 1:
        raise _err("team_from", "the Team came from its own or a neighbouring tile")

    # -- the turn and the step's context ----------------------------------------------------
    s.turn = _int(data["turn"], "turn", -1, n - 1)
    s.ap = _int(data["ap"], "ap", 0, ACTIONS_PER_TURN)
    s.half_called = _bool(data["half_called"], "half_called")
    s.half_agreed = _bool(data["half_agreed"], "half_agreed")
    if (s.half_called or s.half_agreed) and not game.half_win:  # type: ignore[attr-defined]
        raise _err("half_called", "the Half-Win exists only in the half_win variant")
    s.cur = _int(data["cur"], "cur", -1, n - 1)
    s.queue = [_int(x, f"queue[{i}]", 0, n - 1)
               for i, x in enumerate(_list(data["queue"], "queue", max_length=NUM_CARDS))]
    s.count = _int(data["count"], "count", 0, max(DISCARD_STACK_SIZE, 6 * max_life + NUM_CARDS))
    s.total = _int(data["total"], "total", 0, 6 * (n * max_life + NUM_CARDS))
    s.target = _int(data["target"], "target", -1, NUM_TILES - 1)
    s.ballots = []
    for i, b in enumerate(_list(data["ballots"], "ballots", max_length=n)):
        _list(b, f"ballots[{i}]", 2)
        s.ballots.append([_int(b[0], f"ballots[{i}][0]", 0, n - 1), _int(b[1], f"ballots[{i}][1]", 0, 1)])
    s.stats = []
    for p, st in enumerate(_list(data["stats"], "stats", n)):
        _list(st, f"stats[{p}]", 2)
        s.stats.append([_int(st[0], f"stats[{p}][0]", 0, BIG), _int(st[1], f"stats[{p}][1]", 0, BIG)])
    _check_context(s, game)
    _check_setup(s, game)
    problems = knowledge_violations(s, 0) + [v for o in range(1, n) for v in knowledge_violations(s, o)
                                             if not v.startswith(("known", "hands", "held"))]
    if problems:
        raise _err(problems[0].split(":")[0], problems[0])
    # Settled: the automatic steps would change nothing, and someone can move.
    settled = s.clone()
    settled._settle()
    if settled.to_dict() != s.to_dict():
        raise _err("step", "not a settled position: automatic steps are still due")
    if s.step != S_OVER and not s.legal_actions():
        raise _err("step", "the position offers no move")
    return s


def _check_setup(s: RulesState, game: Game) -> None:
    """Before the first turn, the records of play are still empty (issue 27: consistency, not only ranges).

    A record that only play can fill (a card known in a hand, a death, the
    Refresh stack, a tile drawn) was accepted during the set-up by range
    checks alone, and the positions it led to no longer loaded: a ``known``
    count raised by one during the deal made a position 38 moves later
    unloadable.
    """
    if not s.in_setup():
        return
    n = game.num_players
    start = game.start_life  # type: ignore[attr-defined]
    for p in range(n):
        if s.life[p] != start:
            raise _err(f"life[{p}]", f"nobody loses life before the first turn: {start} during the set-up")
        if any(s.known[p]):
            raise _err(f"known[{p}]", "no card is taken face up before the first turn: must be all 0 during the set-up")
        if any(s.refresh_known[p]):
            raise _err(f"refresh_known[{p}]", "nothing goes to the Refresh stack before the first turn")
        if s.pool_known[p]:
            raise _err(f"pool_known[{p}]", "no tile is discarded before the first turn")
        if any(s.stats[p]):
            raise _err(f"stats[{p}]", "no play is counted before the first turn")
        if s.revealed[p]:
            raise _err(f"revealed[{p}]", "no role is revealed before the first turn")
        if s.step == S_ROLES and any(s.deck_known[p]):
            raise _err(f"deck_known[{p}]", "no card goes back to the deck before the cards are dealt")
    if any(s.refresh):
        raise _err("refresh", "the Refresh stack is empty before the first turn")
    if s.pool or s.held:
        raise _err("pool" if s.pool else "held", "no tile is drawn before the first turn")


def _check_context(s: RulesState, game: Game) -> None:
    """Step-specific consistency: who decides, what is held, which tile is in play."""
    n = s.n
    step = s.step
    limit = s.limit_seat() >= 0  # a hand-limit discard pending: the step's own progress waits
    if step == S_OVER:
        # The game may end in the middle of a procedure (a card handed out completes the Alien's weapon).
        if s.result == TEAM_ESCAPES and not any(s.life[p] > 0 and s.roles[p] != ALIEN for p in range(n)):
            raise _err("result", "an escape needs a living Human or Hunter")
        return
    setup_steps = ("roles", "deal", "keep")
    if (step in setup_steps) != (s.turn < 0 and step != "row") and not (step == "row" and s.turn < 0):
        raise _err("turn", "the set-up has no turn; play always has one")
    # Issue 37: the turn player dies only where its turn then ends: the Hunter's strike on a Human
    # kills the Hunter too (their cards are shared out: "share"), and the life every player loses when
    # the Discard Stack runs out ends the turn anyway (a new row is dealt: "row"); a scout who loses
    # the last life token placing a tile, or a dead player at "action", hands the turn on at once
    # (not settled). Every other step is a procedure of a living turn player: a scout's tile draw
    # leads to its choice of tile, a handout's draw to its next gift, an investigation's draw to the
    # keeping. Such a document was accepted at its chance steps, and its successors were refused.
    if s.turn >= 0 and s.life[s.turn] == 0 and step not in (S_ROW, S_SHARE):
        raise _err("turn", f"the turn player {s.turn} is dead (life 0): a dead player's turn ends at once, so no "
                           f"procedure of its turn ({step!r}) is under way; only the Hunter's strike ('share') "
                           f"and a new Discard Stack ('row') follow a turn player's death")
    first, full = FIRST_DEAL * n, (FIRST_DEAL + SECOND_DEAL) * n
    if step in ("roles", "deal", "keep") or s.turn < 0:
        if step == "roles" and s.dealt:
            raise _err("dealt", "no card is dealt before the roles")
        if step == "deal":
            if s.dealt >= full:
                raise _err("dealt", "the deal is over")
            if s.dealt < first:
                batch = first - s.dealt
            elif s.deal_together():
                batch = full - s.dealt
            else:
                batch = SECOND_DEAL - (s.dealt - first) % SECOND_DEAL
            if s.count != batch:
                raise _err("count", f"{batch} cards are left to deal in this round")
        if step == "keep" and s.dealt != (full if s.deal_together() else first + SECOND_DEAL * (s.cur + 1)):
            raise _err("dealt", "a seat keeps once its ten cards are dealt")
        if step == "row" and s.dealt != full:
            raise _err("dealt", "every set-up card is dealt before the Discard Stack")
        for p in range(n):
            if step in ("roles", "deal") and (s.dealt < first or s.deal_together()):
                size = s.dealt // n + (1 if p < s.dealt % n else 0)
            elif step == "keep" and s.deal_together():
                size = KEEP if p < s.cur else FIRST_DEAL + SECOND_DEAL - (sum(s.kept) if p == s.cur else 0)
            else:
                seat = s.cur if step == "keep" else s.deal_seat() if step == "deal" else n
                size = (KEEP if p < seat else FIRST_DEAL if p > seat
                        else FIRST_DEAL + s.dealt - first - SECOND_DEAL * seat - sum(s.kept))
            if sum(s.hands[p]) != size:
                raise _err(f"hands[{p}]", f"must hold {size} cards at this point of the set-up")
    elif s.dealt != full:
        raise _err("dealt", "every set-up card is dealt before play")
    if step == "keep":
        if not 0 <= s.cur < n:
            raise _err("cur", "a seat keeps its cards")
    elif any(s.kept):
        raise _err("kept", "cards are set aside only while keeping")
    scouting = step in ("tile_draw", "keep_tile", "place")
    if not scouting and s.held:
        raise _err("held", "tiles are held only during a scout")
    if step == "keep_tile" and len(s.held) != 2 or step == "place" and len(s.held) != 1:
        raise _err("held", f"wrong number of tiles held at step {step}")
    if step == "tile_draw" and (len(s.held) + s.count != SCOUT_DRAW or s.count < 1 or not 0 <= s.target < 3):
        raise _err("count", "a scout draws two tiles from a stack 0..2")
    if step not in ("investigate_draw", "investigate_keep") and any(s.inv_cards):
        raise _err("inv_cards", "cards are drawn for an investigation only during it")
    if step not in ("give", "give_draw", "share") and any(s.handout):
        raise _err("handout", "cards are handed out only after a kill")
    if step == "give_draw" and not any(s.handout):
        raise _err("handout", "nothing to hand out")
    j = s.grid().get((s.team[0], s.team[1]))
    tile = TILES[s.placed[j][0]] if j is not None else None
    if step in ("contribute", "roll"):
        if s.target != j or not s.placed[j][4] or tile is None or tile.hazard in (NO_HAZARD, CRASH):
            raise _err("target", "a hazard is fought on the Team's tile, open and not a Crash Site")
        if step == "contribute" and not limit and (not s.queue or s.cur != s.queue[0]):
            raise _err("queue", "the contributor is the first of the queue")
        if step == "roll" and not limit and (s.count < 1 or s.queue):
            raise _err("count", "dice are left to roll")
    if step in ("assign", "investigate_draw", "investigate_keep"):
        if s.target != j or not s.placed[j][4] or tile is None or tile.hazard != CRASH:
            raise _err("target", "investigations happen on the Team's open Crash Site")
        if s.count > tile.number or (step == "assign" and not limit and s.count < 1):
            raise _err("count", "investigations left are within the site's number")
        if step == "investigate_draw" and not limit and not 1 <= s.total <= INVESTIGATION_DRAW:
            raise _err("total", "cards left to draw for an investigation")
        if step == "investigate_draw" and sum(s.inv_cards) + s.total != INVESTIGATION_DRAW:
            raise _err("inv_cards", "an investigation draws two cards")
        if step == "investigate_keep" and not any(s.inv_cards):
            raise _err("inv_cards", "a card to keep")
    if step in ("vote", "half_vote"):
        if not s.queue or s.cur != s.queue[0] or any(s.life[q] == 0 for q in s.queue):
            raise _err("queue", "the voter is the first of the queue of living voters")
        if step == "vote" and not (0 <= s.target < n and s.life[s.target] > 0):
            raise _err("target", "a living player is voted on")
        if step == "half_vote" and not s.half_called:
            raise _err("half_called", "a Half-Win vote follows a proposal")
    elif s.ballots:
        raise _err("ballots", "votes are recorded only during a vote")
    if step in ("give", "give_draw") and not (0 <= s.cur < n):
        raise _err("cur", "someone hands the cards out")
    if step == "give_draw" and not (0 <= s.target < n and s.life[s.target] > 0):
        raise _err("target", "the card goes to a living player")
    if step == "share" and any(s.life[q] == 0 for q in s.queue):
        raise _err("queue", "the cards are dealt to living players")
    if step in ("action", "keep_tile", "place", "turn_discard") and s.cur != s.turn:
        raise _err("cur", "the player whose turn it is decides")
    if step in ("roles", "deal", "row", "tile_draw", "roll", "share") and s.cur != -1 and step != "tile_draw":
        raise _err("cur", "nobody decides at this chance step")
    if s.result == TEAM_ESCAPES and not any(s.life[p] > 0 and s.roles[p] != ALIEN for p in range(n)):
        raise _err("result", "an escape needs a living Human or Hunter")
