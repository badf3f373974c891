// The coach in the browser demo: "Review my game" under the game-over panel (issue 39).
// Loaded after demo.js, whose helpers it uses ($, demo, request, fitBoard, frameOf, boardSvg,
// chancesInWords, render); demo.js calls offerReview(status) when a game ends.
//
// Contract with the engine (docs/protocol.md):
// - {"cmd": "review", "seat": <the person's seat>, "iterations": N} reviews the seat's decisions;
//   streamed lines {"type": "progress", "done", "total"} drive the bar ("decision 4 of 17"); a
//   {"cmd": "stop"} ends it and the reply's review says "partial": true. The reply's "meanings"
//   (one per decision: {played, best}) tell what the two moves do, in the game's words.
// - The board of a past decision: {"cmd": "view", "player": seat, "ply": d.ply, "render": "svg"},
//   the position before that move as the seat saw it then (never more: the page only ever asks as
//   its own seat). Its "targets" map the moves legal then to the picture's elements: the move
//   played is framed in one colour, the better one in another; a move without a place is named.
"use strict";

// Search iterations per decision: a whole game's review in well under 30 s on two shared cores
// (measured on each board game's default table, 2026-11-28, load 7 on 2 cores: 2 to 12 s; a seat
// has some 25 to 130 decisions; Sunken City's few exact endgame solves take most of its 12 s).
// Coarser than `aiplay review`'s 4,000: the page says so, and ?review_iterations=N changes it.
const COACH_ITERATIONS = 1000;

const coach = {
  running: false,     // a review request is under way
  review: null,       // the last review reply's "review" (or null)
  meanings: [],       // the reply's "meanings", one per decision
  order: [],          // indices into review.decisions, the biggest loss first
  at: -1,             // the position in ``order`` shown on the board (-1: none)
  gameId: null,       // the game the review (or the offer) is of
  progress: [],       // every progress line received (for the browser test)
};
window.aiplayCoach = coach;

function coachIterations() {
  const wanted = Number(demo.params.get("review_iterations"));
  return Number.isInteger(wanted) && wanted > 0 ? wanted : COACH_ITERATIONS;
}

// The coach's box, under the game-over panel (made once, emptied for each game).
function coachBox() {
  let box = $("review");
  if (!box) {
    box = document.createElement("div");
    box.id = "review";
    $("result").after(box);
  }
  return box;
}

