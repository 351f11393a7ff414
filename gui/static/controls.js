// Everything around the boards: the status line, the players and their clocks, the mode
// cards (Play, Analyse, Watch) with their menus and buttons, the options under the boards,
// and the position/game card (FEN, PGN).
import { $, getJson, post, showMessage, showNotice, store } from "./api.js";
import { renderBoards, setFlipped } from "./boards.js";
import { renderClocks } from "./clocks.js";
import { moveLabel, positionLabel } from "./notation.js";
import { pref, setPref } from "./prefs.js";
import { unlockSounds } from "./sounds.js";
import { view } from "./view.js";

function sideName(color) {
  return color === "white" ? "White" : "Black";
}

export function renderStatus() {
  const state = store.state;
  const status = $("status");
  status.className = "";
  if (view.preview) {
    status.textContent = `Preview of the engine's line: ${view.preview.label} (not played)`;
    status.classList.add("preview");
    return;
  }
  const atEnd = state.ply === state.moves.length;
  if (state.result && atEnd) {
    const { result, reason } = state.result;
    const winner = result === "1-0" ? "White wins" : result === "0-1" ? "Black wins" : "Draw";
    status.textContent = `${result} · ${winner} (${reason})`;
    status.classList.add("over");
    return;
  }
  if (!atEnd) {
    const where = state.ply ? `the position ${positionLabel(state, state.ply)}` : positionLabel(state, 0);
    status.textContent = `Viewing ${where} · the line goes on to ${moveLabel(state, state.moves.length)}`;
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
  if (state.tablebase) {
    status.textContent += ` · ${state.tablebase.text}`;
  }
}

export function renderPlayers() {
  const state = store.state;
  const flipped = document.body.classList.contains("flipped");
  const top = flipped ? "white" : "black";
  const bottom = flipped ? "black" : "white";
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const el = $(id);
    el.replaceChildren();
    const dot = document.createElement("span");
    dot.className = `dot ${color}`;
    el.appendChild(dot);
    const name = state.names[color];
    const label = document.createElement("span");
    label.className = "name";
    label.textContent = name && name !== "?" ? `${sideName(color)}: ${name}` : sideName(color);
    el.appendChild(label);
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.color = color;
    clock.setAttribute("aria-label", `${sideName(color)}'s clock`);
    el.appendChild(clock);
    el.dataset.color = color;
    el.classList.toggle("to-move", state.turn === color && !state.result);
  }
  renderClocks();
}

export function renderControls() {
  const state = store.state;
  document.querySelectorAll("#modes button").forEach((b) => b.classList.toggle("active", b.dataset.mode === state.mode));
  document.querySelectorAll(".setup").forEach((card) => {
    card.hidden = card.dataset.for !== state.mode;
  });
  document.body.dataset.mode = state.mode;
  const atEnd = state.ply === state.moves.length;
  const engineToMove = state.mode !== "analyse" && state.players[state.turn] !== null;
  $("takeback").disabled = state.moves.length === 0;
  $("ana-takeback").disabled = state.moves.length === 0;
  $("resign").disabled = Boolean(state.result);
  $("offer-draw").disabled = Boolean(state.result);
  $("opt-aids").checked = pref("aliceAids");
  $("opt-sounds").checked = pref("sounds");
  $("opt-figurines").checked = pref("figurines");
  if (state.result || state.mode !== "play") {
    $("resign-confirm").hidden = true;
  }
  $("move-now").disabled = !(state.thinking && engineToMove && atEnd);
  $("analyse-toggle").textContent = state.analysis.on ? "Stop analysis" : "Start analysis";
  $("analyse-toggle").classList.toggle("active", state.analysis.on);
  $("pause").textContent = state.paused || state.engineError ? "Resume" : "Pause";
  $("pause").disabled = Boolean(state.result);
  document.querySelectorAll("#multipv button").forEach((b) =>
    b.classList.toggle("active", Number(b.dataset.multipv) === state.analysis.multipv),
  );
  if (!store.posting) {
    // A side just chosen stays chosen until the server has it (a state on its way would undo it).
    const human = state.players.white === null ? "white" : "black";
    document.querySelectorAll("#side button").forEach((b) => b.classList.toggle("active", b.dataset.side === human));
  }
  $("nav-first").disabled = $("nav-prev").disabled = state.ply === 0;
  $("nav-next").disabled = $("nav-last").disabled = atEnd;
  // Watching: no move box, no hint about moving pieces.
  $("move-form").hidden = $("hint").hidden = state.mode === "watch";
  $("move-input").disabled = state.legal.length === 0;
  if (document.activeElement !== $("fen")) {
    $("fen").value = state.fen;
  }
  $("load-note").hidden = !state.note;
  $("load-note").textContent = state.note || "";
  if (state.engineError) {
    const retry = state.mode === "watch" ? "Resume" : "Move now / Start";
    showMessage(`Engine problem: ${state.engineError}. Start a new game or press ${retry} to try again.`);
  }
}

export function fillEngineSelects() {
  // Engine and strength menus, rebuilt only when the engines' menus change.
  const state = store.state;
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
  const state = store.state;
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
  select.value = values.includes(value) ? value : values.includes("level:4") ? "level:4" : "full";
}

// Set the menus from the state (after a mode change, a new engine list, or at start).
export function syncControls() {
  const state = store.state;
  if (!state) {
    return;
  }
  const opponent = state.players.white || state.players.black;
  const opp = opponent || { engine: Number($("opp-engine").value) || 0, strength: $("opp-strength").value };
  $("opp-engine").value = String(opp.engine);
  fillStrengths($("opp-strength"), opp.engine, opp.strength);
  for (const color of ["white", "black"]) {
    const p = state.players[color] || {
      engine: Number($(`${color}-engine`).value) || 0,
      strength: $(`${color}-strength`).value,
    };
    $(`${color}-engine`).value = String(p.engine);
    fillStrengths($(`${color}-strength`), p.engine, p.strength);
  }
  $("ana-engine").value = String(state.analysis.engine);
  syncClockChoice(state);
}

