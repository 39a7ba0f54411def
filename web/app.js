// lumen explorer: plain modern JavaScript over the JSON API (/api/*). No build step.
'use strict';

const $ = (sel) => document.querySelector(sel);
const fmt = (x, n = 4) => (typeof x === 'number' ? x.toFixed(n) : String(x));
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// How a row reads: its display label ("␣cat"), a lone byte of a multi-byte character (the label's "\x8d") as a
// byte chip rather than a backslash sequence.
function tokenHtml(row) {
  const text = String(row.display ?? row.token ?? row.text ?? '');
  return esc(text).replace(/\\x([0-9a-fA-F]{2})/g, (_, h) =>
    `<span class="byte" title="byte 0x${h.toUpperCase()}: part of a character that takes several bytes">${h.toUpperCase()}</span>`);
}
const tokenText = (row) => String(row.display ?? row.token ?? row.text ?? '');

async function api(route, params = {}) {
  const res = await fetch('/api/' + route, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(params),
  });
  const body = await res.json().catch(() => ({ error: 'HTTP ' + res.status }));
  if (!res.ok) throw new Error(body.error || 'HTTP ' + res.status);
  return body;
}

// The page's own banner, for what belongs to no view (the server's description at start-up).
function showError(e) {
  const box = $('#error');
  if (!e) { box.hidden = true; return; }
  box.textContent = e.message || String(e);
  box.hidden = false;
}

// ---- one request state per view ----
// Each view runs one request at a time and is always in one state, its section's data-state: idle; running (its
// controls disabled, its old result dimmed, its status "computing…"); done; or error (its old result cleared, the
// message in the view's own banner, which leaves with the view). `clears[view]` empties what the view shows.
const clears = {};
function setState(view, state, err) {
  const sec = $('#view-' + view);
  sec.dataset.state = state;
  sec.classList.toggle('busy', state === 'running');
  for (const el of sec.querySelectorAll('form button, form input, form select')) {
    if (state === 'running') {
      if (!el.disabled) { el.disabled = true; el.dataset.busy = '1'; }
    } else if (el.dataset.busy) { el.disabled = false; delete el.dataset.busy; }
  }
  const banner = sec.querySelector('.view-error');
  banner.hidden = state !== 'error';
  banner.textContent = state === 'error' ? (err && err.message) || String(err) : '';
  const status = sec.querySelector('.status');
  if (status) {
    if (state === 'running') { status.dataset.before = status.textContent; status.textContent = 'computing…'; }
    else if (state === 'error') status.textContent = 'failed';
    else if (/^computing/.test(status.textContent)) status.textContent = status.dataset.before || '';
  }
}
async function request(view, fn) {
  if ($('#view-' + view).dataset.state === 'running') return;  // its controls are off; a second start is ignored
  setState(view, 'running');
  try {
    await fn();
    setState(view, 'done');
  } catch (e) {
    if (clears[view]) clears[view]();
    setState(view, 'error', e);
  }
}

// A background job (projection, comparison, drift): start it, show its progress in the view's status, return its
// result. The server's progress only grows; with several seeds it is seed k of n, then the percent.
async function runJob(view, route, params, seeds = 1) {
  const status = $('#view-' + view + ' .status');
  let r = await api(route, params);
  while (!r.done) {
    const p = Math.min(1, Math.max(0, r.progress || 0));
    const seed = seeds > 1 ? `seed ${Math.min(seeds, 1 + Math.floor(p * seeds))} of ${seeds}, ` : '';
    status.textContent = `computing… ${seed}${Math.round(100 * p)}%`;
    await new Promise((res) => setTimeout(res, 300));
    r = await api('job', { id: r.job });
  }
  return r.result;
}

// Diverging colour for a value in [-m, m]: negative red, zero white, positive blue.
function colour(v, m) {
  const t = Math.max(-1, Math.min(1, m > 0 ? v / m : 0));
  const r = t < 0 ? 255 : Math.round(255 - 200 * t), b = t > 0 ? 255 : Math.round(255 + 200 * t);
  const g = Math.round(255 - 170 * Math.abs(t));
  return `rgb(${r},${g},${b})`;
}

// A canvas drawn at the size it is shown (its parent's width), so that text on it reads at any screen width.
function fitCanvas(c, height) {
  const w = Math.max(200, Math.floor(c.parentElement.clientWidth));
  if (c.width !== w) c.width = w;
  if (height && c.height !== height) c.height = height;
  return c;
}

