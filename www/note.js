// The note writer (workflow "note", seed 001): a topic and reference
// images in; the agents' progress, tool calls, the brief, the draft, the
// pauses where the person approves, rejects or edits, the images arriving,
// the quality scores, and the finished note, which can be copied.
import { h, pretty, safeImageURL, uid } from './dom.js';
import { t, tx, setT, setAttrT, nodeLabel, label, addWords } from './i18n.js';
import * as words from './i18n-note.js';
import { assetURL, assetId, pngURL } from './api.js';
import { Timeline, stepsDone } from './timeline.js';
import { pauseCard } from './hitl.js';
import { createView, textLimit } from './view.js';
import { examples } from './empty.js';
import { filePicker, readImage, fileName, saveText } from './files.js';
import { openViewer, offlineChip } from './viewer.js';
import { copyText } from './ui.js';

addWords('note', words);

const MAX_REFS = 4;
const MAX_TOPIC_BYTES = 2000;       // the server's limit on a topic, in UTF-8 bytes
const MAX_REF_BYTES = 1500000;       // larger pictures are scaled down first
const PIPELINE = ['supervisor', 'brief_compiler', 'research_evidence', 'reference_intelligence', 'writer',
  'layout_planner', 'image_planner', 'image', 'review'];

export function createNoteWriter(root, app) {
  const view = createView(app, {
    id: 'note', workflow: 'note', onEvent, onState, ended, started, opening, opened, reset: forget,
    focus: () => (form.hidden ? view.newBtn : topic).focus(),
  });
  const { stream, errors } = view;

  // The form that starts a note.
  const topicId = uid('topic');
  const topic = h('textarea', { id: topicId, rows: 3, 'aria-describedby': `${topicId}-count` });
  const limit = textLimit(topic, MAX_TOPIC_BYTES, errors);
  setAttrT(topic, 'placeholder', 'note.topic.ph');
  const topicLabel = h('label', { for: topicId });
  setT(topicLabel, 'note.topic');
  const picker = filePicker({
    labelKey: 'note.refs',
    hintKey: 'note.refs.hint',
    hintParams: { n: MAX_REFS },
    pasteTarget: root,
    onFiles: (list) => addRefs(list),
  });
  const previews = h('ul', { class: 'ref-previews' });
  const urlId = uid('refurl');
  const refUrl = h('input', { id: urlId, type: 'url', inputmode: 'url', placeholder: 'https://…' });
  const urlLabel = h('label', { for: urlId });
  setT(urlLabel, 'note.refurl');
  const layoutId = uid('layout');
  const layoutPick = h('select', { id: layoutId }, ['balanced', 'dense', 'visual-first'].map((v) => {
    const o = h('option', { value: v });
    setT(o, `note.layout.${v}`);
    return o;
  }));
  const layoutLabel = h('label', { for: layoutId });
  setT(layoutLabel, 'note.layout.label');
  const startBtn = h('button', { type: 'submit', class: 'primary' });
  setT(startBtn, 'note.start');
  const form = h('form', { class: 'note-form', novalidate: true },
    h('div', { class: 'field' }, topicLabel, topic, h('div', { class: 'composer-row' }, limit.el)),
    h('div', { class: 'field' }, picker.el, previews),
    h('div', { class: 'field' }, urlLabel, refUrl),
    h('div', { class: 'composer-row' }, h('span', { class: 'inline-field' }, layoutLabel, layoutPick), startBtn));
  let refs = [];            // [{name, dataUrl}]

  // The run.
  let timeline = new Timeline();
  const phase = h('span', {});
  const bar = h('progress', { max: 100, value: 0 });
  // The agents' steps: open while they work, one line once the note is done.
  const agentsTitle = h('summary', { class: 'steps-line' });
  setT(agentsTitle, 'note.agents');
  const agents = h('details', { class: 'agents steps', open: true }, agentsTitle,
    h('div', { class: 'run-progress', role: 'status' }, phase, bar), timeline.el);
  const products = h('div', { class: 'products' });
  const preview = h('div', { class: 'preview-col', hidden: true });
  const layout = h('div', { class: 'note-layout', hidden: true }, preview, agents, products);
  let t0 = null;
  let t1 = null;
  let steps = 0;

  const empty = examples('note', (text) => {
    topic.value = text;
    limit.count();
    form.requestSubmit();
  });
  root.append(view.head, errors.el, empty, form, layout);

  let cards = {};
  let pauses = [];
  let done = new Set();
  let topicText = '';
  let draft = null;
  let pendingEdit = null;
  let failed = null;

  async function addRefs(picked) {
    for (const f of picked) {
      if (refs.length >= MAX_REFS) {
        errors.say('note.refs.toomany', null);
        break;
      }
      if (!f.type.startsWith('image/')) {
        errors.say('note.refs.bad', null);
        continue;
      }
      try {
        refs.push({ name: f.name || 'image', dataUrl: await readImage(f, MAX_REF_BYTES) });
      } catch {
        errors.say('note.refs.bad', null);
      }
    }
    showRefs();
  }

  function showRefs() {
    previews.replaceChildren(...refs.map((r, i) => {
      const rm = h('button', { type: 'button', class: 'small' });
      setT(rm, 'note.refs.remove', { name: r.name });
      rm.addEventListener('click', () => { refs.splice(i, 1); showRefs(); picker.focus(); });
      return h('li', {}, h('img', { src: r.dataUrl, alt: r.name }), rm);
    }));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = topic.value.trim();
    if (!limit.check(text, 'note.need_topic')) return;
    const input = { topic: text, layoutPreference: layoutPick.value };
    if (refs.length) input.referenceImages = refs.map((r) => r.dataUrl);
    const u = refUrl.value.trim();
    if (u) input.referenceImageUrl = u;
    await start(input);
  });

  function forget() {
    cards = {};
    pauses = [];
    done = new Set();
    topicText = '';
    draft = null;
    pendingEdit = null;
    failed = null;
    const fresh = new Timeline();
    timeline.el.replaceWith(fresh.el);
    timeline = fresh;
    products.replaceChildren();
    preview.replaceChildren();
    preview.hidden = true;
    delete layout.dataset.finished;
    agents.open = true;
    setT(agentsTitle, 'note.agents');
    t0 = null;
    t1 = null;
    steps = 0;
    form.hidden = false;
    empty.hidden = false;
    layout.hidden = true;
    startBtn.disabled = false;
    setProgress(0);
    phase.textContent = '';
    delete phase.dataset.i18n;
  }

  // The progress bar, and the phase as a dictionary key (with params).
  function setProgress(p, key, params) {
    if (p != null) bar.value = Math.round(Math.max(0, Math.min(1, p)) * 100);
    if (key) setT(phase, key, params);
  }

  async function start(input) {
    if (stream.busy) return;
    errors.hide();
    startBtn.disabled = true;
    topicText = input.topic;
    form.hidden = true;
    empty.hidden = true;
    layout.hidden = false;
    setProgress(0, 'note.starting');
    try {
      await view.start(input);
    } catch (e) {
      form.hidden = false;
      empty.hidden = false;
      layout.hidden = true;
      startBtn.disabled = false;
      // Not sent (the server down): the form stays filled, and goes again.
      if (!view.unsent(e, null, () => start(input))) errors.show(e);
      return;
    }
  }

  // A card in the products column, made once and updated after.
  function card(key, titleKey, cls = '') {
    if (cards[key]) return cards[key];
    const head = h('h3', {});
    setT(head, titleKey);
    const body = h('div', { class: 'card-body' });
    const el = h('section', { class: `card ${cls}`, dataset: { card: key } }, head, body);
    products.append(el);
    cards[key] = { el, head, body };
    return cards[key];
  }

  function agentProgress() {
    const n = PIPELINE.filter((a) => done.has(a)).length;
    return n / PIPELINE.length;
  }

  function onEvent(ev) {
    timeline.add(ev);
    if (typeof ev.timestamp === 'number') {
      if (t0 == null && ev.type === 'agent_start') t0 = ev.timestamp;
      if (t0 != null) t1 = ev.timestamp;
    }
    if (ev.type === 'agent_start') steps++;
    if (pendingEdit && ev.type !== 'content_update') showDraft(pendingEdit);
    pendingEdit = null;
    const name = String(ev.agent || ev.node || '').replace(/_agent$/, '');
    switch (ev.type) {
      case 'agent_start':
        setProgress(agentProgress(), 'note.running', { agent: nodeLabel(ev.agent || ev.node || '') });
        break;
      case 'agent_end':
        done.add(name);
        setProgress(agentProgress());
        break;
      case 'workflow_progress': {
        const p = typeof ev.progress === 'number' ? (ev.progress > 1 ? ev.progress / 100 : ev.progress) : agentProgress();
        const phaseKey = `phase.${ev.phase}`;
        if (ev.phase && t(phaseKey) !== phaseKey) setProgress(p, phaseKey);
        else setProgress(p, 'note.running', { agent: ev.phase ? String(ev.phase) : nodeLabel(ev.currentAgent || '') });
        break;
      }
      case 'brief_ready': {
        const c = card('brief', 'note.card.brief', 'brief');
        c.body.replaceChildren(fields(unwrap(strip(ev))));
        break;
      }
      case 'content_update':
        showDraft(ev);
        break;
      case 'layout_spec_ready':
      case 'alignment_map_ready': {
        const c = card(ev.type, `note.${ev.type}`, 'plain-card');
        c.body.replaceChildren(h('details', {}, h('summary', {}, tx('note.show')), fields(strip(ev))));
        break;
      }
      case 'image_progress':
        imageProgress(ev);
        break;
      case 'quality_score': {
        const c = card('quality', 'note.quality', 'quality');
        c.body.replaceChildren(scores(strip(ev)));
        break;
      }
      case 'ask_user': {
        for (const p of pauses) if (p.el.dataset.state !== 'answered') p.answered('unknown');
        // A draft to decide on is shown once: in the question, where it is
        // edited in place; the draft card comes back once answered.
        const hide = ev.context?.kind === 'content' && cards.draft ? cards.draft.el : null;
        const p = pauseCard(ev, {
          onAnswer: (a, payload, hk) => answer(ev, a, payload, hk),
          onDone: () => { if (hide) hide.hidden = false; },
        });
        if (hide) hide.hidden = true;
        pauses.push(p);
        products.append(p.el);
        setProgress(null, 'note.waiting');
        break;
      }
      case 'thought_log':
        if (ev.decision) {
          const p = pauses[pauses.length - 1];
          if (p && p.el.dataset.state !== 'answered') p.answered(ev.decision);
        }
        break;
      case 'workflow_complete':
        setProgress(1, 'note.finished');
        finalNote(ev);
        break;
      case 'error':
        failed = ev;
        break;
      default:
        break;
    }
  }

  function showDraft(d) {
    const c = card('draft', 'note.card.draft', 'draft');
    c.body.replaceChildren(noteView(d));
    c.el.dataset.version = String(Number(c.el.dataset.version || 0) + 1);
    draft = { title: d.title, body: d.body, tags: d.tags };
  }

  function imageProgress(ev) {
    const c = card('images', 'note.images', 'images');
    let grid = c.body.querySelector('.image-grid');
    if (!grid) {
      grid = h('ul', { class: 'image-grid' });
      c.body.append(grid);
    }
    const key = String(ev.taskId ?? grid.childElementCount + 1);
    let tile = [...grid.children].find((x) => x.dataset.task === key);
    if (!tile) {
      tile = h('li', { class: 'image-tile', dataset: { task: key } },
        h('div', { class: 'tile-media' }), h('progress', { max: 100, value: 0 }), h('p', { class: 'tile-status muted' }));
      grid.append(tile);
    }
    const p = typeof ev.progress === 'number' ? (ev.progress > 1 ? ev.progress : ev.progress * 100) : null;
    const prog = tile.querySelector('progress');
    if (p != null) prog.value = Math.round(p);
    tile.dataset.status = String(ev.status ?? '');
    const st = tile.querySelector('.tile-status');
    st.replaceChildren(`#${key} · `, label('span', `img.${ev.status}`, String(ev.status ?? '')), p != null ? ` · ${Math.round(p)}%` : '');
    const src = safeImageURL(ev.url);
    const media = tile.querySelector('.tile-media');
    if (src && media.querySelector('img')?.getAttribute('src') !== src) {
      media.replaceChildren(setAttrT(h('img', { src, loading: 'lazy' }), 'alt', 'note.image_alt', { n: key }));
      prog.hidden = true;
    }
    if (ev.errorMessage) {
      tile.dataset.status = 'failed';
      media.replaceChildren(h('p', { class: 'error-text' }, String(ev.errorMessage)));
    }
  }

  // The finished note as it will be read: a phone-like card (cover, title,
  // body, tags) beside the working area, with copy and download.
  function finalNote(ev) {
    const c = card('final', 'note.final', 'final');
    const ids = Array.isArray(ev.imageAssetIds) ? ev.imageAssetIds : [];
    const urls = ids.map((id) => (typeof id === 'string' && id.includes('/') ? safeImageURL(id) : assetURL(String(id)))).filter(Boolean);
    const copied = h('span', { class: 'muted copy-status', role: 'status' });
    const copyBtn = (key, cls, text) => {
      const b = setT(h('button', { type: 'button', class: cls, dataset: { copy: key } }), `note.copy.${key}`);
      b.addEventListener('click', async () => {
        const ok = await copyText(text());
        setT(copied, ok ? 'note.copied' : 'note.copy_failed');
      });
      return b;
    };
    // What the person posts: the note as written, with their own title,
    // text and picture order from the phone card (this page only).
    const draft = { ...ev, title: String(ev.title ?? ''), body: String(ev.body ?? ''), urls: [...urls] };
    const named = () => draft.title || topicText;
    const download = setT(h('button', { type: 'button', class: 'download-images', disabled: !urls.length }), 'note.download', { n: urls.length });
    download.addEventListener('click', () => downloadAll(draft.urls, named(), plainNote(draft)));
    const saveMd = setT(h('button', { type: 'button', dataset: { save: 'markdown' } }), 'note.save.markdown');
    saveMd.addEventListener('click', () => saveText(markdownNote(draft, draft.urls), fileName(named(), 'md', 'note')));
    const actions = h('div', { class: 'card-actions' }, copyBtn('text', 'primary', () => plainNote(draft)),
      copyBtn('markdown', '', () => markdownNote(draft, draft.urls)), saveMd, download, copied);
    c.body.replaceChildren(actions, phoneCard(draft));
    c.el.classList.add('note-preview');
    preview.replaceChildren(c.el);
    preview.hidden = false;
    layout.dataset.finished = 'true';
    // The steps fold to one line; the finished note repeats the draft: it folds too.
    agents.open = false;
    setT(agentsTitle, ...stepsDone(t0, t1, steps));
    const d = cards.draft;
    if (d && !d.body.querySelector(':scope > details')) {
      const more = h('details', {}, h('summary', {}, tx('note.show')), ...d.body.childNodes);
      d.body.replaceChildren(more);
    }
    requestAnimationFrame(() => c.el.scrollIntoView?.({ block: 'start' }));
  }

  // A new thread: the form gives way to the run.
  function started() {
    form.hidden = true;
    empty.hidden = true;
    layout.hidden = false;
    return topicText ? { title: topicText.slice(0, 80) } : {};
  }

  // A run that ended with an error is not "done", whatever the stream says.
  function ended() {
    return failed && !cards.final ? 'error' : null;
  }

  function onState(state) {
    startBtn.disabled = stream.busy;
    if (state === 'paused') {
      const p = pauses[pauses.length - 1];
      if (p && p.el.dataset.state !== 'answered') {
        setProgress(null, 'note.waiting');
        p.el.scrollIntoView?.({ block: 'nearest' });
        // Keyboard users land on the answer, unless they are typing elsewhere.
        const a = document.activeElement;
        if (!a || a === document.body || (root.contains(a) && !/^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName))) p.focus();
      }
    }
    if (state === 'done') {
      timeline.settle('done');
      if (failed && !cards.final) view.runFailed(failed, [{ key: 'note.new', onclick: () => view.startOver() }]);
    }
    if (state === 'failed') timeline.settle('stopped');
  }

  async function answer(ev, act, payload, hooks) {
    // Once the server takes the edit, the draft shows it; the agents' next
    // update replaces it.
    pendingEdit = act === 'modify' && ev.context?.kind === 'content'
      ? { ...(draft || ev.editable || {}), ...payload } : null;
    try {
      await stream.confirm(ev.interruptId, act, payload, hooks);
    } catch (e) {
      pendingEdit = null;
      throw e;
    }
  }

  // A thread opened: the run in place of the form, its topic from the
  // thread's state.
  function opening() {
    form.hidden = true;
    empty.hidden = true;
    layout.hidden = false;
  }

  function opened(th) {
    const s = th.state || {};
    topicText = String(s.topic ?? s.text ?? '');
    return topicText ? { title: topicText.slice(0, 80) } : {};
  }

  return view.face;
}

