// A pause (ask_user, seed 001 §5.2): the question, the fields the person
// may change (ask_user.editable: title, body and tags of a draft, or the
// image plans), and the answer: approve, reject, or modify with the fields
// edited in place. Only the fields that changed are sent, each with the
// JSON type it came with.
import { h, pretty, uid } from './dom.js';
import { t, tx, setT, setAttrT, label as labelOf, onLang } from './i18n.js';
import { explain } from './api.js';
import { getPref, setPref } from './store.js';

// Texts a card composes from several translated pieces (a refusal, a form
// error): written again in the new language when the page's changes.
const relang = new Map();
onLang(() => {
  for (const [el, fn] of relang) {
    if (el.isConnected) fn();
    else relang.delete(el);
  }
});
function sayAgain(el, fn) {
  fn();
  relang.set(el, fn);
}

const ACTIONS = ['approve', 'reject', 'modify'];
const LONG = /body|prompt|description|text|content|caption|reason|summary/i;

// onAnswer(action, payload, hooks) resolves once the answer is taken,
// rejects with the server's refusal (the card then asks again); it calls
// hooks.onUnsent() while the answer could not be sent (it is sent again
// when the network is back) and hooks.onAccepted() once the server has it.
// fields: an editor of the view's own for the editable values (the
// orchestration plan's form), with the interface of editor() below.
export function pauseCard(ev, { onAnswer, onDone, fields: own }) {
  const editable = ev.editable && typeof ev.editable === 'object' && !Array.isArray(ev.editable) ? ev.editable : {};
  const kind = ev.context?.kind ?? 'question';
  const card = h('section', { class: 'pause-card', dataset: { kind, state: 'open' }, 'aria-labelledby': uid('pause') });
  const heading = h('h3', { id: card.getAttribute('aria-labelledby') });
  setT(heading, 'pause.title');
  const kindChip = h('span', { class: 'chip' });
  setT(kindChip, `pause.kind.${['content', 'image_plans', 'clarification', 'plan', 'quality'].includes(kind) ? kind : 'other'}`);
  card.append(h('div', { class: 'pause-head' }, heading, kindChip),
    h('p', { class: 'question' }, String(ev.question ?? '')));

  // Why an edit was refused: the server's reasons beside the question.
  if (Array.isArray(ev.errors) && ev.errors.length) {
    card.append(h('div', { class: 'pause-errors', role: 'alert' }, tx('pause.refused', null, 'p'),
      h('ul', {}, ev.errors.map((e) => h('li', {}, String(e?.message ?? e?.code ?? e ?? ''))))));
  }
  // What changed since the draft sent back, and why it came back.
  if (ev.context?.changes && typeof ev.context.changes === 'object') card.append(changesList(ev.context.changes));
  // What became of each item of the person's feedback.
  if (Array.isArray(ev.context?.feedback) && ev.context.feedback.length) card.append(feedbackList(ev.context.feedback));
  const fields = own || editor(editable);
  if (fields.el) card.append(fields.el);

  const options = Array.isArray(ev.options) && ev.options.length ? ev.options : ACTIONS.map((id) => ({ id }));
  const choices = options.filter((o) => o && !ACTIONS.includes(o.id));
  const picked = new Set();
  if (choices.length) {
    const multiple = ev.selectionType === 'multiple';
    const name = uid('choice');
    const box = h('fieldset', { class: 'choices' }, h('legend', {}, tx(multiple ? 'pause.pickmany' : 'pause.pickone')));
    for (const o of choices) {
      const input = h('input', { type: multiple ? 'checkbox' : 'radio', name, value: String(o.id ?? o.label ?? '') });
      input.addEventListener('change', () => {
        if (!multiple) picked.clear();
        if (input.checked) picked.add(String(o.label ?? o.id));
        else picked.delete(String(o.label ?? o.id));
      });
      box.append(h('label', { class: 'choice' }, input, ' ', String(o.label ?? o.id ?? '')));
    }
    card.append(box);
  }

  const fbId = uid('fb');
  const feedback = h('textarea', { id: fbId, rows: 2, maxlength: 4000 });
  setAttrT(feedback, 'placeholder', 'pause.feedback.ph');
  const fbLabel = h('label', { for: fbId });
  setT(fbLabel, 'pause.feedback');
  if (ev.allowCustomInput !== false || choices.length) card.append(h('div', { class: 'field' }, fbLabel, feedback));

  const buttons = h('div', { class: 'pause-actions' });
  const status = h('p', { class: 'pause-status', role: 'status' });
  const byId = {};
  // The three actions by their id: the server's label (seed 001's
  // {id, label}, in the thread's language), else the page's word for the id.
  const label = (id) => {
    const o = options.find((x) => x && x.id === id);
    return typeof o?.label === 'string' && o.label ? h('span', {}, o.label) : labelOf('span', `option.${id}`, id);
  };
  const hasEdit = fields.count > 0;
  const ask = kind === 'clarification' || (choices.length > 0 && !options.some((o) => o?.id === 'approve'));
  if (ask) {
    // A question: approve sends the answer, reject goes on without one.
    byId.approve = h('button', { type: 'button', class: 'primary', dataset: { action: 'approve' } });
    setT(byId.approve, 'action.answer');
    byId.reject = h('button', { type: 'button', dataset: { action: 'reject' } });
    setT(byId.reject, 'action.skip');
    buttons.append(byId.approve, byId.reject);
  } else {
    for (const id of ['approve', 'reject']) {
      if (!options.some((o) => o?.id === id)) continue;
      byId[id] = h('button', { type: 'button', class: id === 'approve' ? 'primary' : '', dataset: { action: id } }, label(id));
      buttons.append(byId[id]);
    }
  }
  if (hasEdit) {
    byId.modify = h('button', { type: 'button', dataset: { action: 'modify' } }, label('modify'));
    byId.save = h('button', { type: 'button', class: 'primary', dataset: { action: 'save' }, hidden: true });
    setT(byId.save, 'pause.save');
    byId.cancel = h('button', { type: 'button', hidden: true });
    setT(byId.cancel, 'pause.cancel');
    buttons.append(byId.modify, byId.save, byId.cancel);
  }
  card.append(buttons, status);
  if (ev.deadline) {
    const p = h('p', { class: 'muted' });
    setT(p, 'pause.deadline', { time: new Date(ev.deadline).toLocaleTimeString() });
    card.append(p);
  }

  const all = () => [...card.querySelectorAll('button, input, textarea, select')];
  const setEditing = (on) => {
    fields.setEditing(on);
    card.dataset.editing = on ? 'true' : 'false';
    for (const id of ['approve', 'reject', 'modify']) if (byId[id]) byId[id].hidden = on;
    if (byId.save) byId.save.hidden = !on;
    if (byId.cancel) byId.cancel.hidden = !on;
    if (on) fields.focus();
    else byId.modify?.focus();
  };

  async function answer(action) {
    let payload = {};
    if (action === 'modify') {
      const r = fields.changes();
      if (r.error) {
        sayAgain(status, () => { status.textContent = fields.changes().error || ''; });
        status.dataset.kind = 'error';
        return;
      }
      if (!Object.keys(r.changes).length) {
        relang.delete(status);
        setT(status, 'pause.nochange');
        status.dataset.kind = 'error';
        return;
      }
      payload = r.changes;
    }
    const typed = feedback.value.trim();
    const note = [picked.size ? [...picked].join(', ') : '', typed].filter(Boolean).join('\n');
    if (note) payload.feedback = note;
    const record = { action, picked: [...picked], feedback: typed, fields: action === 'modify' ? Object.keys(payload).filter((k) => k !== 'feedback') : [] };
    for (const el of all()) el.disabled = true;
    relang.delete(status);
    setT(status, 'pause.sending');
    status.dataset.kind = '';
    const hooks = {
      onUnsent() {
        card.dataset.state = 'unsent';
        relang.delete(status);
        setT(status, 'pause.unsent');
        status.dataset.kind = 'error';
      },
      onAccepted() { done(action, record); },
    };
    try {
      await onAnswer(action, payload, hooks);
      done(action, record);
    } catch (e) {
      if (card.dataset.state === 'answered') return;
      card.dataset.state = 'open';
      for (const el of all()) el.disabled = false;
      sayAgain(status, () => {
        const x = explain(e);
        status.textContent = `${x.title} ${x.next}${e.detail ? ` (${e.detail})` : ''}`;
      });
      status.dataset.kind = 'error';
    }
  }

  // The answer in words: what was chosen or typed for a question, what was
  // done with a draft, and the note written to the agents. An answer given
  // in this browser is remembered (by interruptId), so a reload says the same.
  function done(action, given) {
    if (card.dataset.state === 'answered') return;
    const record = given || savedAnswer(ev.interruptId) || { action };
    if (given) saveAnswer(ev.interruptId, given);
    card.dataset.state = 'answered';
    for (const el of all()) el.disabled = true;
    fields.setEditing(false);
    buttons.hidden = true;
    // What was asked stays readable behind a summary; the answer shows.
    for (const el of card.querySelectorAll(':scope > .editable, :scope > .choices, :scope > .field')) el.hidden = true;
    const act = record.action || action;
    const picked = (record.picked || []).join('、');
    const typed = record.feedback || '';
    if (ask && act === 'approve' && (picked || typed)) {
      setT(status, 'pause.answered.choice', { answer: picked || typed });
    } else if (ask) {
      setT(status, act === 'reject' ? 'pause.answered.skip' : 'pause.answered.other');
    } else if (act === 'modify' && record.fields?.length) {
      setT(status, 'pause.answered.modify_fields', { fields: record.fields.map(fieldLabel).join('、') });
    } else {
      setT(status, ['approve', 'reject', 'modify'].includes(act) ? `pause.answered.${act}` : 'pause.answered.other');
    }
    status.dataset.kind = 'ok';
    card.querySelector('.pause-feedback')?.remove();
    if (typed && !(ask && !picked)) {
      const p = h('p', { class: 'pause-feedback' });
      setT(p, 'pause.answered.feedback', { text: typed });
      status.after(p);
    }
    onDone?.(act);
  }

  byId.approve?.addEventListener('click', () => answer('approve'));
  byId.reject?.addEventListener('click', () => answer('reject'));
  byId.modify?.addEventListener('click', () => setEditing(true));
  byId.cancel?.addEventListener('click', () => { fields.reset(); setEditing(false); });
  byId.save?.addEventListener('click', () => answer('modify'));

  return { el: card, answered: done, interruptId: ev.interruptId, focus: () => (byId.approve || byId.modify)?.focus() };
}

