// The clocks beside the players' names. The server keeps the time; the page shows what it
// was told and ticks the running clock down between two states (every tenth of a second).
// A flag is the server's call: when it falls the next state says how the game ended.
import { store } from "./api.js";

const TICK_MS = 100;
const LOW_SECONDS = 10; // below this the clock is red and shows tenths

// 1:02:03, 4:59, 0:07.3
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < LOW_SECONDS) {
    const tenths = Math.floor(s * 10) / 10;
    return `0:0${tenths.toFixed(1)}`;
  }
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// Seconds left for `color` now, as the last state said.
export function timeLeft(state, color) {
  const clock = state.clock;
  const told = clock[color];
  if (clock.running !== color) {
    return told;
  }
  return told - (performance.now() - store.receivedAt) / 1000;
}

function show(el, state, color) {
  if (!state.clock || state.clock[color] === null || state.clock[color] === undefined) {
    el.hidden = true;
    return;
  }
  const left = timeLeft(state, color);
  el.hidden = false;
  el.textContent = clockText(left);
  el.classList.toggle("running", state.clock.running === color);
  el.classList.toggle("low", left < LOW_SECONDS);
  el.dataset.seconds = left.toFixed(2);
}

// The clock elements of both players (made by renderPlayers), drawn from the state.
export function renderClocks() {
  const state = store.state;
  if (!state) {
    return;
  }
  for (const el of document.querySelectorAll(".clock[data-color]")) {
    show(el, state, el.dataset.color);
  }
}

export function startClockTicks() {
  setInterval(() => {
    if (store.state?.clock?.running) {
      renderClocks();
    }
  }, TICK_MS);
}
