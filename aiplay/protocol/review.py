"""The protocol's ``review`` command: the coach (:mod:`aiplay.review`) on an open game, in the background.

Kept out of :mod:`aiplay.protocol.server` (the server registers :func:`start_review` as the
command). The review runs in the game's worker thread like a search: ``progress`` lines after each
decision, ``stop`` (the game's stop event) ends it and the reply carries the partial review
(``"partial": true``). docs/protocol.md, ``review``, is the specification.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List

from aiplay.match import Match
from aiplay.review import Decision, Review, review
from aiplay.views.guide import name_meaning
from aiplay.protocol.wire import ProtocolError, _field

#: Fields of ``review`` that set the search budget per decision.
BUDGET_FIELDS = ("iterations", "seconds", "nodes")


def start_review(server: Any, request: Dict[str, Any]) -> None:
    """Check a ``review`` request and start it in the game's worker thread (the reply comes from there).

    ``server`` is the :class:`~aiplay.protocol.server.Server`; its session helpers give the game and
    the client's viewer. A client that sees the game as one seat may review that seat only, in a
    game with hidden information (another seat's review reads that seat's cards); "viewer": "all"
    may review any seat.
    """
    session = server._session(request, idle=True)
    match = session.match
    game = match.game
    viewer = server._viewer(request, session)
    seat = _field(request, "seat", (int,), viewer)
    if seat is None:
        raise ProtocolError(f"missing field 'seat': the seat whose decisions to review (0..{game.num_players - 1})")
    if not 0 <= seat < game.num_players:
        raise ProtocolError(f"field 'seat' must be a seat 0..{game.num_players - 1}, got {seat}")
    if viewer is not None and seat != viewer and not game.perfect_information:
        raise ProtocolError(f"this client sees the game as seat {viewer}: it may review that seat only (another "
                            f"seat's review reads what that seat knew; \"viewer\": \"all\" may review any seat)")
    budget = {key: _field(request, key, (int, float) if key == "seconds" else (int,)) for key in BUDGET_FIELDS}
    budget = {key: value for key, value in budget.items() if value is not None}
    options: Dict[str, Any] = {
        "budget": budget or None,
        "seed": _field(request, "seed", (int,), session.seed),
        "exact": _field(request, "exact", (bool,), True),
        "repeats": _field(request, "repeats", (int,), 1),
        "viewer": viewer,
        "viewer_all": viewer is None,
    }
    record = match.to_record()  # a snapshot: the review reads it while the game may go on
    request_id = request.get("id")
    session.bot = None
    session.solving = False
    session.search_private = False
    session.stop_event.clear()

    def progress(done: int, total: int, decision: Decision) -> None:
        server.send({"id": request_id, "type": "progress", "cmd": "review", "ok": True,
                     "game_id": session.game_id, "done": done, "total": total,
                     "turn": decision.turn, "label": decision.label})

    def work() -> None:
        try:
            result = review(record, seat, progress=progress, cancel=session.stop_event, **options)
            meanings = decision_meanings(record, result, viewer)
            session.active = False
            server.reply(request_id, "review", server._with_status(session, {"review": result.to_dict(),
                                                                              "stopped": result.partial,
                                                                              "meanings": meanings}))
        except Exception as exc:
            session.active = False
            server.fail(request_id, "review", exc)

    thread = threading.Thread(target=work, name=f"aiplay-review-{session.game_id}", daemon=True)
    session.thread = thread
    session.active = True
    thread.start()


def decision_meanings(record: Dict[str, Any], result: Review, viewer: Any) -> List[Dict[str, str]]:
    """What the played and the best move of each reviewed decision do, in words, as the seat read them then.

    One entry per decision of ``result`` (``{"played": ..., "best": ...}``): the game's move meanings
    (its guide) of the names the review gives, read against the seat's own view of the position
    before the move (the viewer's, or the reviewed seat's for a client that sees everything). Only
    what the seat saw goes in, so twins get the same words (``tests/test_review_twins.py``).
    """
    if not result.decisions:
        return []
    match = Match.from_record(record)
    seat = result.seat if viewer is None else viewer
    out = []
    for d in result.decisions:
        state = match.position_before(d.ply)
        view = state.view(seat)
        out.append({"played": name_meaning(state, d.played_name, view),
                    "best": name_meaning(state, d.best_name, view)})
    return out


__all__ = ["BUDGET_FIELDS", "decision_meanings", "start_review"]
