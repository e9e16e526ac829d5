// Markdown as people and models write it, drawn as DOM nodes, never as
// HTML text: headings, paragraphs, lists (nested by indentation), block
// quotes, tables, rules, fenced code with a copy button, inline code,
// bold, italic, strikethrough and links. Raw HTML shows as the text it is;
// a picture shows as its link and is never loaded (nothing comes from
// elsewhere); links go to http, https or mailto only, in a new tab,
// without the page as referrer. Bounded: past MAX_CHARS the rest shows as
// plain text, and nesting stops at MAX_DEPTH.
import { h } from './dom.js';

const MAX_CHARS = 100000;
const MAX_DEPTH = 8;
// An emphasis closes within this many characters, and a line longer than
// MAX_LINE is text: no input costs more than linear work per line.
const MAX_SPAN = 2000;
const MAX_LINE = 20000;

// text → a DocumentFragment. opts.copy(code, button): what a code block's
// copy button does; opts.copyLabel: its label (a node or string).
export function renderMarkdown(text, opts = {}) {
  const src = String(text ?? '');
  const frag = document.createDocumentFragment();
  frag.append(...blocks(src.slice(0, MAX_CHARS).replace(/\r\n?/g, '\n').split('\n'), opts, 0));
  if (src.length > MAX_CHARS) frag.append(h('p', {}, src.slice(MAX_CHARS)));
  return frag;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function blocks(lines, opts, depth) {
  const out = [];
  let para = [];
  const flush = () => {
    if (!para.length) return;
    const p = h('p', {});
    para.forEach((l, i) => {
      if (i) p.append(h('br', {}));
      p.append(...inline(l.trim(), depth));
    });
    out.push(p);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (!line.trim()) {
      flush();
    } else if ((m = FENCE.exec(line))) {
      flush();
      const end = new RegExp(`^ {0,3}${m[1][0]}{${m[1].length},}\\s*$`);
      const code = [];
      for (i++; i < lines.length && !end.test(lines[i]); i++) code.push(lines[i]);
      out.push(codeBlock(code.join('\n'), m[2], opts));
    } else if ((m = HEADING.exec(line))) {
      flush();
      out.push(h(`h${Math.min(6, m[1].length + 2)}`, { class: 'md-h' }, ...inline(m[2], depth)));
    } else if (RULE.test(line)) {
      flush();
      out.push(h('hr', {}));
    } else if (QUOTE.test(line) && depth < MAX_DEPTH) {
      flush();
      const inner = [];
      for (; i < lines.length && (m = QUOTE.exec(lines[i])); i++) inner.push(m[1]);
      i--;
      out.push(h('blockquote', {}, ...blocks(inner, opts, depth + 1)));
    } else if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      flush();
      const rows = [line];
      for (i += 2; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++) rows.push(lines[i]);
      i--;
      out.push(table(rows, lines, depth));
    } else if (ITEM.test(line) && depth < MAX_DEPTH) {
      flush();
      const items = [];
      // One list: its items at any depth, until a blank line is followed
      // by something else, or the first level changes from bullets to
      // numbers or back.
      const kind = (l) => /\d/.test(ITEM.exec(l)[2]);
      const lead = ITEM.exec(line)[1].length;
      for (; i < lines.length; i++) {
        const l = lines[i];
        const it = ITEM.exec(l);
        if (it && items.length && it[1].length <= lead && kind(l) !== kind(line)) break;
        if (it) items.push([l]);
        else if (l.trim() && /^\s{2,}/.test(l) && items.length) items[items.length - 1].push(l);
        else if (!l.trim() && i + 1 < lines.length && (ITEM.test(lines[i + 1]) || /^\s{2,}\S/.test(lines[i + 1]))) continue;
        else break;
      }
      i--;
      out.push(list(items, opts, depth));
    } else {
      para.push(line);
    }
  }
  flush();
  return out;
}

// Items ([first line, more lines…]) at the first item's indentation; an
// item indented further belongs to the one before it, as a list of its own.
function list(items, opts, depth) {
  const indent = (l) => ITEM.exec(l)[1].replace(/\t/g, '    ').length;
  const base = indent(items[0][0]);
  const ordered = /\d/.test(ITEM.exec(items[0][0])[2]);
  const start = ordered ? parseInt(ITEM.exec(items[0][0])[2], 10) : 1;
  const el = h(ordered ? 'ol' : 'ul', ordered && start !== 1 ? { start } : {});
  let li = null;
  let sub = [];
  const close = () => {
    if (li && sub.length) li.append(list(sub, opts, depth + 1));
    sub = [];
  };
  for (const it of items) {
    if (li && indent(it[0]) > base + 1 && depth + 1 < MAX_DEPTH) {
      sub.push(it);
      continue;
    }
    close();
    const m = ITEM.exec(it[0]);
    const rest = it.slice(1).map((l) => l.trim());
    li = h('li', {}, ...inline(m[3], depth));
    for (const l of rest) li.append(h('br', {}), ...inline(l, depth));
    el.append(li);
  }
  close();
  return el;
}

