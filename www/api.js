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
    throw new ApiError(0, 'network', e.message);
  }
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

// {title, next}: what went wrong and what to do, in the page's language.
// The server's own detail is added as it is by the caller when useful.
export function explain(err) {
  if (err instanceof ApiError) {
    const key = `err.${err.code}`;
    if (t(key) !== key) return { title: t(key), next: t(`${key}.next`) };
    if (err.status >= 500) return { title: t('err.server'), next: t('err.server.next') };
    if (err.status >= 400) return { title: t('err.refused'), next: t('err.refused.next') };
  }
  if (err && err.code === 'lost') return { title: t('err.lost'), next: t('err.lost.next') };
  return { title: t('err.unknown'), next: t('err.unknown.next') };
}