// A prompt in the middle of an empty canvas: what to do for it to show something.
function canvasPrompt(c, text) {
  const ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.fillStyle = '#6b7280';
  ctx.font = '14px system-ui';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const words = text.split(' '), lines = [];
  for (const w of words) {
    const last = lines[lines.length - 1];
    if (last && ctx.measureText(last + ' ' + w).width < c.width - 24) lines[lines.length - 1] = last + ' ' + w;
    else lines.push(w);
  }
  lines.forEach((l, i) => ctx.fillText(l, c.width / 2, c.height / 2 + (i - (lines.length - 1) / 2) * 18));
  ctx.textAlign = 'start';
  ctx.textBaseline = 'alphabetic';
  c.dataset.prompt = text;
}

function strip(canvas, values, highlight = -1) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height, n = values.length;
  ctx.clearRect(0, 0, w, h);
  delete canvas.dataset.prompt;
  const m = Math.max(1e-12, ...values.map(Math.abs));
  for (let i = 0; i < n; i++) {
    ctx.fillStyle = colour(values[i], m);
    ctx.fillRect(Math.floor(i * w / n), 0, Math.ceil(w / n), h);
  }
  if (highlight >= 0) {
    ctx.fillStyle = '#f59e0b';
    const x = Math.floor(highlight * w / n);
    ctx.fillRect(Math.max(0, x - 1), 0, Math.max(3, Math.ceil(w / n)), h);
  }
}

// ---- views ----
const views = ['token', 'similarity', 'arithmetic', 'map', 'compare', 'drift', 'calculator'];
function show(view) {
  for (const v of views) $('#view-' + v).hidden = v !== view;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.view === view);
  location.hash = view;
  if (view === 'map' && !mapPoints.length) clearMap();  // sized now that it is shown
  if (view === 'calculator' && !$('#calc-result').innerHTML) canvasPrompt(fitCanvas($('#calc-chart')), 'Pick a preset or press Compute');
}
for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.view));

// ---- token -> one-hot -> row -> vector ----
let dense = [];
function clearTokenDetail() {
  $('#token-detail').hidden = true;
  $('#token-hint').hidden = !document.querySelector('.tok:not(.unknown)');
  dense = [];
}
clears.token = () => { $('#tokens').innerHTML = ''; clearTokenDetail(); $('#token-hint').hidden = true; };
function tokenize(ev) {
  if (ev) ev.preventDefault();
  return request('token', async () => {
    const r = await api('tokenize', { text: $('#token-text').value });
    const box = $('#tokens');
    box.innerHTML = '';
    for (const t of r.tokens) {
      const el = document.createElement('span');
      el.className = 'tok' + (t.id === null ? ' unknown' : '');
      el.innerHTML = `${tokenHtml(t)}<small>${t.id === null ? '?' : t.id}</small>`;
      el.dataset.id = t.id ?? '';
      el.title = t.id === null ? 'not in the vocabulary' : `id ${t.id}`;
      if (t.id !== null) el.addEventListener('click', () => selectToken(el, t.id));
      box.appendChild(el);
    }
    clearTokenDetail();
  });
}

