// The browser test of the orchestration view (run with the other views by
// run.sh; `node orch.test.js` runs it alone): a task with a picture the
// test draws and a template, the plan card, reject with a note (planned
// again), the plan edited in its form (a step removed) and run; a refused
// edit and a refused answer; code review offline; with the server's own
// agents and with a model that answers them, approve, the columns changing
// live, the annotated picture beside the original, the files, both
// languages and sizes.
'use strict';

const fs = require('fs');
const {
  ok, is, shot, posts, noNull, openView, closeView,
} = require('./browserlib');

// A picture with known text, drawn by the page: its PNG and where the text is.
async function textPicture(page, text) {
  return page.evaluate((words) => {
    const c = document.createElement('canvas');
    c.width = 480;
    c.height = 160;
    const g = c.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = '#000';
    g.font = 'bold 48px sans-serif';
    g.textBaseline = 'top';
    g.fillText(words, 40, 50);
    const w = Math.ceil(g.measureText(words).width);
    return { base64: c.toDataURL('image/png').split(',')[1], size: { width: c.width, height: c.height },
      box: { x: 36, y: 44, width: w + 8, height: 60 } };
  }, text);
}

async function attachPicture(page, name, pic) {
  await page.setInputFiles('#orch-view .ov-form .file-picker input[type="file"]', { name, mimeType: 'image/png', buffer: Buffer.from(pic.base64, 'base64') });
  await page.waitForSelector(`#orch-view .ov-attach li[data-name="${name}"] img`);
}

const stageStates = (page) => page.$$eval('#orch-view .ov-stage', (els) => els.map((e) => [e.dataset.stage, e.dataset.state]));

