// The Alice chess web board: draws the state the server sends and turns clicks into requests.
// Plain JavaScript, no build step. The server owns the game; this page only shows it
// (GET /api/state, long-polled) and asks for changes (POST /api/...), showing any error.
"use strict";

const FILES = "abcdefgh";
const PIECE_NAMES = { p: "P", n: "N", b: "B", r: "R", q: "Q", k: "K" };
const PROMOTIONS = ["q", "r", "b", "n"];
const DRAG_THRESHOLD = 4; // pixels the pointer must travel before a press becomes a drag
const RETRY_MS = 1000; // wait before polling again after a failed request
const EVAL_SCALE = 400; // centipawns at which the bar is about three quarters full

let state = null; // the last state from the server
let flipped = false; // Black at the bottom
let selected = null; // square name of the piece picked up
let drag = null; // {square, ghost, startX, startY, active}
let promotionPending = null; // {from, to}
let pendingPly = null; // the ply asked for by stepping, until the server shows it

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ requests
async function post(path, body = {}) {
  clearMessage();
  if (path !== "goto") {
    pendingPly = null;
  }
  try {
    const response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: `server answered ${response.status}` }));
    if (!response.ok) {
      showMessage(data.error || `server answered ${response.status}`);
      pendingPly = null;
      render(); // undo anything drawn in advance
      return null;
    }
    if (data.state) {
      accept(data.state);
    }
    return data;
  } catch (error) {
    showMessage(`cannot reach the server: ${error.message}`);
    pendingPly = null;
    render();
    return null;
  }
}

function accept(newState) {
  if (!state || newState.version >= state.version) {
    const modeChanged = !state || state.mode !== newState.mode;
    state = newState;
    if (pendingPly === state.ply || pendingPly > state.moves.length) {
      pendingPly = null;
    }
    if (modeChanged) {
      syncControls();
    }
    render();
  }
}

async function poll() {
  for (;;) {
    const after = state ? `?after=${state.version}` : "";
    try {
      const response = await fetch(`/api/state${after}`);
      if (!response.ok) {
        throw new Error(`server answered ${response.status}`);
      }
      accept(await response.json());
      $("connection").textContent = "";
    } catch (error) {
      $("connection").textContent = "connection lost, retrying…";
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
}

// ------------------------------------------------------------------ the boards
function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

function buildBoards() {
  for (const name of ["A", "B"]) {
    const board = $(`board-${name}`);
    board.replaceChildren();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = flipped ? 7 - col : col;
        const rank = flipped ? row : 7 - row;
        const square = document.createElement("div");
        square.className = `square ${(file + rank) % 2 ? "light" : "dark"}`;
        square.dataset.square = squareName(file, rank);
        square.dataset.board = name;
        if (col === 0) {
          square.appendChild(coordinate("rank", String(rank + 1)));
        }
        if (row === 7) {
          square.appendChild(coordinate("file", FILES[file]));
        }
        board.appendChild(square);
      }
    }
  }
}

function coordinate(kind, text) {
  const span = document.createElement("span");
  span.className = `coord ${kind}`;
  span.textContent = text;
  return span;
}

function pieceImage(symbol) {
  const img = document.createElement("img");
  const color = symbol === symbol.toUpperCase() ? "w" : "b";
  img.src = `/pieces/${color}${PIECE_NAMES[symbol.toLowerCase()]}.svg`;
  img.alt = symbol;
  img.className = "piece";
  img.draggable = false;
  return img;
}

function squareEl(board, name) {
  return document.querySelector(`#board-${board} .square[data-square="${name}"]`);
}

function pieceAt(name) {
  return state ? state.pieces.find((p) => p.square === name) : undefined;
}

function movesFrom(name) {
  return state ? state.legal.filter((uci) => uci.slice(0, 2) === name) : [];
}

