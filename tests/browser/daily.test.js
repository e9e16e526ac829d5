// The browser test of the small things people meet every day (run with
// the other views by run.sh; `node daily.test.js` runs it alone): a Stop
// that comes after the answer finished says so; downloads are named after
// what was asked (a picture's PNG, the note's Markdown and pictures); the
// note's image plans speak the person's language (roles as words, no
// field names of the machine's); the mask's "paint first" note shows
// beside the button pressed, on a phone; a picture opens in the viewer
// large enough to read, whatever its own size.
'use strict';

const { ok, is, shot, posts, inView, openView, closeView } = require('./browserlib');

async function testLateStop(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'chat');
  await page.fill('#chat-view .chat-composer textarea', 'hello');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  // The Stop button as a click that left before the answer ended and
  // arrived after: the server has nothing running.
  await page.$eval('#chat-view .chat-stop', (b) => b.click());
  const toast = await page.waitForSelector('.toast', { timeout: 10000 }).then((e) => e.textContent(), () => '');
  ok(/already finished/.test(toast), `late stop: said the answer had already finished (${toast})`);
  is(await page.$$eval('#chat-view .chat-turn', (els) => els.map((e) => e.dataset.state)), ['done'], 'late stop: the answer stays as it was');
  await closeView(page, errors, 'late stop');
}

async function testNames(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image');
  await page.fill('#image-view form.composer textarea', '西湖边喝茶的猫');
  await page.press('#image-view form.composer textarea', 'Enter');
  await page.waitForSelector('#image-view .turn .smart-canvas img', { timeout: 60000 });
  await page.click('#image-view .turn .view-full');
  const link = await page.waitForSelector('dialog.viewer .viewer-download');
  is(await link.getAttribute('download'), '西湖边喝茶的猫.png', 'names: the picture downloads as what was asked');
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), link.click()]);
  is(dl.suggestedFilename(), '西湖边喝茶的猫.png', 'names: the browser saves it under that name');
  // Large enough to read: the picture fills the viewer's room.
  const size = await page.$eval('dialog.viewer .viewer-img', (e) => {
    const r = e.getBoundingClientRect();
    return { w: Math.round(r.width), h: Math.round(r.height), vw: innerWidth, vh: innerHeight };
  });
  ok(size.w >= size.vw * 0.8 || size.h >= size.vh * 0.75, `viewer: the picture opens large (${JSON.stringify(size)})`);
  await page.click('dialog.viewer .viewer-close');
  await closeView(page, errors, 'names');
}

async function testMaskHint(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image', { width: 390, height: 844 });
  await page.fill('#image-view form.composer textarea', 'a lighthouse at dusk');
  await page.press('#image-view form.composer textarea', 'Enter');
  await page.waitForSelector('#image-view .turn .smart-canvas img', { timeout: 60000 });
  await page.click('#image-view .turn .action-panel [data-action="inpaint_btn"]');
  await page.waitForSelector('#image-view .turn .mask-tools button.primary');
  await page.click('#image-view .turn .mask-tools button.primary');
  await page.waitForSelector('#image-view .turn .mask-said:not(:empty)', { timeout: 5000 });
  const where = await inView(page, '#image-view .turn .mask-said');
  ok(where.ok, `mask: "paint first" shows on screen beside the button pressed (${JSON.stringify(where)})`);
  await shot(page, 'mask-said-390-en', { fullPage: false });
  await closeView(page, errors, 'mask');
}

// Answers the note's pauses until one of kind is open (a question is
// skipped, a draft approved); returns that card.
async function untilPause(page, kind) {
  for (let i = 0; i < 8; i++) {
    const card = await page.waitForSelector('#note-view .pause-card[data-state="open"]', { timeout: 60000 });
    if (await card.getAttribute('data-kind') === kind) return card;
    await card.$eval('[data-action="approve"]', (b) => b.click());
    await page.waitForFunction((c) => c.dataset.state !== 'open', card, { timeout: 30000 });
  }
  throw new Error(`no ${kind} pause came`);
}

