// The image studio (workflow "image", seed 000): a request, the agent's
// thoughts node by node, the picture on a canvas where a mask can be
// painted for inpainting, the agent's buttons and the critic's verdict;
// further turns continue the same thread. Its buttons and controls send
// what they mean as data (input.adjust), never a sentence for the server
// to read back.
import { h, uid, safeImageURL } from './dom.js';
import { tx, setT, setAttrT, nodeLabel, addWords, apply } from './i18n.js';
import { getJSON } from './api.js';
import * as words from './i18n-image.js';
import { stepsTurn, endStepsTurn } from './timeline.js';
import { renderComponent } from './components.js';
import { turnsOf, saveTurn, keepPicture } from './store.js';
import { galleryButton } from './gallery.js';
import { createView, textLimit, sendOnEnter } from './view.js';
import { examples } from './empty.js';

addWords('image', words);

const SIZES = [[1024, 1024], [1024, 768], [768, 1024], [1280, 720]];
const MAX_TEXT_BYTES = 4000;        // the server's limit on a request's text, in UTF-8 bytes

// The style library's ids (GET /api/styles), with their names added to
// the page's words as style.<id>; read once, when first needed.
let styleIds = null;
function loadStyles() {
  styleIds ??= getJSON('styles').then((lib) => {
    const en = {};
    const zh = {};
    for (const s of lib?.styles || []) {
      if (typeof s?.id !== 'string') continue;
      en[`style.${s.id}`] = String(s.name_en || s.id);
      zh[`style.${s.id}`] = String(s.name_zh || s.name_en || s.id);
    }
    addWords('styles', { en, zh });
    apply(document);
    return Object.keys(en).map((k) => k.slice('style.'.length));
  }).catch(() => []);
  return styleIds;
}

// What an adjustment sent as data asks, as chips in the page's words.
function adjustChips(adjust) {
  const chip = (key, params) => setT(h('span', { class: 'chip' }), key, params);
  if (adjust.kind === 'regenerate') return [chip('image.adjusted.regenerate')];
  const chips = [chip('image.adjusted')];
  if (adjust.style) {
    loadStyles();
    chips.push(chip(`style.${adjust.style}`));
  }
  if (adjust.styleStrength != null) chips.push(chip('image.adjusted.strength', { n: adjust.styleStrength }));
  if (adjust.width) chips.push(h('span', { class: 'chip' }, `${adjust.width} × ${adjust.height}`));
  if (adjust.light) chips.push(chip(`adjust.light.${adjust.light}`));
  return chips;
}

