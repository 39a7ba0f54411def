#!/usr/bin/python3
"""lumen gpt against PyTorch: parity of the logits live, and the speed of a GPT-2-small-shaped forward.

1. Parity: fresh tiny random GPT-2 (tied) and Llama (untied, grouped-query, two shards) checkpoints are written to a
   temporary directory by tests/data/model/make_fixtures.py (its own PyTorch reference implementations, float64);
   `lumen gpt DIR TEXT --json --top V` gives every next-token logit, compared with the reference on the same ids.
2. Speed: a GPT-2-small-shaped forward (V 50257, d 768, 12 layers, 12 heads; random weights) over 1 x 1024 tokens,
   logits for all 1024 positions, lumen (bench/bench_model) against a plain PyTorch f32 implementation of the same
   architecture (torch.no_grad, torch.set_num_threads at the same count), alternating rounds, each side's best.
   Also this machine's sgemm peak (2048^3, OpenBLAS, same threads) and the GFLOP/s of each side against it.

3. Training (--train): one optimizer step (forward, backward, gradient clipping at 1.0, AdamW) of the tiny GPT of
   `lumen train gpt` (V 50257, d 128, 4 layers, 4 heads, context 128, batch 8), tied and untied: lumen
   (bench/bench_model BM_GptTrainStep*) against the same step in PyTorch (autograd, torch.optim.AdamW,
   clip_grad_norm_), same threads, alternating rounds, each side's best. Before it, parity of a model that
   `lumen train gpt` wrote: its model.safetensors through make_fixtures.gpt2_forward (float64) against `lumen gpt`.

Run with Debian's Python (python3-torch): /usr/bin/python3 bench/compare_gpt.py --build build --threads 2
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


def lumen_times(build, threads):
    exe = find(build, "bench_model")
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([exe, "--benchmark_format=json"], env=env, check=True, capture_output=True, text=True).stdout
    t = {}
    for b in json.loads(out)["benchmarks"]:
        t[b["run_name"].split("/")[0]] = b["real_time"] / 1e3
    return t


def torch_forward_time(threads, rounds):
    import torch
    torch.set_num_threads(threads)
    V, C, L, H, T, F = 50257, 768, 12, 12, 1024, 3072
    hs = C // H
    g = torch.Generator().manual_seed(1)
    r = lambda *s, std=0.02: torch.randn(*s, generator=g) * std
    wte, wpe = r(V, C), r(1024, C, std=0.01)
    blocks = [dict(w_attn=r(C, 3 * C), b_attn=torch.zeros(3 * C), w_proj=r(C, C), b_proj=torch.zeros(C),
                   w_fc=r(C, F), b_fc=torch.zeros(F), w_fc2=r(F, C), b_fc2=torch.zeros(C)) for _ in range(L)]
    ones, zeros = torch.ones(C), torch.zeros(C)
    ids = torch.randint(0, V, (T,), generator=g)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    ln = torch.nn.functional.layer_norm

    def forward():
        x = wte[ids] + wpe[:T]
        for b in blocks:
            a = ln(x, (C,), ones, zeros)
            q, k, v = torch.addmm(b["b_attn"], a, b["w_attn"]).split(C, dim=-1)
            q, k, v = (z.view(T, H, hs).transpose(0, 1) for z in (q, k, v))
            s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(hs))
            s = s.masked_fill(~mask, float("-inf")).softmax(-1)
            y = (s @ v).transpose(0, 1).reshape(T, C)
            x = x + torch.addmm(b["b_proj"], y, b["w_proj"])
            m = ln(x, (C,), ones, zeros)
            m = torch.nn.functional.gelu(torch.addmm(b["b_fc"], m, b["w_fc"]), approximate="tanh")
            x = x + torch.addmm(b["b_fc2"], m, b["w_fc2"])
        return ln(x, (C,), ones, zeros) @ wte.T  # (T, V)

    with torch.no_grad():
        forward()
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            forward()
            best = min(best, time.perf_counter() - start)
    return best, torch.__version__


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
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - start)
    return best


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


def main():
    print(machine.describe())
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory holding lumen and bench/bench_model")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="threads for both (default: all cores)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating lumen/torch rounds (each side keeps its best)")
    ap.add_argument("--no-parity", action="store_true", help="skip the live parity check")
    ap.add_argument("--train", action="store_true", help="the training-step comparison (3.) instead of 1. and 2.")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.exit("torch is not installed: bench/setup-peers.sh installs Debian's python3-torch")
    if a.train:
        return train_main(a)
    ok = True if a.no_parity else parity(a.build)
    print(f"load before the speed runs: {os.getloadavg()[0]:.2f} (1-minute average, {os.cpu_count()} cores)")
    lt, tt = {}, float("inf")
    for _ in range(a.rounds):
        for k, v in lumen_times(a.build, a.threads).items():
            lt[k] = min(lt.get(k, float("inf")), v)
        t, version = torch_forward_time(a.threads, 2)
        tt = min(tt, t)
    # FLOPs as lumen counts them (Transformer::flops): 2 per multiply-add, causal attention as half the square.
    C, L, T, V, F = 768, 12, 1024, 50257, 3072
    flops = L * (2.0 * T * (C * 3 * C + C * C + 2 * C * F) + 2.0 * 2.0 * C * T * (T + 1) / 2) + 2.0 * T * V * C
    peak = 2.0 * 2048 ** 3 / lt["BM_SgemmPeak"]
    ours = lt["BM_Gpt2SmallForward"]
    print(f"GPT-2 small shape, 1 x {T} tokens, all logits; {a.threads} threads (lumen + OpenBLAS; torch {version}); "
          f"best of {a.rounds} alternating rounds")
    print(f"sgemm peak (2048^3, OpenBLAS): {peak / 1e9:.1f} GFLOP/s")
    print(f"lumen forward {ours:7.3f} s  {flops / ours / 1e9:6.1f} GFLOP/s ({100 * flops / ours / peak:.0f}% of peak); "
          f"head alone {lt['BM_Gpt2SmallHead']:.3f} s; next-token logits only {lt['BM_Gpt2SmallForwardLastLogits']:.3f} s")
    print(f"torch forward {tt:7.3f} s  {flops / tt / 1e9:6.1f} GFLOP/s ({100 * flops / tt / peak:.0f}% of peak)")
    ratio = tt / ours
    print(f"ratio {ratio:.2f}x (torch time / lumen time)  target >= 1.5x: {'met' if ratio >= 1.5 else 'MISSED'}")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
