// The two boards: drawing the position, and turning clicks, taps and drags into moves.
// Click or tap a piece, then a lit square (on either board: one piece per coordinate);
// or press on a piece and drop it on a lit square. While a piece is lifted, the Alice aids
// (a preference) show where it would land on the other board and which pieces there block
// its missing moves. A preview (an engine line's move under the pointer) is drawn instead of
// the game's position until it ends.
import { $, post, store } from "./api.js";
import { pref } from "./prefs.js";
import { addOverlay, clearShapes, drawShapes, wireShapes } from "./shapes.js";
import { view } from "./view.js";

const FILES = "abcdefgh";
const PIECE_NAMES = { p: "P", n: "N", b: "B", r: "R", q: "Q", k: "K" };
const PROMOTIONS = ["q", "r", "b", "n"];
const DRAG_THRESHOLD = { mouse: 4, pen: 6, touch: 10 }; // pixels a press travels before it is a drag

let drag = null; // {square, startX, startY, active, ghost, size, threshold, again}
let promotionPending = null; // {from, to}
let onFlip = () => {};

function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

function coordinate(kind, text) {
  const span = document.createElement("span");
  span.className = `coord ${kind}`;
  span.textContent = text;
  return span;
}

export function buildBoards() {
  for (const name of ["A", "B"]) {
    const board = $(`board-${name}`);
    board.replaceChildren();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = view.flipped ? 7 - col : col;
        const rank = view.flipped ? row : 7 - row;
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
    addOverlay(board);
  }
}

export function setFlipped(value) {
  if (view.flipped !== value) {
    view.flipped = value;
    buildBoards();
    onFlip();
  }
}

export function pieceImage(symbol) {
  const img = document.createElement("img");
  const color = symbol === symbol.toUpperCase() ? "w" : "b";
  img.src = `/pieces/${color}${PIECE_NAMES[symbol.toLowerCase()]}.svg`;
  img.alt = symbol;
  img.className = "piece";
  img.draggable = false;
  return img;
}

export function squareEl(board, name) {
  return document.querySelector(`#board-${board} .square[data-square="${name}"]`);
}

function pieceAt(name) {
  return store.state ? store.state.pieces.find((p) => p.square === name) : undefined;
}

function movesFrom(name) {
  return store.state && !view.preview && !store.starting ? store.state.legal.filter((uci) => uci.slice(0, 2) === name) : [];
}

const otherBoard = (name) => (name === "A" ? "B" : "A");

const MARKS = ["last-from", "last-to", "check", "selected", "dest", "capture", "movable", "landing", "blocker"];

export function renderBoards() {
  const state = store.state;
  const shown = view.preview ? view.preview.position : state;
  $("boards").classList.toggle("previewing", Boolean(view.preview));
  document.querySelectorAll(".square").forEach((sq) => {
    sq.classList.remove(...MARKS);
    sq.querySelectorAll(".piece, .landing-piece").forEach((img) => img.remove());
  });
  for (const p of shown.pieces) {
    const sq = squareEl(p.board, p.square);
    sq.appendChild(pieceImage(p.piece));
    if (movesFrom(p.square).length) {
      sq.classList.add("movable");
    }
  }
  if (shown.lastMove) {
    squareEl(shown.lastMove.fromBoard, shown.lastMove.from).classList.add("last-from");
    squareEl(shown.lastMove.toBoard, shown.lastMove.to).classList.add("last-to");
  }
  if (shown.check) {
    squareEl(shown.check.board, shown.check.square).classList.add("check");
  }
  if (view.selected) {
    const piece = pieceAt(view.selected);
    if (!piece || !movesFrom(view.selected).length) {
      view.selected = null;
    } else {
      markLifted(piece);
    }
  }
  drawShapes(view.preview ? [] : state.shapes);
}

