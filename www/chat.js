// The assistant (workflow "chat", seed 004): a conversation in which each
// message is routed (a picture, a web search, the clock, or a plain
// conversation) and answered. Replies stream in piece by piece
// (message_delta, never stored) and are then replaced by the whole reply
// (message, stored), so a reconnect or a reload shows each reply once,
// whole. Every answer carries a badge saying which way it went, whether the
// model or the keyword rules chose it, and why; a picture made opens full
// size; pictures can be attached (chosen, pasted or dropped); a reply can
// be stopped, and a failed one sent again. A reply may suggest another view
// by a code (suggest: "note" for a request for a Xiaohongshu note): the
// page words it and links to the view. The offline assistant's reply may
// offer requests to click (examples), which are sent as they read.
import { h, uid, safeImageURL } from './dom.js';
import { t, tx, setT, setAttrT, onLang, addWords } from './i18n.js';
import * as words from './i18n-chat.js';
import { request, problemOf } from './api.js';
import { turnsOf, saveTurn } from './store.js';
import { createView, textLimit, sendOnEnter } from './view.js';
import { examples } from './empty.js';
import { filePicker, readImage } from './files.js';
import { openViewer, offlineChip } from './viewer.js';
import { toast, copyText } from './ui.js';
import { renderMarkdown } from './markdown.js';

addWords('chat', words);

const MAX_TEXT_BYTES = 8000;        // the server's limit on a message, in UTF-8 bytes
const MAX_PICTURES = 4;             // pictures one message may carry
const MAX_PICTURE_BYTES = 1500000;  // larger pictures are scaled down first
export const ROUTE_ICONS = { image_gen: '🎨', web_search: '🔍', time_query: '🕒', chat: '💬' };
// The views a reply may suggest, by the reply's code: the words, and the
// view's own name as the link.
const SUGGESTIONS = { note: { words: 'chat.suggest.note', view: 'note' } };

