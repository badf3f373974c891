"""The game told as a story, seat by seat: log lines per move, a sentence per turn, the outcome.

* :func:`narrate` -- the lines of one move (a decision or a chance outcome) as a
  seat may read them: the move itself, then every automatic step it set off that
  the seat can see (points scored, lives lost, cards drawn, a vote's result...).
* :func:`turn_summary` -- one sentence for a whole turn of one seat ("Player 1
  raised building 9 and walked to r6c5."), for the bots' turns.
* :func:`outcome` -- at the end: each seat's result, the winner(s) and why.
* :func:`final_scores` -- the final scores a seat may know (the protocol's ``scores``).
* :func:`match_log` / :func:`match_summaries` -- the same over a
  :class:`~aiplay.match.Match`'s history since a ply (the protocol's ``log``).

Per game, ``games/<g>/narrate.py`` may define:

* ``events(before, after, mover, name, viewer) -> List[str]``: the automatic
  steps, read from the viewer's ``view`` before and after the move (two dicts);
* ``past_tense(name) -> str``: a move as a phrase for summaries ("raised building 9");
* ``outcome_reason(view, returns, scores) -> Optional[str]``: why the game ended as it did;
* ``public_scores(view, scores) -> List[Optional[float]]``: the final scores a seat may know
  (None: not revealed), for a game whose scores are not all shown at the end (default: all are);
* ``GENERIC_EVENTS = False`` to switch the generic score and life lines off.

Seat safety: everything here is computed from what the seat reads -- the move's
name as it sees it (:func:`aiplay.game.seen_action`), its ``view`` before and
after, the public returns at the end -- never from the state's hidden parts, so
two games a seat cannot tell apart give it the same bytes (the twin tests check it).
``viewer=None`` (a referee) reads seat 0's views with every move name in full.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from aiplay.game import CHANCE, State, check_player, seen_action
from aiplay.views.hooks import game_module

#: Per-seat numbers of a view's ``seats`` entries that the generic narrator reports when they change.
COUNTED = (("score", "point", "points"), ("points", "point", "points"), ("life", "life", "lives"),
           ("lives", "life", "lives"))
#: A summary names at most this many moves of one turn; the rest are counted.
SUMMARY_MOVES = 6


def plural(count: int, word: str, words: Optional[str] = None) -> str:
    """``"1 card"``, ``"2 cards"`` (``words``: the irregular plural)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def seat_name(seat: int, viewer: Optional[int] = None) -> str:
    """``"player 2"`` (the engine's seats count from 0, as every screen shows them)."""
    return f"player {seat}"


def _view(state: State, viewer: Optional[int]) -> Mapping[str, Any]:
    try:
        view = state.view(0 if viewer is None else viewer)
    except Exception:  # noqa: BLE001 - a game without views narrates its moves only
        return {}
    return view if isinstance(view, Mapping) else {}


def move_line(mover: int, name: str) -> str:
    """The log line of the move itself."""
    return f"chance: {name}" if mover == CHANCE else f"{seat_name(mover)}: {name}"


def generic_events(before: Mapping[str, Any], after: Mapping[str, Any]) -> List[str]:
    """Score and life changes of each seat, read from two views (``seats[i].score``, ``.life``...)."""
    lines: List[str] = []
    seats_before, seats_after = before.get("seats"), after.get("seats")
    if not (isinstance(seats_before, list) and isinstance(seats_after, list)
            and len(seats_before) == len(seats_after)):
        return lines
    for i, (old, new) in enumerate(zip(seats_before, seats_after)):
        if not (isinstance(old, Mapping) and isinstance(new, Mapping)):
            continue
        seat = new.get("seat", i)
        for key, word, words in COUNTED:
            a, b = old.get(key), new.get(key)
            if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and a != b:
                change = b - a
                verb = "gains" if change > 0 else "loses"
                lines.append(f"{seat_name(seat)} {verb} {plural(abs(change), word, words)} (now {b})")
    return lines