function selectToken(el, id) {
  return request('token', async () => {
    for (const t of document.querySelectorAll('.tok')) t.classList.remove('selected');
    el.classList.add('selected');
    const r = await api('row', { id, window: 6 });
    $('#token-hint').hidden = true;
    $('#token-detail').hidden = false;
    $('#onehot-caption').textContent = `length V = ${r.onehot.length}, a single 1 at position ${r.onehot.index}`;
    const oh = fitCanvas($('#onehot'), 28), ctx = oh.getContext('2d');
    ctx.clearRect(0, 0, oh.width, oh.height);
    ctx.fillStyle = '#e5e7eb';
    ctx.fillRect(0, oh.height / 2 - 1, oh.width, 2);
    ctx.fillStyle = '#f59e0b';
    const x = Math.floor(r.onehot.index * oh.width / r.onehot.length);
    ctx.fillRect(Math.max(0, x - 2), 0, 5, oh.height);
    oh.dataset.index = r.onehot.index;
    $('#rows-caption').textContent = `rows ${r.window.start}…${r.window.start + r.window.rows.length - 1} of E (V×d = ${r.V}×${r.d})`;
    const rows = $('#rows');
    rows.innerHTML = '';
    for (const row of r.window.rows) {
      const div = document.createElement('div');
      div.className = 'row' + (row.id === r.id ? ' selected' : '');
      div.dataset.id = row.id;
      div.innerHTML = `<span class="id">${row.id}</span><span class="label">${tokenHtml(row)}</span><span class="cells"></span>`;
      rows.appendChild(div);
      const c = document.createElement('canvas');
      div.querySelector('.cells').appendChild(c);
      fitCanvas(c, 12);
      strip(c, row.values);
    }
    dense = r.vector;
    $('#dense-caption').textContent = `d = ${r.d} numbers: the vector of “${tokenText(r)}”`;
    const dc = fitCanvas($('#dense'), 36);
    dc.dataset.id = r.id;
    strip(dc, dense);
    const m = Math.max(1e-12, ...dense.map(Math.abs));
    $('#legend-lo').textContent = fmt(-m, 3);
    $('#legend-hi').textContent = '+' + fmt(m, 3);
  });
}
$('#dense').addEventListener('mousemove', (ev) => {
  if (!dense.length) return;
  const c = ev.target, rect = c.getBoundingClientRect();
  const i = Math.min(dense.length - 1, Math.floor((ev.clientX - rect.left) / rect.width * dense.length));
  $('#hover').textContent = `component ${i}: ${fmt(dense[i], 6)}`;
});
$('#token-form').addEventListener('submit', tokenize);

// ---- similarity ----
function neighbourTable(list, mark = new Set()) {
  return '<table><tr><th>token</th><th class="num">id</th><th class="num">score</th></tr>' +
    list.map((n) => `<tr><td class="${mark.has(n.token) ? 'input-word' : ''}">${tokenHtml(n)}</td>` +
      `<td class="num">${n.id}</td><td class="num">${fmt(n.score)}</td></tr>`).join('') + '</table>';
}
clears.similarity = () => { $('#sim-result').innerHTML = ''; };
$('#sim-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  request('similarity', async () => {
    const w1 = $('#sim-a').value.trim(), w2 = $('#sim-b').value.trim();
    const [r, n1, n2] = await Promise.all([api('similarity', { w1, w2 }), api('neighbours', { word: w1, k: 8 }),
      api('neighbours', { word: w2, k: 8 })]);
    $('#sim-result').innerHTML =
      `<p class="formula">cos(${esc(r.w1)}, ${esc(r.w2)}) = a·b / (|a| |b|) = ${fmt(r.dot)} / (${fmt(r.norm1)} × ${fmt(r.norm2)}) = <b id="sim-cos">${fmt(r.cosine)}</b></p>` +
      `<div class="cols"><div><h3>neighbours of ${esc(r.w1)}</h3>${neighbourTable(n1.neighbours)}</div>` +
      `<div><h3>neighbours of ${esc(r.w2)}</h3>${neighbourTable(n2.neighbours)}</div></div>`;
  });
});

// ---- arithmetic ----
clears.arithmetic = () => { $('#ar-result').innerHTML = ''; };
$('#ar-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  request('arithmetic', async () => {
    // x − y + z is the analogy y : x :: z : ?
    const x = $('#ar-plus').value.trim(), y = $('#ar-minus').value.trim(), z = $('#ar-plus2').value.trim();
    const p = { a: y, b: x, c: z, exclude: $('#ar-exclude').checked, method: $('#ar-method').value, k: 10 };
    // Where each input ranks in the raw ranking (no exclusion): the chapter's caveat, made visible.
    const [r, ...raw] = await Promise.all([api('analogy', p),
      ...[y, x, z].map((w) => api('analogy', { ...p, exclude: false, k: 1, expect: w }))]);
    const inputs = new Set([x, y, z]);
    const ranks = raw.map((q) => `${esc(q.expected)}: #${q.rank}`).join(', ');
    $('#ar-result').innerHTML =
      `<p>${esc(x)} − ${esc(y)} + ${esc(z)} ≈ <b id="ar-top">${r.answers.length ? tokenHtml(r.answers[0]) : '—'}</b>` +
      ` <span class="muted">(${r.exclude_inputs ? 'inputs excluded' : 'inputs not excluded'}; without exclusion the inputs rank ${ranks})</span></p>` +
      neighbourTable(r.answers, inputs);
  });
});

