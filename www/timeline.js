// The agents' timeline: one entry per node run (agent_start … agent_end)
// with its state (running, done, failed) and what it said: thought_log,
// message, tool calls and their results, decisions. Events of a type it
// does not know are listed plainly, with their data as JSON text.
import { h, pretty } from './dom.js';
import { t, tx, setT, nodeName, label } from './i18n.js';

const QUIET = new Set(['state_update', 'thread_start', 'agent_start', 'agent_end', 'workflow_yield',
  'workflow_paused', 'workflow_complete', 'ask_user', 'image_progress', 'gen_ui_component',
  'content_update', 'brief_ready', 'layout_spec_ready', 'alignment_map_ready', 'quality_score',
  'workflow_progress']);

// The line the steps fold into: how long they took, how many there were.
export function stepsDone(t0, t1, n) {
  if (t0 == null || t1 == null) return ['steps.count', { n }];
  const s = (t1 - t0) / 1000;
  return s < 0.1 ? ['steps.done_fast', { n }] : ['steps.done', { s: s.toFixed(1), n }];
}

// A conversation's turn whose answer is worked out in steps: the
// request's bubble, then the agent's, with the steps behind one line
// ("Thought for 0.5 s · 5 steps"), the progress while it works, and the
// results. The view adds its own fields to what this returns.
export function stepsTurn(user, progress) {
  const timeline = new Timeline();
  const stepsLine = setT(h('summary', { class: 'steps-line' }), 'steps.running', { n: 0 });
  const results = h('div', { class: 'results' });
  const el = h('li', { class: 'turn', dataset: { state: 'running' } }, user,
    h('div', { class: 'bubble agent' }, h('details', { class: 'thoughts steps' }, stepsLine, timeline.el), progress, results));
  return { el, timeline, stepsLine, progress, results, t0: null, t1: null, steps: 0, ended: false, failed: null, events: 0 };
}

// The turn is over (state: done, failed…): its steps settle and fold to
// their one line. False when it was over already.
export function endStepsTurn(turn, state) {
  if (!turn || turn.ended) return false;
  turn.ended = true;
  turn.el.dataset.state = state;
  turn.timeline.settle(state === 'failed' ? 'stopped' : 'done');
  turn.progress.hidden = true;
  setT(turn.stepsLine, ...stepsDone(turn.t0, turn.t1, turn.steps));
  return true;
}

export class Timeline {
  constructor() {
    this.el = h('ol', { class: 'timeline' });
    this.groups = [];
    this.tools = new Map();
  }

  group(name) {
    for (let i = this.groups.length - 1; i >= 0; i--) {
      if (!name || this.groups[i].name === name) return this.groups[i];
    }
    return null;
  }

  // A node's run, titled by what the server wrote (agent_start.content, in
  // the thread's language), else by the node's name in the page's language.
  open(name, content) {
    const runs = this.groups.filter((g) => g.name === name).length;
    const badge = h('span', { class: 'badge' });
    // The step's name in the page's language; a step the page does not
    // know is named as the server named it.
    const known = t(`node.${String(name).replace(/_agent$/, '')}`) !== `node.${String(name).replace(/_agent$/, '')}`;
    const title = known || !content ? nodeName('span', name) : h('span', {}, content);
    title.className = 'node-name';
    const head = h('div', { class: 'node-head' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), title,
      runs ? h('span', { class: 'muted' }, ` ×${runs + 1}`) : null, badge);
    const list = h('ul', { class: 'node-log' });
    const li = h('li', { class: 'node', dataset: { node: name, state: 'running' } }, head);
    li.append(list);
    const g = { name, li, list, badge, state: 'running', live: null };
    setT(badge, 'state.running');
    this.groups.push(g);
    this.el.append(li);
    return g;
  }

  setState(g, state) {
    if (!g || g.state === 'failed') return;
    g.state = state;
    g.li.dataset.state = state;
    setT(g.badge, `state.${state}`);
  }

  // Marks what is still running as stopped (the stream ended there).
  settle(state = 'done') {
    for (const g of this.groups) {
      g.tick?.remove();
      g.tick = null;
      if (g.state === 'running') this.setState(g, state);
    }
  }

  entry(g, ...children) {
    const li = h('li', { class: 'entry' }, ...children);
    (g || this.group() || this.open('workflow')).list.append(li);
    return li;
  }

