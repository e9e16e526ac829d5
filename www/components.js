// The components a workflow sends (gen_ui_component, seed 000): chosen by
// widgetType. SmartCanvas shows a picture and paints a mask on it;
// ActionPanel offers the agent's buttons; AgentMessage says how it went.
// A widgetType this page does not know is shown plainly, with its props.
import { h, pretty, safeImageURL, uid } from './dom.js';
import { tx, setT, setAttrT, label } from './i18n.js';
import { MaskPainter } from './mask.js';
import { openViewer, offlineChip } from './viewer.js';
import { onNet } from './api.js';

// ctx: {onAction(action), onRepaint({maskData, text})}. Returns
// {el, widget, startMask?}.
export function renderComponent(component, ctx = {}) {
  const c = component && typeof component === 'object' ? component : {};
  const props = c.props && typeof c.props === 'object' ? c.props : {};
  switch (c.widgetType) {
    case 'SmartCanvas': return smartCanvas(props, ctx);
    case 'ActionPanel': return actionPanel(props, ctx);
    case 'AgentMessage': return agentMessage(props, ctx);
    default: return unknownComponent(c);
  }
}

function unknownComponent(c) {
  const el = h('div', { class: 'component unknown', dataset: { widget: String(c.widgetType ?? '') } },
    h('p', { class: 'muted' }, tx('comp.unknown'), ' ', h('code', {}, String(c.widgetType ?? '?'))),
    h('pre', {}, pretty(c.props ?? c)));
  return { el, widget: 'unknown' };
}

function smartCanvas(props, ctx) {
  const src = safeImageURL(props.imageUrl);
  const fig = h('figure', { class: 'component smart-canvas', dataset: { widget: 'SmartCanvas' } });
  if (!src) {
    fig.append(h('p', { class: 'muted' }, tx('comp.noimage')));
    return { el: fig, widget: 'SmartCanvas' };
  }
  const img = h('img', { src, alt: '', decoding: 'async' });
  setAttrT(img, 'alt', 'canvas.alt');
  const stage = h('div', { class: 'canvas-stage' }, img);
  const status = h('p', { class: 'muted canvas-status', role: 'status' });
  const repaintBtn = h('button', { type: 'button', class: 'repaint-toggle' });
  setT(repaintBtn, 'canvas.repaint');
  const open = h('button', { type: 'button', class: 'view-full' });
  setT(open, 'canvas.open');
  open.addEventListener('click', () => openViewer(img.src, { alt: img.alt, opener: open, name: ctx.name }));
  img.addEventListener('click', () => { if (!painter) openViewer(img.src, { alt: img.alt, opener: open, name: ctx.name }); });
  const bar = h('div', { class: 'canvas-bar' }, open, repaintBtn, offlineChip(src));
  // Several pictures of one request: a grid under the large one; a click
  // shows that one large, Variations asks for more like it.
  const cands = (Array.isArray(props.candidates) ? props.candidates : [])
    .map((x) => ({ src: safeImageURL(x?.imageUrl), assetId: typeof x?.assetId === 'string' ? x.assetId : null, seed: x?.seed }))
    .filter((x) => x.src);
  let grid = null;
  if (cands.length > 1) {
    let chosen = cands[0];
    const vary = setT(h('button', { type: 'button', class: 'variations' }), 'canvas.variations');
    vary.disabled = !chosen.assetId || !ctx.onVariations;
    vary.addEventListener('click', () => ctx.onVariations?.(chosen.assetId));
    const pick = (x, b) => {
      chosen = x;
      img.src = x.src;
      for (const other of grid.querySelectorAll('button.candidate')) other.setAttribute('aria-pressed', String(other === b));
      vary.disabled = !x.assetId || !ctx.onVariations;
    };
    grid = h('div', { class: 'candidates', role: 'group' }, cands.map((x, i) => {
      const b = h('button', { type: 'button', class: 'candidate', 'aria-pressed': String(i === 0), dataset: { seed: String(x.seed ?? '') } },
        h('img', { src: x.src, alt: '', loading: 'lazy' }));
      setAttrT(b, 'aria-label', 'canvas.candidate', { n: i + 1, seed: x.seed ?? '' });
      b.addEventListener('click', () => pick(x, b));
      return b;
    }));
    setAttrT(grid, 'aria-label', 'canvas.candidates');
    bar.append(vary);
  }
  const tools = h('div', { class: 'mask-tools', hidden: true });
  fig.append(stage, ...(grid ? [grid] : []), bar, tools, status);

  let painter = null;
  // A picture that did not load (the server down, say) says so under it,
  // and loads again at the server's next answer; once it shows, the
  // message goes.
  let broken = false;
  img.addEventListener('error', () => {
    broken = true;
    setT(status, 'canvas.broken');
  });
  img.addEventListener('load', () => {
    if (!broken) return;
    broken = false;
    status.textContent = '';
  });
  const off = onNet((up) => {
    if (!img.isConnected) off();
    if (!up || !broken || !img.isConnected) return;
    img.removeAttribute('src');
    img.src = src;
  });

  function buildTools() {
    const brush = h('button', { type: 'button', 'aria-pressed': 'true' });
    const eraser = h('button', { type: 'button', 'aria-pressed': 'false' });
    setT(brush, 'mask.brush');
    setT(eraser, 'mask.eraser');
    const sizeId = uid('size');
    const size = h('input', { type: 'range', id: sizeId, min: 4, max: 200, step: 2, value: 40 });
    const sizeOut = h('output', { for: sizeId }, '40');
    const clearBtn = h('button', { type: 'button' });
    setT(clearBtn, 'mask.clear');
    const textId = uid('mtext');
    const text = h('input', { type: 'text', id: textId, maxlength: 2000, autocomplete: 'off' });
    setAttrT(text, 'placeholder', 'mask.placeholder');
    const send = h('button', { type: 'button', class: 'primary' });
    setT(send, 'mask.send');
    const cancel = h('button', { type: 'button' });
    setT(cancel, 'mask.cancel');
    const hint = h('p', { class: 'muted hint' });
    setT(hint, 'mask.hint');
    // What the person must do next, beside the button they pressed.
    const said = h('p', { class: 'mask-said', role: 'status' });
    const sizeLabel = h('label', { for: sizeId });
    setT(sizeLabel, 'mask.size');
    const textLabel = h('label', { for: textId });
    setT(textLabel, 'mask.what');
    tools.replaceChildren(
      hint,
      h('div', { class: 'tool-row', role: 'group' }, brush, eraser, sizeLabel, size, sizeOut, clearBtn),
      h('div', { class: 'tool-row' }, textLabel, text),
      h('div', { class: 'tool-row' }, send, cancel),
      said);
    const pick = (tool) => {
      painter.tool = tool;
      brush.setAttribute('aria-pressed', String(tool === 'brush'));
      eraser.setAttribute('aria-pressed', String(tool === 'eraser'));
    };
    brush.addEventListener('click', () => pick('brush'));
    eraser.addEventListener('click', () => pick('eraser'));
    size.addEventListener('input', () => {
      // The slider is in display pixels; the painter works in image pixels.
      const { sx } = painter.scale();
      painter.size = Number(size.value) * sx;
      sizeOut.textContent = size.value;
    });
    clearBtn.addEventListener('click', () => painter.clear());
    cancel.addEventListener('click', () => stopMask());
    send.addEventListener('click', () => {
      if (painter.isEmpty()) {
        setT(said, 'mask.empty');
        said.scrollIntoView({ block: 'nearest' });
        painter.canvas.focus({ preventScroll: true });
        return;
      }
      ctx.onRepaint?.({
        text: text.value.trim(),
        maskData: { base64: painter.toDataURL(), imageUrl: props.imageUrl, coordinates: painter.coordinates() },
      });
      stopMask();
    });
    text.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); send.click(); } });
    return size;
  }

  function startMask() {
    if (painter) {
      painter.canvas.focus();
      return;
    }
    const go = () => {
      painter = new MaskPainter(img, stage);
      painter.attach();
      setAttrT(painter.canvas, 'aria-label', 'mask.canvas');
      const size = buildTools();
      const { sx } = painter.scale();
      painter.size = Number(size.value) * sx;
      tools.hidden = false;
      fig.classList.add('editing');
      repaintBtn.setAttribute('aria-pressed', 'true');
      status.textContent = '';
      painter.canvas.focus({ preventScroll: true });
      fig.scrollIntoView({ block: 'nearest' });
    };
    if (img.complete && img.naturalWidth) go();
    else img.addEventListener('load', go, { once: true });
  }

  function stopMask() {
    painter?.detach();
    painter = null;
    tools.hidden = true;
    tools.replaceChildren();
    fig.classList.remove('editing');
    repaintBtn.setAttribute('aria-pressed', 'false');
    repaintBtn.focus();
  }

  const toggleMask = () => (painter ? stopMask() : startMask());
  repaintBtn.setAttribute('aria-pressed', 'false');
  repaintBtn.addEventListener('click', toggleMask);
  if (props.mode === 'edit' || props.mode === 'inpaint' || props.mode === 'mask') startMask();
  return {
    el: fig,
    widget: 'SmartCanvas',
    startMask,
    toggleMask,
    // The agent offers its own button for this: one is enough.
    hideToggle() { repaintBtn.hidden = true; },
    imageUrl: props.imageUrl,
  };
}

