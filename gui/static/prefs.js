// The player's preferences, kept in the browser (localStorage) across visits. Add a new
// toggle here with its default; read it with pref(name), change it with setPref(name, value).
const DEFAULTS = {
  showLinesInPlay: false, // the engine's lines and evaluation while you play against it
};

const KEY = "alice-board-prefs";

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

const prefs = load();

export function pref(name) {
  return prefs[name];
}

export function setPref(name, value) {
  prefs[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // private browsing: the choice lasts for this visit
  }
}
