// Move numbers and moves as players read them: ply 1 is "1. e4/B", ply 2 "1… d5/B"; with
// figurine notation (a preference) the piece letters are figurines: "♞f3/B", "a8=♛/B".
import { pref } from "./prefs.js";

const FIGURINES = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞" };

// A SAN as shown: letters, or figurines when the player chose them.
export function displaySan(san) {
  if (!pref("figurines") || !san) {
    return san;
  }
  return san.replace(/^[KQRBN]/, (letter) => FIGURINES[letter]).replace(/=([QRBN])/, (_, letter) => `=${FIGURINES[letter]}`);
}

// The move number and side of the move that makes ply `ply` (1 = the game's first move).
export function moveNumber(state, ply) {
  const offset = state.firstMove.turn === "black" ? 1 : 0;
  const index = ply - 1 + offset;
  return { number: state.firstMove.number + Math.floor(index / 2), white: index % 2 === 0 };
}

// "12. Nf3/B" or "12… Nf6/B" for the move of ply `ply` of the line on view (or another move
// `san` played at that ply); "the start" for 0.
export function moveLabel(state, ply, san = state.moves[ply - 1]) {
  if (ply <= 0) {
    return "the start";
  }
  const { number, white } = moveNumber(state, ply);
  return `${number}${white ? "." : "…"} ${displaySan(san)}`;
}

// "after 12. Nf3/B" or "the start position".
export function positionLabel(state, ply) {
  return ply <= 0 ? "the start position" : `after ${moveLabel(state, ply)}`;
}
