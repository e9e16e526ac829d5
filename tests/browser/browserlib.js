#!/usr/bin/env node
// The shared part of the browser tests: the app in Debian's Chromium,
// driven by playwright-core, against the real stack (lighttpd, workers,
// offline provider) that contrib/quickstart starts. Holds the TAP output,
// the stacks and the fake models the views share, the browser helpers and
// screenshots, and the runner: `node browserlib.js VIEW.test.js...` runs
// each view's checks, in the order given, in one browser against the same
// stacks, and prints TAP (run.sh lists the views). A view is a file that
// exports { run(suite) } (see main below for what a suite holds).
//
// AIVISTA_BROWSER_ONLY=graph (names, comma-separated prefixes) runs only
// those checks. Screenshots of each final screen go to the run's temporary
// directory and are copied to tests/browser/artifacts/ in the build tree.
'use strict';

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { createRequire } = require('module');

const top = process.env.top_srcdir || path.resolve(__dirname, '../..');
const build = process.env.top_builddir || top;
const modules = process.env.AIVISTA_BROWSER_MODULES || path.join(build, 'tests/browser/node_modules');
const artifacts = process.env.AIVISTA_BROWSER_ARTIFACTS || path.join(build, 'tests/browser/artifacts');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const worker = process.env.AIVISTA_WORKER || path.join(build, 'aivista.fcgi');

// -- TAP -------------------------------------------------------------------

let n = 0;
let failures = 0;
const tapName = (name) => String(name).replace(/\s+/g, ' ').replace(/#/g, '\\#');
function ok(cond, name, diag) {
  n++;
  console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${tapName(name)}`);
  if (!cond) {
    failures++;
    if (diag !== undefined) diagnose(diag);
  }
  return !!cond;
}

function is(got, want, name) {
  let same;
  try {
    assert.deepStrictEqual(got, want);
    same = true;
  } catch {
    same = false;
  }
  return ok(same, name, `got:  ${JSON.stringify(got)}\nwant: ${JSON.stringify(want)}`);
}
function skip(name, reason) {
  n++;
  console.log(`ok ${n} - ${tapName(name)} # SKIP ${reason}`);
}
function diagnose(x) {
  for (const line of String(x).split('\n')) console.log(`# ${line}`);
}

class SetupError extends Error {}


// -- the stack ---------------------------------------------------------------

const cleanups = [];
function cleanup() {
  while (cleanups.length) {
    try {
      cleanups.pop()();
    } catch (e) {
      diagnose(`cleanup: ${e.message}`);
    }
  }
}
// fn runs when the run ends, whatever happens (last added, first run).
function onCleanup(fn) {
  cleanups.push(fn);
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanup();
    process.exit(99);
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startStack(home, extraEnv = {}) {
  const env = { ...process.env, AIVISTA_HOME: home, AIVISTA_WORKERS: '3', AIVISTA_WORKER: worker, ...extraEnv };
  delete env.AIVISTA_CONF;
  if (!process.env.LIGHTTPD || process.env.LIGHTTPD === 'no') delete env.LIGHTTPD;
  for (let attempt = 0; attempt < 3; attempt++) {
    env.AIVISTA_PORT = String(await freePort());
    const r = childProcess.spawnSync('bash', [path.join(top, 'contrib/quickstart'), 'start'],
      { env, encoding: 'utf8', timeout: 120000 });
    if (r.status === 0) {
      const stop = () => childProcess.spawnSync('bash', [path.join(top, 'contrib/quickstart'), 'stop'], { env, timeout: 60000 });
      cleanups.push(stop);
      return { base: `http://127.0.0.1:${env.AIVISTA_PORT}/`, home, env };
    }
    if (!/already in use|Address in use/i.test(`${r.stdout}${r.stderr}`)) {
      let log = '';
      try { log = fs.readFileSync(path.join(home, 'log/error.log'), 'utf8').slice(-3000); } catch { /* none */ }
      throw new SetupError(`contrib/quickstart start failed:\n${r.stdout}${r.stderr}\n${log}`);
    }
  }
  throw new SetupError('contrib/quickstart could not find a free port');
}

// The durable events of a thread, as the server replays them.
async function replay(base, threadId) {
  const res = await fetch(new URL(`api/agent/stream?threadId=${encodeURIComponent(threadId)}&lastEventId=0`, base));
  const text = await res.text();
  const out = [];
  for (const block of text.split(/\n\n/)) {
    const id = /^id: (\d+)$/m.exec(block);
    const data = /^data: (\{.*\})$/m.exec(block);
    if (id && data) out.push({ id: Number(id[1]), ...JSON.parse(data[1]) });
  }
  return out;
}


// A stack of its own (home: its directory under the run's) whose chat
// model is the OpenAI-compatible server at url, asked once per call.
function modelStack(home, url) {
  return startStack(home, {
    AIVISTA_WORKERS: '2',
    AIVISTA_PROVIDER_CHAT_KIND: 'openai',
    AIVISTA_PROVIDER_CHAT_BASE_URL: url,
    AIVISTA_PROVIDER_CHAT_API_KEY: 'sk-browser-test-0000',
    AIVISTA_PROVIDER_CHAT_RETRIES: '0',
    AIVISTA_CACHE_MODEL_TTL: '0',
  });
}

// Whether the server runs the workflow name: the refusal of an unknown
// workflow lists the ones it runs.
async function serves(base, name) {
  const res = await fetch(new URL('api/agent/stream', base), {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ workflow: '?', input: {} }) });
  return (await res.json()).detail?.includes(`"${name}"`) ?? false;
}

