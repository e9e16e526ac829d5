// The list of recent threads started in this browser, with their status as
// the server last told it (running, paused — waiting for you, done, …):
// searched by their names, renamed and pinned (pinned first), all in this
// browser.
import { h } from './dom.js';
import { t, setT, setAttrT, onLang } from './i18n.js';
import { ApiError, getThread } from './api.js';
import { listThreads, onThreadsChange, setThreadStatus, setThreadMark, forgetThread, restoreThread } from './store.js';
import { toast } from './ui.js';

export function createThreadList(root, app) {
  const heading = h('h2', { id: 'threads-heading' });
  setT(heading, 'threads.title');
  const list = h('ul', { class: 'thread-list' });
  const empty = h('p', { class: 'muted' });
  setT(empty, 'threads.empty');
  const refreshBtn = h('button', { type: 'button', class: 'small' });
  setT(refreshBtn, 'threads.refresh');
  const search = h('input', { type: 'search', class: 'thread-search', autocomplete: 'off' });
  setAttrT(search, 'placeholder', 'threads.search');
  setAttrT(search, 'aria-label', 'threads.search');
  const none = h('p', { class: 'muted', hidden: true });
  setT(none, 'threads.none');
  search.addEventListener('input', () => render());
  root.append(h('div', { class: 'threads-head' }, heading, refreshBtn), search, empty, none, list);
  let currentId = null;
  let renaming = null;               // the id whose name is being edited

  function when(ms) {
    if (!ms) return '';
    const d = new Date(ms);
    const today = new Date();
    return d.toDateString() === today.toDateString() ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString();
  }

  const nameOf = (x) => x.name || x.title || t('threads.untitled');

  // The name in place, as a text box: Enter or leaving it keeps it,
  // Escape puts the old one back.
  function renameBox(x) {
    const box = h('input', { type: 'text', class: 'thread-rename', value: nameOf(x), maxlength: 120 });
    setAttrT(box, 'aria-label', 'threads.rename');
    let done = false;
    const finish = (keep) => {
      if (done) return;
      done = true;
      renaming = null;
      if (keep) setThreadMark(x.id, { name: box.value === (x.title || '') ? '' : box.value });
      else render();
    };
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') finish(true);
      else if (e.key === 'Escape') finish(false);
    });
    box.addEventListener('blur', () => finish(true));
    setTimeout(() => { box.focus(); box.select(); });
    return box;
  }

  function render() {
    const all = listThreads();
    const q = search.value.trim().toLowerCase();
    const items = q ? all.filter((x) => `${x.name || ''} ${x.title || ''}`.toLowerCase().includes(q)) : all;
    empty.hidden = all.length > 0;
    none.hidden = !(all.length && !items.length);
    search.hidden = all.length < 2 && !q;
    list.replaceChildren(...items.map((x) => {
      const wf = app.viewOf(x.workflow);
      const badge = h('span', { class: 'badge', dataset: { status: x.status || 'unknown' } });
      setT(badge, `status.${x.status || 'unknown'}`);
      const kind = h('span', { class: 'muted' });
      setT(kind, `threads.${wf}`);
      const title = renaming === x.id ? renameBox(x) : h('span', { class: 'thread-title' }, x.pinned ? h('span', { class: 'pin-mark', 'aria-hidden': 'true' }, '📌 ') : null, nameOf(x));
      const link = renaming === x.id
        ? h('div', { class: 'thread-link' }, title, h('span', { class: 'thread-meta' }, kind, ' · ', when(x.updatedAt), ' ', badge))
        : h('a', { href: `#/${wf}/${encodeURIComponent(x.id)}`, class: 'thread-link', 'aria-current': x.id === currentId ? 'page' : null },
          title, h('span', { class: 'thread-meta' }, kind, ' · ', when(x.updatedAt), ' ', badge));
      const pin = h('button', { type: 'button', class: 'icon thread-pin', 'aria-pressed': String(!!x.pinned), title: t(x.pinned ? 'threads.unpin' : 'threads.pin') }, '📌');
      pin.setAttribute('aria-label', `${t(x.pinned ? 'threads.unpin' : 'threads.pin')}: ${nameOf(x)}`);
      pin.addEventListener('click', () => setThreadMark(x.id, { pinned: !x.pinned }));
      const ren = h('button', { type: 'button', class: 'icon thread-ren', title: t('threads.rename') }, '✎');
      ren.setAttribute('aria-label', `${t('threads.rename')}: ${nameOf(x)}`);
      ren.addEventListener('click', () => {
        renaming = x.id;
        render();
      });
      const rm = h('button', { type: 'button', class: 'icon thread-forget', title: t('threads.forget') }, '×');
      rm.setAttribute('aria-label', `${t('threads.forget')}: ${nameOf(x)}`);
      rm.addEventListener('click', () => {
        const gone = forgetThread(x.id);
        toast('threads.removed', { title: nameOf(x) }, { key: 'threads.undo', onclick: () => restoreThread(gone) });
      });
      return h('li', { dataset: { status: x.status || 'unknown', thread: x.id, pinned: String(!!x.pinned) } }, link, h('span', { class: 'thread-acts' }, pin, ren, rm));
    }));
  }

  // Asks the server for each thread's status (a few at a time).
  async function refresh() {
    const items = listThreads().slice(0, 15);
    await Promise.all(items.map(async (x) => {
      try {
        const th = await getThread(x.id);
        setThreadStatus(x.id, th.status);
      } catch (e) {
        if (e instanceof ApiError && (e.status === 404 || e.status === 410 || e.status === 403)) setThreadStatus(x.id, 'expired');
      }
    }));
  }

  refreshBtn.addEventListener('click', () => refresh());
  onThreadsChange(render);
  onLang(render);
  render();
  return {
    refresh,
    setCurrent(id) {
      currentId = id;
      render();
    },
  };
}
