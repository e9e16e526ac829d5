// The browser test of what every view shares (run with the other views by
// run.sh; `node threads.test.js` runs it alone): the stream's rendering
// rules (a made-up stream with unknown components and events and markup in
// the text is shown plainly, as text); the defects ("null", a failed turn,
// the byte limit, removing a thread from the recent list); a worker
// killed in the middle of a stream (a stack whose chat model is a fake
// that holds the critic's call: the page reconnects with the last event
// id and ends complete, no entry twice); the network dropping in the
// middle of a stream; one step per request (the stream ends with
// workflow_yield each time).
'use strict';

const {
  ok, is, replay, relay, shot, recordApi, threadOf, noNull, thoughtTexts, startStack, openView,
} = require('./browserlib');

// -- rendering rules -------------------------------------------------------

async function testRendering(ctx, base) {
  const page = await ctx.newPage();
  const id = 'v1.AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
  const events = [
    { type: 'thread_start', threadId: id, workflow: 'image' },
    { type: 'agent_start', node: 'planner', agent: 'planner' },
    { type: 'thought_log', node: 'planner', message: '<b>not bold</b><img src=x onerror="window.__xss=1">' },
    { type: 'mystery_event', node: 'planner', detail: '<script>window.__xss=2</script>' },
    { type: 'agent_end', node: 'planner' },
    { type: 'gen_ui_component', node: 'genui', component: { widgetType: 'HologramViewer', props: { html: '<img src=y onerror="window.__xss=3">' } } },
    { type: 'gen_ui_component', node: 'genui', component: { widgetType: 'AgentMessage', props: { text: '<i>plain</i>', state: 'success' } } },
    { type: 'workflow_complete', threadId: id },
  ];
  const body = `${events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify({ timestamp: 1, ...e })}\n\n`).join('')}data: [DONE]\n\n`;
  await page.route(/\/api\/threads\/v1\.AAAA/, (route) => route.fulfill({ status: 200, contentType: 'application/json',
    body: JSON.stringify({ threadId: id, workflow: 'image', status: 'done', state: { messages: [{ role: 'user', content: 'test <u>request</u>' }] } }) }));
  await page.route(/\/api\/agent\/stream\?threadId=v1\.AAAA/, (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body }));
  await page.goto(`${base}#/image/${id}`);
  await page.waitForSelector('#image-view .turn[data-state="done"]', { timeout: 15000 });
  const thought = await page.textContent('#image-view .thought-log .thought');
  is(thought, events[2].message, 'rendering: model text is shown as text, markup and all');
  ok(await page.$('#image-view .unknown code') !== null &&
     (await page.$$eval('#image-view details.unknown code', (els) => els.map((e) => e.textContent))).includes('mystery_event'),
     'rendering: an unknown event is listed plainly by its type');
  const comp = await page.$eval('#image-view .component.unknown', (e) => e.textContent).catch(() => '');
  ok(comp.includes('HologramViewer') && comp.includes('<img src=y'), 'rendering: an unknown component is shown plainly with its props');
  is(await page.textContent('#image-view .agent-message .agent-text'), '<i>plain</i>', 'rendering: AgentMessage text stays text');
  is(await page.evaluate(() => window.__xss ?? null), null, 'rendering: nothing from the stream ran as script');
  is(await page.textContent('#image-view .bubble.user p'), 'test <u>request</u>', 'rendering: the request comes back from the thread state after a reload');
  await page.evaluate(() => localStorage.clear());
  await page.close();
}

// -- the defects: "null", a failed turn, the byte limit, removing a thread ---------

