#!/usr/bin/env python3
"""Recall of the test-tampering counts `assertions_removed` and `tests_removed` on real history.

Candidates are picked WITHOUT running astrix, from the diffs alone:

- a commit is a non-merge commit of the repository's HEAD history;
- only files that look like test code are read: a path with a `test`, `tests`, `testing`,
  `spec` or `__tests__` directory, or a name `test_*.py`, `*_test.py`, `*_test.go`,
  `*.test.js`/`*.spec.js` (and ts/mjs/cjs), `*Test.java`/`*Tests.java`, or a Rust file whose old
  side holds `#[test]`;
- an `assertions_removed` candidate removes (a `-` line of `git show -M`) at least one line
  matching ASSERT below, out of comments;
- a `tests_removed` candidate removes at least one such assertion line *and* at least one
  line declaring a test (TEST_DECL below).

From each kind's pool a seeded sampler picks --per-kind commits, spread over the repositories
round-robin (a repository whose pool is exhausted gives its turn to the next). Then astrix
judges each picked commit: a clone per repository (`git clone --no-checkout`), the parent
checked out, the commit staged on it with `git read-tree -u --reset C`, and
`astrix check --format json --explain` run there as a human (scratch HOME, no global git
configuration, nothing else from the caller's environment but PATH). Its counts and findings
are recorded.

Output: a markdown table (kind, repository, commit, subject, astrix count, an empty verdict
column for the judge, the candidate's matched removed lines) and a JSON file.

Usage:
  python3 benches/tamper_recall.py --astrix PATH --seed 41 --per-kind 40 \\
      --out FILE.md --json FILE.json MIRROR...
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchenv import git_env  # noqa: E402
from tamper_corpus import repo_name  # noqa: E402

KINDS = ["assertions_removed", "tests_removed"]

TEST_DIR = re.compile(r"(^|/)(test|tests|testing|spec|__tests__)/")
TEST_NAME = re.compile(
    r"(^|/)(test_[^/]*\.py|[^/]*_test\.py|[^/]*_test\.go|[^/]*\.(test|spec)\.(js|mjs|cjs|ts)"
    r"|[^/]*Tests?\.java)$")
CODE_EXT = re.compile(r"\.(py|go|js|mjs|cjs|ts|java|rs|kt)$")

ASSERT = re.compile(
    r"\bassert\w*\b"                      # assert, assert_eq!, assertEquals, assertThat, assert.x
    r"|\bexpect\s*\("                     # expect(…)
    r"|\.should\b|\bshould\.\w"           # should.js
    r"|\bt\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b"
    r"|\b(require|assert)\.\w+\s*\("      # testify
    r"|\bpytest\.raises\b|\bself\.fail\w*\s*\("
    r"|\.expect\s*\("                     # supertest
    r"|\bAssert\.\w+"
    r"|\bfail\s*\(")
TEST_DECL = re.compile(
    r"^\s*(async\s+)?def\s+test\w*\s*\("
    r"|(^|[^\w.$])(it|test|specify)(\.only)?\s*\("
    r"|\bfunc\s+Test\w*\s*\("
    r"|#\[test\]"
    r"|@Test\b"
    r"|public\s+void\s+test\w*\s*\(")
COMMENT = re.compile(r"^\s*(//|/\*|\*)")
PY_COMMENT = re.compile(r"^\s*#")


def looks_like_test(path):
    return bool(CODE_EXT.search(path)) and bool(TEST_DIR.search(path) or TEST_NAME.search(path))


def git(repo, *args, env, check=True):
    result = subprocess.run(["git", "-C", repo, *args], env=env, capture_output=True)
    if check and result.returncode != 0:
        sys.exit(f"git {' '.join(args)} in {repo} failed: "
                 f"{result.stderr.decode(errors='replace')}")
    return result.stdout.decode(errors="replace")


class Blobs:
    """`git cat-file --batch` over one repository, for the Rust `#[test]` check."""

    def __init__(self, repo, env):
        self.proc = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, spec):
        self.proc.stdin.write(spec.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return b""
        data = self.proc.stdout.read(int(header[2]) + 1)
        return data[:-1]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def patches(repo, env):
    """The `-U0` patches of every non-merge commit of HEAD's history, as lines, each commit
    opened by a line `\\0COMMIT <hash> <subject>`. One `git log -p`; when that fails (a blob
    missing from a partial mirror), one `git diff-tree` per commit, and one per file of a
    commit that still fails, leaving out the files whose blobs are missing."""
    args = ["-M", "-p", "-U0", "--no-color", "--no-ext-diff"]
    proc = subprocess.Popen(["git", "-C", repo, "log", "--no-merges", *args,
                             "--format=%x00COMMIT %H %s", "HEAD"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = proc.stdout.read().decode(errors="replace").splitlines()
    if proc.wait() == 0:
        yield from lines
        return
    print(f"  {repo}: git log -p failed (missing objects?); one commit at a time",
          file=sys.stderr)
    listed = git(repo, "log", "--no-merges", "--format=%H %P%x09%s", "HEAD", env=env)
    for row in listed.splitlines():
        head, _, subject = row.partition("\t")
        commit, *parents = head.split()
        if not parents:
            continue
        yield f"\x00COMMIT {commit} {subject}"
        result = subprocess.run(["git", "-C", repo, "diff-tree", *args, parents[0], commit],
                                env=env, capture_output=True)
        if result.returncode == 0:
            yield from result.stdout.decode(errors="replace").splitlines()
            continue
        raw = git(repo, "diff-tree", "-r", "-M", "-z", "--name-only", parents[0], commit,
                  env=env, check=False).split("\0")
        for path in [p for p in raw if p]:
            one = subprocess.run(["git", "-C", repo, "diff-tree", *args, parents[0], commit,
                                  "--", path], env=env, capture_output=True)
            if one.returncode == 0:
                yield from one.stdout.decode(errors="replace").splitlines()


def candidates(repo, env):
    """Every non-merge commit of HEAD's history with the removed test-code lines that match
    ASSERT and TEST_DECL: {commit: {"subject", "asserts": [(path, line)], "tests": [...]}}."""
    blobs = Blobs(repo, env)
    found = {}
    commit = subject = path = None
    is_test = in_header = False
    rust_checked = {}

    def rust_is_test(path):
        key = (commit, path)
        if key not in rust_checked:
            rust_checked[key] = b"#[test]" in blobs.read(f"{commit}^:{path}")
        return rust_checked[key]

    for line in patches(repo, env):
        if line.startswith("\x00COMMIT "):
            _, commit, *rest = line.split(" ", 2)
            subject = rest[0] if rest else ""
            path, is_test, in_header = None, False, False
            continue
        if line.startswith("diff --git "):
            path, is_test, in_header = None, False, True
            continue
        if line.startswith("@@"):
            in_header = False
            continue
        if in_header and line.startswith("--- "):
            old = line[4:]
            path = old[2:] if old.startswith("a/") else None
            is_test = False
            if path is not None:
                is_test = looks_like_test(path) or (
                    path.endswith(".rs") and rust_is_test(path))
            continue
        if in_header or not line.startswith("-") or not is_test:
            continue
        text = line[1:]
        if COMMENT.match(text) or (path.endswith(".py") and PY_COMMENT.match(text)):
            continue
        entry = found.setdefault(commit, {"subject": subject, "asserts": [], "tests": []})
        if ASSERT.search(text):
            entry["asserts"].append((path, text.strip()[:160]))
        if TEST_DECL.search(text):
            entry["tests"].append((path, text.strip()[:160]))
    blobs.close()
    return {c: e for c, e in found.items() if e["asserts"]}


def spread_sample(rng, pools, n):
    """n items out of per-repository pools, round-robin over the repositories in a seeded
    order, each pick uniformly random within its repository's pool."""
    pools = {name: list(pool) for name, pool in pools.items() if pool}
    for pool in pools.values():
        rng.shuffle(pool)
    order = sorted(pools)
    rng.shuffle(order)
    picked = []
    while len(picked) < n and any(pools.values()):
        for name in order:
            if pools[name] and len(picked) < n:
                picked.append((name, pools[name].pop()))
    return picked


