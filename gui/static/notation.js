// Move numbers as players read them: ply 1 is "1. e4/B", ply 2 "1… d5/B".

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
  return `${number}${white ? "." : "…"} ${san}`;
}

// "after 12. Nf3/B" or "the start position".
export function positionLabel(state, ply) {
  return ply <= 0 ? "the start position" : `after ${moveLabel(state, ply)}`;
}