// An event's own fields (without type, timestamp, agent, node).
function strip(ev) {
  const { type, timestamp, agent, node, threadId, content, ...rest } = ev;
  return rest;
}

// {brief: {...}} shows as the brief itself.
function unwrap(o) {
  const keys = Object.keys(o);
  return keys.length === 1 && o[keys[0]] && typeof o[keys[0]] === 'object' && !Array.isArray(o[keys[0]]) ? o[keys[0]] : o;
}

// A note: title, body (as text, line breaks kept), tags.
function noteView(n) {
  const tags = Array.isArray(n.tags) ? n.tags : [];
  return h('article', { class: 'note' },
    h('h4', { class: 'note-title' }, String(n.title ?? '')),
    h('div', { class: 'note-body' }, String(n.body ?? '')),
    tags.length ? h('p', { class: 'note-tags' }, tags.map((x) => h('span', { class: 'tag' }, `#${x}`))) : null);
}

// The platform's limits (characters as people count them).
const TITLE_MAX = 20;
const BODY_MAX = 1000;
const chars = (s) => [...String(s ?? '')].length;

// The note in a phone-sized frame, as the person will post it: the cover
// title edited on the cover, the text edited in place, both counted
// against the platform's limits as they type, and the pictures moved
// earlier or later (the first is the cover). Edits change draft (title,
// body, urls).
function phoneCard(draft) {
  const tags = Array.isArray(draft.tags) ? draft.tags : [];
  const titleView = h('h4', { class: 'note-title' }, draft.title);
  const coverTitle = h('input', { type: 'text', class: 'cover-title', value: draft.title });
  setAttrT(coverTitle, 'aria-label', 'note.cover_title');
  const body = h('textarea', { class: 'note-body note-body-edit', rows: 8 });
  body.value = draft.body;
  setAttrT(body, 'aria-label', 'note.body_edit');
  const titleCount = h('span', { class: 'count', dataset: { count: 'title' } });
  const bodyCount = h('span', { class: 'count', dataset: { count: 'body' } });
  const counts = h('p', { class: 'note-counts muted', 'aria-live': 'polite' }, titleCount, ' · ', bodyCount);
  const count = () => {
    const tn = chars(draft.title);
    const bn = chars(draft.body);
    setT(titleCount, 'note.count.title', { n: tn, max: TITLE_MAX });
    setT(bodyCount, 'note.count.body', { n: bn, max: BODY_MAX });
    titleCount.dataset.over = String(tn > TITLE_MAX);
    bodyCount.dataset.over = String(bn > BODY_MAX);
  };
  const fit = () => {
    body.style.height = 'auto';
    body.style.height = `${body.scrollHeight + 2}px`;
  };
  coverTitle.addEventListener('input', () => {
    draft.title = coverTitle.value;
    titleView.textContent = draft.title;
    count();
  });
  body.addEventListener('input', () => {
    draft.body = body.value;
    count();
    fit();
  });
  requestAnimationFrame(fit);
  count();
  const media = h('div', { class: 'phone-media' });
  const drawMedia = () => {
    const n = draft.urls.length;
    media.replaceChildren(...draft.urls.map((u, i) => {
      const img = setAttrT(h('img', { src: u, loading: i ? 'lazy' : 'eager' }), 'alt', 'note.image_alt', { n: i + 1 });
      const b = h('button', { type: 'button', class: 'phone-img' }, img);
      b.addEventListener('click', () => openViewer(u, { alt: img.alt, opener: b, name: `${draft.title} ${i + 1}` }));
      const move = (d, key, sign) => {
        const m = h('button', { type: 'button', class: 'small move', dataset: { move: key }, disabled: i + d < 0 || i + d >= n }, sign);
        setAttrT(m, 'aria-label', `note.move.${key}`, { n: i + 1 });
        m.addEventListener('click', () => {
          [draft.urls[i], draft.urls[i + d]] = [draft.urls[i + d], draft.urls[i]];
          drawMedia();
          media.querySelectorAll('.phone-slide')[i + d]?.scrollIntoView({ block: 'nearest', inline: 'start' });
        });
        return m;
      };
      return h('div', { class: 'phone-slide', dataset: { url: u } }, b, i === 0 ? coverTitle : null,
        h('div', { class: 'slide-bar' }, move(-1, 'earlier', '◀'), h('span', { class: 'muted' }, `${i + 1} / ${n}`), move(1, 'later', '▶')));
    }));
  };
  drawMedia();
  const chip = draft.urls.length ? offlineChip(draft.urls[0]) : null;
  return h('article', { class: 'phone note' }, draft.urls.length ? media : coverTitle, chip,
    h('div', { class: 'phone-text' }, titleView, counts, body,
      tags.length ? h('p', { class: 'note-tags' }, tags.map((x) => h('span', { class: 'tag' }, `#${x}`))) : null));
}

