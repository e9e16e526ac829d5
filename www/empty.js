// A view's empty state: what the view does, in two lines, and a few
// example requests to click, in the page's language. Clicking one sends it
// (onPick gets the words as they read at that moment, and the example's
// number from 1).
import { h } from './dom.js';
import { t, setT } from './i18n.js';

export function examples(view, onPick, count = 3) {
  const title = setT(h('h3', { class: 'empty-title' }), `${view}.empty.title`);
  const what = setT(h('p', { class: 'muted' }), `${view}.empty`);
  const list = h('ul', { class: 'examples' });
  for (let i = 1; i <= count; i++) {
    const key = `${view}.example.${i}`;
    const b = setT(h('button', { type: 'button', class: 'example', dataset: { example: String(i) } }), key);
    b.addEventListener('click', () => onPick(t(key), i));
    list.append(h('li', {}, b));
  }
  const label = setT(h('p', { class: 'examples-label' }), 'empty.try');
  return h('section', { class: 'empty', dataset: { view } }, title, what, label, list);
}