function cells(row) {
  let s = row.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function table(rows, _lines, depth) {
  const [head, ...body] = rows.map(cells);
  const n = head.length;
  const tr = (cs, tag) => h('tr', {}, ...Array.from({ length: n }, (_, k) => h(tag, {}, ...inline(cs[k] ?? '', depth))));
  return h('div', { class: 'md-table' }, h('table', {}, h('thead', {}, tr(head, 'th')), h('tbody', {}, ...body.map((r) => tr(r, 'td')))));
}

function codeBlock(code, lang, opts) {
  const pre = h('pre', { class: 'md-code' }, h('code', lang ? { dataset: { lang } } : {}, code));
  const bar = h('div', { class: 'md-code-bar' }, h('span', { class: 'muted' }, lang || ''));
  if (opts.copy) {
    const b = h('button', { type: 'button', class: 'small md-copy' }, opts.copyLabel ?? 'Copy');
    b.addEventListener('click', () => opts.copy(code, b));
    bar.append(b);
  }
  return h('div', { class: 'md-code-block' }, bar, pre);
}

// Inline: `code`, [text](url), <url>, bare http(s) URLs, **bold**,
// __bold__, *italic*, _italic_, ~~strike~~, \-escapes; the rest is text.
const INLINE = /`+|\[|<(?:https?:\/\/|mailto:)[^\s<>]+>|https?:\/\/[^\s<>()\]]+[^\s<>()\].,;:!?'"，。；：！？]|\*\*|__|~~|\*|_|\\[\\`*_{}[\]()#+\-.!|~<>]/g;

function inline(text, depth) {
  if (text.length > MAX_LINE) return [text];
  const out = [];
  let plain = '';
  const push = (node) => {
    if (plain) out.push(plain);
    plain = '';
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    INLINE.lastIndex = i;
    const m = INLINE.exec(text);
    if (!m) break;
    plain += text.slice(i, m.index);
    const tok = m[0];
    let used = 0;
    if (tok[0] === '\\') {
      plain += tok[1];
      used = 2;
    } else if (tok[0] === '`') {
      const end = text.indexOf(tok, m.index + tok.length);
      if (end > 0) {
        push(h('code', {}, text.slice(m.index + tok.length, end).trim() || ' '));
        used = end + tok.length - m.index;
      }
    } else if (tok === '[') {
      const link = /^(!?)\[([^\]]*)\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(m.index - (text[m.index - 1] === '!' ? 1 : 0)));
      if (link) {
        const bang = link[1] === '!';
        if (bang) plain = plain.slice(0, -1);
        const label = link[2] || link[3];
        push(anchor(link[3], depth < MAX_DEPTH ? inline(label, depth + 1) : [label]));
        used = link[0].length - (bang ? 1 : 0);
      }
    } else if (tok[0] === '<' || tok.startsWith('http')) {
      const url = tok[0] === '<' ? tok.slice(1, -1) : tok;
      push(anchor(url, [url]));
      used = tok.length;
    } else if (depth < MAX_DEPTH) {
      const end = closing(text, tok, m.index + tok.length);
      if (end > m.index + tok.length) {
        const inner = inline(text.slice(m.index + tok.length, end), depth + 1);
        const tag = tok === '~~' ? 's' : tok.length === 2 ? 'strong' : 'em';
        push(h(tag, {}, ...inner));
        used = end + tok.length - m.index;
      }
    }
    if (used) {
      i = m.index + used;
    } else {
      plain += tok;
      i = m.index + tok.length;
    }
  }
  plain += text.slice(i);
  if (plain) out.push(plain);
  return out;
}

// Where the emphasis opened by tok at from closes: the same marker, not
// just after a space (and for _, not inside a word); -1 when it does not.
function closing(text, tok, from) {
  if (/\s/.test(text[from] || ' ')) return -1;
  for (let k = text.indexOf(tok, from); k > 0 && k - from <= MAX_SPAN; k = text.indexOf(tok, k + 1)) {
    if (/\s/.test(text[k - 1])) continue;
    if (tok.length === 1 && text[k + 1] === tok) {
      k++;
      continue;
    }
    if (tok[0] === '_' && /[\p{L}\p{N}]/u.test(text[k + tok.length] || '')) continue;
    return k;
  }
  return -1;
}

// A link to a web or mail address; anything else is its text.
function anchor(url, label) {
  let u = null;
  try {
    u = new URL(url);
  } catch {
    u = null;
  }
  if (!u || !['http:', 'https:', 'mailto:'].includes(u.protocol)) return h('span', {}, ...label);
  return h('a', { href: u.href, target: '_blank', rel: 'noopener noreferrer nofollow' }, ...label);
}
