#!/usr/bin/env python3
"""Hostile and huge inputs at full size (issue 9): wall time, peak RSS and answer of each.

Every case runs the release binary once under `/usr/bin/time -f %e %M` with a timeout and
prints one Markdown table row: the case, what astrix did, its exit code, wall seconds and peak
RSS, and git's own time and counts where git answers the same question. The rows are what
docs/robustness.md records ("Hostile and huge inputs"); tests/integration/scale.rs runs the
same cases (some scaled down) against the debug build.

Usage: python3 benches/robustness.py [--astrix PATH] [--keep DIR] [--only NAME[,NAME]]
(default astrix: target/release/astrix; build it with `cargo build --release` first).
Needs about 3 GB of disk in the temporary directory, and removes it unless --keep.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from benchenv import git_env

TIME = "/usr/bin/time"
TIMEOUT = 600
DEPTH = 100_000


class Bench:
    def __init__(self, astrix, root):
        self.astrix = astrix
        self.root = root
        self.home = os.path.join(root, "home")
        os.makedirs(self.home, exist_ok=True)
        self.env = git_env(self.home)
        self.rows = []

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def git(self, repo, *args, stdin=None):
        result = subprocess.run(
            ["git", *args], cwd=repo, env=self.env, input=stdin, capture_output=True
        )
        if result.returncode != 0:
            sys.exit(f"git {' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
        return result.stdout

    def timed(self, args, cwd, stdin=None, extra_env=None):
        """(exit code, seconds, peak KB, stdout, stderr) of one run under /usr/bin/time."""
        env = dict(self.env)
        env.update(extra_env or {})
        stats = self.path("time.txt")
        started = time.monotonic()
        try:
            result = subprocess.run(
                [TIME, "-f", "%e %M", "-o", stats, *args],
                cwd=cwd,
                env=env,
                input=stdin,
                capture_output=True,
                timeout=TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - started, None, b"", b"timeout"
        seconds, kb = open(stats).read().split()[-2:]
        return result.returncode, float(seconds), int(kb), result.stdout, result.stderr

    def repo(self, name, policy):
        repo = self.path(name)
        shutil.rmtree(repo, ignore_errors=True)
        os.makedirs(repo)
        self.git(repo, "init", "-q", "-b", "main")
        self.git(repo, "config", "commit.gpgsign", "false")
        if policy is not None:
            write(os.path.join(repo, "Astrixfile.ax"), policy)
        write(os.path.join(repo, "README.md"), "readme\n")
        self.git(repo, "add", "-A")
        self.git(repo, "commit", "-q", "-m", "base")
        return repo

    def record(self, case, result, answer=None, git=""):
        code, seconds, kb, out, err = result
        if code is None:
            answer = f"no answer within {TIMEOUT} s"
        elif answer is None:
            answer = first_line(out) or first_line(err)
        mb = "-" if kb is None else f"{kb / 1024:.0f}"
        row = f"| {case} | {answer} | {code} | {seconds:.2f} | {mb} | {git} |"
        print(row, flush=True)
        self.rows.append(row)

    def git_timed(self, repo, *args):
        started = time.monotonic()
        out = self.git(repo, *args)
        return time.monotonic() - started, out


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)


def first_line(data):
    for line in data.decode(errors="replace").splitlines():
        line = line.strip()
        if line:
            return line.replace("|", "\\|")[:110]
    return ""


def numstat(out):
    added = deleted = binary = 0
    for line in out.decode(errors="replace").splitlines():
        a, d = line.split("\t")[:2]
        if a == "-":
            binary += 1
        else:
            added += int(a)
            deleted += int(d)
    return added, deleted, binary


def intent(files, lines_added=1):
    return json.dumps(
        {
            "actor": {"type": "autonomous_llm"},
            "target": {"env": "development"},
            "modified_files": files,
            "diff": {"modifies_tests": "false", "lines_added": lines_added, "lines_deleted": 0},
        }
    )


SIZE_POLICY = (
    'version = 1\n\n[[rule]]\nid = "size"\npolicy = "lines_changed <= 400"\n'
    'decision = "deny"\n\n[[rule]]\nid = "no-binaries"\npolicy = "binary_files == 0"\n'
)
HOLD_POLICY = 'version = 1\n\n[[rule]]\nid = "size"\npolicy = "lines_changed <= 400"\n'


def heavy_policy(rules):
    parts = ['version = 1\ndefault = "allow"\n']
    for i in range(rules):
        decision = "deny" if i % 2 == 0 else "require_approval"
        parts.append(
            f'\n[[rule]]\nid = "r{i}"\npaths = ["**/mod{i}/**/*.{{rs,py,ts,go}}", '
            f'"src/[a-m]*{i}/**/x?{i}*.txt", "*{i}*.[ch]"]\ndecision = "{decision}"\n'
            f'reason = "rule {i}"\n'
        )
    return "".join(parts)


# ---------------------------------------------------------------------------------------


def nested_toml(b):
    dotted = ".".join(["a"] * DEPTH)
    cases = {
        "TOML: `x = [[[…]]]`, 100,000 levels": "x = " + "[" * DEPTH + "]" * DEPTH,
        "TOML: `x = {a={a=…}}`, 100,000 levels": "x = " + "{a=" * DEPTH + "1" + "}" * DEPTH,
        "TOML: a header of 100,000 `[`": "[" * DEPTH + "a" + "]" * DEPTH,
        "TOML: a dotted key of 100,000 parts": dotted + " = 1",
        "TOML: a table header of 100,000 parts": "[" + dotted + "]",
    }
    for case, body in cases.items():
        path = b.path("deep.ax")
        write(path, "version = 1\n" + body + "\n")
        result = b.timed([b.astrix, "validate", path], b.root)
        b.record(case, result, first_line(result[3]).replace(b.root, "…"))


def nested_json(b):
    policy = b.path("hold.ax")
    write(policy, HOLD_POLICY)
    arrays = "[" * DEPTH + "]" * DEPTH
    objects = '{"a":' * DEPTH + "1" + "}" * DEPTH
    base = (
        '{"actor": {"type": "human"}, "target": {"env": "d"}, "modified_files": [], '
        '"diff": {"modifies_tests": "false", "lines_added": %s, "lines_deleted": 0}}'
    )
    cases = {
        "JSON intent: `{\"a\":{\"a\":…}}`, 100,000 levels": objects,
        "JSON intent: `actor.type` = 100,000 nested arrays":
            '{"actor": {"type": ' + arrays + "}}",
        "JSON intent: `diff.lines_added` = 100,000 nested arrays": base % arrays,
    }
    for case, text in cases.items():
        result = b.timed(
            [b.astrix, "evaluate", "-", "--policy", policy, "--format", "json"],
            b.root,
            stdin=text.encode(),
        )
        answer = first_line(result[4]) if result[0] == 2 else json.loads(result[3])["reason"]
        b.record(case, result, answer)
    # MCP: one deep message between two ordinary ones.
    repo = b.repo("mcp", HOLD_POLICY)
    call = (
        '{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": '
        '"astrix_evaluate_policy", "arguments": {"intent": %s}}}'
    )
    messages = [
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": '
        '"2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}',
        '{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        call % (2, base % arrays),
        call % (3, base % "1"),
    ]
    result = b.timed([b.astrix, "mcp"], repo, stdin=("\n".join(messages) + "\n").encode())
    ids = [json.loads(line)["id"] for line in result[3].decode().splitlines()]
    b.record(
        "MCP: a `tools/call` nested 100,000 levels, then an ordinary one",
        result,
        f"answered ids {ids}: the unparsable message is dropped, the server goes on",
    )


def rules(b):
    policy = b.path("heavy.ax")
    write(policy, heavy_policy(20_000))
    size = os.path.getsize(policy)
    result = b.timed([b.astrix, "validate", policy], b.root)
    b.record(f"20,000 rules, 60,000 heavy globs ({size / 1e6:.1f} MB): validate", result)
    for count, files in [
        (2, ["a/mod19999/b/c.rs", "lib/v12344.h"]),
        (1_000, [f"src/d{i % 100}/file{i}.rs" for i in range(999)] + ["a/mod19999/b/c.rs"]),
    ]:
        write(b.path("intent.json"), intent(files))
        result = b.timed(
            [b.astrix, "evaluate", b.path("intent.json"), "--policy", policy,
             "--format", "json"],
            b.root,
        )
        reason = json.loads(result[3])["reason"] if result[0] is not None else None
        b.record(f"20,000 rules: evaluate an intent of {count:,} files", result, reason)
    # Globs too heavy for one set of 500: 20,000 rules of one glob with 50 `?`.
    parts = ["version = 1\n"]
    for i in range(20_000):
        parts.append(
            f'\n[[rule]]\nid = "r{i}"\npaths = ["**/x{i}/' + "?" * 50
            + '/[!a-c]*.{rs,py}"]\ndecision = "deny"\n'
        )
    write(policy, "".join(parts))
    result = b.timed([b.astrix, "validate", policy], b.root)
    b.record("20,000 rules, each one glob with 50 `?`: validate", result)


def million_files(b):
    policy = b.path("default.ax")
    files = [f"src/d{i % 1000}/sub{i % 37}/file{i}.rs" for i in range(1_000_000)]
    text = intent(files, 5).encode()
    write(b.path("million.json"), text)
    repo = b.repo("million", None)
    subprocess.run([b.astrix, "init"], cwd=repo, env=b.env, capture_output=True)
    shutil.copy(os.path.join(repo, "Astrixfile.ax"), policy)
    result = b.timed(
        [b.astrix, "evaluate", b.path("million.json"), "--policy", policy, "--format", "json"],
        b.root,
    )
    b.record(
        f"intent of 1,000,000 files ({len(text) / 1e6:.0f} MB), default policy, an agent",
        result,
        json.loads(result[3])["reason"] if result[0] is not None else None,
    )


def huge_policy(b):
    target = 50 * 1024 * 1024
    cases = {
        "a comment": "version = 1\n# " + "x" * target + "\n",
        "one string": 'version = 1\n[[rule]]\nid = "a"\ndecision = "deny"\nreason = "'
        + "y" * target + '"\n',
    }
    parts, size, i = ["version = 1\n"], 12, 0
    while size < target:
        part = f'[[rule]]\nid = "r{i}"\npaths = ["src/m{i}/**"]\ndecision = "deny"\n'
        parts.append(part)
        size += len(part)
        i += 1
    cases[f"{i:,} rules"] = "".join(parts)
    for what, text in cases.items():
        write(b.path("huge.ax"), text)
        result = b.timed([b.astrix, "validate", b.path("huge.ax")], b.root)
        b.record(f"50 MB policy file: {what}", result,
                 first_line(result[3]).replace(b.root, "…"))
    # Just under the limit: how long a 10 MiB policy of rules takes to load.
    text = cases[f"{i:,} rules"]
    cut = text.rfind("[[rule]]", 0, 10 * 1024 * 1024)
    write(b.path("ten.ax"), text[:cut])
    result = b.timed([b.astrix, "validate", b.path("ten.ax")], b.root)
    b.record("10 MiB policy file (the limit): rules", result,
             first_line(result[3]).replace(b.root, "…"))


def binary(b):
    repo = b.repo("binary", SIZE_POLICY)
    data = random.Random(1).randbytes(60 * 1024 * 1024)
    write(os.path.join(repo, "blob.bin"), data)
    b.git(repo, "add", "blob.bin")
    seconds, out = b.git_timed(repo, "diff", "--cached", "--numstat")
    result = b.timed([b.astrix, "check"], repo)
    b.record("60 MB binary file added", result, None,
             f"{seconds:.2f} s, {numstat(out)}")
    b.git(repo, "commit", "-q", "--no-verify", "-m", "blob")
    edited = bytearray(data)
    edited[1000] ^= 0xFF
    b.git(repo, "rm", "-q", "blob.bin")
    write(os.path.join(repo, "moved.bin"), bytes(edited))
    b.git(repo, "add", "moved.bin")
    seconds, out = b.git_timed(repo, "diff", "--cached", "--name-status")
    result = b.timed([b.astrix, "check"], repo)
    b.record("60 MB binary file renamed with a 1-byte edit", result, None,
             f"{seconds:.2f} s, {first_line(out)}")


def text_file(b, n=2_000_000):
    def lines(word, order=None):
        indices = range(n) if order is None else order
        return "".join(f"{word} {i} of the text\n" for i in indices)

    repo = b.repo("text", SIZE_POLICY)
    write(os.path.join(repo, "big.txt"), lines("line"))
    b.git(repo, "add", "big.txt")
    seconds, out = b.git_timed(repo, "diff", "--cached", "--numstat")
    result = b.timed([b.astrix, "check"], repo)
    b.record("2,000,000-line file added", result, None, f"{seconds:.2f} s, {numstat(out)}")
    b.git(repo, "commit", "-q", "--no-verify", "-m", "big")
    shuffled = list(range(n))
    random.Random(1).shuffle(shuffled)
    for what, content, algorithms in [
        ("rewritten entirely", lines("rewritten"), ["myers", "minimal", "patience"]),
        ("reversed", lines("line", range(n - 1, -1, -1)), ["myers", "minimal", "patience"]),
        ("shuffled", lines("line", shuffled), ["myers"]),
    ]:
        write(os.path.join(repo, "big.txt"), content)
        b.git(repo, "add", "big.txt")
        for algorithm in algorithms:
            b.git(repo, "config", "diff.algorithm", algorithm)
            result = b.timed([b.astrix, "intent"], repo)
            counted = None
            if result[0] == 0:
                diff = json.loads(result[3])["diff"]
                counted = f"+{diff['lines_added']} -{diff['lines_deleted']}"
            git = "not run (minutes: `--minimal` has no cost limit)"
            if algorithm != "minimal":
                seconds, out = b.git_timed(repo, "diff", "--cached", "--numstat")
                git = f"{seconds:.2f} s, {numstat(out)[:2]}"
            b.record(f"2,000,000-line file {what}, `diff.algorithm={algorithm}`: intent",
                     result, counted, git)
        b.git(repo, "config", "--unset", "diff.algorithm")
        b.git(repo, "reset", "-q")


def many_files(b):
    repo = b.repo("many", None)
    subprocess.run([b.astrix, "init"], cwd=repo, env=b.env, capture_output=True)
    b.git(repo, "add", "-A")
    b.git(repo, "commit", "-q", "-m", "policy")
    blob = b.git(repo, "hash-object", "-w", "--stdin", stdin=b"hello\n").decode().strip()
    entries = "".join(
        f"100644 {blob}\td{i % 100}/e{i // 1000 % 10}/file{i}.txt\n" for i in range(100_000)
    )
    b.git(repo, "update-index", "--index-info", stdin=entries.encode())
    seconds, out = b.git_timed(repo, "diff", "--cached", "--numstat")
    git = f"{seconds:.2f} s, {numstat(out)}"
    b.record("100,000 staged files, a human on `main`", b.timed([b.astrix, "check"], repo),
             None, git)
    b.record("100,000 staged files, an agent on `main`",
             b.timed([b.astrix, "check"], repo, extra_env={"CLAUDECODE": "1"}), None, git)


def paths(b):
    policy = ('version = 1\n\n[[rule]]\nid = "keys"\npaths = ["*.pem", "secrets/**"]\n'
              'decision = "deny"\n\n[[rule]]\nid = "one-file"\npolicy = "files_changed < 2"\n'
              'decision = "deny"\n')
    repo = b.repo("paths", policy)
    write(os.path.join(repo.encode(), b"a\xff.txt"), b"a\n")
    write(os.path.join(repo.encode(), b"a\xfe.txt"), b"b\n")
    b.git(repo, "add", "-A")
    b.record("two names that differ only in invalid UTF-8 bytes",
             b.timed([b.astrix, "check"], repo), None)
    b.git(repo, "commit", "-q", "--no-verify", "-m", "two")
    dir_ = "/".join(["n" * 255] * 15)
    leaf = "k" * (4095 - len(dir_) - 1 - 4) + ".pem"
    # Relative to the work tree: the absolute path would pass PATH_MAX.
    subprocess.run(["sh", "-c", 'mkdir -p "$1" && cd "$1" && echo x > "$2"', "sh", dir_, leaf],
                   cwd=repo, check=True)
    b.git(repo, "add", "-A")
    b.record("a 4,095-byte path of 255-byte names (index version 2)",
             b.timed([b.astrix, "check"], repo), None)
    b.git(repo, "update-index", "--index-version", "4")
    b.record("the same in an index of version 4", b.timed([b.astrix, "check"], repo), None)
    b.git(repo, "reset", "-q")
    shutil.rmtree(os.path.join(repo, "n" * 255))
    blob = b.git(repo, "hash-object", "-w", "--stdin", stdin=b"x\n").decode().strip()
    long = "d" * 16_000 + "/x.pem"
    deep = "d/" * 2_000 + "x.pem"
    b.git(repo, "update-index", "--index-info",
          stdin=f"100644 {blob}\t{long}\n100644 {blob}\t{deep}\n".encode())
    b.record("index entries of 16,006 bytes and 2,000 directories (version 4)",
             b.timed([b.astrix, "check"], repo), None)


CASES = {
    "toml": nested_toml,
    "json": nested_json,
    "rules": rules,
    "million": million_files,
    "policy": huge_policy,
    "binary": binary,
    "text": text_file,
    "many": many_files,
    "paths": paths,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--astrix", default="target/release/astrix")
    parser.add_argument("--keep", help="work in this directory and keep it")
    parser.add_argument("--only", help="comma-separated cases: " + ",".join(CASES))
    args = parser.parse_args()
    astrix = os.path.abspath(args.astrix)
    if not os.path.exists(astrix):
        sys.exit(f"{astrix} does not exist; run `cargo build --release` first")
    root = args.keep or tempfile.mkdtemp(prefix="astrix-robustness-")
    os.makedirs(root, exist_ok=True)
    bench = Bench(astrix, os.path.realpath(root))
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    print("| case | answer | exit | wall s | peak RSS MB | git |")
    print("|---|---|---|---|---|---|", flush=True)
    try:
        for name, case in CASES.items():
            if args.only and name not in args.only.split(","):
                continue
            case(bench)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