// The finished note as the person posts it: the cover title edited on
// the cover and counted, the pictures reordered, all of it what is copied
// and downloaded.
async function creatorTools(page) {
  const fin = '#note-view .card[data-card="final"]';
  const slides = () => page.$$eval(`${fin} .phone-slide`, (els) => els.map((e) => e.dataset.url));
  const before = await slides();
  await page.fill(`${fin} .cover-title`, '杭州看展一日游｜这篇攻略真的能帮你省下半天排队时间');
  const counts = await page.$$eval(`${fin} .note-counts .count`, (els) => els.map((e) => [e.dataset.count, e.textContent, e.dataset.over]));
  ok(counts[0][1] === '标题 25 / 20' && counts[0][2] === 'true' && /^正文 \d+ \/ 1000$/.test(counts[1][1]),
    `creator: the title is counted against the limit as it is typed (${counts.map((c) => c[1]).join(', ')})`);
  is(await page.textContent(`${fin} .note-title`), '杭州看展一日游｜这篇攻略真的能帮你省下半天排队时间', 'creator: the title below follows the cover');
  await page.fill(`${fin} .cover-title`, '杭州看展一日游');
  await page.click(`${fin} .phone-slide >> nth=1 >> [data-move="earlier"]`);
  const after = await slides();
  is(after, [before[1], before[0], ...before.slice(2)], 'creator: a picture moved earlier becomes the cover');
  await page.fill(`${fin} .note-body-edit`, '第一段。\n\n第二段，我自己改的。');
  await page.click(`${fin} [data-copy="text"]`);
  const clip = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  ok(clip.startsWith('杭州看展一日游\n\n第一段。') && clip.includes('我自己改的'), 'creator: Copy takes the title and text as edited');
  const names = [];
  page.on('download', (d) => names.push(d.suggestedFilename()));
  await page.click(`${fin} .download-images`);
  await page.waitForFunction((n) => n, before.length + 1).catch(() => {});
  for (let i = 0; i < 40 && names.length < before.length + 1; i++) await page.waitForTimeout(150);
  is(names.sort(), [...before.map((_, i) => `杭州看展一日游-${i + 1}.png`), '杭州看展一日游.txt'].sort(),
    'creator: the export is each picture in order and the caption, named after the note');
  await shot(page, 'note-creator-1280-zh', { fullPage: false });
}

async function testNotePlans(ctx, base) {
  for (const [lang, topic, roleWord] of [['zh', '周末去杭州看展', /封面图|正文配图|结尾配图/], ['en', 'a weekend in Lisbon', /Cover picture|Picture in the text|Closing picture/]]) {
    const { page, errors, api } = await openView(ctx, base, 'note');
    if (lang === 'zh') await page.click('#lang');
    await page.fill('#note-view .note-form textarea', topic);
    await page.click('#note-view .note-form button[type="submit"]');
    const card = await untilPause(page, 'image_plans');
    const labels = await card.$$eval('.plan .field-label, .plan .field.fixed', (els) => els.map((e) => e.textContent.trim()));
    const roles = await card.$$eval('.plan .field-role', (els) => els.map((e) => e.textContent.trim()));
    const machine = labels.filter((l) => /^(sequence|paragraphId|paragraphIndex|imageSeq|role|description|prompt|No\.)$|\d+$/.test(l) && !/(段|paragraph \d+)$/.test(l));
    is(machine, [], `plans ${lang}: no field names of the machine's (${labels.slice(0, 5).join(' | ')})`);
    ok(roles.length > 0 && roles.every((r) => roleWord.test(r)), `plans ${lang}: each picture's role is said in words (${roles.join(', ')})`);
    await page.click('#note-view .pause-card[data-state="open"] [data-action="modify"]');
    const choices = await page.$$eval('#note-view .pause-card[data-state="open"] [data-field="role"] select', (els) => els.map((e) => [...e.options].map((o) => o.textContent)));
    ok(choices.length > 0 && choices.every((r) => r.every((w) => roleWord.test(w))), `plans ${lang}: the role is chosen from words (${JSON.stringify(choices[0])})`);
    await shot(page, `note-plans-1280-${lang}`, { fullPage: false });
    const desc = '#note-view .pause-card[data-state="open"] .plan >> nth=0 >> [data-field="description"] textarea';
    await page.fill(desc, `${await page.inputValue(desc)} ✓`);
    await page.click('#note-view .pause-card[data-state="open"] [data-action="save"]');
    // Another round after the review, if it asks: approved as it is.
    for (let i = 0; i < 12 && !(await page.$('#note-view .card[data-card="final"]')); i++) {
      const next = await Promise.race([
        page.waitForSelector('#note-view .card[data-card="final"]', { timeout: 90000 }).then(() => null),
        page.waitForSelector('#note-view .pause-card[data-state="open"]', { timeout: 90000 })]);
      if (next) await next.$eval('.pause-actions button.primary, [data-action="approve"]', (b) => b.click());
      await page.waitForTimeout(200);
    }
    await page.waitForSelector('#note-view .card[data-card="final"]', { timeout: 90000 });
    const sent = posts(api, 'confirm').find((p) => p.payload?.imagePlans)?.payload.imagePlans || [];
    ok(sent.length > 0 && sent.every((p, i) => p.sequence === i + 1 && ['cover', 'content', 'summary'].includes(p.role) && 'paragraphId' in p),
      `plans ${lang}: an edit sends each plan whole, its role as the code (${JSON.stringify(sent.map((p) => [p.sequence, p.role]))})`);
    const md = await page.waitForSelector('#note-view .card[data-card="final"] [data-save="markdown"]');
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), md.click()]);
    const name = dl.suggestedFilename();
    ok(/\.md$/.test(name) && !/^note\.md$/.test(name) && (lang === 'en' ? /^[a-z0-9-]+\.md$/ : /[\u4e00-\u9fff]/).test(name),
      `plans ${lang}: the note downloads as Markdown named after it (${name})`);
    if (lang === 'zh') await creatorTools(page);
    if (lang === 'zh') await page.click('#lang');
    await closeView(page, errors, `plans ${lang}`);
  }
}