export function createImageStudio(root, app) {
  const view = createView(app, {
    id: 'image', workflow: 'image', onEvent, onState, ended, started, opening, opened, reset: forget,
    focus: () => prompt.focus(),
  });
  const { stream, errors } = view;
  const conversation = h('ol', { class: 'conversation' });
  const empty = examples('image', (text) => {
    prompt.value = text;
    limit.count();
    form.requestSubmit();
  });

  const textId = uid('prompt');
  const prompt = h('textarea', { id: textId, rows: 3, required: true, 'aria-describedby': `${textId}-hint ${textId}-count` });
  const limit = textLimit(prompt, MAX_TEXT_BYTES, errors);
  setAttrT(prompt, 'placeholder', 'image.placeholder');
  const promptLabel = h('label', { for: textId });
  setT(promptLabel, 'image.prompt');
  const hint = h('span', { id: `${textId}-hint`, class: 'muted hint' });
  setT(hint, 'image.hint');
  const sizeId = uid('size');
  const size = h('select', { id: sizeId }, SIZES.map(([w, hh]) => h('option', { value: `${w}x${hh}` }, `${w} × ${hh}`)));
  const sizeLabel = h('label', { for: sizeId });
  setT(sizeLabel, 'image.size');
  const sizeBox = h('span', { class: 'inline-field' }, sizeLabel, size);
  // How many pictures (input.n) and the seed (input.seed, empty: any), on
  // every turn like the size.
  const countId = uid('count');
  const count = h('select', { id: countId, class: 'image-count' }, [1, 2, 3, 4].map((k) => h('option', { value: String(k) }, String(k))));
  const countBox = h('span', { class: 'inline-field' }, setT(h('label', { for: countId }), 'image.count'), count);
  const seedId = uid('seed');
  const seed = h('input', { id: seedId, class: 'image-seed', type: 'number', min: 0, max: 2147483647, step: 1, inputmode: 'numeric' });
  setAttrT(seed, 'placeholder', 'image.seed.any');
  const seedBox = h('span', { class: 'inline-field' }, setT(h('label', { for: seedId }), 'image.seed'), seed);
  const sendBtn = h('button', { type: 'submit', class: 'primary' });
  setT(sendBtn, 'image.send');
  const form = h('form', { class: 'composer', novalidate: true },
    promptLabel, prompt, h('div', { class: 'composer-row' }, hint, limit.el, sizeBox, countBox, seedBox, sendBtn));

  // What every turn carries besides its words: the size (on the first
  // turn, and when it was changed since), how many, the seed.
  let sizeChanged = false;
  size.addEventListener('change', () => { sizeChanged = true; });
  function options() {
    const [w, hh] = size.value.split('x').map(Number);
    const out = !view.threadId || sizeChanged ? { width: w, height: hh } : {};
    sizeChanged = false;
    if (Number(count.value) > 1) out.n = Number(count.value);
    const s = seed.value.trim();
    if (/^\d{1,10}$/.test(s) && Number(s) <= 2147483647) out.seed = Number(s);
    return out;
  }
  view.newBtn.after(galleryButton(app));
  root.append(view.head, errors.el, empty, conversation, form);

  let turns = [];
  let current = null;
  let known = [];           // requests of the thread's turns, from this browser
  let fallback = [];        // the user's messages, from the server's state

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = prompt.value.trim();
    if (!limit.check(text, 'image.need_text')) return;
    // The box empties at once; a request the server refuses comes back.
    prompt.value = '';
    limit.count();
    send({ text }).then((ok) => {
      if (ok === false && !prompt.value) prompt.value = text;
      limit.count();
    });
  });
  sendOnEnter(prompt, form);

  function forget() {
    turns = [];
    current = null;
    known = [];
    fallback = [];
    conversation.replaceChildren();
    empty.hidden = false;
    sendBtn.disabled = false;
  }

  // A turn: the request, the timeline, the progress and the result.
  function newTurn(input) {
    const user = h('div', { class: 'bubble user' });
    if (input?.adjust) user.append(h('p', { class: 'adjusted' }, ...adjustChips(input.adjust)));
    if (input?.text) user.append(h('p', {}, input.text));
    else if (input?.variationOf) user.append(h('p', { class: 'adjusted' }, setT(h('span', { class: 'chip' }), 'image.variations')));
    else if (!input) user.append(h('p', { class: 'muted' }, tx('image.request_unknown')));
    if (input?.mask) {
      const chip = h('span', { class: 'chip' });
      setT(chip, 'image.with_mask');
      user.append(chip);
      if (input.maskData?.base64) user.append(h('img', { class: 'mask-thumb', src: input.maskData.base64, alt: '' }));
    }
    const stepText = h('span', {});
    setT(stepText, 'image.working');
    const bar = h('progress', { max: 100, hidden: true });
    const progress = h('div', { class: 'turn-progress', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), stepText, bar);
    const turn = { ...stepsTurn(user, progress), input, stepText, bar, canvas: null, score: null, agentMessage: false };
    conversation.append(turn.el);
    empty.hidden = true;
    turns.push(turn);
    return turn;
  }

  function endTurn(turn, state) {
    if (!endStepsTurn(turn, state)) return;
    if (state === 'done') {
      // What a turn said while it worked (a reconnect, a note) is over now.
      errors.hide();
      if (turn === turns[turns.length - 1]) showResult(turn);
    }
  }

  // The picture and its actions in view, without the person scrolling.
  function showResult(turn) {
    const target = turn.results.childElementCount ? turn.results : turn.el;
    const img = turn.results.querySelector('img');
    const go = () => target.scrollIntoView?.({ block: target.offsetHeight > innerHeight ? 'start' : 'end' });
    if (img && !img.complete) img.addEventListener('load', go, { once: true });
    go();
  }

  function turnInput(i) {
    if (known[i]) return known[i];
    if (fallback[i]) return { text: fallback[i] };
    return null;
  }

  // A new thread: its first request is remembered here (the server's log
  // does not repeat it).
  function started(ev) {
    if (current && current.input && !known[0]) {
      known[0] = remembered(current.input);
      saveTurn(ev.threadId, 0, known[0]);
    }
    return { title: (known[0]?.text || fallback[0] || '').slice(0, 80) };
  }

  function onEvent(ev) {
    if (!current || (current.ended && ev.type === 'agent_start')) current = newTurn(turnInput(turns.length));
    const turn = current;
    turn.events++;
    turn.timeline.add(ev);
    if (typeof ev.timestamp === 'number') {
      if (turn.t0 == null && ev.type === 'agent_start') turn.t0 = ev.timestamp;
      if (turn.t0 != null) turn.t1 = ev.timestamp;
    }
    switch (ev.type) {
      case 'agent_start': {
        const name = ev.node || ev.agent || '';
        setT(turn.stepText, 'image.running', { node: nodeLabel(name) });
        turn.bar.hidden = true;
        turn.steps++;
        setT(turn.stepsLine, 'steps.running', { n: turn.steps });
        break;
      }
      case 'image_progress': {
        turn.bar.hidden = false;
        const p = typeof ev.progress === 'number' ? ev.progress : 0;
        turn.bar.value = Math.round((p <= 1 ? p * 100 : p));
        setT(turn.stepText, 'image.painting', { n: Math.round(p <= 1 ? p * 100 : p) });
        break;
      }
      case 'state_update': {
        const q = ev.changes?.qualityCheck;
        if (q && typeof q.score === 'number') turn.score = q.score;
        break;
      }
      case 'gen_ui_component': {
        const c = renderComponent(ev.component, {
          name: askedText(turn),
          onAction: (a) => action(a, turn),
          onRepaint: (r) => send({ text: r.text, maskData: r.maskData, mask: true }),
          onVariations: (assetId) => send({ variationOf: assetId, text: '' }),
        });
        if (c.widget === 'SmartCanvas') {
          turn.canvas = c;
          const url = safeImageURL(ev.component?.props?.imageUrl);
          if (url) keepPicture({ url, prompt: askedText(turn), threadId: view.threadId });
        }
        if (c.widget === 'AgentMessage') turn.agentMessage = true;
        if (c.widget === 'ActionPanel' && turn.canvas &&
            (ev.component?.props?.actions || []).some((a) => a?.id === 'inpaint_btn' || a?.id === 'inpaint')) turn.canvas.hideToggle();
        turn.results.append(c.el);
        break;
      }
      case 'ask_user':
      case 'thought_log':
        view.turnPause(turn, ev);
        break;
      case 'error':
        turn.failed = ev;
        break;
      case 'workflow_complete':
        endTurn(turn, turn.failed ? 'failed' : 'done');
        break;
      default:
        break;
    }
  }

  // A run that ended with an error is not "done", whatever the stream says.
  function ended() {
    return current?.failed ? 'error' : null;
  }

  function onState(state) {
    sendBtn.disabled = stream.busy;
    if (state === 'done') {
      if (current && !current.ended) endTurn(current, current.failed ? 'failed' : 'done');
      if (current?.failed && !current.agentMessage) view.runFailed(current.failed, [{ key: 'image.send_again', onclick: () => retryLast() }]);
    }
    if (state === 'failed') current?.timeline.settle('stopped');
  }

  // What this browser keeps of a turn's request, to show it again.
  function remembered(input) {
    return { text: input.text, mask: !!input.mask, ...(input.adjust ? { adjust: input.adjust } : {}) };
  }

  async function send(input) {
    if (stream.busy) return false;
    errors.hide();
    const i = turns.length;
    const turn = newTurn({ text: input.text, mask: !!input.mask, maskData: input.maskData, adjust: input.adjust, variationOf: input.variationOf });
    current = turn;
    if (view.threadId) {
      known[i] = remembered(input);
      saveTurn(view.threadId, i, known[i]);
    }
    turn.sent = {
      ...(input.text || !input.adjust ? { text: input.text } : {}),
      ...(input.maskData ? { maskData: input.maskData } : {}),
      ...(input.adjust ? { adjust: input.adjust } : {}),
    };
    const extra = input.variationOf ? { n: options().n } : options();
    if (input.variationOf) turn.sent = { variationOf: input.variationOf };
    Object.assign(turn.sent, Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)));
    try {
      await view.send(turn.sent);
    } catch (e) {
      // Not sent (the server down): the request stays, and goes again.
      const kept = view.unsent(e, turn.el, () => send(input));
      if (!kept) turn.el.remove();
      turns.pop();
      current = turns[turns.length - 1] || null;
      if (!turns.length && !kept) empty.hidden = false;
      if (!kept) view.refused(e, current?.failed ? 'error' : 'done');
      sendBtn.disabled = false;
      return kept ? 'unsent' : false;
    }
    if (!turn.events && view.threadId) {
      errors.say('image.not_received', 'image.not_received.next');
    }
    return true;
  }

  // The words a picture was asked with: its turn's, or for an adjustment
  // or a regeneration, the last turn before it that had words.
  function askedText(turn) {
    const i = turns.indexOf(turn);
    for (let k = i < 0 ? turns.length - 1 : i; k >= 0; k--) if (turns[k].input?.text) return turns[k].input.text;
    return '';
  }

  function retryLast() {
    const last = [...turns].reverse().find((x) => x.sent || x.input?.text);
    if (last) send(last.sent || { text: last.input.text });
  }

  // Regenerate: the last picture again, as the server made it; under an
  // earlier picture, that turn's request again.
  function regenerate(turn) {
    if (turn === turns[turns.length - 1]) {
      send({ adjust: { kind: 'regenerate' } });
      return;
    }
    const input = turn.sent || (turn.input?.text || turn.input?.adjust ? { text: turn.input.text, adjust: turn.input.adjust } : null);
    if (!input || (!input.text && !input.maskData && !input.adjust)) {
      errors.say('image.regen_none', null);
      return;
    }
    send({ text: input.text, maskData: input.maskData, mask: !!input.maskData, adjust: input.adjust });
  }

  // The ActionPanel's buttons.
  function action(a, turn) {
    if (stream.busy) return;
    const id = String(a.id ?? '');
    if (id === 'regenerate_btn' || id === 'regenerate') {
      regenerate(turn);
    } else if (id === 'adjust_btn' || id === 'adjust') {
      adjustForm(turn);
    } else if (id === 'inpaint_btn' || id === 'inpaint') {
      (turn.canvas || lastCanvas())?.toggleMask?.();
    } else {
      send({ text: String(a.label ?? id) });
    }
  }

  function lastCanvas() {
    for (let i = turns.length - 1; i >= 0; i--) if (turns[i].canvas) return turns[i].canvas;
    return null;
  }

  // A select of the adjust form: "as it is" first, then the choices.
  function choice(name, labelKey, keepKey, options) {
    const id = uid('adj');
    const el = h('select', { id, name }, setT(h('option', { value: '' }), keepKey),
      ...options.map(([value, key, text]) => (key ? setT(h('option', { value }), key) : h('option', { value }, text))));
    return { el, row: h('div', { class: 'tool-row' }, setT(h('label', { for: id }), labelKey), el) };
  }

  // The adjustment the form's controls say, as data.
  function adjustOf(style, strength, light, size) {
    const adjust = { kind: style.value ? 'restyle' : 'params', styleStrength: Number(strength.value) };
    if (style.value) adjust.style = style.value;
    if (light.value) adjust.light = light.value;
    if (size.value) [adjust.width, adjust.height] = size.value.split('x').map(Number);
    return adjust;
  }

  // "再调整一下": the style strength, another style of the library, the
  // light and the size, sent as a new turn (words go in the composer).
  function adjustForm(turn) {
    if (turn.adjust) {
      turn.adjust.querySelector('input')?.focus();
      return;
    }
    const sid = uid('strength');
    const strength = h('input', { type: 'range', id: sid, min: 0, max: 100, step: 5, value: 70 });
    const out = h('output', { for: sid }, '70');
    strength.addEventListener('input', () => { out.textContent = strength.value; });
    const style = choice('style', 'adjust.style', 'adjust.style.keep', []);
    style.row.hidden = true;
    loadStyles().then((ids) => {
      style.el.append(...ids.map((id) => setT(h('option', { value: id }), `style.${id}`)));
      style.row.hidden = ids.length === 0;
    });
    const light = choice('light', 'adjust.light', 'adjust.light.keep', [['brighter', 'adjust.light.brighter'], ['darker', 'adjust.light.darker']]);
    const size = choice('size', 'adjust.size', 'adjust.size.keep', SIZES.map(([w, hh]) => [`${w}x${hh}`, null, `${w} × ${hh}`]));
    const l1 = h('label', { for: sid });
    setT(l1, 'adjust.strength');
    const go = h('button', { type: 'submit', class: 'primary' });
    setT(go, 'adjust.send');
    const cancel = h('button', { type: 'button' });
    setT(cancel, 'mask.cancel');
    const f = h('form', { class: 'adjust-form' }, h('div', { class: 'tool-row' }, l1, strength, out),
      style.row, light.row, size.row, h('div', { class: 'tool-row' }, go, cancel));
    const close = () => { f.remove(); turn.adjust = null; };
    cancel.addEventListener('click', close);
    f.addEventListener('submit', (e) => {
      e.preventDefault();
      const adjust = adjustOf(style.el, strength, light.el, size.el);
      close();
      send({ adjust });
    });
    turn.adjust = f;
    turn.results.append(f);
    strength.focus();
  }

  // A thread opened: the requests this browser sent, else the user's
  // messages from the server's state.
  function opening(id) {
    empty.hidden = true;
    known = turnsOf(id);
  }

  function opened(th) {
    const msgs = th.state?.messages;
    if (Array.isArray(msgs)) fallback = msgs.filter((m) => m?.role === 'user').map((m) => String(m.content ?? ''));
    return { title: (known[0]?.text || fallback[0] || '').slice(0, 80) };
  }

  return view.face;
}
