// Talking to the server. The server owns the game: the page long-polls GET /api/state and
// asks for changes with POST /api/...; `store.state` is the last state received, and every
// listener registered with onState() runs after a new one arrives.
const RETRY_MS = 1000; // wait before polling again after a failed request
const POST_TIMEOUT_MS = 60000; // a request unanswered this long fails (the ones queued behind it go on)

export const store = {
  state: null, // the last state from the server
  receivedAt: 0, // performance.now() when it came (the clocks tick from there)
  pendingPly: null, // the ply asked for by stepping, until the server shows it
  starting: false, // a new game was asked for and has not come: the old position takes no move
  posting: 0, // requests asked for and not answered yet
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
  $("notice").hidden = true;
}

// A word from the engine or the page that is not an error (a draw declined).
export function showNotice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
}

export function accept(newState) {
  const old = store.state;
  if (old && newState.version < old.version) {
    return;
  }
  store.state = newState;
  store.receivedAt = performance.now();
  if (store.pendingPly === newState.ply || store.pendingPly > newState.moves.length) {
    store.pendingPly = null;
  }
  publish(!old || old.mode !== newState.mode);
}

let posted = Promise.resolve(); // the last request sent: the next one waits for it

// POST /api/<path>; the answer (null after an error, which is shown on the page). Requests go
// one after the other, in the order asked (a side chosen, then "New game"), and the controls
// keep what the player chose until the server has answered them all (store.posting).
export function post(path, body = {}) {
  store.posting += 1;
  const sent = posted.then(() => send(path, body));
  posted = sent.catch(() => null);
  return sent;
}

async function send(path, body) {
  clearMessage();
  if (path !== "goto") {
    store.pendingPly = null;
  }
  let response;
  let data;
  try {
    response = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
    data = await response.json().catch(() => ({ error: `server answered ${response.status}` }));
  } catch (error) {
    data = { error: `cannot reach the server: ${error.message}` };
  } finally {
    store.posting -= 1; // before the answer is drawn, so the last one shows the server's choices
  }
  if (!response?.ok) {
    showMessage(data.error || `server answered ${response.status}`);
    store.pendingPly = null;
    publish(false); // undo anything drawn in advance
    return null;
  }
  if (data.state) {
    accept(data.state);
  }
  return data;
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