def narrate(before: State, action: int, after: State, viewer: Optional[int]) -> List[str]:
    """The log lines of ``action`` played in ``before`` (giving ``after``), as seat ``viewer`` may read them.

    The first line is the move ("player 1: raise building 9", "chance: deal a
    card to player 2"); the others are the automatic steps the seat can see.
    """
    if viewer is not None:
        viewer = check_player(viewer, before.game.num_players)
    mover = before.current_player()
    _, name = seen_action(before, action, viewer)
    view_before, view_after = _view(before, viewer), _view(after, viewer)
    line = move_line(mover, name)
    deck_a, deck_b = view_before.get("deck_size"), view_after.get("deck_size")
    if mover == CHANCE and isinstance(deck_a, int) and isinstance(deck_b, int) and deck_b < deck_a:
        line += f" ({plural(deck_b, 'card')} left in the deck)"  # a running count of the draws
    lines = [line]
    module = game_module(before, "narrate")
    hook = getattr(module, "events", None)
    if callable(hook):
        lines.extend(str(x) for x in hook(view_before, view_after, mover, name, viewer))
    if getattr(module, "GENERIC_EVENTS", True):
        lines.extend(generic_events(view_before, view_after))
    return lines


def past_tense(game: Any, name: str) -> str:
    """A move's name as a phrase for a summary ("raised building 9"); the name itself by default."""
    hook = getattr(game_module(game, "narrate"), "past_tense", None)
    if callable(hook):
        text = hook(name)
        if text is not None:
            return str(text)  # "" leaves the move out of summaries (a block's start or end)
    return name


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def turn_summary(game: Any, player: int, names: Sequence[str]) -> str:
    """One sentence for a turn of ``player`` made of the moves ``names`` (as the reader saw them).

    Repeated moves are counted ("made 8 hidden choices", "handed a card to player 3
    (5 times)"); a long turn names its first moves and counts the rest.
    """
    # Identical phrases are counted where they first came (a long hand-out of cards is one phrase).
    counts: Dict[str, int] = {}
    for name in names:
        phrase = past_tense(game, name)
        if phrase:
            counts[phrase] = counts.get(phrase, 0) + 1
    phrases = list(counts.items())
    parts = []
    for phrase, count in phrases:
        if count == 1:
            parts.append(f"made {phrase}" if phrase.startswith("a ") else phrase)
        elif phrase.startswith("a "):
            parts.append(f"made {count} {phrase[2:]}s" if not phrase.startswith("a hidden") else
                         f"made {count} hidden {phrase[len('a hidden '):]}s")
        else:
            parts.append(f"{phrase} ({count} times)")
    if len(parts) > SUMMARY_MOVES:
        rest = len(parts) - (SUMMARY_MOVES - 1)
        parts = parts[:SUMMARY_MOVES - 1] + [plural(rest, "more move")]
    if not parts:
        return f"{seat_name(player).capitalize()} did nothing."
    return f"{seat_name(player).capitalize()} {_join(parts)}."


def _returns_words(returns: Sequence[float]) -> List[int]:
    best = max(returns)
    return [p for p, r in enumerate(returns) if r == best]


def final_scores(state: State, viewer: Optional[int] = None) -> List[Optional[float]]:
    """The scores of a finished game as seat ``viewer`` may know them (None: a score it was not shown).

    Most games show every score at the end; a game whose rules keep some hidden (the Alien's
    Alien Proof when the Alien wins, say) says which in ``games/<g>/narrate.py::public_scores``.
    ``viewer=None`` (a referee) gets them all.
    """
    scores = [float(x) for x in state.scores()]
    hook = getattr(game_module(state, "narrate"), "public_scores", None)
    if viewer is None or not callable(hook):
        return list(scores)
    viewer = check_player(viewer, state.game.num_players)
    shown = list(hook(_view(state, viewer), scores))
    return [None if x is None else float(x) for x in shown]


