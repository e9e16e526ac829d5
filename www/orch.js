// The orchestration view (workflow "orchestrate", seed 003): a task with
// attachments and a template, the plan as a card to approve, reject with a
// note or edit in a form, then the plan's groups as columns of stage cards
// that change live (waiting, running, done, failed, skipped), each stage's
// text, structured data and pictures (an annotated picture beside its
// original), and the files of the run's workspace to view and download.
import { h, uid, pretty, safeImageURL } from './dom.js';
import { t, tx, setT, setAttrT, onLang, addWords } from './i18n.js';
import * as words from './i18n-orch.js';
import { ApiError, getJSON, assetURL, pngURL } from './api.js';
import { pauseCard } from './hitl.js';
import { turnsOf, saveTurn } from './store.js';
import { createView, textLimit } from './view.js';
import { examples } from './empty.js';
import { filePicker } from './files.js';
import { openViewer } from './viewer.js';

addWords('orch', words);

const MAX_TASK_BYTES = 4000;
const MAX_FILES = 10;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
// The plan templates the server has (etc/templates.json), in the order of
// the examples of the empty state; needs: what must be attached.
export const TEMPLATES = [
  { id: 'image-ocr-annotate', needs: 'image' },
  { id: 'image-element-detect', needs: 'image' },
  { id: 'code-review-and-fix', needs: 'file' },
];
const STRATEGIES = ['retry', 'skip', 'abort'];
const STATES = ['waiting', 'running', 'done', 'failed', 'skipped'];
const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,.c,.h,.cc,.cpp,.js,.mjs,.ts,.py,.go,.rs,.java,.sh,.txt,.md,.json,.yaml,.yml,.toml,.html,.css,.svg';
const TEXTY = /^(text\/|application\/(json|javascript|xml)|image\/svg\+xml)/;

