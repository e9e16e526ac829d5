// The HTTP API under api/ (docs/api.md): JSON requests, problem+json errors
// turned into ApiError, and the words a person reads for each error.
import { t } from './i18n.js';

// Relative to the page, so the app works wherever the site mounts it.
export const apiBase = () => new URL('api/', document.baseURI);

export class ApiError extends Error {
  // status: HTTP status (0: no answer); code: the problem's code; detail:
  // the server's explanation (shown as it is, as text).
  constructor(status, code, detail, title) {
    super(detail || title || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || (status ? `http_${status}` : 'network');
    this.detail = detail || '';
    this.title = title || '';
  }

  // The server is not there: no answer at all, or the web server's own
  // 502/503/504 (a refusal of the server's has a problem code).
  get down() {
    return this.status === 0 || ['http_502', 'http_503', 'http_504'].includes(this.code);
  }

  // Worth trying again by itself: no answer, or the server is busy.
  get transient() {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504 ||
      this.status === 429 || this.code === 'store_unavailable' || this.code === 'overloaded';
  }
}

// The ApiError a non-2xx response stands for.
export async function problemOf(res) {
  let p = {};
  try {
    const text = await res.text();
    p = JSON.parse(text);
  } catch { /* not JSON: the status says enough */ }
  return new ApiError(res.status, p.code, p.detail, p.title);
}

// Whether the server answered the last request: every request says, and
// onNet(fn) hears each change (fn(true) on the first answer after none)
// and returns the function that stops it hearing.
let up = true;
const netListeners = new Set();
export function onNet(fn) {
  netListeners.add(fn);
  return () => netListeners.delete(fn);
}
function setUp(now) {
  if (now === up) return;
  up = now;
  for (const fn of [...netListeners]) {
    try { fn(now); } catch (e) { console.error('a network listener failed:', e); }
  }
}
// A web server's own error page (no problem+json) for 502/503/504: the
// server behind it is not there.
const gatewayDown = (res) => [502, 503, 504].includes(res.status) &&
  !/json/i.test(res.headers.get('Content-Type') || '');

export async function request(path, { method = 'GET', body, signal, headers = {} } = {}) {
  let res;
  try {
    res = await fetch(new URL(path, apiBase()), {
      method,
      signal,
      cache: 'no-store',
      headers: body !== undefined ? { 'Content-Type': 'application/json', ...headers } : headers,
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    setUp(false);
    throw new ApiError(0, 'network', e.message);
  }
  setUp(!gatewayDown(res));
  return res;
}

export async function getJSON(path, opts) {
  const res = await request(path, opts);
  if (!res.ok) throw await problemOf(res);
  try {
    return await res.json();
  } catch {
    throw new ApiError(res.status, 'bad_answer', 'the answer was not JSON');
  }
}

export const health = (signal) => request('health', { signal });
export const getThread = (id, signal) => getJSON(`threads/${encodeURIComponent(id)}`, { signal });
export const assetURL = (id) => new URL(`assets/${encodeURIComponent(id)}`, apiBase()).href;

// The asset id in one of our asset URLs ("api/assets/<id>", relative or
// absolute), else null.
export function assetId(url) {
  const m = /(?:^|\/)api\/assets\/([\w-]+)(?:[?#]|$)/.exec(String(url ?? ''));
  return m ? m[1] : null;
}

// A picture as a PNG people can post (GET /api/assets/{id}?format=png):
// an SVG rendering is rasterised by the server on the first request.
export function pngURL(id, { width, download } = {}) {
  const u = new URL(`assets/${encodeURIComponent(id)}`, apiBase());
  u.searchParams.set('format', 'png');
  if (width) u.searchParams.set('width', String(width));
  if (download) u.searchParams.set('download', '1');
  return u.href;
}

// The UTF-8 length of a text: what the server's limits count.
export const byteLength = (s) => new TextEncoder().encode(String(s ?? '')).length;

// {key, nextKey, params}: what went wrong and what to do, as the page's
// own words (keys, so a language switch rewrites them); title and next are
// the same words now.
export function explain(err) {
  const x = explainKeys(err);
  return { ...x, title: t(x.key, x.params), next: x.nextKey ? t(x.nextKey, x.params) : '' };
}

function explainKeys(err) {
  if (err instanceof ApiError) {
    const key = `err.${err.code}`;
    // A text over the server's limit: said with the limit, in the page's words.
    const m = /longer than (\d+) bytes/.exec(err.detail || '');
    if (err.code === 'bad_request' && m) return { key: 'err.too_long', nextKey: 'err.too_long.next', params: { max: m[1] } };
    if (t(key) !== key) return { key, nextKey: `${key}.next` };
    if (err.status >= 500) return { key: 'err.server', nextKey: 'err.server.next' };
    if (err.status >= 400) return { key: 'err.refused', nextKey: 'err.refused.next' };
  }
  if (err && err.code === 'lost') return { key: 'err.lost', nextKey: 'err.lost.next' };
  return { key: 'err.unknown', nextKey: 'err.unknown.next' };
}