export function createChat(root, app) {
  const view = createView(app, {
    id: 'chat', workflow: 'chat', onEvent, onState, ended, started, opening, opened, reset: forget,
    focus: () => input.focus(),
  });
  const { stream, errors } = view;
  const conversation = h('ol', { class: 'conversation chat-list', 'aria-live': 'polite' });
  const empty = examples('chat', (text) => {
    input.value = text;
    limit.count();
    form.requestSubmit();
  });

  // -- the composer: text, its byte count, pictures, send and stop ----------
  const textId = uid('chat-text');
  const input = h('textarea', { id: textId, rows: 2, 'aria-describedby': `${textId}-hint ${textId}-count` });
  setAttrT(input, 'placeholder', 'chat.placeholder');
  const limit = textLimit(input, MAX_TEXT_BYTES, errors);
  const hint = setT(h('span', { id: `${textId}-hint`, class: 'muted hint' }), 'chat.hint');
  const sendBtn = setT(h('button', { type: 'submit', class: 'primary chat-send' }), 'chat.send');
  const stopBtn = setT(h('button', { type: 'button', class: 'chat-stop', hidden: true }), 'chat.stop');
  stopBtn.addEventListener('click', () => cancel());
  const thumbs = h('ul', { class: 'chat-attachments' });
  const form = h('form', { class: 'composer chat-composer', novalidate: true });
  const picker = filePicker({
    labelKey: 'chat.attach',
    hintKey: 'chat.attach.hint',
    hintParams: { n: MAX_PICTURES },
    pasteTarget: root,
    dropTarget: form,
    onFiles: (list) => addPictures(list),
  });
  picker.el.classList.add('chat-picker');
  form.append(setT(h('label', { for: textId, class: 'visually-hidden' }), 'chat.prompt'), thumbs, input,
    h('div', { class: 'composer-row' }, picker.el, hint, limit.el, sendBtn, stopBtn));

  root.classList.add('chat-view');
  root.append(view.head, errors.el, empty, conversation, form);

  // The badges' sentences name routes inside them: written again.
  onLang(() => { for (const x of turns) if (x.intent || x.done) showRoute(x); });

  let turns = [];
  let current = null;
  let pictures = [];        // to send with the next message: [{name, dataUrl, mimeType}]
  let known = [];           // what each turn asked, from this browser: {text, pictures}
  let replayTo = 0;         // the last event id of the thread when it was opened
  let replaced = new Set(); // ids of messages an edit or a regeneration replaced
  let lastText = null;      // the text of the thread's last turn, from its state

  async function addPictures(list) {
    for (const f of list) {
      if (pictures.length >= MAX_PICTURES) {
        errors.say('chat.attach.toomany', null, [], { n: MAX_PICTURES });
        break;
      }
      if (!f.type.startsWith('image/')) {
        errors.say('chat.attach.bad', null);
        continue;
      }
      try {
        const dataUrl = await readImage(f, MAX_PICTURE_BYTES);
        pictures.push({ name: f.name || 'image', dataUrl, mimeType: /^data:([^;,]+)/.exec(dataUrl)?.[1] || f.type });
      } catch {
        errors.say('chat.attach.bad', null);
      }
    }
    showPictures();
  }

  function showPictures() {
    thumbs.replaceChildren(...pictures.map((p, i) => {
      const rm = h('button', { type: 'button', class: 'icon chat-thumb-remove' }, '×');
      setAttrT(rm, 'aria-label', 'chat.attach.remove', { name: p.name });
      setAttrT(rm, 'title', 'chat.attach.remove', { name: p.name });
      rm.addEventListener('click', () => { pictures.splice(i, 1); showPictures(); input.focus(); });
      return h('li', { class: 'chat-thumb' }, h('img', { src: p.dataUrl, alt: p.name }), rm);
    }));
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (stream.busy) return;
    const text = input.value.trim();
    if (!limit.check(text || pictures.length, 'chat.need_text')) return;
    // The box empties at once; a message the server refuses comes back.
    const sent = pictures;
    input.value = '';
    pictures = [];
    showPictures();
    limit.count();
    send({ text, pictures: sent }).then((ok) => {
      if (ok) return;
      if (!input.value) input.value = text;
      if (!pictures.length) {
        pictures = sent;
        showPictures();
      }
      limit.count();
    });
  });
  sendOnEnter(input, form);

  function forget() {
    turns = [];
    current = null;
    known = [];
    replaced = new Set();
    replayTo = 0;
    lastText = null;
    conversation.replaceChildren();
    empty.hidden = false;
    busy(false);
  }

  function busy(on) {
    sendBtn.hidden = on;
    stopBtn.hidden = !on || !view.threadId;
    stopBtn.disabled = false;
    setT(stopBtn, 'chat.stop');
  }

  // -- a turn: the message, then the answer ----------------------------------
  function newTurn(asked) {
    const user = h('div', { class: 'bubble user' });
    const progressText = setT(h('span', {}), 'chat.thinking');
    const progress = h('div', { class: 'turn-progress', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), progressText);
    const reply = h('div', { class: 'chat-text md' });
    const media = h('div', { class: 'chat-media' });
    const suggest = h('p', { class: 'chat-suggest', hidden: true });
    const note = h('div', { class: 'chat-note', hidden: true });
    const route = h('div', { class: 'route-line', hidden: true });
    const el = h('li', { class: 'turn chat-turn', dataset: { state: 'running' } }, user,
      h('div', { class: 'bubble agent' }, progress, reply, media, suggest, note, route));
    conversation.append(el);
    empty.hidden = true;
    const turn = { el, user, progress, progressText, reply, media, suggest, note, route, routed: false, intent: null,
      done: null, deltas: 0, messages: 0, ended: false, events: 0, sent: null, asked: null };
    showAsked(turn, asked);
    turns.push(turn);
    follow(turn);
    return turn;
  }

  // The user's side: the text and the pictures it carried.
  function showAsked(turn, asked) {
    turn.asked = asked;
    turn.user.replaceChildren();
    if (asked?.text) turn.user.append(h('p', {}, asked.text));
    else if (!asked) turn.user.append(tx('chat.request_unknown', null, 'p'));
    if (asked?.dataUrls?.length) {
      turn.user.append(h('ul', { class: 'chat-sent-pictures' }, asked.dataUrls.map((u) => h('li', {}, h('img', { src: u, alt: '' })))));
    } else if (asked?.pictures) {
      turn.user.append(setT(h('span', { class: 'chip' }), 'chat.attach.count', { n: asked.pictures }));
    }
    turn.user.dataset.known = String(!!asked);
  }

  function turnAsked(i) {
    return known[i] || null;
  }

  function endTurn(turn, state) {
    if (!turn || turn.ended) return;
    turn.ended = true;
    // Stop came after the answer was whole: it says so, the answer stays.
    if (turn.stopAsked && state === 'done') toast('chat.stop.late');
    turn.el.dataset.state = state;
    turn.progress.hidden = true;
    delete turn.reply.dataset.live;
    if (!turn.reply.textContent) turn.reply.hidden = true;
  }

  // The badge under an answer: its route's icon and name, who chose it,
  // and why, in words, behind a toggle.
  function showRoute(turn) {
    const it = turn.intent || {};
    const answered = turn.done?.route || it.route;
    if (!answered) return;
    const source = turn.done?.routeSource || it.source;
    const known = (r) => (ROUTE_ICONS[r] ? r : 'chat');
    const chosen = known(it.route || answered);
    const routeName = (r) => [h('span', { class: 'route-icon', 'aria-hidden': 'true' }, ROUTE_ICONS[known(r)]), tx(`chat.route.${known(r)}`)];
    // After a fallback: the route first chosen, then the one that answered.
    const badge = h('span', { class: 'route-badge', dataset: { route: known(answered), chosen, source: source || '' } },
      chosen !== known(answered) ? [h('s', { class: 'route-from' }, routeName(chosen)), ' → '] : null,
      routeName(answered), source ? ' · ' : null,
      source ? tx(`chat.source.${source === 'model' ? 'model' : 'rules'}`) : null);
    const why = h('div', { class: 'route-why-text' });
    const pct = typeof it.confidence === 'number' ? Math.round(it.confidence * 100) : null;
    const vision = (turn.done?.toolCalls || []).some((c) => c?.tool === 'vision');
    if (it.source === 'model') {
      why.append(setT(h('p', {}), 'chat.why.model', { pct: pct ?? '?' }));
      if (it.reason) why.append(h('blockquote', { class: 'route-reason' }, String(it.reason)));
    } else {
      if (vision) why.append(setT(h('p', {}), 'chat.why.rules.vision'));
      why.append(setT(h('p', {}), `chat.why.rules.${chosen}`));
      if (pct != null) why.append(setT(h('p', { class: 'muted' }), 'chat.why.sure', { pct }));
      why.append(setT(h('p', { class: 'muted' }), 'chat.why.rules.how'));
    }
    if (chosen !== known(answered)) {
      why.append(setT(h('p', {}), 'chat.why.fallback', { from: t(`chat.route.${chosen}`), to: t(`chat.route.${known(answered)}`) }));
    }
    const details = h('details', { class: 'route-why' }, setT(h('summary', {}), 'chat.why'), why);
    const wasOpen = turn.route.querySelector('details')?.open;
    if (wasOpen) details.open = true;
    turn.route.replaceChildren(badge, details);
    turn.route.hidden = false;
  }

  // A picture the assistant made: inline, opening full size.
  function showPicture(turn, url) {
    const src = safeImageURL(url);
    if (!src || turn.media.querySelector(`img[src="${CSS.escape(src)}"]`)) return;
    const img = h('img', { src, alt: '' });
    setAttrT(img, 'alt', 'chat.picture.alt', { text: (turn.asked?.text || '').slice(0, 80) });
    const open = h('button', { type: 'button', class: 'chat-picture-open' }, img);
    setAttrT(open, 'aria-label', 'chat.picture');
    setAttrT(open, 'title', 'chat.picture');
    open.addEventListener('click', () => openViewer(src, { alt: img.alt, opener: open, name: turn.asked?.text }));
    turn.media.append(h('figure', { class: 'chat-picture' }, open, offlineChip(src)));
  }

  // Another view the reply points to, in the page's words (a code the
  // page does not know is left out).
  function showSuggest(turn, code) {
    const s = SUGGESTIONS[code];
    if (!s || turn.suggest.dataset.code === code) return;
    turn.suggest.replaceChildren(setT(h('span', {}), s.words), ' ',
      setT(h('a', { href: `#/${s.view}`, class: 'chat-suggest-link' }), `nav.${s.view}`));
    turn.suggest.dataset.code = code;
    turn.suggest.hidden = false;
  }

  // -- editing a sent message, regenerating an answer -------------------------

  function hideTurn(turn) {
    turn.el.hidden = true;
    turn.el.classList.add('superseded');
  }

  // The turns from turn on leave the view (their messages are replaced);
  // returns how to bring them back if the server refuses.
  function leaveFrom(turn) {
    const gone = turns.slice(turns.indexOf(turn)).filter((x) => !x.el.hidden);
    gone.forEach(hideTurn);
    return () => gone.forEach((x) => {
      x.el.hidden = false;
      x.el.classList.remove('superseded');
    });
  }

  // Edit under the question and Regenerate under the answer, once the
  // server has named them (message ids).
  function branchTools(turn) {
    if (turn.branch) return;
    const edit = setT(h('button', { type: 'button', class: 'small chat-edit' }), 'chat.edit');
    edit.addEventListener('click', () => editTurn(turn));
    const again = setT(h('button', { type: 'button', class: 'small chat-regenerate' }), 'chat.regenerate');
    again.addEventListener('click', async () => {
      if (stream.busy) return;
      const back = leaveFrom(turn);
      if (await send({ text: turn.asked?.text || '', pictures: [], regenerate: turn.messageId }) === false) back();
    });
    turn.branch = h('div', { class: 'chat-branch' }, turn.copy, again);
    if (turn.replyTo && turn.asked?.text) turn.user.append(h('div', { class: 'chat-branch' }, edit));
    turn.reply.after(turn.branch);
  }

  // The question in a text box in place; Send makes it the conversation's
  // new branch from there.
  function editTurn(turn) {
    if (stream.busy || turn.editing) return;
    turn.editing = true;
    const box = h('textarea', { class: 'chat-edit-box', rows: 3 });
    box.value = turn.asked.text;
    setAttrT(box, 'aria-label', 'chat.edit.label');
    const ok = setT(h('button', { type: 'button', class: 'small primary' }), 'chat.edit.send');
    const cancel = setT(h('button', { type: 'button', class: 'small' }), 'chat.edit.cancel');
    const old = [...turn.user.childNodes];
    const done = () => {
      turn.editing = false;
      turn.user.replaceChildren(...old);
    };
    cancel.addEventListener('click', done);
    ok.addEventListener('click', async () => {
      const text = box.value.trim();
      if (!text || stream.busy) return;
      done();
      const back = leaveFrom(turn);
      if (await send({ text, pictures: [], editOf: turn.replyTo }) === false) back();
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        ok.click();
      } else if (e.key === 'Escape') {
        done();
      }
    });
    turn.user.replaceChildren(box, h('div', { class: 'chat-branch' }, ok, cancel));
    box.focus();
  }

  // The answer's Markdown, drawn; while it streams, at most once a frame.
  function drawReply(turn, live) {
    if (live) {
      if (turn.drawing) return;
      turn.drawing = requestAnimationFrame(() => {
        turn.drawing = 0;
        drawReply(turn);
      });
      return;
    }
    if (turn.drawing) cancelAnimationFrame(turn.drawing);
    turn.drawing = 0;
    turn.reply.replaceChildren(renderMarkdown(turn.raw, {
      copyLabel: tx('chat.copy.code'),
      copy: async (code, b) => setT(b, (await copyText(code)) ? 'chat.copied' : 'chat.copy_failed'),
    }));
    if (!turn.copy && turn.raw) {
      turn.copy = setT(h('button', { type: 'button', class: 'small chat-copy' }), 'chat.copy');
      turn.copy.addEventListener('click', async () => setT(turn.copy, (await copyText(turn.raw)) ? 'chat.copied' : 'chat.copy_failed'));
      turn.reply.after(turn.copy);
    }
  }

  // Requests the offline assistant offers to click (examples: strings);
  // a click sends one, as the empty state's examples do.
  function showExamples(turn, list) {
    if (!Array.isArray(list) || !list.length || turn.examples) return;
    turn.examples = h('ul', { class: 'examples chat-examples' }, list.filter((x) => typeof x === 'string').map((text) => {
      const b = h('button', { type: 'button', class: 'example' }, text);
      b.addEventListener('click', () => {
        if (stream.busy) return;
        input.value = text;
        limit.count();
        form.requestSubmit();
      });
      return h('li', {}, b);
    }));
    turn.suggest.after(turn.examples);
  }

  function showNote(turn, key, retry) {
    turn.note.replaceChildren(setT(h('p', {}), key));
    if (retry) {
      const b = setT(h('button', { type: 'button', class: 'small chat-retry' }), 'chat.retry');
      b.addEventListener('click', () => retry());
      turn.note.append(b);
    }
    turn.note.hidden = false;
    turn.note.dataset.kind = key.replace(/^chat\./, '');
  }

  // Keeps the newest words in view while the person has not scrolled away.
  function follow(turn) {
    if (turn !== turns[turns.length - 1]) return;
    const r = form.getBoundingClientRect();
    if (r.top < innerHeight + 200) turn.el.scrollIntoView?.({ block: 'end' });
  }

  // A new thread: its first message is remembered here (the server's log
  // does not repeat the pictures).
  function started(ev) {
    if (current?.asked && !known[0]) {
      known[0] = { text: current.asked.text, pictures: current.asked.dataUrls?.length || 0 };
      saveTurn(ev.threadId, 0, known[0]);
    }
    return { title: titleOf(known[0]?.text ?? lastText) };
  }

  function onEvent(ev, meta = {}) {
    if (ev.type === 'thread_start') {
      busy(stream.busy);
      return;
    }
    // Every turn begins with the router.
    if (ev.type === 'agent_start' && ev.node === 'router') {
      if (!current || current.routed) current = newTurn(turnAsked(turns.length));
      current.routed = true;
    }
    if (!current) current = newTurn(turnAsked(turns.length));
    const turn = current;
    turn.events++;
    switch (ev.type) {
      case 'intent_detected':
        turn.intent = ev;
        showRoute(turn);
        break;
      case 'progress':
        if (ev.content) turn.progressText.replaceChildren(String(ev.content));
        delete turn.progressText.dataset.i18n;
        break;
      case 'message_delta':
        if (turn.ended || typeof ev.content !== 'string') break;
        turn.reply.hidden = false;
        turn.reply.dataset.live = 'true';
        turn.progress.hidden = true;
        turn.raw = (turn.raw || '') + ev.content;
        drawReply(turn, true);
        turn.deltas++;
        follow(turn);
        break;
      case 'message':
        if (ev.role && ev.role !== 'assistant') break;
        turn.reply.hidden = false;
        turn.raw = String(ev.content ?? '');
        drawReply(turn);
        delete turn.reply.dataset.live;
        if (ev.messageId) {
          turn.messageId = String(ev.messageId);
          turn.replyTo = ev.replyTo ? String(ev.replyTo) : null;
          if (replaced.has(turn.messageId)) hideTurn(turn);
          branchTools(turn);
        }
        if (ev.suggest) showSuggest(turn, ev.suggest);
        showExamples(turn, ev.examples);
        turn.messages++;
        follow(turn);
        break;
      case 'state_update': {
        // The conversation so far: its last user message is this turn's.
        const msgs = ev.changes?.messages;
        if (!turn.asked && Array.isArray(msgs)) {
          const u = [...msgs].reverse().find((m) => m?.role === 'user');
          if (u && typeof u.content === 'string') showAsked(turn, { text: u.content });
        }
        break;
      }
      case 'error':
        if (ev.code === 'cancelled') {
          endTurn(turn, 'stopped');
          showNote(turn, 'chat.stopped');
        } else if (ev.code === 'reply_cut') {
          turn.cut = true;
          showNote(turn, 'chat.cut');
        } else {
          turn.failed = ev;
          endTurn(turn, 'failed');
          showNote(turn, 'chat.failed', () => retry(turn));
          if (ev.message) turn.note.append(h('p', { class: 'muted' }, String(ev.message)));
        }
        follow(turn);
        break;
      case 'workflow_complete':
        turn.done = ev;
        if (!turn.messages && typeof ev.content === 'string' && ev.content) {
          turn.reply.hidden = false;
          turn.raw = ev.content;
          drawReply(turn);
        }
        if (ev.generatedImageUrl) showPicture(turn, ev.generatedImageUrl);
        if (ev.suggest) showSuggest(turn, ev.suggest);
        showExamples(turn, ev.examples);
        showRoute(turn);
        endTurn(turn, turn.failed ? 'failed' : 'done');
        follow(turn);
        break;
      default:
        break;
    }
    // The whole log is in: the last turn's message, if this browser did not
    // send it, comes from the thread's state.
    if (replayTo && meta.id != null && meta.id >= replayTo) {
      replayTo = 0;
      const last = turns[turns.length - 1];
      if (last && !last.asked && lastText != null) showAsked(last, { text: lastText });
    }
  }

  // A run that failed, or was stopped, is not "done", whatever the stream says.
  function ended() {
    if (current?.failed) return 'error';
    return current?.el.dataset.state === 'stopped' ? 'stopped' : null;
  }

  function onState(state) {
    busy(stream.busy);
    if (state === 'done' && current && !current.ended) endTurn(current, current.failed ? 'failed' : 'done');
  }

  // POST /api/threads/{id}/cancel: the run stops at its next safe point and
  // keeps what was said; its stream then ends by itself.
  async function cancel() {
    if (!view.threadId) return;
    if (current) current.stopAsked = true;
    stopBtn.disabled = true;
    setT(stopBtn, 'chat.stopping');
    try {
      const res = await request(`threads/${encodeURIComponent(view.threadId)}/cancel`, { method: 'POST' });
      if (!res.ok) {
        const e = await problemOf(res);
        if (e.code === 'not_running') toast('chat.stop.late');
        else errors.show(e);
        stopBtn.disabled = false;
        setT(stopBtn, 'chat.stop');
      }
    } catch (e) {
      errors.show(e);
      stopBtn.disabled = false;
      setT(stopBtn, 'chat.stop');
    }
  }

  async function send(asked) {
    if (stream.busy) return false;
    errors.hide();
    const i = turns.length;
    const turn = newTurn({ text: asked.text, dataUrls: asked.pictures.map((p) => p.dataUrl) });
    current = turn;
    if (view.threadId) {
      known[i] = { text: asked.text, pictures: asked.pictures.length };
      saveTurn(view.threadId, i, known[i]);
    }
    turn.sent = asked.regenerate ? { regenerate: asked.regenerate } : { text: asked.text };
    if (asked.editOf) turn.sent.editOf = asked.editOf;
    if (asked.pictures.length) turn.sent.attachments = asked.pictures.map((p) => ({ name: p.name, data: p.dataUrl, mimeType: p.mimeType }));
    turn.pictures = asked.pictures;
    busy(true);
    try {
      await view.send(turn.sent);
    } catch (e) {
      // Not sent (the server down): the bubble stays, and goes again.
      const kept = view.unsent(e, turn.el, () => send(asked));
      if (!kept) turn.el.remove();
      turns.pop();
      current = turns[turns.length - 1] || null;
      if (!turns.length && !kept) empty.hidden = false;
      if (!kept) view.refused(e);
      busy(false);
      return kept ? 'unsent' : false;
    }
    if (!turn.events && view.threadId) errors.say('chat.not_received', 'chat.not_received.next');
    return true;
  }

  // A failed turn, sent again as the next turn of the thread.
  function retry(turn) {
    if (stream.busy) return;
    if (turn.sent) send({ text: turn.sent.text, pictures: turn.pictures || [] });
    else if (turn.asked?.text) send({ text: turn.asked.text, pictures: [] });
    else errors.say('chat.need_text', null);
  }

  // A thread opened: what this browser asked in it, and, from the
  // thread's state, the last turn's text and where the log replayed ends.
  function opening(id) {
    empty.hidden = true;
    known = turnsOf(id);
  }

  function opened(th) {
    // The messages an edit or a regeneration replaced: their turns stay
    // in the log, hidden; the newest branch shows.
    replaced = new Set((th.state?.messages || []).filter((m) => m?.superseded && m.id).map((m) => m.id));
    const text = th.state?.userInput?.text;
    lastText = typeof text === 'string' ? text : null;
    replayTo = Number(th.lastEventId) || 0;
    const firstUser = (th.state?.messages || []).find((m) => m?.role === 'user')?.content;
    return { title: titleOf(known[0]?.text ?? firstUser ?? lastText) };
  }

  return view.face;
}

function titleOf(text) {
  const s = String(text ?? '').trim();
  return s ? s.slice(0, 80) : t('chat.title.pictures');
}
