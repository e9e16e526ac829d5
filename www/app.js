// AiVista's single-page app: the views (one per workflow), the list of
// recent threads and the server status, routed by the URL hash
// (#/image/<threadId>, #/note/<threadId>, #/graph/<threadId>, #/chat/<threadId>,
// #/orch/<threadId>) so a reload or a shared link
// opens the same thread. A workflow's view is one row of VIEWS: its
// navigation entry, its section and its route come from there.
import { h } from './dom.js';
import { t, setT, setAttrT, setLang, getLang, apply, onLang } from './i18n.js';
import { health, onNet } from './api.js';
import { getPref, setPref } from './store.js';
import { createThreadList } from './threads.js';
import { createImageStudio } from './image.js';
import { createNoteWriter } from './note.js';
import { createGraphEditor } from './graph.js';
import { createChat } from './chat.js';
import { createOrchestrator } from './orch.js';

const $ = (id) => document.getElementById(id);

const app = {
  // Opens a studio, with a thread or empty.
  go(view, id) {
    const hash = id ? `#/${view}/${encodeURIComponent(id)}` : `#/${view}`;
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  // The view that shows a workflow's threads.
  viewOf(workflow) {
    return (VIEWS.find((v) => v.workflow === workflow) || VIEWS[0]).id;
  },
  // A studio started a thread: the URL names it from now on, and the
  // view's link in the navigation comes back to it.
  setThread(view, id) {
    const hash = `#/${view}/${encodeURIComponent(id)}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    setPref('last', hash);
    remember(view, id);
    threads.setCurrent(id);
  },
  // A studio let its thread go ("New", a thread gone): its link opens it
  // empty from now on.
  forgetThread(view) {
    remember(view, null);
  },
};

// Each view's open thread, kept in this browser: its navigation link goes
// back to it, so switching views and coming back (or a reload) finds the
// conversation where it was.
function remember(view, id) {
  const link = document.getElementById(`nav-${view}`);
  const open = openThreads();
  if (id) open[view] = id;
  else delete open[view];
  setPref('open', open);
  if (link) link.setAttribute('href', id ? `#/${view}/${encodeURIComponent(id)}` : `#/${view}`);
}

// The views, in the navigation's order: {id, workflow, create(root, app)}.
const VIEWS = [
  { id: 'image', workflow: 'image', icon: '▣', create: createImageStudio },
  { id: 'note', workflow: 'note', icon: '✎', create: createNoteWriter },
  { id: 'graph', workflow: 'graph_edit', icon: '⬡', create: createGraphEditor },
  { id: 'chat', workflow: 'chat', icon: '💬', create: createChat },
  { id: 'orch', workflow: 'orchestrate', icon: '◫', create: createOrchestrator },
];

const threads = createThreadList($('threads'), app);
const views = {};
for (const v of VIEWS) {
  const section = h('section', { id: `${v.id}-view`, class: 'view', hidden: true });
  setAttrT(section, 'aria-label', `nav.${v.id}`);
  $('workspace').append(section);
  const link = h('a', { href: `#/${v.id}`, id: `nav-${v.id}` },
    h('span', { class: 'nav-icon', 'aria-hidden': 'true' }, v.icon),
    setT(h('span', { class: 'nav-text' }), `nav.${v.id}`));
  $('studios').append(link);
  views[v.id] = v.create(section, app);
}
function openThreads() {
  const open = getPref('open', {});
  return open && typeof open === 'object' && !Array.isArray(open) ? open : {};
}
for (const [view, id] of Object.entries(openThreads())) {
  if (views[view] && typeof id === 'string') remember(view, id);
}
let shown = null;

function parse(hash) {
  const m = /^#\/([a-z_]+)(?:\/([^/?#]+))?\/?$/.exec(hash || '');
  if (!m || !views[m[1]]) return null;
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

// The server's status: a small dot in the header; the line at the bottom
// only shows when something is wrong (or when asked for, with the details).
function showHealth(status) {
  const box = $('health');
  box.dataset.status = status;
  const dot = $('health-dot');
  dot.dataset.status = status;
  setAttrT(dot, 'aria-label', `health.${status === 'ok' ? 'ok' : status}`);
  setAttrT(dot, 'title', `health.${status === 'ok' ? 'ok' : status}`);
  if (status !== 'ok' && status !== 'checking') $('health-line').hidden = false;
  else if (dot.getAttribute('aria-expanded') !== 'true') $('health-line').hidden = true;
}

// One check at a time: a second caller shares the one in flight.
let checking = null;
function checkHealth() {
  checking ??= askHealth().finally(() => { checking = null; });
  return checking;
}

async function askHealth() {
  const summary = $('health-summary');
  const dl = $('health-details');
  setT(summary, 'health.checking');
  dl.replaceChildren();
  try {
    const res = await health();
    const j = await res.json();
    showHealth(j.status === 'ok' ? 'ok' : 'degraded');
    setT(summary, j.status === 'ok' ? 'health.ok' : 'health.degraded');
    row(dl, 'health.version', `${j.name ?? 'aivista'} ${j.version ?? ''}`);
    row(dl, 'health.worker', String(j.pid ?? ''));
    const st = h('span', {});
    if (j.store?.reachable) setT(st, 'health.reachable');
    else st.append(h('span', {}, `${t('health.unreachable')}: `), String(j.store?.error ?? ''));
    row(dl, 'health.store', st);
    for (const [role, kind] of Object.entries(j.providers || {})) {
      const dd = h('span', {});
      if (t(`health.kind.${kind}`) !== `health.kind.${kind}`) setT(dd, `health.kind.${kind}`);
      else dd.textContent = String(kind);
      row(dl, `health.role.${role}`, dd);
    }
  } catch {
    showHealth('down');
    setT(summary, 'health.down');
  }
}

// Every request says whether the server answered: the dot turns red at
// the first that got no answer, and while it is red the server is asked
// again every few seconds; the first answer (any request's) turns it green
// and the views send what waited.
let polling = null;
function pollWhileDown() {
  clearTimeout(polling);
  polling = setTimeout(async () => {
    await checkHealth();
    if ($('health').dataset.status === 'down') pollWhileDown();
  }, 3000);
}
onNet((up) => {
  if (up) {
    clearTimeout(polling);
    if ($('health').dataset.status !== 'ok') checkHealth();
    return;
  }
  showHealth('down');
  setT($('health-summary'), navigator.onLine === false ? 'health.offline' : 'health.down');
  pollWhileDown();
});

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
  const dot = $('health-dot');
  dot.addEventListener('click', () => {
    const open = dot.getAttribute('aria-expanded') !== 'true';
    dot.setAttribute('aria-expanded', String(open));
    $('health-line').hidden = !open && $('health').dataset.status === 'ok';
    if (open) $('health-more').open = true;
  });

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
// The navigation's height on a phone (a bar at the bottom, taller when a
// name takes two lines): what sits above it keeps clear of it.
new ResizeObserver(() => {
  const nav = $('studios');
  const fixed = getComputedStyle(nav).position === 'fixed';
  document.documentElement.style.setProperty('--nav-h', fixed ? `${nav.offsetHeight}px` : '0px');
}).observe($('studios'));
window.addEventListener('hashchange', route);
route();
checkHealth();
threads.refresh();
// The browser knows first when the network goes: the dot says so at once.
window.addEventListener('offline', () => {
  showHealth('down');
  setT($('health-summary'), 'health.offline');
});
window.addEventListener('online', checkHealth);
