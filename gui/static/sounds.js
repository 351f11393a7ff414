// Move and capture sounds (off by default: a preference), made with the Web Audio API, so
// the page ships no sound files: a short wooden knock for a move, a sharper double knock
// for a capture. A sound plays when the position on view moves one move forward (a move
// played by anyone, or a step through the game).
import { pref } from "./prefs.js";

let context = null;
let last = null; // {node, ply} of the position last seen

// The audio context, made on a click (browsers allow sound only after one).
export function unlockSounds() {
  if (!context && window.AudioContext) {
    context = new AudioContext();
  }
  if (context?.state === "suspended") {
    context.resume();
  }
}

function knock(start, pitch, loudness, length) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(pitch, start);
  osc.frequency.exponentialRampToValueAtTime(pitch * 0.6, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(loudness, start + 0.004);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(context.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function noise(start, loudness, length) {
  const samples = Math.floor(context.sampleRate * length);
  const buffer = context.createBuffer(1, samples, context.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) {
    data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 3;
  }
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  const gain = context.createGain();
  gain.gain.value = loudness;
  source.connect(filter).connect(gain).connect(context.destination);
  source.start(start);
}

export function playSound(kind) {
  document.body.dataset.sound = kind; // what was played last (the browser tests read it)
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  if (!context) {
    return;
  }
  const now = context.currentTime;
  if (kind === "capture") {
    noise(now, 0.5, 0.09);
    knock(now, 300, 0.5, 0.12);
    knock(now + 0.05, 220, 0.35, 0.1);
  } else {
    knock(now, 520, 0.35, 0.08);
  }
}

// After each new state: a sound if the position on view is the next one after the last.
export function soundFor(state) {
  const seen = last;
  last = { node: state.node, ply: state.ply };
  if (!pref("sounds") || !seen || seen.node === state.node || state.ply !== seen.ply + 1 || !state.lastMove) {
    return;
  }
  const parent = state.tree.find((n) => n.id === state.node)?.parent;
  if (parent === seen.node) {
    playSound(state.lastMove.capture ? "capture" : "move");
  }
}
