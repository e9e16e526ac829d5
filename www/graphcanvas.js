// The workflow canvas of the graph editor: nodes as boxes (title, input
// slots on the left, outputs on the right, parameters with their values),
// edges as curves, in one SVG. Sizes follow docs/workflows.md's formula,
// the one the server's layout uses, so laid-out boxes never overlap. The
// person pans (drag the background), zooms (wheel, pinch, buttons), moves
// a node (drag it), connects (drag from an output to a fitting input) and
// selects a node or an edge to delete it. The canvas only reports what was
// asked for (onConnect, onDelete, onMove); the view turns that into a turn.
import { t } from './i18n.js';
import { getLang } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

// A slot's colour by its data type (the legend shows the same).
export const TYPE_COLOURS = {
  STRING: '#2e8b57', INTEGER: '#2563eb', FLOAT: '#0e8fb0', BOOLEAN: '#c2570c', OBJECT: '#7c3aed',
  ARRAY: '#a16207', BINARY: '#d0367f', WILDCARD: '#7b8494', CONVERTIBLE_ANY: '#475569',
};

export const NODE_W = 240;
const HEAD = 36;
const SLOT_ROW = 24;
const PARAM_ROW = 28;
const PAD = 12;
const ZOOM_MIN = 0.2;
// The smallest text on a node (the slot and parameter names, app.css) and
// the least it may be drawn at on a phone (narrower than PHONE_W).
const SMALLEST_TEXT_PX = 12;
const READABLE_PX = 11;
const PHONE_W = 600;
const ZOOM_MAX = 3;

const count = (o) => (o && typeof o === 'object' ? Object.keys(o).length : 0);

// A node's box from its type's definition (docs/workflows.md, "Node sizes").
export function nodeSize(def) {
  if (!def) return { w: NODE_W, h: 72 };
  return { w: NODE_W, h: HEAD + SLOT_ROW * Math.max(count(def.inputs), count(def.outputs)) + PARAM_ROW * count(def.configValues) + PAD };
}

// Whether an output of type `out` may feed an input of type `inp`.
export function fits(out, inp) {
  if (!out || !inp) return false;
  if (out === inp || out === 'WILDCARD' || inp === 'WILDCARD') return true;
  if (out === 'CONVERTIBLE_ANY' || inp === 'CONVERTIBLE_ANY') return true;
  return out === 'INTEGER' && inp === 'FLOAT';
}

// A definition's or a slot's name in the page's language.
export function nameOf(x, fallback) {
  if (!x) return String(fallback ?? '');
  return String((getLang() === 'zh' ? x.name_zh || x.name_en : x.name_en || x.name_zh) || x.displayName || fallback || '');
}

// What a node is called on the canvas: the name the person or the model
// gave it, else its type's name in the page's language.
export function nodeTitle(node, def) {
  const own = typeof node?.displayName === 'string' ? node.displayName.trim() : '';
  if (own && (!def || (own !== def.name_zh && own !== def.name_en))) return own;
  return nameOf(def, node?.type || '?');
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : String(c));
  return el;
}

function clip(text, n) {
  const str = String(text);
  return str.length > n ? `${str.slice(0, n - 1)}…` : str;
}

