// End-to-end test of the explorer in headless Chromium (Debian's), driven by playwright-core.
// Usage: node tests/e2e/explorer.mjs LUMEN_BINARY TABLE SCREENSHOT_DIR
// Starts `lumen serve TABLE --port 0`, types a sentence, clicks a token and checks that the three views agree
// with `lumen onehot`, runs an analogy, draws the map (PCA, the toy map, UMAP with its honesty numbers), compares
// the table with a perturbed copy of its first rows in the Compare view (against `lumen compare --json`), uses the
// calculator, checks that the Drift view says how to start a server with a model; then starts
// `lumen serve --model` on the tiny GPT-2 fixture and checks the Drift view against `lumen drift --json`.
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

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The server's Content-Security-Policy must not refuse anything the page itself does.
  const refused = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) refused.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector('.tok');

  // Token -> one-hot -> row -> vector.
  await page.fill('#token-text', 'the king and the queen');
  await page.click('#token-form button');
  await page.waitForFunction(() => document.querySelectorAll('.tok').length === 5);
  const tok = page.locator('.tok', { hasText: 'queen' }).first();
  await tok.click();
  await page.waitForSelector('#token-detail:not([hidden])');
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
  await page.screenshot({ path: path.join(shots, 'token.png'), fullPage: true });

  // Arithmetic, with and without exclusion.
  await page.click('nav button[data-view=arithmetic]');
  await page.click('#ar-form button');
  await page.waitForSelector('#ar-top');
  const top = await page.textContent('#ar-top');
  check(top.length > 0 && !['king', 'man', 'woman'].includes(top), `analogy answer '${top}' is not an input`);
  await page.screenshot({ path: path.join(shots, 'arithmetic.png'), fullPage: true });

  // Similarity.
  await page.click('nav button[data-view=similarity]');
  await page.click('#sim-form button');
  await page.waitForSelector('#sim-cos');
  const cos = Number(await page.textContent('#sim-cos'));
  check(cos >= -1 && cos <= 1, `cosine ${cos} in [-1, 1]`);

  // Map: the table's PCA, then the toy map.
  await page.click('nav button[data-view=map]');
  await page.fill('#map-top', '300');
  await page.click('#map-form button[type=submit], #map-form button:not([type])');
  await page.waitForFunction(() => /points/.test(document.querySelector('#map-status').textContent), null, { timeout: 60000 });
  check(/300 points/.test(await page.textContent('#map-status')), 'map drew 300 points');
  await page.screenshot({ path: path.join(shots, 'map.png'), fullPage: true });
  await page.click('#map-toy');
  await page.waitForFunction(() => /points/.test(document.querySelector('#map-status').textContent) &&
    document.querySelector('#map-table').value === 'toy', null, { timeout: 60000 });
  await page.screenshot({ path: path.join(shots, 'toy-map.png'), fullPage: true });
  // UMAP of the table with two seeds: the map, and its honesty numbers (neighbours kept, agreement across seeds).
  await page.selectOption('#map-table', 'main');
  await page.selectOption('#map-method', 'umap');
  await page.selectOption('#map-seeds', '3');
  await page.fill('#map-top', '400');
  await page.click('#map-form button:not([type])');
  await page.waitForFunction(() => /400 points/.test(document.querySelector('#map-status').textContent) &&
    document.querySelector('#map-numbers'), null, { timeout: 120000 });
  const honesty = await page.textContent('#map-numbers');
  check(/UMAP of 400 points/.test(await page.textContent('#map-caption')), 'the caption says UMAP of 400 points');
  check(/NN kept/.test(honesty) && /maps agree/.test(honesty) && /15 neighbours/.test(honesty),
    `UMAP's honesty numbers are shown (${honesty.replace(/\s+/g, ' ').slice(0, 160)})`);
  await page.screenshot({ path: path.join(shots, 'umap-map.png'), fullPage: true });

  // Compare: the table against its perturbed copy; the page's numbers are lumen compare's.
  await page.click('nav button[data-view=compare]');
  check(await page.inputValue('#cmp-b') === 'table2', 'Compare offers the second table as B');
  await page.fill('#cmp-top', '2000');
  await page.click('#cmp-form button');
  await page.waitForSelector('#cmp-moved', { timeout: 120000 });
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
  await page.screenshot({ path: path.join(shots, 'compare.png'), fullPage: true });

  // Calculator with the GPT-2 preset: the exact total.
  await page.click('nav button[data-view=calculator]');
  await page.selectOption('#calc-preset', 'gpt2');
  await page.waitForSelector('#calc-total');
  const total = (await page.textContent('#calc-total')).replace(/[^0-9]/g, '');
  check(total === '124439808', `GPT-2 small total ${total} = 124,439,808`);
  await page.screenshot({ path: path.join(shots, 'calculator.png'), fullPage: true });

  // Drift on a server with no model: the view says how to start one, and its Run button is off.
  await page.click('nav button[data-view=drift]');
  await page.waitForSelector('#drift-nomodel:not([hidden])');
  check(/lumen serve --model DIR/.test(await page.textContent('#drift-nomodel')) && await page.isDisabled('#drift-form button'),
    'the Drift view without a model says: start with lumen serve --model DIR');
  await page.screenshot({ path: path.join(shots, 'drift-no-model.png'), fullPage: true });

  // Drift on `lumen serve --model` with the tiny GPT-2 fixture: E is the table, and the view's numbers are
  // lumen drift's.
  const fixture = path.resolve(process.env.LUMEN_SOURCE_DIR || '.', 'tests/data/model/gpt2');
  const m = startServer(['--model', fixture]);
  modelServer = m.proc;
  const modelInfo = await m.ready;
  check(modelInfo.model === fixture && modelInfo.V === 300, `serve --model serves the model and its E (V ${modelInfo.V})`);
  const page2 = await browser.newPage({ viewport: { width: 1100, height: 1200 } });
  page2.on('pageerror', (e) => errors.push(String(e)));
  page2.on('console', (msg) => { if (/Content Security Policy/i.test(msg.text())) refused.push(msg.text()); });
  await page2.goto(modelInfo.url + '#drift');
  await page2.waitForFunction(() => /gpt2: 2 layers/.test(document.querySelector('#drift-model').textContent));
  await page2.click('#drift-form button');
  await page2.waitForSelector('#drift-layers tr[data-layer]', { timeout: 60000 });
  const contexts = ['the river bank was muddy', 'the bank approved the loan'];
  const cliDrift = JSON.parse(execFileSync(lumen, ['drift', fixture, '--token', 'bank', ...contexts, '--json']).toString());
  const pageCos = await page2.$$eval('#drift-layers td.cos', (tds) => tds.map((td) => Number(td.textContent)));
  check(pageCos.length === cliDrift.layers.length &&
    pageCos.every((c, i) => Math.abs(c - cliDrift.layers[i].cosine) < 1e-4),
  `the page's cosines by layer ${pageCos.join(', ')} are lumen drift's`);
  const points = await page2.locator('#drift-pca-svg circle.drift-point').count();
  check(points === 2 * cliDrift.layers.length, `the PCA picture has both paths, ${points} points numbered by layer`);
  const firstLens = await page2.textContent('#drift-layers tr[data-layer="2"] td:nth-child(4)');
  check(firstLens.startsWith(cliDrift.layers[2].contexts[0].lens[0].token),
    `the last layer's logit lens starts with lumen drift's '${cliDrift.layers[2].contexts[0].lens[0].token}'`);
  // Parity: /api/drift's answer (the job the page started) equals lumen drift --json, number for number.
  const apiDrift = await page2.evaluate(async (ctx) => {
    const res = await fetch('/api/drift', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'bank', contexts: ctx, k: 5 }) });
    return res.json();
  }, contexts);
  check(apiDrift.done === true && same(apiDrift.result, cliDrift), '/api/drift answers exactly what lumen drift --json prints');
  await page2.screenshot({ path: path.join(shots, 'drift.png'), fullPage: true });
  check(!(await page2.isVisible('#error')), 'no error box on the Drift view');

  check(errors.length === 0, 'no JavaScript errors on the page' + (errors.length ? ': ' + errors.join('; ') : ''));
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
