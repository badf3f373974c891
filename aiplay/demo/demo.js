// The aiplay browser demo: a person plays one of the board games against the engine's bots.
// Plain JavaScript, no build step. It talks to the engine only through the aiplay engine
// protocol (docs/protocol.md) over a WebSocket on the page's own host and port.
//
// Contract with the engine (what this page relies on):
// - Every request carries "viewer": <the person's seat>, so that every move name in a reply
//   (apply's "move", "chance_moves", go's "move", history's "moves", ...) is the name as that seat
//   saw it, hidden parts redacted. The log on the page is built from those "name" fields only.
// - The board: {"cmd": "view", "player": seat, "render": "svg"}. The reply's "svg" is the picture
//   as that seat sees it (null when the game has none: the page then asks for "render": "text");
//   every element a move can name carries data-target="<id>". The reply's "targets" is
//   {action id: [target ids]} (an empty list: no place on the board), filled only when that seat
//   is to move. Clicking a point of the
//   picture collects the data-target elements under it; if exactly one legal action touches
//   them it is played, if several a small menu of just those is shown. Elements touched by a
//   legal action are highlighted. A move made of several decisions is several atomic actions in
//   the engine, so it is built click by click (the picture is redrawn after each).
// - Moves: {"cmd": "legal"} lists {id, name, group?}. The buttons are a fallback, grouped by
//   "group" when the engine gives one, else by the first word of the name, each group collapsible.
// - The view panel: reply.view, drawn as a nested list; its "internal" key is engine detail
//   and is not shown.
// - Games: "hello" lists the games; the game select offers those it can draw ("svg": true), the
//   players field takes each game's "players" {min, max, default}, and the "search" bot is the
//   game's "strongest_kind" (MCTS or ISMCTS, decided by the engine, never by a game's name here).
// - Bots: "hello" lists "bots" (the bot select is filled from it) and, where the engine offers
//   them, "levels" (numbers, names, or objects {level, iterations, ...}): then a level select
//   appears, and a chosen level makes "go"/"analyse" carry {"bot": "level", "level": k} (the level
//   sets its own budget) instead of a bot kind and "seconds". Without "bot" or "level" in the
//   address, the top level is chosen (the best bot, as `aiplay play --human` seats). While a
//   bot thinks, only its progress (iterations, seconds) is shown, never its best move so far
//   (that would tell the person the bot's plans and hand).
// - Rights: the page opens its game as its seat ("viewer": seat), so the engine lets it apply
//   moves only at that seat's decisions and never shows it another seat's cards; it never asks
//   for "viewer": "all" (the demo's server refuses it to every page).
// - A table of two people: with "Second person at seat" set, "new" carries "seats" (the two people
//   "human", every other seat a bot at the chosen level, {"level": k}) and the reply's "tokens";
//   the page shows a join link (?join=TOKEN) for the second person's tab, which sends "join". At a
//   table the engine plays the bots itself and pushes every move as an unsolicited
//   {"type": "event", "event": "moves"} line, told as the tab's seat sees it; the page logs those
//   and redraws. A tab that reconnects joins again with its token and gets the moves it missed.
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
  hello: null,
  legal: [],            // the seat's legal moves now: [{id, name, group?}]
  targets: {},          // action id -> [data-target ids] (the picture's clickable elements)
  byTarget: new Map(),  // data-target id -> [action ids]
  choice: null,         // the moves a click on the picture left to choose from (the menu's), or null
  noSvg: new Set(),     // games whose picture the engine does not draw (text instead)
  params: new URLSearchParams(window.location.search),
  table: null,          // at a table of people: {id, token, tokens}; null for a game against bots only
  latest: null,         // the newest status the engine told (a reply's or an event's)
  renderPending: false, // an event came while busy: draw the newest status once free
  events: [],           // every event line received (for the browser test)
  markFrom: null,       // the ply since which the picture marks changes (the bots' turn), or null: the last move
  turnNotes: new Map(), // what the others did since the person's last move: key (a seat) -> sentence
  summaries: [],        // every summary shown above the board (for the browser test)
  rulesCache: new Map(),// game name -> how-to-play text
};
window.aiplayDemo = demo;  // for people poking in the console, and for the browser test