// ---- map ----
let mapPoints = [], view = { x0: 0, y0: 0, s: 1 }, hovered = -1, mapAspect = 0.62;
// The labels drawn on the map, as boxes on the canvas (none overlaps another).
let mapLabelBoxes = [];
const mapPad = 14;
// The canvas as wide as the page allows and as tall as the points need (within the window), so the map fills it.
function sizeMap() {
  const c = $('#map');
  const w = Math.max(200, Math.floor(c.parentElement.clientWidth));
  const h = Math.round(Math.max(240, Math.min(w * mapAspect, 0.8 * window.innerHeight, 900)));
  if (c.width !== w) c.width = w;
  if (c.height !== h) c.height = h;
}
function fitView() {
  if (!mapPoints.length) return;
  const xs = mapPoints.map((p) => p.x), ys = mapPoints.map((p) => p.y);
  const minx = Math.min(...xs), maxx = Math.max(...xs), miny = Math.min(...ys), maxy = Math.max(...ys);
  mapAspect = Math.max(1e-9, maxy - miny) / Math.max(1e-9, maxx - minx);
  sizeMap();
  const c = $('#map');
  const s = Math.min((c.width - 2 * mapPad) / Math.max(1e-9, maxx - minx), (c.height - 2 * mapPad) / Math.max(1e-9, maxy - miny));
  view = { s, x0: (minx + maxx) / 2, y0: (miny + maxy) / 2 };
}
function toScreen(p) {
  const c = $('#map');
  return [c.width / 2 + (p.x - view.x0) * view.s, c.height / 2 - (p.y - view.y0) * view.s];
}
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
function drawMap() {
  const c = $('#map'), ctx = c.getContext('2d');
  if (!mapPoints.length) return;
  delete c.dataset.prompt;
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.fillStyle = 'rgba(37,99,235,0.55)';
  const onScreen = [];
  mapPoints.forEach((p, i) => {
    const [x, y] = toScreen(p);
    if (x < -2 || y < -2 || x > c.width + 2 || y > c.height + 2) return;
    ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
    onScreen.push([i, x, y]);
  });
  // Labels, most frequent first (the rows' order), each beside its point where it overlaps no label already placed
  // and stays on the canvas; the rest are left for hover.
  ctx.font = '11px system-ui'; ctx.fillStyle = '#1d2330'; ctx.textBaseline = 'alphabetic';
  mapLabelBoxes = [];
  const budget = Math.max(8, Math.round(c.width * c.height / 9000));
  for (const [i, x, y] of onScreen.slice(0, 400)) {
    if (mapLabelBoxes.length >= budget) break;
    const text = tokenText(mapPoints[i]), w = ctx.measureText(text).width, h = 12;
    for (const [dx, dy] of [[4, -3], [4, 11], [-4 - w, -3], [-4 - w, 11]]) {
      const box = { x: x + dx, y: y + dy - 10, w, h, text };
      if (box.x < 0 || box.y < 0 || box.x + w > c.width || box.y + h > c.height) continue;
      if (mapLabelBoxes.some((b) => overlaps(b, box))) continue;
      mapLabelBoxes.push(box);
      ctx.fillText(text, box.x, box.y + 10);
      break;
    }
  }
  if (hovered >= 0) {
    const p = mapPoints[hovered], [x, y] = toScreen(p);
    ctx.fillStyle = '#f59e0b'; ctx.fillRect(x - 3, y - 3, 6, 6);
    ctx.font = 'bold 13px system-ui';
    const t = tokenText(p), w = ctx.measureText(t).width;
    const tx = Math.min(Math.max(2, x + 5), c.width - w - 2), ty = Math.max(14, y - 5);
    ctx.fillStyle = 'rgba(255,255,255,0.85)'; ctx.fillRect(tx - 2, ty - 12, w + 4, 16);
    ctx.fillStyle = '#b45309'; ctx.fillText(t, tx, ty);
  }
}
function clearMap() {
  mapPoints = []; hovered = -1; mapLabelBoxes = [];
  mapAspect = 0.62;
  sizeMap();
  canvasPrompt($('#map'), 'Press Draw to map this table’s most frequent words, or Toy map for the chapter’s 30 words.');
  for (const id of ['#map-caption', '#map-honesty', '#map-neighbours']) $(id).innerHTML = '';
  $('#map-legend').hidden = true;
}
clears.map = clearMap;
function nearestPoint(ev) {
  const c = $('#map'), rect = c.getBoundingClientRect();
  const mx = (ev.clientX - rect.left) * c.width / rect.width, my = (ev.clientY - rect.top) * c.height / rect.height;
  let best = -1, bd = 64;
  mapPoints.forEach((p, i) => { const [x, y] = toScreen(p); const d = (x - mx) ** 2 + (y - my) ** 2; if (d < bd) { bd = d; best = i; } });
  return best;
}
$('#map').addEventListener('mousemove', (ev) => { const i = nearestPoint(ev); if (i !== hovered) { hovered = i; drawMap(); } });
$('#map').addEventListener('wheel', (ev) => {
  if (!mapPoints.length) return;
  ev.preventDefault(); view.s *= ev.deltaY < 0 ? 1.2 : 1 / 1.2; drawMap();
}, { passive: false });
let drag = null;
$('#map').addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, y: ev.clientY, x0: view.x0, y0: view.y0 }; });
window.addEventListener('mouseup', () => { drag = null; });
window.addEventListener('mousemove', (ev) => {
  if (!drag || !mapPoints.length) return;
  const rect = $('#map').getBoundingClientRect(), k = $('#map').width / rect.width;
  view.x0 = drag.x0 - (ev.clientX - drag.x) * k / view.s; view.y0 = drag.y0 + (ev.clientY - drag.y) * k / view.s; drawMap();
});
let resizeTimer = null;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (mapPoints.length) { fitView(); drawMap(); } else if (!$('#view-map').hidden) clearMap(); }, 100);
});
$('#map').addEventListener('click', (ev) => {
  const i = nearestPoint(ev);
  if (i < 0) return;
  const p = mapPoints[i], table = $('#map').dataset.table;
  request('map', async () => {
    const r = await api('neighbours', { word: p.token, k: 8, table });
    $('#map-neighbours').innerHTML = `<h3>neighbours of ${tokenHtml(p)} (in the full space)</h3>` + neighbourTable(r.neighbours);
  });
});
const pct = (x) => (100 * x).toFixed(1) + '%';
// The map's caption: the library's lines (`lumen project`'s caption), one per line, less what the table of numbers
// under it already says, and speaking of this page's seeds menu rather than a command.
function captionLines(res) {
  return (res.caption || []).filter((l, i) => i === 0 || !/^\d+-NN kept|^maps agree/.test(l))
    .map((l) => l.replace('make the map with 3 seeds', 'choose 3 seeds above'))
    .map((l) => (/^t-SNE/.test(l) ? l : l.charAt(0).toUpperCase() + l.slice(1)))  // t-SNE is a name: never T-SNE
    .map((l) => (/[.!?]$/.test(l) ? l : l + '.'));
}
async function drawProjection(table, method, top, seeds = 1) {
  $('#map-neighbours').innerHTML = '';  // the old map stays, dimmed, until the new one replaces it
  const res = await runJob('map', 'projection', { table, method, top, seeds }, method === 'pca' ? 1 : seeds);
  mapPoints = res.points; hovered = -1; fitView(); drawMap();
  $('#map').dataset.table = table;
  $('#map-status').textContent = `${res.points.length} points`;
  $('#map-legend').hidden = false;
  $('#map-caption').innerHTML = captionLines(res).map((l) => `<div>${esc(l)}</div>`).join('');
  // The honesty numbers, the same for t-SNE and UMAP: neighbours kept per seed, and agreement across seeds.
  // The schema of `lumen project --json`.
  const rows = [];
  if (res.knn_preservation && res.knn_preservation.length) {
    rows.push([`${res.k}-NN kept from the original space` + (res.seeds ? ` (seed ${res.seeds.join(', ')})` : ''),
      res.knn_preservation.map(pct).join(', ')]);
  }
  if (res.agreement != null) rows.push([`maps agree (${res.k}-NN Jaccard across ${res.seeds.length} seeds)`, pct(res.agreement)]);
  $('#map-honesty').innerHTML = rows.length ? '<table id="map-numbers">' + rows.map(([k, v]) =>
    `<tr><td>${esc(k)}</td><td class="num">${esc(v)}</td></tr>`).join('') + '</table>' : '';
}
$('#map-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  request('map', () => drawProjection($('#map-table').value, $('#map-method').value, Number($('#map-top').value),
    Number($('#map-seeds').value)));
});
$('#map-table').addEventListener('change', () => { if ($('#view-map').dataset.state !== 'running') { clearMap(); $('#map-status').textContent = ''; } });
$('#map-toy').addEventListener('click', () => {
  $('#map-table').value = 'toy'; $('#map-method').value = 'pca';
  request('map', () => drawProjection('toy', 'pca', 1000));
});