function actionPanel(props, ctx) {
  const el = h('div', { class: 'component action-panel', role: 'group', dataset: { widget: 'ActionPanel' } });
  setAttrT(el, 'aria-label', 'comp.actions');
  const actions = Array.isArray(props.actions) ? props.actions : [];
  for (const a of actions) {
    if (!a || typeof a !== 'object') continue;
    if (a.type && a.type !== 'button') {
      el.append(h('span', { class: 'chip', title: pretty(a) }, String(a.label ?? a.id ?? '?')));
      continue;
    }
    // A button the page knows by its id speaks the page's language; another
    // keeps the agent's words.
    const b = label('button', `action.${String(a.id ?? '')}`, a.label ?? a.id ?? '?');
    b.type = 'button';
    b.dataset.action = String(a.id ?? '');
    b.addEventListener('click', () => ctx.onAction?.(a));
    el.append(b);
  }
  if (!el.childElementCount) el.append(h('span', { class: 'muted' }, tx('comp.noactions')));
  return { el, widget: 'ActionPanel' };
}

// The agent's words, which carry the critic's score when there is one: the
// score is not shown a second time.
function agentMessage(props) {
  const state = ['success', 'failed', 'thinking', 'info', 'warning'].includes(props.state) ? props.state : 'info';
  const el = h('div', { class: `component agent-message state-${state}`, role: state === 'failed' ? 'alert' : 'status', dataset: { widget: 'AgentMessage' } });
  if (props.isThinking) el.append(h('span', { class: 'spinner', 'aria-hidden': 'true' }));
  el.append(h('p', { class: 'agent-text' }, String(props.text ?? '')));
  return { el, widget: 'AgentMessage' };
}
