// The Alice chess web board: draws the state the server sends and turns clicks into requests.
// Plain JavaScript modules, no build step. The server owns the game; this page only shows it
// (GET /api/state, long-polled) and asks for changes (POST /api/...), showing any error.
//
//   api.js       the server: state store, long poll, requests, messages
//   boards.js    the two boards: drawing, click/tap/drag moves, promotion chooser, flipping
//   moves.js     the move list of the line on view, its variations, stepping
//   engine.js    the engine panel and the evaluation bar
//   graph.js     the evaluation graph
//   controls.js  status, players, the mode cards, FEN/PGN
//   notation.js  move numbers and labels;  prefs.js  the player's saved preferences
import { onState, poll, store } from "./api.js";
import { buildBoards, closePromotion, promotionOpen, renderBoards, setFlipped, view, wireBoards } from "./boards.js";
import { fillEngineSelects, renderControls, renderPlayers, renderStatus, syncControls, wireControls } from "./controls.js";
import { renderEngine } from "./engine.js";
import { renderGraph, wireGraph } from "./graph.js";
import { renderMoves, step, wireMoves } from "./moves.js";

function render() {
  if (!store.state) {
    return;
  }
  document.body.classList.toggle("flipped", view.flipped);
  fillEngineSelects();
  renderBoards();
  renderStatus();
  renderPlayers();
  renderEngine(render);
  renderMoves();
  renderGraph();
  renderControls();
}

function wireKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && promotionOpen()) {
      closePromotion();
    }
    if (event.target.closest("input, textarea, select")) {
      return;
    }
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (event.key in keys && store.state) {
      event.preventDefault();
      step(keys[event.key]);
    } else if (event.key === "f") {
      setFlipped(!view.flipped);
    }
  });
  document.getElementById("flip").addEventListener("click", () => setFlipped(!view.flipped));
}

onState((modeChanged) => {
  if (modeChanged) {
    syncControls();
  }
  render();
});
buildBoards();
wireBoards(render);
wireControls();
wireMoves();
wireGraph();
wireKeys();
poll();
