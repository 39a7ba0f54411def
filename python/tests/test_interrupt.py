"""Ctrl-C during a long call: the call stops and raises KeyboardInterrupt (a subprocess sent SIGINT)."""
import os
import signal
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import sys, time
import numpy as np
import lumen
questions = sys.argv[1] + "/questions-words.txt"
words = sorted({w for line in open(questions) if not line.startswith(":") for w in line.split()})
V = 1_000_000  # every question against 1M rows: about 15 s uninterrupted (2 loaded cores), stopped in well under 3
vectors = np.random.default_rng(0).standard_normal((V, 8), dtype=np.float32)
t = lumen.Table.from_array(vectors, words + [f"pad{i}" for i in range(V - len(words))])
print("ready", flush=True)
t0 = time.time()
try:
    lumen.eval.analogies(t, questions, restrict=0, case_sensitive=True)
    print(f"finished {time.time() - t0}", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {time.time() - t0}", flush=True)
    sys.exit(3)
"""


def test_ctrl_c_raises_keyboard_interrupt(data):
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=os.environ)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 3, (out, err)
    # Stopped inside the call (between two blocks of rows), not when it returned.
    word, stopped = out.split()
    assert word == "interrupted" and float(stopped) < 3.0, out
