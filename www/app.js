// AiVista's single-page app: the two studios, the list of recent threads
// and the server status line, routed by the URL hash (#/image/<threadId>,
// #/note/<threadId>) so a reload or a shared link opens the same thread.
import { h } from './dom.js';
import { t, setT, setAttrT, setLang, getLang, apply, onLang } from './i18n.js';
import { health } from './api.js';
import { getPref, setPref } from './store.js';
import { createThreadList } from './threads.js';
import { createImageStudio } from './image.js';
import { createNoteWriter } from './note.js';

const $ = (id) => document.getElementById(id);

const app = {
  // Opens a studio, with a thread or empty.
  go(view, id) {
    const hash = id ? `#/${view}/${encodeURIComponent(id)}` : `#/${view}`;
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  // A studio started a thread: the URL names it from now on.
  setThread(view, id) {
    const hash = `#/${view}/${encodeURIComponent(id)}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    setPref('last', hash);
    threads.setCurrent(id);
  },
};

const threads = createThreadList($('threads'), app);
const views = {
  image: createImageStudio($('image-view'), app),
  note: createNoteWriter($('note-view'), app),
};
let shown = null;

function parse(hash) {
  const m = /^#\/(image|note)(?:\/([^/?#]+))?\/?$/.exec(hash || '');
  if (!m) return null;
  let id = null;
  try {
    id = m[2] ? decodeURIComponent(m[2]) : null;
  } catch {
    id = null;
  }
  return { view: m[1], id };
}

function route() {
  let r = parse(location.hash);
  if (!r) {
    // No thread in the URL: come back to the last one this browser had.
    const last = getPref('last', '#/image');
    r = parse(last) || { view: 'image', id: null };
    history.replaceState(null, '', r.id ? `#/${r.view}/${encodeURIComponent(r.id)}` : `#/${r.view}`);
  }
  setPref('last', location.hash);
  for (const [name, v] of Object.entries(views)) {
    $(`${name}-view`).hidden = name !== r.view;
    $(`nav-${name}`).setAttribute('aria-current', name === r.view ? 'page' : 'false');
  }
  const changed = shown !== r.view;
  shown = r.view;
  views[r.view].show(r.id);
  threads.setCurrent(r.id);
  if (changed && document.activeElement?.closest?.('nav')) views[r.view].focus();
}

// The status line: what /api/health says.
function row(dl, key, value, params) {
  const dt = h('dt', {});
  setT(dt, key, params);
  dl.append(dt, h('dd', {}, value));
}

async function checkHealth() {
  const summary = $('health-summary');
  const dl = $('health-details');
  const box = $('health');
  setT(summary, 'health.checking');
  dl.replaceChildren();
  try {
    const res = await health();
    const j = await res.json();
    box.dataset.status = j.status === 'ok' ? 'ok' : 'degraded';
    setT(summary, j.status === 'ok' ? 'health.ok' : 'health.degraded');
    row(dl, 'health.version', `${j.name ?? 'aivista'} ${j.version ?? ''}`);
    row(dl, 'health.worker', String(j.pid ?? ''));
    const st = h('span', {});
    if (j.store?.reachable) setT(st, 'health.reachable', { d: j.store.durability ?? '' });
    else st.append(h('span', {}, `${t('health.unreachable')}: `), String(j.store?.error ?? ''));
    row(dl, 'health.store', st);
    for (const [role, kind] of Object.entries(j.providers || {})) row(dl, 'health.provider', String(kind), { role });
  } catch {
    box.dataset.status = 'down';
    setT(summary, 'health.down');
  }
}

function setupChrome() {
  const langBtn = $('lang');
  const showLang = () => {
    langBtn.textContent = t('lang.switch');
    langBtn.lang = getLang() === 'zh' ? 'en' : 'zh';
    setAttrT(langBtn, 'aria-label', 'lang.label');
  };
  langBtn.addEventListener('click', () => setLang(getLang() === 'zh' ? 'en' : 'zh'));
  onLang(showLang);
  setAttrT($('studios'), 'aria-label', 'nav.label');
  setAttrT($('image-view'), 'aria-label', 'nav.image');
  setAttrT($('note-view'), 'aria-label', 'nav.note');

  const toggle = $('threads-toggle');
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    document.body.classList.toggle('threads-open', open);
  });
  $('threads').addEventListener('click', (e) => {
    if (e.target.closest('a')) {
      toggle.setAttribute('aria-expanded', 'false');
      document.body.classList.remove('threads-open');
    }
  });
  $('health-refresh').addEventListener('click', checkHealth);
  setLang(getLang());
  showLang();
  apply(document);
}

setupChrome();
window.addEventListener('hashchange', route);
route();
checkHealth();
threads.refresh();