  // Returns true when the event was shown here.
  add(ev) {
    const name = ev.node || ev.agent || null;
    switch (ev.type) {
      case 'agent_start':
        this.open(name || 'workflow', startText(ev));
        return true;
      case 'agent_end': {
        const g = this.group(name);
        g?.tick?.remove();
        if (g) g.tick = null;
        this.setState(g, 'done');
        return true;
      }
      case 'thought_log': {
        const g = this.group(name) || this.open(name || 'workflow');
        const li = this.entry(g, h('span', { class: 'thought' }, String(ev.message ?? '')));
        li.classList.add('thought-log');
        if (ev.decision) li.append(' ', h('span', { class: 'chip' }, tx(`action.${ev.decision}`)));
        return true;
      }
      case 'message': {
        const g = this.group(name);
        if (g?.live) { g.live.remove(); g.live = null; }
        this.entry(g, longText(String(ev.content ?? '')));
        return true;
      }
      case 'message_delta': {
        const g = this.group(name) || this.group();
        if (!g) return true;
        if (!g.live) g.live = this.entry(g, h('div', { class: 'message live' }));
        g.live.firstChild.append(ev.delta ?? ev.content ?? '');
        return true;
      }
      case 'progress': {
        // Progress ticks are live only: one line, showing the latest.
        const g = this.group(name) || this.group();
        if (!g) return true;
        if (!g.tick) g.tick = this.entry(g, h('span', { class: 'muted tick' }));
        g.tick.firstChild.textContent = String(ev.content ?? '');
        return true;
      }
      case 'tool_call': {
        const out = h('div', { class: 'tool-out' });
        const state = h('span', { class: 'badge' });
        setT(state, 'state.running');
        const li = this.entry(this.group(name), h('details', { class: 'tool' },
          h('summary', {}, toolName(ev.tool), ' ', state),
          h('p', { class: 'muted' }, h('code', {}, String(ev.tool ?? '?'))),
          h('div', { class: 'tool-in' }, tx('tl.input'), h('pre', {}, pretty(ev.toolInput))), out));
        li.dataset.tool = ev.tool ?? '';
        this.tools.set(ev.toolCallId, { out, state });
        return true;
      }
      case 'tool_result': {
        const call = this.tools.get(ev.toolCallId);
        const body = [tx('tl.output'), h('pre', {}, pretty(ev.toolOutput ?? ev.error ?? null))];
        if (call) {
          call.out.append(...body);
          setT(call.state, ev.error ? 'state.failed' : 'state.done');
        } else {
          this.entry(this.group(name), h('details', { class: 'tool' },
            h('summary', {}, toolName(ev.tool)), ...body));
        }
        return true;
      }
      case 'supervisor_decision':
        this.entry(this.group(name), tx('tl.decision'), ' ', nodeName('strong', ev.decision ?? ''),
          ev.reason ? h('span', { class: 'muted' }, ' — ', ev.reason) : null);
        return true;
      case 'intent_detected': {
        // The server's words for the intent; its code stays out of sight.
        const conf = typeof ev.confidence === 'number' ? tx('tl.confidence', { n: Math.round(ev.confidence * 100) }) : null;
        this.entry(this.group(name), tx('tl.intent_detected'), ' ', h('strong', {}, String(ev.content ?? '')), conf ? ' · ' : '', conf);
        return true;
      }
      case 'content_type_detected':
        this.entry(this.group(name), tx('tl.content_type_detected'), ' ', h('strong', {}, String(ev.category ?? ev.contentType ?? '')),
          ev.content ? h('span', { class: 'muted' }, ' — ', String(ev.content)) : null);
        return true;
      case 'error': {
        const g = this.group(name);
        this.setState(g, 'failed');
        if (g) g.state = 'failed';
        const li = this.entry(g, h('span', { class: 'error-text' }, ev.message || t('err.unknown')));
        if (ev.code) li.title = String(ev.code);
        return true;
      }
      default:
        if (QUIET.has(ev.type)) return false;
        this.plain(ev);
        return true;
    }
  }

  // An event this page has no view for: its type and its data, as text.
  plain(ev) {
    const { type, timestamp, ...rest } = ev;
    this.entry(this.group(ev.node || ev.agent), h('details', { class: 'unknown' },
      h('summary', {}, h('code', {}, String(type ?? '?'))), h('pre', {}, pretty(rest))));
  }
}

// A tool by its name for people ("searchNotes" → Search similar notes).
function toolName(tool) {
  return label('span', `tool.${tool}`, String(tool ?? '?'));
}

// A message; a long one (a whole draft) folds to its first line.
// Threads from before agent_start named the agent wrote one text for
// every agent; the node's own name says more.
const LEGACY_START = '开始工作 · started';

function startText(ev) {
  return typeof ev.content === 'string' && ev.content && ev.content !== LEGACY_START ? ev.content : null;
}

function longText(text) {
  if (text.length <= 160 && text.split('\n').length <= 3) return h('div', { class: 'message' }, text);
  const first = text.split('\n')[0];
  return h('details', { class: 'message long' },
    h('summary', {}, first.length > 80 ? `${first.slice(0, 80)}…` : first),
    h('div', { class: 'message-rest' }, text));
}