async function testDefects(ctx, base) {
  const { page, api } = await openView(ctx, base, 'image');
  // An empty request: the page's own message, with nothing absent written out.
  await page.click('#image-view form.composer button[type="submit"]');
  await page.waitForSelector('#image-view .error-box:not([hidden])');
  await noNull(page, 'an empty request');

  // A turn that fails is not "Done".
  await page.fill('#image-view textarea', '修改这里');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#image-view .turn[data-state="failed"]', { timeout: 20000 });
  const st = await page.$eval('#image-view .stream-status', (e) => [e.dataset.state, e.textContent]);
  ok(st[0] === 'error' && !/done/i.test(st[1]), `a failed turn: the status says it did not finish (${st.join(': ')})`);
  const threadId = await threadOf(page, 'image');
  await page.waitForSelector(`#threads li[data-thread="${threadId}"][data-status="error"]`, { timeout: 5000 });
  ok(true, 'a failed turn: the recent list agrees');
  const entries = await page.$$eval('#image-view .turn .entry', (els) => els.map((e) => e.textContent).join(' '));
  ok(!/mask_required|unknown_intent|generate_image/.test(entries), `a failed turn: no machine codes in the steps (${entries.slice(0, 80)}…)`);
  await noNull(page, 'a failed turn');
  await shot(page, 'image-failed-1280-en');

  // Removing a thread from the list can be undone.
  const before2 = await page.$$eval('#threads li', (els) => els.length);
  await page.click(`#threads li[data-thread="${threadId}"] .thread-forget`);
  is(await page.$$eval('#threads li', (els) => els.length), before2 - 1, 'recent list: a thread is removed');
  await page.click('.toast button', { timeout: 2000 }).catch(() => {});
  await page.waitForSelector(`#threads li[data-thread="${threadId}"]`, { timeout: 2000 }).catch(() => {});
  is(await page.$$eval('#threads li', (els) => els.length), before2, 'recent list: and put back by Undo');

  // The byte limit: 1,400 Chinese characters are 4,200 bytes, more than the
  // server takes, though fewer than 4,000 characters.
  await page.fill('#image-view textarea', '猫'.repeat(1400));
  is(await page.$eval('#image-view .counter', (e) => [e.textContent, e.dataset.over]).catch(() => null), ['4200 / 4000', 'true'],
    'byte limit: the counter counts what the server counts, and says it is over');
  const before = api.length;
  await page.click('#image-view form.composer button[type="submit"]');
  const said = await page.textContent('#image-view .error-box');
  ok(/longer than the server takes \(4000 bytes\)/.test(said) && /Chinese character counts as 3/.test(said),
    `byte limit: refused in the page's language, with why (${said})`);
  is(api.length, before, 'byte limit: nothing is sent');
  await page.click('#lang');
  const zh = await page.textContent('#image-view .error-box');
  ok(/超过了服务器能接受的长度/.test(zh), `byte limit: the refusal is rewritten when the language changes (${zh})`);
  await page.click('#lang');
  is((await page.inputValue('#image-view textarea')).length, 1400, 'byte limit: the text stays for shortening');
  await page.fill('#image-view textarea', '');
  await page.close();
}

// -- a worker killed mid-stream ------------------------------------------------

async function testKill(ctx, base, fake) {
  const page = await ctx.newPage();
  const api = recordApi(page);
  const states = [];
  await page.exposeFunction('__streamState', (s) => states.push(s));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const s = document.querySelector('#image-view .stream-status')?.dataset.state;
      if (s && s !== window.__last) {
        window.__last = s;
        window.__streamState(s);
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  });
  await page.goto(`${base}#/image`);
  fake.arm();
  const response = page.waitForResponse((r) => r.url().endsWith('/api/agent/stream') && r.request().method() === 'POST');
  await page.fill('#image-view textarea', 'a cyberpunk cat');
  await page.click('#image-view form.composer button[type="submit"]');
  const res = await response;
  const pid = Number(res.headers()['x-aivista-worker']);
  ok(pid > 1, `kill: the stream's worker is pid ${pid} (X-AiVista-Worker)`);
  await Promise.race([fake.critique, new Promise((_, rej) => setTimeout(() => rej(new Error('no critic call')), 20000))]);
  await page.waitForFunction(() => [...document.querySelectorAll('#image-view .node')].some((e) => e.dataset.node === 'critic'), null, { timeout: 10000 });
  const before = await thoughtTexts(page, '#image-view');
  ok(before.length >= 3, `kill: the page shows the thoughts so far (${before.length})`);
  process.kill(pid, 'SIGKILL');
  fake.release();
  await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 60000 });
  const threadId = await threadOf(page, 'image');
  const join = api.find((r) => r.method === 'GET' && /lastEventId=(\d+)/.test(r.url));
  const last = join ? Number(/lastEventId=(\d+)/.exec(join.url)[1]) : 0;
  ok(join && last > 0, `kill: the page reconnected with the last event id (${join ? join.url.replace(/.*\?/, '') .replace(/threadId=[^&]+/, 'threadId=…') : 'none'})`);
  ok(states.includes('reconnecting'), `kill: and said so meanwhile (${states.join(' → ')})`);
  const log = await replay(base, threadId);
  is(await thoughtTexts(page, '#image-view'), log.filter((e) => e.type === 'thought_log').map((e) => e.message),
    'kill: the final timeline has every thought once, in order');
  is(await page.$$eval('#image-view .results .component', (els) => els.map((e) => e.dataset.widget)),
    ['SmartCanvas', 'ActionPanel', 'AgentMessage'], 'kill: the result is complete, no component twice');
  ok(fake.calls.filter((c) => c === 'critique').length >= 2, 'kill: the critic ran again on another worker');
  await shot(page, 'kill-reconnect');
  await page.close();
}

