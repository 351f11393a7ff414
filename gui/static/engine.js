// The engine panel (its lines, who is thinking) and the evaluation bar. Both always describe
// the same thing: the lines shown, else the evaluation of the position on view, else nothing.
// While you play, both are hidden unless you ask for them ("Show its lines").
import { $, store } from "./api.js";
import { positionLabel } from "./notation.js";
import { pref, setPref } from "./prefs.js";
import { view } from "./boards.js";

const EVAL_SCALE = 400; // centipawns at which the bar is about three quarters full

export function evalFraction(cp) {
  return 1 / (1 + Math.exp(-cp / (EVAL_SCALE / 1.1)));
}

// The engine's lines and evaluations are hidden in Play while the game goes on, unless shown.
export function engineHidden(state) {
  return state.mode === "play" && !state.result && !pref("showLinesInPlay");
}

export function renderEngine(render) {
  const state = store.state;
  const hidden = engineHidden(state);
  $("show-lines-toggle").hidden = state.mode !== "play";
  $("show-lines").checked = pref("showLinesInPlay");
  const lines = hidden ? [] : state.lines.filter((line) => line && line.score);
  const elsewhere = lines.length && state.linesPly !== null && state.linesPly !== state.ply;
  $("thinking").textContent = state.thinking
    ? `· ${state.thinking}…`
    : elsewhere
      ? `· ${positionLabel(state, state.linesPly)}`
      : "";
  const body = $("lines").tBodies[0];
  body.replaceChildren();
  for (const line of lines) {
    const row = body.insertRow();
    const score = row.insertCell();
    score.className = `score ${line.score.cp >= 0 ? "plus" : "minus"}`;
    score.textContent = line.score.text;
    const depth = row.insertCell();
    depth.className = "depth muted";
    depth.textContent = `d${line.depth ?? "?"}`;
    const pv = row.insertCell();
    pv.className = "pv";
    pv.textContent = line.pv;
  }
  const noLines = $("no-lines");
  noLines.hidden = lines.length > 0;
  noLines.textContent = hidden
    ? "Hidden while you play: tick “Show its lines” to see them."
    : state.thinking
      ? "Thinking…"
      : "No engine lines for this position.";
  renderEvalBar(hidden ? null : lines.length ? lines[0].score : state.evals[state.ply]);
  if (!renderEngine.wired) {
    renderEngine.wired = true;
    $("show-lines").addEventListener("change", (event) => {
      setPref("showLinesInPlay", event.target.checked);
      render();
    });
  }
}

function renderEvalBar(score) {
  const fraction = score ? evalFraction(score.cp) : 0.5;
  $("evalfill").style.height = `${(view.flipped ? 1 - fraction : fraction) * 100}%`;
  $("evalbar").classList.toggle("flipped", view.flipped);
  $("evalbar").classList.toggle("unknown", !score);
  $("evaltext").textContent = score ? score.text : "";
}
