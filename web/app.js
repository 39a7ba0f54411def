// lumen explorer: plain modern JavaScript over the JSON API (/api/*). No build step.
'use strict';

const $ = (sel) => document.querySelector(sel);
const fmt = (x, n = 4) => (typeof x === 'number' ? x.toFixed(n) : String(x));
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

async function api(route, params = {}) {
  const res = await fetch('/api/' + route, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(params),
  });
  const body = await res.json().catch(() => ({ error: 'HTTP ' + res.status }));
  if (!res.ok) throw new Error(body.error || 'HTTP ' + res.status);
  return body;
}

function showError(e) {
  const box = $('#error');
  if (!e) { box.hidden = true; return; }
  box.textContent = e.message || String(e);
  box.hidden = false;
}

async function guarded(fn) {
  showError(null);
  try { await fn(); } catch (e) { showError(e); }
}

// Diverging colour for a value in [-m, m].
function colour(v, m) {
  const t = Math.max(-1, Math.min(1, m > 0 ? v / m : 0));
  const r = t < 0 ? 255 : Math.round(255 - 200 * t), b = t > 0 ? 255 : Math.round(255 + 200 * t);
  const g = Math.round(255 - 170 * Math.abs(t));
  return `rgb(${r},${g},${b})`;
}

function strip(canvas, values, highlight = -1) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width, h = canvas.height, n = values.length;
  ctx.clearRect(0, 0, w, h);
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
}
for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.view));

// ---- token -> one-hot -> row -> vector ----
let dense = [];
async function tokenize(ev) {
  if (ev) ev.preventDefault();
  await guarded(async () => {
    const r = await api('tokenize', { text: $('#token-text').value });
    const box = $('#tokens');
    box.innerHTML = '';
    for (const t of r.tokens) {
      const el = document.createElement('span');
      el.className = 'tok' + (t.id === null ? ' unknown' : '');
      el.innerHTML = `${esc(t.display ?? t.text)}<small>${t.id === null ? '?' : t.id}</small>`;
      el.dataset.id = t.id ?? '';
      el.title = t.id === null ? 'not in the vocabulary' : `id ${t.id}`;
      if (t.id !== null) el.addEventListener('click', () => selectToken(el, t.id));
      box.appendChild(el);
    }
  });
}

async function selectToken(el, id) {
  await guarded(async () => {
    for (const t of document.querySelectorAll('.tok')) t.classList.remove('selected');
    el.classList.add('selected');
    const r = await api('row', { id, window: 6 });
    $('#token-detail').hidden = false;
    $('#onehot-caption').textContent = `length V = ${r.onehot.length}, a single 1 at position ${r.onehot.index}`;
    const oh = $('#onehot'), ctx = oh.getContext('2d');
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
      const c = document.createElement('canvas');
      c.width = 600; c.height = 12;
      div.innerHTML = `<span class="id">${row.id}</span><span class="label">${esc(row.display ?? row.token)}</span>`;
      div.appendChild(c);
      rows.appendChild(div);
      strip(c, row.values);
    }
    dense = r.vector;
    $('#dense-caption').textContent = `d = ${r.d} numbers: the vector of “${r.display ?? r.token}”`;
    $('#dense').dataset.id = r.id;
    strip($('#dense'), dense);
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
    list.map((n) => `<tr><td class="${mark.has(n.token) ? 'input-word' : ''}">${esc(n.display ?? n.token)}</td>` +
      `<td class="num">${n.id}</td><td class="num">${fmt(n.score)}</td></tr>`).join('') + '</table>';
}
$('#sim-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
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
$('#ar-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    // x − y + z is the analogy y : x :: z : ?
    const x = $('#ar-plus').value.trim(), y = $('#ar-minus').value.trim(), z = $('#ar-plus2').value.trim();
    const p = { a: y, b: x, c: z, exclude: $('#ar-exclude').checked, method: $('#ar-method').value, k: 10 };
    // Where each input ranks in the raw ranking (no exclusion): the chapter's caveat, made visible.
    const [r, ...raw] = await Promise.all([api('analogy', p),
      ...[y, x, z].map((w) => api('analogy', { ...p, exclude: false, k: 1, expect: w }))]);
    const inputs = new Set([x, y, z]);
    const ranks = raw.map((q) => `${esc(q.expected)}: #${q.rank}`).join(', ');
    $('#ar-result').innerHTML =
      `<p>${esc(x)} − ${esc(y)} + ${esc(z)} ≈ <b id="ar-top">${r.answers.length ? esc(r.answers[0].display ?? r.answers[0].token) : '—'}</b>` +
      ` <span class="muted">(${r.exclude_inputs ? 'inputs excluded' : 'inputs not excluded'}; without exclusion the inputs rank ${ranks})</span></p>` +
      neighbourTable(r.answers, inputs);
  });
});