// -- the network drops in the middle of a stream ----------------------------------

async function testOffline(ctx, base, fake) {
  const link = await relay(base);
  const { page, api } = await openView(ctx, link.base, 'image');
  const held = fake.arm();
  await page.fill('#image-view textarea', 'a cyberpunk dog');
  await page.click('#image-view form.composer button[type="submit"]');
  await held;
  await page.waitForFunction(() => [...document.querySelectorAll('#image-view .node')].some((e) => e.dataset.node === 'critic'), null, { timeout: 10000 });
  await ctx.setOffline(true);
  const cut = link.cut();
  await page.waitForSelector('#image-view .stream-status[data-state="offline"], #image-view .stream-status[data-state="reconnecting"]', { timeout: 20000 });
  const state = await page.$eval('#image-view .stream-status', (e) => e.dataset.state);
  ok(state === 'offline', `offline: ${cut} connections cut, the page says it is offline and waits (${state})`);
  await shot(page, 'offline');
  fake.release();
  await page.waitForTimeout(500);
  await ctx.setOffline(false);
  await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 60000 });
  const threadId = await threadOf(page, 'image');
  const log = await replay(base, threadId);
  is(await thoughtTexts(page, '#image-view'), log.filter((e) => e.type === 'thought_log').map((e) => e.message),
    'offline: back online, the page continues where it was: every thought once');
  ok(api.some((r) => r.method === 'GET' && /lastEventId=[1-9]/.test(r.url)), 'offline: by a join with the last event id');
  await page.close();
}

// -- one step per request: the stream ends with workflow_yield each time -------

async function testYield(ctx, base) {
  const { page, api } = await openView(ctx, base, 'image');
  await page.fill('#image-view textarea', '水彩风格的山水');
  await page.click('#image-view form.composer button[type="submit"]');
  await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 30000 });
  const joins = api.filter((r) => r.method === 'GET' && /lastEventId=\d+/.test(r.url)).length;
  ok(joins >= 4, `yield: the page went on after each workflow_yield (${joins} joins)`);
  const threadId = await threadOf(page, 'image');
  const log = await replay(base, threadId);
  is(await thoughtTexts(page, '#image-view'), log.filter((e) => e.type === 'thought_log').map((e) => e.message),
    'yield: every thought once, in order');
  is(await page.$$eval('#image-view .node', (els) => els.map((e) => e.dataset.node)),
    ['planner', 'rag', 'executor', 'critic', 'genui'], 'yield: each node once');
  await page.close();
}

async function run(s) {
  await s.run('rendering', () => testRendering(s.ctx, s.base));
  await s.run('defects', () => testDefects(s.ctx, s.base));
  if (s.wanted('kill') || s.wanted('offline')) {
    const slow = await s.slow();
    await s.run('kill', () => testKill(s.ctx, slow.base, slow.fake));
    await s.run('offline', () => testOffline(s.ctx, slow.base, slow.fake));
  }
  if (s.wanted('yield')) {
    const stepwise = await startStack(s.home('c'), { AIVISTA_WORKERS: '2', AIVISTA_ENGINE_STEPS_PER_REQUEST: '1' });
    await s.run('yield', () => testYield(s.ctx, stepwise.base));
  }
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
