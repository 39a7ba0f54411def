// js-tiktoken's side of bench/compare_tokenize.py: encodes every line of FILE with the gpt2 encoding, one
// thread, best of REPEAT passes (the first pass also warms the JIT). Prints one JSON line.
// usage: node compare_tokenize.js NODE_MODULES FILE [REPEAT]
const fs = require("fs");
const path = require("path");
const [nodeModules, file, repeatArg] = process.argv.slice(2);
const { getEncoding } = require(path.resolve(nodeModules, "js-tiktoken"));
const enc = getEncoding("gpt2");
const text = fs.readFileSync(file, "utf8");
const lines = text.split("\n");
if (lines.length && lines[lines.length - 1] === "") lines.pop();
const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l, "utf8"), 0);
let best = Infinity, tokens = 0;
for (let r = 0; r < Number(repeatArg || 3); ++r) {
  const t0 = process.hrtime.bigint();
  let n = 0;
  for (const l of lines) n += enc.encode(l, [], []).length;
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  best = Math.min(best, s);
  tokens = n;
}
console.log(JSON.stringify({ lines: lines.length, bytes, tokens, seconds: best, mb_per_s: bytes / 1e6 / best }));