// Markdown: the title as a heading, the body, the pictures, the tags.
function markdownNote(n, urls) {
  const tags = Array.isArray(n.tags) ? n.tags.map((x) => `#${x}`).join(' ') : '';
  const pics = urls.map((u, i) => `![${i + 1}](${u})`).join('\n');
  return [n.title ? `# ${n.title}` : '', n.body, pics, tags].filter((x) => x && String(x).trim()).join('\n\n');
}

// Each picture as a PNG download (the server converts a drawing once),
// named after the note and numbered in the order chosen, then the caption
// (title, text, tags) as a text file beside them.
function downloadAll(urls, named, caption) {
  urls.forEach((u, i) => {
    const id = assetId(u);
    const a = h('a', { href: id ? pngURL(id) : u, download: fileName(`${named || 'note'} ${i + 1}`, 'png', `note-${i + 1}`), class: 'offscreen' });
    document.body.append(a);
    setTimeout(() => { a.click(); a.remove(); }, i * 300);
  });
  if (caption) setTimeout(() => saveText(caption, fileName(named, 'txt', 'note'), 'text/plain'), urls.length * 300);
}

function plainNote(n) {
  const tags = Array.isArray(n.tags) ? n.tags.map((x) => `#${x}`).join(' ') : '';
  return [n.title, n.body, tags].filter((x) => x && String(x).trim()).join('\n\n');
}

