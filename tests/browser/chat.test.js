// The browser test of the assistant (chat) view (run with the other views
// by run.sh; `node chat.test.js` runs it alone): the empty state's
// examples, a picture inline opening the viewer, the time, pictures
// attached by picker, paste and drop (the request carries them), the byte
// limit, the thread reopened from the list, a note request's suggestion
// linking to the note writer in both languages; against a model that streams
// slowly, the reply growing before the whole message, stop in the middle
// (aborted, the part said kept), a reload in the middle (the reply once,
// whole), a failed answer sent again. Skipped when the server has no chat
// workflow.
'use strict';

const {
  ok, is, skip, fakeService, completion, modelStack, replay, png, shot, recordApi, posts, threadOf, serves,
  noNull, inView, openView, closeView,
} = require('./browserlib');

const chatDone = (page, k) => page.waitForFunction((n) => {
  const t = document.querySelectorAll('#chat-view .chat-turn');
  return t.length === n && t[n - 1].dataset.state !== 'running';
}, k, { timeout: 20000 });
// What the page says of its own: the badges, their reasons, the empty
// state, the composer; never a route's or a setting's internal name.
const INTERNAL = /image_gen|web_search|time_query|routeSource|\[provider|intent_detected|message_delta|\bundefined\b/;
async function ownWords(page) {
  return page.$$eval('#chat-view .route-line, #chat-view .empty, #chat-view .chat-composer, #chat-view .view-head, #chat-view .chat-note, #chat-view .chat-suggest',
    (els) => els.map((e) => { const d = e.querySelector('details'); if (d) d.open = true; return e.innerText; }).join('\n'));
}


// A screenshot of what is on screen (the composer stays at the bottom).
const screen = (page, name) => shot(page, name, { fullPage: false });

// With the offline provider: the empty state, a picture, the time, a
// picture attached (picker, paste, drop), the byte limit, the thread
// reopened with its history, both languages, both sizes.
async function testChat(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'chat', { width: 1280, height: 800 });
  const examplesShown = await page.$$eval('#chat-view .empty .example', (els) => els.map((e) => e.textContent));
  is(examplesShown.length, 3, `chat: the empty state offers 3 example requests (${examplesShown.join(' | ')})`);
  await screen(page, 'chat-empty-1280-en');
  await page.click('#lang');
  is(await page.$$eval('#chat-view .empty .example', (els) => els.map((e) => e.textContent)),
    ['画一只在海边奔跑的金毛犬', '现在几点', '2026年3月有什么科技新闻'], 'chat: in Chinese, the three examples of the brief');
  await page.click('#lang');

  // The picture example: the picture inline, the badge, the viewer.
  await page.click('#chat-view .empty .example >> nth=0');
  await chatDone(page, 1);
  const threadId = await threadOf(page, 'chat');
  ok(/^v1\.[\w-]+\.[\w-]+$/.test(threadId), 'chat: the thread ID is in the URL');
  const first = posts(api)[0];
  is([first?.workflow, first?.input?.text, first?.input?.lang], ['chat', examplesShown[0], 'en'], 'chat: the example is sent as a chat turn in the page\'s language');
  const log = await replay(base, threadId);
  const done1 = log.find((e) => e.type === 'workflow_complete');
  is(await page.$eval('#chat-view .chat-turn:nth-child(1) .route-badge', (e) => [e.dataset.route, e.dataset.source]), [done1.route, done1.routeSource],
    `chat: the answer's badge is the route that answered and who chose it (${done1.route}, ${done1.routeSource})`);
  is(done1.route, 'image_gen', 'chat: the picture request went to the picture generator');
  await page.waitForFunction(() => document.querySelector('#chat-view .chat-picture img')?.naturalWidth > 0);
  const src = await page.$eval('#chat-view .chat-picture img', (e) => e.getAttribute('src'));
  ok(src.endsWith(done1.generatedImageUrl), `chat: the picture is shown inline (${done1.generatedImageUrl})`);
  is(await page.textContent('#chat-view .chat-turn:nth-child(1) .chat-text'), log.find((e) => e.type === 'message').content, 'chat: the reply is the server\'s message');
  ok(/^🎨\s*Picture · chosen by keyword rules$/.test((await page.textContent('#chat-view .chat-turn:nth-child(1) .route-badge')).trim()),
    `chat: the badge reads as words (${(await page.textContent('#chat-view .chat-turn:nth-child(1) .route-badge')).trim()})`);
  await page.click('#chat-view .chat-turn:nth-child(1) .route-why summary');
  const why = await page.textContent('#chat-view .chat-turn:nth-child(1) .route-why-text');
  ok(/asks for a picture/.test(why) && /How sure: \d+%/.test(why), `chat: why, in words, behind the toggle (${why.slice(0, 60)}…)`);
  await page.click('#chat-view .chat-picture-open');
  await page.waitForSelector('dialog.viewer[open] .viewer-img');
  ok(/format=png/.test(await page.$eval('dialog.viewer .viewer-download', (e) => e.href)), 'chat: the picture opens full size in the viewer, with a PNG download');
  await page.click('dialog.viewer .viewer-close');

  // The time, typed.
  await page.fill('#chat-view .chat-composer textarea', 'What time is it now?');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await chatDone(page, 2);
  is(await page.$eval('#chat-view .chat-turn:nth-child(2) .route-badge', (e) => e.dataset.route), 'time_query', 'chat: a time question gets the clock\'s badge');
  const said = await page.textContent('#chat-view .chat-turn:nth-child(2) .chat-text');
  const stamp = Number((/\b(\d{10})\b/.exec(said) || [])[1]);
  ok(Math.abs(stamp - Date.now() / 1000) < 120, `chat: the time answer carries the time now (${said})`);
  is(posts(api)[1]?.threadId, threadId, 'chat: the next message continues the same thread');

  // Pictures attached: by the picker, pasted, dropped; shown before sending.
  const red = png(40, 30, [220, 20, 20]);
  await page.setInputFiles('#chat-view .chat-picker input[type="file"]', { name: 'red.png', mimeType: 'image/png', buffer: red });
  await page.waitForSelector('#chat-view .chat-attachments .chat-thumb img');
  const b64 = red.toString('base64');
  await page.evaluate(async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
    document.querySelector('#chat-view textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    const dt2 = new DataTransfer();
    dt2.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
    const form = document.querySelector('#chat-view .chat-composer');
    form.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt2, bubbles: true, cancelable: true }));
    form.dispatchEvent(new DragEvent('drop', { dataTransfer: dt2, bubbles: true, cancelable: true }));
  }, b64);
  await page.waitForFunction(() => document.querySelectorAll('#chat-view .chat-attachments .chat-thumb').length === 3);
  is(await page.$$eval('#chat-view .chat-thumb img', (els) => els.map((e) => e.alt)), ['red.png', 'pasted.png', 'dropped.png'],
    'chat: a picture chosen, one pasted and one dropped on the composer show as thumbnails before sending');
  await page.click('#chat-view .chat-thumb-remove >> nth=2');
  await page.click('#chat-view .chat-thumb-remove >> nth=1');
  is(await page.$$eval('#chat-view .chat-thumb', (els) => els.length), 1, 'chat: a thumbnail\'s × takes the picture out');
  await page.fill('#chat-view .chat-composer textarea', 'What is in this picture?');
  await screen(page, 'chat-attach-1280-en');
  await page.click('#chat-view .chat-send');
  await chatDone(page, 3);
  const att = posts(api)[2]?.input?.attachments || [];
  is([att.length, att[0]?.name, att[0]?.mimeType, att[0]?.data], [1, 'red.png', 'image/png', `data:image/png;base64,${b64}`],
    'chat: the picture from the picker goes with the message as a data URL');
  const log3 = await replay(base, threadId);
  const done3 = log3.filter((e) => e.type === 'workflow_complete').pop();
  ok(done3 && (done3.toolCalls || []).some((c) => c.tool === 'vision'), `chat: the server looked at the picture (${JSON.stringify(done3?.toolCalls)})`);
  ok(await page.$('#chat-view .chat-turn:nth-child(3) .bubble.user .chat-sent-pictures img'), 'chat: the message shows the picture it carried');
  is(await page.$$eval('#chat-view .chat-thumb', (els) => els.length), 0, 'chat: the composer is empty again');

  // The byte limit, counted as the server counts.
  await page.fill('#chat-view .chat-composer textarea', '字'.repeat(2667));
  is(await page.$eval('#chat-view .chat-composer .counter', (e) => [e.textContent, e.dataset.over]), ['8001 / 8000', 'true'], 'chat: 2667 Chinese characters are 8001 bytes, over the limit');
  const before = posts(api).length;
  await page.click('#chat-view .chat-send');
  ok(/longer than the server takes|8000/.test(await page.textContent('#chat-view .error-box')), 'chat: sending it says the limit instead');
  is(posts(api).length, before, 'chat: and sends nothing');
  await page.fill('#chat-view .chat-composer textarea', '');

  // The thread in the list, reopened with its history.
  ok(await page.$(`#threads li[data-thread="${threadId}"][data-status="done"]`), 'chat: the thread is in the recent list, done');
  const turnsBefore = await page.$$eval('#chat-view .chat-turn', (els) => els.map((e) => [e.querySelector('.bubble.user').innerText.trim(), e.querySelector('.route-badge')?.dataset.route]));
  await page.click('#chat-view .view-head button');
  await page.waitForSelector('#chat-view .empty:not([hidden])');
  await page.click(`#threads li[data-thread="${threadId}"] a`);
  await chatDone(page, 3);
  const turnsAfter = await page.$$eval('#chat-view .chat-turn', (els) => els.map((e) => [e.querySelector('.bubble.user').innerText.trim(), e.querySelector('.route-badge')?.dataset.route]));
  is(turnsAfter.map((x) => x[1]), turnsBefore.map((x) => x[1]), 'chat: reopened from the list, every turn with its badge');
  is(turnsAfter.map((x) => x[0].split('\n')[0]), turnsBefore.map((x) => x[0].split('\n')[0]), 'chat: and every message');
  ok(await page.$('#chat-view .chat-turn:nth-child(1) .chat-picture img'), 'chat: and the picture');
  // Another browser (no local record): the messages come from the thread.
  await page.evaluate(() => { for (const k of Object.keys(localStorage)) if (k.startsWith('aivista.turns.')) localStorage.removeItem(k); });
  await page.reload();
  await chatDone(page, 3);
  is((await page.$$eval('#chat-view .chat-turn .bubble.user', (els) => els.map((e) => e.innerText.trim().split('\n')[0]))),
    turnsBefore.map((x) => x[0].split('\n')[0]), 'chat: without this browser\'s record, the messages come back from the thread');
  ok(!INTERNAL.test(await ownWords(page)), 'chat: no internal names in what the page says');
  await page.evaluate(() => { for (const d of document.querySelectorAll('#chat-view details')) d.open = false; });
  await page.evaluate(() => document.querySelector('#chat-view .chat-turn:nth-child(2)').scrollIntoView({ block: 'end' }));
  await screen(page, 'chat-1280-en');
  await page.click('#lang');
  is((await page.textContent('#chat-view .chat-turn:nth-child(2) .route-badge')).trim(), '🕒时间 · 由关键词规则判断', 'chat: the badge in Chinese after the switch');
  ok(!INTERNAL.test(await ownWords(page)), 'chat: no internal names in Chinese either');
  await page.evaluate(() => { for (const d of document.querySelectorAll('#chat-view details')) d.open = false; });
  await page.click('#chat-view .chat-turn:nth-child(1) .route-why summary');
  await page.evaluate(() => document.querySelector('#chat-view .chat-turn:nth-child(1) .route-line').scrollIntoView({ block: 'center' }));
  await screen(page, 'chat-1280-zh');

  // Phone size, both languages.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await screen(page, 'chat-390-zh');
  ok((await inView(page, '#chat-view .chat-send')).ok, 'chat 390×844: the send button is in view, above the navigation');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  ok(overflow <= 1, `chat 390×844: nothing overflows (${overflow}px)`);
  await page.click('#lang');
  await page.evaluate(() => document.querySelector('#chat-view .chat-turn:nth-child(1) .chat-picture').scrollIntoView({ block: 'start' }));
  await screen(page, 'chat-390-en');
  const send390 = await inView(page, '#chat-view .chat-send');
  ok(send390.ok, `chat 390×844: in English too, where a name in the navigation takes two lines (${JSON.stringify(send390)})`);
  await page.click('#chat-view .view-head button');
  await screen(page, 'chat-empty-390-en');
  await page.setViewportSize({ width: 1280, height: 800 });
  await noNull(page, 'chat');
  await closeView(page, errors, 'chat');
}

