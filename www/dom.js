// Building DOM nodes without HTML strings. Every string becomes a text node
// or an attribute value, so text from the server or a model can never turn
// into markup.

// h('button', {class: 'x', onclick: f, disabled: true}, 'Label', child...)
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') el.style.cssText = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value' || k === 'checked' || k === 'indeterminate') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  add(el, children);
  return el;
}

// Appends children: nodes as they are, strings and numbers as text.
export function add(el, children) {
  for (const c of [children].flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

// An image URL the server gave ("api/assets/<id>", absolute http(s), a data
// URL of an image), resolved against the page; anything else is refused.
export function safeImageURL(u) {
  if (typeof u !== 'string' || u === '') return null;
  if (/^data:image\/(png|jpeg|gif|webp|svg\+xml);/i.test(u)) return u;
  try {
    const url = new URL(u, document.baseURI);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'blob:' ? url.href : null;
  } catch {
    return null;
  }
}

// JSON for showing data plainly (unknown events and components).
export function pretty(v) {
  try {
    return JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

export function uid(prefix) {
  uid.n = (uid.n || 0) + 1;
  return `${prefix}-${uid.n}`;
}

export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });
}