function renderBoards() {
  document.querySelectorAll(".square").forEach((sq) => {
    sq.classList.remove("last-from", "last-to", "check", "selected", "dest", "capture", "movable");
    sq.querySelector(".piece")?.remove();
  });
  for (const p of state.pieces) {
    const sq = squareEl(p.board, p.square);
    sq.appendChild(pieceImage(p.piece));
    if (movesFrom(p.square).length) {
      sq.classList.add("movable");
    }
  }
  if (state.lastMove) {
    squareEl(state.lastMove.fromBoard, state.lastMove.from).classList.add("last-from");
    squareEl(state.lastMove.toBoard, state.lastMove.to).classList.add("last-to");
  }
  if (state.check) {
    squareEl(state.check.board, state.check.square).classList.add("check");
  }
  if (selected) {
    const piece = pieceAt(selected);
    if (!piece || !movesFrom(selected).length) {
      selected = null;
    } else {
      squareEl(piece.board, selected).classList.add("selected");
      for (const uci of movesFrom(selected)) {
        const to = uci.slice(2, 4);
        const target = squareEl(piece.board, to);
        target.classList.add("dest");
        if (pieceAt(to)) {
          target.classList.add("capture");
        }
      }
    }
  }
}

// Moves by click: pick a piece, then a lit square (on either board: one piece per coordinate).
// Moves by drag: press on a piece, drop it on a lit square.
function onPointerDown(event) {
  const sq = event.target.closest(".square");
  if (!sq || !state || event.button !== 0) {
    return;
  }
  event.preventDefault();
  const name = sq.dataset.square;
  if (selected && movesFrom(selected).some((uci) => uci.slice(2, 4) === name)) {
    tryMove(selected, name);
    return;
  }
  if (movesFrom(name).length) {
    selected = name;
    renderBoards();
    drag = { square: name, startX: event.clientX, startY: event.clientY, active: false, ghost: null };
  } else if (selected) {
    selected = null;
    renderBoards();
  }
}

function onPointerMove(event) {
  if (!drag) {
    return;
  }
  if (!drag.active) {
    if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < DRAG_THRESHOLD) {
      return;
    }
    const piece = pieceAt(drag.square);
    const source = squareEl(piece.board, drag.square);
    const ghost = pieceImage(piece.piece);
    ghost.classList.add("ghost");
    const size = source.getBoundingClientRect().width;
    ghost.style.width = `${size}px`;
    ghost.style.height = `${size}px`;
    document.body.appendChild(ghost);
    source.querySelector(".piece")?.classList.add("lifted");
    drag.active = true;
    drag.ghost = ghost;
    drag.size = size;
  }
  drag.ghost.style.left = `${event.clientX - drag.size / 2}px`;
  drag.ghost.style.top = `${event.clientY - drag.size / 2}px`;
}

function onPointerUp(event) {
  if (!drag) {
    return;
  }
  const finished = drag;
  drag = null;
  if (!finished.active) {
    return; // a click: the piece stays selected
  }
  finished.ghost.remove();
  const target = document.elementFromPoint(event.clientX, event.clientY)?.closest(".square");
  const to = target?.dataset.square;
  if (to && to !== finished.square && movesFrom(finished.square).some((uci) => uci.slice(2, 4) === to)) {
    tryMove(finished.square, to);
  } else {
    renderBoards();
  }
}

function tryMove(from, to) {
  const candidates = movesFrom(from).filter((uci) => uci.slice(2, 4) === to);
  selected = null;
  if (candidates.length > 1 || (candidates.length === 1 && candidates[0].length === 5)) {
    askPromotion(from, to);
    return;
  }
  sendMove(candidates[0], from, to);
}

function sendMove(uci, from, to) {
  // Draw the move at once (the piece lands on the other board); the server's answer redraws.
  const piece = pieceAt(from);
  renderBoards();
  if (piece) {
    const landing = piece.board === "A" ? "B" : "A";
    squareEl(piece.board, from).querySelector(".piece")?.remove();
    squareEl(piece.board, to).querySelector(".piece")?.remove();
    const symbol = uci.length === 5 ? (piece.piece === piece.piece.toUpperCase() ? uci[4].toUpperCase() : uci[4]) : piece.piece;
    squareEl(landing, to).appendChild(pieceImage(symbol));
  }
  post("move", { move: uci });
}