// A chat service of the test's own on 127.0.0.1, speaking OpenAI's
// protocol: answer(body, res) gets each request's JSON body ({} when it
// is none). Resolves with fake, its server and url set.
function fakeService(fake, answer) {
  fake.server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      let j = {};
      try { j = JSON.parse(data); } catch { /* empty */ }
      answer(j, res);
    });
  });
  return new Promise((resolve) => fake.server.listen(0, '127.0.0.1', () => {
    fake.url = `http://127.0.0.1:${fake.server.address().port}`;
    onCleanup(() => fake.server.close());
    resolve(fake);
  }));
}

// A whole chat completion: the assistant's message (its fields), and the
// tokens it says it used.
function completion(res, message, tokens) {
  const body = JSON.stringify({ choices: [{ message: { role: 'assistant', ...message } }], usage: { total_tokens: tokens } });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

// An OpenAI-compatible chat server for the kill test: it answers the image
// planner and critic, and can hold the critic's answer until told.
function fakeModel() {
  const fake = { hold: false, calls: [], held: null };
  let arrived;
  // The next critic call is held; the promise says when it came.
  fake.arm = () => {
    fake.hold = true;
    fake.critique = new Promise((resolve) => { arrived = resolve; });
    return fake.critique;
  };
  const reply = (res, content) => completion(res, { content }, 10);
  // The agents of orchestrate: the analyser gives the OCR JSON of the
  // text the test drew (fake.ocr), the annotator draws it with
  // image_annotate and then says so.
  fake.ocr = null;
  fake.agent = (facts, messages) => {
    const picture = (facts.workspace || []).find((w) => /^image\//.test(w.mimeType || ''))?.path;
    if (facts.agent === 'vision-analyzer') {
      return { content: `The picture holds ${fake.ocr?.textRegions?.length ?? 0} line of text.\n\`\`\`json\n${JSON.stringify(fake.ocr)}\n\`\`\`` };
    }
    if (facts.agent === 'vision-annotator' && !messages.some((m) => m.role === 'tool')) {
      const regions = (fake.ocr?.textRegions || []).map((r) => ({ type: 'rectangle', ...r.boundingBox, label: r.text }));
      return { content: null, tool_calls: [{ id: 'call_annotate_1', type: 'function',
        function: { name: 'image_annotate', arguments: JSON.stringify({ image_path: picture, regions }) } }] };
    }
    return { content: `Done: ${facts.stage?.description ?? ''}` };
  };
  fake.release = () => {
    const a = fake.held;
    fake.held = null;
    try { a?.(); } catch { /* the worker is gone */ }
  };
  return fakeService(fake, (j, res) => {
    const system = j.messages?.[0]?.content || '';
    // An orchestrate stage: its facts are the user turn's JSON.
    let facts = null;
    // (a vision agent's turn is parts: the facts' text, then the pictures)
    const turn = j.messages?.[1]?.content;
    const said = Array.isArray(turn) ? turn.find((p) => p?.type === 'text')?.text : turn;
    try { facts = JSON.parse(said || ''); } catch { /* not a stage */ }
    if (facts && typeof facts.agent === 'string' && facts.stage) {
      fake.calls.push(`agent:${facts.agent}`);
      completion(res, fake.agent(facts, j.messages), 10);
      return;
    }
    const task = /审查/.test(system) ? 'critique' : 'intent';
    fake.calls.push(task);
    if (task === 'intent') {
      reply(res, JSON.stringify({ action: 'generate_image', subject: 'cat', style: 'cyberpunk', confidence: 0.92, reasoning: 'a picture' }));
      return;
    }
    const answer = () => reply(res, JSON.stringify({ passed: true, score: 0.9, feedback: 'good', suggestions: [] }));
    if (fake.hold) {
      fake.hold = false;
      fake.held = answer;
      res.on('error', () => {});
      arrived();
    } else {
      answer();
    }
  });
}

// A small RGB PNG (for a reference image).
function png(w, hgt, rgb) {
  const zlib = require('zlib');
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (kind, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(hgt, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => rgb[i % 3])]);
  const raw = Buffer.concat(Array.from({ length: hgt }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// A TCP relay in front of a stack, whose connections can all be cut at
// once: the network dropping, while the server goes on.
function relay(target) {
  const socks = new Set();
  const srv = net.createServer((c) => {
    const u = net.connect(Number(new URL(target).port), '127.0.0.1');
    const close = () => { c.destroy(); u.destroy(); socks.delete(c); socks.delete(u); };
    for (const x of [c, u]) {
      socks.add(x);
      x.on('error', close);
      x.on('close', close);
    }
    c.pipe(u);
    u.pipe(c);
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => {
    onCleanup(() => srv.close());
    resolve({
      base: `http://127.0.0.1:${srv.address().port}/`,
      cut() {
        const n = socks.size;
        for (const x of socks) x.destroy();
        return n;
      },
    });
  }));
}

// -- browser helpers ---------------------------------------------------------

let shots;
// A screenshot of the whole page (fullPage false: what is on screen),
// copied to the artifacts.
async function shot(page, name, { fullPage = true } = {}) {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  fs.mkdirSync(artifacts, { recursive: true });
  fs.copyFileSync(file, path.join(artifacts, `${name}.png`));
  diagnose(`screenshot ${path.join(artifacts, `${name}.png`)}`);
}

// Watches the page's requests to the API.
function recordApi(page) {
  const log = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/agent/')) log.push({ method: r.method(), url: r.url(), body: r.postData() });
  });
  return log;
}

// The bodies of the page's POSTs to /api/agent/<what> (stream, confirm),
// parsed, in order.
const posts = (api, what = 'stream') => api.filter((r) => r.method === 'POST' && r.url.endsWith(`/api/agent/${what}`))
  .map((r) => JSON.parse(r.body));

// The page's script errors, as they happen.
function pageErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

// A new page on the app's view (#/view), its script errors and its API
// requests recorded from the start; size: its viewport, when not the
// browser's.
async function openView(ctx, base, view, size) {
  const page = await ctx.newPage();
  const errors = pageErrors(page);
  const api = recordApi(page);
  if (size) await page.setViewportSize(size);
  await page.goto(`${base}#/${view}`);
  return { page, errors, api };
}

// The page had no script error (a check, named by what), and is closed.
async function closeView(page, errors, what) {
  is(errors, [], `${what}: no script errors`);
  await page.close();
}

// The thread the page shows in view (#/view/ID).
async function threadOf(page, view) {
  return decodeURIComponent((await page.evaluate(() => location.hash)).replace(new RegExp(`^#/${view}/`), ''));
}

// The words "null" and "undefined" never reach the page's text.
async function noNull(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const m = /null|undefined|\[object Object\]/.exec(text);
  ok(!m, `${where}: no "null", "undefined" or "[object Object]" in the page${m ? ` (…${text.slice(Math.max(0, m.index - 40), m.index + 20)}…)` : ''}`);
}

// The element is wholly on screen: in the viewport, and not under the
// phone's navigation bar.
async function inView(page, selector) {
  return page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    const nav = document.getElementById('studios').getBoundingClientRect();
    const bottom = getComputedStyle(document.getElementById('studios')).position === 'fixed' ? nav.top : innerHeight;
    return { ok: r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= bottom + 0.5 && r.right <= innerWidth + 0.5,
      top: Math.round(r.top), bottom: Math.round(r.bottom), limit: Math.round(bottom) };
  });
}