// The editable fields, shown as the result they are (a draft, a list of
// plans) and turned into inputs in place when editing.
function editor(values) {
  const keys = Object.keys(values);
  if (!keys.length) return { el: null, count: 0, setEditing() {}, changes: () => ({ changes: {} }), reset() {}, focus() {} };
  const el = h('div', { class: 'editable', dataset: { editing: 'false' } });
  const items = [];
  const order = ['title', 'body', 'tags', 'imagePlans'];
  keys.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  for (const key of keys) {
    const item = key === 'imagePlans' && Array.isArray(values[key]) ? plansField(values[key]) : field(key, values[key]);
    items.push({ key, ...item });
    el.append(item.el);
  }
  return {
    el,
    count: items.length,
    setEditing(on) {
      el.dataset.editing = on ? 'true' : 'false';
      for (const it of items) it.setEditing(on);
    },
    reset() { for (const it of items) it.reset(); },
    focus() { items[0]?.focus(); },
    changes() {
      const changes = {};
      for (const it of items) {
        const r = it.value();
        if (r.error) return { error: r.error };
        if (JSON.stringify(r.value) !== JSON.stringify(values[it.key])) changes[it.key] = r.value;
      }
      return { changes };
    },
  };
}

// A draft against the one before it (ask_user.context.changes): one line
// per section added (+), removed (−) or changed (~), the title and tags,
// how much of the person's own text was kept, and the reasons it came back.
function changesList(ch) {
  const list = (x) => (Array.isArray(x) ? x.map(String) : []);
  const items = [];
  const row = (kind, key, text) => items.push(setT(h('li', { dataset: { diff: kind } }), key, { text }));
  if (ch.title && typeof ch.title === 'object') row('changed', 'pause.changes.title', `${ch.title.from ?? ''} → ${ch.title.to ?? ''}`);
  for (const s of list(ch.added)) row('added', 'pause.changes.added', s);
  for (const s of list(ch.removed)) row('removed', 'pause.changes.removed', s);
  for (const s of list(ch.changed)) row('changed', 'pause.changes.changed', s);
  for (const s of list(ch.tags?.added)) row('added', 'pause.changes.added', `#${s}`);
  for (const s of list(ch.tags?.removed)) row('removed', 'pause.changes.removed', `#${s}`);
  if (!items.length) items.push(tx('pause.changes.none', null, 'li'));
  const box = h('div', { class: 'pause-changes' }, tx('pause.changes', null, 'p'), h('ul', {}, items));
  if (list(ch.kept).length) box.append(tx('pause.changes.kept', { n: list(ch.kept).length }, 'p'));
  const why = [...list(ch.reasons), ...(typeof ch.feedback === 'string' && ch.feedback ? [ch.feedback] : [])];
  if (why.length) box.append(tx('pause.changes.why', { text: why.join('；') }, 'p'));
  return box;
}