function askPromotion(from, to) {
  const piece = pieceAt(from);
  const white = piece.piece === piece.piece.toUpperCase();
  const choices = $("promotion-choices");
  choices.replaceChildren();
  for (const letter of PROMOTIONS) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.promotion = letter;
    button.title = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" }[letter];
    button.appendChild(pieceImage(white ? letter.toUpperCase() : letter));
    button.addEventListener("click", () => {
      closePromotion();
      sendMove(`${from}${to}${letter}`, from, to);
    });
    choices.appendChild(button);
  }
  promotionPending = { from, to };
  $("promotion").hidden = false;
}

function closePromotion() {
  promotionPending = null;
  $("promotion").hidden = true;
  renderBoards();
}

// ------------------------------------------------------------------ panels
function sideName(color) {
  return color === "white" ? "White" : "Black";
}

function renderStatus() {
  const status = $("status");
  status.className = "";
  if (state.result && state.ply === state.moves.length) {
    const { result, reason } = state.result;
    const winner = result === "1-0" ? "White wins" : result === "0-1" ? "Black wins" : "Draw";
    status.textContent = `${result} · ${winner} (${reason})`;
    status.classList.add("over");
    return;
  }
  if (state.ply !== state.moves.length) {
    status.textContent = `Viewing move ${state.ply} of ${state.moves.length}`;
    return;
  }
  const turn = sideName(state.turn);
  if (state.mode === "play") {
    const yours = state.players[state.turn] === null;
    status.textContent = yours ? `Your move (${turn})` : `${turn} to move: ${state.thinking || "the engine"}`;
    status.classList.toggle("yours", yours);
  } else if (state.mode === "watch" && state.paused) {
    status.textContent = `${turn} to move · paused`;
  } else {
    status.textContent = `${turn} to move`;
  }
  if (state.check) {
    status.textContent += " · check";
  }
}

function renderPlayers() {
  const top = flipped ? "white" : "black";
  const bottom = flipped ? "black" : "white";
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const el = $(id);
    el.replaceChildren();
    const dot = document.createElement("span");
    dot.className = `dot ${color}`;
    el.appendChild(dot);
    const name = state.names[color];
    el.appendChild(document.createTextNode(name && name !== "?" ? `${sideName(color)}: ${name}` : sideName(color)));
    el.classList.toggle("to-move", state.turn === color && !state.result);
  }
}

function renderEngine() {
  $("thinking").textContent = state.thinking ? `· ${state.thinking}…` : state.lines.length && state.linesPly !== state.ply ? `· after move ${state.linesPly}` : "";
  const body = $("lines").tBodies[0];
  body.replaceChildren();
  const lines = state.lines.filter((line) => line && line.score);
  for (const line of lines) {
    const row = body.insertRow();
    const score = row.insertCell();
    score.className = `score ${line.score.cp >= 0 ? "plus" : "minus"}`;
    score.textContent = line.score.text;
    const depth = row.insertCell();
    depth.className = "depth muted";
    depth.textContent = `d${line.depth ?? "?"}`;
    row.insertCell().textContent = line.pv;
  }
  $("no-lines").hidden = lines.length > 0;
  $("no-lines").textContent = state.thinking ? "Thinking…" : "No engine output yet.";
  renderEvalBar(lines.length && state.linesPly === state.ply ? lines[0].score : latestEval());
}

// The evaluation of the position shown, else of the nearest earlier one known.
function latestEval() {
  for (let ply = state.ply; ply >= 0; ply--) {
    if (state.evals[ply]) {
      return state.evals[ply];
    }
  }
  return null;
}

function evalFraction(cp) {
  return 1 / (1 + Math.exp(-cp / (EVAL_SCALE / 1.1)));
}

function renderEvalBar(score) {
  const fill = $("evalfill");
  const fraction = score ? evalFraction(score.cp) : 0.5;
  fill.style.height = `${(flipped ? 1 - fraction : fraction) * 100}%`;
  $("evalbar").classList.toggle("flipped", flipped);
  $("evaltext").textContent = score ? score.text : "";
}