// Imports a workflow into the graph view (its file input).
async function importWorkflow(page, wf) {
  await page.setInputFiles('#graph-view .gv-files input[type="file"]',
    { name: 'workflow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(wf)) });
  await page.waitForFunction((n) => document.querySelectorAll('#graph-view .gv-node').length === n, wf.nodes.length);
}

// The nodes' boxes on screen, and the pairs of them that overlap.
const nodeBoxes = (page) => page.$$eval('#graph-view .gv-node', (els) => els.map((e) => {
  const r = e.querySelector('.gv-box').getBoundingClientRect();
  return { id: e.dataset.id, x: r.left, y: r.top, w: r.width, h: r.height };
}));
const overlaps = (bs) => bs.flatMap((a, i) => bs.slice(i + 1).filter((b) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h).map((b) => `${a.id}×${b.id}`));

async function testGraph(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'graph');
  // A text input feeding the second chat, past the first one.
  const wf = {
    name: 'behind',
    nodes: [
      { id: 'n_text', type: 'core:TextInput', position: { x: 0, y: 0 }, data: {} },
      { id: 'n_mid', type: 'llm:Chat', position: { x: 320, y: -20 }, data: {} },
      { id: 'n_far', type: 'llm:Chat', position: { x: 640, y: 0 }, data: {} },
    ],
    edges: [{ id: 'e_1', source: 'n_text', sourceHandle: 'text', target: 'n_far', targetHandle: 'prompt' }],
    viewport: { x: 0, y: 0, zoom: 1 },
  };
  await importWorkflow(page, wf);
  is(await page.$$eval('#graph-view .gv-edges-over path', (els) => els.map((e) => e.dataset.id)), ['e_1'],
    'graph: an edge that passes behind another node is drawn above it');
  // Two nodes from the library: each where the person looks, clear of the others.
  await page.click('#graph-view .gv-tab[data-panel="nodes"]');
  await page.waitForSelector('#graph-view .gv-pal-add[data-type="core:TextInput"]');
  for (let k = 1; k <= 2; k++) {
    await page.click('#graph-view .gv-pal-add[data-type="core:TextInput"]');
    await page.waitForFunction((n) => document.querySelectorAll('#graph-view .gv-node').length === n, 3 + k, { timeout: 30000 });
  }
  const boxes = await nodeBoxes(page);
  is(overlaps(boxes), [], `graph: nodes added from the library land in free space (${boxes.map((b) => `${b.id}@${Math.round(b.x)},${Math.round(b.y)}`).join(' ')})`);
  const frame = await page.$eval('#graph-view .gv-svg', (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  const added = boxes.filter((b) => !wf.nodes.some((n) => n.id === b.id));
  ok(added.length === 2 && added.every((b) => b.x >= frame.x && b.y >= frame.y && b.x + b.w <= frame.x + frame.w && b.y + b.h <= frame.y + frame.h),
    `graph: the added nodes are in view (${JSON.stringify(added.map((b) => [Math.round(b.x), Math.round(b.y)]))} in ${JSON.stringify(frame)})`);
  await closeView(page, errors, 'graph');

  // On a phone, fit keeps the text readable: 12 px text at 11 px or more.
  const phone = await openView(ctx, base, 'graph', { width: 390, height: 844 });
  const wide = { name: 'wide', edges: [], viewport: { x: 0, y: 0, zoom: 1 },
    nodes: Array.from({ length: 8 }, (_, i) => ({ id: `n_${i}`, type: 'llm:Chat', position: { x: i * 320, y: (i % 2) * 200 }, data: {} })) };
  await importWorkflow(phone.page, wide);
  await phone.page.evaluate(() => [...document.querySelectorAll('#graph-view .gv-toolbar button')]
    .find((b) => /^(Fit|适应|适配|全部显示)/.test(b.textContent.trim()) || b.getAttribute('aria-label')?.startsWith('Fit'))?.click());
  const px = await phone.page.$eval('#graph-view .gv-slot-name', (e) => e.getBoundingClientRect().height);
  const zoom = Number(await phone.page.$eval('#graph-view .gv-svg', (e) => e.dataset.zoom));
  ok(zoom >= 91 && px >= 10, `graph phone: fit keeps text readable (zoom ${zoom}%, a slot name ${px.toFixed(1)} px high)`);
  await shot(phone.page, 'graph-fit-390-en', { fullPage: false });
  await closeView(phone.page, phone.errors, 'graph phone');
}

// The answer's Markdown, drawn by the page's own renderer: each block
// as its element, code with a copy button, and nothing from elsewhere.
const MD = [
  '## Plan', '', 'Some **bold**, *italic*, ~~gone~~ and `code`; snake_case_name stays.', '',
  '- one', '- two', '  - two.a', '', '1. first', '2. second', '',
  '| city | days |', '|---|---:|', '| Lisbon | 3 |', '| Porto \\| Braga | 2 |', '',
  '```js', 'const a = 1 < 2;', '```', '',
  '> quoted', '', '<img src=x onerror="window.__pwned=1"> ![pic](http://198.51.100.7/x.png)',
  '[ok](https://example.org/a) [bad](javascript:window.__pwned=2) <https://example.org/b>',
].join('\n');

async function testMarkdown(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'chat');
  const elsewhere = [];
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) elsewhere.push(r.url()); });
  const got = await page.evaluate(async (text) => {
    const { renderMarkdown } = await import('./markdown.js');
    const box = document.createElement('div');
    box.className = 'chat-text md';
    let copied = null;
    box.append(renderMarkdown(text, { copy: (c) => { copied = c; }, copyLabel: 'Copy code' }));
    document.querySelector('#chat-view .conversation').append(box);
    box.querySelector('.md-copy')?.click();
    await new Promise((r) => setTimeout(r, 300));
    return {
      tags: [...box.children].map((e) => e.tagName.toLowerCase()),
      h: box.querySelector('h4')?.textContent,
      inline: ['strong', 'em', 's', 'code'].map((t) => box.querySelector(`p ${t}`)?.textContent),
      snake: box.querySelector('p').textContent.includes('snake_case_name'),
      nested: box.querySelector('ul ul li')?.textContent,
      ol: [...box.querySelectorAll('ol > li')].map((e) => e.textContent),
      table: [...box.querySelectorAll('table tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
      copied,
      links: [...box.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.rel]),
      imgs: box.querySelectorAll('img').length,
      pwned: window.__pwned ?? null,
      rawText: box.textContent.includes('<img src=x'),
    };
  }, MD);
  is(got.tags, ['h4', 'p', 'ul', 'ol', 'div', 'div', 'blockquote', 'p'], 'markdown: each block is its element');
  is([got.h, ...got.inline, got.snake], ['Plan', 'bold', 'italic', 'gone', 'code', true], 'markdown: heading and inline styles; words with _ stay whole');
  is([got.nested, got.ol], ['two.a', ['first', 'second']], 'markdown: nested and numbered lists');
  is(got.table, [['city', 'days'], ['Lisbon', '3'], ['Porto | Braga', '2']], 'markdown: a table, escaped bars kept');
  is(got.copied, 'const a = 1 < 2;', 'markdown: a code block\'s copy button copies its code');
  is(got.links, [['pic', 'http://198.51.100.7/x.png', 'noopener noreferrer nofollow'], ['ok', 'https://example.org/a', 'noopener noreferrer nofollow'],
    ['https://example.org/b', 'https://example.org/b', 'noopener noreferrer nofollow']], 'markdown: web links only; a picture is its link; javascript: is text');
  is([got.imgs, got.pwned, got.rawText, elsewhere], [0, null, true, []], 'markdown: raw HTML is text, no picture loaded, nothing from elsewhere');
  // The worst small inputs: emphasis markers that never close, lists
  // nested thousands deep, unclosed fences; each drawn in bounded time.
  const worst = await page.evaluate(async () => {
    const { renderMarkdown } = await import('./markdown.js');
    const cases = {
      stars: '*a '.repeat(30000),
      stars2: '*a '.repeat(6600),
      unders2: 'x_y '.repeat(4900),
      under: '_x'.repeat(40000),
      nest: Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n'),
      quotes: '>'.repeat(5000) + ' deep',
      fence: '```\n' + 'code\n'.repeat(20000),
      links: '[a](http://x/'.repeat(10000),
    };
    const out = {};
    for (const [k, v] of Object.entries(cases)) {
      const t0 = performance.now();
      const box = document.createElement('div');
      box.append(renderMarkdown(v));
      out[k] = Math.round(performance.now() - t0);
    }
    return out;
  });
  ok(Object.values(worst).every((ms) => ms < 3000), `markdown: the worst small inputs draw in bounded time (ms: ${JSON.stringify(worst)})`);
  // An answer of the assistant's, drawn the same way, with its copy button.
  await page.fill('#chat-view .chat-composer textarea', 'what can you do?');
  await page.press('#chat-view .chat-composer textarea', 'Enter');
  await page.waitForSelector('#chat-view .chat-turn[data-state="done"] .chat-copy', { timeout: 30000 });
  await page.click('#chat-view .chat-turn[data-state="done"] .chat-copy');
  const clip = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  ok(clip.length > 10, `markdown: Copy puts the whole answer on the clipboard (${clip.slice(0, 60)}…)`);
  await shot(page, 'chat-markdown-1280-en', { fullPage: false });
  await closeView(page, errors, 'markdown');
}

