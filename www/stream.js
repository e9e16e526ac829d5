// Event streams of a thread (docs/api.md, "Event streams"): POST streams
// (start, new turn, confirm) read with fetch() and a ReadableStream, and
// GET joins that continue after the last event id seen. A stream that
// breaks (network drop, a worker that dies, a stall, a budget used up) is
// continued with GET /api/agent/stream?threadId=…&lastEventId=N; durable
// events carry increasing ids, so one already seen is dropped instead of
// shown twice.
import { ApiError, request, problemOf, getThread } from './api.js';
import { sleep } from './dom.js';
import { getLang } from './i18n.js';

// SSE framing: "field: value" lines, a blank line ends an event; comment
// lines (": keep-alive") only prove the connection is alive.
export function sseParser(onMessage, onComment) {
  const decoder = new TextDecoder();
  let buf = '';
  let data = [];
  let id = null;
  let retry = null;

  function line(l) {
    if (l === '') {
      if (data.length) onMessage({ data: data.join('\n'), id, retry });
      data = [];
      id = null;
      retry = null;
      return;
    }
    if (l[0] === ':') {
      onComment?.();
      return;
    }
    const i = l.indexOf(':');
    const field = i < 0 ? l : l.slice(0, i);
    const value = i < 0 ? '' : l.slice(i + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }

  function drain(final) {
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buf);
      // A lone \r at the end may be the first half of \r\n.
      if (!m || (m[0] === '\r' && m.index === buf.length - 1 && !final)) break;
      line(buf.slice(0, m.index));
      buf = buf.slice(m.index + m[0].length);
    }
  }

  return {
    push(chunk) {
      buf += decoder.decode(chunk, { stream: true });
      drain(false);
    },
    end() {
      buf += decoder.decode();
      drain(true);
      if (buf) line(buf);
      buf = '';
      line('');
    },
  };
}

const STALL_MS = 45000;          // keep-alives come every 15 s at most
const MAX_ATTEMPTS = 8;          // reconnects in a row without progress

// One thread's live connection. onEvent(event, {id, replay}) gets each
// event once; onState(state, info) gets: connecting, streaming,
// reconnecting {attempt, delay}, offline, unsent (an answer to send
// again), paused, done, failed {error}.
export class ThreadStream {
  constructor({ onEvent, onState }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.threadId = null;
    this.lastId = 0;
    this.state = 'idle';
    this.ctl = null;
    this.worker = null;          // pid that serves the current response
  }

  // Forgets the thread (a new one is about to start).
  reset(threadId = null, lastId = 0) {
    this.stop();
    this.threadId = threadId;
    this.lastId = lastId;
    this.setState('idle');
  }

  stop() {
    this.ctl?.abort();
    this.ctl = null;
  }

  get busy() {
    return ['connecting', 'streaming', 'reconnecting', 'offline', 'unsent'].includes(this.state);
  }

  setState(state, info = {}) {
    this.state = state;
    this.onState?.(state, info);
  }

  // A new thread speaks the page's language: the server writes its
  // messages for this thread in it, whatever the language is switched to later.
  start(workflow, input) {
    return this.run({ method: 'POST', path: 'agent/stream', body: { workflow, input: { lang: getLang(), ...input } } });
  }

  // opts.multitask "enqueue": a busy thread takes the turn after the run
  // in progress instead of refusing it (409).
  turn(input, { multitask } = {}) {
    const body = { threadId: this.threadId, input };
    if (multitask) body.multitask = multitask;
    return this.run({ method: 'POST', path: 'agent/stream', body });
  }

