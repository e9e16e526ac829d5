// The gallery: the pictures made in this browser (store.js listPictures),
// newest first, each with the words it was asked with; a picture opens in
// the viewer, its conversation in the image studio, and can be taken off
// the gallery.
import { h } from './dom.js';
import { setT, setAttrT, tx } from './i18n.js';
import { listPictures, forgetPicture } from './store.js';
import { openViewer, offlineChip } from './viewer.js';

export function galleryButton(app) {
  const b = setT(h('button', { type: 'button', class: 'gallery-open' }), 'gallery.open');
  b.addEventListener('click', () => openGallery(app, b));
  return b;
}

function openGallery(app, opener) {
  const close = setT(h('button', { type: 'button', class: 'gallery-close' }), 'viewer.close');
  const grid = h('ul', { class: 'gallery-grid' });
  const none = tx('gallery.empty', null, 'p');
  const d = h('dialog', { class: 'gallery' }, h('div', { class: 'gallery-head' }, tx('gallery.title', null, 'h3'), close), none, grid);
  setAttrT(d, 'aria-label', 'gallery.title');
  const draw = () => {
    const pics = listPictures();
    none.hidden = pics.length > 0;
    grid.replaceChildren(...pics.map((p) => {
      const img = h('img', { src: p.url, alt: p.prompt, loading: 'lazy' });
      const show = h('button', { type: 'button', class: 'gallery-pic' }, img);
      show.addEventListener('click', () => openViewer(p.url, { alt: p.prompt, name: p.prompt, opener: show }));
      const go = setT(h('button', { type: 'button', class: 'small' }), 'gallery.thread');
      go.hidden = !p.threadId;
      go.addEventListener('click', () => {
        d.close();
        app.go('image', p.threadId);
      });
      const rm = h('button', { type: 'button', class: 'small icon' }, '×');
      setAttrT(rm, 'aria-label', 'gallery.forget');
      rm.addEventListener('click', () => {
        forgetPicture(p.url);
        draw();
      });
      return h('li', { dataset: { url: p.url } }, show, offlineChip(p.url),
        h('p', { class: 'gallery-prompt' }, p.prompt), h('div', { class: 'gallery-acts' }, go, rm));
    }));
  };
  draw();
  close.addEventListener('click', () => d.close());
  d.addEventListener('click', (e) => { if (e.target === d) d.close(); });
  d.addEventListener('close', () => { d.remove(); opener?.focus(); });
  document.body.append(d);
  d.showModal();
  close.focus();
}