async function testThreadList(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'chat');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  for (const text of ['alpha topic', 'beta topic', 'gamma topic']) {
    await page.click('#chat-view .view-head button');
    await page.fill('#chat-view .chat-composer textarea', text);
    await page.press('#chat-view .chat-composer textarea', 'Enter');
    await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  }
  const titles = () => page.$$eval('#threads li', (els) => els.map((e) => e.querySelector('.thread-title')?.textContent.replace(/^📌 /, '')));
  is(await titles(), ['gamma topic', 'beta topic', 'alpha topic'], 'threads: newest first');
  await page.fill('#threads .thread-search', 'BETA');
  is(await titles(), ['beta topic'], 'threads: a search keeps the conversations with its words');
  await page.fill('#threads .thread-search', 'nothing like this');
  ok(await page.isVisible('#threads p:has-text("No conversation")'), 'threads: a search with no match says so');
  await page.fill('#threads .thread-search', '');
  await page.click('#threads li:has-text("alpha topic") .thread-ren');
  await page.fill('#threads .thread-rename', 'Trip ideas');
  await page.press('#threads .thread-rename', 'Enter');
  await page.click('#threads li:has-text("beta topic") .thread-pin');
  is(await titles(), ['beta topic', 'gamma topic', 'Trip ideas'], 'threads: pinned first, the renamed one under its new name');
  await page.reload();
  is(await titles(), ['beta topic', 'gamma topic', 'Trip ideas'], 'threads: names and pins are kept after a reload');
  await page.fill('#threads .thread-search', 'trip');
  is(await titles(), ['Trip ideas'], 'threads: a search finds the new name');
  await page.fill('#threads .thread-search', '');
  await shot(page, 'threads-1280-en', { fullPage: false });
  await page.click('#lang');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#threads-toggle');
  await shot(page, 'threads-390-zh', { fullPage: false });
  await page.click('#lang');
  await page.evaluate(() => localStorage.clear());
  await closeView(page, errors, 'threads');
}