export function createOrchestrator(root, app) {
  const view = createView(app, {
    id: 'orch', workflow: 'orchestrate', onEvent, onState, ended, started, opening, opened, reset: forget,
    onShow: () => loadAgents(), focus: () => task.focus(),
  });
  const { stream, status, errors } = view;
  const agents = new Map();          // id → the registry's entry
  let agentsLoading = null;

  // -- the task box ------------------------------------------------------------
  const taskId = uid('orch-task');
  const task = h('textarea', { id: taskId, rows: 3, 'aria-describedby': `${taskId}-count` });
  setAttrT(task, 'placeholder', 'orch.task.ph');
  const limit = textLimit(task, MAX_TASK_BYTES, errors);
  const picker = filePicker({ labelKey: 'orch.files', hintKey: 'orch.files.hint', hintParams: { n: MAX_FILES }, accept: ACCEPT, pasteTarget: root, onFiles: (l) => addFiles(l) });
  const previews = h('ul', { class: 'ref-previews ov-attach' });
  const tplId = uid('orch-tpl');
  const tplPick = h('select', { id: tplId, class: 'ov-template' },
    setT(h('option', { value: '' }), 'orch.template.none'),
    TEMPLATES.map((x) => setT(h('option', { value: x.id }), `orch.template.${x.id}`)));
  const stratId = uid('orch-err');
  const stratPick = h('select', { id: stratId, class: 'ov-strategy' },
    setT(h('option', { value: '' }), 'orch.strategy.default'),
    STRATEGIES.map((s) => setT(h('option', { value: s }), `orch.strategy.${s}`)));
  const tplAbout = setT(h('p', { class: 'muted hint ov-template-about' }), 'orch.template.about.none');
  tplPick.addEventListener('change', () => setT(tplAbout, `orch.template.about.${tplPick.value || 'none'}`));
  const startBtn = setT(h('button', { type: 'submit', class: 'primary' }), 'orch.start');
  const form = h('form', { class: 'note-form ov-form', novalidate: true },
    h('div', { class: 'field' }, setT(h('label', { for: taskId }), 'orch.task'), task, h('div', { class: 'composer-row' }, limit.el)),
    h('div', { class: 'field' }, picker.el, previews),
    h('div', { class: 'composer-row ov-options' },
      h('span', { class: 'inline-field' }, setT(h('label', { for: tplId }), 'orch.template'), tplPick),
      h('span', { class: 'inline-field' }, setT(h('label', { for: stratId }), 'orch.strategy'), stratPick)),
    tplAbout,
    h('div', { class: 'composer-row' }, h('span', { class: 'hint' }), startBtn));
  let files = [];                    // [{name, type, size, data (data URL), thumb}]

  const empty = examples('orch', (text, i) => {
    const tpl = TEMPLATES[i - 1];
    task.value = text;
    limit.count();
    if (tpl) {
      tplPick.value = tpl.id;
      setT(tplAbout, `orch.template.about.${tpl.id}`);
    }
    form.requestSubmit();
  });

  // -- the run -------------------------------------------------------------------
  const request = h('div', { class: 'bubble user ov-request', hidden: true });
  const plans = h('div', { class: 'ov-plans' });
  const analysis = h('p', { class: 'ov-analysis', hidden: true });
  const progressText = h('span', {});
  const bar = h('progress', { max: 100, value: 0 });
  const progress = h('div', { class: 'run-progress ov-progress', role: 'status' }, progressText, bar);
  const columns = h('div', { class: 'ov-board' });
  const outcome = h('div', { class: 'ov-outcome', role: 'alert', hidden: true });
  const board = h('section', { class: 'card ov-run', hidden: true },
    setT(h('h3', {}), 'orch.board'), analysis, progress, outcome, columns);
  setAttrT(board, 'aria-label', 'orch.board');
  const fileList = h('ul', { class: 'ov-files' });
  const filesBox = h('section', { class: 'card ov-workspace', hidden: true }, setT(h('h3', {}), 'orch.workspace'),
    setT(h('p', { class: 'muted' }, ''), 'orch.workspace.about'), fileList);

  root.append(view.head, errors.el, empty, form, request, plans, board, filesBox);

  let plan = null;                   // the plan being run (the last plan_ready)
  let stages = new Map();            // stage id → its card
  let workspace = {};                // path → {assetId, mimeType, size, stage?}
  let pauses = [];
  let failed = null;
  let finished = false;
  let sent = null;                   // what this browser sent: {task, template, names}

  // -- attachments -----------------------------------------------------------------
  async function addFiles(list) {
    for (const f of list) {
      if (files.length >= MAX_FILES) {
        errors.say('orch.files.toomany', null, [], { n: MAX_FILES });
        break;
      }
      if (f.size > MAX_FILE_BYTES) {
        errors.say('orch.files.toobig', null, [], { name: f.name, mb: MAX_FILE_BYTES / 1048576 });
        continue;
      }
      try {
        const data = await readData(f);
        const name = uniqueName(f.name || (f.type.startsWith('image/') ? 'image.png' : 'file.txt'));
        files.push({ name, type: f.type || 'text/plain', size: f.size, data, thumb: f.type.startsWith('image/') ? data : null });
      } catch {
        errors.say('orch.files.bad', null, [], { name: f.name });
      }
    }
    showFiles();
  }

  function uniqueName(name) {
    let n = name;
    for (let i = 2; files.some((x) => x.name === n); i++) n = name.replace(/(\.[^.]*)?$/, (ext) => `-${i}${ext || ''}`);
    return n;
  }

  function showFiles() {
    previews.replaceChildren(...files.map((f, i) => {
      const rm = setT(h('button', { type: 'button', class: 'small' }), 'orch.files.remove', { name: f.name });
      rm.addEventListener('click', () => { files.splice(i, 1); showFiles(); picker.focus(); });
      const face = f.thumb ? h('img', { src: f.thumb, alt: f.name })
        : h('span', { class: 'ov-filechip', 'aria-hidden': 'true' }, (f.name.split('.').pop() || '?').slice(0, 5));
      return h('li', { dataset: { name: f.name } }, face, h('span', { class: 'ov-fname' }, f.name), rm);
    }));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = task.value.trim();
    if (!limit.check(text, 'orch.need_task')) return;
    const tpl = TEMPLATES.find((x) => x.id === tplPick.value);
    if (tpl?.needs === 'image' && !files.some((f) => f.type.startsWith('image/'))) {
      errors.say('orch.need_image', null, [], { template: t(`orch.template.${tpl.id}`) });
      picker.focus();
      return;
    }
    if (tpl?.needs === 'file' && !files.length) {
      errors.say('orch.need_file', null, [], { template: t(`orch.template.${tpl.id}`) });
      picker.focus();
      return;
    }
    const input = { task: text };
    if (tpl) input.template = tpl.id;
    if (stratPick.value) input.errorStrategy = stratPick.value;
    if (files.length) input.attachments = files.map((f) => ({ name: f.name, data: f.data, mimeType: f.type }));
    await start(input);
  });
  task.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });

  async function start(input) {
    if (stream.busy) return;
    errors.hide();
    startBtn.disabled = true;
    sent = { task: input.task, template: input.template || null, files: files.map((f) => ({ name: f.name, thumb: f.thumb })) };
    showRequest(sent);
    try {
      await view.start(input);
    } catch (e) {
      request.hidden = true;
      form.hidden = false;
      empty.hidden = false;
      // Not sent (the server down): the form stays filled, and goes again.
      if (!view.unsent(e, null, () => start(input))) {
        errors.show(e);
        status.set('idle');
      }
    } finally {
      startBtn.disabled = false;
    }
  }

  // What was asked: the task, the pictures and files, the template.
  function showRequest(r) {
    request.replaceChildren();
    request.append(h('p', {}, r?.task || t('orch.request_unknown')));
    if (r?.template) request.append(setT(h('span', { class: 'chip' }), `orch.template.${r.template}`));
    for (const f of r?.files || []) {
      request.append(f.thumb ? h('img', { class: 'mask-thumb', src: f.thumb, alt: f.name }) : h('span', { class: 'chip' }, f.name));
    }
    request.hidden = false;
    form.hidden = true;
    empty.hidden = true;
  }

  // -- the agents, by their names ----------------------------------------------------
  function loadAgents() {
    agentsLoading ??= getJSON('agents').then((j) => {
      for (const a of Array.isArray(j.agents) ? j.agents : []) if (a && a.id) agents.set(a.id, a);
      renameAgents();
    }).catch(() => { agentsLoading = null; });
    return agentsLoading;
  }

  // An agent's name in the page's language: the page's word for the
  // registry's agents, else the name the registry gives it.
  function agentName(id) {
    const key = `orch.agent.${id}`;
    if (t(key) !== key) return t(key);
    return String(agents.get(id)?.name || t('orch.agent.unknown'));
  }
  function agentLabel(id) {
    const el = h('span', { class: 'ov-agent', dataset: { agent: String(id ?? '') } }, agentName(id));
    return el;
  }
  function renameAgents() {
    for (const el of root.querySelectorAll('.ov-agent')) el.textContent = agentName(el.dataset.agent);
    for (const o of root.querySelectorAll('option[data-agent]')) o.textContent = agentName(o.dataset.agent);
  }

  // -- the board ------------------------------------------------------------------------
  // The plan's groups as columns, every stage waiting.
  function showPlan(p) {
    plan = p;
    stages = new Map();
    columns.replaceChildren();
    const order = Array.isArray(p.executionOrder) ? p.executionOrder : [];
    const subs = new Map((Array.isArray(p.subtasks) ? p.subtasks : []).map((s) => [s?.id, s]));
    const number = new Map([...subs.keys()].map((id, i) => [id, i + 1]));
    order.forEach((group, g) => {
      const list = h('div', { class: 'ov-stages' });
      const head = h('div', { class: 'ov-col-head' }, setT(h('h4', {}), 'orch.group', { n: g + 1 }),
        (group || []).length > 1 ? setT(h('span', { class: 'muted' }), 'orch.group.together', { n: group.length }) : null);
      const col = h('section', { class: 'ov-col', dataset: { group: String(g + 1) } }, head, list);
      for (const id of group || []) {
        const card = stageCard(id, subs.get(id) || {}, number);
        stages.set(id, card);
        list.append(card.el);
      }
      columns.append(col);
    });
    // A template's plan is said in the page's words; a planner's in its own.
    if (p.template && t(`orch.template.about.${p.template}`) !== `orch.template.about.${p.template}`) setT(analysis, `orch.template.about.${p.template}`);
    else {
      delete analysis.dataset.i18n;
      analysis.textContent = String(p.analysis ?? '');
    }
    analysis.hidden = !analysis.textContent;
    outcome.hidden = true;
    outcome.replaceChildren();
    delete outcome.dataset.kind;
    board.hidden = false;
    setProgress({ group: 1, groups: order.length, done: 0, total: stages.size });
  }

  function setProgress(ev) {
    const total = Number(ev.total) || stages.size;
    const done = Number(ev.done) || 0;
    setT(progressText, 'orch.progress', { g: ev.group ?? 1, groups: ev.groups ?? (plan?.executionOrder?.length || 1), done, total });
    bar.value = total ? Math.round((done / total) * 100) : 0;
  }

  function stageCard(id, sub, number) {
    const chip = h('span', { class: 'badge ov-state' });
    const meta = h('p', { class: 'ov-meta muted' });
    const summary = h('p', { class: 'ov-summary' });
    const pics = h('div', { class: 'ov-pictures' });
    const toolList = h('ol', { class: 'ov-tools' });
    const toolsLine = setT(h('summary', {}), 'orch.tools.calls', { n: 0 });
    const tools = h('details', { class: 'ov-toolbox', hidden: true }, toolsLine, toolList);
    const body = h('div', { class: 'ov-body' });
    const inputs = (Array.isArray(sub.inputs) ? sub.inputs : []).filter((x) => number.has(x));
    const el = h('article', { class: 'ov-stage', dataset: { stage: String(id), state: 'waiting' } },
      h('div', { class: 'ov-stage-head' }, setT(h('span', { class: 'ov-step' }), 'orch.step', { n: number.get(id) ?? '?' }), agentLabel(sub.agent), chip),
      h('p', { class: 'ov-desc' }, String(sub.description ?? '')),
      inputs.length ? setT(h('p', { class: 'muted ov-uses' }), 'orch.uses', { steps: inputs.map((x) => number.get(x)).join(', ') }) : null,
      meta, summary, pics, tools, body);
    const card = { el, chip, meta, summary, pics, tools, toolList, toolsLine, body, agent: sub.agent, calls: new Map(), pictures: new Set(), state: 'waiting', used: [] };
    setState(card, 'waiting');
    return card;
  }

  function setState(card, state) {
    const s = STATES.includes(state) ? state : 'failed';
    card.state = s;
    card.el.dataset.state = s;
    setT(card.chip, `orch.state.${s}`);
    card.chip.dataset.status = { running: 'running', done: 'done', failed: 'error', skipped: 'aborted', waiting: '' }[s];
  }

  function setMeta(card, duration, used) {
    card.meta.replaceChildren();
    if (typeof duration === 'number') card.meta.append(setT(h('span', { class: 'ov-duration' }), 'orch.duration', { s: (duration / 1000).toFixed(1) }));
    const names = Array.isArray(used) ? used : [];
    if (names.length) {
      if (card.meta.childNodes.length) card.meta.append(' · ');
      card.meta.append(setT(h('span', {}), 'orch.tools.used'), ' ', ...names.flatMap((n, i) => [i ? '、' : '', toolWord(n)]));
    }
  }

  function toolWord(name) {
    const key = `orch.tool.${name}`;
    return t(key) !== key ? setT(h('span', { class: 'ov-tool', dataset: { tool: name } }), key) : h('span', { class: 'ov-tool' }, t('orch.tool.other'));
  }

  function toolCall(card, ev) {
    const out = h('div', { class: 'tool-out' });
    const state = setT(h('span', { class: 'badge' }), 'state.running');
    const li = h('li', { dataset: { tool: String(ev.tool ?? '') } }, h('details', { class: 'tool' },
      h('summary', {}, toolWord(ev.tool), ' ', state),
      h('div', { class: 'tool-in' }, tx('tl.input'), h('pre', {}, pretty(ev.toolInput ?? {}))), out));
    card.calls.set(ev.toolCallId, { out, state });
    card.toolList.append(li);
    card.tools.hidden = false;
    setT(card.toolsLine, 'orch.tools.calls', { n: card.toolList.childElementCount });
  }

  function toolResult(card, ev) {
    let call = card.calls.get(ev.toolCallId);
    if (!call) {
      toolCall(card, ev);
      call = card.calls.get(ev.toolCallId);
    }
    const res = ev.toolOutput ?? ev.error ?? null;
    call.out.replaceChildren(tx('tl.output'), h('pre', {}, pretty(res)));
    setT(call.state, res && res.error ? 'state.failed' : 'state.done');
    if (ev.tool === 'image_annotate' && res && !res.error && typeof res.url === 'string') {
      addPicture(card, { assetId: res.assetId, url: res.url, path: res.path, source: res.source || ev.toolInput?.image_path });
    }
  }

  // An annotated picture beside the original it was drawn over.
  function addPicture(card, p) {
    const key = p.assetId || p.url;
    if (!key || card.pictures.has(key)) return;
    card.pictures.add(key);
    const annotated = safeImageURL(p.url || assetURL(p.assetId));
    if (!annotated) return;
    const pair = h('div', { class: 'ov-pair', dataset: { source: String(p.source ?? '') } });
    const original = h('figure', { class: 'ov-fig ov-original' });
    const drawn = figure(annotated, p.path || '', 'orch.pic.annotated');
    drawn.classList.add('ov-annotated');
    pair.append(original, drawn);
    card.pics.append(pair);
    card.pairs = [...(card.pairs || []), { original, source: p.source }];
    fillOriginal(original, p.source);
  }

  function figure(src, name, key) {
    const img = h('img', { src, alt: name, loading: 'lazy' });
    const open = h('button', { type: 'button', class: 'ov-open' }, img);
    setAttrT(open, 'aria-label', 'orch.pic.open', { name });
    open.addEventListener('click', () => openViewer(src, { alt: name, opener: open }));
    return h('figure', { class: 'ov-fig' }, open, h('figcaption', {}, setT(h('span', {}), key), ' ', h('span', { class: 'muted' }, name)));
  }

  // The original: the workspace's copy once the run names it, else the
  // picture this browser attached.
  function fillOriginal(fig, source) {
    if (fig.dataset.filled) return;
    const w = source ? workspace[source] : null;
    const local = sent?.files?.find((f) => f.name === source && f.thumb)?.thumb;
    const src = w?.assetId ? assetURL(w.assetId) : local;
    if (!src) {
      fig.replaceChildren(setT(h('p', { class: 'muted' }), 'orch.pic.original.none', { name: source || '' }));
      return;
    }
    const f = figure(src, source || '', 'orch.pic.original');
    fig.replaceWith(f);
    f.classList.add('ov-original');
    f.dataset.filled = 'true';
    for (const c of stages.values()) for (const p of c.pairs || []) if (p.original === fig) p.original = f;
  }

  // A finished stage's context: its text, its structured data, its files.
  function showContext(card, ctx) {
    if (!ctx || typeof ctx !== 'object') return;
    card.body.replaceChildren();
    // The JSON of the answer shows as structured data, below, not twice.
    let text = String(ctx.textOutput ?? '').trim();
    if (ctx.structuredData !== undefined) text = text.replace(/```json[\s\S]*?```/i, '').trim();
    if (text) {
      card.summary.hidden = true;
      // A long answer folds to its first line; the rest opens below it.
      const [first, ...more] = text.split('\n');
      const long = text.length > 240 || more.length > 3;
      const head = first.length > 140 ? `${first.slice(0, 140)}…` : first;
      card.body.append(long
        ? h('details', { class: 'ov-text' }, h('summary', {}, head), h('div', { class: 'ov-text-all' }, first.length > 140 ? text : more.join('\n').trim()))
        : h('div', { class: 'ov-text' }, text));
    }
    if (ctx.structuredData !== undefined) {
      card.body.append(h('details', { class: 'ov-data' }, setT(h('summary', {}), 'orch.data'), h('pre', { class: 'mono' }, pretty(ctx.structuredData))));
    }
    const made = Array.isArray(ctx.generatedFiles) ? ctx.generatedFiles : [];
    for (const f of made) {
      if (f?.type === 'image' && f.assetId) addPicture(card, { assetId: f.assetId, url: assetURL(f.assetId), path: f.path, source: workspace[f.path]?.source });
    }
    if (made.length) {
      card.body.append(h('p', { class: 'muted ov-made' }, setT(h('span', {}), 'orch.made'), ' ', made.map((f) => String(f?.path ?? '')).join('、')));
    }
    setMeta(card, ctx.metadata?.duration, ctx.metadata?.toolsUsed);
  }

  // -- the workspace ---------------------------------------------------------------------------
  function showWorkspace(ws) {
    workspace = ws && typeof ws === 'object' ? ws : {};
    const paths = Object.keys(workspace).sort((a, b) => Number(!!workspace[a].stage) - Number(!!workspace[b].stage) || a.localeCompare(b));
    const number = new Map((plan?.subtasks || []).map((s, i) => [s?.id, i + 1]));
    fileList.replaceChildren(...paths.map((p) => {
      const w = workspace[p] || {};
      const url = w.assetId ? assetURL(w.assetId) : null;
      const type = String(w.mimeType ?? '');
      const who = w.stage && number.has(w.stage) ? setT(h('span', { class: 'muted' }), 'orch.file.by', { n: number.get(w.stage) })
        : setT(h('span', { class: 'muted' }), 'orch.file.attached');
      const size = h('span', { class: 'muted' }, sizeText(w.size));
      const actions = h('span', { class: 'ov-file-actions' });
      const viewBox = h('div', { class: 'ov-file-view', hidden: true });
      if (url && type.startsWith('image/')) {
        const b = setT(h('button', { type: 'button', class: 'small', dataset: { act: 'open' } }), 'orch.file.open');
        b.addEventListener('click', () => openViewer(url, { alt: p, opener: b }));
        actions.append(b);
      }
      if (url && TEXTY.test(type)) {
        const b = setT(h('button', { type: 'button', class: 'small', dataset: { act: 'view' }, 'aria-expanded': 'false' }), 'orch.file.view');
        b.addEventListener('click', () => viewText(b, viewBox, url));
        actions.append(b);
      }
      if (url) {
        actions.append(setT(h('a', { class: 'button-like small', href: url, download: p.split('/').pop(), dataset: { act: 'download' } }), 'orch.file.download'));
        if (type === 'image/svg+xml' && w.assetId) {
          actions.append(setT(h('a', { class: 'button-like small', href: pngURL(w.assetId), download: `${p.split('/').pop().replace(/\.svg$/i, '')}.png` }), 'orch.file.png'));
        }
      }
      return h('li', { dataset: { path: p } }, h('div', { class: 'ov-file-row' }, h('span', { class: 'ov-path mono' }, p), who, size, actions), viewBox);
    }));
    filesBox.hidden = paths.length === 0;
    for (const c of stages.values()) for (const pr of c.pairs || []) fillOriginal(pr.original, pr.source);
  }

  async function viewText(btn, box, url) {
    const open = box.hidden;
    box.hidden = !open;
    btn.setAttribute('aria-expanded', String(open));
    setT(btn, open ? 'orch.file.hide' : 'orch.file.view');
    if (!open || box.dataset.loaded) return;
    box.replaceChildren(setT(h('p', { class: 'muted' }), 'orch.file.loading'));
    try {
      const res = await fetch(url);
      if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, '');
      const text = await res.text();
      box.replaceChildren(h('pre', { class: 'mono' }, text.length > 200000 ? `${text.slice(0, 200000)}\n…` : text));
      box.dataset.loaded = 'true';
    } catch {
      box.replaceChildren(setT(h('p', { class: 'error-text' }), 'orch.file.failed'));
    }
  }

  // -- the plan card ------------------------------------------------------------------------------
  function planPause(ev) {
    for (const p of pauses) if (p.el.dataset.state === 'open') p.answered({ action: 'other' });
    const fields = planEditor(ev.editable || {}, { agentName, agentIds: () => [...agents.keys()] });
    const card = pauseCard(ev, {
      fields,
      onAnswer: view.answer(ev),
    });
    card.el.classList.add('ov-plan');
    const note = card.el.querySelector(':scope > .field textarea');
    if (note) setAttrT(note, 'placeholder', 'orch.plan.note.ph');
    pauses.push(card);
    plans.append(card.el);
    return card;
  }

  // -- events --------------------------------------------------------------------------------------
  // A new thread: what was asked is remembered here (the server's log does
  // not repeat the attachments).
  function started(ev) {
    const id = ev.threadId;
    if (sent && !turnsOf(id)[0]) saveTurn(id, 0, { task: sent.task, template: sent.template, files: sent.files.map((f) => ({ name: f.name })) });
    return { title: (sent?.task || turnsOf(id)[0]?.task || '').slice(0, 80) };
  }

  function onEvent(ev) {
    switch (ev.type) {
      case 'plan_ready':
        showPlan(ev);
        break;
      case 'ask_user':
        if (ev.context?.kind === 'plan') {
          planPause(ev);
        } else {
          const card = pauseCard(ev, { onAnswer: view.answer(ev) });
          pauses.push(card);
          plans.append(card.el);
        }
        break;
      case 'thought_log':
        if (ev.decision) pauses.filter((p) => p.el.dataset.state !== 'answered').forEach((p) => p.answered(ev.decision));
        break;
      case 'stage_start': {
        const card = stages.get(ev.stageId);
        if (card) {
          setState(card, 'running');
          card.el.scrollIntoView?.({ block: 'nearest' });
        }
        break;
      }
      case 'stage_end': {
        const card = stages.get(ev.stageId);
        if (!card) break;
        setState(card, ev.status);
        setMeta(card, ev.duration, ev.toolsUsed);
        const s = String(ev.summary ?? '').trim();
        card.summary.textContent = s;
        card.summary.hidden = !s;
        break;
      }
      case 'workflow_progress':
        if (ev.total != null) setProgress(ev);
        break;
      case 'tool_call': {
        const card = stages.get(ev.stageId);
        if (card) toolCall(card, ev);
        break;
      }
      case 'tool_result': {
        const card = stages.get(ev.stageId);
        if (card) toolResult(card, ev);
        break;
      }
      case 'error':
        failed = ev;
        showOutcome();
        break;
      case 'workflow_complete':
        finished = true;
        // One without the run's result (threads of earlier versions had a
        // bare one after it) leaves the page as it is.
        if (!ev.stages && !ev.files) break;
        if (ev.plan && !plan) showPlan(ev.plan);
        showWorkspace(ev.files);
        for (const [id, st] of Object.entries(ev.stages || {})) {
          const card = stages.get(id);
          if (!card) continue;
          if (st?.status) setState(card, st.status);
          showContext(card, st?.context);
        }
        if (typeof ev.success === 'boolean') board.dataset.success = String(ev.success);
        showOutcome(ev);
        break;
      default:
        break;
    }
  }

  function showOutcome(done) {
    outcome.replaceChildren();
    if (failed) {
      outcome.dataset.kind = 'error';
      outcome.append(setT(h('p', { class: 'error-title' }), 'orch.failed'), h('p', {}, String(failed.message || t('err.unknown'))));
      outcome.hidden = false;
    } else if (done) {
      const n = [...stages.values()].filter((c) => c.state === 'done').length;
      outcome.dataset.kind = done.success === false ? 'partial' : 'ok';
      outcome.append(setT(h('p', { class: 'ov-done' }), done.success === false ? 'orch.partial' : 'orch.done', { n, total: stages.size }));
      outcome.hidden = false;
    }
  }

  // A run that ended with an error is not "done", whatever the stream says.
  function ended() {
    return failed ? 'error' : null;
  }

  function onState(state) {
    if (state === 'done' && !finished && !failed && stages.size) {
      for (const c of stages.values()) if (c.state === 'running') setState(c, 'failed');
    }
  }

  function forget() {
    plan = null;
    stages = new Map();
    workspace = {};
    pauses = [];
    failed = null;
    finished = false;
    sent = null;
    files = [];
    showFiles();
    task.value = '';
    limit.count();
    plans.replaceChildren();
    columns.replaceChildren();
    fileList.replaceChildren();
    delete board.dataset.success;
    board.hidden = true;
    filesBox.hidden = true;
    request.hidden = true;
    form.hidden = false;
    empty.hidden = false;
  }

  // A thread opened: what was asked, as this browser sent it, else the
  // task from the thread's state.
  function opening(id) {
    form.hidden = true;
    empty.hidden = true;
    const asked = turnsOf(id)[0] || null;
    sent = asked ? { task: asked.task, template: asked.template, files: asked.files || [] } : null;
    showRequest(sent);
  }

  function opened(th) {
    const taskText = typeof th.state?.task === 'string' ? th.state.task : '';
    if (!sent && taskText) {
      sent = { task: taskText, template: null, files: [] };
      showRequest(sent);
    }
    return { title: (sent?.task || '').slice(0, 80) };
  }

  onLang(() => renameAgents());
  view.reset();

  return view.face;
}