// Any JSON shown as a definition list: nested objects nest, lists of words
// read as lists. Empty values are left out; fields the page has no name for
// (machine fields: indexes, sources, rounds) go behind a "details" toggle.
const TECH = new Set(['source', 'iteration', 'paragraphIndex', 'imageIndex', 'index', 'taskId', 'id', 'sequence', 'version']);
const emptyValue = (v) => v == null || v === '' || (Array.isArray(v) && !v.length) ||
  (typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length);

function fields(obj, depth = 0) {
  if (typeof obj === 'boolean') return tx(obj ? 'value.yes' : 'value.no');
  if (obj == null || typeof obj !== 'object') return h('span', {}, String(obj ?? ''));
  if (Array.isArray(obj)) {
    if (obj.every((x) => x == null || typeof x !== 'object')) return h('span', {}, obj.map(String).join('、'));
    if (depth > 2) return h('pre', {}, pretty(obj));
    return h('ol', { class: 'kv-list' }, obj.map((x) => h('li', {}, fields(x, depth + 1))));
  }
  if (depth > 3) return h('pre', {}, pretty(obj));
  const dl = h('dl', { class: 'kv' });
  const tech = h('dl', { class: 'kv' });
  for (const [k, v] of Object.entries(obj)) {
    if (emptyValue(v)) continue;
    const named = t(`field.${k}`) !== `field.${k}` && !TECH.has(k);
    (named ? dl : tech).append(label('dt', `field.${k}`, k), h('dd', {}, fields(v, depth + 1)));
  }
  if (!tech.childElementCount) return dl;
  const more = h('details', { class: 'tech' }, tx('app.details', null, 'summary'), tech);
  return h('div', {}, dl.childElementCount ? dl : null, more);
}

