// End-to-end test of the explorer in headless Chromium (Debian's), driven by playwright-core.
// Usage: node tests/e2e/explorer.mjs LUMEN_BINARY TABLE SCREENSHOT_DIR
// Starts `lumen serve TABLE --port 0`, types a sentence, clicks a token and checks that the three views agree
// with `lumen onehot`, runs an analogy, draws the map (PCA, the toy map, UMAP with its honesty numbers), compares
// the table with a perturbed copy of its first rows in the Compare view (against `lumen compare --json`), uses the
// calculator, checks that the Drift view says how to start a server with a model; then starts
// `lumen serve --model` on the tiny GPT-2 fixture and checks the Drift view against `lumen drift --json`.
// Every view is also driven at 400 px (and checked at 360 px) as at 1280 px, and the test fails on what a user
// would see go wrong: a page wider than the screen, a console error or a 404 (the favicon), a status still saying
// "computing" once its request is over, an error banner with the old result still under it (or following the user
// to another view), a second start while one runs, a progress that runs backwards, overlapping map labels, a map
// that leaves its canvas's width unused, an empty canvas with no prompt, Compare offering the toy map as table B.
// Screenshots of each view at each width are kept in SCREENSHOT_DIR.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(path.resolve(process.env.LUMEN_SOURCE_DIR || '.', 'node_modules/playwright-core'));

const [lumen, table, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
let failures = 0;
function check(cond, what) {
  if (cond) { console.log('ok   ' + what); } else { console.log('FAIL ' + what); failures++; }
}

// A second table for the Compare view: the first 2000 rows of TABLE, each value moved by a fixed pseudo-random
// amount, so that the neighbourhoods change but not beyond recognition.
const scratch = mkdtempSync(path.join(os.tmpdir(), `lumen-e2e-${process.pid}-`));
const second = path.join(scratch, 'second.vec');
execFileSync(lumen, ['convert', table, second, '--limit', '2000']);
let state = 12345;
const noise = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
const lines = readFileSync(second, 'utf8').split('\n');
writeFileSync(second, lines.map((l, i) => (i === 0 || !l ? l : l.split(' ').map((x, j) =>
  (j === 0 ? x : String(Number(x) + 0.3 * noise()))).join(' '))).join('\n'));

// Starts `lumen serve ARGS --port 0 --json` and resolves with the process and its first JSON line.
function startServer(args) {
  const proc = spawn(lumen, ['serve', ...args, '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('lumen serve did not start in 60 s')), 60000);
    proc.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) { clearTimeout(timer); resolve(JSON.parse(buf.slice(0, nl))); }
    });
    proc.on('exit', (code) => reject(new Error('lumen serve exited with ' + code)));
  });
  return { proc, ready };
}
const started = startServer([table, second]);
const server = started.proc;
const url = (await started.ready).url;
let modelServer = null;

// Equal JSON, numbers within a relative 1e-9.
function same(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && typeof a === 'object') {
    return b && typeof b === 'object' && Object.keys(a).length === Object.keys(b).length &&
      Object.keys(a).every((k) => same(a[k], b[k]));
  }
  return a === b;
}

// Console errors, page errors and failed loads on PAGE go to ERRORS; CSP refusals to REFUSED. The API's refusals
// that a test provokes on purpose (409: no model, 413/422: a bad request) are the page's to show in its banner and
// are not errors; anything else that fails to load (a 404: the favicon) is.
function watch(pg, errors, refused) {
  pg.on('pageerror', (e) => errors.push('page error: ' + String(e)));
  pg.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    else if (m.type() === 'error' && !/status of (409|413|422)/.test(m.text())) errors.push('console: ' + m.text());
  });
  pg.on('response', (r) => { if (r.status() === 404 || r.status() >= 500) errors.push(`HTTP ${r.status()} for ${r.url()}`); });
}