// The plan's editor for the pause card (hitl.js): the plan as its groups
// to read; to edit, a form with one row per step (its agent, what it does,
// the group it runs in, the steps whose results it uses), steps removed or
// added; the plan as JSON behind a summary. changes() gives subtasks and
// executionOrder as the server takes them.
export function planEditor(values, { agentName, agentIds }) {
  const original = {
    subtasks: Array.isArray(values.subtasks) ? values.subtasks : [],
    executionOrder: Array.isArray(values.executionOrder) ? values.executionOrder : [],
  };
  const groupOf = new Map();
  original.executionOrder.forEach((g, i) => (Array.isArray(g) ? g : []).forEach((id) => groupOf.set(id, i + 1)));
  const fresh = () => original.subtasks.filter((s) => s && typeof s === 'object').map((s) => ({
    ...s,
    inputs: new Set(Array.isArray(s.inputs) ? s.inputs : []),
    group: groupOf.get(s.id) || 1,
  }));
  let rows = fresh();
  let editing = false;
  const readView = h('div', { class: 'ov-plan-read' });
  const formView = h('div', { class: 'ov-plan-form', hidden: true });
  const json = h('pre', { class: 'mono' });
  const el = h('div', { class: 'editable ov-plan-edit', dataset: { editing: 'false' } }, readView, formView,
    h('details', { class: 'ov-plan-json' }, setT(h('summary', {}), 'orch.plan.json'), json));

  const number = () => new Map(rows.map((r, i) => [r.id, i + 1]));
  const order = () => {
    const gs = [...new Set(rows.map((r) => r.group))].sort((a, b) => a - b);
    return gs.map((g) => rows.filter((r) => r.group === g).map((r) => r.id));
  };
  // Each step as the server gave it, its keys in their order.
  const subtasks = () => rows.map((r) => {
    const o = {};
    for (const k of Object.keys(r)) {
      if (k === 'group') continue;
      o[k] = k === 'inputs' ? [...r.inputs].filter((x) => rows.some((y) => y.id === x)) : r[k];
    }
    return o;
  });

  function renderRead() {
    const nums = number();
    readView.replaceChildren(h('ol', { class: 'ov-plan-groups' }, order().map((g, i) => h('li', {},
      setT(h('span', { class: 'ov-plan-group' }), g.length > 1 ? 'orch.plan.group.together' : 'orch.plan.group', { n: i + 1 }),
      h('ul', { class: 'ov-plan-steps' }, g.map((id) => {
        const r = rows.find((x) => x.id === id);
        const uses = [...r.inputs].filter((x) => nums.has(x)).map((x) => nums.get(x));
        return h('li', { dataset: { stage: String(id) } }, setT(h('strong', {}), 'orch.step', { n: nums.get(id) }), ' ',
          h('span', { class: 'ov-agent', dataset: { agent: String(r.agent ?? '') } }, agentName(r.agent)), ' — ', String(r.description ?? ''),
          uses.length ? [' ', setT(h('span', { class: 'muted' }), 'orch.uses', { steps: uses.join(', ') })] : null);
      }))))));
    json.textContent = pretty({ subtasks: subtasks(), executionOrder: order() });
  }

  function renderForm() {
    const nums = number();
    // The planner plans; it is not one of the steps (the server refuses it).
    const ids = [...new Set([...agentIds().filter((a) => a !== 'planner'), ...rows.map((r) => r.agent)])].filter(Boolean);
    const maxGroup = Math.min(rows.length, Math.max(1, ...rows.map((r) => r.group)) + 1);
    formView.replaceChildren(...rows.map((r, i) => {
      const fid = uid('ov-step');
      const agent = h('select', { id: `${fid}-agent`, dataset: { field: 'agent' } }, ids.map((a) => h('option', { value: a, dataset: { agent: a } }, agentName(a))));
      agent.value = r.agent;
      agent.addEventListener('change', () => { r.agent = agent.value; json.textContent = pretty({ subtasks: subtasks(), executionOrder: order() }); });
      const desc = h('textarea', { id: `${fid}-desc`, rows: 2, dataset: { field: 'description' } });
      desc.value = String(r.description ?? '');
      desc.addEventListener('input', () => { r.description = desc.value; json.textContent = pretty({ subtasks: subtasks(), executionOrder: order() }); });
      const group = h('select', { id: `${fid}-group`, dataset: { field: 'group' } },
        Array.from({ length: Math.max(maxGroup, r.group) }, (_, g) => setT(h('option', { value: String(g + 1) }), 'orch.plan.group', { n: g + 1 })));
      group.value = String(r.group);
      group.addEventListener('change', () => { r.group = Number(group.value); renderForm(); });
      const others = rows.filter((x) => x.id !== r.id);
      const uses = others.length ? h('fieldset', { class: 'ov-uses-pick' }, setT(h('legend', {}), 'orch.plan.uses'),
        others.map((o) => {
          const cb = h('input', { type: 'checkbox', value: String(o.id), checked: r.inputs.has(o.id) });
          cb.addEventListener('change', () => { if (cb.checked) r.inputs.add(o.id); else r.inputs.delete(o.id); json.textContent = pretty({ subtasks: subtasks(), executionOrder: order() }); });
          return h('label', { class: 'choice' }, cb, ' ', setT(h('span', {}), 'orch.step', { n: nums.get(o.id) }), ' ', h('span', { class: 'muted' }, agentName(o.agent)));
        })) : null;
      const rm = setT(h('button', { type: 'button', class: 'small ov-remove', dataset: { stage: String(r.id) } }), 'orch.plan.remove', { n: i + 1 });
      rm.addEventListener('click', () => {
        rows = rows.filter((x) => x !== r);
        for (const x of rows) x.inputs.delete(r.id);
        renderForm();
      });
      return h('fieldset', { class: 'ov-step-edit', dataset: { stage: String(r.id) } },
        setT(h('legend', {}), 'orch.step', { n: i + 1 }),
        h('div', { class: 'composer-row' },
          h('span', { class: 'inline-field' }, setT(h('label', { for: `${fid}-agent` }), 'orch.plan.agent'), agent),
          h('span', { class: 'inline-field' }, setT(h('label', { for: `${fid}-group` }), 'orch.plan.when'), group), rm),
        h('div', { class: 'field' }, setT(h('label', { for: `${fid}-desc` }), 'orch.plan.what'), desc), uses);
    }));
    const add = setT(h('button', { type: 'button', class: 'small ov-add' }), 'orch.plan.add');
    add.addEventListener('click', () => {
      let k = rows.length + 1;
      while (rows.some((r) => r.id === `step-${k}`)) k++;
      const last = Math.max(1, ...rows.map((r) => r.group));
      rows.push({ id: `step-${k}`, agent: ids[0] || 'coordinator', description: '', inputs: new Set(), priority: last + 1, group: last + 1 });
      renderForm();
      formView.querySelector('.ov-step-edit:last-of-type textarea')?.focus();
    });
    formView.append(add);
    json.textContent = pretty({ subtasks: subtasks(), executionOrder: order() });
  }

  renderRead();
  return {
    el,
    count: 1,
    setEditing(on) {
      editing = on;
      el.dataset.editing = on ? 'true' : 'false';
      readView.hidden = on;
      formView.hidden = !on;
      if (on) renderForm();
      else renderRead();
    },
    reset() {
      rows = fresh();
      if (editing) renderForm();
      renderRead();
    },
    focus() { formView.querySelector('select, textarea')?.focus(); },
    changes() {
      if (!rows.length) return { error: t('orch.plan.err.none') };
      const nums = number();
      const gi = new Map();
      order().forEach((g, i) => g.forEach((id) => gi.set(id, i)));
      for (const r of rows) {
        if (!String(r.description ?? '').trim()) return { error: t('orch.plan.err.what', { n: nums.get(r.id) }) };
        for (const x of r.inputs) {
          if (nums.has(x) && gi.get(x) >= gi.get(r.id)) return { error: t('orch.plan.err.order', { n: nums.get(r.id), m: nums.get(x) }) };
        }
      }
      const out = {};
      const s = subtasks();
      const o = order();
      if (JSON.stringify(s) !== JSON.stringify(original.subtasks)) out.subtasks = s;
      if (JSON.stringify(o) !== JSON.stringify(original.executionOrder)) out.executionOrder = o;
      return { changes: out };
    },
  };
}

function sizeText(n) {
  const b = Number(n);
  if (!Number.isFinite(b) || b < 0) return '';
  if (b < 1024) return t('orch.size.bytes', { n: b });
  if (b < 1048576) return `${(b / 1024).toFixed(1)} KB`;
  return `${(b / 1048576).toFixed(1)} MB`;
}

function readData(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error);
    r.onload = () => resolve(String(r.result));
    r.readAsDataURL(file);
  });
}