def run_astrix(astrix, clone, commit, env):
    git(clone, "reset", "-q", "--hard", env=env)
    git(clone, "clean", "-fdxq", env=env)
    git(clone, "checkout", "-q", "--detach", f"{commit}^", env=env)
    git(clone, "read-tree", "-u", "--reset", commit, env=env)
    result = subprocess.run([astrix, "check", "--format", "json", "--explain"], cwd=clone,
                            env=env, capture_output=True)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return None, result.stderr.decode(errors="replace")[:300]
    diff = (report.get("intent") or {}).get("diff") or {}
    tamper = report.get("test_tampering") or {}
    findings = []
    for file in tamper.get("files", []):
        for f in file.get("findings", []):
            findings.append({k: f.get(k) for k in ("path", "line", "side", "kind", "count", "text")})
    files = [{k: file.get(k) for k in ("path", "language", "tests_removed", "assertions_removed",
                                       "skipped")}
             for file in tamper.get("files", [])]
    return {"counts": {k: diff.get(k) for k in KINDS}, "files": files,
            "findings": findings}, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--astrix", required=True)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--out", default="tamper-recall.md")
    parser.add_argument("--json", default="tamper-recall.json")
    parser.add_argument("repos", nargs="+")
    args = parser.parse_args()
    astrix = os.path.abspath(args.astrix)
    work = tempfile.mkdtemp(prefix="astrix-recall-")
    home = os.path.join(work, "home")
    os.mkdir(home)
    env = git_env(home)
    try:
        names, pools = {}, {kind: {} for kind in KINDS}
        for repo in args.repos:
            name = repo_name(repo, names)
            names[name] = os.path.abspath(repo)
            found = candidates(repo, env)
            pools["assertions_removed"][name] = sorted(found.items())
            pools["tests_removed"][name] = sorted(
                (c, e) for c, e in found.items() if e["tests"])
            print(f"{name:24} candidates: assertions_removed "
                  f"{len(pools['assertions_removed'][name]):5}  tests_removed "
                  f"{len(pools['tests_removed'][name]):5}", file=sys.stderr)

        rng = random.Random(args.seed)
        rows = []
        for kind in KINDS:
            picked = spread_sample(rng, pools[kind], args.per_kind)
            picked.sort(key=lambda item: (item[0], item[1][0]))
            rows += [(kind, name, commit, entry) for name, (commit, entry) in picked]

        clones, results = {}, []
        for kind, name, commit, entry in rows:
            if name not in clones:
                clone = os.path.join(work, name)
                subprocess.run(["git", "clone", "-q", "--no-checkout", names[name], clone],
                               env=env, check=True)
                clones[name] = clone
            report, error = run_astrix(astrix, clones[name], commit, env)
            results.append({
                "kind": kind, "repo": name, "commit": commit, "subject": entry["subject"],
                "candidate_asserts": entry["asserts"][:20],
                "candidate_asserts_total": len(entry["asserts"]),
                "candidate_tests": entry["tests"][:20],
                "candidate_tests_total": len(entry["tests"]),
                "astrix": report, "error": error,
                "count": (report or {}).get("counts", {}).get(kind),
            })
            print(f"{kind:19} {name:20} {commit[:12]} {results[-1]['count']}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    with open(args.json, "w") as out:
        json.dump({"seed": args.seed, "per_kind": args.per_kind,
                   "pool_sizes": {k: {n: len(p) for n, p in pools[k].items()} for k in KINDS},
                   "rows": results}, out, indent=1)
    with open(args.out, "w") as out:
        out.write(f"# Test-tampering recall candidates (seed {args.seed}, "
                  f"{args.per_kind} per kind)\n\n")
        out.write("| kind | repository | commit | subject | astrix count | verdict |\n"
                  "|---|---|---|---|---|---|\n")
        for r in results:
            subject = r["subject"].replace("|", "\\|")[:70]
            count = r["count"] if r["astrix"] else "error"
            out.write(f"| {r['kind']} | {r['repo']} | {r['commit'][:12]} | {subject} | "
                      f"{count} | |\n")
        out.write("\n## Candidate lines (removed, matched by the selector)\n")
        for r in results:
            out.write(f"\n### {r['kind']} · {r['repo']} · {r['commit'][:12]}\n\n")
            lines = r["candidate_tests"] if r["kind"] == "tests_removed" else r["candidate_asserts"]
            for path, text in lines[:8]:
                out.write(f"    {path}: {text}\n")
    print(f"{len(results)} rows written to {args.out} and {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