// The person's feedback item by item (ask_user.context.feedback): each
// done (✓) or not (✗), with what was done or why not.
function feedbackList(items) {
  const rows = items.filter((e) => e && typeof e === 'object').map((e) => setT(
    h('li', { dataset: { done: e.done === true ? 'yes' : 'no' } }),
    e.done === true ? 'pause.feedback.done' : 'pause.feedback.not',
    { item: String(e.text ?? e.arg ?? ''), text: String(e.said ?? '') }));
  return h('div', { class: 'pause-changes pause-items' }, tx('pause.feedback.items', null, 'p'), h('ul', {}, rows));
}

function fieldLabel(key) {
  const k = `field.${key}`;
  return t(k) === k ? key : t(k);
}

// Names and places of things (ids, indexes) are shown, not edited.
const FIXED = /^(id|index|taskId|sequence)$|Id$|Index$/;

// One field by its JSON type: text, a list of words (tags), a number, a
// switch, or JSON text for anything else.
function field(key, value) {
  const id = uid(`f-${key}`);
  const lab = labelOf('label', `field.${key}`, key);
  lab.htmlFor = id;
  lab.className = 'field-label';
  const view = h('div', { class: `field-view field-${key}` });
  if (FIXED.test(key) && (typeof value === 'string' || typeof value === 'number')) {
    view.textContent = String(value);
    const el = h('div', { class: 'field fixed', dataset: { field: key } }, h('span', { class: 'field-label' }, fieldLabel(key)), view);
    return { el, setEditing() {}, reset() {}, focus() {}, value: () => ({ value }) };
  }
  let input;
  let read;
  if (typeof value === 'string') {
    const long = LONG.test(key) || value.length > 80 || value.includes('\n');
    input = long ? h('textarea', { id, rows: Math.min(16, Math.max(4, value.split('\n').length + 1)) }) : h('input', { id, type: 'text' });
    input.value = value;
    read = () => ({ value: input.value });
    view.textContent = value;
  } else if (Array.isArray(value) && value.every((x) => typeof x === 'string')) {
    input = h('input', { id, type: 'text', 'aria-describedby': `${id}-hint` });
    input.value = value.join(', ');
    read = () => ({ value: input.value.split(/[,，、\n]/).map((s) => s.trim().replace(/^#/, '')).filter(Boolean) });
    view.append(...value.map((s) => h('span', { class: 'tag' }, `#${s}`)));
  } else if (typeof value === 'number') {
    input = h('input', { id, type: 'number', step: 'any' });
    input.value = String(value);
    read = () => (input.value.trim() === '' || Number.isNaN(Number(input.value))
      ? { error: t('pause.badnumber', { field: fieldLabel(key) }) } : { value: Number(input.value) });
    view.textContent = String(value);
  } else if (typeof value === 'boolean') {
    input = h('input', { id, type: 'checkbox' });
    input.checked = value;
    read = () => ({ value: input.checked });
    view.textContent = value ? '✓' : '✗';
  } else {
    input = h('textarea', { id, rows: 6, class: 'mono' });
    input.value = pretty(value);
    read = () => {
      try {
        return { value: JSON.parse(input.value) };
      } catch {
        return { error: t('pause.badjson', { field: fieldLabel(key) }) };
      }
    };
    view.append(h('pre', {}, pretty(value)));
  }
  const hint = Array.isArray(value) ? h('span', { id: `${id}-hint`, class: 'muted hint', hidden: true }) : null;
  if (hint) setT(hint, 'pause.tagshint');
  input.hidden = true;
  const el = h('div', { class: 'field', dataset: { field: key } }, lab, view, input, hint);
  const initial = input.type === 'checkbox' ? input.checked : input.value;
  return {
    el,
    setEditing(on) {
      input.hidden = !on;
      view.hidden = on;
      if (hint) hint.hidden = !on;
    },
    reset() { if (input.type === 'checkbox') input.checked = initial; else input.value = initial; },
    focus() { input.focus(); },
    value: read,
  };
}

// What a plan holds for the machine (its number, which paragraph by id):
// kept as it is, not shown: the card's head numbers the picture.
const PLAN_HIDDEN = /^(sequence|imageSeq|taskId|id)$|Id$/;
// A picture's role, said in words and chosen from a list.
const ROLES = ['cover', 'content', 'summary'];

function hiddenField(value) {
  return { el: null, setEditing() {}, reset() {}, focus() {}, value: () => ({ value }) };
}

function roleField(value) {
  const id = uid('f-role');
  const lab = labelOf('label', 'field.role', 'role');
  lab.htmlFor = id;
  lab.className = 'field-label';
  const roles = ROLES.includes(value) ? ROLES : [...ROLES, value];
  const select = h('select', { id, hidden: true }, roles.map((r) => {
    const o = h('option', { value: r });
    if (ROLES.includes(r)) setT(o, `pause.role.${r}`);
    else o.textContent = String(r);
    return o;
  }));
  select.value = value;
  const view = h('div', { class: 'field-view field-role' });
  if (ROLES.includes(value)) setT(view, `pause.role.${value}`);
  else view.textContent = String(value);
  const el = h('div', { class: 'field', dataset: { field: 'role' } }, lab, view, select);
  return {
    el,
    setEditing(on) { select.hidden = !on; view.hidden = on; },
    reset() { select.value = value; },
    focus() { select.focus(); },
    value: () => ({ value: select.value }),
  };
}

// One field of a plan: hidden, the role as words, the paragraph by its
// place (1 for the first), or like any other field.
function planField(key, value) {
  if (PLAN_HIDDEN.test(key)) return hiddenField(value);
  if (key === 'role' && typeof value === 'string') return roleField(value);
  if (key === 'paragraphIndex' && Number.isInteger(value)) {
    const f = hiddenField(value);
    f.el = h('div', { class: 'field fixed', dataset: { field: key } }, tx('pause.paragraph', { n: value + 1 }, 'span'));
    return f;
  }
  return field(key, value);
}

// The image plans: one card per plan, its fields edited like the others.
function plansField(plans) {
  const head = labelOf('div', 'field.imagePlans', 'imagePlans');
  head.className = 'field-label';
  const el = h('div', { class: 'field plans', dataset: { field: 'imagePlans' } }, head);
  const list = h('ol', { class: 'plan-list' });
  const rows = plans.map((plan, i) => {
    const li = h('li', { class: 'plan' });
    const title = h('div', { class: 'plan-head' });
    setT(title, 'pause.plan', { n: i + 1 });
    li.append(title);
    if (!plan || typeof plan !== 'object' || Array.isArray(plan)) {
      const f = field(String(i), plan);
      li.append(f.el);
      return { li, fields: [[null, f]] };
    }
    const fields = Object.entries(plan).map(([k, v]) => {
      const f = planField(k, v);
      if (f.el) li.append(f.el);
      return [k, f];
    });
    return { li, fields };
  });
  list.append(...rows.map((r) => r.li));
  el.append(list);
  const each = (fn) => rows.forEach((r) => r.fields.forEach(([, f]) => fn(f)));
  return {
    el,
    setEditing(on) { each((f) => f.setEditing(on)); },
    reset() { each((f) => f.reset()); },
    focus() { rows[0]?.fields[0]?.[1].focus(); },
    value() {
      const out = [];
      for (const r of rows) {
        if (r.fields.length === 1 && r.fields[0][0] === null) {
          const v = r.fields[0][1].value();
          if (v.error) return v;
          out.push(v.value);
          continue;
        }
        const o = {};
        for (const [k, f] of r.fields) {
          const v = f.value();
          if (v.error) return v;
          o[k] = v.value;
        }
        out.push(o);
      }
      return { value: out };
    },
  };
}

function savedAnswer(id) {
  const all = getPref('answers', {});
  return id && all && typeof all === 'object' ? all[id] || null : null;
}

function saveAnswer(id, record) {
  if (!id) return;
  const all = getPref('answers', {});
  const keep = Object.entries(all && typeof all === 'object' ? all : {}).slice(-49);
  setPref('answers', Object.fromEntries([...keep, [id, record]]));
}
