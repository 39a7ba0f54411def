// lumen explorer, the Drift view: one token's vector layer by layer in two contexts (/api/drift, the schema of
// `lumen drift --json`), drawn here as SVG. Uses app.js's helpers ($, api, esc, fmt, tokenHtml, request, runJob,
// clears).
'use strict';

const driftColours = ['#2563eb', '#d97706'];

// Cosine by layer: a line over [0, 1] (or below 0 when the occurrences point apart), beside the layer's baseline
// (the mean cosine of random pairs of positions, dashed): a cosine reads against it, not against 0.
function driftCosineSvg(cos, base) {
  const w = 420, h = 220, l = 52, r = 12, t = 26, b = 30;
  const lo = Math.min(0, ...cos, ...base), n = cos.length;
  const x = (i) => l + (n > 1 ? i * (w - l - r) / (n - 1) : (w - l - r) / 2);
  const y = (v) => t + (1 - (v - lo) / (1 - lo || 1)) * (h - t - b);
  let s = `<svg class="drift" id="drift-cosine-svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" xmlns="http://www.w3.org/2000/svg">`;
  for (const v of [lo, (lo + 1) / 2, 1]) {
    s += `<line x1="${l}" x2="${w - r}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>` +
      `<text x="${l - 4}" y="${y(v) + 4}" font-size="10" text-anchor="end" fill="#6b7280">${v.toFixed(2)}</text>`;
  }
  if (base.length === n) {
    s += `<polyline id="drift-baseline-line" fill="none" stroke="#9ca3af" stroke-width="1.5" stroke-dasharray="5 4" points="${base.map((v, i) => `${x(i)},${y(v)}`).join(' ')}"/>`;
    base.forEach((v, i) => {
      s += `<circle cx="${x(i)}" cy="${y(v)}" r="2.5" fill="#9ca3af"><title>layer ${i}: baseline ${fmt(v)}</title></circle>`;
    });
  }
  s += `<polyline fill="none" stroke="#1d2330" stroke-width="1.5" points="${cos.map((v, i) => `${x(i)},${y(v)}`).join(' ')}"/>`;
  cos.forEach((v, i) => {
    s += `<circle cx="${x(i)}" cy="${y(v)}" r="3" fill="#1d2330"><title>layer ${i}: cosine ${fmt(v)}</title></circle>` +
      `<text x="${x(i)}" y="${h - b + 14}" font-size="10" text-anchor="middle" fill="#6b7280">${i}</text>`;
  });
  // The legend: the solid line is the pair, the dashed one what it is read against.
  s += `<line x1="${l + 4}" x2="${l + 22}" y1="10" y2="10" stroke="#1d2330" stroke-width="1.5"/>` +
    `<text class="legend-text" x="${l + 26}" y="14" font-size="10" fill="#1d2330">A and B</text>` +
    `<line x1="${l + 90}" x2="${l + 108}" y1="10" y2="10" stroke="#9ca3af" stroke-width="1.5" stroke-dasharray="5 4"/>` +
    `<text class="legend-text" x="${l + 112}" y="14" font-size="10" fill="#1d2330">baseline: random pairs of positions</text>`;
  const mid = t + (h - t - b) / 2;
  return s + `<text x="${(l + w - r) / 2}" y="${h - 3}" font-size="10" text-anchor="middle" fill="#6b7280">layer</text>` +
    `<text class="y-title" x="12" y="${mid}" font-size="10" text-anchor="middle" fill="#6b7280" transform="rotate(-90 12 ${mid})">cosine</text></svg>`;
}

// Both paths on the PCA plane, each point numbered by its layer.
function driftPcaSvg(paths, names) {
  const w = 420, h = 320, m = 24, key = 22;
  const pts = paths.flat();
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
  const k = Math.min((w - 2 * m) / Math.max(1e-9, x1 - x0), (h - 2 * m) / Math.max(1e-9, y1 - y0));
  const k2 = Math.min(k, (h - key - 2 * m) / Math.max(1e-9, y1 - y0));
  const sx = (v) => w / 2 + (v - (x0 + x1) / 2) * k2, sy = (v) => key + (h - key) / 2 - (v - (y0 + y1) / 2) * k2;
  let s = `<svg class="drift" id="drift-pca-svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" xmlns="http://www.w3.org/2000/svg">`;
  paths.forEach((path, c) => {
    const col = driftColours[c];
    s += `<polyline fill="none" stroke="${col}" stroke-width="1.5" points="${path.map((p) => `${sx(p[0])},${sy(p[1])}`).join(' ')}"/>`;
    path.forEach((p, i) => {
      s += `<circle class="drift-point" data-context="${c}" data-layer="${i}" cx="${sx(p[0])}" cy="${sy(p[1])}" r="4" fill="${col}">` +
        `<title>${esc(names[c])}, layer ${i}</title></circle>` +
        `<text x="${sx(p[0]) + 6}" y="${sy(p[1]) - 5}" font-size="11" fill="${col}">${i}</text>`;
    });
  });
  // The legend: which colour is which context.
  names.forEach((n, c) => {
    const x = 8 + c * (w / 2);
    s += `<rect x="${x}" y="7" width="10" height="10" fill="${driftColours[c]}"/>` +
      `<text class="legend-text" x="${x + 14}" y="16" font-size="11" fill="#1d2330">${'AB'[c]}: ${esc(n.length > 28 ? n.slice(0, 27) + '…' : n)}</text>`;
  });
  return s + '</svg>';
}

