// The browser test of what no request is lost to (run with the other views
// by run.sh; `node resend.test.js` runs it alone), on a stack of its own
// that the test stops and starts again mid-use: each view keeps its open
// conversation when the person switches views and comes back, and after a
// reload; the status dot follows every request, red while the server is
// down and green at its first answer; a message sent while the server is
// down (or the browser's network is cut) stays where it was, marked "not
// sent", and goes when the server is back, in every view.
'use strict';

const childProcess = require('child_process');
const path = require('path');
const { ok, is, startStack, shot, openView, closeView, threadOf } = require('./browserlib');

const top = process.env.top_srcdir || path.resolve(__dirname, '../..');

// The stack stopped (down) or started again (up) on the same port.
function quickstart(stack, what) {
  const r = childProcess.spawnSync('bash', [path.join(top, 'contrib/quickstart'), what],
    { env: stack.env, encoding: 'utf8', timeout: 120000 });
  if (r.status !== 0) throw new Error(`contrib/quickstart ${what}: ${r.stdout}${r.stderr}`);
}

const dot = (page) => page.$eval('#health-dot', (e) => e.dataset.status);
const waitDot = (page, status, timeout = 20000) =>
  page.waitForFunction((s) => document.getElementById('health-dot').dataset.status === s, status, { timeout })
    .then(() => true, () => false);

// The view's composer: where its text goes and how it is sent.
const COMPOSER = {
  chat: { box: '#chat-view .chat-composer textarea', turn: '#chat-view .chat-turn' },
  image: { box: '#image-view form.composer textarea', turn: '#image-view .conversation > li' },
  graph: { box: '#graph-view .gv-composer textarea', turn: '#graph-view .conversation > li' },
};

async function sendText(page, view, text) {
  await page.fill(COMPOSER[view].box, text);
  await page.press(COMPOSER[view].box, 'Enter');
}

// The texts of the view's turns, and which of them are marked not sent.
const turnsOf = (page, view) => page.$$eval(COMPOSER[view].turn, (els) => els.map((e) =>
  ({ text: e.querySelector('.bubble.user p')?.textContent.trim(), unsent: e.classList.contains('unsent') })));

async function testKept(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'chat');
  await sendText(page, 'chat', 'hello there');
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  const id = await threadOf(page, 'chat');
  ok(id.startsWith('v1.'), `kept: the chat thread is in the address (${id.slice(0, 12)}…)`);

  await page.click('#nav-image');
  await page.waitForFunction(() => location.hash.startsWith('#/image'));
  await page.click('#nav-chat');
  await page.waitForFunction(() => location.hash.startsWith('#/chat'));
  is(await threadOf(page, 'chat'), id, 'kept: back in the chat view, the address names its thread again');
  is((await turnsOf(page, 'chat')).map((x) => x.text), ['hello there'], 'kept: the conversation is still there after switching views');

  // A reload on another view: the chat link still leads to its thread.
  await page.goto(`${base}#/image`);
  await page.reload();
  is(await page.getAttribute('#nav-chat', 'href'), `#/chat/${encodeURIComponent(id)}`, 'kept: after a reload, the chat link names its last thread');
  await page.click('#nav-chat');
  await page.waitForSelector('#chat-view .chat-turn', { timeout: 15000 });
  is((await turnsOf(page, 'chat')).map((x) => x.text), ['hello there'], 'kept: after a reload, the chat view opens its last conversation');

  // New lets it go.
  await page.click('#chat-view .view-head button');
  await page.waitForFunction(() => location.hash === '#/chat');
  is([await page.getAttribute('#nav-chat', 'href'), (await turnsOf(page, 'chat')).length], ['#/chat', 0], 'kept: New empties the view and its link');
  await closeView(page, errors, 'kept');
}