const thoughtTexts = (page, scope) => page.$$eval(`${scope} .thought-log .thought`, (els) => els.map((e) => e.textContent));

// -- the runner ----------------------------------------------------------------------

// Runs each view file's checks in one browser. A view's run(suite) gets:
// ctx (the browser), base (the offline stack), slow() (a stack whose chat
// model is fakeModel's, started when first asked: {base, fake}),
// home(name) (a directory for another stack), run(name, fn) (one named
// check group: a failure in it is one failed check with a screenshot, and
// the next group runs) and wanted(name) (not left out by
// AIVISTA_BROWSER_ONLY).
async function main(views) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'avbr-'));
  onCleanup(() => { if (!failures && !process.env.AIVISTA_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true }); });
  shots = path.join(tmp, 'screens');
  fs.mkdirSync(shots);
  fs.rmSync(artifacts, { recursive: true, force: true });   // this run's screens only
  diagnose(`temporary directory ${tmp}`);

  // Static: no HTML strings from data anywhere in the app.
  const www = path.join(top, 'www');
  const bad = fs.readdirSync(www).filter((f) => f.endsWith('.js'))
    .filter((f) => /\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write/.test(fs.readFileSync(path.join(www, f), 'utf8')));
  is(bad, [], 'the app never builds HTML from strings');

  let playwright;
  try {
    playwright = createRequire(path.join(modules, 'x.js'))('playwright-core');
  } catch (e) {
    throw new SetupError(`playwright-core is not installed in ${modules}: ${e.message}`);
  }
  if (!fs.existsSync(worker)) throw new SetupError(`no worker at ${worker} (build it first)`);

  const stack = await startStack(path.join(tmp, 'a'));
  ok(true, `the stack runs at ${stack.base}`);

  const ctx = await playwright.chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  onCleanup(() => { ctx.close().catch(() => {}); });
  // The page comes with the shipped configuration's policy, and the app
  // does nothing it refuses (Chromium logs each refusal).
  const policy = (await fetch(stack.base)).headers.get('content-security-policy') || '';
  ok(policy.includes("frame-ancestors 'none'") && policy.includes("script-src 'self'"),
    `the page is served with the app's Content-Security-Policy (${policy})`);
  const refusals = [];
  ctx.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) refusals.push(m.text()); });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.base.replace(/\/$/, '') });
  ctx.setDefaultTimeout(30000);

  // AIVISTA_BROWSER_ONLY=graph,image runs only the checks named.
  const only = (process.env.AIVISTA_BROWSER_ONLY || '').split(',').filter(Boolean);
  const wanted = (name) => !only.length || only.some((o) => name.startsWith(o));
  const run = async (name, fn) => {
    if (!wanted(name)) return;
    try {
      await fn();
    } catch (e) {
      if (e instanceof SetupError) throw e;
      ok(false, `${name}: ${e.message.split('\n')[0]}`, e.stack);
      await ctx.setOffline(false);
      for (const p of ctx.pages()) {
        await p.screenshot({ path: path.join(shots, `failed-${name}.png`), fullPage: true }).catch(() => {});
        fs.mkdirSync(artifacts, { recursive: true });
        try { fs.copyFileSync(path.join(shots, `failed-${name}.png`), path.join(artifacts, `failed-${name}.png`)); } catch { /* none */ }
        await p.close().catch(() => {});
      }
    }
  };
  let slow = null;
  const suite = {
    ctx, base: stack.base, run, wanted,
    home: (name) => path.join(tmp, name),
    slow: () => {
      slow = slow || fakeModel().then(async (fake) => ({ fake, base: (await modelStack(path.join(tmp, 'b'), fake.url)).base }));
      return slow;
    },
  };
  for (const view of views) await require(path.resolve(view)).run(suite);
  ok(refusals.length === 0, `nothing the app did was refused by its Content-Security-Policy${refusals.length ? `: ${refusals.length}, first: ${refusals[0]}` : ''}`);
  await ctx.close();
}

// Runs the views (main), prints the plan, stops what the run started and
// exits: 0, 1 when the run itself failed, 99 when it could not be set up.
function runViews(views) {
  main(views).then(() => {
    cleanup();
    console.log(`1..${n}`);
    process.exit(0);
  }, (e) => {
    if (e instanceof SetupError) {
      diagnose(e.message);
      console.log(`Bail out! ${e.message.split('\n')[0]}`);
      cleanup();
      process.exit(99);
    }
    ok(false, `unexpected: ${e.message}`, e.stack);
    cleanup();
    console.log(`1..${n}`);
    process.exit(1);
  });
}

if (require.main === module) runViews(process.argv.slice(2));

module.exports = {
  ok, is, skip, diagnose, SetupError, onCleanup, startStack, modelStack, serves, replay,
  fakeService, completion, fakeModel, png, relay,
  shot, recordApi, posts, pageErrors, openView, closeView, threadOf, noNull, inView, thoughtTexts, runViews,
};