def outcome(state: State, viewer: Optional[int] = None) -> Dict[str, Any]:
    """The end of the game as seat ``viewer`` reads it (JSON-ready).

    ``{"winners": [...], "draw": bool, "seats": [{"seat", "score" (None: not
    shown to this seat), "return", "result"}], "text": "Player 1 won with 12 points. ..."}``; results are
    "won", "lost" or "draw". The winners are the seats with the best return.
    """
    if viewer is not None:
        viewer = check_player(viewer, state.game.num_players)
    returns = [float(r) for r in state.returns()]
    scores = final_scores(state, viewer)
    winners = _returns_words(returns)
    draw = len(winners) == len(returns)
    seats = [{"seat": p, "score": scores[p], "return": returns[p],
              "result": "draw" if draw else ("won" if p in winners else "lost")} for p in range(len(returns))]
    names = [seat_name(p) for p in winners]
    if draw:
        text = "The game is a draw: every player has the same result."
    else:
        verb = "won" if len(winners) == 1 else "won together"
        text = f"{_join(names).capitalize()} {verb}."
    hook = getattr(game_module(state, "narrate"), "outcome_reason", None)
    reason = hook(_view(state, viewer), returns, scores) if callable(hook) else None
    if not reason and any(scores) and None not in scores and not draw:
        if len(winners) == 1:
            others = ", ".join(f"{seat_name(p)} {_num(scores[p])}" for p in range(len(scores)) if p not in winners)
            reason = f"Final scores: {seat_name(winners[0])} {_num(scores[winners[0]])}; {others}."
        else:
            reason = "Final scores: " + ", ".join(f"{seat_name(p)} {_num(s)}" for p, s in enumerate(scores)) + "."
    if reason:
        text += " " + str(reason)
    return {"winners": winners, "draw": draw, "seats": seats, "text": text}


def _num(x: Optional[float]) -> str:
    if x is None:
        return "?"  # a score the seat was not shown
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def match_log(match: Any, since: int, viewer: Optional[int]) -> List[str]:
    """The log lines of ``match``'s moves from ply ``since`` on, as ``viewer`` reads them."""
    lines: List[str] = []
    history = match.history
    for ply in range(max(0, since), len(history)):
        before = match.position_before(ply)
        after = match.position_before(ply + 1) if ply + 1 < len(history) else match.state
        action = history[ply].action
        lines.extend(narrate(before, action, after, viewer))
    return lines


def match_summaries(match: Any, since: int, viewer: Optional[int]) -> List[str]:
    """One :func:`turn_summary` per turn of another seat than ``viewer`` among the moves from ``since``.

    A turn begun before ``since`` is summarised from its start, so a reader sees it whole.
    """
    history = match.history_seen_by(viewer)
    recent = {m.turn for m in history[max(0, since):] if m.player != CHANCE and m.player != viewer}
    turns: Dict[int, Tuple[int, List[str]]] = {}
    for move in history:
        if move.player != CHANCE and move.turn in recent:
            turns.setdefault(move.turn, (move.player, []))[1].append(move.name)
    return merge_summaries([turn_summary(match.game, player, names) for _, (player, names) in sorted(turns.items())])


def merge_summaries(sentences: Sequence[str]) -> List[str]:
    """Consecutive sentences that say the same of different players, as one:
    "Player 1 made a hidden choice." x3 -> "Players 1, 2 and 3 each made a hidden choice."."""
    out: List[str] = []
    group: List[str] = []
    rest = None
    for sentence in list(sentences) + [""]:
        words = sentence.split(" ", 2)
        same = len(words) == 3 and words[0] == "Player" and words[2] == rest and words[1] not in group
        if same:
            group.append(words[1])
            continue
        if group:
            out.append(f"Player {group[0]} {rest}" if len(group) == 1 else f"Players {_join(group)} each {rest}")
        group, rest = ([words[1]], words[2]) if len(words) == 3 and words[0] == "Player" else ([], None)
        if not group and sentence:
            out.append(sentence)
    return out


__all__ = ["final_scores", "generic_events", "match_log", "match_summaries", "merge_summaries", "move_line", "narrate", "outcome", "past_tense",
           "plural", "seat_name", "turn_summary"]