// The first load with an empty cache: what came over the wire (Chromium's
// own count, compressed as sent), all of it from this site.
async function testFirstLoad(ctx, base) {
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  let bytes = 0;
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    const u = urls.get(e.requestId) || '';
    if (!/\/api\/(agent|threads)/.test(u)) bytes += e.encodedDataLength;
  });
  await page.goto(`${base}#/image`, { waitUntil: 'networkidle' });
  const foreign = [...urls.values()].filter((u) => !u.startsWith(base) && !u.startsWith('data:'));
  ok(bytes > 10000 && bytes < 150 * 1024, `first load: ${(bytes / 1024).toFixed(1)} KB transferred (under 150 KB)`);
  is(foreign, [], 'first load: nothing is loaded from elsewhere');
  await cdp.detach();
  await page.close();
}

// Edit a sent message, regenerate an answer: the conversation goes on
// from there, the replaced turns leave the view, and a reload shows the
// newest branch.
async function testBranch(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'chat');
  const say = async (text) => {
    await page.fill('#chat-view .chat-composer textarea', text);
    await page.press('#chat-view .chat-composer textarea', 'Enter');
    await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  };
  const shown = () => page.$$eval('#chat-view .chat-turn:not([hidden])', (els) => els.map((e) => e.querySelector('.bubble.user p')?.textContent));
  await say('hello');
  await say('what time is it?');
  await page.click('#chat-view .chat-turn:nth-child(2) .chat-edit');
  await page.fill('#chat-view .chat-turn:nth-child(2) .chat-edit-box', 'search the notes for 减脂餐');
  await shot(page, 'chat-edit-1280-en', { fullPage: false });
  await page.click('#chat-view .chat-turn:nth-child(2) .chat-branch .primary');
  await page.waitForFunction(() => document.querySelectorAll('#chat-view .chat-turn').length === 3, null, { timeout: 30000 });
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  is(await shown(), ['hello', 'search the notes for 减脂餐'], 'branch: an edited message replaces it and what followed');
  const sent = posts(api).pop();
  is(sent?.input, { text: 'search the notes for 减脂餐', editOf: 'm3' }, 'branch: the edit goes as input.editOf');
  await page.click('#chat-view .chat-turn:not([hidden]):last-child .chat-regenerate');
  await page.waitForFunction(() => document.querySelectorAll('#chat-view .chat-turn').length === 4, null, { timeout: 30000 });
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  is(await shown(), ['hello', 'search the notes for 减脂餐'], 'branch: a regenerated answer takes the place of the old one');
  is(posts(api).pop()?.input, { regenerate: 'm6' }, 'branch: regenerate goes as input.regenerate');
  await page.reload();
  await page.waitForSelector('#chat-view .chat-turn', { timeout: 15000 });
  await page.waitForSelector('#chat-view .stream-status[data-state="done"]', { timeout: 30000 });
  is(await shown(), ['hello', 'search the notes for 减脂餐'], 'branch: after a reload, the newest branch shows');
  await closeView(page, errors, 'branch');
}