function renderMoves() {
  const list = $("movelist");
  list.replaceChildren();
  const first = state.firstMove;
  let number = first.number;
  let item = null;
  state.moves.forEach((san, i) => {
    const white = (i + (first.turn === "black" ? 1 : 0)) % 2 === 0;
    if (white || item === null) {
      item = document.createElement("li");
      const label = document.createElement("span");
      label.className = "number";
      label.textContent = white ? `${number}.` : `${number}…`;
      item.appendChild(label);
      if (!white) {
        item.appendChild(document.createElement("span"));
      }
      list.appendChild(item);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = san;
    button.dataset.ply = String(i + 1);
    if (i + 1 === state.ply) {
      button.classList.add("current");
    }
    button.addEventListener("click", () => post("goto", { ply: i + 1 }));
    item.appendChild(button);
    if (!white) {
      number += 1;
    }
  });
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  if (state.result) {
    const result = document.createElement("li");
    result.className = "result";
    result.textContent = `${state.result.result} (${state.result.reason})`;
    list.appendChild(result);
  }
}

function renderGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const evals = state.evals;
  const known = evals.filter((e) => e);
  $("graph-wrap").hidden = known.length < 2;
  $("graph-note").textContent = state.reviewing
    ? "· evaluating…"
    : known.length < evals.length && state.result
      ? "· partly evaluated"
      : "";
  const width = 400;
  const height = 110;
  const x = (ply) => (evals.length > 1 ? (ply * width) / (evals.length - 1) : 0);
  const y = (cp) => height * (1 - evalFraction(cp));
  const add = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) {
      el.setAttribute(k, v);
    }
    svg.appendChild(el);
    return el;
  };
  add("rect", { x: 0, y: 0, width, height, class: "graph-bg" });
  const points = [];
  evals.forEach((e, ply) => {
    if (e) {
      points.push([x(ply), y(e.cp)]);
    }
  });
  if (points.length) {
    const area = [`${points[0][0]},${height}`, ...points.map((p) => p.join(",")), `${points[points.length - 1][0]},${height}`];
    add("polygon", { points: area.join(" "), class: "graph-white" });
    add("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "graph-line" });
  }
  add("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "graph-mid" });
  add("line", { x1: x(state.ply), x2: x(state.ply), y1: 0, y2: height, class: "graph-cursor" });
}

function renderControls() {
  document.querySelectorAll("#modes button").forEach((b) => b.classList.toggle("active", b.dataset.mode === state.mode));
  document.querySelectorAll(".setup").forEach((card) => {
    card.hidden = card.dataset.for !== state.mode;
  });
  const atEnd = state.ply === state.moves.length;
  const engineToMove = state.mode !== "analyse" && state.players[state.turn] !== null;
  $("takeback").disabled = state.moves.length === 0;
  $("ana-takeback").disabled = state.moves.length === 0;
  $("resign").disabled = Boolean(state.result);
  $("move-now").disabled = !(state.thinking && engineToMove && atEnd);
  $("analyse-toggle").textContent = state.analysis.on ? "Stop analysis" : "Start analysis";
  $("analyse-toggle").classList.toggle("active", state.analysis.on);
  $("pause").textContent = state.paused || state.engineError ? "Resume" : "Pause";
  $("pause").disabled = Boolean(state.result);
  document.querySelectorAll("#multipv button").forEach((b) =>
    b.classList.toggle("active", Number(b.dataset.multipv) === state.analysis.multipv),
  );
  const human = state.players.white === null ? "white" : "black";
  document.querySelectorAll("#side button").forEach((b) => b.classList.toggle("active", b.dataset.side === human));
  $("nav-first").disabled = $("nav-prev").disabled = state.ply === 0;
  $("nav-next").disabled = $("nav-last").disabled = atEnd;
  $("move-input").disabled = state.legal.length === 0;
  if (document.activeElement !== $("fen")) {
    $("fen").value = state.fen;
  }
  if (state.engineError) {
    showMessage(`Engine problem: ${state.engineError}. Start a new game or press ${state.mode === "watch" ? "Resume" : "Move now / Start"} to try again.`);
  }
}

function fillEngineSelects() {
  // Engine and strength menus, rebuilt only when the engines' menus change.
  const signature = JSON.stringify(state.engines);
  if (fillEngineSelects.signature === signature) {
    return;
  }
  fillEngineSelects.signature = signature;
  document.querySelectorAll(".engine-select").forEach((select) => {
    const keep = select.value;
    select.replaceChildren(
      ...state.engines.map((e) => {
        const option = document.createElement("option");
        option.value = String(e.id);
        option.textContent = e.name;
        return option;
      }),
    );
    select.value = keep || "0";
  });
  document.querySelectorAll(".engine-row").forEach((row) => {
    row.hidden = state.engines.length < 2;
  });
  syncControls();
}

function fillStrengths(select, engineId, value) {
  const engine = state.engines[engineId] || state.engines[0];
  const groups = { level: "Levels", full: "Full strength", time: "Time per move", nodes: "Nodes per move" };
  select.replaceChildren();
  for (const [prefix, label] of Object.entries(groups)) {
    const group = document.createElement("optgroup");
    group.label = label;
    for (const s of engine.strengths.filter((s) => s.value.split(":")[0] === prefix)) {
      const option = document.createElement("option");
      option.value = s.value;
      option.textContent = s.label;
      group.appendChild(option);
    }
    if (group.children.length) {
      select.appendChild(group);
    }
  }
  const values = engine.strengths.map((s) => s.value);
  select.value = values.includes(value) ? value : defaultStrength(values);
}

function defaultStrength(values) {
  return values.includes("level:4") ? "level:4" : "full";
}

// Set the menus from the state (after a mode change, a new engine list, or at start).
function syncControls() {
  if (!state) {
    return;
  }
  const opponent = state.players.white || state.players.black;
  const opp = opponent || { engine: Number($("opp-engine").value) || 0, strength: $("opp-strength").value };
  $("opp-engine").value = String(opp.engine);
  fillStrengths($("opp-strength"), opp.engine, opp.strength);
  for (const color of ["white", "black"]) {
    const p = state.players[color] || { engine: Number($(`${color}-engine`).value) || 0, strength: $(`${color}-strength`).value };
    $(`${color}-engine`).value = String(p.engine);
    fillStrengths($(`${color}-strength`), p.engine, p.strength);
  }
  $("ana-engine").value = String(state.analysis.engine);
}

function render() {
  if (!state) {
    return;
  }
  fillEngineSelects();
  renderBoards();
  renderStatus();
  renderPlayers();
  renderEngine();
  renderMoves();
  renderGraph();
  renderControls();
}

// ------------------------------------------------------------------ actions
function currentSide() {
  return document.querySelector("#side button.active")?.dataset.side || "white";
}

function playSetup(side = currentSide()) {
  return {
    mode: "play",
    side,
    opponent: { engine: Number($("opp-engine").value) || 0, strength: $("opp-strength").value },
  };
}

function watchSetup() {
  const player = (color) => ({ engine: Number($(`${color}-engine`).value) || 0, strength: $(`${color}-strength`).value });
  return { mode: "watch", white: player("white"), black: player("black") };
}

function setFlipped(value) {
  if (flipped !== value) {
    flipped = value;
    buildBoards();
    render();
  }
}

async function newGame(setup) {
  const done = await post("new", setup);
  if (done && setup.mode === "play") {
    setFlipped(setup.side === "black");
  }
}

async function exportPgn() {
  try {
    const response = await fetch("/api/pgn");
    const data = await response.json();
    if (!response.ok) {
      showMessage(data.error);
      return;
    }
    $("io-text").value = data.pgn;
    const link = $("download-pgn");
    if (link.href) {
      URL.revokeObjectURL(link.href);
    }
    link.href = URL.createObjectURL(new Blob([data.pgn], { type: "application/x-chess-pgn" }));
    link.hidden = false;
  } catch (error) {
    showMessage(`cannot reach the server: ${error.message}`);
  }
}

async function copyFen() {
  const text = $("fen").value;
  try {
    await navigator.clipboard.writeText(text);
    $("copy-fen").textContent = "Copied";
  } catch {
    $("fen").select();
    $("copy-fen").textContent = "Selected: copy it";
  }
  setTimeout(() => ($("copy-fen").textContent = "Copy FEN"), 1500);
}

// Quick steps add up: each starts from the ply last asked for, not the one last shown.
function step(delta) {
  if (!state) {
    return;
  }
  const from = pendingPly ?? state.ply;
  const ply = Math.max(0, Math.min(state.moves.length, from + delta));
  if (ply !== from) {
    pendingPly = ply;
    post("goto", { ply });
  }
}

function onGraphClick(event) {
  if (!state || state.moves.length === 0) {
    return;
  }
  const box = $("graph").getBoundingClientRect();
  const ply = Math.round(((event.clientX - box.left) / box.width) * state.moves.length);
  post("goto", { ply: Math.max(0, Math.min(state.moves.length, ply)) });
}

function wire() {
  for (const board of document.querySelectorAll(".board")) {
    board.addEventListener("pointerdown", onPointerDown);
  }
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  $("promotion").addEventListener("click", (event) => {
    if (event.target === $("promotion")) {
      closePromotion();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && promotionPending) {
      closePromotion();
    }
    if (event.target.closest("input, textarea, select")) {
      return;
    }
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (event.key in keys && state) {
      event.preventDefault();
      step(keys[event.key]);
    } else if (event.key === "f") {
      setFlipped(!flipped);
    }
  });
  $("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text) {
      return;
    }
    input.value = ""; // at once, so the next move can be typed; given back if this one fails
    if (!(await post("move", { move: text })) && !input.value) {
      input.value = text;
    }
  });
  document.querySelectorAll("#modes button").forEach((button) =>
    button.addEventListener("click", () => {
      const mode = button.dataset.mode;
      const setup = mode === "play" ? playSetup() : mode === "watch" ? watchSetup() : { mode };
      post("mode", setup);
    }),
  );
  document.querySelectorAll("#side button").forEach((button) =>
    button.addEventListener("click", () => {
      document.querySelectorAll("#side button").forEach((b) => b.classList.toggle("active", b === button));
      post("mode", playSetup(button.dataset.side));
      setFlipped(button.dataset.side === "black");
    }),
  );
  $("opp-engine").addEventListener("change", () => {
    fillStrengths($("opp-strength"), Number($("opp-engine").value), $("opp-strength").value);
    post("mode", playSetup());
  });
  $("opp-strength").addEventListener("change", () => post("mode", playSetup()));
  for (const color of ["white", "black"]) {
    $(`${color}-engine`).addEventListener("change", () => {
      fillStrengths($(`${color}-strength`), Number($(`${color}-engine`).value), $(`${color}-strength`).value);
      post("mode", watchSetup());
    });
    $(`${color}-strength`).addEventListener("change", () => post("mode", watchSetup()));
  }
  $("new-game").addEventListener("click", () => newGame(playSetup()));
  $("watch-new").addEventListener("click", () => newGame(watchSetup()));
  $("ana-new").addEventListener("click", () => newGame({ mode: "analyse" }));
  $("takeback").addEventListener("click", () => post("takeback"));
  $("ana-takeback").addEventListener("click", () => post("takeback"));
  $("resign").addEventListener("click", () => post("resign"));
  $("move-now").addEventListener("click", () => post(state && state.engineError ? "go" : "stop"));
  $("pause").addEventListener("click", () => post(state && (state.paused || state.engineError) ? "go" : "stop"));
  $("analyse-toggle").addEventListener("click", () => post("analysis", { on: !(state && state.analysis.on) }));
  $("ana-engine").addEventListener("change", () => post("analysis", { engine: Number($("ana-engine").value) }));
  document.querySelectorAll("#multipv button").forEach((button) =>
    button.addEventListener("click", () => post("analysis", { multipv: Number(button.dataset.multipv) })),
  );
  $("review").addEventListener("click", () => post("review"));
  $("nav-first").addEventListener("click", () => step(-Infinity));
  $("nav-prev").addEventListener("click", () => step(-1));
  $("nav-next").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => step(Infinity));
  $("flip").addEventListener("click", () => setFlipped(!flipped));
  $("copy-fen").addEventListener("click", copyFen);
  $("load-fen").addEventListener("click", () => post("fen", { fen: $("io-text").value }));
  $("load-pgn").addEventListener("click", () => post("pgn", { pgn: $("io-text").value }));
  $("export-pgn").addEventListener("click", exportPgn);
  $("graph").addEventListener("click", onGraphClick);
}

buildBoards();
wire();
poll();