// The lifted piece: its moves on its board; with the Alice aids, where each would land on the
// other board (a faint copy of the piece) and the pieces there that block its missing moves.
function markLifted(piece) {
  const state = store.state;
  const aids = pref("aliceAids");
  const other = otherBoard(piece.board);
  squareEl(piece.board, view.selected).classList.add("selected");
  for (const uci of movesFrom(view.selected)) {
    const to = uci.slice(2, 4);
    const target = squareEl(piece.board, to);
    target.classList.add("dest");
    if (pieceAt(to)) {
      target.classList.add("capture");
    }
    const landing = squareEl(other, to);
    if (aids && !landing.classList.contains("landing")) {
      landing.classList.add("landing");
      const ghost = pieceImage(piece.piece);
      ghost.className = "landing-piece"; // not a .piece: only a sign of where it would land
      landing.appendChild(ghost);
    }
  }
  if (aids) {
    for (const name of state.blocked[view.selected] || []) {
      squareEl(other, name).classList.add("blocker");
    }
  }
}

function onPointerDown(event) {
  const sq = event.target.closest(".square");
  if (!sq || !store.state || event.button !== 0 || view.preview) {
    return;
  }
  event.preventDefault();
  const name = sq.dataset.square;
  const selected = view.selected;
  if (selected && movesFrom(selected).some((uci) => uci.slice(2, 4) === name)) {
    tryMove(selected, name);
    return;
  }
  if (movesFrom(name).length) {
    view.selected = name;
    renderBoards();
    const threshold = DRAG_THRESHOLD[event.pointerType] ?? DRAG_THRESHOLD.mouse;
    // A click on the lifted piece puts it down again (a drag from it still moves it).
    const again = selected === name;
    drag = { square: name, startX: event.clientX, startY: event.clientY, active: false, ghost: null, threshold, again };
  } else if (selected) {
    view.selected = null;
    renderBoards();
  } else {
    clearShapes(); // a click that does nothing else wipes the arrows and circles, as on lichess
  }
}

function onPointerMove(event) {
  if (!drag) {
    return;
  }
  if (!drag.active) {
    if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < drag.threshold) {
      return;
    }
    const piece = pieceAt(drag.square);
    if (!piece) {
      drag = null;
      return;
    }
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
    if (finished.again) {
      view.selected = null;
      renderBoards();
    }
    return; // a click or tap: the piece stays selected
  }
  finished.ghost.remove();
  const target = document.elementFromPoint(event.clientX, event.clientY)?.closest(".square");
  const to = target?.dataset.square;
  if (to && to !== finished.square && movesFrom(finished.square).some((uci) => uci.slice(2, 4) === to)) {
    tryMove(finished.square, to);
  } else {
    view.selected = null; // dropped where it cannot go: it goes back, put down
    renderBoards();
  }
}

function onPointerCancel() {
  if (drag?.ghost) {
    drag.ghost.remove();
  }
  drag = null;
  renderBoards();
}

function tryMove(from, to) {
  const candidates = movesFrom(from).filter((uci) => uci.slice(2, 4) === to);
  view.selected = null;
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
    const landing = otherBoard(piece.board);
    squareEl(piece.board, from).querySelector(".piece")?.remove();
    squareEl(piece.board, to).querySelector(".piece")?.remove();
    const white = piece.piece === piece.piece.toUpperCase();
    const symbol = uci.length === 5 ? (white ? uci[4].toUpperCase() : uci[4]) : piece.piece;
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

export function closePromotion() {
  promotionPending = null;
  $("promotion").hidden = true;
  renderBoards();
}

export function promotionOpen() {
  return promotionPending !== null;
}

// flipped: called after the boards were flipped (the page redraws everything).
export function wireBoards(flipped) {
  onFlip = flipped;
  for (const board of document.querySelectorAll(".board")) {
    board.addEventListener("pointerdown", onPointerDown);
  }
  wireShapes();
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  $("promotion").addEventListener("click", (event) => {
    if (event.target === $("promotion")) {
      closePromotion();
    }
  });
}