// The gallery: each picture made in this browser with its words, opened
// large, its conversation a click away, kept after a reload.
async function testGallery(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image');
  await page.evaluate(() => localStorage.removeItem('aivista.pictures'));
  for (const text of ['a red kite over the sea', '雪山下的小木屋']) {
    await page.click('#image-view .view-head button:has-text("New")');
    await page.fill('#image-view form.composer textarea', text);
    await page.press('#image-view form.composer textarea', 'Enter');
    await page.waitForSelector('#image-view .turn .smart-canvas img', { timeout: 60000 });
    await page.waitForSelector('#image-view .stream-status[data-state="done"]', { timeout: 60000, state: 'attached' });
  }
  const first = await page.evaluate(() => location.hash);
  await page.reload();
  await page.click('#image-view .gallery-open');
  const prompts = await page.$$eval('dialog.gallery .gallery-prompt', (els) => els.map((e) => e.textContent));
  is(prompts, ['雪山下的小木屋', 'a red kite over the sea'], 'gallery: the pictures of this browser, newest first, with their words');
  await shot(page, 'gallery-1280-en', { fullPage: false });
  await page.click('dialog.gallery li:nth-child(2) .gallery-acts button:not(.icon)');
  await page.waitForFunction(() => !document.querySelector('dialog.gallery'));
  await page.waitForSelector('#image-view .turn .smart-canvas img', { timeout: 15000 });
  ok(await page.evaluate(() => location.hash) !== first, 'gallery: a picture\'s conversation opens');
  await closeView(page, errors, 'gallery');
}

