// The browser test of what the views share (run with the other views by
// run.sh; `node view.test.js` runs it alone): the lifecycle of view.js in
// each of the five views (its head, a thread that cannot be opened, a
// thread of another workflow handed to its own view), and the page's
// words: no key defined twice, in one table or in two, every word in both
// languages, every view's table loaded, and the words the server's
// catalogue (the engine's src/text/msg.c and each workflow's message
// catalogue under src/wf/) also writes said as the server says them,
// no other word of the page taking an id of the server's.
'use strict';

const fs = require('fs');
const path = require('path');
const { ok, is, openView, closeView } = require('./browserlib');

const top = process.env.top_srcdir || path.resolve(__dirname, '../..');
// The views: their route, the workflow they run, another view's workflow.
const VIEWS = [
  { id: 'image', workflow: 'image', other: 'note' },
  { id: 'note', workflow: 'note', other: 'chat' },
  { id: 'graph', workflow: 'graph_edit', other: 'orchestrate' },
  { id: 'chat', workflow: 'chat', other: 'image' },
  { id: 'orch', workflow: 'orchestrate', other: 'graph_edit' },
];
const viewOf = (workflow) => VIEWS.find((v) => v.workflow === workflow).id;

// The server's catalogue: id → {zh, en}, its C strings read as they print,
// from the engine's words and every workflow's (src/wf/*/*_msg.c).
function catalogue() {
  const wf = path.join(top, 'src/wf');
  const files = [path.join(top, 'src/text/msg.c')];
  for (const d of fs.readdirSync(wf, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    files.push(...fs.readdirSync(path.join(wf, d.name)).filter((f) => /_msg\.c$/.test(f)).map((f) => path.join(wf, d.name, f)));
  }
  const out = {};
  const str = (s) => JSON.parse(`"${s}"`);
  for (const f of files) {
    const c = fs.readFileSync(f, 'utf8');
    for (const m of c.matchAll(/\{\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\}/g)) {
      out[m[1]] = { zh: str(m[2]), en: str(m[3]) };
    }
  }
  return out;
}

// The keys each object literal of a words file defines more than once (a
// later one silently wins): "file: table key".
function keysTwice() {
  const www = path.join(top, 'www');
  const twice = [];
  for (const f of fs.readdirSync(www).filter((x) => /^i18n.*\.js$/.test(x))) {
    let table = null;
    let seen = null;
    for (const line of fs.readFileSync(path.join(www, f), 'utf8').split('\n')) {
      const open = /^(?:export )?const (\w+) = \{$/.exec(line);
      if (open) {
        table = open[1];
        seen = new Set();
        continue;
      }
      if (line === '};') table = null;
      const key = table && /^\s*'([^']+)':/.exec(line);
      if (!key) continue;
      if (seen.has(key[1])) twice.push(`${f}: ${table} ${key[1]}`);
      seen.add(key[1]);
    }
  }
  return twice;
}

async function testWords(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image');
  is(keysTwice(), [], 'words: no key is written twice in one table');
  const words = await page.evaluate(async () => (await import('./i18n.js')).wordTables());
  is(words.problems, [], 'words: each key has one owner and both languages');
  const owners = new Set(Object.values(words.owners));
  is(['app', 'server', ...VIEWS.map((v) => v.id)].filter((o) => !owners.has(o)), [],
    'words: the shared table, the server\'s words and each view\'s own are loaded');
  const srv = catalogue();
  ok(Object.keys(srv).length > 100, `words: the server's catalogue is read (${Object.keys(srv).length} ids)`);
  const mine = Object.keys(words.owners).filter((k) => words.owners[k] === 'server');
  const differ = mine.filter((k) => !srv[k] || srv[k].en !== words.en[k] || srv[k].zh !== words.zh[k])
    .map((k) => `${k}: page "${words.en[k]}" / "${words.zh[k]}", server "${srv[k]?.en}" / "${srv[k]?.zh}"`);
  ok(mine.length > 0 && differ.length === 0, `words: the server's words read as the server says them (${mine.length}${differ.length ? `; ${differ.join('; ')}` : ''})`);
  const taken = Object.keys(words.owners).filter((k) => words.owners[k] !== 'server' && srv[k]);
  is(taken, [], 'words: no other word of the page takes an id of the server\'s');
  await closeView(page, errors, 'words');
}

// A thread id of the right shape whose signature does not verify.
const FORGED = 'v1.AAAAAAAAAAAAAAAAAAAAAA.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
// A thread the test makes up: GET /api/threads/ID says it is of workflow,
// and its stream has nothing more to say.
const MADE_UP = 'v1.DDDDDDDDDDDDDDDDDDDDDD.EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE';

async function testLifecycle(ctx, base) {
  for (const v of VIEWS) {
    const { page, errors } = await openView(ctx, base, v.id);
    const head = await page.$eval(`#${v.id}-view .view-head`, (e) => [e.querySelector('h2').textContent,
      e.querySelector('.stream-status').dataset.state, e.querySelector('button').textContent]);
    const want = await page.evaluate(async (id) => {
      const { t } = await import('./i18n.js');
      return [t(`${id}.title`), t(`${id}.new`)];
    }, v.id);
    is(head, [want[0], 'idle', want[1]], `${v.id}: the head is the view's title, the connection's status and its New button`);

    // A thread that cannot be opened: said so, and New offered.
    await page.goto(`${base}#/${v.id}/${FORGED}`);
    await page.waitForSelector(`#${v.id}-view .error-box:not([hidden]) .error-actions button`, { timeout: 10000 });
    const said = await page.$eval(`#${v.id}-view`, (e) => [e.querySelector('.stream-status').dataset.state,
      e.querySelector('.error-box .error-actions button').textContent]);
    is(said, ['failed', want[1]], `${v.id}: a thread that cannot be opened is said so, and New is offered`);
    await page.click(`#${v.id}-view .error-box .error-actions button`);
    await page.waitForFunction((h) => location.hash === h, `#/${v.id}`, { timeout: 5000 });
    is(await page.$eval(`#${v.id}-view`, (e) => [e.querySelector('.error-box').hidden, e.querySelector('.stream-status').dataset.state]),
      [true, 'idle'], `${v.id}: New starts over, the error gone`);

    // A thread of another workflow: its own view shows it.
    await page.route(/\/api\/threads\/v1\.DDDD/, (route) => route.fulfill({ status: 200, contentType: 'application/json',
      body: JSON.stringify({ threadId: MADE_UP, workflow: v.other, status: 'done', state: {} }) }));
    await page.route(/\/api\/agent\/stream\?threadId=v1\.DDDD/, (route) => route.fulfill({ status: 200, contentType: 'text/event-stream',
      body: 'data: [DONE]\n\n' }));
    await page.goto(`${base}#/${v.id}/${MADE_UP}`);
    const there = `#/${viewOf(v.other)}/${MADE_UP}`;
    const went = await page.waitForFunction((h) => location.hash === h, there, { timeout: 10000 }).then(() => true, () => false);
    ok(went && await page.isVisible(`#${viewOf(v.other)}-view`), `${v.id}: a thread of ${v.other} goes to its own view (${await page.evaluate(() => location.hash)})`);
    await page.evaluate(() => localStorage.clear());
    await closeView(page, errors, `${v.id} lifecycle`);
  }
}

async function run(s) {
  await s.run('words', () => testWords(s.ctx, s.base));
  await s.run('lifecycle', () => testLifecycle(s.ctx, s.base));
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
