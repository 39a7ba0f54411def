// llama.cpp's side of bench/compare_gpt.py, through node-llama-cpp (installed by bench/setup-peers.sh into
// bench/.peers/llama-cpp; its prebuilt CPU binaries, never a compile): loads a GGUF (written by `lumen convert`),
// times prompt processing of the given ids (one sequence, the whole prompt in one batch, the KV cache cleared
// between rounds; best of ROUNDS after one warm-up), then evaluates the ids once more and reads the next-token
// probabilities of the last position (llama.cpp's logits, softmax over the whole vocabulary: temperature 0 is
// node-llama-cpp's greedy sampler, which truncates nothing). Prints one JSON line.
// usage: node llama_cpp_eval.mjs PEER_DIR MODEL.gguf IDS.json THREADS ROUNDS [TOP]
import {createRequire} from "node:module";
import {readFileSync} from "node:fs";
import {pathToFileURL} from "node:url";
import path from "node:path";

const [peerDir, modelPath, idsPath, threadsArg, roundsArg, topArg] = process.argv.slice(2);
const threads = Number(threadsArg), rounds = Number(roundsArg), top = Number(topArg || 5);
const require = createRequire(path.join(path.resolve(peerDir), "package.json"));
const {getLlama} = await import(pathToFileURL(require.resolve("node-llama-cpp")).href);
const ids = JSON.parse(readFileSync(idsPath, "utf8"));
const now = () => Number(process.hrtime.bigint()) / 1e9;

let t0 = now();
const llama = await getLlama({gpu: false, build: "never", logLevel: "error", maxThreads: threads});
const model = await llama.loadModel({modelPath});
// node-llama-cpp keeps one cell free (a sequence holds contextSize - 1 tokens) and shifts the context, erasing the
// first tokens, to make room beyond that: a context of exactly ids.length would evaluate another prompt. One more.
const context = await model.createContext({contextSize: ids.length + 1, batchSize: ids.length, threads});
if (context.contextSize - 1 < ids.length) throw new Error(`context of ${context.contextSize}: ${ids.length} ids do not fit`);
const sequence = context.getSequence();
const load = now() - t0;

const times = [];
for (let r = 0; r < rounds + 1; ++r) {  // the first is a warm-up (first touch of the mapped weights)
  await sequence.clearHistory();
  t0 = now();
  await sequence.evaluateWithoutGeneratingNewTokens(ids);
  times.push(now() - t0);
}
const best = Math.min(...times.slice(1));

await sequence.clearHistory();
const input = [...ids.slice(0, -1), [ids.at(-1), {generateNext: {probabilities: true}}]];
const result = await sequence.controlledEvaluate(input);
const probs = result.at(-1).next.probabilities;  // Map id -> probability, sorted from the most probable
const next = [...probs.entries()].slice(0, top).map(([id, prob]) => ({id, prob}));

console.log(JSON.stringify({
  llama_cpp: llama.llamaCppRelease.release, build: llama.buildType, system: llama.systemInfo.trim(),
  threads: context.currentThreads, context: context.contextSize, batch: context.batchSize,
  flash_attention: context.flashAttention,
  tokens: ids.length, load_s: load, seconds: best, rounds: times.slice(1), warmup_s: times[0], next
}));
await context.dispose();
await model.dispose();
await llama.dispose();