  // An answer to a pause. It counts once the server has taken it: a
  // response came, or 409 already_confirmed (an earlier copy arrived). An
  // answer that got no response at all is "not sent" (hooks.onUnsent) and
  // goes again, the same body with the same interruptId, once the network
  // is back; hooks.onAccepted is called when the server has it.
  async confirm(interruptId, action, payload, hooks = {}) {
    const body = { threadId: this.threadId, interruptId, action };
    if (payload && Object.keys(payload).length) body.payload = payload;
    let accepted = false;
    const accept = () => {
      if (accepted) return;
      accepted = true;
      hooks.onAccepted?.();
    };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run({ method: 'POST', path: 'agent/confirm', body, confirm: true, onResponse: accept });
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'unsent')) throw e;
        hooks.onUnsent?.(attempt);
        const ctl = new AbortController();
        this.ctl = ctl;
        await this.pause(Math.min(1000 * attempt, 8000), attempt, ctl.signal);
        if (ctl.signal.aborted) return 'stopped';
      }
    }
  }

  join() {
    return this.run(this.joinRequest());
  }

  joinRequest() {
    const q = new URLSearchParams({ threadId: this.threadId, lastEventId: String(this.lastId) });
    return { method: 'GET', path: `agent/stream?${q}` };
  }

  // Runs a request and whatever reconnects it needs. Resolves to the final
  // state ('done', 'paused', 'failed' or 'stopped'); a request the server
  // refuses at once rejects with its ApiError (nothing was started).
  async run(req) {
    this.stop();
    const ctl = new AbortController();
    this.ctl = ctl;
    let attempt = 0;
    let first = true;
    this.setState('connecting');
    for (;;) {
      let outcome;
      const before = this.lastId;
      try {
        outcome = await this.consume(req, ctl.signal);
      } catch (e) {
        if (ctl.signal.aborted) return 'stopped';
        if (e instanceof ApiError && !e.transient) {
          // 409 on a confirm already answered: the answer's events are in
          // the log; read them from there.
          if (e.code === 'already_confirmed' && this.threadId) {
            req.onResponse?.();
            req = this.joinRequest();
            continue;
          }
          if (first) {
            this.setState('refused', { error: e });
            throw e;
          }
          this.setState('failed', { error: e });
          return 'failed';
        }
        if (first && !this.threadId) {
          this.setState('refused', { error: e });
          throw e;
        }
        // A new turn the server never got (no response, or the web
        // server's own error page): not sent, nothing to follow.
        if (first && !req.confirm && req.method === 'POST' && e instanceof ApiError && e.down &&
            (!this.responded || e.status !== 0)) {
          this.setState('refused', { error: e });
          throw e;
        }
        if (first && req.confirm && (!this.responded || e.status >= 429)) {
          // No answer, or a busy server: the answer may not have been
          // taken, and is sent again.
          this.setState('unsent', { error: e });
          throw new ApiError(0, 'unsent', e.message);
        }
        outcome = 'drop';
        this.lastError = e;
      }
      if (ctl.signal.aborted) return 'stopped';
      const progressed = this.lastId > before;
      first = false;
      if (outcome === 'done' || outcome === 'paused') {
        this.setState(outcome);
        return outcome;
      }
      if (!this.threadId) {
        const error = new ApiError(0, 'lost', 'the connection broke before the thread started');
        this.setState('failed', { error });
        return 'failed';
      }
      if (outcome === 'eof' && !progressed) {
        // Nothing new on a stream that ended by itself: the thread may be
        // paused (a join replays nothing then) or finished.
        const st = await this.status(ctl.signal);
        if (ctl.signal.aborted) return 'stopped';
        if (st === 'paused' || st === 'done' || st === 'error' || st === 'aborted') {
          this.setState(st === 'paused' ? 'paused' : 'done');
          return st === 'paused' ? 'paused' : 'done';
        }
        if (st === 'gone') {
          const error = new ApiError(404, 'thread_not_found', '');
          this.setState('failed', { error });
          return 'failed';
        }
      }
      let delay;
      if (outcome === 'yield') {
        delay = this.retryMs ?? 500;
        attempt = 0;
      } else {
        attempt = progressed ? 1 : attempt + 1;
        if (attempt > MAX_ATTEMPTS) {
          const error = this.lastError instanceof ApiError ? this.lastError : new ApiError(0, 'network', '');
          this.setState('failed', { error });
          return 'failed';
        }
        delay = Math.min(400 * 2 ** (attempt - 1), 8000);
      }
      await this.pause(delay, attempt, ctl.signal);
      if (ctl.signal.aborted) return 'stopped';
      req = this.joinRequest();
    }
  }

  // Waits before a reconnect; offline, waits for the network to return.
  async pause(delay, attempt, signal) {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.setState('offline');
      await new Promise((resolve) => {
        const done = () => { window.removeEventListener('online', done); resolve(); };
        window.addEventListener('online', done);
        signal.addEventListener('abort', done, { once: true });
      });
    } else {
      this.setState('reconnecting', { attempt, delay });
      await sleep(delay, signal);
    }
  }

  async status(signal) {
    try {
      const th = await getThread(this.threadId, signal);
      return th.status;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 410 || e.status === 403)) return 'gone';
      return 'unknown';
    }
  }

  // An event the page fails to show is reported, and the stream goes on.
  deliver(ev, id) {
    try {
      this.onEvent(ev, { id });
    } catch (e) {
      console.error(`showing a ${ev?.type} event:`, e);
    }
  }

  // One HTTP response: 'done' ([DONE]), 'paused' (workflow_paused), 'yield'
  // (workflow_yield), or 'eof' (ended without saying why).
  async consume(req, outer) {
    const ctl = new AbortController();
    const abort = () => ctl.abort();
    outer.addEventListener('abort', abort, { once: true });
    let stall;
    const alive = () => {
      clearTimeout(stall);
      stall = setTimeout(() => { this.stalled = true; ctl.abort(); }, STALL_MS);
    };
    let outcome = 'eof';
    this.retryMs = null;
    this.stalled = false;
    this.responded = false;
    try {
      alive();
      const res = await request(req.path, { method: req.method, body: req.body, signal: ctl.signal });
      this.responded = true;
      if (!res.ok) throw await problemOf(res);
      req.onResponse?.();
      this.worker = res.headers.get('X-AiVista-Worker');
      this.setState('streaming');
      const parser = sseParser((m) => {
        if (m.retry != null) this.retryMs = m.retry;
        if (m.data === '[DONE]') {
          outcome = 'done';
          return;
        }
        let ev;
        try {
          ev = JSON.parse(m.data);
        } catch {
          ev = { type: 'unparsed', text: m.data };
        }
        if (m.id != null && /^\d+$/.test(m.id)) {
          const id = Number(m.id);
          if (id <= this.lastId) return;          // seen before: replayed
          this.lastId = id;
          if (ev.type === 'thread_start' && ev.threadId) this.threadId = ev.threadId;
          if (ev.type === 'workflow_paused') outcome = 'paused';
          else if (outcome === 'paused') outcome = 'eof';
          this.deliver(ev, id);
        } else {
          if (ev.type === 'workflow_yield') outcome = 'yield';
          this.deliver(ev, null);
        }
      }, alive);
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        parser.push(value);
      }
      parser.end();
    } catch (e) {
      if (outer.aborted) throw e;
      if (e instanceof ApiError) throw e;
      // A broken or stalled connection after some events: reconnect.
      if (e.name === 'AbortError' || e instanceof TypeError) {
        throw new ApiError(0, 'network', this.stalled ? 'the stream stalled' : e.message);
      }
      throw e;
    } finally {
      clearTimeout(stall);
      outer.removeEventListener('abort', abort);
    }
    return outcome;
  }
}
