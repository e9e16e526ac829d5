// The workflow editor (workflow "graph_edit", seed 002): the workflow on a
// canvas, a chat for changes asked in words, the node library to add from,
// undo and redo, import and export of the workflow's JSON. What the person
// does by hand goes to the server as a patch turn (add a node, connect,
// delete) or, for moved nodes, as the canvas with the next turn; the
// server answers each turn with the new workflow (workflow_update) or the
// reasons it refused the change (patch_rejected).
import { h, uid, pretty } from './dom.js';
import { t, tx, setT, setAttrT, onLang, getLang, addWords } from './i18n.js';
import * as words from './i18n-graph.js';
import { getJSON } from './api.js';
import { stepsTurn, endStepsTurn } from './timeline.js';
import { turnsOf, saveTurn } from './store.js';
import { toast } from './ui.js';
import { createView, textLimit, sendOnEnter } from './view.js';
import { examples } from './empty.js';
import { createCanvas, nameOf, nodeTitle, nodeSize, TYPE_COLOURS } from './graphcanvas.js';

addWords('graph', words);

const MAX_TEXT_BYTES = 4000;
const EMPTY = () => ({ name: 'untitled', nodes: [], edges: [], viewport: { x: 24, y: 24, zoom: 1 } });

export function createGraphEditor(root, app) {
  const view = createView(app, {
    id: 'graph', workflow: 'graph_edit', onEvent, onState, ended, started, opening, opened, reset: forget,
    onShow: () => loadLibrary(), focus: () => input.focus(),
  });
  const { stream, errors } = view;
  const defs = new Map();
  let library = [];                  // the definitions in the library's order

  // -- the canvas and its tools -------------------------------------------
  const canvas = createCanvas({
    defs: () => defs,
    onConnect: (edge) => sendPatch([{ op: 'add', path: '/edges/-', value: edge }],
      ['graph.you.connect', { ...both('from', edge.source), ...both('to', edge.target) }]),
    onDelete: (sel) => removeSelected(sel),
    onMove: (node) => moved(node),
    onSelect: (sel) => { delBtn.disabled = !sel; },
  });
  setAttrT(canvas.el, 'aria-label', 'graph.canvas');
  const tool = (key, icon, onclick, cls = 'small') => {
    const b = h('button', { type: 'button', class: cls, onclick });
    if (icon) {
      b.append(h('span', { 'aria-hidden': 'true' }, icon));
      setAttrT(b, 'aria-label', key);
      setAttrT(b, 'title', key);
    } else {
      setT(b, key);
    }
    return b;
  };
  const delBtn = tool('graph.delete', null, () => canvas.selected && removeSelected(canvas.selected));
  delBtn.classList.add('gv-delete');
  delBtn.disabled = true;
  const sheetBtns = ['chat', 'nodes'].map((p) => {
    const b = tool(`graph.tab.${p}`, null, () => openSheet(p));
    b.classList.add('gv-sheet-open');
    b.dataset.panel = p;
    b.setAttribute('aria-expanded', 'false');
    return b;
  });
  const legend = h('ul', { class: 'gv-legend' }, Object.entries(TYPE_COLOURS).map(([type, colour]) =>
    h('li', { dataset: { type } }, h('span', { class: 'gv-swatch', style: `background:${colour}`, 'aria-hidden': 'true' }),
      tx(`graph.type.${type}`))));
  const legendBox = h('details', { class: 'gv-legend-box' }, setT(h('summary', {}), 'graph.legend'), legend);
  const empty = examples('graph', (text) => {
    input.value = text;
    limit.count();
    form.requestSubmit();
  });
  empty.classList.add('gv-empty');
  const undoBtn = tool('graph.undo', null, () => command('undo'));
  const redoBtn = tool('graph.redo', null, () => command('redo'));
  const fileInput = h('input', { type: 'file', accept: '.json,application/json', class: 'visually-hidden', tabindex: '-1' });
  const importBtn = tool('graph.import', null, () => fileInput.click());
  const exportBtn = tool('graph.export', null, () => exportJSON());
  const stage = h('div', { class: 'gv-stage' },
    h('div', { class: 'gv-toolbar' },
      h('span', { class: 'gv-group' }, tool('graph.zoom_out', '−', () => canvas.zoomOut()), tool('graph.zoom_in', '+', () => canvas.zoomIn()),
        tool('graph.fit', null, () => canvas.fit())),
      h('span', { class: 'gv-group' }, undoBtn, redoBtn),
      h('span', { class: 'gv-group gv-files' }, importBtn, exportBtn, fileInput),
      delBtn, h('span', { class: 'gv-group gv-sheets' }, ...sheetBtns)),
    h('div', { class: 'gv-frame' }, canvas.el, empty), legendBox);

  // -- the side panel: chat and the node library ----------------------------
  const conversation = h('ol', { class: 'conversation gv-turns' });
  const inputId = uid('graph-text');
  const input = h('textarea', { id: inputId, rows: 2, 'aria-describedby': `${inputId}-count` });
  setAttrT(input, 'placeholder', 'graph.placeholder');
  const limit = textLimit(input, MAX_TEXT_BYTES, errors);
  const sendBtn = setT(h('button', { type: 'submit', class: 'primary' }), 'graph.send');
  const form = h('form', { class: 'composer gv-composer', novalidate: true },
    setT(h('label', { for: inputId }), 'graph.prompt'), input, h('div', { class: 'composer-row' }, limit.el, sendBtn));
  const chatPanel = h('div', { class: 'gv-panel', dataset: { panel: 'chat' } }, conversation, form);

  const searchId = uid('graph-search');
  const search = h('input', { id: searchId, type: 'search', autocomplete: 'off' });
  setAttrT(search, 'placeholder', 'graph.search.ph');
  const paletteList = h('ul', { class: 'gv-palette' });
  const paletteNote = h('p', { class: 'muted hint', role: 'status' });
  const nodesPanel = h('div', { class: 'gv-panel', dataset: { panel: 'nodes' }, hidden: true },
    setT(h('label', { for: searchId }), 'graph.search'), search, paletteNote, paletteList);

  const tabs = ['chat', 'nodes'].map((p) => {
    const b = setT(h('button', { type: 'button', class: 'small gv-tab', dataset: { panel: p }, 'aria-pressed': String(p === 'chat') }), `graph.tab.${p}`);
    b.addEventListener('click', () => showPanel(p));
    return b;
  });
  const closeBtn = tool('graph.close', '×', () => closeSheet(), 'icon gv-sheet-close');
  const side = h('aside', { class: 'gv-side' }, h('div', { class: 'gv-tabs' }, ...tabs, closeBtn), chatPanel, nodesPanel);
  setAttrT(side, 'aria-label', 'graph.side');

  // -- the head ------------------------------------------------------------------
  root.append(view.head, errors.el, h('div', { class: 'gv-layout' }, stage, side));

  let turns = [];
  let current = null;
  let known = [];           // what each turn asked, from this browser
  let dirty = false;        // the canvas differs from the server's (moved, imported)
  let movedNow = new Map(); // nodes moved while a turn runs: id → position
  let queue = [];           // hand edits made while a turn runs
  let redoable = 0;

  // -- panels and sheets ---------------------------------------------------------
  function showPanel(p) {
    chatPanel.hidden = p !== 'chat';
    nodesPanel.hidden = p !== 'nodes';
    for (const b of tabs) b.setAttribute('aria-pressed', String(b.dataset.panel === p));
    if (p === 'nodes' && !library.length) loadLibrary();
    if (p === 'chat') conversation.scrollTop = conversation.scrollHeight;
  }
  function openSheet(p) {
    showPanel(p);
    side.classList.add('open');
    for (const b of sheetBtns) b.setAttribute('aria-expanded', String(b.dataset.panel === p));
    (p === 'nodes' ? search : input).focus({ preventScroll: true });
  }
  function closeSheet() {
    side.classList.remove('open');
    for (const b of sheetBtns) b.setAttribute('aria-expanded', 'false');
  }

  // -- the node library ------------------------------------------------------------
  let libraryLoading = null;
  function loadLibrary() {
    libraryLoading ??= getJSON('nodes').then((j) => {
      library = Array.isArray(j.nodes) ? j.nodes : [];
      for (const d of library) defs.set(d.type, d);
      renderPalette(library);
      canvas.render();
    }).catch((e) => {
      libraryLoading = null;
      setT(paletteNote, 'graph.library_failed');
      errors.show(e, [{ key: 'stream.retry', onclick: () => { errors.hide(); loadLibrary(); } }]);
    });
    return libraryLoading;
  }

  let shown = [];
  function renderPalette(list) {
    shown = list;
    paletteList.replaceChildren(...list.map((d) => {
      const name = h('span', { class: 'gv-pal-name' }, nameOf(d, d.type));
      const about = h('span', { class: 'gv-pal-about muted' }, String((getLang() === 'zh' ? d.description_zh : d.description_en) || ''));
      const b = h('button', { type: 'button', class: 'gv-pal-add', dataset: { type: d.type } }, h('span', { class: 'gv-pal-plus', 'aria-hidden': 'true' }, '+'), h('span', { class: 'gv-pal-text' }, name, about));
      b.addEventListener('click', () => addNode(d));
      return h('li', {}, b);
    }));
    if (!list.length) setT(paletteNote, 'graph.search.none');
    else setT(paletteNote, search.value.trim() ? 'graph.search.count' : 'graph.library.count', { n: list.length });
  }

  let searchTimer = null;
  let searchSeq = 0;
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(async () => {
      const q = search.value.trim();
      const seq = ++searchSeq;
      await loadLibrary();
      if (!q) {
        renderPalette(library);
        return;
      }
      try {
        const j = await getJSON(`nodes?q=${encodeURIComponent(q)}&limit=20`);
        if (seq !== searchSeq) return;
        renderPalette((j.results || []).map((r) => defs.get(r.id)).filter(Boolean));
      } catch (e) {
        if (seq === searchSeq) errors.show(e);
      }
    }, 200);
  });

  // -- what the person does by hand --------------------------------------------------
  // A node's name in both languages ({from_en, from_zh}), for the line
  // that says what the person did: the language switch rewrites it.
  const both = (key, id) => {
    const n = canvas.workflow.nodes.find((x) => x.id === id);
    const d = n ? defs.get(n.type) : null;
    const own = n ? nodeTitle(n, null) : id;
    const named = (l) => (d && own === n.type ? (l === 'zh' ? d.name_zh || d.name_en : d.name_en || d.name_zh) : own);
    return { [`${key}_en`]: named('en'), [`${key}_zh`]: named('zh') };
  };

  // A new node goes where the person is looking, in free space.
  function addNode(d) {
    const at = canvas.freeSpot(nodeSize(d));
    sendPatch([{ op: 'add', path: '/nodes/-', value: { localId: 'a', type: d.type, position: at } }], ['graph.you.add', { name_en: d.name_en || d.type, name_zh: d.name_zh || d.name_en || d.type }]);
    closeSheet();
  }

  function removeSelected(sel) {
    if (sel.kind === 'node') {
      sendPatch([{ op: 'remove', path: `/nodes/${sel.id}` }], ['graph.you.remove', both('name', sel.id)]);
    } else {
      const e = canvas.workflow.edges.find((x) => x.id === sel.id);
      if (!e) return;
      sendPatch([{ op: 'remove', path: `/edges/${sel.id}` }], ['graph.you.disconnect', { ...both('from', e.source), ...both('to', e.target) }]);
    }
    canvas.select(null);
  }

  function moved(node) {
    dirty = true;
    if (stream.busy) movedNow.set(node.id, { ...node.position });
    exportBtn.disabled = false;
  }

  function command(cmd) {
    send({ command: cmd }, [`graph.you.${cmd}`, null]);
  }

  // -- import and export ---------------------------------------------------------------
  fileInput.addEventListener('change', async () => {
    const f = fileInput.files[0];
    fileInput.value = '';
    if (!f) return;
    let wf;
    try {
      wf = JSON.parse(await f.text());
    } catch {
      errors.say('graph.import.bad', 'graph.import.bad.next');
      return;
    }
    if (!wf || typeof wf !== 'object' || !Array.isArray(wf.nodes) || (wf.edges != null && !Array.isArray(wf.edges)) ||
        wf.nodes.some((n) => !n || typeof n.id !== 'string' || typeof n.type !== 'string')) {
      errors.say('graph.import.bad', 'graph.import.bad.next');
      return;
    }
    errors.hide();
    await loadLibrary();
    showWorkflow({ name: typeof wf.name === 'string' ? wf.name : 'untitled', ...wf, edges: wf.edges || [] }, true);
    dirty = true;
    toast('graph.imported', { n: wf.nodes.length });
  });

  function exportJSON() {
    const wf = canvas.workflow;
    const blob = new Blob([`${JSON.stringify(wf, null, 2)}\n`], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `${String(wf.name || 'workflow').replace(/[^\w\u4e00-\u9fff-]+/g, '_')}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  function showWorkflow(wf, fitView) {
    canvas.set(wf, { fitView });
    const n = wf.nodes.length;
    empty.hidden = n > 0 || turns.length > 0;
    exportBtn.disabled = n === 0;
  }

  // -- turns ------------------------------------------------------------------------------
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!limit.check(text, 'graph.need_text')) return;
    if (stream.busy) {
      errors.say('err.thread_busy', 'err.thread_busy.next');
      return;
    }
    input.value = '';
    limit.count();
    send({ text }, null).then((ok) => {
      if (ok === false && !input.value) input.value = text;
      limit.count();
    });
  });
  sendOnEnter(input, form);

  function sendPatch(patch, said) {
    return send({ patch }, said);
  }

  // A turn: what the person asked (words, or a hand edit said in words),
  // the steps, and the answer.
  function newTurn(asked) {
    const user = h('div', { class: 'bubble user' });
    if (asked?.text) user.append(h('p', {}, asked.text));
    else if (asked?.said) user.append(setT(h('p', { class: 'gv-hand' }), asked.said[0], asked.said[1] || undefined));
    else user.append(tx('graph.request_unknown', null, 'p'));
    const progress = h('div', { class: 'turn-progress', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), tx('graph.working'));
    const turn = { ...stepsTurn(user, progress), asked, said: new Set() };
    conversation.append(turn.el);
    conversation.scrollTop = conversation.scrollHeight;
    empty.hidden = true;
    turns.push(turn);
    return turn;
  }

  function endTurn(turn, state) {
    if (endStepsTurn(turn, state)) conversation.scrollTop = conversation.scrollHeight;
  }

  function say(turn, text, cls = 'gv-reply') {
    const s = String(text ?? '').trim();
    if (!s || turn.said.has(s)) return;
    turn.said.add(s);
    turn.results.append(h('p', { class: cls }, s));
  }

  // The change as applied: its summary, the patch behind it.
  // The agent's reply names the operations as the patch does: it goes
  // with the patch, behind the summary.
  function applied(turn, ev) {
    const reply = String(ev.reply ?? '').trim();
    turn.said.add(String(ev.summary ?? '').trim());
    turn.said.add(reply);
    const box = h('details', { class: 'gv-applied', dataset: { version: String(ev.version ?? '') } },
      h('summary', {}, h('span', { class: 'gv-ok', 'aria-hidden': 'true' }, '✓ '), String(ev.summary ?? '')),
      reply && reply !== ev.summary ? h('p', { class: 'gv-reply' }, reply) : null,
      tx('graph.patch.json', null, 'p'), h('pre', {}, pretty(ev.patch ?? [])));
    turn.results.append(box);
  }

  // A refused change: each reason in words, the patch behind them.
  function rejected(turn, ev) {
    const list = h('ul', { class: 'gv-errors' });
    for (const e of Array.isArray(ev.errors) ? ev.errors : []) {
      const code = String(e?.code ?? '');
      const key = t(`graph.code.${code}`) !== `graph.code.${code}` ? `graph.code.${code}` : 'graph.code.other';
      const li = h('li', { dataset: { code } }, setT(h('span', {}), key));
      if (Number.isInteger(e?.index) && e.index >= 0) li.append(' ', setT(h('span', { class: 'muted' }), 'graph.rejected.at', { n: e.index + 1 }));
      list.append(li);
    }
    turn.said.add(String(ev.message ?? '').trim());
    turn.results.append(h('div', { class: 'gv-rejected', role: 'alert' },
      tx('graph.rejected.title', null, 'p'), list, tx('graph.rejected.next', null, 'p'),
      h('details', {}, tx('graph.patch.show', null, 'summary'), h('pre', {}, pretty(ev.patch ?? [])),
        h('pre', { class: 'muted' }, (ev.errors || []).map((e) => `${e?.path ?? ''}: ${e?.message ?? ''}`).join('\n')))));
  }

  // A new thread: its first request is remembered here (the server's log
  // does not repeat it).
  function started(ev) {
    if (current?.asked && !known[0]) {
      known[0] = current.asked;
      saveTurn(ev.threadId, 0, known[0]);
    }
    return { title: threadTitle() };
  }

  function onEvent(ev) {
    if (!current || current.ended) current = newTurn(known[turns.length] || null);
    const turn = current;
    turn.events++;
    turn.timeline.add(ev);
    if (typeof ev.timestamp === 'number') {
      if (turn.t0 == null) turn.t0 = ev.timestamp;
      turn.t1 = ev.timestamp;
    }
    switch (ev.type) {
      case 'agent_start':
        turn.steps++;
        setT(turn.stepsLine, 'steps.running', { n: turn.steps });
        break;
      case 'workflow_update':
        if (ev.workflow && Array.isArray(ev.workflow.nodes)) {
          const wf = ev.workflow;
          // Nodes moved by hand while the turn ran stay where they were put.
          for (const n of wf.nodes) if (movedNow.has(n.id)) n.position = movedNow.get(n.id);
          wf.viewport = canvas.workflow.viewport || wf.viewport;
          const grew = wf.nodes.length > canvas.workflow.nodes.length;
          showWorkflow(wf, !canvas.workflow.nodes.length);
          if (grew && !canvas.allInView()) canvas.fit();
        }
        if (ev.command === 'undo') redoable++;
        else if (ev.command === 'redo') redoable = Math.max(0, redoable - 1);
        else redoable = 0;
        applied(turn, ev);
        break;
      case 'patch_rejected':
        rejected(turn, ev);
        break;
      case 'message':
        say(turn, ev.content);
        break;
      case 'error':
        turn.failed = ev;
        say(turn, ev.message || t('err.unknown'), 'error-text');
        break;
      case 'ask_user':
      case 'thought_log':
        view.turnPause(turn, ev);
        break;
      case 'workflow_complete':
        endTurn(turn, turn.failed ? 'failed' : 'done');
        break;
      default:
        break;
    }
    buttons();
  }

  function threadTitle() {
    const first = known[0];
    if (first?.text) return first.text.slice(0, 80);
    return t('graph.title');
  }

  function buttons() {
    const busy = stream.busy;
    sendBtn.disabled = busy;
    undoBtn.disabled = !view.threadId || busy;
    redoBtn.disabled = !view.threadId || busy || redoable === 0;
  }

  // A run that ended with an error is not "done", whatever the stream says.
  function ended() {
    return current?.failed ? 'error' : null;
  }

  function onState(state) {
    if (state === 'done' || state === 'failed' || state === 'paused') {
      if (current && !current.ended && state === 'done') endTurn(current, current.failed ? 'failed' : 'done');
      if (state === 'failed') current?.timeline.settle('stopped');
      movedNow = new Map();
      // Hand edits made meanwhile go now, one turn each.
      if (state === 'done' && queue.length) setTimeout(() => {
        const [next, said] = queue.shift();
        send(next, said);
      }, 0);
    }
    buttons();
  }

  // Sends a turn: {text} | {patch} | {command}, with the canvas when it
  // changed here (moved nodes, an import). A hand edit made while a turn
  // runs waits for it.
  async function send(req, said) {
    if (stream.busy) {
      if (req.patch) queue.push([req, said]);
      else errors.say('err.thread_busy', 'err.thread_busy.next');
      return false;
    }
    errors.hide();
    const i = turns.length;
    const asked = req.text ? { text: req.text } : { said };
    const turn = newTurn(asked);
    current = turn;
    if (view.threadId) {
      known[i] = asked;
      saveTurn(view.threadId, i, asked);
    }
    const body = { ...req };
    const wasDirty = dirty;
    if (dirty || (!view.threadId && canvas.workflow.nodes.length)) body.workflow = structuredClone(canvas.workflow);
    dirty = false;
    buttons();
    try {
      await view.send(body, { multitask: req.patch ? 'enqueue' : undefined });
    } catch (e) {
      dirty = wasDirty;
      // Not sent (the server down): the request stays, and goes again.
      const kept = view.unsent(e, turn.el, () => send(req, said));
      if (!kept) turn.el.remove();
      turns.pop();
      current = turns[turns.length - 1] || null;
      empty.hidden = kept || canvas.workflow.nodes.length > 0 || turns.length > 0;
      if (!kept) view.refused(e);
      buttons();
      return kept ? 'unsent' : false;
    }
    return true;
  }

  function forget() {
    turns = [];
    current = null;
    known = [];
    queue = [];
    dirty = false;
    redoable = 0;
    movedNow = new Map();
    conversation.replaceChildren();
    showWorkflow(EMPTY(), false);
    buttons();
  }

  // A thread opened: what this browser asked in it, and the node library.
  function opening(id) {
    known = turnsOf(id);
    empty.hidden = true;
    loadLibrary();
  }

  function opened() {
    return { title: threadTitle() };
  }

  onLang(() => {
    canvas.render();
    if (library.length) renderPalette(shown);
  });
  view.reset();

  return view.face;
}