// ---- map ----
let mapPoints = [], view = { x0: 0, y0: 0, s: 1 }, hovered = -1;
function fitView() {
  if (!mapPoints.length) return;
  const xs = mapPoints.map((p) => p.x), ys = mapPoints.map((p) => p.y);
  const minx = Math.min(...xs), maxx = Math.max(...xs), miny = Math.min(...ys), maxy = Math.max(...ys);
  const c = $('#map');
  const s = 0.9 * Math.min(c.width / Math.max(1e-9, maxx - minx), c.height / Math.max(1e-9, maxy - miny));
  view = { s, x0: (minx + maxx) / 2, y0: (miny + maxy) / 2 };
}
function toScreen(p) {
  const c = $('#map');
  return [c.width / 2 + (p.x - view.x0) * view.s, c.height / 2 - (p.y - view.y0) * view.s];
}
function drawMap() {
  const c = $('#map'), ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.fillStyle = 'rgba(37,99,235,0.55)';
  for (const p of mapPoints) {
    const [x, y] = toScreen(p);
    if (x < -2 || y < -2 || x > c.width + 2 || y > c.height + 2) continue;
    ctx.fillRect(x - 1.5, y - 1.5, 3, 3);
  }
  // Labels for the first points (most frequent) when there are few, and the hovered one.
  ctx.font = '11px system-ui'; ctx.fillStyle = '#1d2330';
  const labelled = mapPoints.length <= 60 ? mapPoints : mapPoints.slice(0, 40);
  for (const p of labelled) { const [x, y] = toScreen(p); ctx.fillText(p.display ?? p.token, x + 4, y - 3); }
  if (hovered >= 0) {
    const p = mapPoints[hovered], [x, y] = toScreen(p);
    ctx.fillStyle = '#f59e0b'; ctx.fillRect(x - 3, y - 3, 6, 6);
    ctx.font = 'bold 13px system-ui'; ctx.fillStyle = '#b45309'; ctx.fillText(p.display ?? p.token, x + 5, y - 5);
  }
}
function nearestPoint(ev) {
  const c = $('#map'), rect = c.getBoundingClientRect();
  const mx = (ev.clientX - rect.left) * c.width / rect.width, my = (ev.clientY - rect.top) * c.height / rect.height;
  let best = -1, bd = 64;
  mapPoints.forEach((p, i) => { const [x, y] = toScreen(p); const d = (x - mx) ** 2 + (y - my) ** 2; if (d < bd) { bd = d; best = i; } });
  return best;
}
$('#map').addEventListener('mousemove', (ev) => { const i = nearestPoint(ev); if (i !== hovered) { hovered = i; drawMap(); } });
$('#map').addEventListener('wheel', (ev) => { ev.preventDefault(); view.s *= ev.deltaY < 0 ? 1.2 : 1 / 1.2; drawMap(); }, { passive: false });
let drag = null;
$('#map').addEventListener('mousedown', (ev) => { drag = { x: ev.clientX, y: ev.clientY, x0: view.x0, y0: view.y0 }; });
window.addEventListener('mouseup', () => { drag = null; });
window.addEventListener('mousemove', (ev) => {
  if (!drag) return;
  const rect = $('#map').getBoundingClientRect(), k = $('#map').width / rect.width;
  view.x0 = drag.x0 - (ev.clientX - drag.x) * k / view.s; view.y0 = drag.y0 + (ev.clientY - drag.y) * k / view.s; drawMap();
});
$('#map').addEventListener('click', (ev) => {
  const i = nearestPoint(ev);
  if (i < 0) return;
  const p = mapPoints[i];
  guarded(async () => {
    const r = await api('neighbours', { word: p.token, k: 8, table: $('#map-table').value });
    $('#map-neighbours').innerHTML = `<h3>neighbours of ${esc(p.display ?? p.token)} (in the full space)</h3>` + neighbourTable(r.neighbours);
  });
});
// A background job (projection, comparison): start it, show its progress in STATUS, return its result.
async function runJob(route, params, status) {
  status.textContent = 'computing…';
  let r = await api(route, params);
  while (!r.done) {
    status.textContent = `computing… ${Math.round(100 * (r.progress || 0))}%`;
    await new Promise((res) => setTimeout(res, 300));
    r = await api('job', { id: r.job });
  }
  return r.result;
}
const pct = (x) => (100 * x).toFixed(1) + '%';
async function drawProjection(table, method, top, seeds = 1) {
  const res = await runJob('projection', { table, method, top, seeds }, $('#map-status'));
  mapPoints = res.points; hovered = -1; fitView(); drawMap();
  $('#map-status').textContent = `${res.points.length} points`;
  $('#map-caption').textContent = (res.caption || []).join(' ');
  // The honesty numbers, the same for t-SNE and UMAP: neighbours kept per seed, and agreement across seeds.
  // The schema of `lumen project --json`.
  const rows = [];
  if (res.variance_ratio && res.variance_ratio.length) rows.push(['variance the two axes hold', pct(res.variance_kept)]);
  if (res.knn_preservation && res.knn_preservation.length) {
    rows.push([`${res.k}-NN kept from the original space` + (res.seeds ? ` (seed ${res.seeds.join(', ')})` : ''),
      res.knn_preservation.map(pct).join(', ')]);
  }
  if (res.agreement != null) rows.push([`maps agree (${res.k}-NN Jaccard across ${res.seeds.length} seeds)`, pct(res.agreement)]);
  if (res.kl && res.kl.length) rows.push(['final KL (t-SNE)', res.kl.map((x) => fmt(x, 3)).join(', ')]);
  if (res.method === 'umap') rows.push(['UMAP', `${res.neighbors} neighbours, min_dist ${res.min_dist}, ${res.epochs} epochs`]);
  $('#map-honesty').innerHTML = rows.length ? '<table id="map-numbers">' + rows.map(([k, v]) =>
    `<tr><td>${esc(k)}</td><td class="num">${esc(v)}</td></tr>`).join('') + '</table>' : '';
}
$('#map-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(() => drawProjection($('#map-table').value, $('#map-method').value, Number($('#map-top').value),
    Number($('#map-seeds').value)));
});
$('#map-toy').addEventListener('click', () => {
  $('#map-table').value = 'toy'; $('#map-method').value = 'pca';
  guarded(() => drawProjection('toy', 'pca', 1000));
});

