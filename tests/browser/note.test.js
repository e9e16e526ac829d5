// The browser test of the note view (run with the other views by run.sh;
// `node note.test.js` runs it alone): the topic, the pause after the
// writer, a reject and the next draft's list of what changed, the title
// edited in place, the pause after the image plans, approve, the images,
// and the finished note with the edited title, copied; a reload while
// paused (the question comes back and answering works); a question's
// answer, and an answer given while the network is down. Skipped when the
// server has no note workflow.
'use strict';

const {
  ok, is, skip, png, shot, posts, serves, noNull, inView, openView, closeView,
} = require('./browserlib');

async function waitPause(page, kind, nth = 1) {
  return page.waitForSelector(`#note-view .pause-card[data-kind="${kind}"][data-state="open"] >> nth=${nth - 1}`, { timeout: 30000 });
}

async function testNote(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'note');
  await page.fill('#note-view .note-form textarea', '春游攻略');
  await page.click('#note-view .note-form button[type="submit"]');
  await waitPause(page, 'content');
  ok(true, 'note: pauses after the writer');
  const agents = await page.$$eval('#note-view .node', (els) => els.map((e) => e.dataset.node));
  ok(agents.some((a) => /writer/.test(a)), `note: the agents are listed as they work (${agents.join(', ')})`);
  const draftTitle = await page.textContent('#note-view .pause-card[data-state="open"] [data-field="title"] .field-view');
  ok(draftTitle && draftTitle.trim().length > 0, `note: the draft is shown with the question (${draftTitle})`);
  // A draft sent back: the next one says what changed, as a list, and why.
  await page.fill('#note-view .pause-card[data-state="open"] > .field textarea', '太长了，换一种写法');
  await page.click('#note-view .pause-card[data-state="open"] [data-action="reject"]');
  const changes = await page.waitForSelector('#note-view .pause-card[data-kind="content"][data-state="open"] .pause-changes',
    { timeout: 30000 }).catch(() => null);
  const diff = changes ? await changes.innerText() : '';
  ok(/What changed/.test(diff) && /^[+−~] |Nothing/m.test(diff) && /换一种写法/.test(diff),
    `note: the draft after a reject lists what changed and why (${diff.split('\n').join(' / ')})`);
  // Each item of the feedback: done, or not done with why.
  const items = await page.$$eval('#note-view .pause-card[data-kind="content"][data-state="open"] .pause-items li',
    (els) => els.map((e) => `${e.dataset.done}:${e.textContent}`)).catch(() => []);
  ok(items.length === 2 && items.some((i) => /^yes:✓ "太长了"/.test(i)) && items.some((i) => /^no:✗ "换一种写法" not done: \S/.test(i)),
    `note: each item of the feedback is listed as done or not done, with why (${items.join(' / ')})`);
  await shot(page, 'note-feedback-items');
  // Short, with the keyword and a hook: the offline review passes it.
  const title = '春游必看攻略｜我改过的标题';
  await page.click('#note-view .pause-card[data-state="open"] [data-action="modify"]');
  const input = await page.waitForSelector('#note-view .pause-card[data-state="open"] [data-field="title"] input');
  await input.fill(title);
  await shot(page, 'note-edit');
  await page.click('#note-view .pause-card[data-state="open"] [data-action="save"]');
  await waitPause(page, 'image_plans');
  const cb = posts(api, 'confirm').pop() || {};
  ok(cb.action === 'modify' && cb.payload?.title === title && !('body' in (cb.payload || {})),
    'note: modify sends only the title that changed');
  ok(await page.$('#note-view .pause-card[data-kind="content"][data-state="answered"]'), 'note: the first pause shows as answered');
  ok(await page.$('#note-view .pause-card[data-kind="image_plans"] .plan'), 'note: the image plans are shown for approval');
  await page.click('#note-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#note-view .card[data-card="final"]', { timeout: 60000 });
  const images = await page.$$('#note-view .card[data-card="images"] .image-tile, #note-view .final-images img');
  ok(images.length > 0, `note: images appear (${images.length})`);
  is(await page.textContent('#note-view .card[data-card="final"] .note-title'), title, 'note: the finished note has the edited title');
  ok(await page.$('#note-view .card[data-card="quality"]'), 'note: the quality scores are shown');
  await page.click('#note-view .card[data-card="final"] button.primary');
  await page.waitForFunction(() => /\S/.test(document.querySelector('#note-view .card[data-card="final"] [role="status"]')?.textContent || ''));
  const copied = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  ok(copied.startsWith(title), 'note: the copy button copies the note');
  await page.click('#note-view .card[data-card="final"] [data-copy="markdown"]');
  await page.waitForTimeout(200);
  const md = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
  ok(md.startsWith(`# ${title}\n`) && /!\[1\]\(http[^)]*\/api\/assets\//.test(md), 'note: copy Markdown: a heading, the body and the pictures');
  is(await page.$eval('#note-view .card[data-card="final"] .download-images', (e) => e.disabled), false, 'note: the images can be downloaded');

  // The finished note is the hero: in view, beside the working area.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await page.waitForSelector('#note-view .card[data-card="final"] .phone img');
  await page.waitForTimeout(400);
  const phone = await inView(page, '#note-view .card[data-card="final"] .phone-media');
  const acts = await inView(page, '#note-view .card[data-card="final"] .card-actions');
  ok(phone.ok && acts.ok, `note 1280×800: the preview's pictures and its actions are in view without scrolling (${phone.top}–${phone.bottom}, ${acts.top}–${acts.bottom})`);
  const beside = await page.evaluate(() => {
    const p = document.querySelector('#note-view .preview-col').getBoundingClientRect();
    const w = document.querySelector('#note-view .products').getBoundingClientRect();
    return p.left >= w.right - 1;
  });
  ok(beside, 'note 1280×800: the preview stands beside the working area');
  is(await page.$eval('#note-view details.agents', (e) => e.open), false, 'note: the agents\' steps fold into one line');
  await page.$eval('#note-view details.agents', (e) => { e.open = true; });
  const visible = await page.evaluate(() => document.body.innerText);
  const internal = ['getTrendReport', 'searchNotes', 'analyzeTopTags', 'generate_images_batch', 'create_note', 'paragraphIndex', 'write_nosync',
    'generate_image', '来源', 'Source', 'Round 0', 'rules'].filter((w) => visible.includes(w));
  is(internal, [], 'note: no internal names on the page, steps opened');
  await page.$eval('#note-view details.agents', (e) => { e.open = false; });
  await noNull(page, 'note');
  await shot(page, 'note');

  // The same screen in Chinese, then at phone width.
  await page.click('#lang');
  is(await page.evaluate(() => [document.documentElement.lang, document.querySelector('#nav-note .nav-text').textContent,
    document.querySelector('#note-view .card[data-card="final"] h3').textContent]), ['zh-CN', '笔记写作', '你的笔记'],
  'note: the page switches to Chinese in place');
  await shot(page, 'note-zh');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.waitForSelector('#note-view .card[data-card="final"] .phone img');
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  ok(overflow <= 1, `note: nothing overflows at phone width (${overflow}px)`);
  const phone2 = await inView(page, '#note-view .card[data-card="final"] .phone-media');
  const acts2 = await inView(page, '#note-view .card[data-card="final"] .card-actions');
  ok(phone2.ok && acts2.ok, `note 390×844: the preview's pictures and its actions are in view without scrolling (${phone2.top}–${phone2.bottom}, ${acts2.top}–${acts2.bottom}, screen ends at ${acts2.limit})`);
  await shot(page, 'note-phone-zh');
  await page.click('#lang');
  await shot(page, 'note-phone-en');
  await page.click('#lang');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('#lang');
  await closeView(page, errors, 'note');
}

