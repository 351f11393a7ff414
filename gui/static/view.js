// What the page shows besides the server's state, shared by the modules that draw and read
// it: which side is at the bottom, the piece picked up, and an engine line's preview.
export const view = {
  flipped: false, // Black at the bottom
  selected: null, // square name of the piece picked up
  preview: null, // {key, position: {pieces, lastMove, check}, label}: shown instead of the game's position
};