// Waits until VIEW's request is over (its section's data-state is no longer "running"), then checks that its
// status no longer says "computing" and that the view is in the state expected.
async function settled(pg, view, expect = 'done', timeout = 120000) {
  await pg.waitForFunction((v) => {
    const st = document.querySelector('#view-' + v).dataset.state;
    return st && st !== 'running';
  }, view, { timeout });
  const got = await pg.evaluate((v) => {
    const sec = document.querySelector('#view-' + v);
    const status = sec.querySelector('.status');
    return { state: sec.dataset.state, status: status ? status.textContent : '' };
  }, view);
  check(got.state === expect, `${view}: the request ends in state '${expect}' (got '${got.state}')`);
  check(!/computing/.test(got.status), `${view}: the status does not stay "computing" once the request is over ('${got.status}')`);
  return got;
}

// After a failed request in VIEW: its own banner shows the message, and no old result is left under it (every
// .result of the view is hidden or empty, every canvas in it shows a prompt instead).
async function checkErrorClears(pg, view, what) {
  await settled(pg, view, 'error');
  const r = await pg.evaluate((v) => {
    const sec = document.querySelector('#view-' + v);
    const banner = sec.querySelector('.view-error');
    const left = [...sec.querySelectorAll('.result')].filter((el) => !el.hidden && el.offsetParent !== null)
      .filter((el) => el.innerText.trim() !== '' ||
        [...el.querySelectorAll('canvas')].some((c) => c.offsetParent !== null && !c.dataset.prompt));
    return { banner: !banner.hidden && banner.offsetParent !== null ? banner.textContent : '', left: left.map((el) => el.id || el.className) };
  }, view);
  check(r.banner.length > 0, `${view}: ${what} shows its error in the view's banner ('${r.banner.slice(0, 80)}')`);
  check(r.left.length === 0, `${view}: ${what} leaves no old result under the error` + (r.left.length ? ` (left: ${r.left.join(', ')})` : ''));
}

// No horizontal scrolling at the page's current width; every visible canvas drawn or showing a prompt.
async function checkLayout(pg, what) {
  const r = await pg.evaluate(() => {
    const doc = document.documentElement;
    const wide = [...document.querySelectorAll('body *')].filter((el) => el.offsetParent !== null &&
      el.getBoundingClientRect().right > doc.clientWidth + 1 && !el.closest('.wide, #drift-layers'));
    const blank = [...document.querySelectorAll('canvas')].filter((c) => c.offsetParent !== null && !c.dataset.prompt &&
      !c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((x) => x !== 0));
    return { scroll: doc.scrollWidth, width: doc.clientWidth, wide: wide.slice(0, 3).map((el) => el.tagName + '#' + el.id + '.' + el.className),
      blank: blank.map((c) => c.id || c.parentElement.className) };
  });
  check(r.scroll <= r.width, `${what}: no horizontal scrolling (page ${r.scroll} px in ${r.width} px)` +
    (r.wide.length ? ` (too wide: ${r.wide.join(', ')})` : ''));
  check(r.blank.length === 0, `${what}: every canvas shown is drawn or says what to do` + (r.blank.length ? ` (blank: ${r.blank.join(', ')})` : ''));
}