async function testReloadPaused(ctx, base) {
  const { page, api } = await openView(ctx, base, 'note');
  await page.fill('#note-view .note-form textarea', '周末露营');

  // A reference address the server refuses: said in words, with its reason.
  await page.fill('#note-view .note-form input[type="url"]', 'file:///etc/passwd');
  await page.click('#note-view .note-form button[type="submit"]');
  const box = await page.waitForSelector('#note-view .error-box:not([hidden])');
  const said = await box.textContent();
  ok(/did not accept/.test(said) && /referenceImageUrl/.test(said) && await page.isVisible('#note-view .note-form'),
    'a refused request: what happened, what to do and the server\'s reason; the form stays');
  await page.fill('#note-view .note-form input[type="url"]', '');

  // A reference picture from the file picker.
  await page.setInputFiles('#note-view .note-form input[type="file"]', { name: 'green.png', mimeType: 'image/png', buffer: png(64, 48, [40, 160, 90]) });
  await page.waitForSelector('#note-view .ref-previews img');
  await page.click('#note-view .note-form button[type="submit"]');
  const card = await waitPause(page, 'content');
  const start = posts(api).pop();
  const input = start ? start.input : {};
  ok(input.topic === '周末露营' && /^data:image\/png;base64,/.test(input.referenceImages?.[0] || ''),
    'note: the reference picture goes as a data URL');
  const refs = await page.$$eval('#note-view .node[data-node="reference_intelligence_agent"] .entry', (els) => els.map((e) => e.textContent).join(' '));
  ok(refs.length > 0 && !/没有参考图/.test(refs), `note: the reference agent reads it (${refs.slice(0, 60)}…)`);
  const question = await card.$eval('.question', (e) => e.textContent);
  const hash = await page.evaluate(() => location.hash);
  await page.reload();
  const again = await waitPause(page, 'content');
  is(await page.evaluate(() => location.hash), hash, 'reload while paused: the same thread');
  is(await again.$eval('.question', (e) => e.textContent), question, 'reload while paused: the question is shown again');
  is(await page.$$eval('#note-view .pause-card', (els) => els.length), 1, 'reload while paused: once');
  ok(await page.$('#note-view .stream-status[data-state="paused"]'), 'reload while paused: the page says it waits for you');
  await page.click('#note-view .pause-card[data-state="open"] [data-action="approve"]');
  await waitPause(page, 'image_plans');
  ok(true, 'reload while paused: answering works, the thread goes on');
  await page.click('#note-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#note-view .card[data-card="final"]', { timeout: 60000 });
  ok(true, 'reload while paused: and finishes');
  await shot(page, 'note-reloaded');
  const last = await page.evaluate(() => location.hash);
  await page.goto(base);
  await page.waitForSelector('#note-view .card[data-card="final"]', { timeout: 20000 });
  is(await page.evaluate(() => location.hash), last, 'the app opened without a thread comes back to the last one (local storage)');
  await page.close();
}

