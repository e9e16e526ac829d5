// Pieces both studios use: the connection status of a stream and the box
// that says what went wrong and what to do next.
import { h, add } from './dom.js';
import { t, tx, setT } from './i18n.js';
import { explain } from './api.js';

// A status pill that follows a ThreadStream's states.
export function streamStatus() {
  const dot = h('span', { class: 'dot', 'aria-hidden': 'true' });
  const text = h('span', {});
  const el = h('p', { class: 'stream-status', role: 'status', dataset: { state: 'idle' } }, dot, text);
  setT(text, 'stream.idle');
  return {
    el,
    set(state, info = {}) {
      el.dataset.state = state;
      if (state === 'reconnecting') setT(text, 'stream.reconnecting', { n: info.attempt ?? 1 });
      else setT(text, `stream.${state}`);
    },
  };
}

// An error box: what happened, what to do, the server's own words when it
// gave some, and buttons for the next step ([{key, onclick}]).
export function errorBox() {
  const el = h('div', { class: 'error-box', role: 'alert', hidden: true });
  return {
    el,
    show(err, actions = [], extra) {
      const x = explain(err);
      const detail = err?.detail && err.code !== 'network' ? err.detail : '';
      // add() leaves out what is absent: replaceChildren() would write "null".
      el.replaceChildren();
      add(el, [
        setT(h('p', { class: 'error-title' }), x.key, x.params),
        x.nextKey ? setT(h('p', {}), x.nextKey, x.params) : null,
        extra ? h('p', {}, extra) : null,
        detail ? h('details', {}, tx('err.details', null, 'summary'), h('p', { class: 'mono' }, detail)) : null,
        buttons(actions)]);
      el.hidden = false;
    },
    // A message of the page's own (an i18n key), with the same look.
    say(titleKey, nextKey, actions = [], params) {
      el.replaceChildren();
      add(el, [setT(h('p', { class: 'error-title' }), titleKey, params),
        nextKey ? setT(h('p', {}), nextKey, params) : null, buttons(actions)]);
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
      el.replaceChildren();
    },
  };
}

function buttons(actions) {
  if (!actions.length) return null;
  return h('div', { class: 'error-actions' }, actions.map((a) => {
    const b = h('button', { type: 'button', onclick: a.onclick });
    setT(b, a.key);
    return b;
  }));
}

// A short notice at the bottom of the screen with one action (undo), gone
// after a few seconds. One at a time.
let toastEl = null;
export function toast(key, params, action) {
  toastEl?.remove();
  const el = h('div', { class: 'toast', role: 'status' }, setT(h('span', {}), key, params));
  if (action) {
    const b = h('button', { type: 'button', class: 'small', onclick: () => { el.remove(); action.onclick(); } });
    setT(b, action.key);
    el.append(b);
  }
  document.body.append(el);
  toastEl = el;
  setTimeout(() => el.remove(), action?.ms ?? 8000);
  return el;
}

// Puts text on the clipboard; true when it is there.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Not a secure context, or no permission: the old way.
    const ta = h('textarea', { class: 'offscreen', readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}