async function shot(pg, name) { await pg.screenshot({ path: path.join(shots, name + '.png'), fullPage: true }); }

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  // The server's Content-Security-Policy must not refuse anything the page itself does.
  const refused = [];
  watch(page, errors, refused);
  await page.goto(url);
  await page.waitForSelector('.tok');
  await settled(page, 'token');
  check(await page.locator('link[rel=icon]').count() === 1, 'the page names its icon (no favicon 404)');

  // Token -> one-hot -> row -> vector.
  check(await page.isVisible('#token-hint'), 'token: a hint says to click a token before one is clicked');
  await page.fill('#token-text', 'the king and the queen');
  await page.click('#token-form button');
  await page.waitForFunction(() => document.querySelectorAll('.tok').length === 5);
  await settled(page, 'token');
  const tok = page.locator('.tok', { hasText: 'queen' }).first();
  await tok.click();
  await page.waitForSelector('#token-detail:not([hidden])');
  await settled(page, 'token');
  const shown = await page.evaluate(() => ({
    index: Number(document.querySelector('#onehot').dataset.index),
    caption: document.querySelector('#onehot-caption').textContent,
    selectedRow: Number(document.querySelector('.row.selected').dataset.id),
    denseId: Number(document.querySelector('#dense').dataset.id),
  }));
  const ohAll = JSON.parse(execFileSync(lumen, ['onehot', table, 'queen', '--json']).toString());
  const oh = { ...ohAll.tokens[0], V: ohAll.V };
  check(shown.index === oh.id, `one-hot position ${shown.index} equals lumen onehot's id ${oh.id}`);
  check(shown.selectedRow === oh.id && shown.denseId === oh.id, 'the highlighted row of E and the dense vector are the same id');
  check(shown.caption.includes(String(oh.V)) && oh.onehot.length === oh.V && oh.onehot.one_at === oh.id, `one-hot length is V = ${oh.V}`);
  check(oh.equal === true, 'lumen onehot: one-hot × E equals the row');
  const vec = await page.evaluate(async (id) => (await (await fetch('/api/row', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) })).json()).vector, oh.id);
  const maxdiff = Math.max(...vec.map((v, i) => Math.abs(v - oh.row[i])));
  check(maxdiff < 1e-6, `the page's vector equals lumen onehot's row (max diff ${maxdiff})`);
  check(await page.isVisible('#view-token .legend') && !(await page.isVisible('#token-hint')), 'token: the colours have a legend; the hint goes once a token is shown');
  await checkLayout(page, 'token at 1280 px');
  await shot(page, 'token');

  // Arithmetic, with and without exclusion.
  await page.click('nav button[data-view=arithmetic]');
  await page.click('#ar-form button');
  await page.waitForSelector('#ar-top');
  await settled(page, 'arithmetic');
  const top = await page.textContent('#ar-top');
  check(top.length > 0 && !['king', 'man', 'woman'].includes(top), `analogy answer '${top}' is not an input`);
  await checkLayout(page, 'arithmetic at 1280 px');
  await shot(page, 'arithmetic');
  await page.fill('#ar-minus', 'mxnq');
  await page.click('#ar-form button');
  await checkErrorClears(page, 'arithmetic', 'an unknown word');
  await page.fill('#ar-minus', 'man');

  // Similarity: its button is not "Compare" (the tab beside it); a typo clears the old result.
  await page.click('nav button[data-view=similarity]');
  check(await page.textContent('#sim-form button') !== 'Compare', 'the Similarity button is not labelled "Compare"');
  await page.click('#sim-form button');
  await page.waitForSelector('#sim-cos');
  await settled(page, 'similarity');
  const cos = Number(await page.textContent('#sim-cos'));
  check(cos >= -1 && cos <= 1, `cosine ${cos} in [-1, 1]`);
  await checkLayout(page, 'similarity at 1280 px');
  await shot(page, 'similarity');
  await page.fill('#sim-b', 'dgoq');
  await page.click('#sim-form button');
  await checkErrorClears(page, 'similarity', 'a typo');
  await shot(page, 'similarity-error');
  // The banner belongs to its view: another tab shows none.
  await page.click('nav button[data-view=calculator]');
  check(await page.locator('.view-error:visible, #error:visible').count() === 0, 'the similarity error does not follow to the Calculator');
  await page.click('nav button[data-view=similarity]');
  await page.fill('#sim-b', 'dog');
  await page.click('#sim-form button');
  await settled(page, 'similarity');
  check(await page.isHidden('#view-similarity .view-error'), 'similarity: the error banner goes with the next good answer');

  // Map: an empty canvas says what to do; the table's PCA; labels that never overlap; the canvas's width used.
  await page.click('nav button[data-view=map]');
  check(/Draw/.test(await page.getAttribute('#map', 'data-prompt') || ''), 'map: the empty canvas says to press Draw');
  await checkLayout(page, 'empty map at 1280 px');
  await page.fill('#map-top', '300');
  await page.click('#map-form button:not([type])');
  await settled(page, 'map', 'done', 60000);
  check(/300 points/.test(await page.textContent('#map-status')), 'map drew 300 points');
  async function mapGeometry(pg) {
    return pg.evaluate(() => {
      const c = document.querySelector('#map');
      const xs = mapPoints.map((p) => toScreen(p)[0]), ys = mapPoints.map((p) => toScreen(p)[1]);
      const boxes = mapLabelBoxes;
      let overlapping = 0;
      for (let i = 0; i < boxes.length; i++) for (let j = 0; j < i; j++) if (overlaps(boxes[i], boxes[j])) overlapping++;
      return { width: c.width, shown: c.getBoundingClientRect().width, parent: c.parentElement.clientWidth,
        spanX: (Math.max(...xs) - Math.min(...xs)) / c.width, spanY: (Math.max(...ys) - Math.min(...ys)) / c.height,
        labels: boxes.length, overlapping, outside: boxes.filter((b) => b.x < 0 || b.x + b.w > c.width).length };
    });
  }
  let g = await mapGeometry(page);
  check(g.labels >= 8 && g.overlapping === 0 && g.outside === 0, `map: ${g.labels} labels, none overlapping another or the edge`);
  check(Math.abs(g.width - g.parent) <= 2 && Math.abs(g.shown - g.width) <= 4, `map: the canvas is drawn at the width it is shown (${g.width} px in ${g.parent} px)`);
  check(g.spanX > 0.85 || g.spanY > 0.85, `map: the points use the canvas (${(100 * g.spanX).toFixed(0)}% of its width, ${(100 * g.spanY).toFixed(0)}% of its height)`);
  check(g.width >= 800, `map: the canvas takes the page's width at 1280 px (${g.width} px)`);
  check(await page.isVisible('#map-legend'), 'map: a legend says what a dot and a label are');
  const caption = await page.$$eval('#map-caption div', (ds) => ds.map((d) => d.textContent));
  const numbers = await page.textContent('#map-honesty');
  check(caption.length >= 1 && caption.every((l) => /[.!?]$/.test(l)) && !caption.some((l) => /-NN kept/.test(l) && /-NN kept/.test(numbers)),
    `map: the caption is separate sentences, not repeating the numbers under it (${caption.join(' | ').slice(0, 120)})`);
  await checkLayout(page, 'PCA map at 1280 px');
  await shot(page, 'map');
  // Click a point: its neighbours; a new drawing clears them.
  const pt = await page.evaluate(() => { const [x, y] = toScreen(mapPoints[0]); const r = document.querySelector('#map').getBoundingClientRect();
    return { x: r.left + x * r.width / document.querySelector('#map').width, y: r.top + y * r.height / document.querySelector('#map').height }; });
  await page.mouse.click(pt.x, pt.y);
  await page.waitForSelector('#map-neighbours table');
  await settled(page, 'map');
  await page.click('#map-toy');
  await page.waitForFunction(() => /points/.test(document.querySelector('#map-status').textContent) &&
    document.querySelector('#map-table').value === 'toy', null, { timeout: 60000 });
  await settled(page, 'map');
  check((await page.textContent('#map-neighbours')).trim() === '', 'map: the neighbours panel goes with a new drawing (the toy map)');
  await shot(page, 'toy-map');
  // t-SNE with three seeds, slow enough to watch: Draw off and the old map dimmed while it runs, a second click
  // starts nothing, and the progress (seed k of 3, then the percent) never runs backwards.
  await page.selectOption('#map-table', 'main');
  await page.selectOption('#map-method', 'tsne');
  await page.selectOption('#map-seeds', '3');
  await page.fill('#map-top', '1500');
  await page.evaluate(() => {
    window.statusLog = [];
    new MutationObserver(() => window.statusLog.push(document.querySelector('#map-status').textContent))
      .observe(document.querySelector('#map-status'), { childList: true, characterData: true, subtree: true });
  });
  const jobStarts = [];
  const countStarts = (req) => { if (req.url().endsWith('/api/projection')) jobStarts.push(req.url()); };
  page.on('request', countStarts);
  await page.click('#map-form button:not([type])');
  await page.waitForFunction(() => document.querySelector('#view-map').dataset.state === 'running');
  check(await page.isDisabled('#map-form button:not([type])') && await page.isDisabled('#map-toy'),
    'map: Draw and Toy map are off while the map is computed');
  // The dimming fades in (a 0.2 s transition): wait for it rather than read the first frame's opacity of 1.
  const dimmed = await page.waitForFunction(() => document.querySelector('#view-map').classList.contains('busy') &&
    Number(getComputedStyle(document.querySelector('#map-box')).opacity) < 1, null, { timeout: 3000 })
    .then(() => true, () => false);
  check(dimmed, 'map: the old result is dimmed while it runs');
  await page.click('#map-form button:not([type])', { force: true }).catch(() => {});
  await shot(page, 'map-running');
  await settled(page, 'map', 'done', 240000);
  page.off('request', countStarts);
  check(jobStarts.length === 1, `map: one job started for one Draw (${jobStarts.length})`);
  const log = await page.evaluate(() => window.statusLog);
  const steps = log.map((t) => /seed (\d) of 3, (\d+)%/.exec(t)).filter(Boolean).map((m) => [Number(m[1]), Number(m[2])]);
  const backwards = steps.filter((s, i) => i > 0 && (s[0] < steps[i - 1][0] || s[1] < steps[i - 1][1]));
  check(steps.length >= 2 && backwards.length === 0,
    `map: progress says seed k of 3 and never runs backwards (${steps.map((s) => s.join(':')).slice(0, 12).join(' ')})`);
  const honesty = await page.textContent('#map-numbers');
  check(/t-SNE of 1500 points/.test(await page.textContent('#map-caption')), 'the caption says t-SNE of 1500 points');
  check(/NN kept/.test(honesty) && /maps agree/.test(honesty), `t-SNE's honesty numbers are shown (${honesty.replace(/\s+/g, ' ').slice(0, 160)})`);
  check(!/--seeds/.test(await page.textContent('#map-caption')), 'map: the caption does not send the user to a command-line flag');
  g = await mapGeometry(page);
  check(g.overlapping === 0 && (g.spanX > 0.85 || g.spanY > 0.85), `t-SNE map: labels apart, the canvas used (${(100 * g.spanX).toFixed(0)}% × ${(100 * g.spanY).toFixed(0)}%)`);
  await shot(page, 'tsne-map');
  // A map that cannot be drawn: the error clears the old map.
  await page.$eval('#map-form', (f) => { f.noValidate = true; });
  await page.fill('#map-top', '1');
  await page.click('#map-form button:not([type])');
  await checkErrorClears(page, 'map', 'a one-point map');
  await page.fill('#map-top', '1000');

  // Compare: the table against its perturbed copy; the page's numbers are lumen compare's. The toy map is no B.
  await page.click('nav button[data-view=compare]');
  check(await page.inputValue('#cmp-b') === 'table2', 'Compare offers the second table as B');
  check(await page.locator('#cmp-b option[value=toy]').count() === 0, 'Compare does not offer the toy map as a table');
  await page.fill('#cmp-top', '2000');
  await page.click('#cmp-form button');
  await page.waitForSelector('#cmp-moved', { timeout: 120000 });
  await settled(page, 'compare');
  const cli = JSON.parse(execFileSync(lumen, ['compare', table, second, '--top', '2000', '--json']).toString());
  const pageOverlap = Number(await page.textContent('#cmp-overlap'));
  const pageCka = Number(await page.textContent('#cmp-cka'));
  check(Math.abs(pageOverlap - cli.overlap.mean) < 1e-4 && cli.overlap.mean < 1,
    `the page's overlap@10 ${pageOverlap} equals lumen compare's ${cli.overlap.mean}`);
  check(Math.abs(pageCka - cli.cka) < 1e-4, `the page's CKA ${pageCka} equals lumen compare's ${cli.cka}`);
  const movedRows = await page.locator('#cmp-moved tr').count();
  const firstMoved = await page.textContent('#cmp-moved tr:nth-child(2) td:first-child');
  check(movedRows === 16 && firstMoved === cli.moved[0].word,
    `the most moved word '${firstMoved}' is lumen compare's '${cli.moved[0].word}', 15 listed with neighbours`);
  await checkLayout(page, 'compare at 1280 px');
  await shot(page, 'compare');
  await page.$eval('#cmp-form', (f) => { f.noValidate = true; });
  await page.fill('#cmp-k', '1000');
  await page.click('#cmp-form button');
  await checkErrorClears(page, 'compare', 'a k over its bound');
  await page.fill('#cmp-k', '10');

  // Calculator: an empty chart says what to do; the GPT-2 preset's exact total; memory in GiB; its defaults shown.
  await page.click('nav button[data-view=calculator]');
  check(/preset/.test(await page.getAttribute('#calc-chart', 'data-prompt') || ''), 'calculator: the empty chart says to pick a preset');
  await page.selectOption('#calc-preset', 'gpt2');
  await page.waitForSelector('#calc-total');
  await settled(page, 'calculator');
  const total = (await page.textContent('#calc-total')).replace(/[^0-9]/g, '');
  check(total === '124439808', `GPT-2 small total ${total} = 124,439,808`);
  await page.selectOption('#calc-preset', 'llama-3-8b');
  await page.waitForFunction(() => /GiB/.test(document.querySelector('#calc-memory').textContent));
  await settled(page, 'calculator');
  const memory = await page.textContent('#calc-memory');
  check(/GiB/.test(memory) && !/\d{4,}\.\d MiB/.test(memory), `calculator: large sizes in GiB (${memory.replace(/\s+/g, ' ').slice(0, 80)})`);
  check(/context 8,192/.test(await page.textContent('#calc-shape')), 'calculator: the defaults it counts (context, FFN) are shown');
  await checkLayout(page, 'calculator at 1280 px');
  await shot(page, 'calculator');
  await page.fill('#calc-d', '0');
  await page.click('#calc-form button');
  await checkErrorClears(page, 'calculator', 'd = 0');
  await page.selectOption('#calc-preset', 'gpt2');
  await settled(page, 'calculator');

  // Drift on a server with no model: the view says how to start one, and its Run button is off.
  await page.click('nav button[data-view=drift]');
  await page.waitForSelector('#drift-nomodel:not([hidden])');
  check(/lumen serve --model DIR/.test(await page.textContent('#drift-nomodel')) && await page.isDisabled('#drift-form button'),
    'the Drift view without a model says: start with lumen serve --model DIR');
  await shot(page, 'drift-no-model');

  // Every view at 400 px (a phone), and 360 px: nothing wider than the screen, the words beside the row ids, the
  // map's labels drawn at the size they are shown.
  await page.setViewportSize({ width: 400, height: 800 });
  await page.click('nav button[data-view=token]');
  await page.locator('.tok', { hasText: 'king' }).first().click();
  await settled(page, 'token');
  const labels = await page.$$eval('.row .label', (ls) => ls.map((l) => l.getBoundingClientRect().width));
  check(labels.length > 0 && labels.every((w) => w >= 40), `token at 400 px: the words beside the row ids are shown (${labels[0]} px)`);
  const navRows = await page.$$eval('nav button', (bs) => new Set(bs.map((b) => Math.round(b.getBoundingClientRect().top))).size);
  check(navRows >= 2, `the tab bar wraps at 400 px (${navRows} rows)`);
  await checkLayout(page, 'token at 400 px');
  await shot(page, 'token-400');
  for (const [v, act] of [['similarity', '#sim-form button'], ['arithmetic', '#ar-form button'], ['map', '#map-toy'],
    ['compare', '#cmp-form button'], ['calculator', '#calc-form button'], ['drift', null]]) {
    await page.click(`nav button[data-view=${v}]`);
    if (act) { await page.click(act); await settled(page, v); }
    if (v === 'map') {
      g = await mapGeometry(page);
      check(Math.abs(g.shown - g.width) <= 4 && g.width <= 400 && g.overlapping === 0,
        `map at 400 px: drawn at the width shown (${g.width} px), labels apart`);
      await page.fill('#map-top', '300');
      await page.selectOption('#map-method', 'pca');
      await page.selectOption('#map-table', 'main');
      await page.click('#map-form button:not([type])');
      await settled(page, 'map');
      g = await mapGeometry(page);
      check(g.overlapping === 0 && g.labels >= 4, `PCA map at 400 px: ${g.labels} labels, none overlapping`);
    }
    await checkLayout(page, `${v} at 400 px`);
    await shot(page, `${v}-400`);
  }
  await page.setViewportSize({ width: 360, height: 740 });
  for (const v of ['token', 'similarity', 'arithmetic', 'map', 'compare', 'calculator', 'drift']) {
    await page.click(`nav button[data-view=${v}]`);
    await page.waitForTimeout(150);  // the map redraws at the new width
    await checkLayout(page, `${v} at 360 px`);
  }
  await shot(page, 'map-360');

  // Drift on `lumen serve --model` with the tiny GPT-2 fixture: E is the table, and the view's numbers are
  // lumen drift's.
  const fixture = path.resolve(process.env.LUMEN_SOURCE_DIR || '.', 'tests/data/model/gpt2');
  const m = startServer(['--model', fixture]);
  modelServer = m.proc;
  const modelInfo = await m.ready;
  check(modelInfo.model === fixture && modelInfo.V === 300, `serve --model serves the model and its E (V ${modelInfo.V})`);
  const page2 = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
  watch(page2, errors, refused);
  await page2.goto(modelInfo.url + '#drift');
  await page2.waitForFunction(() => /gpt2: 2 layers/.test(document.querySelector('#drift-model').textContent));
  check(await page2.isVisible('#drift-prompt'), 'drift: before a run, the view says to press Run');
  await page2.click('#drift-form button');
  await page2.waitForSelector('#drift-layers tr[data-layer]', { timeout: 60000 });
  await settled(page2, 'drift');
  const contexts = ['the river bank was muddy', 'the bank approved the loan'];
  const cliDrift = JSON.parse(execFileSync(lumen, ['drift', fixture, '--token', 'bank', ...contexts, '--json']).toString());
  const pageCos = await page2.$$eval('#drift-layers td.cos', (tds) => tds.map((td) => Number(td.textContent)));
  check(pageCos.length === cliDrift.layers.length &&
    pageCos.every((c, i) => Math.abs(c - cliDrift.layers[i].cosine) < 1e-4),
  `the page's cosines by layer ${pageCos.join(', ')} are lumen drift's`);
  const points = await page2.locator('#drift-pca-svg circle.drift-point').count();
  check(points === 2 * cliDrift.layers.length, `the PCA picture has both paths, ${points} points numbered by layer`);
  check(await page2.locator('#drift-cosine-svg text.y-title').count() === 1, 'drift: the cosine chart has a y-axis title');
  check(await page2.locator('#drift-pca-svg text.legend-text').count() === 2, 'drift: the PCA picture says which colour is which context');
  // Each layer's cosine beside its baseline: a dashed second line, and the baseline and adjusted columns as lumen's.
  check(await page2.locator('#drift-cosine-svg #drift-baseline-line').count() === 1, 'drift: the baseline is drawn as a second line');
  check(await page2.locator('#drift-cosine-svg text.legend-text').count() === 2, 'drift: the cosine chart says which line is which');
  const pageBase = await page2.$$eval('#drift-layers td.base', (tds) => tds.map((td) => Number(td.textContent.split(' ')[0])));
  const pageAdj = await page2.$$eval('#drift-layers td.adj', (tds) => tds.map((td) => Number(td.textContent)));
  check(pageBase.length === cliDrift.layers.length &&
    pageBase.every((b, i) => Math.abs(b - cliDrift.layers[i].baseline.mean_cosine) < 1e-3) &&
    pageAdj.every((a, i) => Math.abs(a - cliDrift.layers[i].adjusted) < 1e-4),
  `the page's baselines ${pageBase.join(', ')} and adjusted cosines are lumen drift's`);
  const firstLens = await page2.textContent('#drift-layers tr[data-layer="2"] td:nth-child(6)');
  const lensToken = cliDrift.layers[2].contexts[0].lens[0].token.replace(/\\x([0-9a-f]{2})/gi, (_, h) => h.toUpperCase());
  check(firstLens.startsWith(lensToken), `the last layer's logit lens starts with lumen drift's '${lensToken}'`);
  const lensCells = await page2.$$eval('#drift-layers td', (tds) => tds.map((td) => td.textContent).join(' '));
  check(!/\\x[0-9a-f]{2}/i.test(lensCells), 'drift: tokens read as labels, never as raw "\\x.." bytes');
  // Parity: /api/drift's answer (the job the page started) equals lumen drift --json, number for number.
  const apiDrift = await page2.evaluate(async (ctx) => {
    const res = await fetch('/api/drift', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'bank', contexts: ctx, k: 5 }) });
    return res.json();
  }, contexts);
  check(apiDrift.done === true && same(apiDrift.result, cliDrift), '/api/drift answers exactly what lumen drift --json prints');
  await checkLayout(page2, 'drift at 1280 px');
  await shot(page2, 'drift');
  check(!(await page2.isVisible('#error')), 'no error box on the Drift view');
  // A token that is in neither context: the old result goes, the status does not stay "computing", and the
  // banner does not follow to the Calculator.
  await page2.fill('#drift-token', 'zebra');
  await page2.click('#drift-form button');
  await checkErrorClears(page2, 'drift', 'a token in neither context');
  await shot(page2, 'drift-error');
  await page2.click('nav button[data-view=calculator]');
  check(await page2.locator('.view-error:visible, #error:visible').count() === 0, 'the drift error does not follow to the Calculator');
  // The GPT's own table: the default words are found in their "␣word" form.
  await page2.click('nav button[data-view=similarity]');
  await page2.fill('#sim-a', 'river');
  await page2.fill('#sim-b', 'bank');
  await page2.click('#sim-form button');
  await settled(page2, 'similarity');
  check(await page2.locator('#sim-cos').count() === 1 && /neighbours of bank/.test(await page2.textContent('#sim-result')),
    'a GPT table: "river" and "bank" are found (as "␣river" and "␣bank")');
  // With one table served, Compare asks for a second rather than comparing with the toy map.
  await page2.click('nav button[data-view=compare]');
  check(await page2.isVisible('#cmp-one') && await page2.isDisabled('#cmp-form button'),
    'Compare on a one-table server asks for a second table (or --heads)');
  await page2.setViewportSize({ width: 400, height: 900 });
  await page2.click('nav button[data-view=drift]');
  await page2.fill('#drift-token', 'bank');
  await page2.click('#drift-form button');
  await settled(page2, 'drift');
  await checkLayout(page2, 'drift at 400 px');
  await shot(page2, 'drift-400');

  check(errors.length === 0, 'no console errors, page errors or 404s' + (errors.length ? ': ' + errors.join('; ') : ''));
  check(refused.length === 0, 'the Content-Security-Policy refuses nothing the page does' +
    (refused.length ? ': ' + refused.join('; ') : ''));
  check(!(await page.isVisible('#error')), 'no error box shown');
} catch (e) {
  console.log('FAIL ' + e.message);
  failures++;
} finally {
  await browser.close();
  server.kill('SIGINT');
  if (modelServer) modelServer.kill('SIGINT');
  rmSync(scratch, { recursive: true, force: true });
}
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
