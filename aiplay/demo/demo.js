// The aiplay browser demo: a person plays one of the board games against the engine's bots.
// Plain JavaScript, no build step. It talks to the engine only through the aiplay engine
// protocol (docs/protocol.md) over a WebSocket on the page's own host and port.
"use strict";

const $ = (id) => document.getElementById(id);

const demo = {
  socket: null,
  nextId: 1,
  pending: new Map(),   // request id -> {resolve, onInfo}
  gameId: null,
  seat: 0,
  status: null,
  busy: false,
  finished: false,
  params: new URLSearchParams(window.location.search),
};
window.aiplayDemo = demo;  // for people poking in the console, and for the browser test

function connect() {
  return new Promise((resolve, reject) => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws`);
    socket.onopen = () => { $("connection").textContent = "engine connected"; resolve(socket); };
    socket.onerror = () => { $("connection").textContent = "engine connection failed"; reject(new Error("connection failed")); };
    socket.onclose = () => { $("connection").textContent = "engine disconnected"; };
    socket.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      const waiter = demo.pending.get(reply.id);
      if (!waiter) return;
      if (reply.type === "info") { if (waiter.onInfo) waiter.onInfo(reply); return; }
      demo.pending.delete(reply.id);
      waiter.resolve(reply);
    };
    demo.socket = socket;
  });
}

// One request; resolves with its final reply (rejects with the engine's error text).
function request(cmd, fields = {}, onInfo = null) {
  const id = demo.nextId++;
  return new Promise((resolve, reject) => {
    demo.pending.set(id, {
      resolve: (reply) => (reply.ok ? resolve(reply) : reject(new Error(reply.error))),
      onInfo,
    });
    demo.socket.send(JSON.stringify({ id, cmd, ...fields }));
  });
}

function showError(err) {
  $("hint-text").innerHTML = "";
  const p = document.createElement("span");
  p.className = "error";
  p.textContent = String(err.message || err);
  $("hint-text").appendChild(p);
}

function botKind(game) {
  const chosen = $("bot").value;
  if (chosen !== "auto") return chosen;
  return game === "sunken_city" ? "mcts" : "ismcts";
}

function logMoves(moves) {
  for (const m of moves || []) {
    const li = document.createElement("li");
    li.dataset.action = m.action;
    li.dataset.player = m.player;
    li.textContent = m.player < 0 ? `chance: ${m.name}` : `player ${m.player}: ${m.name}`;
    if (m.player < 0) li.className = "chance";
    else if (m.player === demo.seat) li.className = "mine";
    $("log").appendChild(li);
  }
  $("log").scrollTop = $("log").scrollHeight;
}

function rebuildLog(history) {
  $("log").innerHTML = "";
  logMoves(history);
}

async function newGame(event) {
  if (event) event.preventDefault();
  await exclusive(async () => {
    const game = $("game").value;
    demo.seat = Number($("seat").value);
    demo.finished = false;
    $("result").hidden = true;
    $("result").innerHTML = "";
    $("log").innerHTML = "";
    $("hint-text").textContent = "";
    if (demo.gameId) await request("close", { game_id: demo.gameId }).catch(() => {});
    const reply = await request("new", {
      game, players: Number($("players").value), seed: Number($("seed").value), auto_chance: true,
      viewer: demo.seat,  // every reply of this game is told as the person's seat sees it
    });
    demo.gameId = reply.game_id;
    logMoves(reply.chance_moves);
    await advance(reply);
  });
}

// Let the bots play until it is the person's turn or the game is over, then show the position.
// The caller holds demo.busy for the whole exchange, so that no stale button can be clicked.
async function advance(status) {
  while (!status.terminal && status.to_move !== demo.seat) {
    await render(status, `player ${status.to_move} (bot) is thinking…`);
    const seconds = Number($("seconds").value) || 0.5;
    const best = await request("go", {
      game_id: demo.gameId, bot: botKind(status.game), seconds, play: true,
    }, (info) => {
      // A bot's best-so-far move would tell what its seat holds: progress only.
      $("status").textContent = `player ${status.to_move} (bot) is thinking… ${info.iterations ?? 0} iterations`;
    });
    logMoves([best.move]);
    logMoves(best.chance_moves);
    status = best.status;
  }
  await render(status);
}

// Run one exchange with the engine while the page is marked busy (buttons cleared meanwhile).
async function exclusive(work) {
  if (demo.busy) return;
  demo.busy = true;
  $("moves").innerHTML = "";
  $("undo").disabled = true;
  $("hint").disabled = true;
  try {
    await work();
  } catch (err) {
    showError(err);
  } finally {
    demo.busy = false;
    updateControls();
  }
}

function updateControls() {
  const status = demo.status;
  const mine = status && !status.terminal && status.to_move === demo.seat;
  $("undo").disabled = demo.busy || !status || !status.can_undo;
  $("hint").disabled = demo.busy || !mine;
}

async function render(status, message) {
  demo.status = status;
  const perfect = status.game === "sunken_city";
  const view = await request("view", {
    game_id: demo.gameId, player: demo.seat, render: perfect ? "svg" : "text",
  });
  if (perfect && view.svg) {
    $("board").innerHTML = view.svg;
  } else {
    const pre = document.createElement("pre");
    pre.textContent = view.text || "";
    $("board").innerHTML = "";
    $("board").appendChild(pre);
  }
  $("view").textContent = describeView(view.view);
  if (status.terminal) {
    showResult(status);
    return;
  }
  $("status").textContent = message ||
    (status.to_move === demo.seat ? `Your move (player ${demo.seat})` : `player ${status.to_move} to move`);
  await showMoves(status);
}

// The person's own view, readable: Area 51 gives card names beside its ids.
function describeView(view) {
  const lines = [];
  if (view.names) {
    const n = view.names;
    const fmt = (counts) => Object.entries(counts).map(([k, c]) => (c > 1 ? `${c}x ${k}` : k)).join(", ") || "-";
    lines.push(`your hand: ${fmt(n.hand)}`);
    lines.push(`face-up row: ${fmt(n.row)}`);
    lines.push(`discards: ${fmt(n.discards)}`);
    if (view.seat_scores) lines.push(`scores: ${view.seat_scores.join(", ")}`);
    if (view.hand_sizes) lines.push(`hand sizes: ${view.hand_sizes.join(", ")}`);
    return lines.join("\n");
  }
  // Other games: one line per seat for the per-seat lists, then the other small fields
  // (the board itself is in the picture).
  const seats = demo.status ? demo.status.options.players || 2 : 2;
  // Sunken City's per-seat fields (a coordinate pair of a 2-player game is not per seat).
  const seatKeys = ["scores", "adventurers", "carried", "secured", "secured_values", "chips", "played"];
  const perSeat = Object.entries(view).filter(([k, v]) => seatKeys.includes(k) && Array.isArray(v) && v.length === seats);
  for (let p = 0; p < seats; p++) {
    const who = p === demo.seat ? "you" : "bot";
    lines.push(`player ${p} (${who}): ` + perSeat.map(([k, v]) => `${k} ${JSON.stringify(v[p])}`).join(", "));
  }
  for (const [key, value] of Object.entries(view)) {
    if (perSeat.some(([k]) => k === key)) continue;
    const text = JSON.stringify(value);
    if (text.length <= 40) lines.push(`${key}: ${text}`);
  }
  return lines.join("\n");
}

async function showMoves(status) {
  const box = $("moves");
  box.innerHTML = "";
  const mine = !status.terminal && status.to_move === demo.seat;
  if (!mine) return;
  const legal = await request("legal", { game_id: demo.gameId });
  for (const move of legal.actions) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.name;
    button.dataset.action = move.id;
    button.addEventListener("click", () => play(move.id));
    box.appendChild(button);
  }
}

function play(action) {
  return exclusive(async () => {
    $("hint-text").textContent = "";
    const reply = await request("apply", { game_id: demo.gameId, action });
    logMoves([reply.move]);
    logMoves(reply.chance_moves);
    await advance(reply);
  });
}

function undo() {
  if (!demo.gameId) return Promise.resolve();
  return exclusive(async () => {
    $("hint-text").textContent = "";
    await request("undo", { game_id: demo.gameId, seat: demo.seat });
    const history = await request("history", { game_id: demo.gameId });
    rebuildLog(history.moves);
    demo.finished = false;
    $("result").hidden = true;
    await advance(history);
  });
}

async function hint() {
  if (demo.busy || !demo.gameId) return;
  $("hint-text").textContent = "thinking…";
  demo.busy = true;
  $("hint").disabled = true;
  try {
    const reply = await request("analyse", {
      game_id: demo.gameId, bot: botKind(demo.status.game), seconds: Math.max(0.5, Number($("seconds").value) || 0.5),
    });
    const value = reply.value === null ? "" : ` (expected result ${reply.value.toFixed(2)})`;
    $("hint-text").textContent = `Hint: ${reply.name}${value}`;
    for (const b of $("moves").querySelectorAll("button")) {
      b.classList.toggle("hinted", Number(b.dataset.action) === reply.action);
    }
  } catch (err) {
    showError(err);
  } finally {
    demo.busy = false;
    updateControls();
  }
}

function showResult(status) {
  demo.finished = true;
  $("status").textContent = "Game over";
  $("moves").innerHTML = "";
  const best = Math.max(...status.returns);
  const rows = status.scores.map((score, p) => {
    const who = p === demo.seat ? "you" : "bot";
    const won = status.returns[p] === best ? " ★" : "";
    return `<tr data-seat="${p}"><td>player ${p} (${who})</td><td class="score">${score}</td><td>${won}</td></tr>`;
  });
  const winners = status.returns.map((r, p) => (r === best ? p : null)).filter((p) => p !== null);
  const verdict = winners.length === status.returns.length ? "a draw"
    : winners.includes(demo.seat) ? (winners.length > 1 ? "you share the win" : "you win") : "the bots win";
  $("result").innerHTML = `<strong>Game over: ${verdict}.</strong><table><tr><th>seat</th><th>score</th><th></th></tr>${rows.join("")}</table>`;
  $("result").hidden = false;
}

async function main() {
  for (const [key, id] of [["game", "game"], ["players", "players"], ["seat", "seat"], ["bot", "bot"],
    ["seconds", "seconds"], ["seed", "seed"]]) {
    if (demo.params.has(key)) $(id).value = demo.params.get(key);
  }
  $("setup").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  await connect();
  if (demo.params.get("autostart") === "1") await newGame();
}

main().catch(showError);
