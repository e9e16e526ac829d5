// What this browser remembers: the recent threads (id, workflow, title,
// status) and, per image thread, the requests sent in each turn, which the
// server's event log does not repeat. Kept in localStorage; a browser that
// refuses storage still works, it only forgets on reload.
const THREADS = 'aivista.threads';
const MAX_THREADS = 30;
const listeners = new Set();

function read(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch { /* full or refused: keep going without */ }
}

export function onThreadsChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  for (const fn of listeners) fn();
}

// Pinned first, then newest first.
export function listThreads() {
  const list = read(THREADS, []);
  return Array.isArray(list) ? list.filter((x) => x && typeof x.id === 'string')
    .sort((a, b) => (!!b.pinned - !!a.pinned) || (b.updatedAt || 0) - (a.updatedAt || 0)) : [];
}

export function getThreadInfo(id) {
  return listThreads().find((x) => x.id === id) || null;
}

// Adds or updates a thread; fields left out keep their value.
export function saveThread(id, fields) {
  if (!id) return;
  const list = listThreads();
  const i = list.findIndex((x) => x.id === id);
  const old = i >= 0 ? list[i] : { id, createdAt: Date.now() };
  const next = { ...old, ...fields, id, updatedAt: fields.updatedAt || Date.now() };
  if (i >= 0) list.splice(i, 1);
  list.unshift(next);
  // Over the limit, the oldest that are not pinned go.
  while (list.length > MAX_THREADS) {
    const k = list.findLastIndex((x) => !x.pinned);
    if (k < 0) break;
    const [gone] = list.splice(k, 1);
    try { localStorage.removeItem(`aivista.turns.${gone.id}`); } catch { /* ignore */ }
  }
  write(THREADS, list);
  changed();
}

// The person's own name for a thread (empty: the title again) and its pin,
// kept in this browser; the list's order by time is not changed.
export function setThreadMark(id, { name, pinned } = {}) {
  const list = listThreads();
  const x = list.find((y) => y.id === id);
  if (!x) return;
  if (name !== undefined) {
    const n = String(name).trim().slice(0, 120);
    if (n) x.name = n;
    else delete x.name;
  }
  if (pinned !== undefined) x.pinned = !!pinned;
  write(THREADS, list);
  changed();
}

// Updates the status only if the thread is known (no reordering).
export function setThreadStatus(id, status) {
  const list = listThreads();
  const x = list.find((y) => y.id === id);
  if (!x || x.status === status) return;
  x.status = status;
  write(THREADS, list);
  changed();
}

// Removes a thread from the list; returns what restoreThread() needs to
// put it back (undo).
export function forgetThread(id) {
  const gone = { info: getThreadInfo(id), turns: turnsOf(id) };
  write(THREADS, listThreads().filter((x) => x.id !== id));
  try { localStorage.removeItem(`aivista.turns.${id}`); } catch { /* ignore */ }
  changed();
  return gone;
}

export function restoreThread(gone) {
  if (!gone?.info) return;
  const list = listThreads().filter((x) => x.id !== gone.info.id);
  list.push(gone.info);
  write(THREADS, list);
  if (gone.turns?.length) write(`aivista.turns.${gone.info.id}`, gone.turns);
  changed();
}

// The requests of an image thread, one per turn: {text, mask: bool}.
export function turnsOf(id) {
  const v = read(`aivista.turns.${id}`, []);
  return Array.isArray(v) ? v : [];
}

export function saveTurn(id, index, turn) {
  const turns = turnsOf(id);
  turns[index] = turn;
  write(`aivista.turns.${id}`, turns);
}

export function getPref(name, fallback) {
  return read(`aivista.${name}`, fallback);
}

export function setPref(name, value) {
  write(`aivista.${name}`, value);
}

// The pictures made in this browser, newest first, at most MAX_PICTURES:
// {url, prompt, threadId, at}. A picture seen again (a thread replayed)
// keeps its place.
const PICTURES = 'aivista.pictures';
const MAX_PICTURES = 60;

export function listPictures() {
  const v = read(PICTURES, []);
  return Array.isArray(v) ? v.filter((p) => p && typeof p.url === 'string') : [];
}

export function keepPicture({ url, prompt, threadId }) {
  if (!url) return;
  const list = listPictures();
  if (list.some((p) => p.url === url)) return;
  list.unshift({ url, prompt: String(prompt ?? '').slice(0, 300), threadId: threadId || null, at: Date.now() });
  write(PICTURES, list.slice(0, MAX_PICTURES));
}

export function forgetPicture(url) {
  write(PICTURES, listPictures().filter((p) => p.url !== url));
}