// ---- compare ----
function neighbourWords(list) {
  return list.map((n) => `<span title="cosine ${fmt(n.cosine)}">${esc(n.word)}</span>`).join(' ');
}
$('#cmp-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  guarded(async () => {
    const a = $('#cmp-a').value, b = $('#cmp-b').value;
    const r = await runJob('compare', { a, b, k: Number($('#cmp-k').value), top: Number($('#cmp-top').value), moved: 15 },
      $('#cmp-status'));
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
      `<h3>overlap@${r.k}, share of words</h3><table class="hist">${hist}</table>` +
      `<h3>words whose neighbourhoods moved most</h3><table id="cmp-moved"><tr><th>word</th><th class="num">overlap</th>` +
      `<th>neighbours in A</th><th>neighbours in B</th></tr>` +
      r.moved.map((m) => `<tr><td><b>${esc(m.word)}</b></td><td class="num">${fmt(m.overlap, 2)}</td>` +
        `<td>${neighbourWords(m.a)}</td><td>${neighbourWords(m.b)}</td></tr>`).join('') + '</table>';
    // Widths through the DOM: the Content-Security-Policy refuses style attributes in markup.
    $('#cmp-result').querySelectorAll('.bar').forEach((el) => { el.style.width = `${Math.round(300 * Number(el.dataset.w))}px`; });
  });
});

// ---- calculator ----
$('#calc-preset').addEventListener('change', () => guarded(() => calc(true)));
$('#calc-form').addEventListener('submit', (ev) => { ev.preventDefault(); guarded(() => calc(false)); });
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
  const c = $('#calc-chart'), ctx = c.getContext('2d');
  ctx.clearRect(0, 0, c.width, c.height);
  let x = 0;
  for (const [, v, col] of parts) { const w = c.width * v / r.total; ctx.fillStyle = col; ctx.fillRect(x, 0, w, c.height); x += w; }
  const mem = Object.entries(r.memory_bytes).map(([k, v]) => `<tr><td>${k}</td><td class="num">${(v / 2 ** 20).toFixed(1)} MiB</td></tr>`).join('');
  $('#calc-result').innerHTML = '<table>' + parts.map(([n, v]) =>
    `<tr><td><span class="swatch">■</span> ${n}</td><td class="num">${v.toLocaleString()}</td><td class="num">${(100 * v / r.total).toFixed(1)}%</td></tr>`).join('') +
    `<tr><th>total</th><th class="num" id="calc-total">${r.total.toLocaleString()}</th><th class="num">embedding share ${(100 * r.embedding_share).toFixed(1)}%</th></tr></table>` +
    `<h3>memory of the weights</h3><table>${mem}</table>`;
  // Colours through the DOM: the Content-Security-Policy refuses style attributes in markup.
  $('#calc-result').querySelectorAll('.swatch').forEach((el, i) => { el.style.color = parts[i][2]; });
}

// ---- start ----
guarded(async () => {
  const info = await api('info');
  $('#table-info').textContent = `${info.source} · ${info.format} · V=${info.V} × d=${info.d} · ${info.dtype}`;
  // The tables this server loaded, for the map and the Compare view (B defaults to the second one).
  const tables = info.table_info || [];
  for (const sel of ['#cmp-a', '#cmp-b']) {
    $(sel).innerHTML = tables.map((t) => `<option value="${esc(t.name)}">${esc(t.name)}: ${esc(t.source)} (${t.V} × ${t.d})</option>`).join('');
  }
  if (tables.length > 1) $('#cmp-b').value = tables[1].name;
  const mapTables = tables.filter((t) => t.name !== 'main' && t.name !== 'toy');
  for (const t of mapTables) $('#map-table').insertAdjacentHTML('beforeend', `<option value="${esc(t.name)}">${esc(t.name)}</option>`);
  const v = location.hash.slice(1);
  show(views.includes(v) ? v : 'token');
  await tokenize();
});