// A request for a Xiaohongshu note: the reply carries a code, and the page
// words the suggestion itself, with a link to the note writer, in English
// and in Chinese; a turn without the code shows none.
async function testChatSuggest(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'chat', { width: 1280, height: 800 });
  await page.click('#chat-view .view-head button');
  if (await page.evaluate(() => document.documentElement.lang !== 'en')) await page.click('#lang');
  await page.fill('#chat-view .chat-composer textarea', 'Please write a Xiaohongshu post about camping gear');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await chatDone(page, 1);
  const log = await replay(base, await threadOf(page, 'chat'));
  is([log.find((e) => e.type === 'message')?.suggest, log.find((e) => e.type === 'workflow_complete')?.suggest], ['note', 'note'],
    'chat suggest: the server\'s reply suggests the note writer by a code');
  const suggestion = async () => page.$eval('#chat-view .chat-turn:nth-child(1) .chat-suggest',
    (e) => [e.hidden, e.innerText.trim(), e.querySelector('a')?.getAttribute('href'), e.querySelector('a')?.textContent]);
  const [hiddenEn, textEn, hrefEn, linkEn] = await suggestion();
  ok(!hiddenEn && /Xiaohongshu note/.test(textEn) && hrefEn === '#/note' && linkEn === 'Note writer',
    `chat suggest: the page words it, with a link to the note writer (${textEn})`);
  ok(!/笔记写作|Note writer/.test(await page.textContent('#chat-view .chat-turn:nth-child(1) .chat-text')),
    'chat suggest: the reply\'s own text names no page');
  ok(!INTERNAL.test(await ownWords(page)), 'chat suggest: no internal names in what the page says');
  await screen(page, 'chat-suggest-1280-en');
  await page.click('#lang');
  const [, textZh, hrefZh, linkZh] = await suggestion();
  ok(/小红书笔记/.test(textZh) && hrefZh === '#/note' && linkZh === '笔记写作',
    `chat suggest: in Chinese after the switch (${textZh})`);
  await screen(page, 'chat-suggest-1280-zh');
  await page.click('#lang');
  await page.fill('#chat-view .chat-composer textarea', 'What time is it now?');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await chatDone(page, 2);
  ok(await page.$eval('#chat-view .chat-turn:nth-child(2) .chat-suggest', (e) => e.hidden && !e.textContent),
    'chat suggest: a turn that suggests nothing shows nothing');
  await page.click('#chat-view .chat-turn:nth-child(1) .chat-suggest a');
  await page.waitForSelector('#note-view:not([hidden])');
  is(await page.evaluate(() => location.hash), '#/note', 'chat suggest: the link opens the note writer');
  await closeView(page, errors, 'chat suggest');
}

