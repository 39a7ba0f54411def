#!/usr/bin/env python3
"""Runs every `lumen ...` line of README.md's code blocks as written, as a newcomer would after its first command.

Usage: readme_commands.py README BUILD_DIR [--list]

A line counts when it sits in a code block (fenced, or indented four spaces) and starts with `lumen `. It runs under
bash in a scratch folder laid out as a checkout is: `build` there is BUILD_DIR (so `build/default/brown.txt` and
`build/default/gpt` are the build's), `../shared` is the checkout's `../shared` where there is one, and `lumen` on
PATH is BUILD_DIR/lumen. Lines run in README order (a line may use what an earlier one wrote) with stdin empty.

Skipped, each said so: servers (`lumen serve`, they run until stopped), `lumen claims` (minutes; with `--model` it
takes a second and runs), synopsis lines that show a placeholder (`<table>`), and a line that reads a file from
../shared/data where this machine has none (the benchmark files the README says come from gensim's test data). `bash scripts/make-default-gpt.sh`, which the
README says to run before the GPT lines, is run for BUILD_DIR when build/default/gpt is not there yet.

Fails (exit 1) when a line exits non-zero or runs past its time, or when the README has no `lumen` line at all.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 600


def code_lines(text):
    """The lines of README's code blocks: inside ``` fences, or indented four spaces after a blank line."""
    out, fenced, indented, prev_blank = [], False, False, True
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            out.append(line.strip())
            continue
        if line.startswith("    ") and (indented or prev_blank):
            indented = True
            out.append(line.strip())
        elif line.strip():
            indented = False
        prev_blank = not line.strip()
    return out


def commands(readme):
    with open(readme, encoding="utf-8") as f:
        lines = code_lines(f.read())
    return [line for line in lines if line.startswith("lumen ") or line.startswith("bash scripts/make-default-gpt.sh")]


def skip_reason(line, shared):
    words = line.split()
    if len(words) > 1 and words[1] == "serve":
        return "a server: runs until stopped"
    if len(words) > 1 and words[1] == "claims" and "--model" not in words:
        return "lumen claims takes minutes"
    if re.search(r"<[a-z][a-z0-9-]*>", line):
        return "a synopsis with a placeholder"
    for path in re.findall(r"\.\./shared/data/\S+", line):
        if not os.path.exists(os.path.join(shared, "data", path[len("../shared/data/"):])):
            return f"{path} is not on this machine (gensim's test data)"
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    readme, build = os.path.abspath(args[0]), os.path.abspath(args[1])
    source = os.path.dirname(readme)
    shared = os.path.join(os.path.dirname(source), "shared")
    lines = commands(readme)
    if "--list" in sys.argv:
        for line in lines:
            reason = skip_reason(line, shared)
            print(("skip " if reason else "run  ") + line + (f"   ({reason})" if reason else ""))
        return 0
    if not any(line.startswith("lumen ") for line in lines):
        print(f"FAIL no `lumen` line found in {readme}'s code blocks")
        return 1
    if not os.path.exists(os.path.join(build, "default", "brown.vec")):
        print(f"FAIL {build}/default/brown.vec is missing: the README's first command makes it "
              f"(bash scripts/make-default-table.sh {build})")
        return 1

    scratch = tempfile.mkdtemp(prefix="lumen-readme-")
    failures = 0
    try:
        repo = os.path.join(scratch, "repo")
        os.mkdir(repo)
        os.symlink(build, os.path.join(repo, "build"))
        if os.path.isdir(shared):
            os.symlink(shared, os.path.join(scratch, "shared"))
        env = dict(os.environ, PATH=build + os.pathsep + os.environ.get("PATH", ""), LUMEN_THREADS="2")
        for line in lines:
            reason = skip_reason(line, shared)
            if reason:
                print(f"skip {line}   ({reason})")
                continue
            if line.startswith("bash scripts/make-default-gpt.sh"):
                run = ["bash", os.path.join(source, "scripts", "make-default-gpt.sh"), build]
            else:
                run = ["bash", "-c", line]
            t0 = time.monotonic()
            try:
                p = subprocess.run(run, cwd=repo, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
                ok, out = p.returncode == 0, p.stdout.decode("utf-8", "replace")
                why = f"exit {p.returncode}"
            except subprocess.TimeoutExpired as e:
                ok, out, why = False, (e.stdout or b"").decode("utf-8", "replace"), f"over {TIMEOUT_S} s"
            took = time.monotonic() - t0
            if ok:
                print(f"ok   {line}   ({took:.1f} s)")
            else:
                failures += 1
                tail = "\n".join("     | " + l for l in out.strip().splitlines()[-15:])
                print(f"FAIL {line}   ({why}, {took:.1f} s)\n{tail}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{failures} failed" if failures else "all README lines ran")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