// Plan, reject with a note (the planner plans again), edit the plan in
// its form (a step removed) and run it, on the offline stack.
async function testOrchPlan(ctx, base) {
  const { page, errors, api } = await openView(ctx, base, 'orch', { width: 1280, height: 800 });
  await page.click('#orch-view .view-head button');
  const examples = await page.$$eval('#orch-view .empty .example', (els) => els.map((e) => e.textContent));
  is(examples.length, 3, `orch: the empty state offers the three templates as examples (${examples.join(' | ')})`);
  const templates = await page.$$eval('#orch-view .ov-template option', (els) => els.map((e) => [e.value, e.textContent]));
  is(templates.map((x) => x[0]), ['', 'image-ocr-annotate', 'image-element-detect', 'code-review-and-fix'], 'orch: the template picker has the three templates');
  ok(templates.every(([, words]) => !/[a-z]+-[a-z]+-/.test(words)), `orch: templates are named in words (${templates.map((x) => x[1]).join(' | ')})`);

  // An example that needs a picture asks for one first.
  await page.click('#orch-view .empty .example >> nth=0');
  await page.waitForSelector('#orch-view .error-box:not([hidden])');
  ok(/needs a picture/.test(await page.textContent('#orch-view .error-box')), 'orch: an example that needs a picture says so when none is attached');
  is(posts(api, 'stream').length, 0, 'orch: and sends nothing');
  await shot(page, 'orch-empty-1280-en');
  await page.click('#lang');
  await page.setViewportSize({ width: 390, height: 844 });
  ok(/图片/.test(await page.textContent('#orch-view .empty')) && /识别图片文字并框出/.test(await page.textContent('#orch-view .ov-template')), 'orch: the empty state and the templates in Chinese');
  await shot(page, 'orch-empty-390-zh');
  await page.click('#lang');
  await page.setViewportSize({ width: 1280, height: 800 });

  const pic = await textPicture(page, 'HELLO 2026');
  await attachPicture(page, 'sign.png', pic);
  // A file dropped on the picker is attached too, and can be removed.
  await page.$eval('#orch-view .ov-form .drop-zone', (zone) => {
    const dt = new DataTransfer();
    dt.items.add(new File(['int main(void) { return 0; }\n'], 'dropped.c', { type: 'text/x-c' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForSelector('#orch-view .ov-attach li[data-name="dropped.c"] .ov-filechip');
  await page.click('#orch-view .ov-attach li[data-name="dropped.c"] button');
  is(await page.$$eval('#orch-view .ov-attach li', (els) => els.map((e) => e.dataset.name)), ['sign.png'], 'orch: a dropped file is attached (a chip for a source file) and removed again');
  await page.click('#orch-view .empty .example >> nth=0');
  await page.waitForSelector('#orch-view .pause-card[data-kind="plan"][data-state="open"]', { timeout: 20000 });
  const start = posts(api, 'stream')[0];
  is([start?.workflow, start?.input?.template, start?.input?.attachments?.[0]?.name, /^data:image\/png;base64,/.test(start?.input?.attachments?.[0]?.data || '')],
    ['orchestrate', 'image-ocr-annotate', 'sign.png', true], 'orch: the task goes with its template and the picture as a data URL');
  const planText = await page.textContent('#orch-view .pause-card[data-state="open"] .ov-plan-read');
  ok(/Picture analyst/.test(planText) && /Picture annotator/.test(planText), `orch: the plan names its agents in words (${planText.replace(/\s+/g, ' ').slice(0, 160)})`);
  const body = await page.evaluate(() => document.querySelector('#orch-view').innerText);
  ok(!/vision-(analyzer|annotator)|image-ocr-annotate/.test(body), 'orch: no agent id or template id in the page');
  is(await page.$$eval('#orch-view .ov-col', (els) => els.map((e) => e.querySelectorAll('.ov-stage').length)), [1, 1], 'orch: the plan\'s two groups are two columns of one stage each');
  is((await stageStates(page)).map((x) => x[1]), ['waiting', 'waiting'], 'orch: every stage waits while the plan is asked about');
  ok(/box each word/.test(await page.getAttribute('#orch-view .pause-card[data-state="open"] > .field textarea', 'placeholder')), 'orch: the plan card\'s note suggests a note about the plan');
  await noNull(page, 'orch plan');
  await shot(page, 'orch-plan-1280-en');

  // Edit: the form, a step removed, the JSON behind a summary.
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="modify"]');
  const rows = await page.$$eval('#orch-view .pause-card[data-state="open"] .ov-step-edit', (els) => els.map((e) => e.dataset.stage));
  is(rows.length, 2, 'orch: the plan opens as a form, one row per step');
  ok(await page.$eval('#orch-view .pause-card[data-state="open"] .ov-step-edit select[data-field="agent"]', (e) => [...e.options].every((o) => !/-/.test(o.textContent)) && e.options.length === 11),
    'orch: a step\'s agent is picked by name from the registry\'s eleven that take steps');
  ok(await page.$eval('#orch-view .pause-card[data-state="open"] .ov-step-edit select[data-field="agent"]', (e) => ![...e.options].some((o) => o.value === 'planner')),
    'orch: the planner is not offered as a step\'s agent');
  await shot(page, 'orch-plan-edit-1280-en');
  await page.click(`#orch-view .pause-card[data-state="open"] .ov-remove[data-stage="${rows[1]}"]`);
  ok(/"executionOrder"/.test(await page.$eval('#orch-view .pause-card[data-state="open"] .ov-plan-json pre', (e) => e.textContent)), 'orch: the edited plan as JSON is behind a summary');
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="save"]');
  await page.waitForFunction(() => document.querySelector('#orch-view .stream-status')?.dataset.state === 'done', null, { timeout: 30000 });
  const mod = posts(api, 'confirm').pop();
  is([mod?.action, mod?.payload?.subtasks?.map((x) => x.id), mod?.payload?.executionOrder], ['modify', [rows[0]], [[rows[0]]]],
    'orch: the edit sends the remaining step and the order without the removed one');
  is(await page.$$eval('#orch-view .ov-col', (els) => els.length), 1, 'orch: the board shows the edited plan: one column');
  const [[, state]] = await stageStates(page);
  if (state === 'done') {
    const data = JSON.parse(await page.$eval('#orch-view .ov-stage .ov-data pre', (e) => e.textContent));
    ok((data.textRegions || []).some((r) => /HELLO/.test(r.text)), `orch offline: the picture's text is read (${JSON.stringify(data.textRegions?.map((r) => r.text))})`);
  } else {
    is(state, 'failed', 'orch offline: the stage ends (failed: no offline agent in this build)');
    ok(/\S/.test(await page.textContent('#orch-view .ov-outcome')) && await page.isVisible('#orch-view .ov-outcome'),
      `orch offline: the run's end is said (${(await page.textContent('#orch-view .ov-outcome')).trim()})`);
  }
  await noNull(page, 'orch edited');

  // A new task: reject its plan with a note, the planner plans again.
  await page.click('#orch-view .view-head button');
  await attachPicture(page, 'sign.png', pic);
  await page.selectOption('#orch-view .ov-template', 'image-ocr-annotate');
  await page.fill('#orch-view .ov-form textarea', 'Read the sign');
  await page.click('#orch-view .ov-form button[type="submit"]');
  await page.waitForSelector('#orch-view .pause-card[data-kind="plan"][data-state="open"]', { timeout: 20000 });
  // Reject with a note: the planner plans again, a new card asks.
  await page.fill('#orch-view .pause-card[data-state="open"] textarea', 'Box each word, not the whole line');
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="reject"]');
  await page.waitForFunction(() => document.querySelectorAll('#orch-view .pause-card[data-kind="plan"]').length === 2 &&
    document.querySelector('#orch-view .pause-card[data-kind="plan"]:last-child')?.dataset.state === 'open', null, { timeout: 20000 });
  const rej = posts(api, 'confirm').pop();
  is([rej?.action, rej?.payload?.feedback], ['reject', 'Box each word, not the whole line'], 'orch: reject sends the note as feedback');
  ok(/Box each word/.test(await page.textContent('#orch-view .pause-card[data-kind="plan"]:first-child .pause-feedback')), 'orch: the rejected plan keeps the note that was sent');

  await shot(page, 'orch-replanned-1280-en');
  await closeView(page, errors, 'orch plan');
}

// A plan edited into one the server refuses comes back with its reasons.
async function testOrchRefused(ctx, base) {
  const page = await ctx.newPage();
  const id = 'v1.CCCCCCCCCCCCCCCCCCCCCC.DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD';
  const plan = { subtasks: [{ id: 'a', description: 'Look', agent: 'vision-analyzer', inputs: [], priority: 1 },
    { id: 'b', description: 'Draw', agent: 'vision-annotator', inputs: ['a'], priority: 1 }], executionOrder: [['a', 'b']] };
  const reason = 'subtask b uses a, which does not run in an earlier group';
  const events = [
    { type: 'thread_start', threadId: id, workflow: 'orchestrate' },
    { type: 'plan_ready', analysis: 'Two steps', ...plan },
    { type: 'ask_user', question: 'The plan is ready: run it?', context: { kind: 'plan' }, interruptId: 'int-2-aa', options: [{ id: 'approve' }, { id: 'reject' }, { id: 'modify' }],
      editable: plan, errors: [{ code: 'input_not_earlier', subtask: 'b', message: reason }] },
    { type: 'workflow_paused', interruptId: 'int-2-aa' },
  ];
  const body = events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify({ timestamp: 1, ...e })}\n\n`).join('');
  await page.route(/\/api\/threads\/v1\.CCCC/, (route) => route.fulfill({ status: 200, contentType: 'application/json',
    body: JSON.stringify({ threadId: id, workflow: 'orchestrate', status: 'paused', state: { task: 'Look and draw' } }) }));
  await page.route(/\/api\/agent\/stream\?threadId=v1\.CCCC/, (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body }));
  await page.goto(`${base}#/orch/${id}`);
  await page.waitForSelector('#orch-view .pause-card[data-kind="plan"][data-state="open"] .pause-errors');
  is(await page.$$eval('#orch-view .pause-errors li', (els) => els.map((e) => e.textContent)), [reason], 'orch: a refused edit comes back with the server\'s reasons on the card');
  is(await page.$$eval('#orch-view .ov-col', (els) => els.map((e) => e.querySelectorAll('.ov-stage').length)), [2], 'orch: the plan as it stands, one group of two');
  is(await page.textContent('#orch-view .ov-request p'), 'Look and draw', 'orch: a thread opened from its link names its task from the thread\'s state');
  // An answer the server refuses: the card says why, and says it again in
  // the other language when the page's changes.
  await page.route(/\/api\/agent\/confirm/, (route) => route.fulfill({ status: 400, contentType: 'application/problem+json',
    body: JSON.stringify({ type: 'about:blank', title: 'Bad request', status: 400, code: 'bad_request', detail: 'the plan is stale' }) }));
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForFunction(() => document.querySelector('#orch-view .pause-card .pause-status')?.dataset.kind === 'error', null, { timeout: 10000 });
  const before = await page.textContent('#orch-view .pause-card .pause-status');
  await page.click('#lang');
  const after = await page.textContent('#orch-view .pause-card .pause-status');
  ok(before !== after && /[\u4e00-\u9fff]/.test(after) && !/[\u4e00-\u9fff]/.test(before) && /the plan is stale/.test(after),
    `a refused answer is said again in the new language (${before} → ${after})`);
  await page.click('#lang');
  await noNull(page, 'orch refused');
  await page.close();
}

// Code review and fix offline: source files attached, a group of two
// stages side by side, the files the agents wrote to read in the page.
async function testOrchCode(ctx, base) {
  const { page, errors } = await openView(ctx, base, 'orch', { width: 1280, height: 800 });
  await page.click('#orch-view .view-head button');
  const src = '#include <stdlib.h>\n#include <string.h>\n\nchar *copy(const char *s)\n{\n\tchar *p = malloc(strlen(s) + 1);\n\tstrcpy(p, s);\n\treturn p;\n}\n';
  await page.setInputFiles('#orch-view .ov-form .file-picker input[type="file"]', { name: 'copy.c', mimeType: 'text/x-c', buffer: Buffer.from(src) });
  await page.waitForSelector('#orch-view .ov-attach li[data-name="copy.c"] .ov-filechip');
  await page.click('#orch-view .empty .example >> nth=2');
  await page.waitForSelector('#orch-view .pause-card[data-kind="plan"][data-state="open"]', { timeout: 20000 });
  is(await page.$$eval('#orch-view .ov-col', (els) => els.map((e) => e.querySelectorAll('.ov-stage').length)), [1, 2, 1], 'orch code: review, then fix and tests side by side, then the summary');
  ok(/2 steps at the same time/.test(await page.textContent('#orch-view .ov-col[data-group="2"] .ov-col-head')), 'orch code: the parallel group says so');
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#orch-view .ov-outcome[data-kind]', { timeout: 60000 });
  const states = await stageStates(page);
  ok(states.every(([, st]) => ['done', 'failed', 'skipped'].includes(st)) && states.some(([, st]) => st === 'done'), `orch code: every stage ended (${states.map((x) => x.join(':')).join(' ')})`);
  const files = await page.$$eval('#orch-view .ov-files > li', (els) => els.map((e) => [e.dataset.path, !!e.querySelector('[data-act="view"]')]));
  ok(files.some(([p, v]) => p === 'copy.c' && v) && files.length > 1, `orch code: the attached source and what the agents wrote, each to view (${files.map((f) => f[0]).join(', ')})`);
  await page.click('#orch-view .ov-files li[data-path="copy.c"] [data-act="view"]');
  await page.waitForFunction(() => /strcpy\(p, s\)/.test(document.querySelector('#orch-view .ov-files li[data-path="copy.c"] .ov-file-view pre')?.textContent || ''));
  ok(true, 'orch code: a source file is read in the page as it was attached');
  await noNull(page, 'orch code');
  await shot(page, 'orch-code-1280-en');
  await closeView(page, errors, 'orch code');
}

// The whole run, approved: the columns change live, the annotated picture
// beside the original, the files; a reload brings it back. Offline (fake
// null) the agents are the server's own, OCR through Tesseract, and the
// screens are taken in both languages at both sizes; with a fake model
// answering the agents, its calls are counted and its boxes drawn.
async function testOrchRun(ctx, base, fake) {
  const name = fake ? 'orch model' : 'orch offline';
  const { page, errors, api } = await openView(ctx, base, 'orch', { width: 1280, height: 800 });
  await page.click('#orch-view .view-head button');
  const pic = await textPicture(page, 'HELLO 2026');
  if (fake) fake.ocr = { imageSize: pic.size, textRegions: [{ text: 'HELLO 2026', boundingBox: pic.box, confidence: 0.97 }] };
  await attachPicture(page, 'sign.png', pic);
  await page.selectOption('#orch-view .ov-template', 'image-ocr-annotate');
  await page.fill('#orch-view .ov-form textarea', 'Read the sign and box its text');
  await page.click('#orch-view .ov-form button[type="submit"]');
  await page.waitForSelector('#orch-view .pause-card[data-kind="plan"][data-state="open"]', { timeout: 20000 });
  await page.evaluate(() => {
    window.ovLog = [];
    new MutationObserver((ms) => {
      for (const m of ms) if (m.target.classList?.contains('ov-stage')) window.ovLog.push([m.target.dataset.stage, m.oldValue]);
    }).observe(document.querySelector('#orch-view .ov-board'), { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-state'] });
  });
  const before = fake ? fake.calls.length : 0;
  await page.click('#orch-view .pause-card[data-state="open"] [data-action="approve"]');
  await page.waitForSelector('#orch-view .ov-outcome[data-kind="ok"]', { timeout: 30000 });
  if (fake) {
    is(fake.calls.slice(before).filter((c) => c.startsWith('agent:')), ['agent:vision-analyzer', 'agent:vision-annotator', 'agent:vision-annotator'],
      `${name}: the analyser once, the annotator twice (its tool call, then its answer)`);
  }
  // Each change's new state: the next change's old one, else the state now.
  const seen = await page.evaluate(() => [window.ovLog, [...document.querySelectorAll('#orch-view .ov-stage')].map((e) => [e.dataset.stage, e.dataset.state])]);
  const now = Object.fromEntries(seen[1]);
  const log = seen[0].map(([id], i) => [id, seen[0].slice(i + 1).find((x) => x[0] === id)?.[1] ?? now[id]]).filter(([, st], i, all) => i === 0 || all[i - 1].join() !== [all[i][0], st].join());
  const at = (id, st) => log.findIndex(([s, x]) => s === id && x === st);
  ok(at('ocr', 'running') >= 0 && at('ocr', 'running') < at('ocr', 'done') && at('ocr', 'done') < at('annotate', 'running') && at('annotate', 'running') < at('annotate', 'done'),
    `${name}: the cards change live, group after group (${log.map((x) => x.join(':')).join(' ')})`);
  is(await stageStates(page), [['ocr', 'done'], ['annotate', 'done']], `${name}: both stages done`);
  const data = JSON.parse(await page.$eval('#orch-view .ov-stage[data-stage="ocr"] .ov-data pre', (e) => e.textContent));
  const line = (data.textRegions || []).find((r) => /HELLO/.test(r.text));
  const bb = line?.boundingBox;
  if (fake) is(bb, pic.box, `${name}: the analyser's structured data, pretty JSON behind a summary`);
  else {
    ok(bb && bb.x >= pic.box.x - 8 && bb.y >= pic.box.y - 8 && bb.x + bb.width <= pic.box.x + pic.box.width + 8 && bb.y + bb.height <= pic.box.y + pic.box.height + 8,
      `${name}: OCR reads the drawn text where it was drawn (${JSON.stringify(line)} in ${JSON.stringify(pic.box)})`);
  }
  ok(/\d+\.\d s/.test(await page.textContent('#orch-view .ov-stage[data-stage="annotate"] .ov-meta')) &&
    /Draw boxes on the picture/.test(await page.textContent('#orch-view .ov-stage[data-stage="annotate"] .ov-meta')),
  `${name}: a stage says how long it took and its tools in words (${(await page.textContent('#orch-view .ov-stage[data-stage="annotate"] .ov-meta')).trim()})`);

  // The annotated picture beside the original.
  await page.waitForFunction(() => [...document.querySelectorAll('#orch-view .ov-stage[data-stage="annotate"] .ov-pair img')].filter((i) => i.naturalWidth > 0).length === 2);
  const pair = await page.$$eval('#orch-view .ov-stage[data-stage="annotate"] .ov-pair .ov-fig', (els) => els.map((f) => {
    const r = f.getBoundingClientRect();
    return { cls: f.className, src: f.querySelector('img').src, left: Math.round(r.left), top: Math.round(r.top) };
  }));
  ok(pair.length === 2 && /ov-original/.test(pair[0].cls) && /ov-annotated/.test(pair[1].cls) && pair[0].top === pair[1].top && pair[0].left < pair[1].left,
    `${name}: the original and the annotated picture side by side`);
  const svg = await (await fetch(pair[1].src)).text();
  ok(/<svg/.test(svg) && svg.includes(line?.text || 'HELLO') && svg.includes(`x="${bb?.x}"`), `${name}: the annotated picture is the server's drawing of the box and its label`);
  const orig = await fetch(pair[0].src);
  is([orig.headers.get('content-type'), Buffer.from(await orig.arrayBuffer()).toString('base64')], ['image/png', pic.base64], `${name}: the original is the attached picture, from the workspace`);
  await page.click('#orch-view .ov-stage[data-stage="annotate"] .ov-annotated .ov-open');
  await page.waitForSelector('dialog.viewer[open] img');
  await page.click('dialog.viewer .viewer-close');

  // The files: attached and written, to view and download.
  const files = await page.$$eval('#orch-view .ov-files > li', (els) => els.map((e) => [e.dataset.path, [...e.querySelectorAll('[data-act]')].map((a) => a.dataset.act).join(',')]));
  is(files.filter(([p]) => p === 'sign.png' || p === 'annotated/sign.svg'), [['sign.png', 'open,download'], ['annotated/sign.svg', 'open,view,download']], `${name}: the workspace's files, each with what can be done (${files.map((f) => f[0]).join(', ')})`);
  await page.click('#orch-view .ov-files li[data-path="annotated/sign.svg"] [data-act="view"]');
  await page.waitForFunction(() => /<svg/.test(document.querySelector('#orch-view .ov-files li[data-path="annotated/sign.svg"] .ov-file-view pre')?.textContent || ''));
  ok(true, `${name}: a text file is shown in the page`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#orch-view .ov-files li[data-path="sign.png"] [data-act="download"]')]);
  is(fs.readFileSync(await dl.path()).toString('base64'), pic.base64, `${name}: a file downloads as it is (${dl.suggestedFilename()})`);
  await page.click('#orch-view .ov-files li[data-path="annotated/sign.svg"] [data-act="view"]');
  await noNull(page, name);
  await shot(page, `${fake ? 'orch-model' : 'orch-run'}-1280-en`);

  await page.click('#lang');
  const zhStates = await page.$$eval('#orch-view .ov-state', (els) => els.map((e) => e.textContent));
  const zhAgents = await page.$$eval('#orch-view .ov-stage .ov-agent', (els) => els.map((e) => e.textContent));
  is([zhStates, zhAgents], [['已完成', '已完成'], ['图片分析员', '图片标注员']], `${name}: states and agents in Chinese`);
  await shot(page, `${fake ? 'orch-model' : 'orch-run'}-1280-zh`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const cols = await page.$$eval('#orch-view .ov-col', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom), Math.round(r.right)]; }));
  ok(cols.length === 2 && cols[1][0] >= cols[0][1] && cols.every((c) => c[2] <= 390), `${name}: on a phone the groups are a list, one under the other (${JSON.stringify(cols)})`);
  is(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, `${name}: nothing wider than the phone`);
  await shot(page, `${fake ? 'orch-model' : 'orch-run'}-390-zh`);
  await page.click('#lang');
  await shot(page, `${fake ? 'orch-model' : 'orch-run'}-390-en`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A reload replays the run.
  await page.reload();
  await page.waitForSelector('#orch-view .ov-outcome[data-kind="ok"]', { timeout: 20000 });
  is(await stageStates(page), [['ocr', 'done'], ['annotate', 'done']], `${name}: a reload shows the finished run`);
  is(await page.$$eval('#orch-view .pause-card[data-kind="plan"]', (els) => els.map((e) => e.dataset.state)), ['answered'], `${name}: and the plan answered`);
  is(await page.$$eval('#orch-view .ov-stage[data-stage="annotate"] .ov-pair img', (els) => els.length), 2, `${name}: and the pictures side by side`);
  is(posts(api, 'confirm').map((c) => c.action), ['approve'], `${name}: one answer was sent`);
  await closeView(page, errors, name);
}

async function run(s) {
  await s.run('orch-plan', () => testOrchPlan(s.ctx, s.base));
  await s.run('orch-refused', () => testOrchRefused(s.ctx, s.base));
  await s.run('orch-run', () => testOrchRun(s.ctx, s.base, null));
  await s.run('orch-code', () => testOrchCode(s.ctx, s.base));
  if (s.wanted('orch-model')) {
    const slow = await s.slow();
    await s.run('orch-model', () => testOrchRun(s.ctx, slow.base, slow.fake));
  }
}

module.exports = { run };

if (require.main === module) require('./browserlib').runViews([__filename]);
