#!/usr/bin/env python3
"""What the test-tampering analysis costs `astrix check`, and that it costs nothing when no
rule needs it (issue 4).

Generates one repository: FILES files, of which RUST_FILES are Rust sources of ~200 lines
with a `#[cfg(test)]` module of 20 tests, in one commit. It stages CHANGED edits to those
Rust files (in every fourth one a test is deleted, in the others a test is renamed and an
assertion edited), then times `astrix check` (as a human, so that no approval is looked up)
under three policies, alternately after a warm-up:

  none     a paths rule only: no `modifies_tests` condition, no tampering argument, no line
           counts. The analysis must not run: no blob is read.
  tamper   the same and a rule `tests_removed <= 0`: the analysis runs.
  default  the built-in default policy (line counts and the analysis).

Prints the median wall time and the median user+system CPU time of each.

Usage: python3 benches/tamper.py [--astrix PATH] [--runs N] [--changed N] [--keep DIR]
(default astrix: target/release/astrix; build it with `cargo build --release` first).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchenv import git_env

FILES = 20_000
RUST_FILES = 1_000
TESTS_PER_FILE = 20

NO_TAMPER_POLICY = """version = 1

[[rule]]
id = "agents-ci-config"
actor = ["autonomous_llm"]
paths = [".github/**"]
decision = "require_approval"
reason = "a human signs off on CI configuration changed by an agent"
"""

TAMPER_RULE = """
[[rule]]
id = "agents-removing-tests"
actor = ["autonomous_llm"]
policy = "tests_removed <= 0"
reason = "an agent removed tests"
"""


def run(args, cwd, env):
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
    return result.stdout.decode().strip()


def rust_module(index, changed=False):
    lines = [f"//! Module {index}.", "", f"pub fn value_{index}(x: i64) -> i64 {{", "    x + 1", "}", ""]
    lines += ["#[cfg(test)]", "mod tests {", "    use super::*;", ""]
    for t in range(TESTS_PER_FILE):
        if changed and index % 4 == 0 and t == 3:
            continue  # a deleted test
        name = f"case_{t}"
        expected = f"{t} + 1"
        if changed and index % 4 != 0 and t == 5:
            name, expected = "case_five", "6"
        lines += [
            "    #[test]",
            f"    fn {name}() {{",
            f"        // case {t}: \"quoted\" /* not a comment */",
            f"        assert_eq!(value_{index}({t}), {expected});",
            "    }",
            "",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def rust_path(index):
    return f"crates/c{index // 100:02}/src/m{index % 100:02}.rs"


def build(root, env, changed):
    os.makedirs(root)
    run(["git", "init", "-q", "-b", "feature"], root, env)
    # No background maintenance holding the index lock between the steps.
    run(["git", "config", "gc.auto", "0"], root, env)
    run(["git", "config", "maintenance.auto", "false"], root, env)
    for i in range(FILES - RUST_FILES):
        path = os.path.join(root, f"data/d{i // 1000:02}/f{i % 1000:03}.txt")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(f"filler {i}\n" * 20)
    for i in range(RUST_FILES):
        path = os.path.join(root, rust_path(i))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(rust_module(i))
    with open(os.path.join(root, "Astrixfile.ax"), "w") as out:
        out.write(NO_TAMPER_POLICY)
    run(["git", "add", "-A"], root, env)
    run(["git", "commit", "-q", "-m", "base"], root, env)
    run(["git", "gc", "-q"], root, env)
    base = run(["git", "rev-parse", "HEAD"], root, env)
    # The same commit with the other policies.
    with open(os.path.join(root, "Astrixfile.ax"), "w") as out:
        out.write(NO_TAMPER_POLICY + TAMPER_RULE)
    run(["git", "commit", "-q", "-am", "tamper rule"], root, env)
    tamper = run(["git", "rev-parse", "HEAD"], root, env)
    run(["git", "rm", "-q", "Astrixfile.ax"], root, env)
    run(["git", "commit", "-q", "-m", "default policy"], root, env)
    default = run(["git", "rev-parse", "HEAD"], root, env)
    run(["git", "reset", "-q", "--hard", base], root, env)
    for i in range(changed):
        with open(os.path.join(root, rust_path(i)), "w") as out:
            out.write(rust_module(i, changed=True))
    run(["git", "add", "-A"], root, env)
    return {"none": base, "tamper": tamper, "default": default}


def use_policy(root, env, commit):
    """HEAD at `commit`, with its Astrixfile.ax (or none) in the index; the rest staged."""
    run(["git", "reset", "-q", "--soft", commit], root, env)
    has_policy = run(["git", "ls-tree", "--name-only", commit, "Astrixfile.ax"], root, env)
    if has_policy:
        run(["git", "checkout", commit, "--", "Astrixfile.ax"], root, env)
    else:
        run(["git", "rm", "-q", "--cached", "--ignore-unmatch", "Astrixfile.ax"], root, env)


def timed(args, cwd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 3):
        sys.exit(f"{' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--astrix", default="target/release/astrix")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--changed", type=int, default=400)
    parser.add_argument("--keep")
    args = parser.parse_args()
    astrix = os.path.abspath(args.astrix)
    temp = args.keep or tempfile.mkdtemp(prefix="astrix-tamper-bench-")
    root = os.path.join(temp, "repo")
    env = git_env(temp)
    try:
        commits = build(root, env, args.changed)
        staged = run(["git", "diff", "--cached", "--name-only"], root, env).splitlines()
        print(f"{FILES} files, {len(staged)} staged changes ({args.changed} Rust files)")
        samples = {name: [] for name in commits}
        for round_ in range(args.runs + 1):
            for name, commit in commits.items():
                use_policy(root, env, commit)
                wall, cpu = timed([astrix, "check"], root, env)
                if round_ > 0:  # the first round warms the caches up
                    samples[name].append((wall, cpu))
        use_policy(root, env, commits["tamper"])
        intent = run([astrix, "intent"], root, env)
        print("intent under the tamper policy:", " ".join(intent.split())[-140:])
        for name, values in samples.items():
            wall = statistics.median(v[0] for v in values) * 1000
            cpu = statistics.median(v[1] for v in values) * 1000
            print(f"{name:8} median wall {wall:7.1f} ms   median cpu {cpu:7.1f} ms")
    finally:
        if not args.keep:
            shutil.rmtree(temp)


if __name__ == "__main__":
    main()