// ---- compare ----
function neighbourWords(list) {
  return list.map((n) => `<span title="cosine ${fmt(n.cosine)}">${esc(n.word)}</span>`).join(' ');
}
clears.compare = () => { $('#cmp-result').innerHTML = ''; };
$('#cmp-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  request('compare', async () => {
    const a = $('#cmp-a').value, b = $('#cmp-b').value;
    if (a === b) throw new Error('Pick two different tables: A and B are the same.');
    const r = await runJob('compare', 'compare', { a, b, k: Number($('#cmp-k').value), top: Number($('#cmp-top').value), moved: 15 });
    $('#cmp-status').textContent = `${r.n} words compared in ${fmt(r.seconds, 2)} s`;
    const hist = r.overlap.histogram.map((c, j) => `<tr><td class="num">${j}/${r.k}</td><td class="num">${pct(c / r.n)}</td>` +
      `<td><span class="bar" data-w="${c / r.n}"></span></td></tr>`).join('');
    const proc = r.procrustes
      ? `${fmt(r.procrustes.residual)} (${pct(r.procrustes.relative_residual)} of |B|)${r.procrustes.reflection ? ', with a reflection' : ''}`
      : esc(r.procrustes_skipped);
    $('#cmp-result').innerHTML =
      `<table id="cmp-summary"><tr><td>A</td><td>${esc(r.a.source)} (${r.a.V} × ${r.a.d})</td></tr>` +
      `<tr><td>B</td><td>${esc(r.b.source)} (${r.b.V} × ${r.b.d})</td></tr>` +
      `<tr><td>shared words</td><td class="num">${r.shared}${r.n < r.shared ? ` (compared: the first ${r.n})` : ''}</td></tr>` +
      `<tr><td>neighbour overlap@${r.k}</td><td class="num">mean <b id="cmp-overlap">${fmt(r.overlap.mean)}</b>, median ${fmt(r.overlap.median)}</td></tr>` +
      `<tr><td>Procrustes residual |AR − B|</td><td class="num" id="cmp-procrustes">${proc}</td></tr>` +
      `<tr><td>linear CKA</td><td class="num" id="cmp-cka">${fmt(r.cka)}</td></tr></table>` +
      `<h3>overlap@${r.k}, share of words <span class="muted">(bar: the share of words whose k neighbours the two tables share j of)</span></h3>` +
      `<table class="hist">${hist}</table>` +
      `<h3>words whose neighbourhoods moved most</h3><div class="wide"><table id="cmp-moved"><tr><th>word</th><th class="num">overlap</th>` +
      `<th>neighbours in A</th><th>neighbours in B</th></tr>` +
      r.moved.map((m) => `<tr><td><b>${esc(m.word)}</b></td><td class="num">${fmt(m.overlap, 2)}</td>` +
        `<td>${neighbourWords(m.a)}</td><td>${neighbourWords(m.b)}</td></tr>`).join('') + '</table></div>';
    // Widths through the DOM (a share of the column), as the Content-Security-Policy refuses style attributes.
    $('#cmp-result').querySelectorAll('.bar').forEach((el) => { el.style.width = `${(100 * Number(el.dataset.w)).toFixed(1)}%`; });
  });
});

