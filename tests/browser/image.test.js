// The browser test of the image view (run with the other views by run.sh;
// `node image.test.js` runs it alone): a request, the thought log in
// order, the picture, a mask painted with the mouse, the inpainting turn
// and its new picture, regenerate and an adjustment from the action panel
// (each sent as data, not a sentence), a reload that brings it back, and
// phone width; then the results first, at both sizes
// and in both languages, and the viewer; then pictures of a few requests,
// each showing the glyphs of what was asked.
'use strict';

const {
  ok, is, skip, replay, shot, posts, noNull, inView, thoughtTexts, openView, closeView,
} = require('./browserlib');

async function testImage(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'image');
  await page.waitForSelector('#health[data-status="ok"]', { timeout: 10000, state: 'attached' });
  ok(await page.isHidden('#health-line') && await page.$eval('#health-dot', (e) => e.dataset.status).catch(() => null) === 'ok',
    'image: the server runs: a green dot, and no status line while nothing is wrong');

  // The keyboard reaches everything, and shows where it is.
  await page.keyboard.press('Tab');
  is(await page.evaluate(() => document.activeElement.className), 'skip', 'keyboard: Tab first reaches "skip to the workspace"');
  const seen = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => {
      const e = document.activeElement;
      const st = getComputedStyle(e);
      return { id: e.id || e.textContent.trim().slice(0, 20), outline: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2 };
    }));
  }
  ok(seen.every((x) => x.outline), `keyboard: each control shows a visible focus ring (${seen.map((x) => x.id).join(', ')})`);

  // The request, typed and sent from the keyboard.
  await page.focus('#image-view textarea');
  await page.keyboard.type('赛博朋克风格的猫');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#image-view .turn:nth-child(1)[data-state="done"] .smart-canvas img', { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#image-view .turn .smart-canvas img')?.naturalWidth > 0);
  const hash = await page.evaluate(() => location.hash);
  const threadId = decodeURIComponent(hash.replace(/^#\/image\//, ''));
  ok(/^v1\.[\w-]+\.[\w-]+$/.test(threadId), `image: the thread ID is in the URL (${hash.slice(0, 30)}…)`);

  const log = await replay(base, threadId);
  const serverThoughts = log.filter((e) => e.type === 'thought_log').map((e) => e.message);
  is(await thoughtTexts(page, '#image-view .turn:nth-child(1)'), serverThoughts, 'image: the thought log shows every entry, in order');
  is(posts(api)[0]?.input?.lang, 'en', 'image: a new thread is asked for in the page\'s language');
  is(await page.$$eval('#image-view .turn:nth-child(1) .node .node-name', (els) => els.map((e) => e.textContent)),
    ['Planner', 'Style retrieval', 'Executor', 'Critic', 'Result'], 'image: steps have names for people, in the page\'s language');
  is(await page.$$eval('#image-view .turn:nth-child(1) .node', (els) => els.map((e) => `${e.dataset.node}:${e.dataset.state}`)),
    ['planner:done', 'rag:done', 'executor:done', 'critic:done', 'genui:done'], 'image: one timeline entry per node, each done');
  const first = await page.$eval('#image-view .turn:nth-child(1) .smart-canvas img', (e) => e.getAttribute('src'));
  const firstUrl = log.find((e) => e.type === 'gen_ui_component' && e.component.widgetType === 'SmartCanvas').component.props.imageUrl;
  ok(first.endsWith(firstUrl), `image: the picture is shown (${firstUrl})`);
  const said = await page.$eval('#image-view .turn:nth-child(1) .results', (e) => e.innerText);
  const scoresSaid = said.match(/\d+\s*\/\s*100/g) || [];
  ok(scoresSaid.length === 1, `image: the critic's score is said once (${scoresSaid.join(', ')})`);
  ok(await page.$('#image-view .turn:nth-child(1) .action-panel [data-action="inpaint_btn"]'), 'image: the action panel offers what the agent sent');
  ok(await page.$(`#threads li[data-thread="${threadId}"][data-status="done"]`), 'image: the thread list shows it, done');

  // A mask painted with the mouse.
  await page.click('#image-view .turn:nth-child(1) .action-panel [data-action="inpaint_btn"]');
  const canvas = await page.waitForSelector('#image-view .turn:nth-child(1) canvas.mask-layer');
  await page.$eval('#image-view .turn:nth-child(1) .mask-tools input[type="range"]', (e) => {
    e.value = '60';
    e.dispatchEvent(new Event('input'));
  });
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + box.width * (0.15 + i * 0.02), box.y + box.height * (0.2 + i * 0.015));
  await page.mouse.up();
  await page.fill('#image-view .turn:nth-child(1) .mask-tools input[type="text"]', '换成机械头盔');
  await shot(page, 'image-mask');
  await page.click('#image-view .turn:nth-child(1) .mask-tools button.primary');
  await page.waitForSelector('#image-view .turn:nth-child(2)[data-state="done"] .smart-canvas img', { timeout: 20000 });
  const body = posts(api)[1];
  ok(body && body.threadId === threadId && !body.workflow, 'inpainting: a new turn in the same thread');
  const m = body?.input?.maskData || {};
  ok(/^data:image\/png;base64,/.test(m.base64 || ''), 'inpainting: the mask goes as a PNG data URL');
  is(m.imageUrl, firstUrl, 'inpainting: with the URL of the picture it was painted on');
  ok(Array.isArray(m.coordinates) && m.coordinates.length >= 10 &&
     m.coordinates.every((p) => Number.isInteger(p.x) && Number.isInteger(p.y) && p.x >= 0 && p.y >= 0 && p.x <= 1024 && p.y <= 1024),
     `inpainting: and the stroke's points in image pixels (${m.coordinates?.length})`);
  const px = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let white = 0;
    let black = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] > 250 && d[i + 1] > 250 && d[i + 2] > 250) white++;
      else if (d[i] < 5 && d[i + 1] < 5 && d[i + 2] < 5) black++;
    }
    return { w: c.width, h: c.height, white, black };
  }, m.base64);
  ok(px.w === 1024 && px.h === 1024 && px.white > 1000 && px.black > px.white,
    `inpainting: the mask is the picture's size, white where painted (${JSON.stringify(px)})`);
  is(body?.input?.text, '换成机械头盔', 'inpainting: with the words typed for the region');
  const second = await page.$eval('#image-view .turn:nth-child(2) .smart-canvas img', (e) => e.getAttribute('src'));
  ok(second !== first, 'inpainting: a new picture is shown');
  const t2 = await thoughtTexts(page, '#image-view .turn:nth-child(2)');
  // The page is in English, so is the thread, whatever the words typed.
  ok(t2.some((x) => x.includes('inpainting')), 'inpainting: the executor says it repaints, in the thread\'s language');

  // Regenerate from the action panel.
  const regen = await page.$('#image-view .turn:nth-child(2) .action-panel [data-action="regenerate_btn"]');
  if (ok(regen, 'the action panel offers regenerate under the picture')) {
    await regen.click();
    await page.waitForSelector('#image-view .turn:nth-child(3)[data-state="done"] .smart-canvas img', { timeout: 20000 });
    const b3 = posts(api)[2];
    ok(b3 && b3.threadId === threadId, 'regenerate: a new turn in the same thread');
    is(b3?.input, { adjust: { kind: 'regenerate' } }, 'regenerate: sent as data, not a sentence');
    const log3 = await replay(base, threadId);
    const made = log3.filter((e) => e.type === 'gen_ui_component' && e.component.widgetType === 'SmartCanvas');
    ok(made.length === 3 && log3.some((e) => e.type === 'thought_log' && /inpainting/.test(e.message)),
      'regenerate: the server repaints the last picture again');
  }

  // The adjust form: its controls go as data.
  await page.click('#image-view .turn:nth-child(3) .action-panel [data-action="adjust_btn"]');
  const form = '#image-view .turn:nth-child(3) .adjust-form';
  await page.waitForSelector(`${form} select[name="style"] option[value="watercolor"]`, { state: 'attached', timeout: 10000 });
  is(await page.$eval(`${form} select[name="style"] option[value="watercolor"]`, (e) => e.textContent), 'Watercolor',
    'adjust: the styles of the library are offered by name');
  await page.$eval(`${form} input[type="range"]`, (e) => {
    e.value = '90';
    e.dispatchEvent(new Event('input'));
  });
  await page.selectOption(`${form} select[name="style"]`, 'watercolor');
  await page.selectOption(`${form} select[name="light"]`, 'brighter');
  await page.selectOption(`${form} select[name="size"]`, '1280x720');
  await page.click(`${form} button.primary`);
  await page.waitForSelector('#image-view .turn:nth-child(4)[data-state="done"] .smart-canvas img', { timeout: 20000 });
  const b4 = posts(api)[3];
  is(b4?.input, { adjust: { kind: 'restyle', styleStrength: 90, style: 'watercolor', light: 'brighter', width: 1280, height: 720 } },
    'adjust: the style, strength, light and size sent as data, with no sentence');
  is(await page.$$eval('#image-view .turn:nth-child(4) .bubble.user .chip', (els) => els.map((e) => e.textContent)),
    ['Adjust', 'Watercolor', 'Style strength 90', '1280 × 720', 'Brighter'], 'adjust: the request shows what was asked');
  const st4 = (await (await fetch(new URL(`api/threads/${encodeURIComponent(threadId)}`, base))).json()).state;
  ok(st4?.intent?.action === 'adjust_parameters' && st4.params?.styleStrength === 90 && st4.params?.width === 1280 &&
     /watercolor painting/.test(st4.executionResult?.metadata?.prompt || '') && /brighter lighting/.test(st4.executionResult?.metadata?.prompt || ''),
    `adjust: the server redraws it as asked (${st4?.executionResult?.metadata?.prompt?.slice(0, 60)}…)`);

  const logAll = await replay(base, threadId);
  const allThoughts = logAll.filter((e) => e.type === 'thought_log').map((e) => e.message);
  is(await thoughtTexts(page, '#image-view'), allThoughts, 'image: four turns, every thought once');
  await shot(page, 'image');

  // A reload brings the thread back.
  await page.reload();
  await page.waitForSelector('#image-view .turn:nth-child(4)[data-state="done"] .smart-canvas img', { timeout: 20000 });
  is(await thoughtTexts(page, '#image-view'), allThoughts, 'image: after a reload the same thread is shown, nothing twice');
  is(await page.$$eval('#image-view .bubble.user p', (els) => els.map((e) => e.textContent)),
    ['赛博朋克风格的猫', '换成机械头盔', 'Draw it again', 'AdjustWatercolorStyle strength 901280 × 720Brighter'],
    'image: with the requests of each turn');

  // Phone width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  ok(overflow <= 1, `image: nothing overflows at phone width (${overflow}px)`);
  await shot(page, 'image-phone');
  await page.setViewportSize({ width: 1280, height: 900 });
  await closeView(page, errors, 'image');
  return threadId;
}

