// The evaluation graph of the line on view: the white area (from the bottom up to the curve) is White's
// share. Plies with no evaluation are drawn neutral (grey), never as an advantage for either side.
import { $, post, store } from "./api.js";
import { engineHidden, evalFraction } from "./engine.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 400;
const HEIGHT = 110;

// Runs of consecutive evaluated plies: [[first, last], ...].
function knownRuns(evals) {
  const runs = [];
  evals.forEach((e, ply) => {
    if (!e) {
      return;
    }
    const last = runs[runs.length - 1];
    if (last && last[1] === ply - 1) {
      last[1] = ply;
    } else {
      runs.push([ply, ply]);
    }
  });
  return runs;
}

export function renderGraph() {
  const state = store.state;
  const svg = $("graph");
  svg.replaceChildren();
  const evals = engineHidden(state) ? [] : state.evals;
  const known = evals.filter((e) => e);
  $("graph-wrap").hidden = known.length < 2;
  $("graph-note").textContent = state.reviewing
    ? "· evaluating…"
    : known.length < evals.length
      ? "· grey: not evaluated"
      : "";
  const step = evals.length > 1 ? WIDTH / (evals.length - 1) : WIDTH;
  const x = (ply) => ply * step;
  const y = (cp) => HEIGHT * (1 - evalFraction(cp));
  const clamp = (v) => Math.max(0, Math.min(WIDTH, v));
  const add = (tag, attrs) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) {
      el.setAttribute(k, v);
    }
    svg.appendChild(el);
    return el;
  };
  add("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "graph-unknown" });
  for (const [first, last] of knownRuns(evals)) {
    // Each ply owns the band half a step either side of it.
    const left = clamp(x(first) - step / 2);
    const right = clamp(x(last) + step / 2);
    add("rect", {
      x: left, y: 0, width: right - left, height: HEIGHT, class: "graph-dark",
      "data-from": first, "data-to": last,
    });
    const points = [];
    for (let ply = first; ply <= last; ply++) {
      points.push([x(ply), y(evals[ply].cp)]);
    }
    const area = [[left, HEIGHT], [left, points[0][1]], ...points, [right, points[points.length - 1][1]], [right, HEIGHT]];
    add("polygon", { points: area.map((p) => p.join(",")).join(" "), class: "graph-white" });
    if (points.length > 1) {
      add("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "graph-line" });
    }
  }
  add("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "graph-mid" });
  add("line", { x1: x(state.ply), x2: x(state.ply), y1: 0, y2: HEIGHT, class: "graph-cursor" });
}

export function wireGraph() {
  $("graph").addEventListener("click", (event) => {
    const state = store.state;
    if (!state || state.moves.length === 0) {
      return;
    }
    const box = $("graph").getBoundingClientRect();
    const ply = Math.round(((event.clientX - box.left) / box.width) * state.moves.length);
    post("goto", { ply: Math.max(0, Math.min(state.moves.length, ply)) });
  });
}
