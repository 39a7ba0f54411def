#!/usr/bin/python3
"""Tiny random GPT-2 and Llama checkpoints in Hugging Face layout, and the logits a PyTorch reference gives on them.

The reference models below are written here from the published architectures (GPT-2: Radford et al. 2019, pre-norm
LayerNorm, learned positions, GELU tanh MLP, Conv1D weights stored (in, out); Llama: Touvron et al. 2023, RMSNorm,
RoPE in the rotate-half layout of Hugging Face checkpoints, grouped-query attention, SwiGLU MLP). They compute in
float64 on the weights exactly as stored (bf16/f16 values widened), so the expected logits are the architecture's,
not another f32 implementation's rounding. Each forward also hands back, when asked, its residual stream at every
layer (layer 0 the input to block 0, layer i the stream after block i, before the final norm): lumen's keep_layers.

Run with Debian's python3 and python3-torch:  /usr/bin/python3 tests/data/model/make_fixtures.py
It rewrites tests/data/model/{gpt2,gpt2-untied-bf16,llama-sharded,llama-tied-f16}/ deterministically (seed 15).
"""
import json
import math
import os
import struct
from collections import Counter

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
V = 300  # 256 byte tokens + 44 merges
CONTEXT = 32


# ---- the tokenizer: byte-level BPE (GPT-2's byte alphabet), merges learned from a few sentences ----------------
def bytes_to_unicode():
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    table, n = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + n)
            n += 1
    return table


def make_tokenizer():
    b2u = bytes_to_unicode()
    text = ("the river bank was muddy . the bank approved the loan . the river ran past the bank and the boat "
            "sank in the mud . the loan was approved by the bank . ") * 4
    words = Counter()
    for i, w in enumerate(text.split(" ")):
        if w:
            words[("" if i == 0 else " ") + w] += 1
    seqs = {w: [b2u[b] for b in w.encode()] for w in words}
    vocab = {b2u[b]: b for b in range(256)}
    merges = []
    while len(vocab) < V:
        pairs = Counter()
        for w, s in seqs.items():
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] += words[w]
        (a, b), _ = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))
        merges.append(f"{a} {b}")
        vocab[a + b] = len(vocab)
        for w, s in seqs.items():
            out, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and s[i] == a and s[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            seqs[w] = out
    return {"version": "1.0", "added_tokens": [], "normalizer": None,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "vocab": vocab, "merges": merges}}


# ---- safetensors, written by hand --------------------------------------------------------------------------------
def to_bf16_bits(a):
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def stored(a, dtype):
    """The array as the file will hold it, and its values widened back to float64."""
    a = np.asarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.tobytes(), a.astype(np.float64)
    if dtype == "F16":
        h = a.astype(np.float16)
        return h.tobytes(), h.astype(np.float64)
    bits = to_bf16_bits(a)
    return bits.tobytes(), (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def write_safetensors(path, tensors):
    """tensors: list of (name, dtype, shape, raw bytes)."""
    header, off, blobs = {}, 0, []
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        off += len(raw)
        blobs.append(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


class Checkpoint:
    """Random weights under their Hugging Face names, kept as stored (dtype) and as float64 for the reference."""

    def __init__(self, rng, dtype):
        self.rng, self.dtype, self.items, self.ref = rng, dtype, [], {}

    def add(self, name, shape, scale, mean=0.0):
        a = mean + scale * self.rng.standard_normal(shape)
        raw, wide = stored(a, self.dtype)
        self.items.append((name, self.dtype, shape, raw))
        self.ref[name] = torch.from_numpy(wide)
        return self.ref[name]

    def add_buffer(self, name, array):  # stored as F32, not a parameter
        a = np.asarray(array, dtype=np.float32)
        self.items.append((name, "F32", a.shape, a.tobytes()))


# ---- GPT-2 ---------------------------------------------------------------------------------------------------------
def gpt2_forward(w, cfg, ids, prefix, layers=None):
    """The logits (T, V); layers, if a list, receives the residual stream (T, C) at each of the n_layer + 1 layers."""
    C, H, L = cfg["n_embd"], cfg["n_head"], cfg["n_layer"]
    hs, eps = C // H, cfg["layer_norm_epsilon"]
    p = lambda n: w[prefix + n]
    T = len(ids)
    ids_t = torch.tensor(ids)

    def ln(x, g, b):
        m = x.mean(-1, keepdim=True)
        v = ((x - m) ** 2).mean(-1, keepdim=True)
        return (x - m) / torch.sqrt(v + eps) * g + b

    def gelu(x):
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))

    keep = layers.append if layers is not None else lambda _: None
    x = p("wte.weight")[ids_t] + p("wpe.weight")[:T]
    keep(x)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for i in range(L):
        h = f"h.{i}."
        a = ln(x, p(h + "ln_1.weight"), p(h + "ln_1.bias"))
        qkv = a @ p(h + "attn.c_attn.weight") + p(h + "attn.c_attn.bias")  # Conv1D: x @ W, W (in, out)
        q, k, v = qkv.split(C, dim=-1)
        q, k, v = (z.view(T, H, hs).transpose(0, 1) for z in (q, k, v))  # (H, T, hs)
        s = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        s = s.masked_fill(~mask, float("-inf"))
        y = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(T, C)
        x = x + y @ p(h + "attn.c_proj.weight") + p(h + "attn.c_proj.bias")
        m = ln(x, p(h + "ln_2.weight"), p(h + "ln_2.bias"))
        m = gelu(m @ p(h + "mlp.c_fc.weight") + p(h + "mlp.c_fc.bias"))
        x = x + m @ p(h + "mlp.c_proj.weight") + p(h + "mlp.c_proj.bias")
        keep(x)
    x = ln(x, p("ln_f.weight"), p("ln_f.bias"))
    head = w["lm_head.weight"] if not cfg["tie_word_embeddings"] else p("wte.weight")
    return x @ head.T