// -- results first, at both sizes and in both languages ------------------------

async function resultInView(page, what, sizeName) {
  const img = await inView(page, '#image-view .turn:last-child .smart-canvas img');
  const act = await inView(page, '#image-view .turn:last-child .action-panel');
  ok(img.ok && act.ok, `${what} ${sizeName}: the picture and its actions are in view without scrolling (picture ${img.top}–${img.bottom}, actions ${act.top}–${act.bottom}, screen ends at ${act.limit})`);
}

async function testResultsFirst(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image', { width: 1280, height: 800 });
  // The empty state says what the studio does and offers examples to click.
  const examples = await page.$$eval('#image-view .empty .example', (els) => els.map((e) => e.textContent));
  ok(examples.length >= 2 && examples.length <= 3, `empty state: ${examples.length} example requests (${examples.join(' | ')})`);
  await page.click('#image-view .empty .example >> nth=0');
  await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#image-view .turn .smart-canvas img')?.naturalWidth > 0);
  await page.waitForTimeout(300);
  is(await page.$eval('#image-view .bubble.user p', (e) => e.textContent), examples[0], 'empty state: an example is sent as it reads');
  const line = await page.$eval('#image-view .turn .steps-line', (e) => e.textContent);
  ok(/^Thought for .+ · 5 steps$/.test(line), `results first: the steps fold into one line (${line})`);
  is(await page.$eval('#image-view .turn details.steps', (e) => e.open), false, 'results first: closed');
  await resultInView(page, 'results first', '1280×800');
  await noNull(page, 'image result');
  await shot(page, 'image-1280-en');

  // The language switch rewrites what the page wrote, in place.
  await page.click('#lang');
  const zhLine = await page.$eval('#image-view .turn .steps-line', (e) => e.textContent);
  ok(/^思考了.+· 5 步$/.test(zhLine), `language: the steps line is rewritten in Chinese (${zhLine})`);
  is(await page.$$eval('#image-view .turn .node .node-name', (els) => els.map((e) => e.textContent)),
    ['意图规划', '风格检索', '执行', '质量审查', '生成结果'], 'language: and the steps\' names');
  await shot(page, 'image-1280-zh');

  // The viewer: full size, labelled as an offline preview, PNG download.
  await page.click('#image-view .turn .smart-canvas .view-full');
  const dlg = await page.waitForSelector('dialog.viewer[open]');
  await page.waitForSelector('dialog.viewer .offline-chip:not([hidden])', { timeout: 5000 });
  ok(true, 'viewer: the offline renderer\'s picture is labelled as an offline preview');
  await page.selectOption('dialog.viewer select', '1080');
  const href = await dlg.$eval('a.viewer-download', (e) => e.href);
  const saveAs = await dlg.$eval('a.viewer-download', (e) => e.getAttribute('download'));
  ok(/\/api\/assets\/[\w-]+\?format=png&width=1080$/.test(href) && /\.png$/.test(saveAs) && !/^aivista-/.test(saveAs),
    `viewer: the download asks for a PNG at the chosen width, named after the request (${href.replace(/.*\/api/, 'api')} as ${saveAs})`);
  await shot(page, 'viewer-1280-zh');
  const res = await fetch(href);
  const type = res.headers.get('content-type') || '';
  if (res.status === 200 && /image\/png/.test(type)) {
    const buf = Buffer.from(await res.arrayBuffer());
    ok(buf.subarray(1, 4).toString() === 'PNG' && buf.readUInt32BE(16) === 1080, `viewer: the server answers a PNG 1080 px wide (${buf.length} bytes)`);
  } else {
    skip('viewer: the server answers a PNG at the chosen width', `this server does not convert pictures to PNG yet (${res.status} ${type})`);
  }
  await page.click('dialog.viewer .viewer-close');
  // The dialog's close event (which removes it) comes as a task after the click.
  await page.waitForSelector('dialog.viewer', { state: 'detached', timeout: 5000 }).catch(() => {});
  is(await page.$('dialog.viewer'), null, 'viewer: closes');

  // Phone size, Chinese, then English.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#image-view .view-head button');
  await page.click('#image-view .empty .example >> nth=1');
  await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#image-view .turn .smart-canvas img')?.naturalWidth > 0);
  await page.waitForTimeout(300);
  await resultInView(page, 'results first', '390×844');
  await shot(page, 'image-390-zh');
  await page.click('#lang');
  await shot(page, 'image-390-en');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  ok(overflow <= 1, `results first: nothing overflows at phone width (${overflow}px)`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await closeView(page, errors, 'results first');
}

// -- the offline pictures show what was asked ----------------------------------

// (request, the glyphs its picture must show, the background, the style
// filter or null)
const SCENES = [
  ['一只猫和一只狗在草地上', ['🐈', '🐕'], 'sky', null],
  ['a fox and an owl in the snow, watercolour', ['🦊', '🦉'], 'snow', 'watercolour'],
  ['夜晚城市里的机器人和火箭', ['🤖', '🚀'], 'city', null],
];

async function testScenes(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'image', { width: 1280, height: 800 });
  for (const [i, [text, glyphs, background, style]] of SCENES.entries()) {
    if (i > 0) await page.click('#image-view .view-head button');
    await page.focus('#image-view textarea');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#image-view .turn[data-state="done"] .smart-canvas img', { timeout: 20000 });
    await page.waitForFunction(() => document.querySelector('#image-view .turn .smart-canvas img')?.naturalWidth > 0);
    const src = await page.$eval('#image-view .turn:last-child .smart-canvas img', (e) => e.src);
    const svg = await (await fetch(src)).text();
    const titles = [...svg.matchAll(/<g class="av-glyph" data-cp="[0-9A-F-]+"><title>(\S+) /g)].map((m) => m[1]);
    ok(glyphs.every((g) => titles.includes(g)), `scene "${text}": the picture shows ${glyphs.join(' ')} (${titles.join(' ')})`);
    ok(svg.includes(`data-background="${background}"`) &&
       (style ? svg.includes(`filter="url(#av-style-${style})"`) : !svg.includes('filter="url(#av-style-')),
    `scene "${text}": background ${background}, style ${style || 'none'}`);
    await page.waitForTimeout(300);
    await shot(page, `scene-${i + 1}`, { fullPage: false });
  }
  await closeView(page, errors, 'scenes');
}

async function run(s) {
  await s.run('image', () => testImage(s.ctx, s.base));
  await s.run('results-first', () => testResultsFirst(s.ctx, s.base));
  await s.run('scenes', () => testScenes(s.ctx, s.base));
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
