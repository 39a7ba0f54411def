#!/usr/bin/python3
"""The library's stated rules, checked over the source tree (scripts/check-rules.sh runs it in the test command).

1. The library names no CLI flag: no string literal in src/ or include/ spells "--name". An error that suggests an
   option names it as OptionText's "{name}", and each face spells it (the CLI "--name", Python "name=").
2. Case folding goes through core/text_fold (lower_case, ascii_lower, unicode_upper): no tolower/toupper anywhere
   else in src/, apps/ or python/.
3. Every BLAS/LAPACK call goes through one module, src/linalg (lumen/linalg/blas.hpp), whose calls each take the
   thread guard (ScopedBlasThreads), so that no BLAS result depends on the thread count an earlier call left
   behind: nothing else includes cblas.h or lapacke.h (the library, the faces, the benchmarks and the tests but
   the module's own).
4. Modules point one way: a module's sources (src/M/, include/lumen/M/) include lumen headers only of the modules
   its lumen_module(M DEPS ...) line in CMakeLists.txt reaches (directly or through them), so io, for one, needs
   nothing above core.

Usage: check_rules.py [ROOT]      check the tree at ROOT (default: the repository)
       check_rules.py --self-test plant one violation of each rule in a scratch tree and show each is caught
"""
import pathlib
import re
import sys
import tempfile

SOURCES = (".cpp", ".hpp", ".h", ".cc")
FOLDING_HOME = "src/core/text_fold.cpp"
BLAS_HOMES = ("src/linalg/", "tests/linalg/")

STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
FLAG = re.compile(r'(?:^|[\s(`\'"\[/,])--[a-z][a-z0-9-]*')
FOLD = re.compile(r'\b(?:std::)?(?:tolower|toupper|towlower|towupper)\s*\(')
BLAS_INCLUDE = re.compile(r'#\s*include\s*[<"](?:cblas|lapacke)\.h[>"]')
MODULE_LINE = re.compile(r'lumen_module\(\s*([a-z]+)\b([^)]*)\)', re.S)
LUMEN_INCLUDE = re.compile(r'#\s*include\s*"lumen/([a-z]+)/')


def module_reach(root):
    """{module: every module it may use}, from CMakeLists.txt's lumen_module(NAME DEPS lumen_x ...) lines."""
    cmake = root / "CMakeLists.txt"
    deps = {}
    if cmake.exists():
        for m in MODULE_LINE.finditer(cmake.read_text(encoding="utf-8", errors="replace")):
            deps[m.group(1)] = set(re.findall(r'\blumen_([a-z]+)\b', m.group(2)))
    reach = {}

    def walk(m, seen):
        for d in deps.get(m, ()):
            if d not in seen:
                seen.add(d)
                walk(d, seen)
        return seen

    for m in deps:
        reach[m] = walk(m, {m})
    return reach