function connect() {
  return new Promise((resolve, reject) => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws`);
    socket.onopen = () => resolve(socket);
    socket.onerror = () => { $("connection").textContent = "engine connection failed"; reject(new Error("connection failed")); };
    socket.onclose = () => {
      $("connection").classList.remove("ok");
      $("connection").textContent = "engine disconnected";
      // At a table the seat waits: reconnect and join again with the seat's token (the moves missed come back).
      if (demo.table && demo.table.token) {
        setTimeout(() => connect().then(() => { $("connection").textContent = "engine connected"; return joinTable(demo.table.token); })
          .catch(() => {}), 1000);
      }
    };
    socket.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      if (reply.type === "event") { onEvent(reply); return; }
      const waiter = demo.pending.get(reply.id);
      if (!waiter) return;
      // Streamed lines before the final reply: a search's "info", a review's "progress" (review.js).
      if (reply.type === "info" || reply.type === "progress") { if (waiter.onInfo) waiter.onInfo(reply); return; }
      demo.pending.delete(reply.id);
      waiter.resolve(reply);
    };
    demo.socket = socket;
  });
}

// One request, spoken to the person's seat; resolves with its final reply (rejects with the engine's error text).
function request(cmd, fields = {}, onInfo = null) {
  const id = demo.nextId++;
  return new Promise((resolve, reject) => {
    demo.pending.set(id, {
      resolve: (reply) => {
        noteStatus(reply.status);
        return reply.ok ? resolve(reply) : reject(new Error(reply.error));
      },
      onInfo,
    });
    demo.socket.send(JSON.stringify({ id, cmd, viewer: demo.seat, ...fields }));
  });
}

// The newer of two statuses (by moves played), for a table where events and replies interleave.
function newest(a, b) {
  if (!a) return b;
  if (!b) return a;
  return b.ply > a.ply || (b.ply === a.ply && !b.searching) ? b : a;
}

// An unsolicited line from the table: moves played by the others (bots, the other person).
function onEvent(event) {
  demo.events.push(event);
  if (!demo.table || event.game_id !== demo.gameId) return;
  noteStatus(event.status);
  if (event.event === "moves") logMoves(event.moves);
  else if (event.event === "undo") { refreshLog(); }
  else if (event.event === "error") { showError(new Error(event.error)); return; }
  else if (event.event === "replaced") { $("status").textContent = "This seat was joined from another tab."; demo.gameId = null; return; }
  if (event.status) demo.latest = newest(demo.latest, event.status);
  scheduleRender();
}

function refreshLog() {
  request("history", { game_id: demo.gameId }).then((h) => rebuildLog(h.moves)).catch(showError);
}

// Draw the newest status now, or as soon as the running exchange ends.
function scheduleRender() {
  if (demo.busy) { demo.renderPending = true; return; }
  exclusive(() => render(demo.latest));
}

function showError(err) {
  $("hint-text").innerHTML = "";
  const p = document.createElement("span");
  p.className = "error";
  p.textContent = String(err.message || err);
  $("hint-text").appendChild(p);
}

// -- what happened: the engine's narration and the others' turns -----------------------------

// A status's new narration lines ("log": each told once, as the seat may read them) go to the story;
// its "summary" sentences (the other seats' turns) to the note above the board. An engine without
// these fields leaves the story to the move names (logMoves).
function noteStatus(status) {
  if (!status || (demo.gameId !== null && status.game_id !== undefined && status.game_id !== demo.gameId)) return;
  if (Array.isArray(status.log)) {
    demo.narrated = true;
    addStory(status.log);
  }
  if (Array.isArray(status.summary)) {
    demo.summarised = true;
    for (const sentence of status.summary) {
      // One sentence per seat's turn: a later, longer telling of the same turn replaces the first.
      const seat = /^player (\d+)/i.exec(sentence);
      demo.turnNotes.set(seat ? `p${seat[1]}` : sentence, sentence);
    }
  }
}

// Another seat's hidden choices while its phase lasts: one line per seat that counts them
// ("player 1 made 3 hidden choices ..."), removed when the phase ends and its public part is told.
const HIDDEN_CHOICES = /^player (\d+) made (\d+) hidden choices? (\(shown when the phase ends\))$/i;
const PHASE_TOLD = /^player (\d+) in the /i;

function addStory(lines) {
  const box = $("story");
  demo.pendingHidden = demo.pendingHidden || new Map();
  for (const line of lines || []) {
    const hidden = HIDDEN_CHOICES.exec(line);
    if (hidden) {
      const seat = hidden[1];
      const earlier = demo.pendingHidden.get(seat);
      const count = Number(hidden[2]) + (earlier && earlier.isConnected ? Number(earlier.dataset.count) : 0);
      if (earlier && earlier.isConnected) earlier.remove();
      const li = document.createElement("li");
      li.dataset.count = String(count);
      li.textContent = `player ${seat} made ${count} hidden choice${count === 1 ? "" : "s"} ${hidden[3]}`;
      box.appendChild(li);
      demo.pendingHidden.set(seat, li);
      continue;
    }
    const told = PHASE_TOLD.exec(line);
    if (told && demo.pendingHidden.has(told[1])) {
      const earlier = demo.pendingHidden.get(told[1]);
      if (earlier.isConnected) earlier.remove();
      demo.pendingHidden.delete(told[1]);
    }
    const li = document.createElement("li");
    li.textContent = line;
    if (/^you\b/i.test(line) || new RegExp(`^player ${demo.seat}\\b`, "i").test(line)) li.className = "mine";
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
}

// The note above the board: what the other seats did since the person's last move.
function showSummary() {
  const box = $("summary");
  box.innerHTML = "";
  if (demo.turnNotes.size === 0) { box.hidden = true; return; }
  const head = document.createElement("span");
  head.className = "who";
  head.textContent = "Since your last move (marked in orange on the board):";
  box.appendChild(head);
  const list = document.createElement("ul");
  for (const sentence of demo.turnNotes.values()) {
    const li = document.createElement("li");
    li.textContent = sentence;
    list.appendChild(li);
  }
  box.appendChild(list);
  box.hidden = false;
  const text = box.textContent;
  if (demo.summaries[demo.summaries.length - 1] !== text) demo.summaries.push(text);
}

// -- how to play ---------------------------------------------------------------------------

// The rules text (the engine's "rules": markdown) as a few HTML blocks: headings, paragraphs, lists, bold.
function markdownBlocks(text) {
  const out = document.createDocumentFragment();
  let list = null;
  let para = null;
  const inline = (parent, line) => {
    line.split(/(\*\*[^*]+\*\*|`[^`]+`)/).forEach((part) => {
      if (/^\*\*[^*]+\*\*$/.test(part)) {
        const b = document.createElement("strong");
        b.textContent = part.slice(2, -2);
        parent.appendChild(b);
      } else if (/^`[^`]+`$/.test(part)) {
        const c = document.createElement("code");
        c.textContent = part.slice(1, -1);
        parent.appendChild(c);
      } else {
        parent.appendChild(document.createTextNode(part.replace(/\*([^*]+)\*/g, "$1")));
      }
    });
  };
  for (const raw of String(text).split("\n")) {
    const line = raw.trimEnd();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (!line.trim()) { list = null; para = null; continue; }
    if (heading) {
      const h = document.createElement(`h${Math.min(3, heading[1].length + 1)}`);
      inline(h, heading[2]);
      out.appendChild(h);
      list = null; para = null;
    } else if (item) {
      if (!list) { list = document.createElement("ul"); out.appendChild(list); }
      const li = document.createElement("li");
      inline(li, item[1]);
      list.appendChild(li);
      para = null;
    } else if (list && /^\s+/.test(raw)) {
      inline(list.lastChild, " " + line.trim());
    } else {
      if (!para) { para = document.createElement("p"); out.appendChild(para); } else para.appendChild(document.createTextNode(" "));
      inline(para, line.trim());
      list = null;
    }
  }
  return out;
}

async function showHelp() {
  const game = (demo.status && demo.status.game) || $("game").value;
  const entry = gameEntry(game);
  $("help-title").textContent = `How to play: ${(entry && entry.title) || game}`;
  const box = $("help-text");
  box.textContent = "loading…";
  $("help").hidden = false;
  try {
    if (!demo.rulesCache.has(game)) demo.rulesCache.set(game, (await request("rules", { game })).text);
    box.innerHTML = "";
    box.appendChild(markdownBlocks(demo.rulesCache.get(game)));
  } catch (err) {
    box.textContent = `No how-to-play text from the engine for this game (${err.message || err}).`;
  }
}

// -- bots and levels -----------------------------------------------------------------------

const BOT_TITLES = {
  auto: "search (MCTS / ISMCTS)", mcts: "MCTS", ismcts: "ISMCTS", heuristic: "heuristic (fast)",
  random: "random", expectimax: "expectimax",
};

// Fill the bot select (and the level select, when the engine offers levels) from hello.
function populateBots(hello) {
  const select = $("bot");
  const wanted = demo.params.get("bot") || select.value || "auto";
  select.innerHTML = "";
  // "level" is chosen through the level select, not as a bot of its own.
  for (const kind of ["auto", ...(hello.bots || []).filter((k) => k !== "level")]) {
    const option = document.createElement("option");
    option.value = kind;
    option.textContent = BOT_TITLES[kind] || kind;
    select.appendChild(option);
  }
  select.value = [...select.options].some((o) => o.value === wanted) ? wanted : "auto";
  populateLevels(hello, demo.params.get("level"));
}

// The level select for the chosen game: its own levels where hello lists them (a game may have its
// own table of settings), else hello's common ones. Keeps the chosen level across games.
function populateLevels(hello, wanted) {
  const entry = (hello.games || []).find((g) => g.name === $("game").value);
  const levels = Array.isArray(entry && entry.levels) ? entry.levels : Array.isArray(hello.levels) ? hello.levels : [];
  $("level-label").hidden = levels.length === 0;
  const levelSelect = $("level");
  levelSelect.innerHTML = "";
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "my own choice: bot and seconds";
  levelSelect.appendChild(none);
  for (const level of levels) {
    // A level is a number, a name, or an object: {level, iterations, ...} or {name, title}.
    const value = typeof level === "object" && level !== null ? (level.level ?? level.name) : level;
    const option = document.createElement("option");
    option.value = String(value);
    option.textContent = typeof level === "object" && level !== null
      ? (level.title || `level ${value}${level.iterations ? ` (${level.iterations} iterations)` : ""}`)
      : `level ${value}`;
    levelSelect.appendChild(option);
  }
  if (wanted != null && [...levelSelect.options].some((o) => o.value === String(wanted))) {
    levelSelect.value = String(wanted);
  } else if (wanted == null && !demo.params.get("bot") && levels.length) {
    // First fill, no bot or level asked for: a person meets the best bot (the top level), as with
    // `aiplay play --human`. The levels come weakest first.
    levelSelect.value = levelSelect.options[levelSelect.options.length - 1].value;
  }
  syncBotControls();
}

// One choice of the bots, never a silent override: a level sets the search and its time, so the bot
// and seconds fields are switched off (greyed, and said so) while a level is chosen.
function syncBotControls() {
  const level = !$("level-label").hidden && $("level").value !== "";
  $("custom-bot").classList.toggle("off", level);
  $("bot").disabled = level;
  $("seconds").disabled = level;
  // Hidden, not merely greyed: what is on screen is what plays.
}

// The best bot of a game, for hints: its top level where the engine has levels, else its strongest search.
function bestBotFields(game) {
  const entry = gameEntry(game);
  const levels = (entry && Array.isArray(entry.levels) && entry.levels) || (demo.hello && demo.hello.levels) || [];
  if (levels.length) {
    const top = levels[levels.length - 1];
    const value = typeof top === "object" && top !== null ? (top.level ?? top.name) : top;
    return { bot: "level", level: value };
  }
  return { bot: (entry && entry.strongest_kind) || "ismcts", seconds: 1 };
}

// The game's entry in hello (its title, player counts, strongest search...), or undefined.
function gameEntry(game) {
  return ((demo.hello && demo.hello.games) || []).find((g) => g.name === game);
}

// Fill the game select from hello: the games the engine can draw (its "svg" capability).
function populateGames(hello) {
  const select = $("game");
  const wanted = demo.params.get("game") || select.value;
  select.innerHTML = "";
  for (const entry of (hello.games || []).filter((g) => g.svg)) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = entry.title || entry.name;
    select.appendChild(option);
  }
  const asked = (hello.games || []).find((g) => g.name === demo.params.get("game"));
  if (asked && ![...select.options].some((o) => o.value === asked.name)) {
    // A game named in the address is offered even without a picture (its text view is shown).
    const option = document.createElement("option");
    option.value = asked.name;
    option.textContent = asked.title || asked.name;
    select.appendChild(option);
  }
  if ([...select.options].some((o) => o.value === wanted)) select.value = wanted;
  setPlayers(demo.params.get("players"));
}

// The players field's bounds from hello's player counts of the chosen game; a wanted count kept.
function setPlayers(wanted) {
  const entry = gameEntry($("game").value);
  if (!entry || !entry.players) return;
  const input = $("players");
  input.min = String(entry.players.min);
  input.max = String(entry.players.max);
  $("seat").max = String(entry.players.max - 1);
  const value = Number(wanted != null ? wanted : input.value);
  input.value = String(value >= entry.players.min && value <= entry.players.max ? value : entry.players.default);
}

// The bot of the "search" choice: the game's strongest search, as hello reports it.
function botKind(game) {
  const chosen = $("bot").value;
  if (chosen !== "auto") return chosen;
  const entry = gameEntry(game);
  return (entry && entry.strongest_kind) || "ismcts";
}

// The bot fields of a search request: a level (its own budget), or a bot kind and seconds.
function botFields(game, seconds) {
  const level = $("level").value;
  if (level) return { bot: "level", level: /^\d+$/.test(level) ? Number(level) : level };
  return { bot: botKind(game), seconds };
}

// -- the log -------------------------------------------------------------------------------

function logMoves(moves) {
  for (const m of moves || []) {
    const li = document.createElement("li");
    // A move hidden from the seat comes without its action id (and with a redacted name).
    if (m.action !== null && m.action !== undefined) li.dataset.action = m.action;
    li.dataset.player = m.player;
    li.textContent = m.player < 0 ? `chance: ${m.name}` : `player ${m.player}: ${m.name}`;
    if (m.player < 0) li.className = "chance";
    else if (m.player === demo.seat) li.className = "mine";
    if (li.dataset.action === undefined) li.classList.add("hidden-move");
    $("log").appendChild(li);
    // An engine without narration: the story and the note above the board are told from the move names.
    if (!demo.narrated) addStory([li.textContent]);
    if (!demo.summarised && m.player >= 0 && m.player !== demo.seat) {
      const key = `p${m.player}`;
      const before = demo.turnNotes.get(key);
      demo.turnNotes.set(key, before ? `${before}, ${m.name}` : `Player ${m.player}: ${m.name}`);
    }
  }
  $("log").scrollTop = $("log").scrollHeight;
}

function rebuildLog(history) {
  $("log").innerHTML = "";
  logMoves(history);
}

// -- a game --------------------------------------------------------------------------------

async function newGame(event) {
  if (event) event.preventDefault();
  await exclusive(async () => {
    const game = $("game").value;
    demo.seat = Number($("seat").value);
    demo.finished = false;
    $("result").hidden = true;
    $("result").innerHTML = "";
    $("hint-text").textContent = "";
    if (demo.gameId) await request("close", { game_id: demo.gameId }).catch(() => {});
    demo.gameId = null;
    $("log").innerHTML = "";
    $("story").innerHTML = "";
    demo.turnNotes = new Map();
    demo.markFrom = null;
    demo.narrated = false;
    demo.summarised = false;
    const players = Number($("players").value);
    const second = $("second").value === "" ? null : Number($("second").value);
    const fields = { game, players, seed: Number($("seed").value), auto_chance: true };
    // Other options of the game from the address, "?opt.NAME=VALUE" (numbers and true/false as such).
    const options = {};
    for (const [key, value] of demo.params) {
      if (!key.startsWith("opt.")) continue;
      options[key.slice(4)] = value === "true" ? true : value === "false" ? false : /^-?\d+$/.test(value) ? Number(value) : value;
    }
    if (Object.keys(options).length) fields.options = options;
    demo.table = null;
    demo.latest = null;
    $("join").hidden = true;
    if (second !== null && second !== demo.seat) {
      // A table: two people, every other seat a bot at the chosen level (the top one by default).
      const levels = [...$("level").options].map((o) => o.value).filter((v) => /^\d+$/.test(v));
      const level = /^\d+$/.test($("level").value) ? Number($("level").value) : Number(levels[levels.length - 1] || 1);
      fields.seats = {};
      for (let p = 0; p < players; p++) fields.seats[p] = p === demo.seat || p === second ? "human" : { level };
      delete fields.seed;  // a table's draws use the engine's secret seed (a chosen one would tell every hand)
    }
    const reply = await request("new", fields);
    demo.gameId = reply.game_id;
    demo.markFrom = reply.status.ply;  // the deal is not a move to mark; what the bots do next is
    if (reply.tokens) {
      demo.table = { id: reply.status.table_id, token: reply.tokens[demo.seat], tokens: reply.tokens };
      const url = new URL(window.location.href);
      url.search = `?join=${encodeURIComponent(reply.tokens[second])}`;
      $("join-link").href = url.toString();
      $("join-link").textContent = url.toString();
      $("join").hidden = false;
    }
    logMoves(reply.chance_moves);
    await advance(reply.status);
  });
}

// Let the bots play until it is the person's turn or the game is over, then show the position.
// The caller holds demo.busy for the whole exchange, so that no stale move can be clicked.
async function advance(status) {
  if (demo.table) {
    // The engine plays the table's bots and pushes their moves as events: only draw.
    demo.latest = newest(demo.latest, status);
    await render(demo.latest);
    return;
  }
  if (!status.terminal && status.to_move !== demo.seat && demo.markFrom === null) demo.markFrom = status.ply;
  while (!status.terminal && status.to_move !== demo.seat) {
    const who = `player ${status.to_move} (bot)`;
    await render(status, `${who} is thinking…`);
    const seconds = Number($("seconds").value) || 0.5;
    const best = await request("go", {
      game_id: demo.gameId, ...botFields(status.game, seconds), play: true,
    }, (info) => {
      // Progress only: the best move so far could reveal what the bot holds or plans.
      const done = info.iterations === null || info.iterations === undefined ? "" : `${info.iterations} iterations, `;
      $("status").textContent = `${who} is thinking… ${done}${Number(info.seconds).toFixed(1)} s`;
    });
    logMoves([best.move]);
    logMoves(best.chance_moves);
    status = best.status;
  }
  await render(status);
}

// Run one exchange with the engine while the page is marked busy (moves cleared meanwhile).
async function exclusive(work) {
  if (demo.busy) return;
  demo.busy = true;
  clearMoves();
  $("undo").disabled = true;
  $("hint").disabled = true;
  try {
    await work();
  } catch (err) {
    showError(err);
  } finally {
    demo.busy = false;
    updateControls();
    if (demo.renderPending) {
      demo.renderPending = false;
      setTimeout(() => exclusive(() => render(demo.latest)), 0);
    }
  }
}

function clearMoves() {
  $("moves").innerHTML = "";
  closeMenu();
  demo.legal = [];
  demo.targets = {};
  demo.byTarget = new Map();
  for (const e of document.querySelectorAll("#board .clickable")) e.classList.remove("clickable");
  const overlay = document.querySelector("#board .aiplay-overlay");
  if (overlay) overlay.remove();
}

function updateControls() {
  const status = demo.status;
  const mine = status && !status.terminal && status.to_move === demo.seat;
  $("undo").disabled = demo.busy || !status || !status.can_undo || (demo.table !== null && !status.allow_undo);
  $("hint").disabled = demo.busy || !mine;
}

function isMine(status) {
  return !status.terminal && status.to_move === demo.seat;
}

async function render(status, message) {
  demo.status = status;
  const mine = isMine(status);
  let view = null;
  if (!demo.noSvg.has(status.game)) {
    // The picture marks what changed: since the bots' turn began, else the last move (the engine's default).
    const since = demo.markFrom !== null && demo.markFrom <= status.ply ? { since_ply: demo.markFrom } : {};
    view = await request("view", { game_id: demo.gameId, player: demo.seat, render: "svg", panel: true, ...since });
    if (view.svg === null || view.svg === undefined) demo.noSvg.add(status.game);
  }
  if (view && view.svg) {
    $("board").innerHTML = view.svg;
  } else {
    view = await request("view", { game_id: demo.gameId, player: demo.seat, render: "text" });
    const pre = document.createElement("pre");
    pre.textContent = view.text || "";
    $("board").innerHTML = "";
    $("board").appendChild(pre);
  }
  showView(view.view, view.panel);
  showSummary();
  if (view && view.svg) {
    // Fitted once the notes above the board are written: they set the panel's height, and a picture
    // fitted before them would jump a frame later, under a pointer about to click it.
    fitBoard();
    markChanges();
  }
  if (status.terminal) {
    showResult(status);
    return;
  }
  // The turn goes on when the seat's own decision is the latest one logged (chance draws aside).
  const decisions = [...$("log").children].filter((li) => !li.classList.contains("chance"));
  const lastMine = decisions.length > 0 && decisions[decisions.length - 1].classList.contains("mine");
  const seats = status.seats || {};
  const who = seats[status.to_move] === "human" ? "" : seats[status.to_move] ? " (bot)" : "";
  $("status").textContent = message || (mine
    ? `Your move (you are player ${demo.seat})${lastMine ? ": your turn goes on" : ""}`
    : `player ${status.to_move}${who} ${demo.table && who ? "is thinking…" : "to move"}`);
  if (mine) await showMoves(status, (view && view.targets) || {});
}

// -- the view panel ------------------------------------------------------------------------

// The seat's view: the engine's labelled, grouped panel ([{title, rows: [[label, text], ...]}]) when it
// sends one, else the view as a nested list (names as the engine gives them, internals left out).
function showView(view, panel) {
  const box = $("view");
  box.innerHTML = "";
  if (Array.isArray(panel) && panel.length) {
    for (const section of panel) {
      const div = document.createElement("div");
      div.className = "section";
      const title = document.createElement("div");
      title.className = "section-title";
      title.textContent = section.title || "";
      div.appendChild(title);
      const table = document.createElement("table");
      for (const [label, text] of section.rows || []) {
        const tr = document.createElement("tr");
        const a = document.createElement("td");
        a.className = "label";
        a.textContent = label;
        const b = document.createElement("td");
        b.textContent = text;
        tr.appendChild(a);
        tr.appendChild(b);
        table.appendChild(tr);
      }
      div.appendChild(table);
      box.appendChild(div);
    }
    return;
  }
  box.appendChild(viewNode(view, 0));
}

function isScalar(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

function scalarText(v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

function label(key) {
  return String(key).replace(/_/g, " ");
}

function isFlat(obj) {
  const values = Object.values(obj);
  return values.length <= 12 && values.every((v) => isScalar(v) || (Array.isArray(v) && v.every(isScalar) && v.length <= 6));
}

function flatText(obj) {
  const parts = Object.entries(obj).map(([k, v]) => `${label(k)}: ${Array.isArray(v) ? (v.length ? v.map(scalarText).join(", ") : "none") : scalarText(v)}`);
  return parts.length ? parts.join("; ") : "none";
}

// An object in a list is headed by its first field when that names it ("seat 0", "region R0",
// "vehicle green truck"); the person's own seat is marked.
function heading(obj) {
  const [key, value] = Object.entries(obj)[0] || [];
  if (key === undefined || !isScalar(value) || value === null) return null;
  const mine = key === "seat" && value === demo.seat ? " (you)" : "";
  return { key, text: `${label(key)} ${scalarText(value)}${mine}` };
}

function viewNode(value, depth) {
  if (isScalar(value)) return document.createTextNode(scalarText(value));
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      return document.createTextNode(value.length ? value.map(scalarText).join(", ") : "none");
    }
    const ul = document.createElement("ul");
    value.forEach((item, i) => {
      const li = document.createElement("li");
      const head = item && typeof item === "object" && !Array.isArray(item) ? heading(item) : null;
      if (head) {
        const rest = Object.fromEntries(Object.entries(item).filter(([k]) => k !== head.key));
        const name = document.createElement("span");
        name.className = "key";
        name.textContent = `${head.text}: `;
        li.appendChild(name);
        li.appendChild(isFlat(rest) ? document.createTextNode(flatText(rest)) : viewNode(rest, depth + 1));
      } else {
        li.appendChild(viewNode(item, depth + 1));
      }
      ul.appendChild(li);
    });
    return ul;
  }
  if (depth > 0 && isFlat(value)) return document.createTextNode(flatText(value));
  const ul = document.createElement("ul");
  if (depth === 0) ul.className = "view-root";
  for (const [key, item] of Object.entries(value)) {
    if (key === "internal") continue;  // engine detail, documented as such: not for people
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "key";
    name.textContent = `${label(key)}: `;
    li.appendChild(name);
    li.appendChild(viewNode(item, depth + 1));
    ul.appendChild(li);
  }
  return ul;
}

// -- the moves: the picture first, grouped buttons as a fallback ---------------------------

async function showMoves(status, targets) {
  // Each move with its one-line meaning (the engine's "meanings"), shown as the buttons' and menus' tooltips.
  const legal = await request("legal", { game_id: demo.gameId, meanings: true });
  demo.legal = legal.actions;
  demo.targets = {};
  demo.byTarget = new Map();
  const legalIds = new Set(legal.actions.map((m) => m.id));
  for (const [action, ids] of Object.entries(targets)) {
    const id = Number(action);
    if (!legalIds.has(id) || !ids || ids.length === 0) continue;  // [] : no place on the board
    demo.targets[id] = ids;
    for (const t of ids) {
      if (!demo.byTarget.has(t)) demo.byTarget.set(t, []);
      demo.byTarget.get(t).push(id);
    }
  }
  highlightTargets();
  showButtons(legal.actions);
}

function groupOf(move) {
  if (move.group) return String(move.group);
  const first = String(move.name).split(/\s+/)[0] || "move";
  return first.replace(/:$/, "");
}

// How many buttons a group may hold and still start open.
const OPEN_GROUP_SIZE = 12;

function showButtons(moves) {
  const box = $("moves");
  box.innerHTML = "";
  const groups = new Map();
  for (const move of moves) {
    const key = groupOf(move);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(move);
  }
  for (const [key, members] of groups) {
    const details = document.createElement("details");
    details.className = "group";
    details.dataset.group = key;
    details.open = members.length <= OPEN_GROUP_SIZE || groups.size === 1;
    const summary = document.createElement("summary");
    const onBoard = members.every((m) => demo.targets[m.id]);
    summary.textContent = `${key} (${members.length})${onBoard ? ": or click the board" : ""}`;
    details.appendChild(summary);
    const list = document.createElement("div");
    list.className = "buttons";
    for (const move of members) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.name;
      button.dataset.action = move.id;
      if (move.meaning) button.title = move.meaning;
      if (demo.targets[move.id]) button.classList.add("on-board");
      button.addEventListener("click", () => play(move.id));
      list.appendChild(button);
    }
    details.appendChild(list);
    box.appendChild(details);
  }
}

function boardSvg() {
  return document.querySelector("#board svg");
}

// The smallest text the board may show, in CSS pixels (issue 38).
const MIN_TEXT_PX = 12;

// The picture's size: the room the board panel has, but never so small that its smallest text falls
// under 12 px (a picture larger than its panel then scrolls).
function fitBoard() {
  const svg = boardSvg();
  if (!svg) return;
  const width = Number(svg.getAttribute("width")) || svg.viewBox.baseVal.width;
  const height = Number(svg.getAttribute("height")) || svg.viewBox.baseVal.height;
  let smallest = Infinity;
  for (const t of svg.querySelectorAll("text[font-size]")) smallest = Math.min(smallest, Number(t.getAttribute("font-size")));
  const least = Number.isFinite(smallest) && smallest > 0 ? MIN_TEXT_PX / smallest : 1;
  const box = $("board");
  // Twice at most: a picture taller than the panel brings a vertical scroll bar, which takes width
  // from the panel; the second pass fits the width that is left (no sideways scroll).
  for (let pass = 0; pass < 2; pass++) {
    const scale = Math.max(least, Math.min((box.clientWidth - 4) / width, (box.clientHeight - 4) / height));
    svg.style.width = `${Math.ceil(width * scale)}px`;  // rounded up: never under the least scale
    svg.style.height = `${Math.ceil(height * scale)}px`;
    if (box.scrollWidth <= box.clientWidth) break;
  }
}

// A frame over every element the engine marked as changed ("data-changed": since the bots' turn
// began, or the last move), under the highlights of the places to click.
function markChanges() {
  const svg = boardSvg();
  if (!svg) return;
  const old = svg.querySelector(".aiplay-marks");
  if (old) old.remove();
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "aiplay-marks");
  layer.setAttribute("pointer-events", "none");
  for (const element of svg.querySelectorAll("[data-changed]")) {
    const rect = frameOf(svg, element, "last-move", 3);
    if (rect) layer.appendChild(rect);
  }
  svg.appendChild(layer);
}

// A rectangle (in the picture's units) around ``element``, inset by ``inset``, classed ``cls``.
function frameOf(svg, element, cls, inset) {
  const ctm = svg.getScreenCTM();
  if (!ctm || typeof element.getBBox !== "function" || !element.getScreenCTM()) return null;
  const box = element.getBBox();
  const m = ctm.inverse().multiply(element.getScreenCTM());
  const corners = [[box.x, box.y], [box.x + box.width, box.y + box.height]].map(([x, y]) => {
    const p = new DOMPoint(x, y).matrixTransform(m);
    return [p.x, p.y];
  });
  const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  rect.setAttribute("class", cls);
  rect.dataset.for = element.dataset.target || element.dataset.part || "";
  rect.setAttribute("x", Math.min(corners[0][0], corners[1][0]) - inset);
  rect.setAttribute("y", Math.min(corners[0][1], corners[1][1]) - inset);
  rect.setAttribute("width", Math.abs(corners[1][0] - corners[0][0]) + 2 * inset);
  rect.setAttribute("height", Math.abs(corners[1][1] - corners[0][1]) + 2 * inset);
  rect.setAttribute("rx", 4);
  return rect;
}

// Mark the clickable elements and draw a highlight over each, above everything (an element may
// lie under a piece drawn later, like a lake cell under a street).
function highlightTargets() {
  const svg = boardSvg();
  if (!svg) return;
  const overlay = document.createElementNS("http://www.w3.org/2000/svg", "g");
  overlay.setAttribute("class", "aiplay-overlay");
  overlay.setAttribute("pointer-events", "none");
  const toSvg = svg.getScreenCTM() ? svg.getScreenCTM().inverse() : null;
  for (const element of svg.querySelectorAll("[data-target]")) {
    if (!demo.byTarget.has(element.dataset.target)) continue;
    element.classList.add("clickable");
    if (!toSvg || typeof element.getBBox !== "function") continue;
    const box = element.getBBox();
    const m = toSvg.multiply(element.getScreenCTM());
    const corners = [[box.x, box.y], [box.x + box.width, box.y + box.height]].map(([x, y]) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [p.x, p.y];
    });
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("class", "highlight");
    rect.dataset.for = element.dataset.target;
    rect.setAttribute("x", Math.min(corners[0][0], corners[1][0]) + 1.5);
    rect.setAttribute("y", Math.min(corners[0][1], corners[1][1]) + 1.5);
    rect.setAttribute("width", Math.max(0, Math.abs(corners[1][0] - corners[0][0]) - 3));
    rect.setAttribute("height", Math.max(0, Math.abs(corners[1][1] - corners[0][1]) - 3));
    rect.setAttribute("rx", 4);
    overlay.appendChild(rect);
  }
  svg.appendChild(overlay);
}

// The legal actions touching the picture's elements at a point of the screen.
function actionsAt(x, y) {
  const svg = boardSvg();
  const found = [];
  if (!svg) return found;
  const add = (target) => {
    for (const action of (target && demo.byTarget.get(target)) || []) {
      if (!found.includes(action)) found.push(action);
    }
  };
  for (const hit of document.elementsFromPoint(x, y)) {
    if (!svg.contains(hit)) continue;
    // A target may be a group (a card drawn as a frame and its text): its parts count as it.
    for (let element = hit; element && element !== svg; element = element.parentElement) {
      add(element.dataset && element.dataset.target);
    }
  }
  if (found.length === 0) {
    // A miss between the parts of a group (three small life tokens): the smallest highlighted
    // box around the point counts, as its highlight shows.
    let best = null;
    for (const element of svg.querySelectorAll("[data-target].clickable")) {
      const r = element.getBoundingClientRect();
      if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
      if (!best || r.width * r.height < best.area) best = { area: r.width * r.height, target: element.dataset.target };
    }
    if (best) add(best.target);
  }
  return found;
}

function moveName(action) {
  const move = demo.legal.find((m) => m.id === action);
  return move ? move.name : `action ${action}`;
}

// A move's name with its meaning, for tooltips: "raise: lift a building one level ...".
function moveTip(action) {
  const move = demo.legal.find((m) => m.id === action);
  return move && move.meaning ? `${move.name}: ${move.meaning}` : moveName(action);
}

// A click on the picture: the moves touching that spot. One: it is played. Several: a menu of
// them opens, and their other elements are marked; a click on a marked element keeps only the
// moves touching both spots (a street: click its two cells; a card, then where it goes).
function onBoardClick(event) {
  if (demo.busy || !demo.status || !isMine(demo.status)) return;
  const here = actionsAt(event.clientX, event.clientY);
  const narrowed = demo.choice ? demo.choice.filter((a) => here.includes(a)) : [];
  const actions = narrowed.length > 0 ? narrowed : here;
  closeMenu();
  if (actions.length === 1) {
    play(actions[0]);
  } else if (actions.length > 1) {
    demo.choice = actions;
    markCandidates(actions);
    openMenu(actions, event.clientX, event.clientY);
  }
}

function markCandidates(actions) {
  const spots = new Set(actions.flatMap((a) => demo.targets[a] || []));
  for (const r of document.querySelectorAll("#board .aiplay-overlay .highlight")) {
    r.classList.toggle("candidate", spots.has(r.dataset.for));
  }
}

function onBoardHover(event) {
  const svg = boardSvg();
  if (!svg) return;
  const actions = demo.busy ? [] : actionsAt(event.clientX, event.clientY);
  svg.style.cursor = actions.length ? "pointer" : "default";
  $("board").title = actions.map(moveTip).join("\n");
}

// A menu of the few moves touching one spot. Moves of one kind share a row: "building … at r1c3"
// followed by a short button per move ("1", "2", ...), each titled with the move's full name.
function openMenu(actions, x, y) {
  const menu = $("menu");
  menu.innerHTML = "";
  const rows = new Map();
  for (const action of actions) {
    const key = groupOf({ name: moveName(action) });
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push(action);
  }
  for (const members of rows.values()) {
    const row = document.createElement("div");
    row.className = "menu-row";
    const words = members.map((a) => moveName(a).split(/\s+/));
    let head = 0;
    let tail = 0;
    if (members.length >= 3) {
      const shortest = Math.min(...words.map((w) => w.length));
      while (head < shortest - 1 && words.every((w) => w[head] === words[0][head])) head++;
      while (tail < shortest - head - 1
             && words.every((w) => w[w.length - 1 - tail] === words[0][words[0].length - 1 - tail])) tail++;
      const title = document.createElement("span");
      title.className = "menu-title";
      title.textContent = [...words[0].slice(0, head), "…", ...words[0].slice(words[0].length - tail)].join(" ");
      row.appendChild(title);
    }
    members.forEach((action, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = action;
      button.title = moveTip(action);
      button.textContent = words[i].slice(head, words[i].length - tail).join(" ");
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        closeMenu();
        play(action);
      });
      // Pointing at an entry shows on the board every element that move touches (a street's two cells).
      button.addEventListener("mouseenter", () => preview(action));
      button.addEventListener("mouseleave", () => preview(null));
      row.appendChild(button);
    });
    // The row's meaning in words when its moves share one ("street: lay a street on two lake cells...").
    const meanings = [...new Set(members.map((a) => (demo.legal.find((m) => m.id === a) || {}).meaning).filter(Boolean))];
    if (meanings.length === 1) {
      const note = document.createElement("span");
      note.className = "menu-meaning";
      note.textContent = meanings[0];
      row.appendChild(note);
    }
    menu.appendChild(row);
  }
  if (actions.some((a) => (demo.targets[a] || []).length > 1)) {
    const note = document.createElement("div");
    note.className = "menu-note";
    note.textContent = "or click a second marked place";
    menu.appendChild(note);
  }
  // Beside the picture at the height of the click, so that it hides none of the places to click.
  // The picture may be wider than its panel (it scrolls): beside what is visible of it, kept on screen.
  const svg = boardSvg();
  const right = svg ? Math.min(svg.getBoundingClientRect().right, $("board").getBoundingClientRect().right) : x;
  menu.hidden = false;
  const left = Math.max(0, Math.min(right + 8, window.innerWidth - menu.offsetWidth - 4));
  const top = Math.max(0, Math.min(y - 16, window.innerHeight - menu.offsetHeight - 4));
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${top + window.scrollY}px`;
}

function closeMenu() {
  $("menu").hidden = true;
  $("menu").innerHTML = "";
  demo.choice = null;
  markCandidates([]);
  preview(null);
}

function preview(action) {
  const spots = new Set(action === null ? [] : demo.targets[action] || []);
  for (const r of document.querySelectorAll("#board .aiplay-overlay .highlight")) {
    r.classList.toggle("preview", spots.has(r.dataset.for));
  }
}

function play(action) {
  return exclusive(async () => {
    $("hint-text").textContent = "";
    // A new move of the person's: the note above the board and the marks start afresh.
    demo.turnNotes = new Map();
    demo.markFrom = null;
    const reply = await request("apply", { game_id: demo.gameId, action });
    if (reply.status.to_move !== demo.seat) demo.markFrom = reply.status.ply;
    logMoves([reply.move]);
    logMoves(reply.chance_moves);
    await advance(reply.status);
  });
}

function undo() {
  if (!demo.gameId) return Promise.resolve();
  return exclusive(async () => {
    $("hint-text").textContent = "";
    await request("undo", { game_id: demo.gameId, seat: demo.seat });
    demo.turnNotes = new Map();
    demo.markFrom = null;
    const history = await request("history", { game_id: demo.gameId });
    rebuildLog(history.moves);
    demo.finished = false;
    $("result").hidden = true;
    await advance(history.status);
  });
}

async function hint() {
  if (demo.busy || !demo.gameId) return;
  $("hint-text").textContent = "thinking…";
  demo.busy = true;
  $("hint").disabled = true;
  try {
    // Always the best bot's advice, whatever bots the person plays against.
    const reply = await request("analyse", { game_id: demo.gameId, ...bestBotFields(demo.status.game) });
    const words = chancesInWords(reply);
    const where = demo.targets[reply.action] ? " (marked on the board)" : "";
    const meaning = (demo.legal.find((m) => m.id === reply.action) || {}).meaning;
    $("hint-text").textContent = `Hint: ${reply.name}${where}.${meaning ? ` ${meaning}.` : ""}${words ? ` Your chances: ${words}.` : ""}`;
    for (const b of $("moves").querySelectorAll("button")) {
      const hinted = Number(b.dataset.action) === reply.action;
      b.classList.toggle("hinted", hinted);
      if (hinted) b.closest("details").open = true;
    }
    const spots = new Set(demo.targets[reply.action] || []);
    for (const r of document.querySelectorAll("#board .aiplay-overlay .highlight")) {
      r.classList.toggle("hinted", spots.has(r.dataset.for));
    }
  } catch (err) {
    showError(err);
  } finally {
    demo.busy = false;
    updateControls();
  }
}

// The hint's estimate in words: the engine's own words where it gives them, else the value read on the
// game's utility scale (hello's "utility") as a chance of winning.
const CHANCE_WORDS = [[0.05, "almost certain loss"], [0.25, "likely loss"], [0.42, "behind"], [0.58, "about even"],
  [0.75, "ahead"], [0.95, "likely win"], [1.01, "almost certain win"]];

function chancesInWords(reply) {
  for (const key of ["chances", "value_words", "value_text"]) if (typeof reply[key] === "string") return reply[key];
  if (typeof reply.value !== "number") return "";
  const entry = gameEntry(demo.status.game) || {};
  const low = entry.utility ? entry.utility.min : -1;
  const high = entry.utility ? entry.utility.max : 1;
  const share = high > low ? Math.min(1, Math.max(0, (reply.value - low) / (high - low))) : 0.5;
  return CHANCE_WORDS.find(([bound]) => share < bound)[1];
}

function seatTitle(p, status) {
  const seat = (status.seats || {})[p];
  return p === demo.seat ? `player ${p} (you)` : seat === "human" ? `player ${p} (person)` : `player ${p} (bot)`;
}

// The game-over panel: each seat's final score and result, the winner(s) named, and why (the
// engine's "outcome"; an engine without it: the returns decide, the scores are shown).
function showResult(status) {
  demo.finished = true;
  $("status").textContent = "Game over";
  clearMoves();
  const outcome = status.outcome || null;
  const returns = status.returns || [];
  const best = Math.max(...returns);
  const winners = outcome ? outcome.winners : returns.map((r, p) => (r === best ? p : null)).filter((p) => p !== null);
  const draw = outcome ? outcome.draw : winners.length === returns.length;
  const seats = outcome ? outcome.seats : (status.scores || []).map((score, p) => ({
    seat: p, score, result: draw ? "draw" : winners.includes(p) ? "won" : "lost" }));
  const names = winners.map((p) => seatTitle(p, status));
  const verdict = draw ? "a draw"
    : winners.includes(demo.seat) ? (winners.length > 1 ? `you share the win with ${names.filter((n) => !n.endsWith("(you)")).join(" and ")}` : "you won")
      : `${names.join(" and ")} ${winners.length > 1 ? "won together" : "won"}`;
  const box = $("result");
  box.innerHTML = "";
  const strong = document.createElement("strong");
  strong.className = "verdict";
  strong.textContent = `Game over: ${verdict}.`;
  box.appendChild(strong);
  if (outcome && outcome.text) {
    const why = document.createElement("p");
    why.className = "why";
    why.textContent = outcome.text;
    box.appendChild(why);
  }
  const table = document.createElement("table");
  const head = document.createElement("tr");
  for (const title of ["seat", "final score", "result"]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const entry of seats) {
    const tr = document.createElement("tr");
    tr.dataset.seat = entry.seat;
    if (winners.includes(entry.seat) && !draw) tr.className = "winner";
    const cells = [seatTitle(entry.seat, status), (entry.score == null ? "–" : String(entry.score)), entry.result === "won" ? "won ★" : entry.result];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 1) td.className = "score";
      if (i === 2) td.className = "outcome";
      tr.appendChild(td);
    });
    table.appendChild(tr);
  }
  box.appendChild(table);
  box.hidden = false;
  $("side").scrollTop = 0;
  // The coach's offer, in its own block under this panel (review.js).
  if (typeof offerReview === "function") offerReview(status);
}