// Each row by its label (a lone byte of a multi-byte character as a byte chip, not "\x8d").
const driftWords = (list) => list.map((t) => `<span title="id ${t.id}">${tokenHtml(t)}</span>`).join(' ');

function showDrift(r) {
  const names = r.contexts.map((c) => c.text);
  const cos = r.layers.map((l) => l.cosine);
  const base = r.layers.filter((l) => l.baseline).map((l) => l.baseline.mean_cosine);
  $('#drift-cosine').innerHTML = driftCosineSvg(cos, base);
  $('#drift-pca').innerHTML = driftPcaSvg(r.pca_xy, names);
  $('#drift-variance').textContent =
    `(${(100 * r.pca_variance_ratio[0]).toFixed(0)}% + ${(100 * r.pca_variance_ratio[1]).toFixed(0)}% of the variance)`;
  const z = r.layer0;
  $('#drift-note').textContent = !z.same_token
    ? 'The two occurrences are different tokens, so layer 0 differs by their rows of E too.'
    : z.learned_positions
      ? `Layer 0 is the same row of E plus each position's row: its cosine ${fmt(cos[0])} is the position term alone ` +
        `(the position rows differ by ${fmt(z.position_term_norm)}; the token row's norm is ${fmt(z.token_row_norm)}). ` +
        'The lookup knows no context; the blocks bring it in.'
      : `Layer 0 is the row of E alone (RoPE puts positions inside attention), identical in both contexts (cosine ${fmt(cos[0])}).`;
  const last = r.layers[r.layers.length - 1];
  if (last.baseline)
    $('#drift-note').textContent += ` At the last layer two random positions already have cosine ` +
      `${fmt(last.baseline.mean_cosine, 3)} (the dashed line, over ${last.baseline.pairs} pairs of the ` +
      `${last.baseline.rows} positions): set beside it, the pair's ${fmt(last.cosine, 3)} is ${fmt(last.adjusted, 3)} ` +
      'on a scale where 0 is chance and 1 the same direction.';
  const head = r.contexts.map((c, i) =>
    `<th class="drift-${'ab'[i]}">${'AB'[i]}: nearest rows of E</th><th class="drift-${'ab'[i]}">${'AB'[i]}: logit lens</th>`).join('');
  $('#drift-contexts').innerHTML = r.contexts.map((c, i) =>
    `<div class="drift-${'ab'[i]}">${'AB'[i]}: “${esc(c.text)}” — '${tokenHtml(r)}' is token ${c.position + 1} of ${c.ids.length} (id ${c.id})</div>`).join('');
  $('#drift-layers').innerHTML =
    `<tr><th class="num">layer</th><th class="num">cosine</th>` +
    `<th class="num" title="mean cosine of random pairs of positions at this layer, ± its spread">baseline</th>` +
    `<th class="num" title="(cosine − baseline) / (1 − baseline): 0 is as alike as two random positions">adjusted</th>${head}</tr>` +
    r.layers.map((l) => `<tr data-layer="${l.layer}"><td class="num">${l.layer}</td><td class="num cos">${fmt(l.cosine)}</td>` +
      `<td class="num base">${l.baseline ? `${fmt(l.baseline.mean_cosine, 3)} ± ${fmt(l.baseline.std_cosine, 3)}` : '—'}</td>` +
      `<td class="num adj">${fmt(l.adjusted)}</td>` +
      l.contexts.map((c) => `<td>${driftWords(c.nearest)}</td><td>${driftWords(c.lens)}</td>`).join('') + '</tr>').join('');
  $('#drift-result').hidden = false;
  $('#drift-prompt').hidden = true;
}
clears.drift = () => {
  $('#drift-result').hidden = true;
  for (const id of ['#drift-cosine', '#drift-pca', '#drift-contexts', '#drift-layers']) $(id).innerHTML = '';
  $('#drift-prompt').hidden = false;
};

// Whether the server has a model: the form is for a server started with --model; otherwise say how to start one.
async function driftModel() {
  try {
    const m = await api('model');
    $('#drift-model').textContent = `${m.model_type}: ${m.layers} layers, d ${m.d}, V ${m.V}, context ${m.context}, ` +
      `${m.tied ? 'tied head' : 'untied head'}, ${m.parameters.toLocaleString()} parameters · ${m.source}`;
    $('#drift-nomodel').hidden = true;
    $('#drift-form button').disabled = false;
  } catch (e) {
    $('#drift-nomodel').hidden = false;
    $('#drift-prompt').hidden = true;
    $('#drift-form button').disabled = true;
  }
}

$('#drift-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  request('drift', async () => {
    const r = await runJob('drift', 'drift', {
      token: $('#drift-token').value.trim(), contexts: [$('#drift-a').value, $('#drift-b').value],
      k: Number($('#drift-k').value),
    });
    $('#drift-status').textContent = `'${tokenText(r)}' through ${r.layers.length - 1} blocks`;
    showDrift(r);
  });
});
driftModel();
