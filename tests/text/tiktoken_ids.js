// The oracle for tests/text/test_parity_tiktoken.cpp: js-tiktoken's gpt2 ids for each string of a JSON array.
// usage: node tiktoken_ids.js NODE_MODULES IN.json OUT.json   (special tokens are ordinary text here)
const fs = require("fs");
const path = require("path");
const [nodeModules, inPath, outPath] = process.argv.slice(2);
const { getEncoding } = require(path.resolve(nodeModules, "js-tiktoken"));
const enc = getEncoding("gpt2");
const lines = JSON.parse(fs.readFileSync(inPath, "utf8"));
const out = lines.map((s) => enc.encode(s, [], []));
fs.writeFileSync(outPath, JSON.stringify(out));
