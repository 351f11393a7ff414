// Talking to the server. The server owns the game: the page long-polls GET /api/state and
// asks for changes with POST /api/...; `store.state` is the last state received, and every
// listener registered with onState() runs after a new one arrives.
const RETRY_MS = 1000; // wait before polling again after a failed request

export const store = {
  state: null, // the last state from the server
  pendingPly: null, // the ply asked for by stepping, until the server shows it
};

const listeners = [];

export function onState(listener) {
  listeners.push(listener);
}

function publish(modeChanged) {
  for (const listener of listeners) {
    listener(modeChanged);
  }
}

export const $ = (id) => document.getElementById(id);

export function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = false;
}

export function clearMessage() {
  $("message").hidden = true;
}

export function accept(newState) {
  const old = store.state;
  if (old && newState.version < old.version) {
    return;
  }
  store.state = newState;
  if (store.pendingPly === newState.ply || store.pendingPly > newState.moves.length) {
    store.pendingPly = null;
  }
  publish(!old || old.mode !== newState.mode);
}

// POST /api/<path>; the answer (null after an error, which is shown on the page).
export async function post(path, body = {}) {
  clearMessage();
  if (path !== "goto") {
    store.pendingPly = null;
  }
  try {
    const response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: `server answered ${response.status}` }));
    if (!response.ok) {
      showMessage(data.error || `server answered ${response.status}`);
      store.pendingPly = null;
      publish(false); // undo anything drawn in advance
      return null;
    }
    if (data.state) {
      accept(data.state);
    }
    return data;
  } catch (error) {
    showMessage(`cannot reach the server: ${error.message}`);
    store.pendingPly = null;
    publish(false);
    return null;
  }
}

export async function getJson(path) {
  const response = await fetch(path);
  const data = await response.json();
  if (!response.ok) {
    throw new Error(data.error || `server answered ${response.status}`);
  }
  return data;
}

export async function poll() {
  for (;;) {
    const after = store.state ? `?after=${store.state.version}` : "";
    try {
      accept(await getJson(`/api/state${after}`));
      $("connection").textContent = "";
    } catch (error) {
      $("connection").textContent = "connection lost, retrying…";
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