// The clock menu shows the running game's time control (the next game's, until changed).
function syncClockChoice(state) {
  const clock = state.mode === "play" ? state.clock : null;
  if (!clock || clock.base === null) {
    return;
  }
  const value = `${clock.base}+${clock.increment}`;
  const known = [...$("clock-choice").options].some((option) => option.value === value);
  $("clock-choice").value = known ? value : "custom";
  if (!known) {
    $("clock-minutes").value = String(clock.base / 60);
    $("clock-increment").value = String(clock.increment);
  }
  $("clock-custom").hidden = known;
}

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

// The clock chosen for a new game: null, or {base, increment} in seconds.
function clockChoice() {
  const value = $("clock-choice").value;
  if (!value) {
    return null;
  }
  if (value === "custom") {
    return { base: Number($("clock-minutes").value) * 60, increment: Number($("clock-increment").value) };
  }
  const [base, increment] = value.split("+").map(Number);
  return { base, increment };
}

function watchSetup() {
  const player = (color) => ({ engine: Number($(`${color}-engine`).value) || 0, strength: $(`${color}-strength`).value });
  return { mode: "watch", white: player("white"), black: player("black") };
}

// Until the new game comes, the old position takes no move: a tap there would be lost (or
// played in the old game) when the new one replaces it.
async function newGame(setup) {
  setStarting(true);
  try {
    const done = await post("new", setup);
    if (done && setup.mode === "play") {
      setFlipped(setup.side === "black");
    }
  } finally {
    setStarting(false);
  }
}

function setStarting(starting) {
  store.starting = starting;
  $("boards").classList.toggle("starting", starting);
  renderBoards();
}

async function exportPgn() {
  try {
    const data = await getJson("/api/pgn");
    $("io-text").value = data.pgn;
    const link = $("download-pgn");
    if (link.href) {
      URL.revokeObjectURL(link.href);
    }
    link.href = URL.createObjectURL(new Blob([data.pgn], { type: "application/x-chess-pgn" }));
    link.hidden = false;
  } catch (error) {
    showMessage(`cannot export the game: ${error.message}`);
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

function askResign(open) {
  $("resign-confirm").hidden = !open;
  $("resign").hidden = open;
  if (open) {
    $("resign-no").focus();
  }
}

// render: redraws the page (after an option changes).
export function wireControls(render) {
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
  $("new-game").addEventListener("click", () => newGame({ ...playSetup(), clock: clockChoice() }));
  $("clock-choice").addEventListener("change", () => {
    $("clock-custom").hidden = $("clock-choice").value !== "custom";
  });
  $("offer-draw").addEventListener("click", async () => {
    const answer = await post("draw");
    if (answer) {
      showNotice(answer.message);
    }
  });
  const toggles = { "opt-aids": "aliceAids", "opt-sounds": "sounds", "opt-figurines": "figurines" };
  for (const [id, name] of Object.entries(toggles)) {
    $(id).addEventListener("change", (event) => {
      setPref(name, event.target.checked);
      if (name === "sounds" && event.target.checked) {
        unlockSounds();
      }
      render();
    });
  }
  $("watch-new").addEventListener("click", () => newGame(watchSetup()));
  $("ana-new").addEventListener("click", () => newGame({ mode: "analyse" }));
  $("takeback").addEventListener("click", () => post("takeback"));
  $("ana-takeback").addEventListener("click", () => post("takeback"));
  $("resign").addEventListener("click", () => askResign(true));
  $("resign-no").addEventListener("click", () => askResign(false));
  $("resign-yes").addEventListener("click", async () => {
    askResign(false);
    await post("resign");
  });
  $("move-now").addEventListener("click", () => post(store.state?.engineError ? "go" : "stop"));
  $("pause").addEventListener("click", () => post(store.state?.paused || store.state?.engineError ? "go" : "stop"));
  $("analyse-toggle").addEventListener("click", () => post("analysis", { on: !store.state?.analysis.on }));
  $("ana-engine").addEventListener("change", () => post("analysis", { engine: Number($("ana-engine").value) }));
  document.querySelectorAll("#multipv button").forEach((button) =>
    button.addEventListener("click", () => post("analysis", { multipv: Number(button.dataset.multipv) })),
  );
  $("review").addEventListener("click", () => post("review"));
  $("copy-fen").addEventListener("click", copyFen);
  $("load-fen").addEventListener("click", () => post("fen", { fen: $("io-text").value }));
  $("load-pgn").addEventListener("click", () => post("pgn", { pgn: $("io-text").value }));
  $("export-pgn").addEventListener("click", exportPgn);
  $("solve").addEventListener("click", solveProblem);
}

// The position shown as a problem (POST /api/solve): Popeye's text of the solutions.
async function solveProblem() {
  const out = $("solve-out");
  out.hidden = false;
  out.textContent = "solving…";
  const data = await post("solve", { fen: store.state?.fen ?? "", stipulation: $("solve-stip").value, options: ["vari"] });
  if (!data) {
    out.textContent = "";
    out.hidden = true;
    return;
  }
  const s = data.solve;
  const count = `${s.solutions.length} solution${s.solutions.length === 1 ? "" : "s"}, ${s.seconds} s`;
  const lines = s.lines.filter((line) => line.trim());
  const indent = Math.min(...lines.map((line) => line.length - line.trimStart().length), 99);
  const body = lines.map((line) => line.slice(indent)).join("\n");
  out.textContent = `${s.stipulation}\n${body}\n${count}`;
}
