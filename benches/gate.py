#!/usr/bin/env python3
"""Benchmark of the commit gate against git itself (issue 5).

Generates two repositories -- 100,000 files (10x10x10 directories of 100 files, ~30 lines
each, one packed commit) and 100 files -- each with an Astrixfile.ax of 50 rules (path globs
and numeric policies that need line counts). It stages 100 modifications (93 on the 100-file
repository), 5 additions, 5 deletions, one exact rename and one rename with an edit via
`git add <paths>`, then runs
`astrix check` and `git diff --cached --numstat` alternately (A B A B ...) after a warm-up and
prints the median of the per-pair time ratio and each one's peak RSS.

A third repository, "wide", is a change as large as agents make: 10,000 files (the first
100 directories of the large layout), every one of them modified. It is where the line
counts run on two threads.

Usage: python3 benches/gate.py [--astrix PATH] [--pairs N] [--keep DIR] [--only small|large|wide]
(default astrix: target/release/astrix; build it with `cargo build --release` first).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchenv import git_env

LINES_PER_FILE = 30
TIME = "/usr/bin/time"


def run(args, cwd, env, stdin=None):
    result = subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
    return result.stdout


def file_paths(count):
    """`count` file paths: 10x10x10 nested directories of 100 files for 100,000."""
    if count <= 100:
        return [f"src/file{i:03}.txt" for i in range(count)]
    paths = []
    for a in range(10):
        for b in range(10):
            for c in range(10):
                for f in range(100):
                    paths.append(f"d{a}/d{b}/d{c}/file{f:02}.txt")
    return paths[:count]


def content(path, salt=""):
    return "".join(f"{path} line {n} {salt}\n" for n in range(LINES_PER_FILE)).encode()


POLICY_RULES = 50


def policy_text():
    rules = ["version = 1", 'default = "allow"', ""]
    for i in range(POLICY_RULES):
        if i % 2 == 0:
            rules += [
                "[[rule]]",
                f'id = "paths-{i}"',
                f'paths = ["d{i % 10}/d{(i // 10) % 10}/**/*.secret", "**/gen{i}/*.json"]',
                'decision = "require_approval"',
                "",
            ]
        else:
            rules += [
                "[[rule]]",
                f'id = "size-{i}"',
                f'paths = ["d{i % 10}/**", "src/**"]',
                f'policy = "lines_changed <= {100000 + i}"',
                "",
            ]
    return "\n".join(rules) + "\n"


def build_repo(root, count, env):
    os.makedirs(root)
    run(["git", "init", "-q", "-b", "main"], root, env)
    # fast-import writes the 100,000 blobs and the commit in one pass.
    paths = file_paths(count)
    stream = bytearray()
    stream += b"commit refs/heads/main\n"
    stream += b"committer Bench <bench@example.com> 1767225600 +0000\n"
    stream += b"data 7\ninitial\n"
    for path in paths:
        data = content(path)
        stream += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
    policy = policy_text().encode()
    stream += f"M 100644 inline Astrixfile.ax\ndata {len(policy)}\n".encode() + policy + b"\n"
    run(["git", "fast-import", "--quiet"], root, env, bytes(stream))
    run(["git", "checkout", "-q", "-f", "main"], root, env)
    run(["git", "repack", "-a", "-d", "-q"], root, env)
    run(["git", "prune-packed"], root, env)
    return paths


def stage_changes(root, paths, env):
    """100 modifications, 5 additions, 5 deletions, one exact rename, one edited rename."""
    count = len(paths)
    step = max(1, count // 112)
    chosen = paths[::step][:107]
    # On the 100-file repository there are not 107 files to touch: the deletions and
    # renames come first, and the modifications take the remaining 93.
    deleted, renamed, modified = chosen[:5], chosen[5:7], chosen[7:107]
    touched = []
    for path in modified:
        full = os.path.join(root, path)
        lines = content(path).decode().splitlines(keepends=True)
        lines[3] = "changed line\n"
        lines.insert(10, "inserted line\n")
        with open(full, "w") as out:
            out.writelines(lines)
        touched.append(path)
    for i in range(5):
        new = f"added/new{i}.txt"
        os.makedirs(os.path.join(root, "added"), exist_ok=True)
        with open(os.path.join(root, new), "wb") as out:
            out.write(content(new, "new"))
        touched.append(new)
    for path in deleted:
        os.remove(os.path.join(root, path))
        touched.append(path)
    exact_from, edited_from = renamed
    os.rename(os.path.join(root, exact_from), os.path.join(root, exact_from + ".moved"))
    touched += [exact_from, exact_from + ".moved"]
    with open(os.path.join(root, edited_from), "rb") as source:
        data = source.read()
    os.remove(os.path.join(root, edited_from))
    with open(os.path.join(root, edited_from + ".edited"), "wb") as out:
        out.write(data + b"one more line\n")
    touched += [edited_from, edited_from + ".edited"]
    run(["git", "add", "--"] + touched, root, env)


def modify_all(root, paths, env):
    """Every file modified: a line changed and a line inserted."""
    for path in paths:
        lines = content(path).decode().splitlines(keepends=True)
        lines[3] = "changed line\n"
        lines.insert(10, "inserted line\n")
        with open(os.path.join(root, path), "w") as out:
            out.writelines(lines)
    run(["git", "add", "-u"], root, env)


def timed(args, cwd, env):
    started = time.perf_counter()
    result = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    return elapsed, result.returncode, result.stderr.decode(errors="replace")


def peak_rss(args, cwd, env, runs=5):
    """Peak RSS in KiB, the largest of `runs` runs under `/usr/bin/time -f %M`.

    Not taken from `os.wait4` on the timed runs: Linux carries the forking process's
    high-water mark into the child across exec, so every child of this Python process (about
    200 MB after building the large repository) would report Python's RSS. GNU time is a small
    C program, so what it reports is the command's own peak.
    """
    peaks = []
    with tempfile.NamedTemporaryFile(mode="r") as out:
        for _ in range(runs):
            subprocess.run(
                [TIME, "-f", "%M", "-o", out.name, "--"] + args,
                cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
            )
            out.seek(0)
            peaks.append(int(out.read().split()[-1]))
    return max(peaks)


def measure(name, root, astrix, env, pairs):
    check = [astrix, "check"]
    numstat = ["git", "diff", "--cached", "--numstat"]
    for _ in range(3):  # warm-up: page cache, any astrix cache
        timed(check, root, env)
        timed(numstat, root, env)
    ratios, a_times, b_times = [], [], []
    load = os.getloadavg()[0]
    for _ in range(pairs):
        a, code, stderr = timed(check, root, env)
        if code == 2:
            sys.exit(f"astrix check failed: {stderr}")
        b, _, _ = timed(numstat, root, env)
        ratios.append(a / b)
        a_times.append(a)
        b_times.append(b)
    load = max(load, os.getloadavg()[0])
    a_rss = peak_rss(check, root, env)
    b_rss = peak_rss(numstat, root, env)
    print(f"{name}:")
    print(f"  astrix check                median {statistics.median(a_times) * 1000:7.1f} ms   peak RSS {a_rss / 1024:6.1f} MiB")
    print(f"  git diff --cached --numstat median {statistics.median(b_times) * 1000:7.1f} ms   peak RSS {b_rss / 1024:6.1f} MiB")
    print(f"  median per-pair ratio (astrix / git): {statistics.median(ratios):.2f}x over {pairs} pairs (load average {load:.1f})")
    return statistics.median(ratios)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--astrix", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "astrix"))
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--keep", help="build the repositories in this directory and keep them")
    parser.add_argument("--only", choices=["small", "large", "wide"])
    args = parser.parse_args()
    astrix = os.path.abspath(args.astrix)
    if not os.access(astrix, os.X_OK):
        sys.exit(f"{astrix} is not an executable; run `cargo build --release` first")
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{TIME} (GNU time) is needed to measure peak RSS")

    base = args.keep or tempfile.mkdtemp(prefix="astrix-bench-")
    try:
        env = git_env(base)
        repositories = {
            "small": (100, stage_changes, "100 files"),
            "large": (100_000, stage_changes, "100000 files"),
            "wide": (10_000, modify_all, "10000 files, all modified"),
        }
        for name, (count, change, title) in repositories.items():
            if args.only and args.only != name:
                continue
            root = os.path.join(base, name)
            if not os.path.exists(root):
                started = time.perf_counter()
                paths = build_repo(root, count, env)
                change(root, paths, env)
                print(f"built {count} files in {time.perf_counter() - started:.1f} s ({root})")
            measure(title, root, astrix, env, args.pairs)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