def code_only(text):
    """The text with // and /* */ comments blanked (string literals kept; raw strings are not used here)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            chunk = text[i:n if j < 0 else j + 2]
            out.append("\n" * chunk.count("\n"))
            i = n if j < 0 else j + 2
        elif text[i] == '"':
            m = STRING.match(text, i)
            if not m:
                out.append(text[i])
                i += 1
                continue
            out.append(m.group(0))
            i = m.end()
        elif text[i] == "'" and i + 2 < n:  # a char literal such as '"' must not open a string
            j = text.find("'", i + 1 if text[i + 1] != "\\" else i + 3)
            j = i + 1 if j < 0 else j
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def files(root, *dirs):
    for d in dirs:
        base = root / d
        if base.is_dir():
            yield from sorted(p for p in base.rglob("*") if p.suffix in SOURCES and p.is_file())


def check(root):
    root = pathlib.Path(root)
    problems = []
    for p in files(root, "src", "include"):
        code = code_only(p.read_text(encoding="utf-8", errors="replace"))
        for lineno, line in enumerate(code.split("\n"), 1):
            for s in STRING.findall(line):
                if FLAG.search(s[1:-1]):
                    problems.append(f"{p.relative_to(root)}:{lineno}: the library names a CLI flag in {s}; "
                                    "name the option as OptionText's {name} and let each face spell it")
    for p in files(root, "src", "include", "apps", "python"):
        rel = str(p.relative_to(root))
        if rel == FOLDING_HOME:
            continue
        code = code_only(p.read_text(encoding="utf-8", errors="replace"))
        for lineno, line in enumerate(code.split("\n"), 1):
            if FOLD.search(line):
                problems.append(f"{rel}:{lineno}: case folding outside core/text_fold; use lumen::lower_case "
                                "(words) or lumen::ascii_lower (extensions, format and header names)")
    for p in files(root, "src", "include", "apps", "python", "bench", "tests", "fuzz"):
        rel = str(p.relative_to(root))
        if rel.startswith(BLAS_HOMES):
            continue
        if BLAS_INCLUDE.search(code_only(p.read_text(encoding="utf-8", errors="replace"))):
            problems.append(f"{rel}: includes cblas.h or lapacke.h; call BLAS and LAPACK through lumen/linalg/blas.hpp "
                            "(each call takes its ScopedBlasThreads)")
    reach = module_reach(root)
    for m, floor in (("core", {"core"}), ("io", {"core", "io"})):  # the readers stay light (CONTRIBUTING.md)
        if m in reach and reach[m] - floor:
            problems.append(f"CMakeLists.txt: module {m} depends on {', '.join(sorted(reach[m] - floor))}; "
                            f"{m} may use only {', '.join(sorted(floor))}")
    for m, allowed in sorted(reach.items()):
        for p in files(root, f"src/{m}", f"include/lumen/{m}"):
            code = code_only(p.read_text(encoding="utf-8", errors="replace"))
            for lineno, line in enumerate(code.split("\n"), 1):
                used = LUMEN_INCLUDE.search(line)
                if used and used.group(1) in reach and used.group(1) not in allowed:
                    problems.append(f"{p.relative_to(root)}:{lineno}: module {m} includes lumen/{used.group(1)}/, "
                                    f"which its DEPS in CMakeLists.txt do not reach; move the code up, or the "
                                    "piece it needs down")
    return problems


def self_test():
    planted = {
        "src/io/a.cpp": 'void f() { throw UsageError("name it with --format"); }\n',
        "src/serve/b.cpp": "char c = static_cast<char>(std::tolower(x));\n",
        "src/eval/c.cpp": "#include <cblas.h>\nvoid g() { const ScopedBlasThreads b(1); cblas_sdot(1, 0, 1, 0, 1); }\n",
        "tests/model/d.cpp": "#include <lapacke.h>\n",
        "src/io/e.cpp": '#include "lumen/text/tokenizer.hpp"\n',
        "CMakeLists.txt": "lumen_module(core DEPS fmt::fmt)\nlumen_module(io DEPS lumen_core lumen_text)\n"
                          "lumen_module(text DEPS lumen_core)\n",
    }
    clean = {
        "src/io/ok.cpp": '// a comment may say --format\nvoid f() { throw InputError(OptionText{"with {format}", {"format"}}); }\n'
                         "char q = '\"'; const char* s = \"x -- y\";\n",
        "src/core/text_fold.cpp": "int lower(int c) { return std::tolower(c); }\n",
        "src/linalg/blas.cpp": "#include <cblas.h>\n#include <lapacke.h>\n",
        "src/eval/ok.cpp": '#include "lumen/linalg/blas.hpp"\n// not <cblas.h>: this says why\n',
        "src/text/ok.cpp": '#include "lumen/io/open.hpp"\n#include "lumen/core/table.hpp"\n',
        "CMakeLists.txt": "lumen_module(core DEPS fmt::fmt)\nlumen_module(io DEPS lumen_core)\n"
                          "lumen_module(text DEPS lumen_core lumen_io\n  PkgConfig::PCRE2)\nlumen_module(linalg DEPS lumen_core)\n"
                          "lumen_module(eval DEPS lumen_linalg)\n",
    }
    ok = True
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d)
        for name, text in clean.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        if check(root):
            print("self-test: a clean tree was flagged:", *check(root), sep="\n  ")
            ok = False
        for name, text in planted.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
            found = [p for p in check(root) if p.startswith(name)]
            print(f"self-test: planted {name}: {'caught' if found else 'MISSED'}")
            ok = ok and bool(found)
            if name in clean:
                (root / name).write_text(clean[name])  # a planted file that replaced a clean one
            else:
                (root / name).unlink()
    return ok


def main():
    if sys.argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    root = sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    problems = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-rules: {len(problems)} broken rule(s) above", file=sys.stderr)
        return 1
    print("check-rules: the library names no flag, folds case in one place, calls BLAS through one guarded module, "
          "and its modules point one way")
    return 0


if __name__ == "__main__":
    sys.exit(main())
