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
* ``GENERIC_EVENTS = False`` to switch the generic score and life lines off;
* ``chance_lines(names, viewer) -> List[str]``: a run of chance outcomes that came together
  (a deal, a roll of several dice) as a few plain sentences ("You were dealt Rope and Water.",
  "Players 1 and 2 were dealt 2 cards each."), from their names as the viewer reads them (default:
  "deal X to player N" steps told so, any other step as its name);
* ``HIDDEN_NAMES``: the names a seat reads for another seat's hidden moves ("a hidden choice");
* ``phase_ended(before, after) -> bool``: this step ends a stretch of hidden choices (a
  simultaneous phase), so the choices' results are now public;
* ``summary_extra(before, after, name, viewer) -> Optional[str]``: what a move showed that its name
  does not say, put in brackets after it in a turn summary ("picked up hangar 2 of R0 (green 1, blue 2
  and brown 2 shown)");
* ``revealed(before, after, viewer) -> Dict[int, List[str]]``: at such a step, per other seat, what
  became public of its hidden choices, as past-tense phrases ("placed an assistant at the
  Workshop") for the log and the turn summaries.

Seat safety: everything here is computed from what the seat reads -- the move's
name as it sees it (:func:`aiplay.game.seen_action`), its ``view`` before and
after, the public returns at the end -- never from the state's hidden parts, so
two games a seat cannot tell apart give it the same bytes (the twin tests check it).
``viewer=None`` (a referee) reads seat 0's views with every move name in full.
"""

from __future__ import annotations

import re
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


def move_line(mover: int, name: str, game: Any = None, viewer: Optional[int] = None) -> str:
    """The log line of the move itself: "player 1: raise building 9"; a chance outcome in words
    (the game's ``chance_lines``, else its name: "Reveal Dust Storm")."""
    if mover != CHANCE:
        return f"{seat_name(mover)}: {name}"
    told = chance_lines(game, [name], viewer) if game is not None else [name[:1].upper() + name[1:]]
    return "; ".join(told) if told else "(a chance step)"


def chance_lines(game: Any, names: Sequence[str], viewer: Optional[int]) -> List[str]:
    """Chance outcomes that came one after the other (as the viewer reads their names), in plain sentences."""
    hook = getattr(game_module(game, "narrate"), "chance_lines", None)
    if callable(hook):
        return [str(x) for x in hook(list(names), viewer)]
    return chance_story(names, viewer, GENERIC_SHARES)


#: The deals most games name alike ("deal K to player 0", "deal a card to player 1"), for games without
#: a ``chance_lines`` of their own.
GENERIC_SHARES: Tuple[Tuple[str, str, str, Tuple[str, str]], ...] = (
    (r"[Dd]eal (?P<what>.+) to player (?P<seat>\d+)", "was dealt", "were dealt", ("card", "cards")),)


def who(seat: int, viewer: Optional[int]) -> str:
    """ "You" for the viewer's own seat, else "Player 2" (a sentence's subject)."""
    return "You" if seat == viewer else seat_name(seat).capitalize()


def shares(items: Sequence[Tuple[int, Optional[str]]], viewer: Optional[int], verb: str, you_verb: str,
           unit: Tuple[str, str] = ("card", "cards")) -> List[str]:
    """Things handed out to seats, one sentence per seat that may read them and one for the rest.

    ``items``: (seat, the thing's name, or None where the viewer may not see it), in order.
    "You were dealt orange 2, green 1 and blue 2." / "Players 1, 2 and 3 were dealt 3 cards each."
    Only names the viewer read are named; the rest are counted.
    """
    order: List[int] = []
    named: Dict[int, List[str]] = {}
    hidden: Dict[int, int] = {}
    for seat, name in items:
        if seat not in order:
            order.append(seat)
        if name is None:
            hidden[seat] = hidden.get(seat, 0) + 1
        else:
            named.setdefault(seat, []).append(name)
    lines: List[str] = []
    counted: Dict[int, List[int]] = {}
    for seat in order:
        if seat in named:
            extra = f" and {plural(hidden[seat], unit[0], unit[1])} more" if seat in hidden else ""
            lines.append(f"{who(seat, viewer)} {you_verb if seat == viewer else verb} {_join(named[seat])}{extra}.")
        else:
            counted.setdefault(hidden[seat], []).append(seat)
    for count, seats in counted.items():
        if len(seats) == 1:
            lines.append(f"{who(seats[0], viewer)} {you_verb if seats[0] == viewer else verb} "
                         f"{plural(count, unit[0], unit[1])}.")
        else:
            lines.append(f"Players {_join([str(p) for p in seats])} {_plural_verb(verb)} "
                         f"{plural(count, unit[0], unit[1])} each.")
    return lines


#: A kind of chance step for :func:`chance_story`: (pattern with a ``seat`` group and an optional ``what``
#: group, verb for another seat, verb for the viewer, the thing counted (singular, plural)).
ShareRule = Tuple[str, str, str, Tuple[str, str]]


def chance_story(names: Sequence[str], viewer: Optional[int], share_rules: Sequence[ShareRule],
                 list_rules: Sequence[Tuple[str, str]] = (), skip: Sequence[str] = ()) -> List[str]:
    """A run of chance steps in sentences, for a game's ``chance_lines``.

    Steps matching a ``share_rules`` pattern one after another are told by :func:`shares`
    (``what`` absent or "a card": hidden from the viewer, counted); steps matching a
    ``list_rules`` pattern (with a ``what`` group) are listed after its prefix ("Laid out face
    up: Shovel, Rope and Water."); ``skip`` patterns say nothing; anything else is its name.
    """
    lines: List[str] = []
    group: List[Tuple[int, Optional[str]]] = []
    listed: List[str] = []
    rule: Any = None

    def flush() -> None:
        if group:
            _, verb, you_verb, unit = rule
            lines.extend(shares(group, viewer, verb, you_verb, unit))
        if listed:
            lines.append(f"{rule[1]} {_join(listed)}.")
        group.clear()
        listed.clear()

    rules: List[Tuple[bool, Any]] = [(True, r) for r in share_rules] + [(False, r) for r in list_rules]
    for name in names:
        if any(re.fullmatch(p, name) for p in skip):
            continue
        found = next(((shared, r, m) for shared, r in rules for m in [re.fullmatch(r[0], name)] if m), None)
        if found is None:
            flush()
            rule = None
            lines.append(name[:1].upper() + name[1:] + ".")
            continue
        shared, candidate, m = found
        if candidate is not rule:
            flush()
            rule = candidate
        if shared:
            what = m.groupdict().get("what")
            hidden = what is None or re.fullmatch(r"an? (card|tile|feat)", what) is not None
            group.append((int(m.group("seat")), None if hidden else what))
        else:
            listed.append(m.group("what"))
    flush()
    return lines


def _plural_verb(verb: str) -> str:
    """ "was dealt" -> "were dealt", "gets" -> "get", "draws" -> "draw" (a verb phrase for several subjects)."""
    first, _, rest = verb.partition(" ")
    if first == "was":
        first = "were"
    elif first == "has":
        first = "have"
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return f"{first} {rest}".strip()


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


def _parts(before: State, action: int, after: State,
           viewer: Optional[int]) -> Tuple[int, str, Mapping[str, Any], Mapping[str, Any], List[str]]:
    """A move as the viewer reads it: (mover, name, view before, view after, the automatic steps' lines)."""
    mover = before.current_player()
    _, name = seen_action(before, action, viewer)
    view_before, view_after = _view(before, viewer), _view(after, viewer)
    lines: List[str] = []
    module = game_module(before, "narrate")
    hook = getattr(module, "events", None)
    if callable(hook):
        lines.extend(str(x) for x in hook(view_before, view_after, mover, name, viewer))
    if getattr(module, "GENERIC_EVENTS", True):
        lines.extend(generic_events(view_before, view_after))
    return mover, name, view_before, view_after, lines


def _deck_note(view_before: Mapping[str, Any], view_after: Mapping[str, Any]) -> str:
    deck_a, deck_b = view_before.get("deck_size"), view_after.get("deck_size")
    if isinstance(deck_a, int) and isinstance(deck_b, int) and deck_b < deck_a:
        return f" ({plural(deck_b, 'card')} left in the deck)"  # a running count of the draws
    return ""


def narrate(before: State, action: int, after: State, viewer: Optional[int]) -> List[str]:
    """The log lines of ``action`` played in ``before`` (giving ``after``), as seat ``viewer`` may read them.

    The first line is the move ("player 1: raise building 9", "Player 2 was dealt 1 card."); the
    others are the automatic steps the seat can see.
    """
    if viewer is not None:
        viewer = check_player(viewer, before.game.num_players)
    mover, name, view_before, view_after, lines = _parts(before, action, after, viewer)
    line = move_line(mover, name, before, viewer)
    if mover == CHANCE:
        line += _deck_note(view_before, view_after)
    return [line] + lines


def hidden_names(game: Any) -> Tuple[str, ...]:
    """The names a seat reads for another seat's hidden moves in ``game`` (its narrate's ``HIDDEN_NAMES``)."""
    return tuple(getattr(game_module(game, "narrate"), "HIDDEN_NAMES", ()))


def phase_ended(game: Any, view_before: Mapping[str, Any], view_after: Mapping[str, Any]) -> bool:
    """Whether this step ends a stretch of hidden choices (the game's ``phase_ended``; never by default)."""
    hook = getattr(game_module(game, "narrate"), "phase_ended", None)
    return bool(hook(view_before, view_after)) if callable(hook) else False


def revealed(game: Any, view_before: Mapping[str, Any], view_after: Mapping[str, Any],
             viewer: Optional[int]) -> Dict[int, List[str]]:
    """Per other seat, what became public of its hidden choices at a step that ends them (phrases)."""
    hook = getattr(game_module(game, "narrate"), "revealed", None)
    if not callable(hook) or not phase_ended(game, view_before, view_after):
        return {}
    return {int(k): [str(x) for x in v] for k, v in hook(view_before, view_after, viewer).items()}


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


def turn_summary(game: Any, player: int, names: Sequence[str], extras: Optional[Sequence[Optional[str]]] = None) -> str:
    """One sentence for a turn of ``player`` made of the moves ``names`` (as the reader saw them).

    Repeated moves are counted ("made 8 hidden choices", "handed a card to player 3
    (5 times)"); a long turn names its first moves and counts the rest. ``extras``: per move,
    what it showed that its name does not say (the game's ``summary_extra``), in brackets after it.
    """
    # Identical phrases are counted where they first came (a long hand-out of cards is one phrase).
    counts: Dict[str, int] = {}
    for k, name in enumerate(names):
        phrase = past_tense(game, name)
        extra = extras[k] if extras is not None and k < len(extras) else None
        if phrase and extra:
            phrase += f" ({extra})"
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
    """The log lines of ``match``'s moves from ply ``since`` on, as ``viewer`` reads them.

    Written for a person: chance outcomes that came together are told in a few sentences
    (the game's ``chance_lines``: "Player 0 rolled 2, 3 and 1."), and another seat's hidden
    choices are one line while their phase lasts ("player 1 made 7 hidden choices"), none once
    it has ended: the step that ends it says what became public (the game's ``events``).
    """
    if viewer is not None:
        viewer = check_player(viewer, match.game.num_players)
    history = match.history
    entries = []
    for ply in range(max(0, since), len(history)):
        before = match.position_before(ply)
        after = match.position_before(ply + 1) if ply + 1 < len(history) else match.state
        entries.append(_parts(before, history[ply].action, after, viewer))
    game = match.game
    hidden = set(hidden_names(game))
    ends = [i for i, e in enumerate(entries) if hidden and phase_ended(game, e[2], e[3])]
    lines: List[str] = []
    i = 0
    while i < len(entries):
        mover, name, _, _, _ = entries[i]
        if name in hidden:
            # One seat's hidden moves (and the hidden chance steps among them), up to its next seen move.
            j, seat, count = i, None, 0
            while j < len(entries) and entries[j][1] in hidden and (
                    entries[j][0] == CHANCE or seat is None or entries[j][0] == seat):
                if entries[j][0] != CHANCE:
                    seat = entries[j][0] if seat is None else seat
                    count += 1
                j += 1
            # The step that closes the run is inside it when the run's last step ends the phase.
            if seat is not None and not any(e >= j - 1 for e in ends):
                lines.append(f"{seat_name(seat)} made {plural(count, 'hidden choice')} (shown when the phase ends)")
            for k in range(i, j):
                lines.extend(entries[k][4])
            i = j
            continue
        if mover == CHANCE:
            j = i
            while j < len(entries) and entries[j][0] == CHANCE and entries[j][1] not in hidden:
                j += 1
            told = chance_lines(game, [e[1] for e in entries[i:j]], viewer)
            note = _deck_note(entries[i][2], entries[j - 1][3])
            lines.extend(told)
            if note:
                lines.append(note.strip(" ()").capitalize() + ".")
            for k in range(i, j):
                lines.extend(entries[k][4])
            i = j
            continue
        lines.extend(_decision_line(game, mover, name))
        lines.extend(entries[i][4])
        i += 1
    return _counted(lines)


def _counted(lines: Sequence[str]) -> List[str]:
    """Identical lines in a row as one: "player 1 kept a card (3 times)"."""
    out: List[str] = []
    count = 0
    for k, line in enumerate(lines):
        count += 1
        if k + 1 < len(lines) and lines[k + 1] == line:
            continue
        out.append(line if count == 1 else f"{line.rstrip('.')} ({count} times)" + ("." if line.endswith(".") else ""))
        count = 0
    return out


def _decision_line(game: Any, mover: int, name: str) -> List[str]:
    """A seat's move in words for the log: its summary phrase ("player 1 raised building 9"); none for a
    step a phrase has no words for (a block's start or end: "raise", "done"); else "player 1: name"."""
    phrase = past_tense(game, name)
    if phrase == name:
        return [move_line(mover, name)]
    return [f"{seat_name(mover)} {phrase}"] if phrase else []


def match_summaries(match: Any, since: int, viewer: Optional[int]) -> List[str]:
    """One :func:`turn_summary` per turn of another seat than ``viewer`` among the moves from ``since``.

    A turn begun before ``since`` is summarised from its start, so a reader sees it whole. A turn
    of hidden choices whose phase has ended since says what became public of them instead
    (the game's ``revealed``).
    """
    history = match.history_seen_by(viewer)
    recent = {m.turn for m in history[max(0, since):] if m.player != CHANCE and m.player != viewer}
    turns: Dict[int, Tuple[int, List[str], List[int]]] = {}
    for ply, move in enumerate(history):
        if move.player != CHANCE and move.turn in recent:
            player, names, plies = turns.setdefault(move.turn, (move.player, [], []))
            names.append(move.name)
            plies.append(ply)
    hidden = set(hidden_names(match.game))
    extra_hook = getattr(game_module(match.game, "narrate"), "summary_extra", None)
    sentences = []
    for _, (player, names, plies) in sorted(turns.items()):
        told = _revealed_turn(match, player, plies[-1], viewer) if hidden and all(n in hidden for n in names) else None
        if told is not None:
            sentences.append(f"{seat_name(player).capitalize()} {_join(told)}." if told else
                             f"{seat_name(player).capitalize()} changed nothing anyone can see.")
        elif callable(extra_hook):
            extras = []
            for ply, name in zip(plies, names):
                after = match.position_before(ply + 1) if ply + 1 < match.ply else match.state
                extras.append(extra_hook(_view(match.position_before(ply), viewer), _view(after, viewer), name, viewer))
            sentences.append(turn_summary(match.game, player, names, extras))
        else:
            sentences.append(turn_summary(match.game, player, names))
    return merge_summaries(sentences)


def _revealed_turn(match: Any, player: int, last: int, viewer: Optional[int]) -> Optional[List[str]]:
    """What became public of ``player``'s hidden moves (its last at ply ``last``) when their phase ended,
    read from the viewer's views; None while the phase lasts."""
    for ply in range(last, match.ply):
        before = match.position_before(ply)
        after = match.position_before(ply + 1) if ply + 1 < match.ply else match.state
        view_before, view_after = _view(before, viewer), _view(after, viewer)
        if phase_ended(match.game, view_before, view_after):
            return revealed(match.game, view_before, view_after, viewer).get(player, [])
    return None


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


__all__ = ["chance_lines", "chance_story", "final_scores", "generic_events", "hidden_names", "match_log", "match_summaries",
           "merge_summaries", "move_line", "narrate", "outcome", "past_tense", "phase_ended", "plural", "revealed",
           "seat_name", "shares", "turn_summary", "who"]