async function testServerDown(ctx, stack) {
  const base = stack.base;
  const { page, errors } = await openView(ctx, base, 'chat');
  await waitDot(page, 'ok');
  is(await dot(page), 'ok', 'down: the dot is green while the server answers');
  await sendText(page, 'chat', 'first message');
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });

  quickstart(stack, 'stop');
  try {
    await sendText(page, 'chat', 'sent while the server is down');
    ok(await waitDot(page, 'down', 10000), `down: the dot turns red at the first request with no answer (${await dot(page)})`);
    await page.waitForSelector('#chat-view .chat-turn.unsent', { timeout: 10000 });
    is(await turnsOf(page, 'chat'), [{ text: 'first message', unsent: false }, { text: 'sent while the server is down', unsent: true }],
      'down: the message stays in the conversation, marked not sent');
    is(await page.inputValue(COMPOSER.chat.box), '', 'down: the composer is not refilled with a message that is kept');
    ok(await page.isVisible('#chat-view .chat-turn.unsent .unsent-note button'), 'down: the kept message offers Send now');

    // The other views keep theirs too.
    await page.click('#nav-image');
    await sendText(page, 'image', 'a red kite over the sea');
    await page.waitForSelector('#image-view .conversation > li.unsent', { timeout: 10000 });
    ok(true, 'down: an image request is kept, marked not sent');
    await page.click('#nav-note');
    await page.fill('#note-view .note-form textarea', '春游攻略');
    await page.click('#note-view .note-form button[type="submit"]');
    await page.waitForSelector('#note-view .error-box:not([hidden]) .error-actions button', { timeout: 10000 });
    is(await page.inputValue('#note-view .note-form textarea'), '春游攻略', 'down: the note topic stays in its form, said not sent');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#nav-chat');
    await shot(page, 'unsent-390-en', { fullPage: false });
    await page.click('#lang');
    await shot(page, 'unsent-390-zh', { fullPage: false });
    await page.click('#lang');
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    quickstart(stack, 'start');
  }
  ok(await waitDot(page, 'ok', 30000), `up: the dot is green again once the server answers (${await dot(page)})`);
  await page.waitForFunction(() => !document.querySelector('#chat-view .chat-turn.unsent'), null, { timeout: 30000 });
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  is(await turnsOf(page, 'chat'), [{ text: 'first message', unsent: false }, { text: 'sent while the server is down', unsent: false }],
    'up: the kept message went by itself, once, in its place');
  const answered = await page.$eval('#chat-view .chat-turn:last-child .chat-text', (e) => e.textContent.trim().length);
  ok(answered > 0, 'up: the message that waited got its answer');
  await page.click('#nav-image');
  await page.waitForFunction(() => !document.querySelector('#image-view .conversation > li.unsent'), null, { timeout: 30000 });
  await page.waitForSelector('#image-view .stream-status[data-state="done"]', { timeout: 60000, state: 'attached' });
  ok(true, 'up: the image request that waited was sent and finished');
  await page.click('#nav-note');
  await page.waitForFunction(() => document.querySelector('#note-view .note-form')?.hidden, null, { timeout: 30000 })
    .then(() => ok(true, 'up: the note that waited started'), () => ok(false, 'up: the note that waited started'));
  await closeView(page, errors, 'down');
}

async function testNetworkCut(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'graph');
  await waitDot(page, 'ok');
  await ctx.setOffline(true);
  try {
    await sendText(page, 'graph', 'add a translate node');
    await page.waitForSelector('#graph-view .conversation > li.unsent', { timeout: 10000 });
    ok(await waitDot(page, 'down', 5000), 'cut: the dot is red while the browser has no network');
  } finally {
    await ctx.setOffline(false);
  }
  await page.waitForFunction(() => !document.querySelector('#graph-view .conversation > li.unsent'), null, { timeout: 30000 });
  await page.waitForSelector('#graph-view .stream-status[data-state="done"]', { timeout: 30000 });
  is((await turnsOf(page, 'graph')).map((x) => x.text), ['add a translate node'], 'cut: the request went when the network came back, once');
  ok(await waitDot(page, 'ok', 10000), 'cut: the dot is green again');
  await closeView(page, errors, 'cut');
}

async function run(s) {
  if (!s.wanted('resend')) return;
  const stack = await startStack(s.home('r'), { AIVISTA_WORKERS: '2' });
  await s.run('resend kept', () => testKept(s.ctx, stack.base));
  await s.run('resend down', () => testServerDown(s.ctx, stack));
  await s.run('resend cut', () => testNetworkCut(s.ctx, stack.base));
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
