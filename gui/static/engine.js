// The engine panel (its lines, who is thinking) and the evaluation bar. Both always describe
// the same thing: the lines shown, else the evaluation of the position on view, else nothing.
// While you play, both are hidden unless you ask for them ("Show its lines").
//
// Each move of a line is a button: under the pointer (or after a tap) the boards preview the
// position it reaches, without changing the game; a click (a second tap on a phone) plays the
// line up to that move into the game (Analyse: a variation where the game went otherwise).
import { $, getJson, post, store } from "./api.js";
import { displaySan, positionLabel } from "./notation.js";
import { pref, setPref } from "./prefs.js";
import { view } from "./view.js";

const EVAL_SCALE = 400; // centipawns at which the bar is about three quarters full

let redraw = () => {};
const previews = new Map(); // "node:uci,uci" -> position, as the server gave it

export function evalFraction(cp) {
  return 1 / (1 + Math.exp(-cp / (EVAL_SCALE / 1.1)));
}

// The engine's lines and evaluations are hidden in Play while the game goes on, unless shown.
export function engineHidden(state) {
  return state.mode === "play" && !state.result && !pref("showLinesInPlay");
}

function shownLines(state) {
  return engineHidden(state) ? [] : state.lines.filter((line) => line && line.score);
}

export function renderEngine() {
  const state = store.state;
  const hidden = engineHidden(state);
  $("show-lines-toggle").hidden = state.mode !== "play";
  $("show-lines").checked = pref("showLinesInPlay");
  const lines = shownLines(state);
  const elsewhere = lines.length && state.linesPly !== null && state.linesPly !== state.ply;
  $("thinking").textContent = state.thinking
    ? `· ${state.thinking}…`
    : elsewhere
      ? `· ${positionLabel(state, state.linesPly)}`
      : "";
  const body = $("lines").tBodies[0];
  body.replaceChildren();
  lines.forEach((line, index) => {
    const row = body.insertRow();
    const score = row.insertCell();
    score.className = `score ${line.score.cp >= 0 ? "plus" : "minus"}`;
    score.textContent = line.score.text;
    const depth = row.insertCell();
    depth.className = "depth muted";
    depth.textContent = `d${line.depth ?? "?"}`;
    const pv = row.insertCell();
    pv.className = "pv";
    if (!line.moves?.length) {
      pv.textContent = line.pv; // nothing to preview: the line as the engine gave it
    }
    (line.moves || []).forEach((move, at) => {
      if (move.number) {
        pv.append(`${move.number} `);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pv-move";
      button.textContent = displaySan(move.san);
      button.dataset.line = String(index);
      button.dataset.index = String(at);
      if (view.preview?.key === previewKey(state, line, at)) {
        button.classList.add("previewed");
      }
      pv.append(button, " ");
    });
  });
  const noLines = $("no-lines");
  noLines.hidden = lines.length > 0;
  noLines.textContent = hidden
    ? "Hidden while you play: tick “Show its lines” to see them."
    : state.thinking
      ? "Thinking…"
      : "No engine lines for this position.";
  $("evalbar-wrap").classList.toggle("hidden-eval", hidden);
  document.documentElement.classList.toggle("eval-off", hidden); // its column gone: the boards take the room
  renderEvalBar(hidden ? null : lines.length ? lines[0].score : state.evals[state.ply]);
  if (view.preview && !stillThere(state)) {
    endPreview();
  }
}

function renderEvalBar(score) {
  const fraction = score ? evalFraction(score.cp) : 0.5;
  $("evalfill").style.height = `${(view.flipped ? 1 - fraction : fraction) * 100}%`;
  $("evalbar").classList.toggle("flipped", view.flipped);
  $("evalbar").classList.toggle("unknown", !score);
  $("evaltext").textContent = score ? score.text : "";
}

// ---------------------------------------------------------------- previews
function previewKey(state, line, at) {
  return `${state.linesNode}:${line.moves.slice(0, at + 1).map((m) => m.uci).join(",")}`;
}

function lineAt(button) {
  const state = store.state;
  const line = shownLines(state)[Number(button.dataset.line)];
  const at = Number(button.dataset.index);
  return line && line.moves && line.moves[at] ? { state, line, at } : null;
}

// A preview lasts while its line is still on the panel, from the same position.
function stillThere(state) {
  return shownLines(state).some((line) =>
    line.moves?.some((_, at) => previewKey(state, line, at) === view.preview.key),
  );
}

function moveWords(line, at) {
  return line.moves
    .slice(0, at + 1)
    .map((m) => `${m.number ? `${m.number} ` : ""}${displaySan(m.san)}`)
    .join(" ");
}

async function startPreview(button) {
  const found = lineAt(button);
  if (!found) {
    return;
  }
  const { state, line, at } = found;
  const key = previewKey(state, line, at);
  if (view.preview?.key === key) {
    return;
  }
  const label = moveWords(line, at);
  view.preview = { key, position: previews.get(key) || null, label };
  if (!view.preview.position) {
    const ucis = line.moves.slice(0, at + 1).map((m) => m.uci).join(",");
    try {
      const position = await getJson(`/api/preview?node=${state.linesNode}&moves=${ucis}`);
      previews.set(key, position);
      if (previews.size > 200) {
        previews.delete(previews.keys().next().value);
      }
      if (view.preview?.key !== key) {
        return; // the pointer has moved on
      }
      view.preview.position = position;
    } catch {
      view.preview = null;
      return;
    }
  }
  redraw();
}

export function endPreview() {
  if (view.preview) {
    view.preview = null;
    redraw();
  }
}

function playLine(button) {
  const found = lineAt(button);
  if (!found) {
    return;
  }
  const { state, line, at } = found;
  view.preview = null;
  post("line", { node: state.linesNode, moves: line.moves.slice(0, at + 1).map((m) => m.uci) });
}

// render: redraws the page (after a preference or a preview changes).
export function wireEngine(render) {
  redraw = render;
  $("show-lines").addEventListener("change", (event) => {
    setPref("showLinesInPlay", event.target.checked);
    render();
  });
  const table = $("lines");
  table.addEventListener("pointerover", (event) => {
    const button = event.target.closest(".pv-move");
    if (button && event.pointerType !== "touch") {
      startPreview(button);
    }
  });
  table.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "touch") {
      endPreview();
    }
  });
  table.addEventListener("click", (event) => {
    const button = event.target.closest(".pv-move");
    if (!button) {
      return;
    }
    const found = lineAt(button);
    const key = found && previewKey(found.state, found.line, found.at);
    const touch = event.pointerType === "touch";
    if (store.state.mode !== "analyse" || (touch && view.preview?.key !== key)) {
      // Play and Watch: the lines are only looked at; a tap previews (a second tap ends it).
      if (view.preview?.key === key && touch) {
        endPreview();
      } else {
        startPreview(button);
      }
      return;
    }
    playLine(button);
  });
  // A tap anywhere else ends a preview made by a tap.
  document.addEventListener("pointerdown", (event) => {
    if (view.preview && !event.target.closest("#lines")) {
      endPreview();
    }
  });
}