// An OpenAI-compatible model for the chat workflow that streams its
// replies slowly: the router's JSON answer, and a reply in pieces
// `gap` ms apart.
const STORY = ['Once ', 'upon ', 'a ', 'time ', 'a ', 'small ', 'robot ', 'learned ', 'to ', 'paint ', 'the ', 'sea.'];
function fakeAssistant(gap = 350) {
  const fake = { streams: 0, routes: 0 };
  return fakeService(fake, (j, res) => {
    const system = j.messages?.[0]?.role === 'system' ? String(j.messages[0].content) : '';
    if (!j.stream) {
      fake.routes++;
      const content = /route/.test(system)
        ? JSON.stringify({ route: 'chat', confidence: 0.9, reason: 'A request for a story: a conversation.' })
        : JSON.stringify({ prompt: 'a story' });
      completion(res, { content }, 5);
      return;
    }
    fake.streams++;
    if (fake.fail) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'chat down' } }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.on('error', () => {});
    let i = 0;
    const tick = () => {
      if (res.destroyed) return;
      if (i < STORY.length) {
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: STORY[i++] } }] })}\n\n`);
        setTimeout(tick, gap);
      } else {
        res.end('data: [DONE]\n\n');
      }
    };
    tick();
  });
}

// Against a model that streams slowly: the pieces before the message, the
// model's badge, stop in the middle, a reload in the middle, a failed
// answer sent again.
async function testChatStream(ctx, base, fake) {
  const { page, errors } = await openView(ctx, base, 'chat', { width: 1280, height: 800 });
  await page.click('#chat-view .view-head button');
  const whole = STORY.join('');
  // Every text the reply showed, in order, with whether it was still live.
  await page.evaluate(() => {
    window.__seen = [];
    new MutationObserver(() => {
      const r = document.querySelector('#chat-view .chat-turn:last-child .chat-text');
      if (r) window.__seen.push([r.textContent, r.dataset.live === 'true']);
    }).observe(document.getElementById('chat-view'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.fill('#chat-view .chat-composer textarea', 'Tell me a story');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForSelector('#chat-view .chat-stop:not([hidden])');
  await page.waitForFunction(() => (document.querySelector('#chat-view .chat-text[data-live="true"]')?.textContent || '').length > 0);
  ok(await page.isHidden('#chat-view .chat-send'), 'chat stream: while the reply runs, Stop stands where Send was');
  await chatDone(page, 1);
  const seen = await page.evaluate(() => window.__seen);
  const live = seen.filter(([, l]) => l).map(([s]) => s);
  ok(live.length >= 3 && live.every((s) => whole.startsWith(s)) && live[0].length < whole.length,
    `chat stream: the reply grows piece by piece before the whole message (${live.length} states, first "${live[0]}")`);
  is(await page.textContent('#chat-view .chat-turn:nth-child(1) .chat-text'), whole, 'chat stream: then it is the whole reply, once');
  is(await page.$eval('#chat-view .chat-turn:nth-child(1) .route-badge', (e) => [e.dataset.route, e.dataset.source]), ['chat', 'model'], 'chat stream: the badge says the model chose a conversation');
  await page.click('#chat-view .chat-turn:nth-child(1) .route-why summary');
  ok((await page.textContent('#chat-view .chat-turn:nth-child(1) .route-why-text')).includes('A request for a story: a conversation.'),
    'chat stream: why, with the model\'s own reason');
  await screen(page, 'chat-stream-1280-en');
  const threadId = await threadOf(page, 'chat');

  // Stop in the middle: the run ends aborted, what was said is kept.
  await page.fill('#chat-view .chat-composer textarea', 'Another story, please');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForFunction(() => (document.querySelector('#chat-view .chat-turn:nth-child(2) .chat-text[data-live="true"]')?.textContent || '').split(' ').length > 3);
  await screen(page, 'chat-streaming-1280-en');
  await page.click('#chat-view .chat-stop');
  await page.waitForSelector('#chat-view .chat-turn:nth-child(2)[data-state="stopped"]', { timeout: 15000 });
  await page.waitForSelector('#chat-view .chat-send:not([hidden])');
  const kept = await page.textContent('#chat-view .chat-turn:nth-child(2) .chat-text');
  const th = await (await fetch(new URL(`api/threads/${encodeURIComponent(threadId)}`, base))).json();
  is(th.status, 'aborted', 'chat stop: the run ends aborted');
  const msgs = (await replay(base, threadId)).filter((e) => e.type === 'message');
  ok(kept.length > 0 && kept.length < whole.length && whole.startsWith(kept) && msgs.length === 2 && msgs[1].content.trim() === kept,
    `chat stop: the part said is kept, as the server kept it ("${kept}")`);
  ok(/Stopped/.test(await page.textContent('#chat-view .chat-turn:nth-child(2) .chat-note')), 'chat stop: the answer says it was stopped');
  ok(await page.$(`#threads li[data-thread="${threadId}"][data-status="aborted"]`), 'chat stop: the list says stopped');
  await screen(page, 'chat-stopped-1280-en');

  // A reload in the middle of a reply: the reply once, whole.
  await page.fill('#chat-view .chat-composer textarea', 'One more');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForFunction(() => (document.querySelector('#chat-view .chat-turn:nth-child(3) .chat-text[data-live="true"]')?.textContent || '').length > 0);
  await page.reload();
  await chatDone(page, 3);
  const texts = await page.$$eval('#chat-view .chat-turn:nth-child(3) .chat-text', (els) => els.map((e) => e.textContent));
  is(texts, [whole], 'chat reload: the reply in progress comes back once, whole');
  is(await page.$eval('#chat-view .chat-turn:nth-child(3) .bubble.user p', (e) => e.innerText.trim()), 'One more', 'chat reload: with the message it answers');
  is(await page.$$eval('#chat-view .chat-turn', (els) => els.map((e) => e.dataset.state)), ['done', 'stopped', 'done'], 'chat reload: the turns as they ended');

  // A failed answer, sent again.
  const api = recordApi(page);
  fake.fail = true;
  await page.fill('#chat-view .chat-composer textarea', 'And the end of the story?');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForSelector('#chat-view .chat-turn:nth-child(4)[data-state="failed"] .chat-retry', { timeout: 15000 });
  ok(/failed/.test(await page.textContent('#chat-view .chat-turn:nth-child(4) .chat-note')), 'chat retry: the failed answer says so, with a button to send it again');
  await screen(page, 'chat-failed-1280-en');
  fake.fail = false;
  await page.click('#chat-view .chat-turn:nth-child(4) .chat-retry');
  await chatDone(page, 5);
  is(posts(api).map((b) => [b.threadId, b.input.text]), [[threadId, 'And the end of the story?'], [threadId, 'And the end of the story?']],
    'chat retry: the same message goes again, in the same thread');
  is([await page.$eval('#chat-view .chat-turn:nth-child(5)', (e) => e.dataset.state), await page.textContent('#chat-view .chat-turn:nth-child(5) .chat-text')],
    ['done', whole], 'chat retry: and is answered');
  await closeView(page, errors, 'chat stream');
}

async function run(s) {
  if (await serves(s.base, 'chat')) {
    await s.run('chat', () => testChat(s.ctx, s.base));
    await s.run('chat-suggest', () => testChatSuggest(s.ctx, s.base));
    const assistant = s.wanted('chat-stream') ? await fakeAssistant() : null;
    const talk = assistant && await modelStack(s.home('d'), assistant.url);
    if (talk) await s.run('chat-stream', () => testChatStream(s.ctx, talk.base, assistant));
  } else {
    skip('chat: examples, a picture, the time, attachments, the byte limit, the thread reopened', 'the server has no chat workflow yet');
    skip('chat suggest: a note request links to the note writer', 'the server has no chat workflow yet');
    skip('chat stream: pieces before the message, stop, reload in the middle', 'the server has no chat workflow yet');
  }
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
