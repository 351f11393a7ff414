// Arrows and circles on the boards, as on lichess: right-drag from one square to another
// draws an arrow, a right-click a circle; Shift (or Ctrl) makes it red, Alt blue, both
// yellow, none green. Drawing the same shape again removes it; a left click that does
// nothing else removes them all. They belong to the position on view and are kept by the
// server (and in the PGN as [%cal]/[%csl]). A square of board B is named with the files
// i-p, as in the 16-wide FEN: e4 on board B is "m4".
import { post, store } from "./api.js";
import { view } from "./view.js";

const NS = "http://www.w3.org/2000/svg";
const FILES_A = "abcdefgh";
const FILES_B = "ijklmnop";
const COLOURS = { G: "#15781b", R: "#882020", B: "#003088", Y: "#e68f00" };

let draft = null; // {board, from, colour}: a right button held down on a square

// The shape name of a square of a board: "e4" on A, "m4" on B.
export function shapeSquare(board, name) {
  return board === "A" ? name : FILES_B[FILES_A.indexOf(name[0])] + name[1];
}

function parseSquare(text) {
  const onB = FILES_B.includes(text[0]);
  const file = (onB ? FILES_B : FILES_A).indexOf(text[0]);
  return { board: onB ? "B" : "A", file, rank: Number(text[1]) - 1 };
}

// The centre of a square in the overlay's 8x8 coordinates, as the boards are turned.
function centre(square) {
  const col = view.flipped ? 7 - square.file : square.file;
  const row = view.flipped ? square.rank : 7 - square.rank;
  return [col + 0.5, row + 0.5];
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    el.setAttribute(key, value);
  }
  return el;
}

// The drawing layer of a board (added after its squares; it lets every pointer through).
export function addOverlay(board) {
  const svg = svgEl("svg", { class: "shapes", viewBox: "0 0 8 8", "aria-hidden": "true" });
  const defs = svgEl("defs", {});
  for (const [letter, colour] of Object.entries(COLOURS)) {
    const marker = svgEl("marker", {
      id: `head-${board.dataset.board}-${letter}`, orient: "auto", markerWidth: 4, markerHeight: 4, refX: 2.05, refY: 2,
    });
    marker.appendChild(svgEl("path", { d: "M0,0 V4 L3,2 Z", fill: colour }));
    defs.appendChild(marker);
  }
  svg.appendChild(defs);
  board.appendChild(svg);
}

function drawOne(svg, shape, boardName, draftShape = false) {
  const colour = COLOURS[shape[0]];
  const from = parseSquare(shape.slice(1, 3));
  const [x1, y1] = centre(from);
  const opacity = draftShape ? 0.5 : 0.8;
  if (shape.length === 3) {
    svg.appendChild(svgEl("circle", {
      cx: x1, cy: y1, r: 0.46, fill: "none", stroke: colour, "stroke-width": 0.07, opacity, "data-shape": shape,
    }));
    return;
  }
  const [x2, y2] = centre(parseSquare(shape.slice(3, 5)));
  const length = Math.hypot(x2 - x1, y2 - y1);
  const shorten = 0.3; // the head ends short of the centre, as lichess draws it
  const ex = x2 - ((x2 - x1) / length) * shorten;
  const ey = y2 - ((y2 - y1) / length) * shorten;
  svg.appendChild(svgEl("line", {
    x1, y1, x2: ex, y2: ey, stroke: colour, "stroke-width": 0.16, "stroke-linecap": "round", opacity,
    "marker-end": `url(#head-${boardName}-${shape[0]})`, "data-shape": shape,
  }));
}

// Draw `shapes` (of the position on view) and the one being drawn, each on its board.
export function drawShapes(shapes) {
  for (const board of ["A", "B"]) {
    const svg = document.querySelector(`#board-${board} svg.shapes`);
    if (!svg) {
      continue;
    }
    svg.querySelectorAll("[data-shape]").forEach((el) => el.remove());
    for (const shape of shapes || []) {
      if (parseSquare(shape.slice(1, 3)).board === board) {
        drawOne(svg, shape, board);
      }
    }
    if (draft?.to && draft.board === board) {
      drawOne(svg, draftShape(draft), board, true);
    }
  }
}

function colourOf(event) {
  const red = event.shiftKey || event.ctrlKey;
  const blue = event.altKey || event.metaKey;
  return red && blue ? "Y" : red ? "R" : blue ? "B" : "G";
}

function draftShape(d) {
  const from = shapeSquare(d.board, d.from);
  return d.to && d.to !== d.from ? `${d.colour}${from}${shapeSquare(d.board, d.to)}` : `${d.colour}${from}`;
}

function squareUnder(event, board) {
  const el = document.elementFromPoint(event.clientX, event.clientY)?.closest(".square");
  return el && el.dataset.board === board ? el.dataset.square : null;
}

function send(shapes) {
  const state = store.state;
  state.shapes = shapes; // drawn at once; the server's answer confirms
  drawShapes(shapes);
  post("shapes", { node: state.node, shapes });
}

export function clearShapes() {
  if (store.state?.shapes.length && !view.preview) {
    send([]);
  }
}

function onDown(event) {
  const square = event.target.closest(".square");
  if (event.button !== 2 || !square || !store.state || view.preview) {
    return;
  }
  event.preventDefault();
  draft = { board: square.dataset.board, from: square.dataset.square, to: null, colour: colourOf(event) };
}

function onMove(event) {
  if (!draft) {
    return;
  }
  const to = squareUnder(event, draft.board);
  if (to !== draft.to) {
    draft.to = to;
    drawShapes(store.state.shapes);
  }
}

function onUp(event) {
  if (!draft || event.button !== 2) {
    return;
  }
  const d = draft;
  draft = null;
  const to = squareUnder(event, d.board);
  if (!to) {
    drawShapes(store.state.shapes); // let go off its board: nothing drawn
    return;
  }
  d.to = to;
  const shape = draftShape(d);
  const shapes = store.state.shapes.filter((s) => s !== shape);
  if (shapes.length === store.state.shapes.length) {
    // A new shape replaces one of another colour on the same squares.
    send([...shapes.filter((s) => s.slice(1) !== shape.slice(1)), shape]);
  } else {
    send(shapes);
  }
}

export function wireShapes() {
  for (const board of document.querySelectorAll(".board")) {
    board.addEventListener("pointerdown", onDown);
    board.addEventListener("contextmenu", (event) => event.preventDefault());
  }
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
}
