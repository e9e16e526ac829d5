// The file picker every view uses for pictures: a drop zone that opens the
// system's chooser when clicked, takes files dropped on it, and pictures
// pasted anywhere in the view (pasteTarget) while it is shown. The file
// input itself is kept (keyboard, screen readers, tests), styled away.
import { h, uid } from './dom.js';
import { setT } from './i18n.js';

export function filePicker({ labelKey, hintKey, hintParams, accept = 'image/png,image/jpeg,image/webp,image/gif', multiple = true, pasteTarget, onFiles }) {
  const id = uid('files');
  const input = h('input', { id, type: 'file', accept, multiple, class: 'visually-hidden' });
  const title = setT(h('span', { class: 'drop-title' }), labelKey);
  const how = setT(h('span', { class: 'drop-how' }), 'files.how');
  const hint = hintKey ? setT(h('span', { class: 'muted hint' }), hintKey, hintParams) : null;
  const zone = h('label', { for: id, class: 'drop-zone' }, h('span', { class: 'drop-icon', 'aria-hidden': 'true' }, '＋'),
    h('span', { class: 'drop-text' }, title, how, hint));
  const el = h('div', { class: 'file-picker' }, input, zone);

  const give = (list) => {
    const files = [...(list || [])].filter((f) => f && f.size >= 0);
    if (files.length) onFiles(files);
  };
  input.addEventListener('change', () => {
    const picked = [...input.files];
    input.value = '';
    give(picked);
  });
  for (const type of ['dragenter', 'dragover']) {
    zone.addEventListener(type, (e) => {
      e.preventDefault();
      zone.dataset.over = 'true';
    });
  }
  zone.addEventListener('dragleave', () => { delete zone.dataset.over; });
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    delete zone.dataset.over;
    give(e.dataTransfer?.files);
  });
  pasteTarget?.addEventListener('paste', (e) => {
    if (!el.isConnected || el.closest('[hidden]')) return;
    const files = [...(e.clipboardData?.files || [])].filter((f) => f.type.startsWith('image/'));
    if (!files.length) return;
    e.preventDefault();
    give(files);
  });
  return { el, input, focus: () => input.focus() };
}