// ---- calculator ----
// Bytes as a person reads them: GiB from 1 GiB up, else MiB, else kiB.
function bytesText(v) {
  if (v >= 2 ** 30) return `${(v / 2 ** 30).toFixed(2)} GiB`;
  if (v >= 2 ** 20) return `${(v / 2 ** 20).toFixed(1)} MiB`;
  return `${(v / 2 ** 10).toFixed(1)} kiB`;
}
clears.calculator = () => { $('#calc-result').innerHTML = ''; canvasPrompt(fitCanvas($('#calc-chart'), 60), 'Pick a preset or press Compute'); };
$('#calc-preset').addEventListener('change', () => request('calculator', () => calc(true)));
$('#calc-form').addEventListener('submit', (ev) => { ev.preventDefault(); request('calculator', () => calc(false)); });
async function calc(fromPreset) {
  const preset = $('#calc-preset').value;
  const p = preset && fromPreset ? { preset } : {
    vocab: Number($('#calc-vocab').value), d_model: Number($('#calc-d').value),
    layers: Number($('#calc-layers').value), tied: $('#calc-tied').checked, ...(preset ? { preset } : {}) };
  const r = await api('params', p);
  $('#calc-vocab').value = r.shape.vocab; $('#calc-d').value = r.shape.d_model;
  $('#calc-layers').value = r.shape.layers; $('#calc-tied').checked = r.shape.tied;
  const parts = [['embedding', r.embedding, '#f59e0b'], ['positional', r.positional, '#fbbf24'],
    ['blocks', r.blocks, '#2563eb'], ['final norm', r.final_norm, '#93c5fd'], ['output head', r.output_head, '#10b981']];
  const c = fitCanvas($('#calc-chart'), 60), ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  delete c.dataset.prompt;
  let x = 0;
  for (const [, v, col] of parts) { const w = c.width * v / r.total; ctx.fillStyle = col; ctx.fillRect(x, 0, w, c.height); x += w; }
  const s = r.shape;
  const ffn = s.ffn === 4 * s.d_model ? `${s.ffn.toLocaleString()} (4·d)` : s.ffn.toLocaleString();
  const mem = Object.entries(r.memory_bytes).map(([k, v]) => `<tr><td>${esc(k)}</td><td class="num">${bytesText(v)}</td></tr>`).join('');
  $('#calc-result').innerHTML = '<table id="calc-parts">' + parts.map(([n, v]) =>
    `<tr><td><span class="swatch">■</span> ${n}</td><td class="num">${v.toLocaleString()}</td><td class="num">${(100 * v / r.total).toFixed(1)}%</td></tr>`).join('') +
    `<tr><th>total</th><th class="num" id="calc-total">${r.total.toLocaleString()}</th><th class="num">embedding share ${(100 * r.embedding_share).toFixed(1)}%</th></tr></table>` +
    `<p class="muted" id="calc-shape">Also counted (${esc(r.name || 'custom')}'s values, kept as you edit V, d and layers): ` +
    `context ${s.context.toLocaleString()}, FFN width ${ffn}, ${s.heads} heads (${s.kv_heads} for keys and values), ` +
    `${esc(s.positional)} positions, ${esc(s.norm)}, ${esc(s.mlp)} MLP, ${s.biases ? 'with' : 'no'} biases.</p>` +
    `<h3>memory of the weights</h3><table id="calc-memory">${mem}</table>`;
  // Colours through the DOM: the Content-Security-Policy refuses style attributes in markup.
  $('#calc-result').querySelectorAll('.swatch').forEach((el, i) => { el.style.color = parts[i][2]; });
}

