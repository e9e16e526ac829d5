// The picture viewer: a picture full size in a dialog, with a download as
// PNG at a chosen width (GET /api/assets/{id}?format=png&width=N; the
// server rasterises an SVG rendering once and keeps the PNG), named after
// what was asked (name, else the picture's description). Pictures
// of the offline renderer are SVG drawings, not photographs: they are
// labelled as an offline preview wherever they show.
import { h } from './dom.js';
import { setT, setAttrT } from './i18n.js';
import { assetId, pngURL } from './api.js';
import { fileName } from './files.js';

const WIDTHS = ['', '1080', '2048'];

// Resolves to true when the picture at src is an SVG drawing (the offline
// renderer's). The picture is in the browser's cache already (assets are
// immutable), so this costs no new transfer.
const kinds = new Map();
export function isDrawing(src) {
  if (/^data:image\/svg\+xml/i.test(src)) return Promise.resolve(true);
  if (!kinds.has(src)) {
    kinds.set(src, fetch(src).then((r) => /image\/svg\+xml/i.test(r.headers.get('Content-Type') || ''), () => false));
  }
  return kinds.get(src);
}

// A chip saying "offline preview", shown once the picture is known to be one.
export function offlineChip(src) {
  const chip = setT(h('span', { class: 'chip offline-chip', hidden: true }), 'viewer.offline');
  setAttrT(chip, 'title', 'viewer.offline.title');
  isDrawing(src).then((yes) => { chip.hidden = !yes; });
  return chip;
}

let dialog = null;

export function openViewer(src, { alt = '', opener, name } = {}) {
  dialog?.remove();
  const id = assetId(src);
  const img = h('img', { src, alt, class: 'viewer-img' });
  const close = setT(h('button', { type: 'button', class: 'viewer-close' }), 'viewer.close');
  const bar = h('div', { class: 'viewer-bar' }, offlineChip(src));
  if (id) {
    const width = h('select', { class: 'viewer-width' }, WIDTHS.map((w) => setT(h('option', { value: w }), w ? 'viewer.width' : 'viewer.width.original', { w })));
    setAttrT(width, 'aria-label', 'viewer.size');
    const link = setT(h('a', { class: 'button-like primary viewer-download', download: fileName(name || alt, 'png', `aivista-${id.slice(0, 8)}`) }), 'viewer.download');
    const update = () => { link.href = pngURL(id, { width: width.value || undefined }); };
    width.addEventListener('change', update);
    update();
    bar.append(width, link);
  }
  bar.append(close);
  dialog = h('dialog', { class: 'viewer' }, h('div', { class: 'viewer-stage' }, img), bar);
  setAttrT(dialog, 'aria-label', 'viewer.title');
  const d = dialog;
  close.addEventListener('click', () => d.close());
  d.addEventListener('click', (e) => { if (e.target === d) d.close(); });
  d.addEventListener('close', () => { d.remove(); opener?.focus(); });
  document.body.append(d);
  d.showModal();
  close.focus();
  return d;
}
