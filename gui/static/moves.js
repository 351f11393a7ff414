// The move list: the whole game tree, numbered by moves as players count them. The main line
// runs in rows (number, White's move, Black's move); the other moves played at a position
// follow the move they replace, in brackets, each variation inline with its own nested
// variations, as a PGN writes them. A click on any move shows its position (its line
// becomes the line on view). In a variation (Analyse) it can be promoted or deleted.
import { $, post, store } from "./api.js";
import { displaySan, moveNumber } from "./notation.js";

// The tree from the state: id -> {id, san, ply, parent, children}, and the root.
function buildTree(state) {
  const nodes = new Map();
  const root = { id: state.root, ply: 0, parent: null, children: [] };
  nodes.set(root.id, root);
  for (const entry of state.tree) {
    const parentNode = nodes.get(entry.parent);
    const node = { ...entry, parentNode, children: [] };
    nodes.set(node.id, node);
    parentNode.children.push(node);
  }
  return { nodes, root };
}

// The first move of the variation `node` is in, or null on the main line.
function branchStart(nodes, node) {
  while (node && node.parent !== null) {
    const parent = nodes.get(node.parent);
    if (parent.children[0] !== node) {
      return node;
    }
    node = parent;
  }
  return null;
}

function moveButton(state, node, onLine, withNumber) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move";
  const { number, white } = moveNumber(state, node.ply);
  button.textContent = withNumber ? `${number}${white ? "." : "…"} ${displaySan(node.san)}` : displaySan(node.san);
  button.dataset.node = String(node.id);
  button.dataset.ply = String(node.ply);
  button.dataset.san = node.san;
  if (node.id === state.node) {
    button.classList.add("current");
  }
  if (onLine.has(node.id)) {
    button.classList.add("online");
  }
  button.addEventListener("click", () => post("goto", { node: node.id }));
  return button;
}

// One variation from `first` on, inline, with the variations inside it in nested brackets
// (the other moves at a position follow the move they replace, as in a PGN).
function variationEl(state, first, onLine) {
  const span = document.createElement("span");
  span.className = "variation";
  span.append("(");
  let node = first;
  let numbered = true; // its first move, and a Black move after a nested variation, show their number
  while (node) {
    if (node !== first) {
      span.append(" ");
    }
    span.appendChild(moveButton(state, node, onLine, numbered || moveNumber(state, node.ply).white));
    numbered = false;
    const siblings = node.parentNode.children;
    if (node !== first && siblings.length > 1) {
      for (const other of siblings.slice(1)) {
        span.append(" ", variationEl(state, other, onLine));
      }
      numbered = true;
    }
    node = node.children[0];
  }
  span.append(")");
  return span;
}

export function renderMoves() {
  const state = store.state;
  // Built apart and put in only when it differs: a state arriving between a press on a move
  // and its release (analysis sends several a second) would otherwise replace the button
  // under the pointer, and the click would be lost.
  const shown = $("movelist");
  const list = document.createElement(shown.tagName);
  const { nodes, root } = buildTree(state);
  const onLine = new Set(state.nodes);
  let row = null;
  let node = root;
  while (node.children.length) {
    const main = node.children[0];
    const { number, white } = moveNumber(state, main.ply);
    if (white || row === null) {
      row = document.createElement("li");
      const label = document.createElement("span");
      label.className = "number";
      label.textContent = white ? `${number}.` : `${number}…`;
      row.appendChild(label);
      if (!white) {
        row.appendChild(document.createElement("span"));
      }
      list.appendChild(row);
    }
    const button = moveButton(state, main, onLine, false);
    button.classList.add("main");
    row.appendChild(button);
    if (node.children.length > 1) {
      const item = document.createElement("li");
      item.className = "variations";
      node.children.slice(1).forEach((other, i) => item.append(...(i ? [" "] : []), variationEl(state, other, onLine)));
      list.appendChild(item);
      row = null; // the main line goes on in a new row after the variations
    }
    node = main;
  }
  if (state.result) {
    const result = document.createElement("li");
    result.className = "result";
    result.textContent = `${state.result.result} (${state.result.reason})`;
    list.appendChild(result);
  }
  if (list.innerHTML !== shown.innerHTML) {
    shown.replaceChildren(...list.childNodes);
    scrollIntoList(shown, shown.querySelector(".current"));
  }
  renderVariationTools(state, nodes);
}

// In a variation: say so, and offer to promote or delete it (Analyse).
function renderVariationTools(state, nodes) {
  const start = branchStart(nodes, nodes.get(state.node));
  $("line-note").hidden = state.mainline;
  const tools = $("variation-tools");
  tools.hidden = !start || state.mode !== "analyse";
  tools.dataset.start = start ? String(start.id) : "";
}

// Scroll the list (not the page) so that the current move shows.
function scrollIntoList(list, item) {
  if (!item) {
    return;
  }
  const listBox = list.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  if (box.top < listBox.top) {
    list.scrollTop -= listBox.top - box.top;
  } else if (box.bottom > listBox.bottom) {
    list.scrollTop += box.bottom - listBox.bottom;
  }
}

// Quick steps add up: each starts from the ply last asked for, not the one last shown.
export function step(delta) {
  const state = store.state;
  if (!state) {
    return;
  }
  const from = store.pendingPly ?? state.ply;
  const ply = Math.max(0, Math.min(state.moves.length, from + delta));
  if (ply !== from) {
    store.pendingPly = ply;
    post("goto", { ply });
  }
}

export function wireMoves() {
  $("nav-first").addEventListener("click", () => step(-Infinity));
  $("nav-prev").addEventListener("click", () => step(-1));
  $("nav-next").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => step(Infinity));
  const start = () => Number($("variation-tools").dataset.start);
  $("promote").addEventListener("click", () => post("promote", { node: start() }));
  $("make-main").addEventListener("click", () => post("promote", { node: start(), main: true }));
  $("delete-variation").addEventListener("click", () => post("delete", { node: start() }));
}
