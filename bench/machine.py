"""The machine a benchmark ran on, printed at the top of every comparison so that a figure names its CPU.

CPU model and core count from /proc/cpuinfo, the SIMD extensions that decide lumen's kernel variant and
OpenBLAS's kernel set, and the OpenBLAS core OpenBLAS chose (or was told to use with OPENBLAS_CORETYPE).
"""
import ctypes
import ctypes.util
import os


def _cpuinfo():
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return model, flags


def _openblas_core():
    for name in ("openblas", "openblas64"):
        path = ctypes.util.find_library(name)
        if not path:
            continue
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib.openblas_get_corename().decode()
        except (OSError, AttributeError):
            continue
    return "unknown"


def describe():
    """One line: model, cores, ISA lumen dispatches to, OpenBLAS core."""
    model, flags = _cpuinfo()
    avx512 = {"avx512f", "avx512bw", "avx512vl", "avx512dq", "fma", "f16c"} <= flags
    avx2 = {"avx2", "fma", "f16c"} <= flags
    isa = "avx512" if avx512 else "avx2" if avx2 else "generic"
    forced = os.environ.get("LUMEN_ISA")
    core = _openblas_core()
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    return (f"CPU: {model}, {os.cpu_count()} cores, lumen kernels {forced or isa}"
            f"{' (forced by LUMEN_ISA)' if forced else ''}, OpenBLAS core {core}"
            f"{' (OPENBLAS_CORETYPE)' if coretype else ''}")


if __name__ == "__main__":
    print(describe())