function coachElement(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Called by demo.js's game-over panel: a button that starts the review of the person's seat.
function offerReview(status) {
  // Back from the review's boards to the final position: the game-over panel is drawn again, the review stays.
  if (coach.gameId === demo.gameId && (coach.review || coach.running)) return;
  coach.gameId = demo.gameId;
  const box = coachBox();
  box.innerHTML = "";
  coach.review = null;
  coach.meanings = [];
  coach.order = [];
  coach.at = -1;
  coach.progress = [];
  const button = coachElement("button", "", "Review my game");
  button.id = "review-start";
  button.type = "button";
  button.title = "The coach prices each of your decisions with a search from what you knew at that moment";
  button.addEventListener("click", startReview);
  box.appendChild(button);
  box.hidden = false;
}

async function startReview() {
  if (coach.running || !demo.gameId) return;
  coach.running = true;
  coach.progress = [];
  const box = coachBox();
  box.innerHTML = "";
  const head = coachElement("p", "review-running", "The coach is reviewing your decisions…");
  const bar = document.createElement("progress");
  bar.id = "review-progress";
  bar.max = 1;
  bar.value = 0;
  const count = coachElement("span", "review-count", "");
  count.id = "review-count";
  const stop = coachElement("button", "", "Stop");
  stop.id = "review-stop";
  stop.type = "button";
  stop.title = "End the review now: the decisions priced so far are shown";
  stop.addEventListener("click", () => {
    stop.disabled = true;
    request("stop", { game_id: demo.gameId }).catch(() => {});
  });
  box.append(head, bar, count, stop);
  const gameId = demo.gameId;
  try {
    const reply = await request("review", { game_id: gameId, seat: demo.seat, iterations: coachIterations() }, (line) => {
      if (line.type !== "progress") return;
      coach.progress.push(line);
      bar.max = Math.max(1, line.total);
      bar.value = line.done;
      count.textContent = ` decision ${line.done} of ${line.total} `;
    });
    if (demo.gameId !== gameId) return;  // a new game began meanwhile
    coach.review = reply.review;
    coach.meanings = reply.meanings || [];
    showReview();
  } catch (err) {
    box.innerHTML = "";
    box.appendChild(coachElement("p", "error", `The review failed: ${err.message || err}`));
  } finally {
    coach.running = false;
  }
}

// The summary, the decisions (the biggest mistakes first) and the stepping controls.
function showReview() {
  const review = coach.review;
  const box = coachBox();
  box.innerHTML = "";
  const summary = coachElement("p", "review-summary");
  summary.id = "review-summary";
  summary.appendChild(coachElement("strong", "", "The coach: "));
  summary.appendChild(document.createTextNode(review.summary));
  if (review.partial) {
    summary.classList.add("partial");
    summary.appendChild(coachElement("span", "partial-note",
      ` Partial review: stopped after ${review.decisions.length} of ${review.total} decisions.`));
  }
  box.appendChild(summary);
  if (review.partial) {
    const again = coachElement("button", "", "Review the whole game");
    again.id = "review-again";
    again.type = "button";
    again.addEventListener("click", startReview);
    box.appendChild(again);
  }
  box.appendChild(coachElement("p", "review-note",
    `Each decision priced by a search from what you knew then (${(review.budget || {}).iterations || "?"} iterations a ` +
    "decision; exact where marked). Biggest losses first; click one to see the board as it was."));
  coach.order = review.decisions.map((d, i) => i).sort((a, b) =>
    review.decisions[b].loss - review.decisions[a].loss || a - b);
  const list = coachElement("ol", "review-list");
  list.id = "review-list";
  coach.order.forEach((i, k) => {
    const d = review.decisions[i];
    const li = coachElement("li", `label-${d.label}`);
    li.dataset.index = String(d.index);
    li.dataset.label = d.label;
    const text = d.best === d.played
      ? `turn ${d.turn}: ${d.played_name}: ${d.label}`
      : `turn ${d.turn}: ${d.played_name}: ${d.label} (loss ${d.loss.toFixed(3)}; better ${d.best_name})`;
    const link = coachElement("button", "review-item", text);
    link.type = "button";
    link.addEventListener("click", () => stepTo(k));
    li.appendChild(link);
    list.appendChild(li);
  });
  box.appendChild(list);
  const nav = coachElement("div", "review-nav");
  const prev = coachElement("button", "", "◀ Previous");
  prev.id = "review-prev";
  prev.type = "button";
  prev.addEventListener("click", () => stepTo(coach.at - 1));
  const next = coachElement("button", "", "Next ▶");
  next.id = "review-next";
  next.type = "button";
  next.addEventListener("click", () => stepTo(coach.at + 1));
  const back = coachElement("button", "", "Back to the final position");
  back.id = "review-back";
  back.type = "button";
  back.addEventListener("click", leaveReview);
  nav.append(prev, next, back);
  box.appendChild(nav);
  const detail = coachElement("div", "review-detail");
  detail.id = "review-detail";
  box.appendChild(detail);
  updateNav();
  if (coach.order.length > 0) stepTo(0);
}

function updateNav() {
  const prev = $("review-prev");
  const next = $("review-next");
  if (prev) prev.disabled = coach.at <= 0;
  if (next) next.disabled = coach.at < 0 || coach.at >= coach.order.length - 1;
  for (const li of document.querySelectorAll("#review-list li")) {
    li.classList.toggle("current", coach.at >= 0 && Number(li.dataset.index) === coach.order[coach.at]);
  }
}

// A value in words on the game's utility scale (the hint's words), with the number.
function valueWords(value) {
  const words = chancesInWords({ value });
  return words ? `${words} (${value.toFixed(3)})` : value.toFixed(3);
}

// Show the ``k``-th decision of the list: the board before it as the seat saw it, both moves marked.
async function stepTo(k) {
  const review = coach.review;
  if (!review || k < 0 || k >= coach.order.length) return;
  coach.at = k;
  updateNav();
  const d = review.decisions[coach.order[k]];
  const meaning = coach.meanings[coach.order[k]] || {};
  const detail = $("review-detail");
  detail.innerHTML = "";
  const title = coachElement("p", "review-title",
    `Decision ${d.index + 1} of ${review.total} (turn ${d.turn}): ${d.label}${d.exact ? " (exact)" : ""}`);
  detail.appendChild(title);
  const played = coachElement("p", "review-played");
  played.appendChild(coachElement("span", "key-played", "You played: "));
  played.appendChild(document.createTextNode(`${d.played_name}${meaning.played ? ` (${meaning.played})` : ""}, ` +
    `worth ${valueWords(d.value_played)}.`));
  detail.appendChild(played);
  if (d.best !== d.played) {
    const best = coachElement("p", "review-best");
    best.appendChild(coachElement("span", "key-best", d.label === "best" ? "As good: " : "Better: "));
    best.appendChild(document.createTextNode(`${d.best_name}${meaning.best ? ` (${meaning.best})` : ""}, ` +
      `worth ${valueWords(d.value_best)}.`));
    detail.appendChild(best);
  }
  const low = d.loss_low.toFixed(3);
  const high = d.loss_high.toFixed(3);
  detail.appendChild(coachElement("p", "review-loss", d.exact
    ? `Loss ${d.loss.toFixed(3)} (exact, from the solver).`
    : `Loss ${d.loss.toFixed(3)} (95 % between ${low} and ${high}).`));
  if (d.line && d.line.length) {
    detail.appendChild(coachElement("p", "review-line", `The better move's expected line: ${d.line.join(" → ")}`));
  }
  const gameId = demo.gameId;
  try {
    const view = await request("view", { game_id: gameId, player: demo.seat, ply: d.ply, render: "svg" });
    if (demo.gameId !== gameId || coach.at !== k) return;  // moved on meanwhile
    $("status").textContent = `Review: your decision ${d.index + 1} (turn ${d.turn}), the board as you saw it`;
    if (view.svg) {
      $("board").innerHTML = view.svg;
      fitBoard();
      markReviewMoves(view.targets || {}, d);
    } else {
      const text = await request("view", { game_id: gameId, player: demo.seat, ply: d.ply, render: "text" });
      const pre = document.createElement("pre");
      pre.textContent = text.text || "";
      $("board").innerHTML = "";
      $("board").appendChild(pre);
    }
    const where = [];
    if (!(view.targets || {})[String(d.played)] || !(view.targets || {})[String(d.played)].length) where.push("yours has no place on the board");
    if (d.best !== d.played && !((view.targets || {})[String(d.best)] || []).length) where.push("the better one has no place on the board");
    detail.appendChild(coachElement("p", "review-key", view.svg
      ? `On the board: your move in red, the better one in green${where.length ? ` (${where.join("; ")})` : ""}.`
      : "The board as text (this game has no picture)."));
  } catch (err) {
    detail.appendChild(coachElement("p", "error", String(err.message || err)));
  }
}

// Frame the elements of the played move (red) and of the better move (green) on the past picture.
function markReviewMoves(targets, d) {
  const svg = boardSvg();
  if (!svg) return;
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "aiplay-review-marks");
  layer.setAttribute("pointer-events", "none");
  const mark = (action, cls) => {
    for (const id of targets[String(action)] || []) {
      for (const element of svg.querySelectorAll(`[data-target="${CSS.escape(id)}"]`)) {
        const rect = frameOf(svg, element, cls, 4);
        if (rect) layer.appendChild(rect);
      }
    }
  };
  mark(d.played, "review-played");
  if (d.best !== d.played) mark(d.best, "review-best");
  svg.appendChild(layer);
}

// Leave the review's boards: the final position again (the review stays listed).
async function leaveReview() {
  coach.at = -1;
  updateNav();
  const detail = $("review-detail");
  if (detail) detail.innerHTML = "";
  if (demo.status) await render(demo.status);
}

// A new game empties the coach's box.
$("setup").addEventListener("submit", () => {
  const box = $("review");
  if (box) { box.innerHTML = ""; box.hidden = true; }
  coach.review = null;
  coach.gameId = null;
  coach.at = -1;
});
