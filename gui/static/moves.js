// The move list of the line on view (numbered by moves, as players count them), the other
// moves played where the line branches (variations, or the game's own move), and stepping.
import { $, post, store } from "./api.js";
import { moveLabel, moveNumber } from "./notation.js";

export function renderMoves() {
  const state = store.state;
  const list = $("movelist");
  list.replaceChildren();
  let item = null;
  state.moves.forEach((san, i) => {
    const ply = i + 1;
    const { number, white } = moveNumber(state, ply);
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
    button.dataset.ply = String(ply);
    if (ply === state.ply) {
      button.classList.add("current");
    }
    button.addEventListener("click", () => post("goto", { ply }));
    item.appendChild(button);
    const others = state.alternatives[String(ply)];
    if (others) {
      list.appendChild(alternativesItem(state, ply, others));
      item = null; // the line goes on in a new row after the variations
    }
  });
  scrollIntoList(list, list.querySelector(".current"));
  if (state.result) {
    const result = document.createElement("li");
    result.className = "result";
    result.textContent = `${state.result.result} (${state.result.reason})`;
    list.appendChild(result);
  }
  const note = $("line-note");
  note.hidden = state.mainline;
  note.textContent = "You are in a variation: the game's own move is in brackets where this line leaves it.";
}

// Scroll the list (not the page) so that the current move shows.
function scrollIntoList(list, item) {
  if (!item) {
    return;
  }
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) {
    list.scrollTop = top;
  } else if (bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = bottom - list.clientHeight;
  }
}

function alternativesItem(state, ply, others) {
  const li = document.createElement("li");
  li.className = "variations";
  li.append("(");
  others.forEach((other, i) => {
    if (i) {
      li.append(", ");
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "variation";
    button.textContent = moveLabel(state, ply, other.san);
    button.dataset.node = String(other.id);
    button.addEventListener("click", () => post("goto", { node: other.id }));
    li.appendChild(button);
  });
  li.append(")");
  return li;
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
}