def make_gpt2(name, seed, dtype, prefix, tied):
    rng = np.random.default_rng(seed)
    C, H, L, F = 32, 4, 2, 128
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": V, "n_embd": C, "n_layer": L,
           "n_head": H, "n_positions": CONTEXT, "n_ctx": CONTEXT, "n_inner": None, "activation_function": "gelu_new",
           "layer_norm_epsilon": 1e-5, "tie_word_embeddings": tied}
    ck = Checkpoint(rng, dtype)
    ck.add(prefix + "wte.weight", (V, C), 0.3)
    ck.add(prefix + "wpe.weight", (CONTEXT, C), 0.1)
    for i in range(L):
        h = prefix + f"h.{i}."
        ck.add(h + "ln_1.weight", (C,), 0.1, 1.0)
        ck.add(h + "ln_1.bias", (C,), 0.05)
        ck.add_buffer(h + "attn.bias", np.tril(np.ones((1, 1, CONTEXT, CONTEXT))))  # the causal mask buffer
        ck.add(h + "attn.c_attn.weight", (C, 3 * C), 0.25)
        ck.add(h + "attn.c_attn.bias", (3 * C,), 0.05)
        ck.add(h + "attn.c_proj.weight", (C, C), 0.15)
        ck.add(h + "attn.c_proj.bias", (C,), 0.05)
        ck.add(h + "ln_2.weight", (C,), 0.1, 1.0)
        ck.add(h + "ln_2.bias", (C,), 0.05)
        ck.add(h + "mlp.c_fc.weight", (C, F), 0.2)
        ck.add(h + "mlp.c_fc.bias", (F,), 0.05)
        ck.add(h + "mlp.c_proj.weight", (F, C), 0.1)
        ck.add(h + "mlp.c_proj.bias", (C,), 0.05)
    ck.add(prefix + "ln_f.weight", (C,), 0.1, 1.0)
    ck.add(prefix + "ln_f.bias", (C,), 0.05)
    if not tied:
        ck.add("lm_head.weight", (V, C), 0.3)
    return name, cfg, ck, lambda ids, layers=None: gpt2_forward(ck.ref, cfg, ids, prefix, layers)


# ---- Llama ---------------------------------------------------------------------------------------------------------
def rope_inv_freq(cfg, hs):
    inv = 1.0 / (cfg["rope_theta"] ** (torch.arange(0, hs, 2, dtype=torch.float64) / hs))
    rs = cfg.get("rope_scaling")
    if not rs:
        return inv
    factor, lo, hi, old = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv
    out = torch.where(wavelen > old / lo, inv / factor, inv)
    smooth = (old / wavelen - lo) / (hi - lo)
    smoothed = (1 - smooth) * out / factor + smooth * out
    medium = (wavelen >= old / hi) & (wavelen <= old / lo)
    return torch.where(medium, smoothed, out)


