// The list of recent threads started in this browser, with their status as
// the server last told it (running, paused — waiting for you, done, …).
import { h } from './dom.js';
import { t, setT, onLang } from './i18n.js';
import { ApiError, getThread } from './api.js';
import { listThreads, onThreadsChange, setThreadStatus, forgetThread, restoreThread } from './store.js';
import { toast } from './ui.js';

export function createThreadList(root, app) {
  const heading = h('h2', { id: 'threads-heading' });
  setT(heading, 'threads.title');
  const list = h('ul', { class: 'thread-list' });
  const empty = h('p', { class: 'muted' });
  setT(empty, 'threads.empty');
  const refreshBtn = h('button', { type: 'button', class: 'small' });
  setT(refreshBtn, 'threads.refresh');
  root.append(h('div', { class: 'threads-head' }, heading, refreshBtn), empty, list);
  let currentId = null;

  function when(ms) {
    if (!ms) return '';
    const d = new Date(ms);
    const today = new Date();
    return d.toDateString() === today.toDateString() ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString();
  }

  function render() {
    const items = listThreads();
    empty.hidden = items.length > 0;
    list.replaceChildren(...items.map((x) => {
      const wf = app.viewOf(x.workflow);
      const badge = h('span', { class: 'badge', dataset: { status: x.status || 'unknown' } });
      setT(badge, `status.${x.status || 'unknown'}`);
      const kind = h('span', { class: 'muted' });
      setT(kind, `threads.${wf}`);
      const link = h('a', { href: `#/${wf}/${encodeURIComponent(x.id)}`, class: 'thread-link', 'aria-current': x.id === currentId ? 'page' : null },
        h('span', { class: 'thread-title' }, x.title || t('threads.untitled')),
        h('span', { class: 'thread-meta' }, kind, ' · ', when(x.updatedAt), ' ', badge));
      const rm = h('button', { type: 'button', class: 'icon', title: t('threads.forget') }, '×');
      rm.setAttribute('aria-label', `${t('threads.forget')}: ${x.title || x.id}`);
      rm.addEventListener('click', () => {
        const gone = forgetThread(x.id);
        toast('threads.removed', { title: x.title || t('threads.untitled') }, { key: 'threads.undo', onclick: () => restoreThread(gone) });
      });
      return h('li', { dataset: { status: x.status || 'unknown', thread: x.id } }, link, rm);
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