// ---- start ----
(async () => {
  try {
    const info = await api('info');
    $('#table-info').textContent = `${info.source} · ${info.format} · V=${info.V} × d=${info.d} · ${info.dtype}`;
    // The tables this server loaded, for the map and the Compare view. Compare takes two of the tables it was given
    // (B defaults to the second); the toy map (30 words in 2-D) is no table to compare a real one with.
    const tables = info.table_info || [];
    const served = tables.filter((t) => t.name !== 'toy');
    for (const sel of ['#cmp-a', '#cmp-b']) {
      $(sel).innerHTML = served.map((t) => `<option value="${esc(t.name)}">${esc(t.name)}: ${esc(t.source)} (${t.V} × ${t.d})</option>`).join('');
    }
    if (served.length > 1) {
      $('#cmp-b').value = served[1].name;
    } else {
      $('#cmp-one').hidden = false;
      for (const el of document.querySelectorAll('#cmp-form button, #cmp-form select, #cmp-form input')) el.disabled = true;
    }
    const mapTables = served.filter((t) => t.name !== 'main');
    for (const t of mapTables) $('#map-table').insertAdjacentHTML('beforeend', `<option value="${esc(t.name)}">${esc(t.name)}</option>`);
  } catch (e) {
    showError(e);
  }
  for (const v of views) if (!$('#view-' + v).dataset.state) $('#view-' + v).dataset.state = 'idle';
  const v = location.hash.slice(1);
  show(views.includes(v) ? v : 'token');
  await tokenize();
})();