// Take the seat a join link names (?join=TOKEN); again after a dropped connection, with the moves missed.
async function joinTable(token) {
  await exclusive(async () => {
    const since = demo.table && demo.table.token === token ? $("log").children.length : 0;
    const reply = await request("join", { token, since });
    demo.seat = reply.seat;
    demo.gameId = reply.game_id;
    demo.table = { id: reply.status.table_id, token, tokens: null };
    demo.latest = null;
    demo.finished = false;
    $("seat").value = String(reply.seat);
    if (since === 0) rebuildLog(reply.moves); else logMoves(reply.moves);
    await advance(reply.status);
  });
}

async function main() {
  for (const [key, id] of [["game", "game"], ["players", "players"], ["seat", "seat"], ["bot", "bot"],
    ["seconds", "seconds"], ["seed", "seed"], ["second", "second"]]) {
    if (demo.params.has(key)) $(id).value = demo.params.get(key);
  }
  $("setup").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("help-button").addEventListener("click", () => ($("help").hidden ? showHelp() : ($("help").hidden = true)));
  $("help-close").addEventListener("click", () => { $("help").hidden = true; });
  $("level").addEventListener("change", syncBotControls);
  window.addEventListener("resize", () => { fitBoard(); });
  // The panel also changes size when the note above it grows or shrinks: fit the picture again.
  if (window.ResizeObserver) {
    let lastSize = "";
    new ResizeObserver(() => {
      const box = $("board");
      const size = `${box.clientWidth}x${box.clientHeight}`;
      if (size !== lastSize) { lastSize = size; fitBoard(); }
    }).observe($("board"));
  }
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("mousemove", onBoardHover);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") { closeMenu(); $("help").hidden = true; } });
  document.addEventListener("click", (event) => {
    if (!$("menu").contains(event.target) && !$("board").contains(event.target)) closeMenu();
  });
  await connect();
  demo.hello = await request("hello");
  populateGames(demo.hello);
  populateBots(demo.hello);
  $("game").addEventListener("change", () => {
    setPlayers(null);
    populateLevels(demo.hello, $("level").value);
  });
  $("connection").textContent = "engine connected";
  $("connection").classList.add("ok");
  if (demo.params.get("join")) await joinTable(demo.params.get("join"));
  else if (demo.params.get("autostart") === "1") await newGame();
}

main().catch(showError);