def llama_forward(w, cfg, ids, layers=None):
    """The logits (T, V); layers, if a list, receives the residual stream (T, C) at each of the L + 1 layers."""
    C, H, KV, L = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["num_hidden_layers"]
    hs, eps = C // H, cfg["rms_norm_eps"]
    T = len(ids)

    def rms(x, g):
        return g * (x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps))

    def rotate_half(x):
        return torch.cat((-x[..., hs // 2:], x[..., : hs // 2]), dim=-1)

    freqs = torch.arange(T, dtype=torch.float64)[:, None] * rope_inv_freq(cfg, hs)[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()  # (T, hs)
    keep = layers.append if layers is not None else lambda _: None
    x = w["model.embed_tokens.weight"][torch.tensor(ids)]
    keep(x)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for i in range(L):
        l = f"model.layers.{i}."
        a = rms(x, w[l + "input_layernorm.weight"])
        q = (a @ w[l + "self_attn.q_proj.weight"].T).view(T, H, hs).transpose(0, 1)
        k = (a @ w[l + "self_attn.k_proj.weight"].T).view(T, KV, hs).transpose(0, 1)
        v = (a @ w[l + "self_attn.v_proj.weight"].T).view(T, KV, hs).transpose(0, 1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(H // KV, dim=0)  # query head h reads kv head h // (H/KV)
        v = v.repeat_interleave(H // KV, dim=0)
        s = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        s = s.masked_fill(~mask, float("-inf"))
        y = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(T, C)
        x = x + y @ w[l + "self_attn.o_proj.weight"].T
        m = rms(x, w[l + "post_attention_layernorm.weight"])
        g = m @ w[l + "mlp.gate_proj.weight"].T
        x = x + ((g / (1 + torch.exp(-g))) * (m @ w[l + "mlp.up_proj.weight"].T)) @ w[l + "mlp.down_proj.weight"].T
        keep(x)
    x = rms(x, w["model.norm.weight"])
    head = w["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else w["lm_head.weight"]
    return x @ head.T


def make_llama(name, seed, dtype, tied, theta, scaling):
    rng = np.random.default_rng(seed)
    C, H, KV, L, F = 32, 4, 2, 2, 64
    hs = C // H
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": V, "hidden_size": C,
           "num_hidden_layers": L, "num_attention_heads": H, "num_key_value_heads": KV, "intermediate_size": F,
           "max_position_embeddings": CONTEXT, "rms_norm_eps": 1e-6, "rope_theta": theta, "hidden_act": "silu",
           "tie_word_embeddings": tied, "attention_bias": False, "rope_scaling": scaling}
    ck = Checkpoint(rng, dtype)
    ck.add("model.embed_tokens.weight", (V, C), 0.3)
    for i in range(L):
        l = f"model.layers.{i}."
        ck.add(l + "input_layernorm.weight", (C,), 0.1, 1.0)
        ck.add(l + "self_attn.q_proj.weight", (H * hs, C), 0.25)
        ck.add(l + "self_attn.k_proj.weight", (KV * hs, C), 0.25)
        ck.add(l + "self_attn.v_proj.weight", (KV * hs, C), 0.2)
        ck.add(l + "self_attn.o_proj.weight", (C, H * hs), 0.15)
        ck.add(l + "post_attention_layernorm.weight", (C,), 0.1, 1.0)
        ck.add(l + "mlp.gate_proj.weight", (F, C), 0.2)
        ck.add(l + "mlp.up_proj.weight", (F, C), 0.2)
        ck.add(l + "mlp.down_proj.weight", (C, F), 0.15)
    ck.add("model.norm.weight", (C,), 0.1, 1.0)
    if not tied:
        ck.add("lm_head.weight", (V, C), 0.3)
    return name, cfg, ck, lambda ids, layers=None: llama_forward(ck.ref, cfg, ids, layers)


def write_fixture(fixture, tokenizer, shards, root=HERE):
    name, cfg, ck, forward = fixture
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    with open(os.path.join(d, "tokenizer.json"), "w") as f:
        json.dump(tokenizer, f, ensure_ascii=False)
    if shards == 1:
        write_safetensors(os.path.join(d, "model.safetensors"), ck.items)
    else:
        per = math.ceil(len(ck.items) / shards)
        weight_map = {}
        for s in range(shards):
            fname = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
            part = ck.items[s * per:(s + 1) * per]
            write_safetensors(os.path.join(d, fname), part)
            weight_map.update({t[0]: fname for t in part})
        with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": sum(len(t[3]) for t in ck.items)}, "weight_map": weight_map}, f,
                      indent=2)
    rng = np.random.default_rng(7)
    cases = [[5], [116, 104, 101, 32, 98, 97, 110, 107], rng.integers(0, V, CONTEXT).tolist()]
    expected = {"cases": []}
    for i, ids in enumerate(cases):
        layers = []
        with torch.no_grad():
            logits = forward(ids, layers).numpy().astype(np.float32)  # (T, V)
        states = torch.cat(layers).numpy().astype(np.float32)  # ((L + 1) T, C), layer-major
        np.save(os.path.join(d, f"expected_{i}.npy"), logits)
        np.save(os.path.join(d, f"expected_{i}_layers.npy"), states)
        expected["cases"].append({"ids": ids, "logits": f"expected_{i}.npy", "layers": f"expected_{i}_layers.npy"})
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(expected, f)


def main():
    tok = make_tokenizer()
    write_fixture(make_gpt2("gpt2", 15, "F32", "", True), tok, 1)
    write_fixture(make_gpt2("gpt2-untied-bf16", 16, "BF16", "transformer.", False), tok, 1)
    write_fixture(make_llama("llama-sharded", 17, "F32", False, 10000.0, None), tok, 2)
    scaling = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 16}
    write_fixture(make_llama("llama-tied-f16", 18, "F16", True, 500000.0, scaling), tok, 1)


def write_fuzz_seeds():
    """Seeds for fuzz/fuzz_model_checkpoint: config.json, a NUL byte, model.safetensors; tiny shapes."""
    out = os.path.join(HERE, "..", "..", "..", "fuzz", "corpus", "fuzz_model_checkpoint")
    os.makedirs(out, exist_ok=True)
    global V, CONTEXT
    saved = V, CONTEXT
    V, CONTEXT = 8, 4
    try:
        for name, fixture in (("gpt2", make_gpt2_small(3)), ("llama", make_llama_small(4, "BF16"))):
            _, cfg, ck, _ = fixture
            path = os.path.join(out, name + ".bin")
            write_safetensors(path + ".tmp", ck.items)
            with open(path + ".tmp", "rb") as f:
                st = f.read()
            os.remove(path + ".tmp")
            with open(path, "wb") as f:
                f.write(json.dumps(cfg, separators=(",", ":")).encode() + b"\0" + st)
    finally:
        V, CONTEXT = saved


def make_gpt2_small(seed):
    rng = np.random.default_rng(seed)
    C, H, F = 4, 2, 8
    cfg = {"model_type": "gpt2", "vocab_size": V, "n_embd": C, "n_layer": 1, "n_head": H, "n_positions": CONTEXT, "n_inner": F}
    ck = Checkpoint(rng, "F32")
    ck.add("wte.weight", (V, C), 0.3)
    ck.add("wpe.weight", (CONTEXT, C), 0.1)
    for n, shape in (("ln_1.weight", (C,)), ("ln_1.bias", (C,)), ("attn.c_attn.weight", (C, 3 * C)),
                     ("attn.c_attn.bias", (3 * C,)), ("attn.c_proj.weight", (C, C)), ("attn.c_proj.bias", (C,)),
                     ("ln_2.weight", (C,)), ("ln_2.bias", (C,)), ("mlp.c_fc.weight", (C, F)), ("mlp.c_fc.bias", (F,)),
                     ("mlp.c_proj.weight", (F, C)), ("mlp.c_proj.bias", (C,))):
        ck.add("h.0." + n, shape, 0.2)
    ck.add("ln_f.weight", (C,), 0.1, 1.0)
    ck.add("ln_f.bias", (C,), 0.05)
    return "gpt2", cfg, ck, None


def make_llama_small(seed, dtype):
    rng = np.random.default_rng(seed)
    C, H, KV, F = 4, 2, 1, 8
    cfg = {"model_type": "llama", "vocab_size": V, "hidden_size": C, "num_hidden_layers": 1, "num_attention_heads": H,
           "num_key_value_heads": KV, "intermediate_size": F, "max_position_embeddings": CONTEXT}
    ck = Checkpoint(rng, dtype)
    ck.add("model.embed_tokens.weight", (V, C), 0.3)
    for n, shape in (("input_layernorm.weight", (C,)), ("self_attn.q_proj.weight", (C, C)),
                     ("self_attn.k_proj.weight", (C // 2, C)), ("self_attn.v_proj.weight", (C // 2, C)),
                     ("self_attn.o_proj.weight", (C, C)), ("post_attention_layernorm.weight", (C,)),
                     ("mlp.gate_proj.weight", (F, C)), ("mlp.up_proj.weight", (F, C)), ("mlp.down_proj.weight", (C, F))):
        ck.add("model.layers.0." + n, shape, 0.2)
    ck.add("model.norm.weight", (C,), 0.1, 1.0)
    ck.add("lm_head.weight", (V, C), 0.3)
    return "llama", cfg, ck, None


if __name__ == "__main__":
    main()
    write_fuzz_seeds()