// Several pictures of one request (input.n), a seed, a candidate chosen
// and its variations; the size and the count on every turn.
async function testCandidates(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'image');
  await page.selectOption('#image-view .image-count', '3');
  await page.fill('#image-view .image-seed', '42');
  await page.fill('#image-view form.composer textarea', '一只猫和一只狗在草地上');
  await page.press('#image-view form.composer textarea', 'Enter');
  await page.waitForSelector('#image-view .turn:nth-child(1) .candidates .candidate', { timeout: 60000 });
  await page.waitForSelector('#image-view .stream-status[data-state="done"]', { timeout: 60000, state: 'attached' });
  const first = posts(api).pop()?.input || {};
  is([first.n, first.seed, typeof first.width], [3, 42, 'number'], 'candidates: the request asks for 3 pictures, the seed and the size');
  const seeds = await page.$$eval('#image-view .turn:nth-child(1) .candidate', (els) => els.map((e) => e.dataset.seed));
  is(seeds.length, 3, `candidates: three pictures in a grid (seeds ${seeds.join(', ')})`);
  ok(seeds[0] === '42' && new Set(seeds).size === 3, 'candidates: the first has the seed asked, each another');
  const big = () => page.$eval('#image-view .turn:nth-child(1) .canvas-stage img', (e) => e.getAttribute('src'));
  const before = await big();
  await page.click('#image-view .turn:nth-child(1) .candidate >> nth=1');
  ok(await big() !== before, 'candidates: a click shows that picture large');
  await shot(page, 'image-candidates-1280-en', { fullPage: false });
  await page.click('#image-view .turn:nth-child(1) .variations');
  await page.waitForSelector('#image-view .turn:nth-child(2) .candidates .candidate', { timeout: 60000 });
  await page.waitForSelector('#image-view .stream-status[data-state="done"]', { timeout: 60000, state: 'attached' });
  const second = posts(api).pop()?.input || {};
  ok(typeof second.variationOf === 'string' && second.n === 3 && !('text' in second) && !('width' in second),
    `candidates: Variations asks for more like the chosen one (${JSON.stringify(second)})`);
  const vseeds = await page.$$eval('#image-view .turn:nth-child(2) .candidate', (els) => els.map((e) => e.dataset.seed));
  ok(vseeds.length === 3 && vseeds.every((s) => !seeds.includes(s)), `candidates: the variations are new pictures (seeds ${vseeds.join(', ')})`);
  await page.selectOption('#image-view .image-count', '1');
  await page.selectOption('#image-view select:not(.image-count)', { index: 1 });
  await page.fill('#image-view form.composer textarea', 'a fox in the snow');
  await page.press('#image-view form.composer textarea', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('#image-view .turn').length === 3);
  await page.waitForSelector('#image-view .stream-status[data-state="done"]', { timeout: 60000, state: 'attached' });
  const third = posts(api).pop()?.input || {};
  ok(typeof third.width === 'number' && !('n' in third), `candidates: a size changed later goes with that turn (${JSON.stringify(third)})`);
  await closeView(page, errors, 'candidates');
}

async function run(s) {
  await s.run('daily late stop', () => testLateStop(s.ctx, s.base));
  await s.run('daily names', () => testNames(s.ctx, s.base));
  await s.run('daily mask', () => testMaskHint(s.ctx, s.base));
  await s.run('daily plans', () => testNotePlans(s.ctx, s.base));
  await s.run('daily graph', () => testGraph(s.ctx, s.base));
  await s.run('daily markdown', () => testMarkdown(s.ctx, s.base));
  await s.run('daily threads', () => testThreadList(s.ctx, s.base));
  await s.run('daily first load', () => testFirstLoad(s.ctx, s.base));
  await s.run('daily branch', () => testBranch(s.ctx, s.base));
  await s.run('daily gallery', () => testGallery(s.ctx, s.base));
  await s.run('daily candidates', () => testCandidates(s.ctx, s.base));
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