// A parameter's value as people read it.
function valueText(v, decl) {
  if (v === undefined) v = decl?.default;
  if (v === undefined || v === null || v === '') return '–';
  if (typeof v === 'boolean') return t(v ? 'graph.on' : 'graph.off');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// The type a slot carries now: a CONVERTIBLE_ANY slot has the type its
// first edge gave it (data.convertibleTypes), when it has one.
function slotType(node, def, side, slot) {
  const decl = def?.[side]?.[slot];
  if (!decl) return 'WILDCARD';
  if (decl.type === 'CONVERTIBLE_ANY') return node?.data?.convertibleTypes?.[side]?.[slot] || 'CONVERTIBLE_ANY';
  return decl.type;
}

export function createCanvas({ defs, onConnect, onDelete, onMove, onSelect }) {
  const root = s('g', { class: 'gv-root' });
  const edgeLayer = s('g', { class: 'gv-edges' });
  const nodeLayer = s('g', { class: 'gv-nodes' });
  // Edges that pass behind another node's body are drawn again above the
  // nodes (dashed), so no connection is hidden.
  const overLayer = s('g', { class: 'gv-edges-over', 'aria-hidden': 'true' });
  const ghost = s('path', { class: 'gv-ghost', d: '' });
  root.append(edgeLayer, nodeLayer, overLayer, ghost);
  const svg = s('svg', { class: 'gv-svg', tabindex: '0', role: 'application' }, root);

  let wf = { name: 'untitled', nodes: [], edges: [], viewport: { x: 0, y: 0, zoom: 1 } };
  let view = { x: 0, y: 0, zoom: 1 };
  let selected = null;               // {kind: 'node' | 'edge', id}
  const boxes = new Map();           // node id → {g, node, def, w, h}
  const pointers = new Map();        // pointerId → {x, y}
  let drag = null;

  const def = (node) => defs().get(node?.type) || null;
  const nodeById = (id) => wf.nodes.find((n) => n.id === id);

  function applyView() {
    root.setAttribute('transform', `translate(${view.x} ${view.y}) scale(${view.zoom})`);
    wf.viewport = { x: Math.round(view.x), y: Math.round(view.y), zoom: Math.round(view.zoom * 1000) / 1000 };
    svg.dataset.zoom = String(Math.round(view.zoom * 100));
  }

  // Nodes without a position (an imported workflow may lack them) go in a
  // column to the right of the others.
  function placeMissing() {
    let right = 0;
    for (const n of wf.nodes) if (n.position) right = Math.max(right, n.position.x + NODE_W);
    let y = 0;
    for (const n of wf.nodes) {
      if (n.position && Number.isFinite(n.position.x) && Number.isFinite(n.position.y)) continue;
      n.position = { x: right + 80, y };
      y += nodeSize(def(n)).h + 40;
    }
  }

  function slotEl(node, d, side, key, i) {
    const decl = d?.[side]?.[key];
    const type = slotType(node, d, side, key);
    const out = side === 'outputs';
    const cy = HEAD + SLOT_ROW * i + SLOT_ROW / 2;
    const cx = out ? NODE_W : 0;
    const g = s('g', { class: 'gv-slot', 'data-side': out ? 'out' : 'in', 'data-slot': key, 'data-type': type, 'data-node': node.id },
      s('circle', { class: 'gv-hit', cx, cy, r: 13 }),
      s('circle', { class: 'gv-dot', cx, cy, r: 6, fill: TYPE_COLOURS[type] || TYPE_COLOURS.WILDCARD }),
      s('text', { x: out ? NODE_W - 14 : 14, y: cy + 4, 'text-anchor': out ? 'end' : 'start', class: 'gv-slot-name' },
        clip(nameOf(decl, key), 15)));
    g.append(s('title', {}, `${nameOf(decl, key)} · ${t(`graph.type.${type}`)}`));
    return g;
  }

  function nodeEl(node) {
    const d = def(node);
    const { w, h: hh } = nodeSize(d);
    const title = nodeTitle(node, d);
    const g = s('g', { class: 'gv-node', 'data-id': node.id, 'data-type': node.type, tabindex: '0', role: 'button',
      'aria-label': title, transform: `translate(${node.position.x} ${node.position.y})` });
    g.append(s('rect', { class: 'gv-box', width: w, height: hh, rx: 8 }),
      s('path', { class: 'gv-head', d: `M0 8a8 8 0 0 1 8-8h${w - 16}a8 8 0 0 1 8 8v${HEAD - 8}h-${w}z` }),
      s('text', { class: 'gv-title', x: 12, y: 23 }, clip(title, 26)));
    if (!d) g.append(s('text', { class: 'gv-unknown', x: 12, y: HEAD + 20 }, clip(t('graph.unknown_type', { type: node.type }), 30)));
    const ins = d ? Object.keys(d.inputs || {}) : [];
    const outs = d ? Object.keys(d.outputs || {}) : [];
    ins.forEach((k, i) => g.append(slotEl(node, d, 'inputs', k, i)));
    outs.forEach((k, i) => g.append(slotEl(node, d, 'outputs', k, i)));
    const top = HEAD + SLOT_ROW * Math.max(ins.length, outs.length);
    Object.entries(d?.configValues || {}).forEach(([k, decl], i) => {
      const y = top + PARAM_ROW * i;
      const v = node.data?.configValues?.[k];
      g.append(s('g', { class: 'gv-param', 'data-param': k },
        s('rect', { class: 'gv-param-bg', x: 8, y: y + 3, width: w - 16, height: PARAM_ROW - 6, rx: 4 }),
        s('text', { class: 'gv-param-name', x: 14, y: y + 18 }, clip(nameOf(decl, k), 14)),
        s('text', { class: 'gv-param-value', x: w - 14, y: y + 18, 'text-anchor': 'end' }, clip(valueText(v, decl), 16))));
    });
    boxes.set(node.id, { g, node, def: d, w, h: hh, ins, outs });
    return g;
  }

  function slotPoint(id, side, slot) {
    const b = boxes.get(id);
    if (!b) return null;
    const list = side === 'out' ? b.outs : b.ins;
    let i = list.indexOf(slot);
    if (i < 0) i = 0;
    return { x: b.node.position.x + (side === 'out' ? b.w : 0), y: b.node.position.y + HEAD + SLOT_ROW * i + SLOT_ROW / 2 };
  }

  function curve(a, b) {
    const dx = Math.max(40, Math.abs(b.x - a.x) / 2);
    return `M${a.x} ${a.y}C${a.x + dx} ${a.y} ${b.x - dx} ${b.y} ${b.x} ${b.y}`;
  }

  // Whether the curve a→b (curve()'s) passes through a node other than
  // the two it joins.
  function hidden(a, b, ends) {
    const dx = Math.max(40, Math.abs(b.x - a.x) / 2);
    const p = [a, { x: a.x + dx, y: a.y }, { x: b.x - dx, y: b.y }, b];
    for (let i = 1; i < 32; i++) {
      const t = i / 32;
      const u = 1 - t;
      const k = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
      const x = k[0] * p[0].x + k[1] * p[1].x + k[2] * p[2].x + k[3] * p[3].x;
      const y = k[0] * p[0].y + k[1] * p[1].y + k[2] * p[2].y + k[3] * p[3].y;
      for (const [id, bx] of boxes) {
        if (ends.includes(id)) continue;
        const q = bx.node.position;
        if (x > q.x && x < q.x + bx.w && y > q.y && y < q.y + bx.h) return true;
      }
    }
    return false;
  }

  function drawEdges() {
    edgeLayer.replaceChildren();
    overLayer.replaceChildren();
    for (const e of wf.edges) {
      const a = slotPoint(e.source, 'out', e.sourceHandle);
      const b = slotPoint(e.target, 'in', e.targetHandle);
      if (!a || !b) continue;
      const src = boxes.get(e.source);
      const type = slotType(src.node, src.def, 'outputs', e.sourceHandle);
      const d = curve(a, b);
      const g = s('g', { class: 'gv-edge', 'data-id': e.id, 'data-source': e.source, 'data-target': e.target,
        'aria-selected': selected?.kind === 'edge' && selected.id === e.id ? 'true' : 'false' },
      s('path', { class: 'gv-edge-hit', d }),
      s('path', { class: 'gv-edge-line', d, stroke: TYPE_COLOURS[type] || TYPE_COLOURS.WILDCARD }));
      edgeLayer.append(g);
      if (hidden(a, b, [e.source, e.target])) {
        overLayer.append(s('path', { class: 'gv-edge-over', d, 'data-id': e.id, stroke: TYPE_COLOURS[type] || TYPE_COLOURS.WILDCARD }));
      }
    }
  }

  function render() {
    placeMissing();
    boxes.clear();
    nodeLayer.replaceChildren(...wf.nodes.map(nodeEl));
    drawEdges();
    markSelected();
    svg.dataset.nodes = String(wf.nodes.length);
  }

  function markSelected() {
    for (const [id, b] of boxes) b.g.setAttribute('aria-pressed', String(selected?.kind === 'node' && selected.id === id));
    for (const g of edgeLayer.children) g.setAttribute('aria-selected', String(selected?.kind === 'edge' && selected.id === g.dataset.id));
  }

  function select(sel) {
    if (sel && sel.kind === 'node' && !nodeById(sel.id)) sel = null;
    if (sel && sel.kind === 'edge' && !wf.edges.some((e) => e.id === sel.id)) sel = null;
    selected = sel;
    markSelected();
    onSelect?.(selected);
  }

  // Screen (client) coordinates to canvas units.
  function toCanvas(cx, cy) {
    const r = svg.getBoundingClientRect();
    return { x: (cx - r.left - view.x) / view.zoom, y: (cy - r.top - view.y) / view.zoom };
  }

  function zoomAt(factor, cx, cy) {
    const r = svg.getBoundingClientRect();
    const px = cx ?? r.left + r.width / 2;
    const py = cy ?? r.top + r.height / 2;
    const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, view.zoom * factor));
    const k = z / view.zoom;
    view.x = px - r.left - (px - r.left - view.x) * k;
    view.y = py - r.top - (py - r.top - view.y) * k;
    view.zoom = z;
    applyView();
  }

  // Where a node of size {w, h} goes so the person sees it: the free place
  // nearest the middle of what the canvas shows, clear of every node.
  function freeSpot(size) {
    const r = svg.getBoundingClientRect();
    const gap = 24;
    const mid = { x: (r.width / 2 - view.x) / view.zoom - size.w / 2, y: (r.height / 2 - view.y) / view.zoom - size.h / 2 };
    const clear = (x, y) => [...boxes.values()].every((b) => {
      const q = b.node.position;
      return x + size.w + gap <= q.x || q.x + b.w + gap <= x || y + size.h + gap <= q.y || q.y + b.h + gap <= y;
    });
    const step = 40;
    for (let ring = 0; ring <= 60; ring++) {
      let best = null;
      for (let i = -ring; i <= ring; i++) {
        for (const [dx, dy] of [[i, -ring], [i, ring], [-ring, i], [ring, i]]) {
          const x = Math.round(mid.x + dx * step);
          const y = Math.round(mid.y + dy * step);
          const d = dx * dx + dy * dy;
          if ((!best || d < best.d) && clear(x, y)) best = { x, y, d };
        }
      }
      if (best) return { x: best.x, y: best.y };
    }
    return { x: Math.round(mid.x), y: Math.round(mid.y) };
  }

  function fit() {
    const r = svg.getBoundingClientRect();
    if (!wf.nodes.length || !r.width || !r.height) {
      view = { x: 24, y: 24, zoom: 1 };
      applyView();
      return;
    }
    let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
    for (const n of wf.nodes) {
      const { w, h: hh } = nodeSize(def(n));
      x0 = Math.min(x0, n.position.x); y0 = Math.min(y0, n.position.y);
      x1 = Math.max(x1, n.position.x + w); y1 = Math.max(y1, n.position.y + hh);
    }
    const pad = 24;
    // On a phone the text stays readable (11 px at least): what does not
    // fit then is reached by panning, from the top left.
    const least = r.width < PHONE_W ? READABLE_PX / SMALLEST_TEXT_PX : ZOOM_MIN;
    const z = Math.min(1.25, Math.max(least, Math.min((r.width - 2 * pad) / (x1 - x0), (r.height - 2 * pad) / (y1 - y0))));
    const cx = (r.width - (x1 - x0) * z) / 2;
    const cy = (r.height - (y1 - y0) * z) / 2;
    view = { zoom: z, x: Math.max(pad, cx) - x0 * z, y: Math.max(pad, cy) - y0 * z };
    applyView();
  }

  // While a connection is dragged: each input says whether it may take it.
  function markTargets(from) {
    const src = boxes.get(from.node);
    const outType = slotType(src.node, src.def, 'outputs', from.slot);
    let any = 0;
    for (const el of nodeLayer.querySelectorAll('.gv-slot[data-side="in"]')) {
      const b = boxes.get(el.dataset.node);
      const decl = b.def?.inputs?.[el.dataset.slot];
      const taken = wf.edges.some((e) => e.target === el.dataset.node && e.targetHandle === el.dataset.slot);
      const okay = el.dataset.node !== from.node && (!taken || decl?.multi === true) &&
        fits(outType, slotType(b.node, b.def, 'inputs', el.dataset.slot));
      el.dataset.ok = String(okay);
      if (okay) any++;
    }
    svg.classList.add('gv-connecting');
    return any;
  }

  function clearTargets() {
    svg.classList.remove('gv-connecting');
    for (const el of nodeLayer.querySelectorAll('.gv-slot[data-ok]')) delete el.dataset.ok;
    ghost.setAttribute('d', '');
  }

  // The input a connection dropped at (cx, cy) goes to: a fitting slot
  // under the pointer, or the first fitting input of the node there.
  function dropTarget(cx, cy) {
    const hit = document.elementFromPoint(cx, cy);
    const slot = hit?.closest?.('.gv-slot[data-side="in"]');
    if (slot) return slot.dataset.ok === 'true' ? slot : null;
    const g = hit?.closest?.('.gv-node');
    return g ? g.querySelector('.gv-slot[data-side="in"][data-ok="true"]') : null;
  }

  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    svg.focus({ preventScroll: true });
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    svg.setPointerCapture(e.pointerId);
    if (pointers.size === 2) {
      // Two fingers: pinch to zoom, whatever the first one was doing.
      clearTargets();
      const [a, b] = [...pointers.values()];
      drag = { kind: 'pinch', dist: Math.hypot(a.x - b.x, a.y - b.y) };
      return;
    }
    const slot = e.target.closest('.gv-slot[data-side="out"]');
    const node = e.target.closest('.gv-node');
    const edge = e.target.closest('.gv-edge');
    if (slot) {
      const from = { node: slot.dataset.node, slot: slot.dataset.slot };
      markTargets(from);
      drag = { kind: 'connect', from, start: slotPoint(from.node, 'out', from.slot) };
    } else if (node) {
      const n = nodeById(node.dataset.id);
      select({ kind: 'node', id: n.id });
      drag = { kind: 'move', node: n, g: node, x: e.clientX, y: e.clientY, ox: n.position.x, oy: n.position.y, moved: false };
    } else if (edge) {
      select({ kind: 'edge', id: edge.dataset.id });
      drag = null;
    } else {
      drag = { kind: 'pan', x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
    }
    e.preventDefault();
  });

  svg.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (!drag) return;
    if (drag.kind === 'pinch' && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      if (drag.dist > 0) zoomAt(dist / drag.dist, (a.x + b.x) / 2, (a.y + b.y) / 2);
      drag.dist = dist;
    } else if (drag.kind === 'pan') {
      view.x = drag.vx + e.clientX - drag.x;
      view.y = drag.vy + e.clientY - drag.y;
      drag.moved = drag.moved || Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3;
      applyView();
    } else if (drag.kind === 'move') {
      const dx = (e.clientX - drag.x) / view.zoom;
      const dy = (e.clientY - drag.y) / view.zoom;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 3 / view.zoom) return;
      drag.moved = true;
      drag.node.position = { x: Math.round(drag.ox + dx), y: Math.round(drag.oy + dy) };
      drag.g.setAttribute('transform', `translate(${drag.node.position.x} ${drag.node.position.y})`);
      drawEdges();
    } else if (drag.kind === 'connect') {
      ghost.setAttribute('d', curve(drag.start, toCanvas(e.clientX, e.clientY)));
      const over = dropTarget(e.clientX, e.clientY);
      for (const el of nodeLayer.querySelectorAll('.gv-slot[data-over]')) delete el.dataset.over;
      if (over) over.dataset.over = 'true';
    }
  });

  function end(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    const d = drag;
    if (pointers.size > 0) return;
    drag = null;
    if (!d) return;
    if (d.kind === 'pan' && !d.moved && e.type === 'pointerup') select(null);
    if (d.kind === 'move' && d.moved) onMove?.(d.node);
    if (d.kind === 'connect') {
      const target = e.type === 'pointerup' ? dropTarget(e.clientX, e.clientY) : null;
      clearTargets();
      if (target) {
        onConnect?.({ source: d.from.node, sourceHandle: d.from.slot, target: target.dataset.node, targetHandle: target.dataset.slot });
      }
    }
  }
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);

  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    // A trackpad's pinch comes as a wheel with ctrlKey; both zoom here.
    zoomAt(Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), e.clientX, e.clientY);
  }, { passive: false });

  svg.addEventListener('focusin', (e) => {
    const g = e.target.closest?.('.gv-node');
    if (g && !(selected?.kind === 'node' && selected.id === g.dataset.id)) select({ kind: 'node', id: g.dataset.id });
  });

  svg.addEventListener('keydown', (e) => {
    if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
      e.preventDefault();
      onDelete?.(selected);
    } else if (e.key === 'Escape') {
      select(null);
    } else if (e.key === '+' || e.key === '=') {
      zoomAt(1.2);
    } else if (e.key === '-') {
      zoomAt(1 / 1.2);
    } else if (selected?.kind === 'node' && e.key.startsWith('Arrow')) {
      // The keyboard moves the selected node, 8 units a press.
      e.preventDefault();
      const n = nodeById(selected.id);
      const step = e.shiftKey ? 40 : 8;
      const dx = e.key === 'ArrowLeft' ? -step : e.key === 'ArrowRight' ? step : 0;
      const dy = e.key === 'ArrowUp' ? -step : e.key === 'ArrowDown' ? step : 0;
      n.position = { x: n.position.x + dx, y: n.position.y + dy };
      boxes.get(n.id)?.g.setAttribute('transform', `translate(${n.position.x} ${n.position.y})`);
      drawEdges();
      onMove?.(n);
    }
  });

  // A frame that changes size (a phone turned, the window resized) keeps
  // the workflow in sight.
  let lastSize = '';
  new ResizeObserver(() => {
    const r = svg.getBoundingClientRect();
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (!r.width || size === lastSize) return;
    const first = lastSize === '';
    lastSize = size;
    if (!first && wf.nodes.length && ![...boxes.values()].every((b) => {
      const q = b.g.getBoundingClientRect();
      return q.left >= r.left && q.top >= r.top && q.right <= r.right && q.bottom <= r.bottom;
    })) fit();
  }).observe(svg);

  applyView();
  return {
    el: svg,
    // Shows a workflow (kept by reference: moves change its positions).
    set(next, { fitView = false } = {}) {
      wf = next;
      if (!Array.isArray(wf.nodes)) wf.nodes = [];
      if (!Array.isArray(wf.edges)) wf.edges = [];
      const vp = wf.viewport;
      if (vp && Number.isFinite(vp.x) && Number.isFinite(vp.y) && vp.zoom > 0) view = { x: vp.x, y: vp.y, zoom: vp.zoom };
      render();
      select(selected);
      if (fitView) fit();
      else applyView();
    },
    get workflow() { return wf; },
    get selected() { return selected; },
    select,
    render,
    fit,
    freeSpot,
    zoomIn: () => zoomAt(1.25),
    zoomOut: () => zoomAt(1 / 1.25),
    // Whether every node is wholly in sight.
    allInView() {
      const r = svg.getBoundingClientRect();
      return [...boxes.values()].every((b) => {
        const q = b.g.getBoundingClientRect();
        return q.left >= r.left && q.top >= r.top && q.right <= r.right && q.bottom <= r.bottom;
      });
    },
    // Where a node's box is on screen (tests, scrolling a node into view).
    box: (id) => boxes.get(id)?.g.getBoundingClientRect() || null,
  };
}
