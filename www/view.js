// The lifecycle every view shares, written once: the thread's stream, the
// view's head (its title, the connection's status, "New"), the error box
// and its next steps (try again, follow the run, start anew), opening a
// thread from the start (its log replayed, then live), a thread of another
// workflow handed to its own view, the thread in the recent list with its
// status, the view shown and reset. A view gives what is its own: its
// route and workflow, its event handlers, how its last run ended, what it
// shows when a thread starts or opens, what it forgets on reset.
// Also the composer's pieces the views share: the byte count and its check
// before sending, and Enter to send.
import { h } from './dom.js';
import { setT, setAttrT } from './i18n.js';
import { ApiError, getThread, byteLength, onNet } from './api.js';
import { ThreadStream } from './stream.js';
import { saveThread, setThreadStatus, forgetThread } from './store.js';
import { streamStatus, errorBox } from './ui.js';
import { pauseCard } from './hitl.js';

// A stream's state as the recent list shows the thread.
const THREAD_STATUS = { connecting: 'running', streaming: 'running', reconnecting: 'running', offline: 'running', paused: 'paused', done: 'done' };
// A run that ended otherwise than done: the status line's word, the list's.
const ENDED = { error: 'error', stopped: 'aborted' };

// own: {
//   id: the view's route and key prefix ('note': #/note, note.title, note.new),
//   workflow: the workflow it runs ('note'),
//   onEvent(ev, meta): each event of the thread (thread_start once the
//     thread is this view's),
//   onState(state, info): the view's own part of a stream state (optional),
//   ended(): how the last run ended: null (done), 'error' or 'stopped',
//   started(ev): a new thread of this view began; returns what the recent
//     list keeps of it besides its workflow and status ({title}),
//   opening(id): a thread is about to be read (optional),
//   opened(th): the thread as the server has it; returns what the recent
//     list keeps ({title}),
//   reset(): forget the view's own state,
//   onShow(): the view is shown (optional),
//   focus(): where the keyboard goes when the view is chosen,
// }
// Returns the view's parts (stream, status, errors, head, newBtn) and its
// lifecycle; view.face is what app.js holds.
export function createView(app, own) {
  let threadId = null;
  const stream = new ThreadStream({ onEvent, onState });
  const status = streamStatus();
  const errors = errorBox();
  // "New" forgets at once what the view holds (a workflow imported, a
  // task typed), then shows the view without a thread.
  const newBtn = setT(h('button', { type: 'button', onclick: () => startOver() }), `${own.id}.new`);
  const title = setT(h('h2', {}), `${own.id}.title`);
  const head = h('div', { class: 'view-head' }, title, status.el, newBtn);

  const answer = (ev) => (act, payload, hooks) => stream.confirm(ev.interruptId, act, payload, hooks);

  // A thread of another workflow goes to its own view.
  function elsewhere(workflow, id) {
    if (!workflow || workflow === own.workflow) return false;
    app.go(app.viewOf(workflow), id);
    return true;
  }

  function onEvent(ev, meta) {
    if (ev.type === 'thread_start') {
      threadId = ev.threadId;
      if (elsewhere(ev.workflow, threadId)) return;
      saveThread(threadId, { workflow: own.workflow, ...own.started(ev), status: 'running' });
      app.setThread(own.id, threadId);
    }
    own.onEvent(ev, meta);
  }

  function onState(state, info) {
    const end = own.ended();
    status.set(state === 'done' && end ? end : state, info);
    const s = THREAD_STATUS[state];
    if (threadId && s) setThreadStatus(threadId, s === 'done' && end ? ENDED[end] : s);
    own.onState?.(state, info);
    if (state === 'failed') errors.show(info.error, [{ key: 'stream.retry', onclick: () => resume() }]);
    if (state === 'streaming' || state === 'connecting') errors.hide();
  }

  // New: the view forgets what it holds and its link its thread.
  function startOver() {
    reset();
    app.forgetThread(own.id);
    app.go(own.id);
  }

  function reset() {
    stream.reset();
    threadId = null;
    errors.hide();
    status.set('idle');
    own.reset();
  }

  // Follows the thread's run again from the last event seen.
  async function resume() {
    errors.hide();
    await stream.join().catch((e) => openFailed(e));
  }

  // A thread that cannot be opened: one gone or not ours is forgotten and
  // the view offers a new one; another failure offers to try again.
  function openFailed(e) {
    const gone = e instanceof ApiError && [403, 404, 410].includes(e.status);
    if (gone && threadId) {
      forgetThread(threadId);
      app.forgetThread(own.id);
    }
    errors.show(e, gone ? [{ key: `${own.id}.new`, onclick: () => startOver() }] : [{ key: 'stream.retry', onclick: () => resume() }]);
    status.set('failed');
  }

  // What the server never got (no answer: it or the network was down):
  // each stays where the person left it, marked "not sent", and goes again,
  // in the order sent, at the server's first answer, or at once on "Send
  // now". el: the turn's bubble (kept, marked) or null (a form kept as it
  // was); resend(): sends it again. False when e is not such a failure.
  const waiting = [];
  function unsent(e, el, resend) {
    if (!(e instanceof ApiError) || !e.down) return false;
    const item = { el, resend };
    const now = () => sendWaiting([item]);
    if (el) {
      el.classList.add('unsent');
      el.append(h('p', { class: 'unsent-note', role: 'status' }, setT(h('span', {}), 'turn.unsent'),
        setT(h('button', { type: 'button', class: 'small', onclick: now }), 'turn.send_now')));
    }
    waiting.push(item);
    errors.say('turn.unsent', 'turn.unsent.next', [{ key: 'turn.send_now', onclick: now }]);
    return true;
  }

  async function sendWaiting(items = waiting.slice()) {
    for (const item of items) {
      const i = waiting.indexOf(item);
      if (i < 0 || stream.busy) return;
      waiting.splice(i, 1);
      item.el?.remove();
      errors.hide();
      await item.resend();
    }
  }
  onNet((up) => { if (up && waiting.length) sendWaiting(); });

  // A thread from the start: its whole log replayed, then live.
  async function open(id) {
    reset();
    threadId = id;
    own.opening?.(id);
    stream.reset(id, 0);
    try {
      const th = await getThread(id);
      if (elsewhere(th.workflow, id)) return;
      saveThread(id, { workflow: own.workflow, status: th.status, updatedAt: th.updatedAt, ...own.opened(th) });
    } catch (e) {
      if (e instanceof ApiError && !e.transient) {
        openFailed(e);
        return;
      }
    }
    if (threadId !== id) return;
    await stream.join().catch((e) => openFailed(e));
  }

  return {
    stream,
    status,
    errors,
    head,
    newBtn,
    get threadId() { return threadId; },
    reset,
    startOver,
    resume,
    // Starts a new thread of the view's workflow.
    start: (input) => stream.start(own.workflow, input),
    // Sends a turn: the thread's next, or the first of a new thread (start:
    // the first turn's input when it says more than a turn's).
    send(input, { start = input, multitask } = {}) {
      return threadId ? stream.turn(input, multitask ? { multitask } : {}) : stream.start(own.workflow, start);
    },
    // An answer to a pause card (hitl.js onAnswer).
    answer,
    // A pause inside a turn: its card among the turn's results (ask_user);
    // the decision the log records marks it answered (thought_log).
    turnPause(turn, ev) {
      if (ev.type === 'ask_user') {
        turn.pause = pauseCard(ev, { onAnswer: answer(ev) });
        turn.results.append(turn.pause.el);
      } else if (ev.decision && turn.pause) {
        turn.pause.answered(ev.decision);
      }
    },
    unsent,
    // Whether something waits to be sent again.
    get waiting() { return waiting.length > 0; },
    // A turn the server refused at once: why, and, when the thread is busy
    // with another run, the way to follow it; the status goes back to how
    // the thread stood (after: its state when there is a thread).
    refused(e, after = 'done') {
      errors.show(e, e.code === 'thread_busy' ? [{ key: 'stream.follow', onclick: () => resume() }] : []);
      status.set(threadId ? after : 'idle');
    },
    // A run that ended with the workflow's error event: what it said, and
    // the view's next steps.
    runFailed(ev, actions) {
      errors.show(new ApiError(500, 'workflow_error', `${ev.code ?? ''}: ${ev.message ?? ''}`), actions);
    },
    face: {
      // The view's own link names its open thread, so a bare route comes
      // from an address typed or a New: only a thread named is opened, and
      // what the view holds stays until New.
      show(id) {
        own.onShow?.();
        if (id && id === threadId) return;
        if (id) open(id);
        else if (threadId) app.setThread(own.id, threadId);
      },
      focus() { own.focus(); },
      get threadId() { return threadId; },
      stream,
    },
  };
}

// A text box's count of bytes against the server's limit (UTF-8: a
// Chinese character is 3), as "n / max", and the check before sending:
// check(what, needKey), what there is to send (nothing: needKey says what
// is missing), and not over the limit; a refusal is said in the view's
// error box and the text box gets the focus.
export function textLimit(input, max, errors) {
  const el = h('span', { id: `${input.id}-count`, class: 'counter muted', 'aria-live': 'polite' });
  setAttrT(el, 'title', 'composer.count.title');
  function count() {
    const n = byteLength(input.value);
    el.textContent = `${n} / ${max}`;
    el.dataset.over = String(n > max);
    return n;
  }
  input.addEventListener('input', count);
  count();
  return {
    el,
    count,
    check(what, needKey) {
      if (!what) errors.say(needKey, null);
      else if (count() > max) errors.say('err.too_long', 'err.too_long.next', [], { max });
      else return true;
      input.focus();
      return false;
    },
  };
}

// Enter sends the form (Shift+Enter is a new line; not while an input
// method is composing).
export function sendOnEnter(input, form) {
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
}
