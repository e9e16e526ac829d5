// Files in and out. A download's name: the words of what was asked
// ("西湖边喝茶的猫.png", "lisbon-vintage-weekend.md"), not a random id.
// The file picker every view uses for pictures: a drop zone that opens the
// system's chooser when clicked, takes files dropped on it, and pictures
// pasted anywhere in the view (pasteTarget) while it is shown; files
// dropped on a larger area (dropTarget, such as a whole composer) too. The
// file input itself is kept (keyboard, screen readers, tests), styled away.
import { h, uid } from './dom.js';
import { setT } from './i18n.js';

export function filePicker({ labelKey, hintKey, hintParams, accept = 'image/png,image/jpeg,image/webp,image/gif', multiple = true, pasteTarget, dropTarget, onFiles }) {
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
  const area = dropTarget || zone;
  const carriesFiles = (e) => [...(e.dataTransfer?.types || [])].includes('Files');
  for (const type of ['dragenter', 'dragover']) {
    area.addEventListener(type, (e) => {
      if (area !== zone && !carriesFiles(e)) return;
      e.preventDefault();
      zone.dataset.over = 'true';
    });
  }
  area.addEventListener('dragleave', (e) => {
    if (!area.contains(e.relatedTarget)) delete zone.dataset.over;
  });
  area.addEventListener('drop', (e) => {
    if (area !== zone && !carriesFiles(e)) return;
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

// A picture file as a data URL; one larger than maxBytes (or a GIF, whose
// frames the server does not take apart) is drawn again as a JPEG at most
// 1600 pixels on its longer side.
export function readImage(file, maxBytes) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error);
    r.onload = () => {
      const url = String(r.result);
      if (file.size <= maxBytes && file.type !== 'image/gif') {
        resolve(url);
        return;
      }
      const img = new Image();
      img.onerror = () => reject(new Error('not an image'));
      img.onload = () => {
        const k = Math.min(1, 1600 / Math.max(img.naturalWidth, img.naturalHeight));
        const c = document.createElement('canvas');
        c.width = Math.max(1, Math.round(img.naturalWidth * k));
        c.height = Math.max(1, Math.round(img.naturalHeight * k));
        c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
        resolve(c.toDataURL('image/jpeg', 0.85));
      };
      img.src = url;
    };
    r.readAsDataURL(file);
  });
}

// A file name from text people wrote: its letters and digits in any
// script, the rest as single hyphens, Latin letters in lower case, at
// most 60 characters; fallback when nothing is left.
export function fileName(text, ext, fallback = 'aivista') {
  const words = String(text ?? '').normalize('NFC').toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  const cut = [...words].slice(0, 60).join('').replace(/-+$/, '');
  return `${cut || fallback}.${ext}`;
}

// Saves text as a file of the given name and media type.
export function saveText(text, name, type = 'text/markdown') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h('a', { href: url, download: name, class: 'offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
