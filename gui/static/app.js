// The Alice chess web board: draws the state the server sends and turns clicks into requests.
// Plain JavaScript modules, no build step. The server owns the game; this page only shows it
// (GET /api/state, long-polled) and asks for changes (POST /api/...), showing any error.
//
//   api.js       the server: state store, long poll, requests, messages
//   boards.js    the two boards: drawing, click/tap/drag moves, promotion chooser, flipping,
//                the Alice aids (landing squares, blockers), previews
//   shapes.js    arrows and circles drawn with the right button
//   clocks.js    the players' clocks, ticking between states
//   moves.js     the move list: the game tree with its variations, stepping, promote/delete
//   engine.js    the engine panel (lines to preview and play) and the evaluation bar
//   graph.js     the evaluation graph
//   controls.js  status, players, the mode cards, options, FEN/PGN
//   sounds.js    move and capture sounds (Web Audio)
//   notation.js  move numbers, labels, figurines;  prefs.js  the player's saved preferences
//   view.js      what the page shows besides the state: flipped, the piece picked up, a preview
import { onState, poll, store } from "./api.js";
import { buildBoards, closePromotion, promotionOpen, renderBoards, setFlipped, wireBoards } from "./boards.js";
import { startClockTicks } from "./clocks.js";
import { fillEngineSelects, renderControls, renderPlayers, renderStatus, syncControls, wireControls } from "./controls.js";
import { renderEngine, wireEngine } from "./engine.js";
import { renderGraph, wireGraph } from "./graph.js";
import { renderMoves, step, wireMoves } from "./moves.js";
import { pref } from "./prefs.js";
import { soundFor, unlockSounds } from "./sounds.js";
import { view } from "./view.js";

function render() {
  if (!store.state) {
    return;
  }
  document.body.classList.toggle("flipped", view.flipped);
  fillEngineSelects();
  renderEngine(); // first: it ends a preview whose line has gone
  renderBoards();
  renderStatus();
  renderPlayers();
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
  // Browsers play sound only after a click: the first one opens the audio, if sounds are on.
  document.addEventListener("pointerdown", () => pref("sounds") && unlockSounds(), { once: true });
}

onState((modeChanged) => {
  if (modeChanged) {
    syncControls();
    const state = store.state;
    if (state?.mode === "play") {
      setFlipped(state.players.white !== null); // you play Black: Black at the bottom (also after a reload)
    }
  }
  if (store.state) {
    soundFor(store.state);
  }
  render();
});
buildBoards();
wireBoards(render);
wireControls(render);
wireEngine(render);
wireMoves();
wireGraph();
wireKeys();
startClockTicks();
poll();