// The review: a meter per dimension (0–1, 0–10 or 0–100 scales) and the
// overall score, the pass marks, the suggestions; other fields as text.
function scores(obj) {
  const list = h('div', { class: 'scores' });
  const th = obj.threshold && typeof obj.threshold === 'object' ? obj.threshold : {};
  const pct = (v) => Math.round(Math.max(0, Math.min(100, v <= 1 ? v * 100 : v <= 10 ? v * 10 : v)));
  const meter = (key, name, v, mark) => {
    const n = pct(v);
    const low = typeof mark === 'number' ? pct(mark) : 60;
    const lab = label('span', key, name);
    lab.className = 'score-label';
    list.append(h('div', { class: 'score', dataset: { dim: name } }, lab,
      h('meter', { min: 0, max: 100, low, high: Math.min(99, low + 20), optimum: 100, value: n }, `${n}`),
      h('span', { class: 'score-num' }, `${n}/100`)));
  };
  const dims = obj.scores && typeof obj.scores === 'object' && !Array.isArray(obj.scores) ? obj.scores : {};
  for (const [k, v] of Object.entries(dims)) if (typeof v === 'number') meter(`field.${k}`, k, v, th.dimension);
  if (typeof obj.overall === 'number') meter('field.overall', 'overall', obj.overall, th.overall);
  const { scores: _s, overall, threshold, suggestions, failReasons, ...rest } = obj;
  if (Array.isArray(failReasons) && failReasons.length && obj.passed !== true) {
    list.append(h('div', { class: 'fail-reasons' }, tx('field.failReasons', null, 'strong'),
      h('ul', {}, failReasons.map((x) => h('li', {}, String(x))))));
  }
  if (Array.isArray(suggestions) && suggestions.length) {
    list.append(h('ul', { class: 'suggestions' }, suggestions.map((x) => h('li', {}, String(x)))));
  }
  if (Object.keys(rest).length) list.append(fields(rest));
  return list;
}
