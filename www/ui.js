// Pieces both studios use: the connection status of a stream and the box
// that says what went wrong and what to do next.
import { h } from './dom.js';
import { t, setT } from './i18n.js';
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
      el.replaceChildren(
        h('p', { class: 'error-title' }, x.title),
        h('p', {}, x.next),
        extra ? h('p', {}, extra) : null,
        detail ? h('details', {}, h('summary', {}, t('err.details')), h('p', { class: 'mono' }, detail)) : null,
        actions.length ? h('div', { class: 'error-actions' }, actions.map((a) => {
          const b = h('button', { type: 'button', onclick: a.onclick });
          setT(b, a.key);
          return b;
        })) : null);
      el.hidden = false;
    },
    // A message of the page's own (an i18n key), with the same look.
    say(titleKey, nextKey, actions = []) {
      el.replaceChildren(h('p', { class: 'error-title' }, t(titleKey)), nextKey ? h('p', {}, t(nextKey)) : null,
        actions.length ? h('div', { class: 'error-actions' }, actions.map((a) => {
          const b = h('button', { type: 'button', onclick: a.onclick });
          setT(b, a.key);
          return b;
        })) : null);
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
      el.replaceChildren();
    },
  };
}