// -- a question's answer, and an answer given while the network is down -----------

async function testAnswers(ctx, base) {
  const { page } = await openView(ctx, base, 'note');
  await page.fill('#note-view .note-form textarea', '写点东西');
  await page.click('#note-view .note-form button[type="submit"]');
  const card = await waitPause(page, 'clarification');
  const choice = await card.$eval('.choice', (e) => e.textContent.trim());
  await card.$eval('.choice input', (e) => e.click());
  await card.$eval('textarea', (e) => { e.value = '写给上班族'; });
  await page.click('#note-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#note-view .pause-card[data-kind="clarification"][data-state="answered"]');
  const summary = await page.$eval('#note-view .pause-card[data-kind="clarification"]', (e) => e.innerText);
  ok(summary.includes(choice) && !/approved/i.test(summary), `an answered question says what was chosen (${summary.split('\n').slice(-2).join(' / ')})`);
  ok(summary.includes('写给上班族'), 'and the note written with it');

  // The writer's draft: answered while the network is down.
  await waitPause(page, 'content');
  const sent = [];
  const failed = [];
  page.on('requestfinished', (r) => { if (r.url().endsWith('/api/agent/confirm')) sent.push(JSON.parse(r.postData())); });
  page.on('requestfailed', (r) => { if (r.url().endsWith('/api/agent/confirm')) failed.push(JSON.parse(r.postData())); });
  await ctx.setOffline(true);
  await page.click('#note-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#note-view .pause-card[data-kind="content"][data-state="unsent"]', { timeout: 10000 });
  const unsent = await page.$eval('#note-view .pause-card[data-kind="content"] .pause-status', (e) => e.textContent);
  ok(/Not sent/.test(unsent), `offline answer: the card stays open, marked not sent (${unsent})`);
  ok(await page.isVisible('#health-line') && await page.$eval('#health-dot', (e) => e.dataset.status) === 'down',
    'offline: the status line speaks up');
  await shot(page, 'note-unsent-1280-en');
  await page.waitForTimeout(1500);
  await ctx.setOffline(false);
  await waitPause(page, 'image_plans');
  ok(true, 'offline answer: sent when the network is back, and the thread goes on');
  await page.waitForSelector('#health-line', { state: 'hidden', timeout: 5000 });
  ok(true, 'online again: the status line goes quiet');
  const ids = new Set([...sent, ...failed].map((b) => b.interruptId));
  ok(failed.length >= 1 && sent.length === 1 && ids.size === 1,
    `offline answer: sent again once, with the same interruptId (${failed.length} failed, ${sent.length} arrived, ${ids.size} interrupt)`);
  await noNull(page, 'answers');
  await page.close();
}

async function run(s) {
  if (await serves(s.base, 'note')) {
    await s.run('note', () => testNote(s.ctx, s.base));
    await s.run('reload-paused', () => testReloadPaused(s.ctx, s.base));
    await s.run('answers', () => testAnswers(s.ctx, s.base));
  } else {
    const why = 'the server has no note workflow yet (src/wf/note/ is not in this build)';
    skip('note: topic, pause after the writer, title edited in place, image plans approved, images, finished note', why);
    skip('reload while paused: the question comes back and answering works', why);
  }
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
